"""The `litellm` agent through the real LiteLLM client against the local model server."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from domains.movies.catalog import Catalog
from domains.movies.tasks import Task
from domains.movies.tools import build_toolset
from runner.agents.litellm_agent import LiteLLMAgent
from runner.core.errors import InfraFailure
from runner.core.protocols import AgentContext, AgentReply
from runner.models.llm_client import import_litellm, run_closing_clients
from runner.models.model_server import serve_model
from runner.models.retry import call_with_retry
from runner.play.agent_config import LiteLLMAgentConfig, Prices, RetryConfig

FAST = RetryConfig(max_attempts=3, initial_backoff_s=0.001, max_backoff_s=0.002, max_total_s=30)
PLANTED_KEY = "sk-planted-TAUREC-0123456789abcdef"


run = run_closing_clients


@pytest.fixture(scope="module")
def tools(v1_catalog: Catalog, v1_task: Task) -> list[dict[str, Any]]:
    return build_toolset(v1_catalog, v1_task).schemas()


@pytest.fixture
def url() -> Iterator[str]:
    with serve_model(retry_after_s=0.05, hang_s=30) as base:
        yield base


def stats(url: str) -> dict[str, int]:
    counts: dict[str, int] = httpx.get(f"{url.removesuffix('/v1')}/taurec/stats", timeout=5).json()[
        "counts"
    ]
    return counts


def context(task: Task, seed: int = 0) -> AgentContext:
    return AgentContext(user_id=task.user_id, policy_text="Be honest and kind.", seed=seed)


def agent(url: str, task: Task, model: str = "heuristic", **overrides: Any) -> LiteLLMAgent:
    options: dict[str, Any] = {"retry": FAST, "timeout_s": 10, **overrides}
    config = LiteLLMAgentConfig(model=f"openai/{model}", api_base=url, **options)
    return LiteLLMAgent(config, context(task))


def opening(task: Task) -> list[dict[str, Any]]:
    return [
        {"role": "assistant", "content": "Hi! What are you in the mood for?"},
        {"role": "user", "content": task.persona},
    ]


def step(a: LiteLLMAgent, task: Task, tools: list[dict[str, Any]]) -> AgentReply:
    return run(a.step(opening(task), tools))


def test_reply_parses_tool_calls_and_records_usage_with_prices(
    url: str, v1_task: Task, tools: list[dict[str, Any]]
) -> None:
    prices = Prices(input_per_mtok=2.0, output_per_mtok=8.0)
    reply = step(agent(url, v1_task, prices=prices), v1_task, tools)
    assert reply.content or reply.tool_calls
    names = {t["function"]["name"] for t in tools}
    for call in reply.tool_calls:
        assert call.name in names
        assert call.id
        assert isinstance(json.loads(call.arguments), dict)
    (usage,) = reply.usage
    assert usage.model == "openai/heuristic"
    assert usage.prompt_tokens > 0
    assert usage.completion_tokens > 0
    expected = (usage.prompt_tokens * 2.0 + usage.completion_tokens * 8.0) / 1e6
    assert usage.cost_usd == pytest.approx(expected)


def test_unknown_model_costs_zero(url: str, v1_task: Task, tools: list[dict[str, Any]]) -> None:
    reply = step(agent(url, v1_task), v1_task, tools)
    assert reply.usage[0].cost_usd == 0.0
    assert reply.usage[0].prompt_tokens > 0


def test_registered_model_uses_litellm_prices(
    url: str, v1_task: Task, tools: list[dict[str, Any]]
) -> None:
    # a distinct model name (the server ignores the option) so no other test sees these prices
    model = "heuristic+latency_ms=0"
    import_litellm().register_model(
        {
            f"openai/{model}": {
                "input_cost_per_token": 1e-6,
                "output_cost_per_token": 3e-6,
                "litellm_provider": "openai",
                "mode": "chat",
            }
        }
    )
    usage = step(agent(url, v1_task, model=model), v1_task, tools).usage[0]
    expected = usage.prompt_tokens * 1e-6 + usage.completion_tokens * 3e-6
    assert usage.cost_usd == pytest.approx(expected)


def test_seeded_replies_are_reproducible(
    url: str, v1_task: Task, tools: list[dict[str, Any]]
) -> None:
    first = step(agent(url, v1_task), v1_task, tools)
    second = step(agent(url, v1_task), v1_task, tools)
    assert first.model_dump() == second.model_dump()


def test_429_once_with_retry_after_then_success(
    url: str, v1_task: Task, tools: list[dict[str, Any]]
) -> None:
    reply = step(agent(url, v1_task, model="heuristic+fault=once429"), v1_task, tools)
    assert reply.content or reply.tool_calls
    counts = stats(url)
    assert counts["fault:once429"] == 1
    assert counts["status:429"] == 1
    assert counts["status:200"] == 1


def test_retry_after_from_a_litellm_error_is_honoured(url: str) -> None:
    litellm = import_litellm()
    delays: list[float] = []

    async def sleep(delay: float) -> None:
        delays.append(delay)
        await asyncio.sleep(delay)

    async def call() -> Any:
        return await litellm.acompletion(
            model="openai/heuristic+fault=once429+retry_after=0.3",
            api_base=url,
            api_key="x",
            messages=[{"role": "user", "content": "retry-after probe"}],
            max_retries=0,
        )

    config = RetryConfig(max_attempts=3, initial_backoff_s=0.001, max_backoff_s=0.001)
    response = run(call_with_retry(call, config, what="probe", sleep=sleep))
    assert response.choices[0].message is not None
    assert len(delays) == 1
    assert delays[0] >= 0.3


def test_500s_until_attempts_are_exhausted(
    url: str, v1_task: Task, tools: list[dict[str, Any]]
) -> None:
    with pytest.raises(InfraFailure) as caught:
        step(agent(url, v1_task, model="heuristic+fault=500"), v1_task, tools)
    assert caught.value.kind == "ServerError"
    assert "gave up after 3 attempt(s)" in caught.value.message
    assert stats(url)["requests"] == FAST.max_attempts


def test_hang_times_out_into_an_infra_failure(
    url: str, v1_task: Task, tools: list[dict[str, Any]]
) -> None:
    retry = RetryConfig(max_attempts=2, initial_backoff_s=0.001, max_backoff_s=0.001)
    hanging = agent(url, v1_task, model="heuristic+fault=hang", timeout_s=0.3, retry=retry)
    with pytest.raises(InfraFailure) as caught:
        step(hanging, v1_task, tools)
    assert caught.value.kind == "Timeout"
    assert stats(url)["fault:hang"] == 2


def test_planted_key_never_appears_in_failures_or_spec(
    url: str, v1_task: Task, tools: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TAUREC_KEY_TEST_PROVIDER", PLANTED_KEY)
    # the server echoes the credential in its 401 message, as some providers do
    leaky = agent(url, v1_task, model="heuristic+fault=401", api_key_env="TAUREC_KEY_TEST_PROVIDER")
    with pytest.raises(InfraFailure) as caught:
        step(leaky, v1_task, tools)
    assert caught.value.kind == "AuthenticationError"
    assert stats(url)["requests"] == 1  # not retried
    for text in [str(caught.value), caught.value.message, repr(caught.value)]:
        assert PLANTED_KEY not in text
        assert "0123456789abcdef" not in text
    spec = leaky.spec.model_dump_json()
    assert PLANTED_KEY not in spec
    assert "TAUREC_KEY_TEST_PROVIDER" in spec


def test_missing_key_variable_is_an_infra_failure(
    url: str, v1_task: Task, tools: list[dict[str, Any]]
) -> None:
    a = agent(url, v1_task, api_key_env="TAUREC_KEY_THAT_IS_NOT_SET")
    with pytest.raises(InfraFailure, match="TAUREC_KEY_THAT_IS_NOT_SET"):
        step(a, v1_task, tools)


def test_malformed_tool_json_is_returned_raw(
    url: str, v1_catalog: Catalog, v1_task: Task, tools: list[dict[str, Any]]
) -> None:
    reply = step(agent(url, v1_task, model="heuristic+fault=malformed_tool_json"), v1_task, tools)
    (call, *_) = reply.tool_calls
    with pytest.raises(json.JSONDecodeError):
        json.loads(call.arguments)
    outcome = build_toolset(v1_catalog, v1_task).call(call.name, call.arguments)
    assert outcome.is_error
    assert outcome.stop is None


def test_spec_records_the_config_without_secrets(url: str, v1_task: Task) -> None:
    a = agent(
        url, v1_task, temperature=0.2, extra_body={"api_key": "inline-secret-value", "top_k": 5}
    )
    spec = a.spec
    assert spec.name == "litellm"
    assert spec.args["model"] == "openai/heuristic"
    assert spec.args["temperature"] == 0.2
    assert spec.args["extra_body"] == {"api_key": "[redacted]", "top_k": 5}
