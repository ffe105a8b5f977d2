"""Preflight: before any trial is scheduled, each model-backed entry gets one real request, so a
missing key or a dead endpoint stops the run in seconds with the provider's own message."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from dataclasses import dataclass, replace

from runner.core.errors import InfraFailure, TaurecError
from runner.core.protocols import Agent, AgentContext, ChatMessage
from runner.play.agent_config import (
    AgentConfig,
    BuiltinAgentConfig,
    HttpAgentConfig,
    LiteLLMAgentConfig,
    RetryConfig,
)

__all__ = ["PREFLIGHT_TIMEOUT_S", "PreflightError", "PreflightFailure", "preflight_entries"]

PREFLIGHT_TIMEOUT_S = 8.0
_ONE_TRY = RetryConfig(max_attempts=1, initial_backoff_s=0, max_backoff_s=0, max_total_s=10)
_PROBE: list[ChatMessage] = [
    {"role": "user", "content": "Hello! Please answer with one short sentence."}
]
AgentFactory = Callable[[AgentConfig, AgentContext], Agent]


@dataclass(frozen=True)
class PreflightFailure:
    """Why one entry cannot run: its slug and the provider's (or our) message."""

    submission: str
    kind: str
    message: str

    def describe(self) -> str:
        return f"{self.submission}: {self.kind}: {self.message}"


class PreflightError(TaurecError):
    """At least one entry failed its preflight; nothing was scheduled and nothing was spent."""

    def __init__(self, failures: list[PreflightFailure]) -> None:
        self.failures = failures
        lines = "\n".join(f"  - {f.describe()}" for f in failures)
        super().__init__(
            f"preflight failed for {len(failures)} entr{'y' if len(failures) == 1 else 'ies'}; "
            f"no trial was run:\n{lines}"
        )


def _missing_variables(agent: LiteLLMAgentConfig | HttpAgentConfig) -> list[str]:
    names: list[str] = []
    if isinstance(agent, HttpAgentConfig):
        names = list(agent.headers_env.values())
    elif agent.api_key_env:
        names = [agent.api_key_env]
    return [n for n in names if not os.environ.get(n)]


async def _probe(
    config: LiteLLMAgentConfig | HttpAgentConfig, context: AgentContext, factory: AgentFactory
) -> None:
    quick = config.model_copy(
        update={"retry": _ONE_TRY, "timeout_s": min(config.timeout_s, PREFLIGHT_TIMEOUT_S)}
    )
    agent = factory(quick, context)
    async with asyncio.timeout(PREFLIGHT_TIMEOUT_S + 1):
        await agent.step(list(_PROBE), [])


async def preflight_entries(
    entries: list[tuple[str, AgentConfig]], context: AgentContext, factory: AgentFactory
) -> list[PreflightFailure]:
    """Check every model-backed entry: its key variables are set, and one tiny request works.

    Built-in baselines need nothing. Requests run at once, one attempt each, bounded by
    PREFLIGHT_TIMEOUT_S, so a dead endpoint fails in seconds instead of after the retry policy.
    """
    failures: list[PreflightFailure] = []
    probes: list[tuple[str, LiteLLMAgentConfig | HttpAgentConfig]] = []
    for slug, agent in entries:
        if isinstance(agent, BuiltinAgentConfig):
            continue
        missing = _missing_variables(agent)
        if missing:
            failures.append(
                PreflightFailure(
                    slug,
                    "MissingKey",
                    f"environment variable {', '.join(missing)} is not set "
                    f"(the entry names it for its {'key' if len(missing) == 1 else 'keys'})",
                )
            )
            continue
        probes.append((slug, agent))
    from runner.models.llm_client import import_litellm, uses_direct_path

    if any(
        isinstance(config, LiteLLMAgentConfig)
        and not uses_direct_path(config.model, config.api_base)
        for _, config in probes
    ):
        import_litellm()  # seconds of import time must not count against the endpoint
    results = await asyncio.gather(
        *(_probe(config, replace(context, entry=slug), factory) for slug, config in probes),
        return_exceptions=True,
    )
    for (slug, _), result in zip(probes, results, strict=True):
        if isinstance(result, InfraFailure):
            failures.append(PreflightFailure(slug, result.kind, result.message))
        elif isinstance(result, TimeoutError):
            failures.append(
                PreflightFailure(slug, "Timeout", f"no answer in {PREFLIGHT_TIMEOUT_S:g} s")
            )
        elif isinstance(result, BaseException):
            failures.append(PreflightFailure(slug, type(result).__name__, str(result)))
    return failures
