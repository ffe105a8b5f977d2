"""The shopper's reader: one agent message in, the acts it holds out (topics asked, products put forward, a request to confirm).

It is the only part of the shopper that interprets words; the decision engine sees only its
`Reading`. Rule-based, and written for how assistants really talk:
- a question is a sentence ending in "?", one opening like a question without the mark ("any
  allergies I should know about"), an indirect request ("let me know your budget", "I'd love to
  hear whether you eat meat"), or an item of a bullet-list questionnaire; greetings, recaps and
  pitches around it change nothing;
- a question asks about a topic when it names it in any common form ("anything you can't eat",
  "how much were you hoping to spend", "do you care about how processed it is"); words that
  describe a product named in the same question are a pitch, not a question;
- a product counts as put forward when the message names it (by its name, in any case, inside
  bold or quotes, or by its id) and not as a comparison ("cheaper than X", "like your usual X"),
  a past order, an item to return, or one ruled out ("X is out of stock", "instead of X");
- a request to confirm is a question asking to place the order, process the return, or take a
  substitute; announcing "I'll place the order now" asks nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Literal

from domains.grocery.mentions import Resolver
from domains.grocery.user.vocabulary import (
    TOPIC_PATTERNS,
    WEAK_TOPIC_PATTERNS,
    Topic,
)

__all__ = [
    "ConfirmKind",
    "NamedProduct",
    "Reading",
    "ShopperReader",
    "is_question",
    "segments",
    "topics_asked",
]

ConfirmKind = Literal["order", "return", "substitution"]


@dataclass(frozen=True)
class NamedProduct:
    """One product the resolver can find: its id, name, brand and pack size."""

    id: str
    name: str
    brand: str
    quantity: str = ""


@dataclass(frozen=True)
class Reading:
    """What one agent message does, as the shopper understands it."""

    asked: tuple[Topic, ...]
    """Topics the message asks the shopper about, in the order it asks them."""
    proposed: tuple[str, ...]
    """Product ids the message puts forward, in order (each once)."""
    named: tuple[str, ...]
    """Every product id the message names (proposed, compared, ruled out, returned)."""
    confirm: ConfirmKind | None
    """The message asks the shopper to confirm an order, a return or a substitution."""
    nothing_fits: bool
    """The message says nothing suitable was found (words only; it decides nothing)."""
    unclear: tuple[str, ...] = ()
    """Product names put forward that fit several products (the shopper asks which one)."""


# -- segments and questions ------------------------------------------------------------------

_MARKDOWN = re.compile(r"\*\*|__|`|~~|^#+\s*|(?<!\w)_(?!\w)", re.MULTILINE)
_SPLIT = re.compile(r"(?<=[?!])\s+|(?<=[.;])\s+(?=[A-Z\"'(*])|\s+(?:—|--|–)\s+|\n+")
_PAREN = re.compile(r"\([^()\n]*\)")
_BULLET = re.compile(r"^\s*(?:[-*•·–]|\d+[.)]|[a-z][.)])\s+")
_ASKING_CUE = re.compile(
    r"(?i)\b(?:let me know|let us know|tell me|i'?d (?:love|like|want) to (?:know|hear)|"
    r"i would (?:love|like) to (?:know|hear)|(?:i'?m|i am) (?:wondering|curious)|i wonder|"
    r"(?:could|can|would) you (?:share|say|tell|let|give|describe|list|mention|clarify|confirm)|"
    r"please (?:share|tell|let|list|describe|say|mention|confirm)|mind sharing|"
    r"it(?:'d| would) help (?:me )?(?:to (?:know|hear)|if|a lot to)|(?:helpful|useful) to know|"
    r"help me (?:understand|narrow)|(?:want|need) to (?:know|check)|fill me in|"
    r"any preferences? (?:on|for|about|regarding)|your preferences? (?:on|for|about|regarding)|"
    r"what about|how about (?:the|your)|feel free to (?:say|tell|share|mention)|"
    r"before i (?:search|look|start|suggest)[^.]*,\s*(?:what|which|how|any|do|are|is))"
)
_QUESTION_START = re.compile(
    r"(?i)^\W*(?:(?:so|and|also|okay|ok|great|cool|alright|then|first|next|lastly|finally|now|"
    r"perfect|thanks|got it|one more thing|quick question)\b[\s,:!-]*)*"
    r"(?:whether|what|what's|which|how|do|does|did|are|is|would|could|should|will|can|any|"
    r"anything|have|has|shall|may|when|who|where|prefer|care)\b"
)
_GIVEN_CLAUSE = re.compile(
    r"(?i)^\W*(?:since|given(?: that)?|as|because|now that|seeing as|with|you (?:said|mentioned|"
    r"told me)|noted)\b[^,?]{0,80},\s*"
)
_LABEL_ONLY = re.compile(r"(?i)^[\w][\w /&-]{0,30}:\s*\??\s*$")
_QUESTION_HEADER = re.compile(
    r"(?i)\b(?:questions?|tell me|let me know|a (?:few|couple of) (?:things|details)|"
    r"before i (?:start|search|look|suggest)|to narrow (?:it|things) down|help me narrow)\b|[?:]\s*$"
)


def segments(text: str) -> list[tuple[str, bool]]:
    """The message's sentences and list items, each with whether it is a question."""
    # A parenthesis is one aside (a pitch's "(€1.84; Nutri-Score B; organic)"): never split.
    clean = _PAREN.sub(lambda m: m.group(0).replace(";", ","), _MARKDOWN.sub("", text))
    out: list[tuple[str, bool]] = []
    lines = clean.splitlines() or [clean]
    questionnaire = False
    for line in lines:
        if not line.strip():
            continue
        bullet = bool(_BULLET.match(line))
        body = _BULLET.sub("", line).strip()
        if not bullet:
            questionnaire = bool(_QUESTION_HEADER.search(body)) and body.rstrip().endswith(
                (":", "?")
            )
        for part in _SPLIT.split(body):
            part = part.strip()
            if not part:
                continue
            asks = is_question(part) or (bullet and questionnaire) or bool(_LABEL_ONLY.match(part))
            out.append((part, asks))
    return out


