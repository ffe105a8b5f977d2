"""One chat call of the simulated user's model reader or writer: key rules, retry policy, usage.

Both components call through `runner.models.llm_client` (the direct client for an OpenAI-compatible
endpoint, LiteLLM for a provider) under `runner.models.retry`, and send a key only where the key table
(`runner.models.keys`) allows it, exactly as an agent does. A failure that survives the retries comes
back as `InfraFailure`; the caller decides whether a fallback makes it harmless.
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass, field
from typing import Any

from runner.core.errors import InfraFailure
from runner.core.protocols import ModelCall
from runner.play.agent_config import RetryConfig

__all__ = ["LOCAL_PLACEHOLDER_KEY", "MissingKey", "ModelEndpoint"]

# What a server that needs no key gets (never a secret): the same placeholder agents send.
LOCAL_PLACEHOLDER_KEY = "taurec-local"


class MissingKey(InfraFailure):
    """The key variable a model needs is not set: a configuration error no fallback may hide."""


@dataclass(frozen=True)
class ModelEndpoint:
    """Where one component's model is and how to call it (hashable: memos key on it)."""

    model: str
    api_base: str | None = None
    api_key_env: str | None = None
    temperature: float | None = None
    timeout_s: float = 120.0
    retry: RetryConfig = field(default_factory=RetryConfig, compare=False, hash=False)

    def spec_args(self) -> dict[str, Any]:
        """The arguments shown in a transcript (the key's variable name, never its value)."""
        args: dict[str, Any] = {"model": self.model}
        if self.api_base:
            args["api_base"] = self.api_base
        if self.temperature is not None:
            args["temperature"] = self.temperature
        return args

    def _api_key(self) -> str:
        from runner.models.keys import hosted, simulator_key_env
        from runner.models.provider_paths import RefusedEndpoint, call_problem

        # The agent's rule: a path we cannot bound or a refused address, before any call.
        problem = call_problem(self.model, self.api_base, hosted_run=hosted())
        if problem:
            raise RefusedEndpoint(f"user model {self.model}: {problem}")
        # The key table decides, as for entries: a provider key only on its provider's hosts,
        # never an entry's secret; anywhere else the placeholder.
        name = simulator_key_env(self.model, self.api_base, self.api_key_env)
        if name is None:
            return LOCAL_PLACEHOLDER_KEY
        value = os.environ.get(name)
        if not value:
            # A configuration error, not a model failure: falling back would quietly turn the
            # whole run into the scripted user, so the trial stops as an infra error instead.
            raise MissingKey(
                "AuthenticationError",
                f"user model {self.model}: environment variable {name} is not set",
            )
        return value

    async def complete(
        self,
        messages: list[dict[str, Any]],
        *,
        what: str,
        rng: random.Random,
        response_format: dict[str, Any] | None = None,
        seed: int | None = None,
    ) -> tuple[str, ModelCall]:
        """The text of one completion and its usage; InfraFailure once the retries give up
        (MissingKey, before any call, when the key's variable is not set)."""
        from runner.models.llm_client import (
            chat_completion,
            response_cost,
            response_field,
            uses_direct_path,
        )
        from runner.models.retry import call_with_retry

        key = self._api_key()
        kwargs: dict[str, Any] = {
            "model": self.model,
            "messages": messages,
            "timeout": self.timeout_s,
            "max_retries": 0,  # the retry policy is ours (runner.models.retry), not the SDK's
            "api_key": key,
        }
        if self.api_base:
            kwargs["api_base"] = self.api_base
        if self.temperature is not None:
            kwargs["temperature"] = self.temperature
        if response_format is not None:
            kwargs["response_format"] = response_format
        if seed is not None and uses_direct_path(self.model, self.api_base):
            kwargs["seed"] = seed  # an OpenAI-compatible server takes OpenAI's `seed`

        async def call() -> Any:  # bounded in chat_completion: path, address, deadline, bytes
            return await chat_completion(**kwargs)

        secrets = [] if key == LOCAL_PLACEHOLDER_KEY else [key]
        response = await call_with_retry(
            call, self.retry, what=f"{what} {self.model}", rng=rng, secrets=secrets
        )
        choices = response_field(response, "choices") or []
        if not choices or not isinstance(choices, list):
            raise InfraFailure("MalformedResponse", f"{what} {self.model}: no choices")
        text = response_field(response_field(choices[0], "message"), "content")
        if not isinstance(text, str):
            raise InfraFailure("MalformedResponse", f"{what} {self.model}: content is not text")
        usage = response_field(response, "usage")
        return text, ModelCall(
            model=self.model,
            prompt_tokens=int(response_field(usage, "prompt_tokens") or 0),
            completion_tokens=int(response_field(usage, "completion_tokens") or 0),
            cost_usd=round(response_cost(response, self.model), 10),
        )
