"""The scripted user simulator: a deterministic, rule-based user who follows the reveal rules exactly.

Rules (see ASK_KEYWORDS in `vocabulary.py` for what counts as asking about a field):
- the first message is a request plus every `volunteer` constraint, stated plainly;
- an `on_ask` constraint is stated only once the agent has asked about its field;
- a `hidden` constraint is never stated; a proposal that breaks it gets a hint without the value;
- asked about streaming services, the user lists the services it subscribes to;
- a proposal (a catalog title or id named in the agent's message) that breaks nothing is accepted;
  one already watched, or not on the user's services, is declined with the reason;
- an agent that neither asks nor proposes is pushed to commit; an honest "nothing fits" is
  accepted on a no-valid-recommendation task and pushed back on otherwise.
"""

from __future__ import annotations

import random
import re
import weakref
from dataclasses import dataclass

from runner.catalog import Catalog, CatalogItem
from runner.protocols import UserTurn
from runner.simulators import templates as t
from runner.simulators.vocabulary import (
    FIELD_TOPICS,
    asked_fields,
    content_rating_mentions,
    genre_mentions,
    rating_mentions,
    runtime_mentions,
    service_mentions,
    year_mentions,
)
from runner.tasks import Constraint, Task, TaskConstraint
from runner.transcript import ComponentSpec, MessageEvent

__all__ = ["NOTHING_FITS_RE", "ScriptedUser", "TitleIndex", "persona_line", "title_index"]

# An agent message saying it found nothing suitable.
NOTHING_FITS_RE = re.compile(
    r"(?i)\b(nothing (in|that|fits|matches|quite)|no (movie|film|title|match)|"
    r"(couldn't|could not|can't|cannot|unable to|wasn't able to|was not able to) find|"
    r"none of|doesn't exist|does not exist|isn't anything|is not anything|no good match|"
    r"no suitable|abstain)"
)

_ID_RE = re.compile(r"\btmdb_\d+\b")


class TitleIndex:
    """Finds catalog items named in a text: by id, or by title (one-word titles match case-sensitively)."""

    def __init__(self, catalog: Catalog) -> None:
        self._catalog = catalog
        entries = sorted(((i.title, i.id) for i in catalog.items), key=lambda e: -len(e[0]))
        self._by_title: dict[str, str] = {}
        parts: list[str] = []
        for title, item_id in entries:
            one_word = len(title.split()) == 1
            key = title if one_word else title.lower()
            if key in self._by_title:
                continue
            self._by_title[key] = item_id
            parts.append(re.escape(title) if one_word else f"(?i:{re.escape(title)})")
        alternation = "|".join(parts) or r"(?!x)x"
        self._pattern = re.compile(
            rf"\b{_ID_RE.pattern[2:-2]}\b|(?<![\w])(?:{alternation})(?![\w])"
        )
        self.titles: tuple[str, ...] = tuple(e[0] for e in entries)

    def find(self, text: str) -> list[str]:
        """Distinct item ids named in the text, in order of first appearance."""
        ordered: list[str] = []
        for match in self._pattern.finditer(text):
            found = match.group(0)
            item_id = (
                found
                if found in self._catalog
                else self._by_title.get(found) or self._by_title.get(found.lower())
            )
            if item_id is not None and item_id not in ordered:
                ordered.append(item_id)
        return ordered


_INDEXES: weakref.WeakKeyDictionary[Catalog, TitleIndex] = weakref.WeakKeyDictionary()


def title_index(catalog: Catalog) -> TitleIndex:
    """The (cached) title index of a catalog."""
    index = _INDEXES.get(catalog)
    if index is None:
        index = _INDEXES[catalog] = TitleIndex(catalog)
    return index


_SECOND_TO_FIRST = (
    (re.compile(r"^You are\b"), "I'm"),
    (re.compile(r"^You're\b"), "I'm"),
    (re.compile(r"^You\b"), "I"),
    (re.compile(r"\byourself\b"), "myself"),
    (re.compile(r"\byour\b"), "my"),
    (re.compile(r"\bYour\b"), "My"),
    (re.compile(r"\byou're\b"), "I'm"),
    (re.compile(r"\byou\b"), "me"),
)


def persona_line(task: Task) -> str | None:
    """The persona's first sentence in the first person, or None if it names any attribute value.

    A persona sentence that mentions a genre, a length, a score, an age rating, a service or a year
    could contradict or leak a constraint, so the scripted user then leaves it out.
    """
    text = task.persona.strip()
    if not text:
        return None
    first = re.split(r"(?<=[.!?])\s+", text, maxsplit=1)[0].strip()
    if not first.startswith(("You ", "You're", "I ", "I'm", "We ", "We're")):
        return None
    for pattern, repl in _SECOND_TO_FIRST:
        first = pattern.sub(repl, first)
    if (
        genre_mentions(first)
        or runtime_mentions(first)
        or rating_mentions(first)
        or content_rating_mentions(first)
        or service_mentions(first)
        or year_mentions(first)
    ):
        return None
    if not first.endswith((".", "!", "?")):
        first += "."
    return first


@dataclass(frozen=True)
class _Review:
    """The scripted user's verdict on one proposed item."""

    accepted: bool
    sentence: str


