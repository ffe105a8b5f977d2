"""The styled twin: a second natural wording of the expert's and heuristic's decisions, written from many seeded assistant styles.

Unlike the first natural twin, nothing here was written against the simulated user's reader: the
wrapper knows only its plain agents' own sentences (their question and proposal strings) and
rewrites each into the style drawn for the trial (`runner.agents.styles`): chatty, formal,
terse, non-native or cheerful; polite or not; with or without pleasantries; several questions
as bullets or prose; mood menus for the kind of film; a pitch that describes the title (genre,
year, length, age rating, and in long styles the plot) and often ends by asking for a reaction;
a few typos. The decisions are the plain agent's: the same topics asked in the same order, the
same title put forward or recommended, the same disclosure and abstention. A message it does
not recognise is passed on unchanged.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

from domains.movies.baselines.chat import fetched_titles
from domains.movies.baselines.expert import PRESS, SERVICES_QUESTION, TOPIC_QUESTIONS
from domains.movies.baselines.heuristic import (
    ABSTAIN_TEXT,
    CAREFUL_QUESTIONS,
    FOLLOW_UPS,
    SPONSORED_NOTE,
)
from runner.agents.styles import Bank, Style, ask_message, draw_style, opening_of, phrase, typo
from runner.agents.twin import WordingTwin
from runner.core.protocols import Agent, ChatMessage

__all__ = ["ASK", "plain_questions", "styled_twin", "stylize"]

# The plain agents' question sentences -> the fields each asks (and whether it presses for a number).
_QUESTION_FIELDS: dict[str, tuple[tuple[str, ...], bool]] = {
    SERVICES_QUESTION: (("streaming_services",), False),
    **{
        q: ((t,) if t != "people" else ("director", "cast"), False)
        for t, q in TOPIC_QUESTIONS.items()
    },
    **{q: ((t,), True) for t, q in PRESS.items()},
    **{q: ((t,), True) for t, (_, q) in FOLLOW_UPS.items()},
    CAREFUL_QUESTIONS[3]: (("content_rating",), False),
    CAREFUL_QUESTIONS[7]: (("director",), False),
    CAREFUL_QUESTIONS[8]: (("cast",), False),
}

# The phrase banks (data, beside this module): how each register words each thing the plain agents
# say. ASK: field -> how it is asked about (one field per question); PRESS_ASK: asking again for a
# number after a vague answer; ABOUT: answering "what is it about?" on a title already put
# forward; LIKENESSES: likening the title to one the user has watched (their history), in long
# styles; the others are named after what they word.
_BANKS: dict[str, Any] = json.loads(
    (Path(__file__).parent / "styled_banks.json").read_text(encoding="utf-8")
)
ASK: dict[str, Bank] = _BANKS["ASK"]
PRESS_ASK: dict[str, Bank] = _BANKS["PRESS_ASK"]
OPENERS: Bank = _BANKS["OPENERS"]
LEADS: Bank = _BANKS["LEADS"]
ABOUT: Bank = _BANKS["ABOUT"]
FACTS: Bank = _BANKS["FACTS"]
REACTIONS: Bank = _BANKS["REACTIONS"]
STATEMENTS: Bank = _BANKS["STATEMENTS"]
DISCLOSURES: Bank = _BANKS["DISCLOSURES"]
COMMITS: Bank = _BANKS["COMMITS"]
LIKENESSES: Bank = _BANKS["LIKENESSES"]
GOODBYES: Bank = _BANKS["GOODBYES"]
NOTHING: Bank = _BANKS["NOTHING"]
_PROPOSAL_RE = re.compile(r"How about \*\*(?P<title>.+?)\*\*(?P<year> \(\d{4}\))?\?")
_COMMIT_RE = re.compile(r"I'm recommending \*\*(?P<title>.+?)\*\*(?P<year> \(\d{4}\))?\.")
_DESCRIBE_RE = re.compile(r"^\*\*(?P<title>.+?)\*\*(?P<year> \(\d{4}\))? is ")
_SENTENCE_END_RE = re.compile(r"(?<=[.!?])\s")


def plain_questions(text: str) -> list[tuple[str, bool]]:
    """The (field, pressed) pairs the plain agent's message asks, in the order it asks them."""
    found = sorted(
        (text.find(q), fields, pressed)
        for q, (fields, pressed) in _QUESTION_FIELDS.items()
        if q in text
    )
    return [(f, pressed) for _at, fields, pressed in found for f in fields]


