"""The Python API fails clearly: tool-call arguments as a dict, a sync `step`, a dict reply."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

import runner
from runner.core.errors import TaurecError
from runner.core.protocols import AgentContext, AgentReply, ChatMessage, ToolCallRequest, ToolSchema
from runner.core.transcript import ComponentSpec


def test_tool_call_arguments_may_be_a_dict_and_are_stored_as_json_text() -> None:
    call = ToolCallRequest(id="c1", name="search_catalog", arguments={"query": "café"})
    assert call.arguments == '{"query": "café"}'
    assert json.loads(call.arguments) == {"query": "café"}
    assert ToolCallRequest(id="c2", name="recommend").arguments == "{}"


def test_tool_call_arguments_of_another_type_are_refused_saying_what_to_pass() -> None:
    with pytest.raises(ValidationError) as caught:
        ToolCallRequest(id="c1", name="search_catalog", arguments=["comedy"])
    assert "arguments must be a dict or JSON text, got list" in str(caught.value)
    assert 'arguments={"query": "comedy"}' in str(caught.value)
    with pytest.raises(ValidationError) as unserialisable:
        ToolCallRequest(id="c1", name="search_catalog", arguments={"query": {1, 2}})
    assert "arguments dict is not JSON-serialisable" in str(unserialisable.value)


class _SyncStep:
    @property
    def spec(self) -> ComponentSpec:
        return ComponentSpec(name="sync")

    def step(self, messages: list[ChatMessage], tools: list[ToolSchema]) -> AgentReply:
        return AgentReply(content="hi")


def test_an_agent_object_with_a_sync_step_is_refused_at_registration(twenty_tasks: Path) -> None:
    with pytest.raises(TaurecError) as caught:
        runner.evaluate(_SyncStep(), suite=twenty_tasks, trials=1, tasks=["task_001"])
    message = str(caught.value)
    assert "\n" not in message
    assert "_SyncStep.step is not async; fix: declare it `async def step(" in message


def test_a_factory_whose_agents_have_a_sync_step_is_refused_at_first_use(
    twenty_tasks: Path,
) -> None:
    def make(context: AgentContext) -> _SyncStep:
        return _SyncStep()

    result = runner.evaluate(make, suite=twenty_tasks, trials=1, tasks=["task_001"])
    [cause] = [c for c in result.feedback.causes if c.kind == "agent_error"]
    assert "_SyncStep.step is not async; fix: declare it `async def step(" in cause.label


class _DictReply:
    @property
    def spec(self) -> ComponentSpec:
        return ComponentSpec(name="dict")

    async def step(self, messages: list[ChatMessage], tools: list[ToolSchema]) -> AgentReply:
        return {"content": "hello"}  # type: ignore[return-value]  # the mistake under test


def test_a_dict_reply_fails_its_trial_with_a_one_line_fix(twenty_tasks: Path) -> None:
    result = runner.evaluate(_DictReply(), suite=twenty_tasks, trials=1, tasks=["task_001"])
    [trial] = result.failures()
    assert trial.error is not None
    assert trial.error.kind == "AgentRaised.TypeError"
    assert trial.error.message == (
        "the agent raised TypeError: _DictReply.step returned dict, not an AgentReply; fix: "
        "`return AgentReply(**reply)` (from runner.core.protocols import AgentReply)"
    )