def is_question(sentence: str) -> bool:
    """Whether one sentence asks something (a mark, a question opening, or an indirect request)."""
    s = _GIVEN_CLAUSE.sub("", sentence.strip())
    return s.endswith("?") or bool(_QUESTION_START.match(s)) or bool(_ASKING_CUE.search(s))


def _compile(fragments: Iterable[str]) -> re.Pattern[str]:
    ordered = sorted(set(fragments), key=len, reverse=True)
    return re.compile(r"(?i)(?<![\w-])(?:" + "|".join(ordered) + r")(?![\w-])")


_TOPIC_RES: tuple[tuple[Topic, re.Pattern[str]], ...] = tuple(
    (topic, _compile(frags)) for topic, frags in TOPIC_PATTERNS.items()
)
_WEAK_RES: tuple[tuple[Topic, re.Pattern[str]], ...] = tuple(
    (topic, _compile(frags)) for topic, frags in WEAK_TOPIC_PATTERNS.items()
)
# Phrases where a topic word means something else; blanked before topics are read.
_NOT_A_TOPIC = re.compile(
    r"(?i)\b(?:how (?:can|may) i help|anything else|(?:any|other) questions?|help you|"
    r"(?:our|the|my) (?:catalog|search|tools?|store|shop)|in stock|stock levels?|"
    r"(?:sound|sounds|look|looks) (?:good|great|fine|right)|work for you|works for you|"
    r"(?:the|your) (?:order|basket|cart|return|refund)|place (?:the|your|an) order|"
    r"how many (?:options|results|products) (?:i|we)|"
    r"a (?:good|great) (?:fit|choice|option|pick)|no problem|value it)\b"
)


def topics_asked(text: str) -> tuple[Topic, ...]:
    """The topics one message asks about, in order (questions that name a product excluded)."""
    return _topics(text, lambda s: False)


def _topics_in(segment: str) -> list[tuple[int, Topic]]:
    s = _NOT_A_TOPIC.sub(lambda m: " " * len(m.group(0)), segment)
    claimed: list[tuple[int, int]] = []
    found: list[tuple[int, Topic]] = []
    for topic, pattern in _TOPIC_RES:
        for m in pattern.finditer(s):
            if any(a < m.end() and m.start() < b for a, b in claimed):
                continue
            claimed.append((m.start(), m.end()))
            found.append((m.start(), topic))
    if not found:
        for topic, pattern in _WEAK_RES:
            weak = pattern.search(s)
            if weak:
                found.append((weak.start(), topic))
    return sorted(found)


