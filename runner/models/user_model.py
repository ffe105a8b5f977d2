"""One chat call of a simulated user's model reader or writer (any domain): key rules, retry policy, usage.

Both components call through `runner.models.llm_client` (the direct client for an OpenAI-compatible
endpoint, LiteLLM for a provider) under `runner.models.retry`, and send a key only where the key table
(`runner.models.keys`) allows it, exactly as an agent does. A failure that survives the retries comes
back as `InfraFailure`; the caller decides whether a fallback makes it harmless.

`model_user_options` reads a `litellm:<model>` simulator's options into the reader's and the
writer's endpoints, the same way for every domain. The reading and writing loops that call an
endpoint are the user kit's (`runner.kits.user.model`), which sees an endpoint only as a
`ChatModel`.
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass, field
from typing import Any

from runner.core.errors import InfraFailure, TaurecError
from runner.core.protocols import AgentReply, ChatMessage, ChatPolicy, ModelCall, ToolSchema
from runner.play.agent_config import RetryConfig

__all__ = [
    "LOCAL_PLACEHOLDER_KEY",
    "MissingKey",
    "ModelEndpoint",
    "UserModels",
    "both_roles",
    "model_user_options",
    "user_spec_args",
]

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

    @property
    def fatal(self) -> tuple[type[BaseException], ...]:
        """The errors no fallback may hide (a missing key is a configuration error)."""
        return (MissingKey,)

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


_ENDPOINT_OPTIONS = frozenset({"api_base", "api_key_env", "temperature", "timeout_s", "retry"})
_MODE_OPTIONS = {"reader": ("model", "rules"), "writer": ("model", "templates")}


@dataclass(frozen=True)
class UserModels:
    """A `litellm:<model>` user's models: the main model string, and the reader's and the
    writer's endpoints (None: the rules read, the templates write)."""

    model: str
    reader: ModelEndpoint | None
    writer: ModelEndpoint | None


def model_user_options(
    name: str, opts: dict[str, Any], extra: frozenset[str] = frozenset()
) -> UserModels:
    """The endpoints of simulator `name` (`litellm:<model>`) from its options: api_base,
    api_key_env, temperature, timeout_s, retry (for both models); `reader` (model or rules) and
    `writer` (model or templates), both `model` by default; `reader_model` / `writer_model` for
    another model string on the same endpoint and key. `extra`: options the domain reads itself.
    """
    known = _ENDPOINT_OPTIONS | set(_MODE_OPTIONS) | {"reader_model", "writer_model"} | extra
    unknown = sorted(set(opts) - known)
    if unknown:
        raise TaurecError(
            f"simulator {name!r}: unknown option(s) {unknown}; known: {sorted(known)}"
        )
    modes: dict[str, str] = {}
    for role, allowed in _MODE_OPTIONS.items():
        mode = str(opts.get(role, "model"))
        if mode not in allowed:
            raise TaurecError(
                f"simulator {name!r}: {role} must be one of {list(allowed)}, not {mode!r}"
            )
        modes[role] = mode
    retry = opts.get("retry")
    if isinstance(retry, dict):
        retry = RetryConfig.model_validate(retry)
    shared: dict[str, Any] = {
        k: opts[k] for k in ("api_base", "api_key_env", "temperature") if k in opts
    }
    if opts.get("timeout_s") is not None:
        shared["timeout_s"] = float(opts["timeout_s"])
    if retry is not None:
        shared["retry"] = retry
    model = name.split(":", 1)[1]

    def endpoint(role: str) -> ModelEndpoint | None:
        if modes[role] != "model":
            return None
        return ModelEndpoint(model=str(opts.get(f"{role}_model") or model), **shared)

    return UserModels(model=model, reader=endpoint("reader"), writer=endpoint("writer"))


def user_spec_args(
    model: str | None,
    reader: ModelEndpoint | None,
    writer: ModelEndpoint | None,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A `litellm` user's transcript arguments: the model, the endpoint, who reads and writes (a
    model, the rules, the templates), the domain's `extra`, and `reader_model` / `writer_model`
    only when one differs from the main model."""
    main = writer or reader
    args: dict[str, Any] = main.spec_args() if main is not None else {}
    model = model or args.get("model")
    if model:
        args["model"] = model
    args["reader"] = "model" if reader else "rules"
    args["writer"] = "model" if writer else "templates"
    args.update(extra or {})
    for role, endpoint in (("reader", reader), ("writer", writer)):
        if endpoint is not None and endpoint.model != model:
            args[f"{role}_model"] = endpoint.model
    return args


def both_roles(reader_prompt: str, reader: ChatPolicy, writer: ChatPolicy) -> ChatPolicy:
    """One served stand-in for both roles: `reader` answers a request whose system prompt is
    `reader_prompt`, `writer` any other."""

    def policy(messages: list[ChatMessage], tools: list[ToolSchema], seed: int) -> AgentReply:
        system = next((m.get("content") for m in messages if m.get("role") == "system"), "")
        return (reader if system == reader_prompt else writer)(messages, tools, seed)

    return policy
