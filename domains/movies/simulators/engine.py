"""The user's decision engine: the only part that holds the task; from the ledger of constraints it decides each reply act.

Its inputs are the reader's `Reading` of each agent message and a seeded rng for decisions; its
output is a `ReplyAct` for a writer. It never sees wording, so what a task needs to be won does not
depend on which reader or writer runs, and the decision rng is separate from the writer's.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from dataclasses import dataclass
from dataclasses import field as dataclass_field

from domains.movies.catalog import Catalog, CatalogItem
from domains.movies.simulators import templates as t
from domains.movies.simulators.acts import (
    Accept,
    ActPart,
    AskBack,
    Decline,
    Inform,
    Leave,
    NoPreference,
    Opening,
    PushToCommit,
    ReplyAct,
)
from domains.movies.simulators.reader import Reading
from domains.movies.simulators.vocabulary import FIELD_TOPICS, RATING_ORDER
from domains.movies.tasks import Constraint, Task, TaskConstraint
from runner.kits.user.acts import AcceptedAlready, HoldBack, NothingFitsAck
from runner.kits.user.ledger import Ledger, Questions, answerable

__all__ = [
    "ASK_BACK_SHARE",
    "FREE_TOPICS",
    "DecisionEngine",
    "EngineState",
    "Temperament",
    "temperament",
]


@dataclass(frozen=True)
class Temperament:
    """The user's decisions for one trial: what varies with the seed changes the path, never the outcome.

    `strikes`: declines the user sits through of titles the agent could have known were wrong (they
    break something the user already said, a hint it already gave, an on_ask preference the agent
    never asked about, the user's history); at that many it leaves. Seeded 2 or 3.
    `decline_cap`: declines of any kind before the user leaves; set by the task (3 + 2 per hidden
    or vaguely answered constraint), so an agent that learns from every hint always has room.
    `vague_first`: fields whose first answer is value-free ("nothing too long"); asked again,
    the user gives the number. `ask_back`: the chance it asks about a proposed title first.
    `topics_per_message`: how many of the topics asked in one message it answers (the first ones).
    `question_patience`: how many distinct taste topics it answers in the whole conversation; set
    by the task (its on_ask fields plus two, at least four), so asking well is always enough.
    """

    strikes: int
    decline_cap: int
    vague_first: frozenset[str]
    ask_back: float
    topics_per_message: int
    question_patience: int


STRIKE_CHOICES: tuple[int, ...] = (2, 3)
TOPICS_PER_MESSAGE_CHOICES: tuple[int, ...] = (3,)
# Which services the user has is a plain fact, not a taste: telling it costs no patience.
FREE_TOPICS = frozenset({"streaming_services"})
VAGUE_SHARE = 0.5
ASK_BACK_SHARE = 0.3


def temperament(task: Task, seed: int) -> Temperament:
    """The seeded temperament of the user of `task` in the trial with `seed`."""
    rng = random.Random(f"temperament|{seed}|{task.id}")
    strikes = rng.choice(STRIKE_CHOICES)
    vague = frozenset(
        tc.constraint.field
        for tc in task.constraints
        if tc.reveal == "on_ask"
        and t.vague_constraint(tc.constraint, random.Random(0)) is not None
        and rng.random() < VAGUE_SHARE
    )
    on_ask = {tc.constraint.field for tc in task.constraints if tc.reveal == "on_ask"}
    learnable = sum(
        1
        for tc in task.constraints
        if tc.reveal == "hidden" or (tc.reveal == "on_ask" and tc.constraint.field in vague)
    )
    return Temperament(
        strikes=strikes,
        decline_cap=3 + 2 * learnable,
        vague_first=vague,
        ask_back=ASK_BACK_SHARE,
        topics_per_message=rng.choice(TOPICS_PER_MESSAGE_CHOICES),
        question_patience=max(4, len(on_ask - FREE_TOPICS) + 2),
    )


def _side(c: Constraint, item: CatalogItem) -> tuple[str, float] | None:
    """Which side of an ordered constraint the item misses on ("high": too much), and its value."""
    if c.field in ("runtime", "rating", "vote_count", "release_date") and c.op in ("<=", ">="):
        raw = getattr(item, c.field)
        value = float(raw.toordinal()) if c.field == "release_date" else float(raw)
        return ("high" if c.op == "<=" else "low", value)
    if c.field == "content_rating" and c.op in ("==", "in"):
        allowed = [RATING_ORDER.index(v) for v in _as_list(c.value) if v in RATING_ORDER]
        if item.content_rating in RATING_ORDER and allowed:
            level = float(RATING_ORDER.index(item.content_rating))
            return ("high", level) if level > max(allowed) else ("low", level)
    return None


def _as_list(value: object) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else [str(value)]


@dataclass
class EngineState(Ledger):
    """What the user has been through so far in the conversation (rebuilt on every reply)."""

    named: set[str] = dataclass_field(default_factory=set)
    accepted: set[str] = dataclass_field(default_factory=set)
    pending: str | None = None
    described: set[str] = dataclass_field(default_factory=set)
    times: Counter[str] = dataclass_field(default_factory=Counter)
    hinted: dict[int, list[float]] = dataclass_field(default_factory=dict)

    def copy(self) -> EngineState:
        """An independent copy (`DecisionEngine.react` mutates the state it is given)."""
        return copy.deepcopy(self)


class DecisionEngine:
    """Decides the user's reply acts for one task and seed."""

    def __init__(self, task: Task, catalog: Catalog, seed: int, persona: str | None) -> None:
        self._task = task
        self._catalog = catalog
        self._persona = persona
        self.temperament = temperament(task, seed)
        mood = self.temperament
        self._questions = Questions(
            mood.topics_per_message, mood.question_patience, FREE_TOPICS, "answered"
        )

    def opening(self) -> ReplyAct:
        volunteered = [tc.constraint for tc in self._task.constraints if tc.reveal == "volunteer"]
        return ReplyAct(parts=[Opening(persona=self._persona, constraints=volunteered)])

    def react(self, reading: Reading, state: EngineState, rng: random.Random) -> ReplyAct:
        """Decide the reply to one agent message, updating `state`."""
        answered, held_back = answerable(reading.asked, state, self._questions)
        asked_now = set(answered)
        new = [i for i in reading.proposed if i not in state.named]
        state.named.update(reading.proposed)
        state.described.update(reading.described)
        parts: list[ActPart] = []
        if asked_now:
            parts += self._answers(asked_now, state)
        if held_back:
            parts.append(HoldBack(reason=held_back))
        state.asked |= asked_now
        state.times.update(asked_now)
        if len(new) > 1:
            return ReplyAct(verdict="leave", parts=[Leave(reason="list")])
        target = new[0] if new else None
        if (
            target is None
            and state.pending is not None
            and (state.pending in reading.named or not asked_now)
        ):
            target = state.pending  # the agent answered the question about the pending title
        if target is not None:
            item = self._catalog.get(target)
            assert item is not None
            heard = target in state.described  # a pitch told what it is: nothing to ask back
            if target != state.pending and not heard and rng.random() < self.temperament.ask_back:
                state.pending = target
                return ReplyAct(parts=[*parts, AskBack(title=item.title)])
            state.pending = None
            verdict = self._review(item, state)
            parts.append(verdict)
            if isinstance(verdict, Accept):
                state.accepted.add(target)
                return ReplyAct(verdict="accept", parts=parts)
            state.declines += 1
            mood = self.temperament
            if state.worn_out(mood.strikes, mood.decline_cap):
                return ReplyAct(verdict="leave", parts=[*parts, Leave(reason="declines")])
            return ReplyAct(verdict="decline", parts=parts)
        if not reading.asked:
            if reading.nothing_fits:
                parts.append(NothingFitsAck())
            elif state.accepted:
                return ReplyAct(verdict="accept", parts=[*parts, AcceptedAlready()])
            else:
                parts.append(PushToCommit())
        elif not parts:
            parts.append(PushToCommit())
        return ReplyAct(parts=parts)

    def _stateable(self, tc: TaskConstraint, asked: set[str]) -> bool:
        return tc.reveal == "volunteer" or (tc.reveal == "on_ask" and tc.constraint.field in asked)

    def _answers(self, fields: set[str], state: EngineState) -> list[ActPart]:
        """Answers to the topics asked (only those): vague the first time for a vague field."""
        asked = state.asked | fields
        parts: list[ActPart] = []
        nothing: list[str] = []
        for field in FIELD_TOPICS:
            if field not in fields:
                continue
            stated = [
                tc.constraint
                for tc in self._task.constraints
                if tc.constraint.field == field and self._stateable(tc, asked)
            ]
            vague = field in self.temperament.vague_first and field not in state.asked
            vague = vague and all(t.vague_constraint(c, random.Random(0)) for c in stated)
            if field == "streaming_services":
                services = list(self._task.user_services)
                parts.append(Inform(field=field, constraints=stated, services=services))
            elif stated:
                parts.append(Inform(field=field, constraints=stated, vague=vague))
            else:
                nothing.append(field)
        if nothing:
            parts.append(NoPreference(topics=nothing))
        return parts

    def _review(self, item: CatalogItem, state: EngineState) -> Accept | Decline:
        """Accept, or decline: with a hint that points a direction but never states the value.

        The decline is a strike when the agent could have known: the user watched it, it breaks
        what the user said plainly, it breaks an on_ask preference nobody asked about (then the
        user says only that it is not for them), it is on the wrong side of a hint already given,
        or it is not on services the user named.
        """
        title = item.title
        if item.id in self._task.watched:
            state.strikes += 1
            return Decline(title=title, reason="watched")
        for index, tc in enumerate(self._task.constraints):
            if tc.constraint.evaluate(item).satisfied:
                continue
            field = tc.constraint.field
            if tc.reveal == "on_ask" and field not in state.asked:
                state.strikes += 1
                return Decline(title=title, reason="not_for_me")
            told = tc.reveal == "volunteer" or (
                tc.reveal == "on_ask"
                and (field not in self.temperament.vague_first or state.times[field] > 1)
            )
            hint = Decline(title=title, reason="hint", constraint=tc.constraint, item_id=item.id)
            if told:
                state.strikes += 1
                return hint
            side = _side(tc.constraint, item)
            earlier = state.hinted.setdefault(index, [])
            if side is not None and any(
                (side[0] == "high" and side[1] >= v) or (side[0] == "low" and side[1] <= v)
                for v in earlier
            ):
                state.strikes += 1
            if side is not None:
                earlier.append(side[1])
            return hint
        services = self._task.user_services
        if services and not any(s in item.streaming_services for s in services):
            state.strikes += "streaming_services" in state.asked
            return Decline(title=title, reason="not_on_services")
        return Accept(title=title)
