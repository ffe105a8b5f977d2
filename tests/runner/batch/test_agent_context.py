"""Agents see what submissions see: no task and no catalog in any AgentContext but an oracle-class built-in's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from runner.agents import agent_context, build_agent
from runner.core.domains import get_domain
from runner.core.protocols import AgentContext, AgentReply, ChatMessage, ToolCallRequest, ToolSchema
from runner.core.transcript import ComponentSpec
from runner.evaluation import evaluate
from runner.play.agent_config import (
    AgentConfig,
    BuiltinAgentConfig,
    HttpAgentConfig,
    LiteLLMAgentConfig,
)


class Abstainer:
    """Ends every trial at once (what it was built with is what the test looks at)."""

    @property
    def spec(self) -> ComponentSpec:
        return ComponentSpec(name="abstainer")

    async def step(self, messages: list[ChatMessage], tools: list[ToolSchema]) -> AgentReply:
        del messages, tools
        return AgentReply(tool_calls=[ToolCallRequest(id="c1", name="recommend", arguments={})])


@pytest.mark.parametrize("domain", ["movies", "grocery"])
def test_a_python_agents_factory_gets_no_task_and_no_catalog(domain: str, tmp_path: Path) -> None:
    """A real run of a Python factory: every trial's context carries the user id and policy only."""
    seen: list[AgentContext] = []

    def make(context: AgentContext) -> Abstainer:
        seen.append(context)
        return Abstainer()

    owner = get_domain(domain)
    first = owner.load_tasks(owner.tasks_dir)[:2]
    evaluate(
        make,
        domain=domain,
        tasks=[t.id for t in first],
        trials=1,
        concurrency=1,
        results=tmp_path / "results",
    )
    assert len(seen) == 2
    for context in seen:
        assert context.task is None
        assert context.catalog is None
        assert context.informed_fields is None
        assert context.user_id in {t.user_id for t in first}
        assert context.policy_text


def _context(config: AgentConfig | None, domain: str, task: Any, catalog: Any) -> AgentContext:
    """What a trial of `task` hands the agent of `config` (policy text `p`, seed 0)."""
    return agent_context(
        config,
        domain=domain,
        user_id=task.user_id,
        policy_text="p",
        seed=0,
        task=task,
        catalog=catalog,
    )


@pytest.mark.parametrize("domain", ["movies", "grocery"])
def test_only_oracle_class_builtins_are_handed_the_task_and_catalog(domain: str) -> None:
    owner = get_domain(domain)
    task = owner.load_tasks(owner.tasks_dir)[0]
    catalog = object()  # what is passed through, untouched, to an oracle-class agent only
    oracles = set(owner.oracle_agents())
    assert "oracle" in oracles
    configs = [BuiltinAgentConfig(name=n) for n in owner.baselines()] + [
        LiteLLMAgentConfig(model="openai/any"),
        HttpAgentConfig(endpoint="http://127.0.0.1:9/step"),
        None,
    ]
    for config in configs:
        context = _context(config, domain, task, catalog)
        name = config.name if isinstance(config, BuiltinAgentConfig) else None
        if name in oracles:
            assert context.task is task, name
            assert context.catalog is catalog, name
        else:
            assert context.task is None, (name, config)
            assert context.catalog is None, (name, config)
        if name == "informed":
            assert context.informed_fields == owner.informed_fields(task)
        else:
            assert context.informed_fields is None


def test_movies_oracle_class_is_only_the_reference_floors() -> None:
    assert set(get_domain("movies").oracle_agents()) == {"oracle", "random"}
    assert set(get_domain("grocery").oracle_agents()) == {"oracle"}


@pytest.mark.parametrize("domain", ["movies", "grocery"])
def test_every_non_oracle_builtin_builds_without_task_or_catalog(domain: str) -> None:
    """No honest agent or adversary needs what a submission would not have."""
    owner = get_domain(domain)
    task = owner.load_tasks(owner.tasks_dir)[0]
    for name in owner.baselines():
        if name in owner.oracle_agents():
            continue
        config = BuiltinAgentConfig(name=name)
        context = _context(config, domain, task, None)
        assert build_agent(config, context).spec.name
