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

from domains.movies.catalog import Catalog
from domains.movies.simulators.acts import PushToCommit, ReplyAct
from domains.movies.simulators.engine import DecisionEngine, EngineState, Temperament, temperament
from domains.movies.simulators.reader import NOTHING_FITS_RE, TitleIndex, rule_reader, title_index
from domains.movies.simulators.vocabulary import (
    DIRECTION_PATTERNS,
    content_rating_mentions,
    genre_mentions,
    rating_mentions,
    runtime_mentions,
    service_mentions,
    year_mentions,
)
from domains.movies.simulators.writer import TemplateWriter
from domains.movies.tasks import Constraint, Task
from runner.core.protocols import UserTurn
from runner.core.transcript import ComponentSpec, MessageEvent, Transcript
from runner.kits.user.replay import Replay, opened

__all__ = [
    "NOTHING_FITS_RE",
    "ScriptedUser",
    "Temperament",
    "TitleIndex",
    "UserParts",
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


class UserParts:
    """What every movies user of one task and seed holds: the rule reader, the template writer,
    the decision engine (with its temperament) and what it has read (the scripted user uses them
    all; the LLM-mode user falls back on the rules and the templates)."""

    def __init__(self, task: Task, catalog: Catalog, seed: int) -> None:
        self._task = task
        self._catalog = catalog
        self._seed = seed
        self._reader = rule_reader(catalog)
        self._writer = TemplateWriter(catalog)
        self._engine = DecisionEngine(task, catalog, seed, persona_line(task))
        self.temperament = self._engine.temperament
        self._watched = frozenset(task.watched)
        self._replay = Replay(EngineState)
        self._last = ReplyAct(parts=[PushToCommit()])


class ScriptedUser(UserParts):
    """A user for one task: a reader, the decision engine and a writer (offline: rules and templates).

    Decisions use their own seeded rng stream and the writer another, so swapping the writer never
    changes a decision.
    """

    @property
    def spec(self) -> ComponentSpec:
        return ComponentSpec(name="scripted")

    @property
    def answered(self) -> frozenset[str]:
        """The topics the user has answered so far in the conversation it last replied to."""
        return frozenset(self._replay.state.asked)

    def _rng(self, stream: str, turn: int) -> random.Random:
        return random.Random(f"{stream}|{self._seed}|{self._task.id}|{turn}")

    async def respond(self, conversation: list[MessageEvent]) -> UserTurn:
        return self.reply(conversation)

    def decide(self, conversation: list[MessageEvent]) -> ReplyAct:
        """The act the user replies with, given the visible conversation.

        The state (what was asked, proposed, declined) is re-derived from the agent's messages, so
        the act is a pure function of (task, catalog, seed, the agent's messages).
        """
        if not opened(conversation):
            return self._engine.opening()
        for text in self._replay.unread(conversation):  # only what is new since the last reply
            turn, state = self._replay.read(text), self._replay.state
            reading = self._reader.read(text, watched=self._watched, pending=state.pending)
            self._last = self._engine.react(reading, state, self._rng("decide", turn))
        return self._last

    def reply(self, conversation: list[MessageEvent]) -> UserTurn:
        """The user's next message (synchronous core of `respond`)."""
        act = self.decide(conversation)
        turn = self._replay.turn if opened(conversation) else 0
        text = self._writer.write(act, self._rng("write", turn))
        return UserTurn(content=text, verdict=act.verdict)


def _lower_first(sentence: str) -> str:
    return sentence[:1].lower() + sentence[1:] if sentence[:2] != "I " else sentence


def constraints_on(task: Task, field: str) -> list[Constraint]:
    """The task's constraints on one field (helper for tests and the audit)."""
    return [tc.constraint for tc in task.constraints if tc.constraint.field == field]
