"""LLM mode's reader and writer for any domain: call the model, check its answer, else the rules' reading or the template's words.

A domain's user in LLM mode keeps its decision engine; only the reading of agent messages and the
wording of replies go to a model. What is domain-free lives here, written once:

- `ModelReader`: one reading per message key. The domain builds the request (its prompt, the
  items the message names, its JSON schema) and the check of the answer (`parse_answer` does the
  JSON and pydantic part); the rule reader answers whenever the model's answer is unusable.
  Valid readings are memoised per key for one trial; a fallback asks again next time.
- `ModelWriter`: the words of one act. The domain builds the request (its prompt and the act) and
  checks the words (`plain_problem` for the empty or the too long, then its leak audit and its
  act-consistency checks); the template's words for the same act and variation stand in on any
  failure.
- `answer_schema`: the strict JSON-schema response format of a reading (every field required).
- `Spent`, `read_unread` and `word`: one reply's model calls and fallbacks, counted as the user
  reads the agent's new messages (each read, then handed to the engine) and words its reply (a
  model's words, or the template's when no model writes).

Both go through `fallback.model_or_fallback`, so every fallback is a `SimulatorNote` with its
reason. The model is anything with a `model` string, the errors no fallback may hide (`fatal`)
and `complete` (the runner's `ModelEndpoint`); the kit never imports a client.
"""

from __future__ import annotations

import json
import random
from collections.abc import Awaitable, Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from pydantic import BaseModel, ValidationError

from runner.core.memo import BoundedMemo
from runner.core.protocols import ModelCall, UserTurn
from runner.core.transcript import MessageEvent, SimulatorNote
from runner.kits.user.fallback import Judged, model_or_fallback
from runner.kits.user.replay import Replay

__all__ = [
    "MAX_WORDS_CHARS",
    "ChatModel",
    "ModelReader",
    "ModelWriter",
    "ReadOutcome",
    "Spent",
    "WriteOutcome",
    "answer_schema",
    "by_rules",
    "clean_words",
    "parse_answer",
    "parse_reading",
    "plain_problem",
    "read_unread",
    "word",
]

MAX_WORDS_CHARS = 1200

K = TypeVar("K", bound=Hashable)
R = TypeVar("R")
A = TypeVar("A")
G = TypeVar("G")
M = TypeVar("M", bound=BaseModel)
S = TypeVar("S")
Messages = list[dict[str, Any]]


class ChatModel(Protocol):
    """What the loops need of a model: its name, the errors no fallback hides, one completion."""

    @property
    def model(self) -> str: ...

    @property
    def fatal(self) -> tuple[type[BaseException], ...]: ...

    async def complete(
        self,
        messages: Messages,
        *,
        what: str,
        rng: random.Random,
        response_format: dict[str, Any] | None = None,
        seed: int | None = None,
    ) -> tuple[str, ModelCall]: ...


def answer_schema(name: str, properties: dict[str, Any]) -> dict[str, Any]:
    """The strict JSON-schema response format of an object with exactly these fields."""
    return {
        "type": "json_schema",
        "json_schema": {
            "name": name,
            "strict": True,
            "schema": {
                "type": "object",
                "additionalProperties": False,
                "required": list(properties),
                "properties": properties,
            },
        },
    }


def parse_answer(answer: str, model: type[M]) -> tuple[M | None, tuple[str, str]]:
    """The answer as `model`, or None and why not (`invalid_json` / `invalid_answer`, detail)."""
    try:
        data = json.loads(answer)
    except json.JSONDecodeError as exc:
        return None, ("invalid_json", f"{exc.msg} (got {answer[:80]!r})")
    try:
        return model.model_validate(data), ("", "")
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "(root)"
        return None, ("invalid_answer", f"{where}: {first['msg']}")


def parse_reading(
    answer: str, model: type[M], named: Sequence[str], item: str
) -> tuple[M | None, tuple[str, str]]:
    """`parse_answer` of a reading whose `proposed` field lists ids, each of which must be one
    the message names (the domain's finder's, never the model's): else `unknown_<item>`."""
    parsed, problem = parse_answer(answer, model)
    if parsed is None:
        return None, problem
    unknown = [i for i in getattr(parsed, "proposed", []) if i not in named]
    if unknown:
        return None, (f"unknown_{item}", f"proposed {unknown} the message does not name")
    return parsed, ("", "")


@dataclass(frozen=True)
class ReadOutcome(Generic[R]):
    """One reading: what the engine sees, the fallback (if one was needed) and the call's usage."""

    reading: R
    note: SimulatorNote | None = None
    usage: ModelCall | None = None


# One reading's request: the chat messages, the response format, and the check of the answer.
ReadRequest = tuple[Messages, dict[str, Any] | None, Callable[[str], Judged[R]]]


