"""The user in LLM mode: a model reader and a model writer around the same decision engine as the scripted user.

Only the reading of agent messages and the wording of replies change; the engine, its ledger,
its seeded decisions (the "decide" stream) and the template fallback's wording (the "write"
stream) are the scripted user's. Each reader fallback and writer guard trigger is a
`SimulatorNote` on the turn, which the loop copies into the transcript: the simulator's own
error rate, published per run.
"""

from __future__ import annotations

import asyncio
import random
from typing import Literal

from domains.movies.catalog import Catalog
from domains.movies.simulators.acts import ReplyAct
from domains.movies.simulators.model_reader import ModelReader
from domains.movies.simulators.model_writer import GuardContext, ModelWriter
from domains.movies.simulators.reader import Reading, fields_asked
from domains.movies.simulators.scripted import UserParts
from domains.movies.tasks import Task
from runner.core.protocols import ModelCall, UserTurn
from runner.core.transcript import ComponentSpec, MessageEvent, SimulatorNote
from runner.kits.user.model import ReadOutcome, WriteOutcome
from runner.kits.user.replay import opened
from runner.models.user_model import ModelEndpoint, user_spec_args

__all__ = ["ModelUser", "ReaderMode", "WriterMode"]

ReaderMode = Literal["model", "rules"]
WriterMode = Literal["model", "templates"]


class ModelUser(UserParts):
    """A user for one task whose reader and/or writer is a model; decisions are the engine's."""

    def __init__(
        self,
        task: Task,
        catalog: Catalog,
        seed: int,
        *,
        reader: ModelEndpoint | None,
        writer: ModelEndpoint | None,
        model: str | None = None,
        name: str = "litellm",
        speculative: bool = True,
    ) -> None:
        super().__init__(task, catalog, seed)
        self._name = name
        self._model = model
        self._reader_endpoint = reader
        self._writer_endpoint = writer
        self._speculative = speculative
        self._model_reader = ModelReader(catalog, reader) if reader else None
        self._model_writer = ModelWriter(catalog, writer) if writer else None

    @property
    def spec(self) -> ComponentSpec:
        """`litellm` with the model, endpoint and who reads and writes (a model, the rules, the
        templates); `reader_model` / `writer_model` only when one differs from the main model."""
        extra = {} if self._speculative else {"speculate": False}
        args = user_spec_args(self._model, self._reader_endpoint, self._writer_endpoint, extra)
        return ComponentSpec(name=self._name, args=args)

    @property
    def answered(self) -> frozenset[str]:
        """The topics the user has answered so far."""
        return frozenset(self._replay.state.asked)

    def _key(self, stream: str, turn: int) -> str:
        return f"{stream}|{self._seed}|{self._task.id}|{turn}"

    async def _read(self, text: str) -> ReadOutcome[Reading]:
        pending = self._replay.state.pending
        if self._model_reader is None:
            return ReadOutcome(self._reader.read(text, watched=self._watched, pending=pending))
        return await self._model_reader.read(text, watched=self._watched, pending=pending)

    async def respond(self, conversation: list[MessageEvent]) -> UserTurn:
        usage: list[ModelCall] = []
        notes: list[SimulatorNote] = []
        agent = [m.content for m in conversation if m.role == "agent"]
        guess: tuple[ReplyAct, asyncio.Task[WriteOutcome]] | None = None
        if not opened(conversation):
            act, turn = self._engine.opening(), 0
        else:
            new = self._replay.unread(conversation)  # only what is new since the last reply
            guess = self._speculate(new, agent)
            try:
                for text in new:
                    turn = self._replay.read(text)
                    outcome = await self._read(text)
                    usage += [outcome.usage] if outcome.usage else []
                    notes += [outcome.note] if outcome.note else []
                    rng = random.Random(self._key("decide", turn))
                    self._last = self._engine.react(outcome.reading, self._replay.state, rng)
            except BaseException:
                if guess is not None:
                    guess[1].cancel()
                    await asyncio.gather(guess[1], return_exceptions=True)
                raise
            act, turn = self._last, self._replay.turn
        if self._model_writer is None:
            words = self._writer.write(act, random.Random(self._key("write", turn)))
            return UserTurn(content=words, verdict=act.verdict, usage=usage, notes=notes)
        if guess is not None and guess[0] == act:
            written = await guess[1]  # the words the writer gives this act: no second wait
        else:
            writing = asyncio.ensure_future(self._write(act, turn, agent))
            try:
                if guess is not None:
                    # A wrong guess: its call is paid for, so its usage counts; its words are not
                    # said.
                    wasted = (await asyncio.gather(guess[1], return_exceptions=True))[0]
                    if isinstance(wasted, WriteOutcome) and wasted.usage:
                        usage.append(wasted.usage)
                written = await writing
            except BaseException:
                writing.cancel()
                await asyncio.gather(writing, return_exceptions=True)
                raise
        usage += [written.usage] if written.usage else []
        notes += [written.note] if written.note else []
        return UserTurn(content=written.words, verdict=act.verdict, usage=usage, notes=notes)

    def _speculate(
        self, new: list[str], agent: list[str]
    ) -> tuple[ReplyAct, asyncio.Task[WriteOutcome]] | None:
        """While the model reads the agent's one new message, word the reply the rule reader's
        reading of it leads to; `respond` says those words only if the model's reading leads to the
        same act (the writer sees nothing but the act, so they are the words it would have written
        after the reading). One call's wait per turn instead of two; a wrong guess costs one call."""
        reader = self._model_reader
        if not self._speculative or reader is None or self._model_writer is None or len(new) != 1:
            return None
        pending = self._replay.state.pending
        if reader.remembers(new[0], watched=self._watched, pending=pending):
            return None  # read without a call: nothing to overlap
        reading = self._reader.read(new[0], watched=self._watched, pending=pending)
        turn = self._replay.turn + 1
        rng = random.Random(self._key("decide", turn))
        act = self._engine.react(reading, self._replay.state.copy(), rng)
        return act, asyncio.ensure_future(self._write(act, turn, agent))

    async def _write(self, act: ReplyAct, turn: int, agent: list[str]) -> WriteOutcome:
        """The model writer's words for `act` at reply `turn`, guarded against the agent's words."""
        assert self._model_writer is not None
        asked: set[str] = set()
        for text in agent:
            asked.update(fields_asked(text))  # what the leak audit counts as asked
        guard = GuardContext(self._task, frozenset(asked), agent[-1] if agent else "")
        return await self._model_writer.write(act, self._key("write", turn), guard)
