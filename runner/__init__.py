"""τ-Rec runner: domain models, tools, simulators, agents, the trial loop, scoring, metrics and site."""

from __future__ import annotations

import importlib
import os
from typing import TYPE_CHECKING, Any

# LiteLLM downloads a price map at import unless told not to; set it before anything imports it.
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
# Nor does any run scan its logging payload for base64 (runner.llm_client.BASE64_LOGGING_ENV).
os.environ.setdefault("MAX_BASE64_LENGTH_FOR_LOGGING", "0")

# Each public name -> the module that defines it, imported on first use: `import runner` (which
# every `taurec` command does, `--help` included) costs no pydantic model building until a name
# is used (~0.25 s of CPU measured here).
_EXPORTS: dict[str, str] = {
    "AgentConfig": "runner.agent_config",
    "BuiltinAgentConfig": "runner.agent_config",
    "HttpAgentConfig": "runner.agent_config",
    "LiteLLMAgentConfig": "runner.agent_config",
    "ToolsetOptions": "runner.agent_config",
    "Catalog": "domains.movies.catalog",
    "CatalogItem": "domains.movies.catalog",
    "LoadError": "runner.errors",
    "TaurecError": "runner.errors",
    "Agent": "runner.protocols",
    "AgentReply": "runner.protocols",
    "ToolCallRequest": "runner.protocols",
    "Toolset": "runner.protocols",
    "UserSimulator": "runner.protocols",
    "UserTurn": "runner.protocols",
    "RunManifest": "runner.records",
    "TrialRecord": "runner.records",
    "TrialScore": "runner.records",
    "Constraint": "domains.movies.tasks",
    "Task": "domains.movies.tasks",
    "load_task": "domains.movies.tasks",
    "load_tasks": "domains.movies.tasks",
    "Transcript": "runner.transcript",
    "load_transcript": "runner.transcript",
    "EvalResult": "runner.evaluation",
    "evaluate": "runner.evaluation",
    "evaluate_async": "runner.evaluation",
}

if TYPE_CHECKING:
    from domains.movies.catalog import Catalog, CatalogItem
    from domains.movies.tasks import Constraint, Task, load_task, load_tasks
    from runner.agent_config import (
        AgentConfig,
        BuiltinAgentConfig,
        HttpAgentConfig,
        LiteLLMAgentConfig,
        ToolsetOptions,
    )
    from runner.errors import LoadError, TaurecError
    from runner.evaluation import EvalResult, evaluate, evaluate_async
    from runner.protocols import (
        Agent,
        AgentReply,
        ToolCallRequest,
        Toolset,
        UserSimulator,
        UserTurn,
    )
    from runner.records import RunManifest, TrialRecord, TrialScore
    from runner.transcript import Transcript, load_transcript


def __getattr__(name: str) -> Any:
    """Every public name, imported from its module on first use (then cached here)."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'runner' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


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
