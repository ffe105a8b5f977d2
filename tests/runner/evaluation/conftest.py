"""Fixtures for evaluate(): a 20-task copy of our suite, and an in-process agent whose pass^k falls with k."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from domains.movies.baselines import HeuristicAgent
from runner.core.paths import TASKS_DIR
from runner.core.protocols import AgentContext, AgentReply, ChatMessage, ToolSchema
from runner.core.transcript import ComponentSpec


class ProposeOnce:
    """The heuristic policy allowed one proposal only: it fails some trials, depending on the seed."""

    def __init__(self, context: AgentContext) -> None:
        self._inner = HeuristicAgent(context, {"max_proposals": 1})

    @property
    def spec(self) -> ComponentSpec:
        return ComponentSpec(name="propose-once")

    async def step(self, messages: list[ChatMessage], tools: list[ToolSchema]) -> AgentReply:
        return await self._inner.step(messages, tools)


@pytest.fixture
def twenty_tasks(tmp_path: Path) -> Path:
    """The first 20 tasks of our suite and its policy, in a temporary folder."""
    folder = tmp_path / "suite"
    folder.mkdir()
    for file in sorted(TASKS_DIR.glob("*.json"))[:20]:
        shutil.copy(file, folder / file.name)
    shutil.copy(TASKS_DIR / "policy.md", folder / "policy.md")
    return folder
