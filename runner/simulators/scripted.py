"""The scripted user's decision engine and template writer: a seeded user whose variation changes the path, never the outcome.

The reader (`reader.py`) turns each agent message into acts; this module decides the reply from
the ledger of the task's constraints and words it from the template bank (`templates.py`):
- the first message is a request plus every `volunteer` constraint, in seeded paraphrase;
- an `on_ask` constraint is stated only once the agent has asked about its field, and only the
  topics asked are answered; for some fields (seeded) the first answer is vague ("nothing too
  long") and the number comes only when the agent asks about that topic again;
- one message gets answers to at most 3 topics (the first ones asked; more makes it a form, and
  no further topics are answered), and over the conversation the user answers the task's on_ask
  fields plus two (at least four) distinct taste topics - asking the right questions is always
  enough, a questionnaire of everything is not;
- a `hidden` constraint is never stated; a proposal that breaks it gets a directional hint
  without the value; one that breaks an on_ask constraint nobody asked about gets "not for me";
- asked about streaming services, the user lists the services it subscribes to;
- a proposal (a title the reader finds put forward) that breaks nothing is accepted; otherwise it
  is declined. Sometimes (seeded) the user first asks what a proposed title is about;
- patience is spent on strikes (declines the agent could have avoided: watched, stated or
  answered preferences broken, a hint ignored, an unasked on_ask preference, services named):
  after a seeded 2-3 the user leaves; informative declines are capped by the task at 3 + 2 per
  hidden or vague constraint. Putting forward more than one new title makes it leave at once;
- "I found nothing" gets the same neutral reply whether or not the task has a valid answer, and
  only `recommend()` without an id abstains;
- an agent that neither asks nor proposes is pushed to commit.
Wording and decisions are functions of (task, catalog, seed, conversation): same seed, same reply.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass
from dataclasses import field as dataclass_field

from runner.catalog import Catalog, CatalogItem
from runner.protocols import UserTurn
from runner.simulators import templates as t
from runner.simulators.reader import NOTHING_FITS_RE, TitleIndex, rule_reader, title_index
from runner.simulators.vocabulary import (
    DIRECTION_PATTERNS,
    FIELD_TOPICS,
    RATING_ORDER,
    content_rating_mentions,
    genre_mentions,
    rating_mentions,
    runtime_mentions,
    service_mentions,
    year_mentions,
)
from runner.tasks import Constraint, Task, TaskConstraint
from runner.transcript import ComponentSpec, MessageEvent, Transcript

__all__ = [
    "NOTHING_FITS_RE",
    "ScriptedUser",
    "Temperament",
    "TitleIndex",
    "count_proposals",
    "persona_line",
    "temperament",
    "title_index",
]

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


def count_proposals(transcript: Transcript, catalog: Catalog) -> int:
    """Agent messages (after the greeting) that put forward at least one catalog title: proposals."""
    reader = rule_reader(catalog)
    agent = [m.content for m in transcript.messages if m.role == "agent"][1:]
    return sum(1 for text in agent if reader.read(text).proposed)


def persona_line(task: Task) -> str | None:
    """The persona's first sentence in the first person, or None if it names any attribute value.

    A persona sentence that mentions a genre, a length, a score, an age rating, a service or a year,
    or points a direction on one ("avoids anything too intense"), could contradict or leak a
    constraint, so the scripted user then leaves it out.
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
        or any(pattern.search(first) for pattern in DIRECTION_PATTERNS.values())
    ):
        return None
    if not first.endswith((".", "!", "?")):
        first += "."
    return first


@dataclass(frozen=True)
class _Review:
    """The scripted user's verdict on one proposed item (a strike: the agent could have known)."""

    accepted: bool
    sentence: str
    strike: bool = False


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


