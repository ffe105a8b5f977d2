"""An agent wrapper for tests that records every reply of the agent it wraps (what it decided, step by step)."""

from __future__ import annotations

from typing import Any

from runner.core.protocols import AgentReply, ChatMessage, ToolSchema


class AgentSpy:
    """Passes every step to `inner` and keeps its reply."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.replies: list[AgentReply] = []

    @property
    def spec(self) -> Any:
        return self.inner.spec

    async def step(self, messages: list[ChatMessage], tools: list[ToolSchema]) -> AgentReply:
        reply: AgentReply = await self.inner.step(messages, tools)
        self.replies.append(reply)
        return reply
