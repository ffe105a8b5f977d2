"""The model writer: a model puts a decided act into words, and a guard keeps its words to the act, else the template's words are said.

The model sees only the act (`ReplyAct` JSON, with the persona line an opening carries), the id,
title and age rating of a title it declines (what an age hint needs), and a variation key. Its
words are then checked, and on any failure the template writer's words for the same act and
the same variation are what the user says, counted as a guard trigger with its reason:
- `leak`: the leak audit (`leaks.message_leaks`) finds a hidden value, or an on_ask one not asked
  yet, given the fields asked so far and the agent's last message (so an echo is no leak);
- `missing_value`: a value the act states (an opening's or a plain inform's constraints, the
  services listed) is not found by the vocabulary's finders;
- `contrary`: an accepting act with refusing words, or a declining / leaving act with accepting
  words, or an ask-back with either (the phrase lists below; deliberately short);
- `extra_title`: a catalog title the act does not name;
- `empty` / `too_long`, and `model_error` when the call fails after its retries.
A check is only as good as our finders, so a check that the template wording of the same act
fails too is not applied to the model's words (the templates are the reference).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from domains.movies.catalog import Catalog
from domains.movies.simulators.acts import (
    Accept,
    AskBack,
    Decline,
    Inform,
    Leave,
    Opening,
    ReplyAct,
)
from domains.movies.simulators.leaks import VALUE_FINDERS, message_leaks
from domains.movies.simulators.reader import title_index
from domains.movies.simulators.vocabulary import (
    Mention,
    genre_mentions,
    service_mentions,
)
from domains.movies.simulators.writer import TemplateWriter
from domains.movies.tasks import Constraint, Task
from runner.kits.user import model as kit
from runner.kits.user.acts import AcceptedAlready
from runner.kits.user.model import MAX_WORDS_CHARS, ChatModel, WriteOutcome, plain_problem

__all__ = [
    "MAX_WORDS_CHARS",
    "WRITER_PROMPT",
    "GuardContext",
    "ModelWriter",
    "WriteOutcome",
    "check_words",
    "writer_request",
]

WRITER_PROMPT = """\
You write one chat message of a person who is asking a movie recommendation assistant for help.
You get what the person decided to say as JSON ("act": its parts, in order) and you write only
those parts, in that order, in a natural, short, first-person message: no lists, no markdown,
no quotes around it, nothing the parts do not say. The parts:
- opening: ask for help finding a movie; say the persona line if there is one; state every
  constraint given, plainly, with its value.
- inform: answer about that field. If "vague" is true, give only a direction with no number or
  value ("nothing too long"); else state each constraint with its value. "services": list them.
- no_preference: no particular wish about those fields.
- hold_back: too many questions at once ("at_once"), or no more questions ("patience").
- ask_back: ask what the title is about before deciding.
- accept: accept the title warmly (do not name any other title).
- decline: turn the title down. "watched": seen it already; "not_for_me": no reason given;
  "not_on_services": not on the person's services; "hint": point in the direction of the given
  constraint for this title only ("that sounds too long for tonight") and NEVER state its value,
  its number, its genre or its rating code.
- leave: say goodbye ("list": the assistant listed too many titles; "declines": tired of it).
- push_to_commit: ask the assistant to just suggest one. nothing_fits_ack: a neutral "your call".
- accepted_already: you already said yes; ask it to make it official.
Never mention a movie title the act does not name. Answer with the message text only."""

_ACCEPTING = re.compile(
    r"(?i)\b(?:i'?ll take it|let'?s go with|lock it in|sounds (?:great|good|perfect)|"
    r"i'?d (?:love to )?watch (?:that|it)|that'?s (?:perfect|the one))\b"
)
_REFUSING = re.compile(
    r"(?i)\b(?:no thanks|not for me|i'?ll pass|pass on (?:it|that)|rather not|not interested|"
    r"not that one|something else|anything else)\b"
)


@dataclass(frozen=True)
class GuardContext:
    """What the guard checks a message against: the task, fields asked so far, the agent's last words."""

    task: Task
    asked: frozenset[str]
    echo: str


def writer_request(act: ReplyAct, catalog: Catalog, variation: str) -> list[dict[str, Any]]:
    """The chat messages asking for the words of one act (only the act and what it may state)."""
    titles = []
    for part in act.parts:
        if isinstance(part, Decline) and part.item_id and (item := catalog.get(part.item_id)):
            titles.append(
                {"id": item.id, "title": item.title, "content_rating": item.content_rating}
            )
    payload = {"act": act.model_dump(mode="json"), "titles": titles, "variation": variation}
    return [
        {"role": "system", "content": WRITER_PROMPT},
        {"role": "user", "content": json.dumps(payload, ensure_ascii=False)},
    ]