class ScriptedUser:
    """A rule-based user for one task: its wording and its decisions (patience, vagueness) vary with the seed."""

    def __init__(self, task: Task, catalog: Catalog, seed: int) -> None:
        self._task = task
        self._catalog = catalog
        self._seed = seed
        self._titles = title_index(catalog)
        self._reader = rule_reader(catalog)
        self._watched = frozenset(task.watched)
        self.temperament = temperament(task, seed)
        self._seen: list[str] = []
        self._state = _State()
        self._last = UserTurn(content="")

    @property
    def spec(self) -> ComponentSpec:
        return ComponentSpec(name="scripted")

    @property
    def answered(self) -> frozenset[str]:
        """The topics the user has answered so far in the conversation it last replied to."""
        return frozenset(self._state.asked)

    def _rng(self, turn: int) -> random.Random:
        return random.Random(f"scripted|{self._seed}|{self._task.id}|{turn}")

    async def respond(self, conversation: list[MessageEvent]) -> UserTurn:
        return self.reply(conversation)

    # -- the rules ------------------------------------------------------------------------

    def reply(self, conversation: list[MessageEvent]) -> UserTurn:
        """The user's next message given the visible conversation (synchronous core of `respond`).

        The user's state (what was asked, proposed, declined) is re-derived from the conversation
        each time, so the reply is a pure function of (task, catalog, seed, conversation).
        """
        user_turns = sum(1 for m in conversation if m.role == "user")
        if user_turns == 0:
            return UserTurn(content=self._opening(self._rng(0)))
        texts = [m.content for i, m in enumerate(conversation) if m.role == "agent" and i > 0]
        if texts[: len(self._seen)] != self._seen or not self._seen:
            self._seen, self._state, self._last = [], _State(), UserTurn(content="")
        for text in texts[len(self._seen) :]:  # replay only what is new since the last reply
            self._seen.append(text)
            self._last = self._react(text, self._state, self._rng(len(self._seen)))
        return self._last

    def _react(self, text: str, state: _State, rng: random.Random) -> UserTurn:
        """React to one agent message, updating `state` (replayed over the whole conversation)."""
        reading = self._reader.read(text, watched=self._watched, pending=state.pending)
        asked_order = list(reading.asked)
        asked_now, held_back = self._answerable(asked_order, state)
        new = [i for i in reading.proposed if i not in state.named]
        state.named.update(reading.proposed)
        parts: list[str] = []
        verdict: str = "continue"
        if asked_now:
            parts += self._answers(asked_now, state, rng)
        if held_back:
            parts.append(rng.choice(t.TOO_MANY_QUESTIONS[held_back]))
        state.asked |= asked_now
        state.times.update(asked_now)
        if len(new) > 1:
            return UserTurn(content=rng.choice(t.LEAVE_ON_LIST), verdict="leave")
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
            if target != state.pending and rng.random() < self.temperament.ask_back:
                state.pending = target
                parts.append(rng.choice(t.ASK_BACK).format(title=item.title))
                return UserTurn(content=" ".join(parts), verdict="continue")
            state.pending = None
            review = self._review(item, state, rng)
            if review.accepted:
                state.accepted.add(target)
                parts.append(review.sentence)
                return UserTurn(content=" ".join(parts), verdict="accept")
            state.declines += 1
            state.strikes += review.strike
            parts.append(review.sentence)
            mood = self.temperament
            if state.strikes >= mood.strikes or state.declines >= mood.decline_cap:
                parts.append(rng.choice(t.LEAVE_AFTER_DECLINES))
                return UserTurn(content=" ".join(parts), verdict="leave")
            return UserTurn(content=" ".join(parts), verdict="decline")
        if not asked_order:
            if reading.nothing_fits:
                parts.append(rng.choice(t.NOTHING_FITS_REPLY))
            elif state.accepted:
                parts.append(rng.choice(t.ASK_AGAIN_AFTER_ACCEPT))
                verdict = "accept"
            else:
                parts.append(rng.choice(t.PUSH_TO_COMMIT))
        elif not parts:
            parts.append(rng.choice(t.PUSH_TO_COMMIT))
        return UserTurn(content=" ".join(parts), verdict=verdict)

    def _answerable(self, order: list[str], state: _State) -> tuple[set[str], str | None]:
        """The topics of one message the user answers, and why it holds the rest back (if it does).

        The first `topics_per_message` topics asked are answered; a topic not answered before
        counts against `question_patience` (asking again about a topic - to pin down a vague
        answer - is free). Held back: "patience" when the user has answered all the topics it
        will, "at_once" when the message asked more than it answers in one go.
        """
        mood = self.temperament
        answered: list[str] = []
        fresh = 0
        held: str | None = None
        for field in order:
            if len(answered) >= mood.topics_per_message:
                # A form: the user answers its first questions, and that is all it will answer.
                held = held or "at_once"
                state.form = True
                break
            if field in state.asked or field in FREE_TOPICS:
                answered.append(field)  # asked again, or a plain fact: no patience spent
            elif state.form or len(state.asked - FREE_TOPICS) + fresh >= mood.question_patience:
                held = "patience"
            else:
                answered.append(field)
                fresh += 1
        return set(answered), held

    def _opening(self, rng: random.Random) -> str:
        parts = [rng.choice(t.OPENINGS)]
        line = persona_line(self._task)
        if line:
            parts.append(line)
        volunteered = [tc.constraint for tc in self._task.constraints if tc.reveal == "volunteer"]
        parts += [t.dress(t.state_constraint(c, rng), rng) for c in volunteered]
        if not volunteered:
            parts.append("I'm open to suggestions.")
        return " ".join(parts)

    def _stateable(self, tc: TaskConstraint, asked: set[str]) -> bool:
        return tc.reveal == "volunteer" or (tc.reveal == "on_ask" and tc.constraint.field in asked)

    def _answers(self, fields: set[str], state: _State, rng: random.Random) -> list[str]:
        """Answers to the topics asked (only those): vague the first time for a vague field."""
        asked = state.asked | fields
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
            vague = field in self.temperament.vague_first and field not in state.asked
            sentences: list[str] = []
            for c in stated:
                sentence = t.vague_constraint(c, rng) if vague else None
                sentences.append(sentence or t.dress(t.state_constraint(c, rng), rng))
            if field == "streaming_services":
                parts.append(t.subscription_sentence(list(self._task.user_services), rng))
                parts += sentences
            elif stated:
                parts += sentences
            else:
                nothing.append(FIELD_TOPICS[field])
        if nothing:
            template = rng.choice(t.NO_PREFERENCE)
            parts.append(template.format(topic=t.join_list(nothing)))
        return parts

    def _review(self, item: CatalogItem, state: _State, rng: random.Random) -> _Review:
        """Accept, or decline: with a hint that points a direction but never states the value.

        The decline is a strike when the agent could have known: the user watched it, it breaks
        what the user said plainly, it breaks an on_ask preference nobody asked about (then the
        user says only that it is not for them), it is on the wrong side of a hint already given,
        or it is not on services the user named.
        """
        if item.id in self._task.watched:
            return _Review(False, rng.choice(t.ALREADY_SEEN), strike=True)
        for index, tc in enumerate(self._task.constraints):
            if tc.constraint.evaluate(item).satisfied:
                continue
            field = tc.constraint.field
            if tc.reveal == "on_ask" and field not in state.asked:
                return _Review(False, rng.choice(t.NOT_FOR_ME), strike=True)
            told = tc.reveal == "volunteer" or (
                tc.reveal == "on_ask"
                and (field not in self.temperament.vague_first or state.times[field] > 1)
            )
            hint = t.decline_hint(tc.constraint, item, rng)
            if told:
                return _Review(False, hint, strike=True)
            side = _side(tc.constraint, item)
            earlier = state.hinted.setdefault(index, [])
            strike = side is not None and any(
                (side[0] == "high" and side[1] >= v) or (side[0] == "low" and side[1] <= v)
                for v in earlier
            )
            if side is not None:
                earlier.append(side[1])
            return _Review(False, hint, strike=strike)
        services = self._task.user_services
        if services and not any(s in item.streaming_services for s in services):
            return _Review(
                False, rng.choice(t.NOT_ON_MY_SERVICES), strike="streaming_services" in state.asked
            )
        return _Review(True, rng.choice(t.ACCEPT))


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
class _State:
    """What the user has been through so far in the conversation (rebuilt on every reply)."""

    asked: set[str] = dataclass_field(default_factory=set)
    named: set[str] = dataclass_field(default_factory=set)
    accepted: set[str] = dataclass_field(default_factory=set)
    pending: str | None = None
    declines: int = 0
    strikes: int = 0
    form: bool = False
    times: Counter[str] = dataclass_field(default_factory=Counter)
    hinted: dict[int, list[float]] = dataclass_field(default_factory=dict)


def _lower_first(sentence: str) -> str:
    return sentence[:1].lower() + sentence[1:] if sentence[:2] != "I " else sentence


def constraints_on(task: Task, field: str) -> list[Constraint]:
    """The task's constraints on one field (helper for tests and the audit)."""
    return [tc.constraint for tc in task.constraints if tc.constraint.field == field]
