"""What a user has read: the agent's messages in order, and the state its engine built from them.

The loop shows a user the visible conversation on every turn. A user reads only what is new, but
when what the agent said before is no longer what it read (the conversation changed under it), it
starts over from a fresh state, so a reply is a pure function of the task, the seed and the
agent's messages - never of which replies came before.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

from runner.core.transcript import MessageEvent

__all__ = ["Replay", "opened"]

S = TypeVar("S")


def opened(conversation: Sequence[MessageEvent]) -> bool:
    """Has the user spoken yet? (Before that, its reply is the opening.)"""
    return any(m.role == "user" for m in conversation)


class Replay(Generic[S]):
    """The agent messages read so far (`seen`, its greeting aside) and the engine's `state`."""

    def __init__(self, fresh: Callable[[], S]) -> None:
        self._fresh = fresh
        self.seen: list[str] = []
        self.state: S = fresh()

    def unread(self, conversation: Sequence[MessageEvent]) -> list[str]:
        """The agent's messages not read yet, in order; a changed history starts over."""
        texts = [m.content for i, m in enumerate(conversation) if m.role == "agent" and i > 0]
        if texts[: len(self.seen)] != self.seen or not self.seen:
            self.seen, self.state = [], self._fresh()
        return texts[len(self.seen) :]

    def read(self, text: str) -> int:
        """Mark one message read; returns its turn (1 for the first message after the greeting)."""
        self.seen.append(text)
        return len(self.seen)

    @property
    def turn(self) -> int:
        """How many agent messages have been read (the turn of the last reply)."""
        return len(self.seen)
