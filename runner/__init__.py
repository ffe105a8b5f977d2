"""τ-Rec's domain-free core and tooling: contracts (core), model access (models), one trial (play), many trials (batch), evaluate() (evaluation), submissions, publishing and the site, and the CLI."""

from __future__ import annotations

import importlib
import os
from typing import TYPE_CHECKING, Any

# LiteLLM downloads a price map at import unless told not to; set it before anything imports it.
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
# Nor does any run scan its logging payload for base64 (runner.models.llm_client.BASE64_LOGGING_ENV).
os.environ.setdefault("MAX_BASE64_LENGTH_FOR_LOGGING", "0")

# Each public name -> the module that defines it, imported on first use: `import runner` (which
# every `taurec` command does, `--help` included) costs no pydantic model building until a name
# is used (~0.25 s of CPU measured here). Only the domain-free core is exported: a domain's own
# names (movies' `Catalog`, `Task`, …) are imported from its package, `domains.<name>`.
_EXPORTS: dict[str, str] = {
    "AgentConfig": "runner.play.agent_config",
    "BuiltinAgentConfig": "runner.play.agent_config",
    "HttpAgentConfig": "runner.play.agent_config",
    "LiteLLMAgentConfig": "runner.play.agent_config",
    "ToolsetOptions": "runner.play.agent_config",
    "LoadError": "runner.core.errors",
    "TaurecError": "runner.core.errors",
    "Agent": "runner.core.protocols",
    "AgentReply": "runner.core.protocols",
    "ToolCallRequest": "runner.core.protocols",
    "Toolset": "runner.core.protocols",
    "UserSimulator": "runner.core.protocols",
    "UserTurn": "runner.core.protocols",
    "RunManifest": "runner.core.records",
    "TrialRecord": "runner.core.records",
    "TrialScore": "runner.core.records",
    "Transcript": "runner.core.transcript",
    "load_transcript": "runner.core.transcript",
    "EvalResult": "runner.evaluation",
    "evaluate": "runner.evaluation",
    "evaluate_async": "runner.evaluation",
}

if TYPE_CHECKING:
    from runner.core.errors import LoadError, TaurecError
    from runner.core.protocols import (
        Agent,
        AgentReply,
        ToolCallRequest,
        Toolset,
        UserSimulator,
        UserTurn,
    )
    from runner.core.records import RunManifest, TrialRecord, TrialScore
    from runner.core.transcript import Transcript, load_transcript
    from runner.evaluation import EvalResult, evaluate, evaluate_async
    from runner.play.agent_config import (
        AgentConfig,
        BuiltinAgentConfig,
        HttpAgentConfig,
        LiteLLMAgentConfig,
        ToolsetOptions,
    )


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
    "EvalResult",
    "HttpAgentConfig",
    "LiteLLMAgentConfig",
    "LoadError",
    "RunManifest",
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
    "load_transcript",
]
