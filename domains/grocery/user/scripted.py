"""The scripted shopper: the reader, the decision engine and the template writer behind the `UserSimulator` protocol.

Decisions are a pure function of (task, catalog, seed, the agent's messages); the seed picks the
words (a per-turn rng) and whether this trial's shopper is vague about one taste (it cues the
topic and states the value when asked), so a careful assistant wins every trial.
"""

from __future__ import annotations

import random
from typing import Any

from domains.grocery.tasks import GroceryTask
from domains.grocery.user.acts import ReplyAct
from domains.grocery.user.engine import EngineState, ShopperEngine
from domains.grocery.user.reader import ShopperReader
from domains.grocery.user.writer import TemplateWriter
from runner.core.protocols import UserTurn
from runner.core.transcript import ComponentSpec, MessageEvent
from runner.kits.user.replay import Replay, opened

__all__ = ["ScriptedShopper", "shopper_reader"]

_READERS: dict[int, tuple[Any, ShopperReader]] = {}


def shopper_reader(catalog: Any) -> ShopperReader:
    """The rule reader for a catalog object (built once; the entry holds the catalog, so its id
    stays that catalog's while cached)."""
    hit = _READERS.get(id(catalog))
    if hit is None or hit[0] is not catalog:
        if len(_READERS) >= 8:
            _READERS.clear()
        reader = ShopperReader(catalog.items)
        hit = _READERS[id(catalog)] = (catalog, reader)
    return hit[1]


class ScriptedShopper:
    """A shopper for one task and seed: rule reader, decision engine, template writer."""

    def __init__(self, task: GroceryTask, catalog: Any, seed: int) -> None:
        self._task = task
        self._seed = seed
        self._reader = shopper_reader(catalog)
        self._engine = ShopperEngine(task, catalog, seed)
        self._writer = TemplateWriter()
        self._replay = Replay(EngineState)
        self._last: ReplyAct | None = None

    @property
    def spec(self) -> ComponentSpec:
        return ComponentSpec(name="scripted")

    @property
    def state(self) -> EngineState:
        """What the shopper has been through (for tests and the audit)."""
        return self._replay.state

    async def respond(self, conversation: list[MessageEvent]) -> UserTurn:
        return self.reply(conversation)

    def decide(self, conversation: list[MessageEvent]) -> ReplyAct:
        """The act the shopper replies with, given the visible conversation."""
        if not opened(conversation):
            return self._engine.opening()
        for text in self._replay.unread(conversation):
            self._replay.read(text)
            self._last = self._engine.react(self._reader.read(text), self._replay.state)
        assert self._last is not None
        return self._last

    def reply(self, conversation: list[MessageEvent]) -> UserTurn:
        """The shopper's next message (synchronous core of `respond`)."""
        act = self.decide(conversation)
        turn = self._replay.turn if opened(conversation) else 0
        rng = random.Random(f"write|{self._seed}|{self._task.id}|{turn}")
        return UserTurn(content=self._writer.write(act, rng), verdict=act.verdict, act=act.act)
