"""A wording twin: any agent whose user-facing messages a domain's `naturalize` rewrites, keeping every decision (what wording alone costs)."""

from __future__ import annotations

from collections.abc import Callable

from runner.core.protocols import Agent, AgentReply, ChatMessage, ToolSchema
from runner.core.transcript import ComponentSpec

__all__ = ["Naturalize", "WordingTwin", "text_of"]

# (the inner agent's message, the conversation as the inner agent sees it, the trial seed) -> words
Naturalize = Callable[[str, list[ChatMessage], int], str]


def text_of(message: ChatMessage) -> str:
    """The text of a message whose content is a string or a list of text parts."""
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
    return ""


class WordingTwin:
    """The inner agent with its messages rewritten by `naturalize`; tool calls untouched.

    The inner agent always sees its own original messages (each rewrite is mapped back), so the
    twin diverges from it only where the user reacted differently to the words."""

    def __init__(self, inner: Agent, seed: int, name: str, naturalize: Naturalize) -> None:
        self._inner = inner
        self._seed = seed
        self._name = name
        self._naturalize = naturalize
        self._originals: dict[str, str] = {}

    @property
    def spec(self) -> ComponentSpec:
        return ComponentSpec(name=self._name, args={"wraps": self._inner.spec.name})

    def _restore(self, messages: list[ChatMessage]) -> list[ChatMessage]:
        out = []
        for m in messages:
            text = text_of(m)
            if m.get("role") == "assistant" and text in self._originals:
                m = {**m, "content": self._originals[text]}
            out.append(m)
        return out

    async def step(self, messages: list[ChatMessage], tools: list[ToolSchema]) -> AgentReply:
        restored = self._restore(messages)
        reply = await self._inner.step(restored, tools)
        if not reply.content or not reply.content.strip():
            return reply
        natural = self._naturalize(reply.content, restored, self._seed)
        self._originals[natural] = reply.content
        return AgentReply(content=natural, tool_calls=reply.tool_calls, usage=reply.usage)
