"""User simulators (scripted, LiteLLM) behind one factory, and the leak audit that checks them."""

from __future__ import annotations

import difflib
from typing import Any

from runner.catalog import Catalog
from runner.errors import TaurecError
from runner.protocols import UserSimulator
from runner.simulators.leaks import audit_leaks, message_leaks
from runner.simulators.scripted import ScriptedUser
from runner.tasks import Task

__all__ = ["SIMULATOR_NAMES", "ScriptedUser", "audit_leaks", "build_simulator", "message_leaks"]

# Registered simulator names; `litellm:<model>` takes any LiteLLM model string after the colon.
SIMULATOR_NAMES: tuple[str, ...] = ("scripted", "litellm:<model>")


def build_simulator(
    name: str,
    *,
    task: Task,
    catalog: Catalog,
    seed: int,
    options: dict[str, Any] | None = None,
) -> UserSimulator:
    """Build the user simulator for one trial: `scripted` or `litellm:<model>`.

    `options` go to the LiteLLM simulator (api_base, api_key_env, temperature, timeout_s, retry).
    """
    if name == "scripted":
        if options:
            raise TaurecError(f"simulator 'scripted' takes no options (got {sorted(options)})")
        return ScriptedUser(task, catalog, seed)
    if name.startswith("litellm:") and len(name) > len("litellm:"):
        from runner.agent_config import RetryConfig
        from runner.simulators.llm import LiteLLMUser

        opts = dict(options or {})
        retry = opts.pop("retry", None)
        if isinstance(retry, dict):
            retry = RetryConfig.model_validate(retry)
        allowed = {"api_base", "api_key_env", "temperature", "timeout_s"}
        unknown = sorted(set(opts) - allowed)
        if unknown:
            raise TaurecError(
                f"simulator {name!r}: unknown option(s) {unknown}; known: {sorted(allowed | {'retry'})}"
            )
        return LiteLLMUser(name.split(":", 1)[1], task, catalog, seed, retry=retry, **opts)
    close = difflib.get_close_matches(name, ["scripted", "litellm:"], n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    raise TaurecError(f"unknown simulator {name!r}: use 'scripted' or 'litellm:<model>'{hint}")
