"""Seeded writing styles for a wording twin: how one assistant talks (register, politeness, length, layout, typos), drawn once per conversation.

A domain's styled twin keeps its plain agent's decisions and writes each message in the style
drawn from the trial seed: which phrasing bank (register), whether it says please and thanks,
whether it adds a pleasantry, whether several questions go in a bullet list or in prose,
whether a pitch ends by asking for a reaction, and how many typos slip in. Nothing here knows how
the simulated user reads; the styles are how chat assistants and shop assistants write.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

__all__ = [
    "REGISTERS",
    "Bank",
    "Register",
    "Style",
    "ask_message",
    "draw_style",
    "join_questions",
    "opening_of",
    "phrase",
    "typo",
]

# Register (or "any") -> phrasings; a domain's styled twin brings one bank per thing it says.
Bank = Mapping[str, Sequence[str]]
Register = Literal["chatty", "formal", "terse", "nonnative", "cheerful"]
REGISTERS: tuple[Register, ...] = ("chatty", "formal", "terse", "nonnative", "cheerful")


@dataclass(frozen=True)
class Style:
    """One assistant's habits for a whole conversation."""

    register: Register
    polite: bool  # please / thank you / "if you don't mind"
    long: bool  # adds a pleasantry and, in a pitch, the plot
    bullets: bool  # several questions, or a pitch's facts, as a bulleted list (else prose)
    reaction: bool  # a pitch ends by asking for a reaction (else a statement)
    typo_rate: float  # share of eligible words with two letters swapped

    @property
    def line_break(self) -> str:
        """What goes between a pitch and the line after it: a new line under a bulleted pitch."""
        return "\n" if self.bullets else " "


def draw_style(seed: int, salt: str, opening: str = "") -> Style:
    """The style of one conversation: trial `seed` of the twin named `salt`, whose user opened
    with `opening` (so every task and seed meets its own assistant; same inputs, same style)."""
    rng = random.Random(f"style|{salt}|{seed}|{opening}")
    register = rng.choice(REGISTERS)
    return Style(
        register=register,
        polite=register == "formal" or rng.random() < 0.5,
        long=register != "terse" and rng.random() < 0.6,
        bullets=rng.random() < 0.4,
        reaction=rng.random() < 0.7,
        typo_rate=rng.choice((0.0, 0.0, 0.02, 0.05)),
    )


def opening_of(messages: Sequence[Mapping[str, object]]) -> str:
    """The user's first message of a conversation (what tells one conversation from another)."""
    for m in messages:
        if m.get("role") == "user" and isinstance(m.get("content"), str):
            return str(m["content"])
    return ""


def phrase(bank: Bank, style: Style, rng: random.Random) -> str:
    """One phrasing from `bank` for the style's register (the "any" entries suit every register)."""
    pool = [*bank.get(style.register, ()), *bank.get("any", ())]
    if not pool:
        raise KeyError(f"no phrasing for register {style.register!r} and none for 'any'")
    return rng.choice(pool)


_LEADS: Bank = {
    "chatty": ("A couple of things so I can narrow it down:", "Quick ones before I dig in:"),
    "formal": ("To make a suitable suggestion, may I ask:", "A few questions, if I may:"),
    "terse": ("Need to know:", "Questions:"),
    "nonnative": ("Please I need to know some things:", "For find good one, tell me:"),
    "cheerful": ("Ooh, let's get this right! Tell me:", "Fun! A few quick ones:"),
}
_CLOSINGS: Bank = {
    "chatty": ("Answer whichever you like!", "No pressure, just what you know."),
    "formal": ("Thank you in advance.", "Any of these will help."),
    "terse": ("Short answers fine.", ""),
    "nonnative": ("Thank you very much!", "Any answer is ok."),
    "cheerful": ("Can't wait to find you something!", "Go!"),
}
_JOINS: Bank = {
    "chatty": (" Also, ", " And ", " Oh, and "),
    "formal": (" In addition, ", " Also, "),
    "terse": (" ",),
    "nonnative": (" And also ", " Also "),
    "cheerful": (" And ", " Plus, "),
}


def join_questions(questions: Sequence[str], style: Style, rng: random.Random) -> str:
    """Several questions in one message: a bullet list under a lead line with a closing line, or
    prose joined the way the register joins sentences."""
    if len(questions) == 1:
        return questions[0]
    if style.bullets:
        lead = rng.choice(_LEADS[style.register])
        mark = rng.choice(("- ", "• ", "* "))
        body = "\n".join(f"{mark}{q}" for q in questions)
        closing = rng.choice(_CLOSINGS[style.register])
        return f"{lead}\n{body}" + (f"\n{closing}" if closing else "")
    out = questions[0]
    for q in questions[1:]:
        joiner = rng.choice(_JOINS[style.register])
        out += joiner + (q[:1].lower() + q[1:] if joiner.strip() else q)
    return out


_POLITE: Bank = {"any": ("If you don't mind me asking: ", "Please, ", "")}


def ask_message(questions: Sequence[str], style: Style, rng: random.Random, openers: Bank) -> str:
    """A message asking `questions` (one per topic, in order): joined by `join_questions`, led in
    long styles by an opener from `openers`, softened in polite prose styles."""
    body = join_questions(questions, style, rng)
    polite = phrase(_POLITE, style, rng) if style.polite and not style.bullets else ""
    if polite and body[1:2].islower():
        body = polite + body[:1].lower() + body[1:]
    opener = phrase(openers, style, rng) if style.long else ""
    return f"{opener} {body}".strip()


# Words a typo never touches: bold spans, words with a capital or a digit or a symbol, short words.
_PROTECTED_RE = re.compile(r"\*\*.+?\*\*|\S*[A-Z0-9€%()/:@#&+]\S*")
_WORD_RE = re.compile(r"\b[a-z]{5,}\b")
# Words that carry a decision and are spelt right even by a hasty writer (policy words).
_KEEP = frozenset({"sponsored", "promoted", "advertised", "order", "return", "refund"})


def typo(text: str, rate: float, rng: random.Random) -> str:
    """`text` with about `rate` of its eligible words misspelt (two inner letters swapped)."""
    if rate <= 0:
        return text
    protected = [(m.start(), m.end()) for m in _PROTECTED_RE.finditer(text)]

    def swap(m: re.Match[str]) -> str:
        word = m.group(0)
        if word in _KEEP or any(a <= m.start() < b for a, b in protected):
            return word
        if rng.random() >= rate:
            return word
        i = rng.randrange(1, len(word) - 2)
        return word[:i] + word[i + 1] + word[i] + word[i + 2 :]

    return _WORD_RE.sub(swap, text)
