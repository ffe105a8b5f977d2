"""Agents that misbehave on some trials, and their honest twin, importable as `module:attr`.

Each plays the heuristic allowed one proposal (it fails some trials by itself), except on the
trials its seed picks (about one in three): there the crashing agent raises, the hanging one never
answers, the deep one calls a tool with arguments nested 100,000 levels deep, and the honest twin
just keeps apologising until the turn limit. By the attribution rule all four score the same.
"""

from __future__ import annotations

import asyncio

from domains.movies.baselines import HeuristicAgent
from runner.core.protocols import AgentContext, AgentReply, ChatMessage, ToolCallRequest, ToolSchema
from runner.core.transcript import ComponentSpec

DEEP_ARGUMENTS = "[" * 100_000 + "]" * 100_000


def picked(seed: int) -> bool:
    """The trials a misbehaving agent misbehaves on."""
    return seed % 3 == 0


class _Twin:
    """The heuristic (one proposal) on ordinary trials; `misbehave` on the picked ones."""

    name = "honest"

    def __init__(self, context: AgentContext) -> None:
        self._inner = HeuristicAgent(context, {"max_proposals": 1})
        self._picked = picked(context.seed)

    @property
    def spec(self) -> ComponentSpec:
        return ComponentSpec(name=self.name)

    async def step(self, messages: list[ChatMessage], tools: list[ToolSchema]) -> AgentReply:
        if self._picked:
            return await self.misbehave()
        return await self._inner.step(messages, tools)

    async def misbehave(self) -> AgentReply:
        return AgentReply(content="Sorry, I cannot help with that.")


class _Crashing(_Twin):
    name = "crashing"

    async def misbehave(self) -> AgentReply:
        raise RuntimeError("the agent's own bug")


class _Hanging(_Twin):
    name = "hanging"

    async def misbehave(self) -> AgentReply:
        await asyncio.Event().wait()  # never set: only the step timeout ends this
        raise AssertionError("unreachable")


class _Deep(_Twin):
    name = "deep"

    async def misbehave(self) -> AgentReply:
        call = ToolCallRequest(id="deep", name="search_catalog", arguments=DEEP_ARGUMENTS)
        return AgentReply(tool_calls=[call])


def honest(context: AgentContext) -> _Twin:
    return _Twin(context)


def crashing(context: AgentContext) -> _Twin:
    return _Crashing(context)


def hanging(context: AgentContext) -> _Twin:
    return _Hanging(context)


def deep(context: AgentContext) -> _Twin:
    return _Deep(context)


def crashing_factory(context: AgentContext) -> _Twin:
    """Raises while building the agent of a picked trial (the submitter's code, too)."""
    if picked(context.seed):
        raise ValueError("the factory's own bug")
    return _Twin(context)
