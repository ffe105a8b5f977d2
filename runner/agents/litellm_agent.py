"""The `litellm` agent: any LiteLLM model with the catalog tools, under the one retry policy."""

from __future__ import annotations

import functools
import json
import os
import random
from typing import Any

from runner.core.errors import AgentFailure, InfraFailure
from runner.core.protocols import (
    AgentContext,
    AgentReply,
    ChatMessage,
    ToolSchema,
)
from runner.core.redact import redact_config
from runner.core.transcript import ComponentSpec
from runner.models.keys import (
    LOCAL_PLACEHOLDER_KEY,
    allowed_key_env,
    hosted,
    is_provider_endpoint,
)
from runner.models.llm_client import (
    chat_completion,
    import_litellm,
    response_cost,
    uses_direct_path,
)
from runner.models.llm_client import response_field as _field
from runner.models.provider_paths import RefusedEndpoint, call_problem
from runner.models.retry import call_with_retry, shared_rate_limiter
from runner.play.agent_config import LiteLLMAgentConfig
from runner.play.attribution import endpoint_failure, report_infra

# LOCAL_PLACEHOLDER_KEY: sent as the key when the key table allows no secret (a custom api_base
# without TAUREC_KEY_…).
__all__ = ["LOCAL_PLACEHOLDER_KEY", "LiteLLMAgent"]


@functools.cache
def _accepts_seed(model: str) -> bool:
    """Whether LiteLLM passes an OpenAI `seed` to this model's provider."""
    litellm = import_litellm()
    try:
        _, provider, _, _ = litellm.get_llm_provider(model)
        params = litellm.get_supported_openai_params(model=model, custom_llm_provider=provider)
    except Exception:
        return False
    return bool(params) and "seed" in params


@functools.lru_cache(maxsize=64)
def _redacted(config_json: str) -> str:
    """The config with its secrets removed, as JSON; once per config and process, not per trial
    (redaction checks every string against the environment's secret-looking variables)."""
    return json.dumps(redact_config(json.loads(config_json)))


def _arguments_text(arguments: Any) -> str:
    """The raw argument text as the model sent it; objects (some providers) back to JSON."""
    if arguments is None:
        return ""
    if isinstance(arguments, str):
        return arguments
    return json.dumps(arguments, ensure_ascii=False)