def _pitch(
    title: str,
    year: str,
    item: dict[str, Any] | None,
    style: Style,
    rng: random.Random,
    leads: Bank,
    plot: bool,
) -> str:
    """A lead naming the title, its facts (a bullet list in bulleted styles), and the first
    sentence of its plot when `plot`."""
    lead = phrase(leads, style, rng).format(t=title, y=year)
    if not item:
        return lead
    genres = " and ".join(str(g).lower() for g in item.get("genres") or []) or "feature"
    overview = str(item.get("overview") or "").strip()
    story = _SENTENCE_END_RE.split(overview)[0] if plot and overview else ""
    if style.bullets:
        facts = [genres, f"{item.get('runtime')} minutes", f"rated {item.get('content_rating')}"]
        return "\n".join([lead, *(f"- {f}" for f in facts), *([story] if story else [])])
    fact = phrase(FACTS, style, rng).format(
        g=genres, r=item.get("runtime"), c=item.get("content_rating")
    )
    return " ".join(p for p in (lead, fact, story) if p)


def _close(style: Style, rng: random.Random) -> str:
    return phrase(REACTIONS if style.reaction else STATEMENTS, style, rng)


def stylize(text: str, messages: list[ChatMessage], seed: int, salt: str = "movies") -> str:
    """The plain message `text` in the trial's style, keeping its decisions."""
    style = draw_style(seed, salt, opening_of(messages))
    rng = random.Random(f"styled|{salt}|{seed}|{len(messages)}|{text}")
    by_title, watched = fetched_titles(messages)
    disclose = style.line_break + phrase(DISCLOSURES, style, rng) if SPONSORED_NOTE in text else ""
    if text.strip() == ABSTAIN_TEXT:
        out = phrase(NOTHING, style, rng)
    elif m := _COMMIT_RE.search(text):
        out = phrase(COMMITS, style, rng).format(t=m["title"], y=m["year"] or "") + disclose
        if style.long:
            out += " " + phrase(GOODBYES, style, rng)
    elif m := _PROPOSAL_RE.search(text):
        item = by_title.get(m["title"].lower())
        pitch = _pitch(m["title"], m["year"] or "", item, style, rng, LEADS, style.long)
        others = [w for w in watched if w.lower() != m["title"].lower()]
        if style.long and others and rng.random() < 0.5:
            pitch += " " + phrase(LIKENESSES, style, rng).format(w=others[0])
        out = f"{pitch}{disclose}{style.line_break}{_close(style, rng)}"
    elif m := _DESCRIBE_RE.search(text):
        item = by_title.get(m["title"].lower())
        pitch = _pitch(m["title"], m["year"] or "", item, style, rng, ABOUT, True)
        out = f"{pitch}{disclose}{style.line_break}{_close(style, rng)}"
    elif asked := plain_questions(text):
        questions = [
            phrase((PRESS_ASK if pressed else ASK)[field], style, rng) for field, pressed in asked
        ]
        out = ask_message(questions, style, rng, OPENERS)
    else:
        return text
    return typo(out.strip(), style.typo_rate, rng)


def styled_twin(inner: Agent, seed: int, name: str) -> WordingTwin:
    """Any movie agent with its messages rewritten by `stylize`; tool calls untouched."""
    return WordingTwin(inner, seed, name, stylize)
