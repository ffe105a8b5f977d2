"""τ-Rec runner: domain models, tools, simulators, agents, the trial loop, scoring, metrics and site."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

# LiteLLM downloads a price map at import unless told not to; set it before anything imports it.
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from runner.agent_config import (
    AgentConfig,
    BuiltinAgentConfig,
    HttpAgentConfig,
    LiteLLMAgentConfig,
    ToolsetOptions,
)
from runner.catalog import Catalog, CatalogItem
from runner.errors import LoadError, TaurecError
from runner.protocols import (
    Agent,
    AgentReply,
    ToolCallRequest,
    Toolset,
    UserSimulator,
    UserTurn,
)
from runner.records import RunManifest, TrialRecord, TrialScore
from runner.tasks import Constraint, Task, load_task, load_tasks
from runner.transcript import Transcript, load_transcript

if TYPE_CHECKING:
    from runner.evaluation import EvalResult, evaluate, evaluate_async


def __getattr__(name: str) -> Any:
    """`runner.evaluate`, `runner.evaluate_async` and `runner.EvalResult`, imported on first use."""
    if name in ("evaluate", "evaluate_async", "EvalResult"):
        import runner.evaluation

        return getattr(runner.evaluation, name)
    raise AttributeError(f"module 'runner' has no attribute {name!r}")


__all__ = [
    "Agent",
    "AgentConfig",
    "AgentReply",
    "BuiltinAgentConfig",
    "Catalog",
    "CatalogItem",
    "Constraint",
    "EvalResult",
    "HttpAgentConfig",
    "LiteLLMAgentConfig",
    "LoadError",
    "RunManifest",
    "Task",
    "TaurecError",
    "ToolCallRequest",
    "Toolset",
    "ToolsetOptions",
    "Transcript",
    "TrialRecord",
    "TrialScore",
    "UserSimulator",
    "UserTurn",
    "evaluate",
    "evaluate_async",
    "load_task",
    "load_tasks",
    "load_transcript",
]