class ScriptedUser:
    """A deterministic user for one task; its wording varies with the seed, never its decisions."""

    def __init__(self, task: Task, catalog: Catalog, seed: int) -> None:
        self._task = task
        self._catalog = catalog
        self._seed = seed
        self._titles = title_index(catalog)
        self._asked_memo: dict[str, frozenset[str]] = {}

    @property
    def spec(self) -> ComponentSpec:
        return ComponentSpec(name="scripted")

    def _rng(self, turn: int) -> random.Random:
        return random.Random(f"scripted|{self._seed}|{self._task.id}|{turn}")

    async def respond(self, conversation: list[MessageEvent]) -> UserTurn:
        return self.reply(conversation)

    # -- the rules ------------------------------------------------------------------------

    def reply(self, conversation: list[MessageEvent]) -> UserTurn:
        """The user's next message given the visible conversation (synchronous core of `respond`)."""
        user_turns = sum(1 for m in conversation if m.role == "user")
        rng = self._rng(user_turns)
        if user_turns == 0:
            return UserTurn(content=self._opening(rng))
        agent_messages = [m.content for m in conversation if m.role == "agent"]
        last = agent_messages[-1] if conversation[-1].role == "agent" else ""
        earlier = agent_messages[:-1] if conversation[-1].role == "agent" else agent_messages
        asked_before: set[str] = set()
        for text in earlier:
            asked_before |= self._asked(text)
        asked_now = self._asked(last)
        proposals = self._titles.find(last)

        parts: list[str] = []
        verdict: str = "continue"
        if asked_now:
            parts += self._answers(asked_now, asked_before | asked_now, rng)
        if len(proposals) > 1:
            parts.append(rng.choice(t.ONE_AT_A_TIME))
        elif len(proposals) == 1:
            item = self._catalog.get(proposals[0])
            assert item is not None
            review = self._review(item, asked_before | asked_now, rng)
            parts.append(review.sentence)
            verdict = "accept" if review.accepted else "decline"
        elif not asked_now:
            if NOTHING_FITS_RE.search(last):
                if self._task.no_valid_recommendation:
                    parts.append(rng.choice(t.ABSTAIN_OK))
                    verdict = "abstain_ok"
                else:
                    parts.append(rng.choice(t.REFUSE_GIVING_UP))
            elif self._accepted_before(earlier, asked_before):
                parts.append(rng.choice(t.ASK_AGAIN_AFTER_ACCEPT))
                verdict = "accept"
            else:
                parts.append(rng.choice(t.PUSH_TO_COMMIT))
        elif asked_now <= asked_before:
            parts.append(rng.choice(t.PUSH_TO_COMMIT))
        return UserTurn(content=" ".join(parts), verdict=verdict)

    def _asked(self, text: str) -> set[str]:
        if text not in self._asked_memo:
            self._asked_memo[text] = frozenset(asked_fields(text, ignore=self._titles.titles))
        return set(self._asked_memo[text])

    def _opening(self, rng: random.Random) -> str:
        parts = [rng.choice(t.OPENINGS)]
        line = persona_line(self._task)
        if line:
            parts.append(line)
        volunteered = [tc.constraint for tc in self._task.constraints if tc.reveal == "volunteer"]
        parts += [t.state_constraint(c, rng) for c in volunteered]
        if not volunteered:
            parts.append("I'm open to suggestions.")
        return " ".join(parts)

    def _stateable(self, tc: TaskConstraint, asked: set[str]) -> bool:
        return tc.reveal == "volunteer" or (tc.reveal == "on_ask" and tc.constraint.field in asked)

    def _answers(self, fields: set[str], asked: set[str], rng: random.Random) -> list[str]:
        parts: list[str] = []
        nothing: list[str] = []
        for field in FIELD_TOPICS:
            if field not in fields:
                continue
            stated = [
                tc.constraint
                for tc in self._task.constraints
                if tc.constraint.field == field and self._stateable(tc, asked)
            ]
            if field == "streaming_services":
                parts.append(t.subscription_sentence(list(self._task.user_services), rng))
                parts += [t.state_constraint(c, rng) for c in stated]
            elif stated:
                parts += [t.state_constraint(c, rng) for c in stated]
            else:
                nothing.append(FIELD_TOPICS[field])
        if nothing:
            template = rng.choice(t.NO_PREFERENCE)
            parts.append(template.format(topic=t.join_list(nothing)))
        return parts

    def _review(self, item: CatalogItem, asked: set[str], rng: random.Random) -> _Review:
        if item.id in self._task.watched:
            return _Review(False, rng.choice(t.ALREADY_SEEN))
        for tc in self._task.constraints:
            if tc.constraint.evaluate(item).satisfied:
                continue
            hint = t.decline_hint(tc.constraint, item, rng)
            if self._stateable(tc, asked):
                hint = f"{hint} Remember: {_lower_first(t.state_constraint(tc.constraint, rng))}"
            return _Review(False, hint)
        services = self._task.user_services
        if services and not any(s in item.streaming_services for s in services):
            return _Review(False, rng.choice(t.NOT_ON_MY_SERVICES))
        return _Review(True, rng.choice(t.ACCEPT))

    def _accepted_before(self, earlier: list[str], asked: set[str]) -> bool:
        """Did the user accept a proposal earlier in the conversation?"""
        for text in earlier:
            ids = self._titles.find(text)
            if len(ids) != 1:
                continue
            item = self._catalog.get(ids[0])
            if item is not None and self._review(item, asked, random.Random(0)).accepted:
                return True
        return False


def _lower_first(sentence: str) -> str:
    return sentence[:1].lower() + sentence[1:] if sentence[:2] != "I " else sentence


def constraints_on(task: Task, field: str) -> list[Constraint]:
    """The task's constraints on one field (helper for tests and the audit)."""
    return [tc.constraint for tc in task.constraints if tc.constraint.field == field]