def _finder(field: str, value: object) -> Callable[[str], list[Mention]] | None:
    finders: dict[str, Callable[[str], list[Mention]]] = {
        **VALUE_FINDERS,
        "genres": lambda text: genre_mentions(text, [str(value)]),
        "streaming_services": lambda text: service_mentions(text, [str(value)]),
    }
    return finders.get(field)


def _normal(field: str, value: object) -> float | str:
    if field == "release_date":
        return float(str(value)[:4])
    if field in ("runtime", "rating", "vote_count") and not isinstance(value, str):
        return float(value)  # type: ignore[arg-type]
    return str(value)


def _states(text: str, field: str, value: object) -> bool:
    """Whether `text` states this value of the field (by the vocabulary's finders)."""
    finder = _finder(field, value)
    if finder is None:  # text fields (director, cast, title...): verbatim
        return str(value).lower() in text.lower()
    wanted = _normal(field, value)
    return any(m.value == wanted for m in finder(text))


def _stated_values(act: ReplyAct) -> list[tuple[str, object]]:
    out: list[tuple[str, object]] = []
    for part in act.parts:
        constraints: list[Constraint] = []
        if isinstance(part, Opening):
            constraints = list(part.constraints)
        elif isinstance(part, Inform):
            constraints = [] if part.vague else list(part.constraints)
            out += [("streaming_services", s) for s in part.services or []]
        for c in constraints:
            values = c.value if isinstance(c.value, list) else [c.value]
            out += [(c.field, v) for v in values]
    return out


def _consistency(words: str, act: ReplyAct, catalog: Catalog) -> list[tuple[str, str, str]]:
    """(check, reason, detail) of every act-consistency check the words fail (leaks apart)."""
    problems: list[tuple[str, str, str]] = []
    for field, value in _stated_values(act):
        if not _states(words, field, value):
            problems.append(
                (f"value:{field}:{value}", "missing_value", f"{field} {value!r} is not stated")
            )
    kinds = {type(p) for p in act.parts}
    accepting = bool(kinds & {Accept, AcceptedAlready})
    declining = bool(kinds & {Decline, Leave})
    if (accepting or AskBack in kinds) and (m := _REFUSING.search(words)):
        problems.append(("refusing", "contrary", f"refusing words {m.group(0)!r} in this act"))
    if (declining or AskBack in kinds) and (m := _ACCEPTING.search(words)):
        problems.append(("accepting", "contrary", f"accepting words {m.group(0)!r} in this act"))
    index = title_index(catalog)
    allowed = {
        i
        for p in act.parts
        if isinstance(p, Accept | Decline | AskBack)
        for i in index.find(p.title)
    }
    for item_id in index.find(words):
        if item_id not in allowed:
            item = catalog.get(item_id)
            title = item.title if item else item_id
            problems.append((f"title:{item_id}", "extra_title", f"names {title!r}"))
    return problems


def check_words(
    words: str, act: ReplyAct, reference: str, catalog: Catalog, guard: GuardContext
) -> tuple[str, str] | None:
    """The first reason (code, detail) the words may not be said, or None; `reference` is the
    template wording of the same act (a check it fails itself is not applied)."""
    problem = plain_problem(words)
    if problem is not None:
        return problem
    leaks = message_leaks(guard.task, words, set(guard.asked), echo=guard.echo)
    if leaks:
        return "leak", f"{leaks[0].field}: {leaks[0].reason}"
    excused = {check for check, _reason, _detail in _consistency(reference, act, catalog)}
    for check, reason, detail in _consistency(words, act, catalog):
        if check not in excused:
            return reason, detail
    return None


class ModelWriter(kit.ModelWriter[ReplyAct, GuardContext]):
    """Words acts with a model (the kit's loop), guarded; the template writer's words stand in
    on every failure."""

    def __init__(self, catalog: Catalog, endpoint: ChatModel) -> None:
        templates = TemplateWriter(catalog)
        super().__init__(
            endpoint,
            lambda act, variation: writer_request(act, catalog, variation),
            lambda act, variation: templates.write(act, random.Random(variation)),
            lambda words, act, reference, guard: check_words(words, act, reference, catalog, guard),
        )
