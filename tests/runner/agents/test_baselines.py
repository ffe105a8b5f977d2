"""Baselines: the registry, the pure policies, and the v1 / own-suite runs (oracle = 1, random near its
analytic expectation, heuristic between them, identical on repeat)."""

from __future__ import annotations

import asyncio
import math
from pathlib import Path

import pytest

from domains.movies.baselines import blind_reward, expected_pass1, heuristic_policy, random_policy
from domains.movies.catalog import Catalog
from domains.movies.scoring import score_transcript
from domains.movies.tasks import Task, load_tasks
from domains.movies.tools import build_toolset
from runner.agents import (
    UnknownAgentError,
    agent_config_from_name,
    build_agent,
    build_builtin,
    build_system_prompt,
    user_id_from_messages,
)
from runner.core.errors import TaurecError
from runner.core.paths import TASKS_DIR
from runner.core.protocols import AgentContext
from runner.core.transcript import Transcript
from runner.play.agent_config import BuiltinAgentConfig
from runner.play.loop import GREETING
from tests.movie_world import movie_trial


def test_registry_records_name_and_args() -> None:
    context = AgentContext(user_id="u", policy_text="p", seed=0)
    agent = build_agent(BuiltinAgentConfig(name="heuristic", args={"note": 1}), context)
    assert agent.spec.name == "heuristic"
    assert agent.spec.args == {"note": 1}
    assert build_builtin("random", context).spec.name == "random"
    with pytest.raises(UnknownAgentError, match="did you mean 'heuristic'"):
        build_builtin("heuristc", context)
    with pytest.raises(UnknownAgentError, match="did you mean 'oracle'"):
        agent_config_from_name("oracel")
    assert agent_config_from_name("litellm:openai/x").model_dump()["model"] == "openai/x"  # type: ignore[union-attr]
    with pytest.raises(TaurecError, match="task and the catalog"):
        build_builtin("oracle", context)


def test_system_prompt_carries_the_user_id() -> None:
    prompt = build_system_prompt("Rule one.", "user_42")
    assert "Rule one." in prompt
    assert user_id_from_messages([{"role": "system", "content": prompt}]) == "user_42"
    assert user_id_from_messages([{"role": "user", "content": "User id: x"}]) is None


def test_heuristic_policy_is_pure_and_starts_with_the_history(v1_dir: Path) -> None:
    catalog = Catalog.load(v1_dir)
    task = load_tasks(v1_dir / "tasks")[0]
    tools = build_toolset(catalog, task).schemas()
    messages = [
        {"role": "system", "content": build_system_prompt("p", "user_7")},
        {"role": "assistant", "content": GREETING},
        {"role": "user", "content": "Hi, I'd like a comedy."},
    ]
    first = heuristic_policy(messages, tools, 0)
    assert first == heuristic_policy(list(messages), tools, 0)
    assert [c.name for c in first.tool_calls] == ["get_user_history"]
    assert '"user_7"' in first.tool_calls[0].arguments
    without_history_tool = [t for t in tools if t["function"]["name"] != "get_user_history"]
    assert "questions" in (heuristic_policy(messages, without_history_tool, 0).content or "")


def test_random_policy_lists_items_with_searches_when_it_has_no_catalog() -> None:
    messages = [{"role": "assistant", "content": GREETING}, {"role": "user", "content": "Hello"}]
    first = random_policy(messages, [], 3)
    assert first.tool_calls
    assert {c.name for c in first.tool_calls} == {"search_catalog"}
    pick = random_policy(messages, [], 3, item_ids=["tmdb_2", "tmdb_1"])
    assert [c.name for c in pick.tool_calls] == ["recommend"]
    assert pick == random_policy(messages, [], 3, item_ids=["tmdb_1", "tmdb_2"])


async def _run_suite(
    agent: str, tasks: list[Task], catalog: Catalog, policy: str, seed: int
) -> list[Transcript]:
    out = []
    for task in tasks:
        context = AgentContext(
            user_id=task.user_id, policy_text=policy, seed=seed, task=task, catalog=catalog
        )
        out.append(await movie_trial(task, catalog, build_builtin(agent, context), seed))
    return out


def _pass1(tasks: list[Task], transcripts: list[Transcript], catalog: Catalog) -> float:
    rewards = [
        score_transcript(t, tr, catalog).reward for t, tr in zip(tasks, transcripts, strict=True)
    ]
    return sum(rewards) / len(rewards)


@pytest.fixture(scope="module")
def v1(v1_dir: Path) -> tuple[list[Task], Catalog, str]:
    return load_tasks(v1_dir / "tasks"), Catalog.load(v1_dir), (v1_dir / "policy.md").read_text()


def test_oracle_scores_one_on_every_v1_task(v1: tuple[list[Task], Catalog, str]) -> None:
    tasks, catalog, policy = v1
    transcripts = asyncio.run(_run_suite("oracle", tasks, catalog, policy, 0))
    for task, tr in zip(tasks, transcripts, strict=True):
        score = score_transcript(task, tr, catalog)
        assert score.reward == 1.0, (task.id, score.constraint_reason, score.policies)


def test_random_is_near_its_analytic_expectation(v1: tuple[list[Task], Catalog, str]) -> None:
    tasks, catalog, policy = v1
    expected = expected_pass1(tasks, catalog)
    shares = [sum(blind_reward(t, i) for i in catalog.items) / len(catalog) for t in tasks]
    seeds = range(8)
    measured = sum(
        _pass1(tasks, asyncio.run(_run_suite("random", tasks, catalog, policy, s)), catalog)
        for s in seeds
    ) / len(seeds)
    # Standard error of the mean of len(tasks) x 8 independent Bernoulli(share) trials.
    se = math.sqrt(sum(p * (1 - p) for p in shares) * len(seeds)) / (len(tasks) * len(seeds))
    assert abs(measured - expected) <= 3 * se + 1e-9, (measured, expected, se)
    assert 0.0 < expected < 0.05


@pytest.mark.slow
def test_heuristic_between_random_and_oracle_and_repeatable(
    v1: tuple[list[Task], Catalog, str],
) -> None:
    tasks, catalog, policy = v1
    first = asyncio.run(_run_suite("heuristic", tasks, catalog, policy, 0))
    again = asyncio.run(_run_suite("heuristic", tasks, catalog, policy, 0))
    assert [t.content_json() for t in first] == [t.content_json() for t in again]
    heuristic = _pass1(tasks, first, catalog)
    assert expected_pass1(tasks, catalog) < heuristic <= 1.0
    assert all(t.leak_audit is not None and t.leak_audit.clean for t in first)
    # Honest: it never recommends without asking first (at least one question turn).
    assert all(t.turns >= 2 for t in first)


@pytest.mark.slow
def test_our_suite_oracle_and_heuristic() -> None:
    from domains.movies.validate import resolve_catalog_path

    catalog = Catalog.load(resolve_catalog_path(None))
    tasks = [t for t in load_tasks(TASKS_DIR) if t.retired is None]
    policy = (TASKS_DIR / "policy.md").read_text()
    oracle = asyncio.run(_run_suite("oracle", tasks, catalog, policy, 0))
    assert _pass1(tasks, oracle, catalog) == 1.0
    heuristic = asyncio.run(_run_suite("heuristic", tasks, catalog, policy, 0))
    assert expected_pass1(tasks, catalog) < _pass1(tasks, heuristic, catalog) <= 1.0