def _topics(text: str, names_product: Callable[[str], bool]) -> tuple[Topic, ...]:
    out: list[Topic] = []
    for segment, asks in segments(text):
        if not asks or names_product(segment):
            continue
        body = _GIVEN_CLAUSE.sub("", segment)
        for _, topic in _topics_in(body):
            if topic not in out:
                out.append(topic)
    return tuple(out)


# -- confirm requests and saying nothing fits --------------------------------------------

_CONFIRM_ORDER = re.compile(
    r"(?i)\b(?:(?:place|put through|submit|finali[sz]e|complete|go ahead with|proceed with|"
    r"confirm|process) (?:the |your |this |that |an )?(?:order|purchase|checkout)|check ?out|"
    r"(?:shall|should|can|may) i (?:go ahead and |now )?(?:order|buy|purchase|place)|"
    r"(?:ready|happy|okay|ok|good) (?:for me )?to (?:order|check ?out|place|buy|go ahead)|"
    r"want me to (?:go ahead and )?(?:order|place|buy|purchase|check|proceed|finali[sz]e)|"
    r"(?:you'?d like|you want) (?:me )?to (?:order|buy|purchase)|"
    r"go ahead and (?:order|place|buy|purchase)|confirm (?:the|your|this) basket|"
    r"(?:order|buy|purchase) (?:it|them|this|these) (?:for you|now))\b"
)
_CONFIRM_RETURN = re.compile(
    r"(?i)\b(?:(?:process|proceed with|go ahead with|confirm|start|submit|file|issue|raise|"
    r"arrange|set up|log|open) (?:the |a |your |this |that )?(?:return|refund)|"
    r"(?:shall|should|can|may) i (?:go ahead and |now )?(?:return|refund)|"
    r"want me to (?:go ahead and )?(?:return|refund|process)|(?:return|refund) (?:it|this|that) "
    r"(?:for you|now))\b"
)
_CONFIRM_SUBSTITUTION = re.compile(
    r"(?i)\b(?:substitut\w*|replacement|instead|swap\w*|switch\w*|alternative|in its place|"
    r"in place of)\b"
)
_NOTHING_FITS = re.compile(
    r"(?i)\b(?:nothing (?:in (?:the|our) (?:catalog|store|range)|we (?:have|carry|stock)|(?:i )?"
    r"(?:could|can) find|available|suitable)?\s*(?:fits|meets|matches|works|suits|ticks)|"
    r"(?:couldn'?t|could not|can'?t|cannot|wasn'?t able to|was not able to|am unable to|unable to)"
    r" (?:find|locate|see) (?:any|a single|anything|a product|something|an option)|"
    r"no (?:product|item|option)s? (?:in (?:the|our) catalog )?(?:that )?(?:fits|meets|matches|"
    r"ticks|satisf)|none of (?:the|our) (?:products|items|options)|there(?:'s| is) nothing (?:that|"
    r"which|i can)|no suitable|nothing suitable|doesn'?t exist in (?:our|the) catalog)"
)


class ShopperReader:
    """Reads agent messages for one catalog (its product names and ids)."""

    def __init__(self, products: Iterable[Any]) -> None:
        self.resolver = Resolver(products)

    def read(self, text: str) -> Reading:
        """The acts of one agent message."""
        found = self.resolver.find(text)  # the scorer's own resolver (domains.grocery.mentions)
        named = tuple(dict.fromkeys(m.product for m in found if m.product is not None))
        proposed = [m.product for m in found if m.product is not None and not m.ruled_out]
        proposed = list(dict.fromkeys(proposed))
        asked = _topics(text, lambda s: bool(self.resolver.find(s)))
        return Reading(
            asked=asked,
            proposed=tuple(proposed),
            named=named,
            unclear=tuple(
                dict.fromkeys(m.name for m in found if m.product is None and not m.ruled_out)
            ),
            confirm=self._confirm(text, bool(proposed)),
            nothing_fits=bool(_NOTHING_FITS.search(text)) and not proposed,
        )

    @staticmethod
    def _confirm(text: str, proposes: bool) -> ConfirmKind | None:
        questions = [s for s, asks in segments(text) if asks]
        joined = " ".join(questions)
        if _CONFIRM_RETURN.search(joined):
            return "return"
        if _CONFIRM_ORDER.search(joined):
            return "order"
        if proposes and _CONFIRM_SUBSTITUTION.search(joined):
            return "substitution"
        return None
