"""Whole trials: `litellm` → `serve-model` (heuristic) matches the in-process heuristic, faults included."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from domains.movies.catalog import Catalog
from domains.movies.scoring import score_transcript
from domains.movies.tasks import Task, load_task
from runner.agents import build_agent
from runner.core.protocols import AgentContext
from runner.core.transcript import ToolCallEvent, Transcript
from runner.models.llm_client import aclose_clients
from runner.models.model_server import serve_model
from runner.play.agent_config import BuiltinAgentConfig, LiteLLMAgentConfig, RetryConfig
from tests.movie_world import movie_trial

pytestmark = pytest.mark.slow  # whole trials through LiteLLM: a few seconds each on a busy machine

# A handful spread over the suite; helpers D/E run all 60 (make leaderboard, the benchmark).
TASK_FILES = ["task_001.json", "task_013.json", "task_027.json", "task_041.json", "task_058.json"]
FAST = RetryConfig(max_attempts=3, initial_backoff_s=0.001, max_backoff_s=0.002, max_total_s=30)


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with serve_model(retry_after_s=0.01) as base:
        yield base


@pytest.fixture(scope="module")
def v1_policy(v1_dir: Path) -> str:
    return (v1_dir / "policy.md").read_text(encoding="utf-8")


def trial(
    task: Task,
    catalog: Catalog,
    policy: str,
    config: BuiltinAgentConfig | LiteLLMAgentConfig,
    seed: int = 0,
) -> Transcript:
    context = AgentContext(user_id=task.user_id, policy_text=policy, seed=seed)

    async def main() -> Transcript:
        try:
            return await movie_trial(task, catalog, build_agent(config, context), seed)
        finally:
            await aclose_clients()

    return asyncio.run(main())


@pytest.mark.parametrize("task_file", TASK_FILES)
def test_served_heuristic_matches_the_in_process_heuristic(
    task_file: str, v1_dir: Path, v1_catalog: Catalog, v1_policy: str, url: str
) -> None:
    task = load_task(v1_dir / "tasks" / task_file)
    local = trial(task, v1_catalog, v1_policy, BuiltinAgentConfig(name="heuristic"))
    served = trial(
        task,
        v1_catalog,
        v1_policy,
        LiteLLMAgentConfig(model="openai/heuristic", api_base=url, retry=FAST, timeout_s=30),
    )
    assert served.stop_reason != "infra_error", served.error
    assert served.events == local.events
    assert served.recommendations == local.recommendations
    assert served.stop_reason == local.stop_reason
    local_score = score_transcript(task, local, v1_catalog)
    served_score = score_transcript(task, served, v1_catalog)
    assert served_score.reward == local_score.reward
    usage = served.usage["agent:openai/heuristic"]
    assert usage.calls > 0
    assert usage.prompt_tokens > 0


def _faulty(v1_dir: Path, n: int, fault: str, url: str) -> tuple[Task, LiteLLMAgentConfig]:
    """The n-th of TASK_FILES, and the served heuristic at `url` with `fault` injected."""
    task = load_task(v1_dir / "tasks" / TASK_FILES[n])
    model = f"openai/heuristic+fault={fault}"
    return task, LiteLLMAgentConfig(model=model, api_base=url, retry=FAST)


def test_malformed_tool_json_becomes_a_tool_error_and_the_trial_goes_on(
    v1_dir: Path, v1_catalog: Catalog, v1_policy: str, url: str
) -> None:
    task, config = _faulty(v1_dir, 0, "oncemalformed_tool_json", url)
    transcript = trial(task, v1_catalog, v1_policy, config)
    assert transcript.stop_reason in {"recommended", "abstained", "max_turns"}
    broken = [e for e in transcript.events if isinstance(e, ToolCallEvent) and e.raw_arguments]
    assert broken
    assert broken[0].is_error
    assert "error" in broken[0].result
    score_transcript(task, transcript, v1_catalog)  # scorable, not an infra error


def test_a_rate_limited_trial_still_completes(
    v1_dir: Path, v1_catalog: Catalog, v1_policy: str, url: str
) -> None:
    task, config = _faulty(v1_dir, 1, "once429", url)
    served = trial(task, v1_catalog, v1_policy, config)
    local = trial(task, v1_catalog, v1_policy, BuiltinAgentConfig(name="heuristic"))
    assert served.events == local.events


def test_persistent_server_errors_end_the_trial_as_infra_error(
    v1_dir: Path, v1_catalog: Catalog, v1_policy: str, url: str
) -> None:
    task, config = _faulty(v1_dir, 2, "503", url)
    transcript = trial(task, v1_catalog, v1_policy, config)
    assert transcript.stop_reason == "infra_error"
    assert transcript.error is not None
    assert transcript.error.kind == "ServiceUnavailable"
