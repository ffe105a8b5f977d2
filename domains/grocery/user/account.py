"""The scripted account shopper: the account reader, the account decision engine and the grammar writer behind the `UserSimulator` protocol.

Reader (`account_reader`: what an agent message does at the account desk) -> decision engine
(`account_engine`: the only part that sees the task; who the shopper is, every request up front,
then each settled in turn, and a yes only to a change stated in full) -> writer
(`account_writer`: the act in words, from our seeded grammar). Decisions are a pure function of
(task, catalog, seed, the agent's messages); the seed picks the words and, once per trial,
whether the shopper is vague (`account_engine.is_vague`).
"""

from __future__ import annotations

from typing import Any

from domains.grocery.tasks import GroceryTask
from domains.grocery.user.account_acts import AccountAct
from domains.grocery.user.account_engine import PATIENCE, VAGUE_SHARE, AccountEngine, AccountState
from domains.grocery.user.account_writer import account_words, variation_key
from runner.core.protocols import UserTurn
from runner.core.transcript import ComponentSpec, MessageEvent
from runner.kits.user.replay import Replay, opened

__all__ = ["PATIENCE", "VAGUE_SHARE", "AccountShopper"]


class AccountShopper:
    """A shopper with account requests (a `UserSimulator`): rule reader, engine, grammar writer."""

    def __init__(self, task: GroceryTask, catalog: Any, seed: int) -> None:
        self._task = task
        self._seed = seed
        self._engine = AccountEngine(task, catalog, seed)
        self._reader = self._engine.reader()
        self._replay: Replay[AccountState] = Replay(self._engine.fresh)

    @property
    def vague(self) -> bool:
        """Whether this trial's shopper holds back the reason and payment until asked."""
        return self._engine.vague

    @property
    def spec(self) -> ComponentSpec:
        return ComponentSpec(name="scripted")

    @property
    def state(self) -> AccountState:
        """What the shopper has been through (for tests)."""
        return self._replay.state

    async def respond(self, conversation: list[MessageEvent]) -> UserTurn:
        return self.reply(conversation)

    def head(self, conversation: list[MessageEvent]) -> str:
        """The seed of this reply's words: the task, the trial's seed and the turn."""
        turn = sum(1 for e in conversation if e.role == "user")
        return f"account|{self._seed}|{self._task.id}|{turn}"

    def decide(self, conversation: list[MessageEvent]) -> tuple[AccountAct | None, str]:
        """The act the shopper replies with (None: nothing read yet) and its words' key."""
        head = self.head(conversation)
        if not opened(conversation):
            return self._engine.opening(), head
        for text in self._replay.unread(conversation):
            self._replay.read(text)
            self._engine.react(self._reader.read(text), self._replay.state)
        return self.last(head)

    def last(self, head: str) -> tuple[AccountAct | None, str]:
        """The reply to the messages read so far, and its words' key."""
        said = self._replay.state.said
        act = self._engine.leaves(self._replay.state) or (said[-1] if said else None)
        return act, variation_key(head, said[:-1])

    def reply(self, conversation: list[MessageEvent]) -> UserTurn:
        """The shopper's next message (synchronous core of `respond`)."""
        act, key = self.decide(conversation)
        if act is None:
            return UserTurn(content="", act=None)
        return UserTurn(content=account_words(act, key), verdict=act.verdict, act=act.act)