class ModelReader(Generic[K, R]):
    """Reads agent messages with a model; the rule reader answers whenever the model's answer is unusable.

    One reader serves one trial. `request(key)` is the domain's request for one message (key:
    the message and whatever else its reading depends on), `rules(key)` its rule reader's
    reading. Valid readings are memoised per key, so a conversation replayed from the start costs
    no new calls; fallbacks are not memoised (the model is asked again). Nothing is shared across
    trials.
    """

    def __init__(
        self,
        endpoint: ChatModel,
        request: Callable[[K], ReadRequest[R]],
        rules: Callable[[K], R],
        *,
        memo_size: int = 4096,
    ) -> None:
        self._endpoint = endpoint
        self._request = request
        self._rules = rules
        self._memo: BoundedMemo[K, R] = BoundedMemo(memo_size)
        self._rng = random.Random(f"reader|{endpoint.model}")

    @property
    def endpoint(self) -> ChatModel:
        return self._endpoint

    def remembers_key(self, key: K) -> bool:
        """Whether `read_key` would answer from its memo, without a call."""
        return key in self._memo

    async def read_key(self, key: K) -> ReadOutcome[R]:
        known = self._memo.get(key)
        if known is not None:
            return ReadOutcome(known)
        messages, response_format, judge = self._request(key)
        answer = await model_or_fallback(
            "reader",
            lambda: self._endpoint.complete(
                messages, what="user reader", rng=self._rng, response_format=response_format
            ),
            judge,
            lambda: self._rules(key),
            fatal=self._endpoint.fatal,
        )
        if answer.note is None:
            self._memo.put(key, answer.value)  # valid readings only: a fallback asks again
        return ReadOutcome(answer.value, answer.note, answer.usage)


@dataclass(frozen=True)
class WriteOutcome:
    """The words said, the guard trigger (if the template's words were said instead) and usage."""

    words: str
    note: SimulatorNote | None = None
    usage: ModelCall | None = None


def clean_words(answer: str) -> str:
    """The message without surrounding whitespace or one pair of wrapping quotes."""
    words = answer.strip()
    if len(words) >= 2 and words[0] == words[-1] and words[0] in "\"'":
        words = words[1:-1].strip()
    return words


def plain_problem(words: str) -> tuple[str, str] | None:
    """`empty` or `too_long` (reason, detail), the checks every domain's words get first."""
    if not words.strip():
        return "empty", "no words"
    if len(words) > MAX_WORDS_CHARS:
        return "too_long", f"{len(words)} characters"
    return None


class ModelWriter(Generic[A, G]):
    """Words acts with a model, guarded; the template writer's words stand in on every failure.

    `request(act, variation)` is the domain's request, `template(act, variation)` its template
    words for the act (seeded by the variation key), `check(words, act, reference, guard)` the
    first reason the words may not be said (None: they may); `reference` is the template's words.
    """

    def __init__(
        self,
        endpoint: ChatModel,
        request: Callable[[A, str], Messages],
        template: Callable[[A, str], str],
        check: Callable[[str, A, str, G], tuple[str, str] | None],
    ) -> None:
        self._endpoint = endpoint
        self._request = request
        self._template = template
        self._check = check
        self._rng = random.Random(f"writer|{endpoint.model}")

    async def write(self, act: A, variation: str, guard: G) -> WriteOutcome:
        """The user's words for `act`; `variation` seeds the template fallback (and is sent along)."""
        reference = self._template(act, variation)
        messages = self._request(act, variation)

        def judge(answer: str) -> Judged[str]:
            words = clean_words(answer)
            problem = self._check(words, act, reference, guard)
            return (words, ("", "")) if problem is None else (None, problem)

        said = await model_or_fallback(
            "writer",
            lambda: self._endpoint.complete(messages, what="user writer", rng=self._rng),
            judge,
            lambda: reference,
            fatal=self._endpoint.fatal,
        )
        return WriteOutcome(said.value, said.note, said.usage)


@dataclass
class Spent:
    """One reply's model calls (usage) and the fallbacks it needed (notes), as `UserTurn` records them."""

    usage: list[ModelCall] = field(default_factory=list)
    notes: list[SimulatorNote] = field(default_factory=list)

    def add(self, outcome: ReadOutcome[Any] | WriteOutcome) -> None:
        """Count one reading's or one writing's call and fallback."""
        self.usage += [outcome.usage] if outcome.usage else []
        self.notes += [outcome.note] if outcome.note else []

    def turn(self, words: str, act: Any) -> UserTurn:
        """The reply: `words`, the act's verdict and scored act (a domain's `ReplyActBase` with
        an `act` field), and what was spent on it."""
        return UserTurn(
            content=words, verdict=act.verdict, act=act.act, usage=self.usage, notes=self.notes
        )


async def read_unread(
    replay: Replay[S],
    conversation: Sequence[MessageEvent],
    read: Callable[[str], Awaitable[ReadOutcome[R]]],
    react: Callable[[R, S], object],
    spent: Spent,
) -> None:
    """Read the agent's messages not read yet, in order: each with `read` (a model or the rules),
    its reading handed to the engine (`react`, with the replay's state), its call counted."""
    for text in replay.unread(conversation):
        replay.read(text)
        outcome = await read(text)
        spent.add(outcome)
        react(outcome.reading, replay.state)


async def word(
    writer: ModelWriter[A, G] | None,
    template: Callable[[A, str], str],
    act: A,
    variation: str,
    guard: Callable[[], G],
    spent: Spent,
) -> str:
    """A reply's words: the model writer's under its guard (built only when a model writes; the
    call counted in `spent`), or the template's when no model writes."""
    if writer is None:
        return template(act, variation)
    written = await writer.write(act, variation, guard())
    spent.add(written)
    return written.words


def by_rules(rules: Callable[[K], R]) -> Callable[[K], Awaitable[ReadOutcome[R]]]:
    """A reading function for `read_unread` when no model reads: the rule reader's, no call."""

    async def read(key: K) -> ReadOutcome[R]:
        return ReadOutcome(rules(key))

    return read