@report_infra
class LiteLLMAgent:
    """One trial's LiteLLM-backed agent: our system prompt, the loop's tools, one call per step."""

    def __init__(self, config: LiteLLMAgentConfig, context: AgentContext) -> None:
        from runner.agents.prompt import build_system_prompt

        self._config = config
        self._context = context
        self._system_prompt = build_system_prompt(
            context.policy_text, context.user_id, context.domain
        )
        self._rng = random.Random(context.seed)
        self._calls = 0
        self._key: str | None = None  # decided at the first step; hosted runs decide every step
        self._limiter = (
            shared_rate_limiter(
                f"{config.model}@{config.api_base or ''}", config.requests_per_minute
            )
            if config.requests_per_minute
            else None
        )

    @property
    def spec(self) -> ComponentSpec:
        config = self._config.model_dump_json(exclude={"kind"}, exclude_none=True)
        return ComponentSpec(name="litellm", args=json.loads(_redacted(config)))

    def _api_key(self) -> str:
        """Always an explicit key, so LiteLLM never falls back to a provider variable on its own.

        Which variable may be read is the key table's decision (runner.models.keys): a provider key only
        for its provider's hosts, otherwise only the entry's `TAUREC_KEY_…`, or a placeholder.
        """
        hosted_run = hosted()
        if self._key is not None and not hosted_run:
            return self._key  # the same config and environment: the same decision (per trial)
        config = self._config
        # Refused before the retry policy sees it: a path we cannot bound, a refused address.
        problem = call_problem(config.model, config.api_base, hosted_run=hosted_run)
        if problem:
            raise RefusedEndpoint(f"model {config.model}: {problem}")
        name = allowed_key_env(
            config.model, config.api_base, config.api_key_env, entry=self._context.entry
        )
        if name is None:
            self._key = LOCAL_PLACEHOLDER_KEY
            return self._key
        value = os.environ.get(name)
        if not value:
            raise InfraFailure(
                "AuthenticationError",
                f"model {config.model}: environment variable {name} is not set",
            )
        self._key = value
        return value

    def _request(self, messages: list[ChatMessage], tools: list[ToolSchema]) -> dict[str, Any]:
        config = self._config
        if not messages or messages[0].get("role") != "system":
            messages = [{"role": "system", "content": self._system_prompt}, *messages]
        kwargs: dict[str, Any] = {
            "model": config.model,
            "messages": messages,
            "timeout": config.timeout_s,
            "max_retries": 0,  # the retry policy is ours (runner.models.retry), not the SDK's
        }
        if tools:
            kwargs["tools"] = tools
        if config.api_base:
            kwargs["api_base"] = config.api_base
        if config.temperature is not None:
            kwargs["temperature"] = config.temperature
        if config.max_tokens is not None:
            kwargs["max_tokens"] = config.max_tokens
        if config.reasoning_effort is not None:
            kwargs["reasoning_effort"] = config.reasoning_effort
        if config.extra_body:
            kwargs["extra_body"] = dict(config.extra_body)
        # An OpenAI-compatible endpoint takes OpenAI's `seed`, as LiteLLM's openai provider sends it.
        if uses_direct_path(config.model, config.api_base) or _accepts_seed(config.model):
            kwargs["seed"] = self._context.seed
        return kwargs

    async def step(self, messages: list[ChatMessage], tools: list[ToolSchema]) -> AgentReply:
        kwargs = self._request(messages, tools)
        api_key = self._api_key()
        kwargs["api_key"] = api_key

        async def call() -> Any:  # bounded in chat_completion: path, address, deadline, bytes
            return await chat_completion(**kwargs)

        try:
            response = await call_with_retry(
                call,
                self._config.retry,
                what=f"model {self._config.model}",
                rng=self._rng,
                limiter=self._limiter,
                secrets=[api_key],
            )
        except InfraFailure as exc:
            # A provider's 429/5xx is ours to retry; a submitter's own server failing is theirs.
            ours = is_provider_endpoint(self._config.model, self._config.api_base)
            raise endpoint_failure(exc, ours=ours) from None
        self._calls += 1
        return self._reply(response)

    def _reply(self, response: Any) -> AgentReply:
        choices = _field(response, "choices") or []
        if not choices:  # the model's reply, whoever serves it: the agent's failure
            raise AgentFailure(
                "MalformedResponse", f"model {self._config.model}: the response has no choices"
            )
        message = _field(choices[0], "message")
        content = _field(message, "content")
        tool_calls = []
        for index, call in enumerate(_field(message, "tool_calls") or []):
            function = _field(call, "function")
            call_id = _field(call, "id") or f"call_{self._calls}_{index}"
            tool_calls.append(
                {
                    "id": str(call_id),
                    "name": str(_field(function, "name") or ""),
                    "arguments": _arguments_text(_field(function, "arguments")),
                }
            )
        # One validation of plain data (the tool calls and usage inside it included).
        return AgentReply.model_validate(
            {
                "content": content if isinstance(content, str) and content else None,
                "tool_calls": tool_calls,
                "usage": [self._usage(response)],
            }
        )

    def _usage(self, response: Any) -> dict[str, Any]:
        """The call's ModelCall fields."""
        usage = _field(response, "usage")
        prompt = int(_field(usage, "prompt_tokens") or 0)
        completion = int(_field(usage, "completion_tokens") or 0)
        return {
            "model": self._config.model,
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "cost_usd": self._cost(response, prompt, completion),
        }

    def _cost(self, response: Any, prompt: int, completion: int) -> float:
        """Configured prices win; else the price LiteLLM put on the response; else 0."""
        prices = self._config.prices
        if prices is not None:
            return (prompt * prices.input_per_mtok + completion * prices.output_per_mtok) / 1e6
        return response_cost(response, self._config.model)
