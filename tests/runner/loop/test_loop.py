"""The trial loop: protocol order, OpenAI message format, every stop reason, usage, determinism."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import time
from collections.abc import Callable
from typing import Any, ClassVar

import pytest

from domains.movies.catalog import Catalog
from domains.movies.scoring import score_transcript
from domains.movies.simulators import build_simulator
from domains.movies.tasks import Task
from domains.movies.tools import build_toolset
from runner.agents import build_builtin
from runner.core.errors import InfraFailure
from runner.core.protocols import (
    AgentContext,
    AgentReply,
    ChatMessage,
    ModelCall,
    ToolCallRequest,
    ToolSchema,
    UserTurn,
)
from runner.core.rules import get_rules
from runner.core.transcript import ComponentSpec, MessageEvent, Transcript
from runner.play.attribution import report_infra
from runner.play.loop import (
    GREETING,
    MAX_AGENT_TEXT_BYTES,
    MAX_TOOL_CALL_BYTES,
    MAX_TOOL_ROUNDS,
    run_trial,
)

from .conftest import POLICY


class ScriptAgent:
    """An agent that plays back fixed replies (repeating the last) and records what it saw."""

    def __init__(self, replies: list[AgentReply | BaseException]) -> None:
        self.replies = replies
        self.seen: list[list[ChatMessage]] = []

    @property
    def spec(self) -> ComponentSpec:
        return ComponentSpec(name="script", args={"n": len(self.replies)})

    async def step(self, messages: list[ChatMessage], tools: list[ToolSchema]) -> AgentReply:
        self.seen.append(messages)
        reply = self.replies[min(len(self.seen) - 1, len(self.replies) - 1)]
        if isinstance(reply, BaseException):
            raise reply
        return reply


class EchoUser:
    """A user that answers every agent message with a numbered line (and reports usage)."""

    def __init__(self, fail_on: int | None = None) -> None:
        self.calls = 0
        self.fail_on = fail_on

    @property
    def spec(self) -> ComponentSpec:
        return ComponentSpec(name="echo")

    async def respond(self, conversation: list[MessageEvent]) -> UserTurn:
        self.calls += 1
        if self.fail_on == self.calls:
            raise InfraFailure("Timeout", "user model timed out")
        return UserTurn(
            content=f"user line {self.calls}",
            usage=[ModelCall(model="sim-1", prompt_tokens=10, completion_tokens=2, cost_usd=0.001)],
        )


def call(name: str, arguments: str, id_: str = "c1") -> ToolCallRequest:
    return ToolCallRequest(id=id_, name=name, arguments=arguments)


def run(task: Task, catalog: Catalog, agent: Any, user: Any | None = None, **kw: Any) -> Transcript:
    return asyncio.run(
        run_trial(
            task=task,
            catalog=catalog,
            agent=agent,
            simulator=user or EchoUser(),
            toolset=kw.pop("toolset", None) or build_toolset(catalog, task, rules=kw.get("rules")),
            seed=kw.pop("seed", 0),
            **kw,
        )
    )


@pytest.fixture
def comedy_task(make_task: Callable[..., Task]) -> Task:
    return make_task([("genres", "contains", "Comedy", "volunteer")])


def test_recommend_ends_the_trial_recommended(mini_catalog: Catalog, comedy_task: Task) -> None:
    agent = ScriptAgent(
        [
            AgentReply(
                content="Try Copper Lanterns.",
                tool_calls=[
                    call("get_metadata", '{"item_id": "tmdb_1"}', "a"),
                    call("recommend", '{"item_id": "tmdb_1"}', "b"),
                    call("get_metadata", '{"item_id": "tmdb_2"}', "c"),
                ],
            )
        ]
    )
    t = run(comedy_task, mini_catalog, agent)
    assert t.stop_reason == "recommended"
    assert t.recommendations == ["tmdb_1"]
    kinds = [(e.type, getattr(e, "role", getattr(e, "name", ""))) for e in t.events]
    assert kinds == [
        ("message", "agent"),
        ("message", "user"),
        ("message", "agent"),
        ("tool_call", "get_metadata"),
        ("tool_call", "recommend"),
    ], "the message goes before its tool calls; calls after a recommend do not run"
    first = t.events[0]
    assert isinstance(first, MessageEvent)
    assert first.content == GREETING
    # The agent saw the greeting as an assistant message and the opening as a user message.
    assert agent.seen[0] == [
        {"role": "assistant", "content": GREETING},
        {"role": "user", "content": "user line 1"},
    ]
    assert t.tools == build_toolset(mini_catalog, comedy_task).names
    assert t.agent == ComponentSpec(name="script", args={"n": 1})
    assert t.leak_audit is not None
    assert t.leak_audit.clean
    assert len(t.timing.step_latencies_s) == 1


def test_recommend_without_id_abstains(mini_catalog: Catalog, comedy_task: Task) -> None:
    t = run(
        comedy_task, mini_catalog, ScriptAgent([AgentReply(tool_calls=[call("recommend", "{}")])])
    )
    assert t.stop_reason == "abstained"
    assert t.recommendations == []


def test_tool_results_are_fed_back_in_openai_format(
    mini_catalog: Catalog, comedy_task: Task
) -> None:
    agent = ScriptAgent(
        [
            AgentReply(tool_calls=[call("get_metadata", '{"item_id": "tmdb_3"}', "m1")]),
            AgentReply(tool_calls=[call("recommend", '{"item_id": "tmdb_3"}', "r1")]),
        ]
    )
    t = run(comedy_task, mini_catalog, agent)
    second = agent.seen[1]
    assert second[-2] == {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "m1",
                "type": "function",
                "function": {"name": "get_metadata", "arguments": '{"item_id": "tmdb_3"}'},
            }
        ],
    }
    assert second[-1]["role"] == "tool"
    assert second[-1]["tool_call_id"] == "m1"
    assert json.loads(second[-1]["content"])["title"] == "Velvet Static"
    # Tool-only rounds belong to one step: no extra agent message, one latency.
    assert [e.role for e in t.messages] == ["agent", "user"]
    assert len(t.timing.step_latencies_s) == 1


def test_malformed_arguments_give_an_error_result_and_the_trial_goes_on(
    mini_catalog: Catalog, comedy_task: Task
) -> None:
    agent = ScriptAgent(
        [
            AgentReply(tool_calls=[call("search_catalog", '{"query": "comedy', "bad")]),
            AgentReply(tool_calls=[call("recommend", '{"item_id": "tmdb_1"}', "ok")]),
        ]
    )
    t = run(comedy_task, mini_catalog, agent)
    bad = t.tool_calls[0]
    assert bad.is_error
    assert bad.arguments == {}
    assert bad.raw_arguments == '{"query": "comedy'
    assert "error" in json.loads(bad.result)
    assert agent.seen[1][-1]["tool_call_id"] == "bad"
    assert t.stop_reason == "recommended"


def test_an_erroring_recommend_does_not_end_the_trial(
    mini_catalog: Catalog, comedy_task: Task
) -> None:
    agent = ScriptAgent(
        [
            AgentReply(tool_calls=[call("recommend", '{"item_id": "tmdb_404"}')]),
            AgentReply(content="Sorry, let me look again."),
        ]
    )
    t = run(comedy_task, mini_catalog, agent, max_turns=3)
    assert t.tool_calls[0].is_error
    assert t.stop_reason == "max_turns"
    assert t.recommendations == []


def test_max_turns_counts_agent_steps(mini_catalog: Catalog, comedy_task: Task) -> None:
    user = EchoUser()
    t = run(
        comedy_task,
        mini_catalog,
        ScriptAgent([AgentReply(content="Tell me more?")]),
        user,
        max_turns=3,
    )
    assert t.stop_reason == "max_turns"
    roles = [m.role for m in t.messages]
    assert roles == ["agent", "user", "agent", "user", "agent", "user", "agent"]
    assert user.calls == 3
    assert len(t.timing.step_latencies_s) == 3


def test_endless_tool_calls_are_cut_and_count_as_a_turn(
    mini_catalog: Catalog, comedy_task: Task
) -> None:
    agent = ScriptAgent([AgentReply(tool_calls=[call("search_catalog", '{"query": "comedy"}')])])
    t = run(comedy_task, mini_catalog, agent, max_turns=2)
    assert t.stop_reason == "max_turns"
    assert len(t.tool_calls) == 2 * MAX_TOOL_ROUNDS
    assert [m.role for m in t.messages] == ["agent", "user"]


@report_infra
class OurClient(ScriptAgent):
    """Stands for one of our own model clients (LiteLLM, HTTP): registered as able to report
    infrastructure errors, as `runner.play.attribution.report_infra` does for them."""


def test_infra_failure_from_our_own_client_is_recorded_not_raised(
    mini_catalog: Catalog, comedy_task: Task
) -> None:
    agent = OurClient(
        [AgentReply(content="Hi?"), InfraFailure("RateLimitError", "429 after 6 attempts")]
    )
    t = run(comedy_task, mini_catalog, agent)
    assert t.stop_reason == "infra_error"
    assert t.error is not None
    assert t.error.kind == "RateLimitError"
    assert "429" in t.error.message
    assert [m.role for m in t.messages] == ["agent", "user", "agent", "user"]
    assert t.leak_audit is not None


def test_a_python_agent_cannot_claim_an_infra_error(
    mini_catalog: Catalog, comedy_task: Task
) -> None:
    # Before: raising InfraFailure (or anything) from a Python agent dropped the trial from n.
    agent = ScriptAgent([InfraFailure("RateLimitError", "429, honestly")])
    t = run(comedy_task, mini_catalog, agent)
    assert t.stop_reason == "agent_error"
    assert t.error is not None
    assert t.error.kind == "AgentRaised.RateLimitError"


def test_any_agent_exception_is_the_agents_failure(
    mini_catalog: Catalog, comedy_task: Task
) -> None:
    t = run(comedy_task, mini_catalog, ScriptAgent([ValueError("bad state")]))
    assert t.stop_reason == "agent_error"
    assert t.error is not None
    assert t.error.kind == "AgentRaised.ValueError"
    assert "bad state" in t.error.message
    assert score_transcript(comedy_task, t, mini_catalog).reward == 0


def test_an_agent_calling_sys_exit_fails_its_trial_not_the_run(
    mini_catalog: Catalog, comedy_task: Task
) -> None:
    t = run(comedy_task, mini_catalog, ScriptAgent([SystemExit(3)]))
    assert t.stop_reason == "agent_error"
    assert t.error is not None
    assert t.error.kind == "AgentRaised.SystemExit"


class Hangs:
    spec = ComponentSpec(name="hangs")

    async def step(self, messages: list[ChatMessage], tools: list[ToolSchema]) -> AgentReply:
        await asyncio.Event().wait()
        raise AssertionError("unreachable")


def test_a_hanging_agent_is_cut_at_the_step_timeout(
    mini_catalog: Catalog, comedy_task: Task
) -> None:
    started = time.monotonic()
    t = run(comedy_task, mini_catalog, Hangs(), step_timeout_s=0.2)
    assert time.monotonic() - started < 5
    assert t.stop_reason == "agent_error"
    assert t.error is not None
    assert t.error.kind == "StepTimeout"
    assert "0.2s" in t.error.message


class ReturnsJunk:
    spec = ComponentSpec(name="junk")

    async def step(self, messages: list[ChatMessage], tools: list[ToolSchema]) -> Any:
        return {"content": "a dict, not an AgentReply"}


def test_a_reply_that_is_not_an_agent_reply_is_the_agents_failure(
    mini_catalog: Catalog, comedy_task: Task
) -> None:
    # Before: the loop crashed on `reply.usage` and recorded an infra error ("toolset: ...").
    t = run(comedy_task, mini_catalog, ReturnsJunk())
    assert t.stop_reason == "agent_error"
    assert t.error is not None
    assert t.error.kind == "MalformedReply"


@pytest.mark.parametrize("rules", ["v1", "v2"])
def test_pathologically_nested_arguments_are_the_agents_failure(
    mini_catalog: Catalog, comedy_task: Task, rules: str
) -> None:
    # Before: json.loads raised RecursionError inside the toolset: an infra error, left out of n.
    deep = "[" * 100_000 + "]" * 100_000
    agent = ScriptAgent([AgentReply(tool_calls=[call("search_catalog", deep)])])
    t = run(comedy_task, mini_catalog, agent, rules=get_rules(rules))
    assert t.stop_reason == "agent_error"
    assert t.error is not None
    assert t.error.kind == "PathologicalToolArguments"
    assert t.tool_calls == []  # never ran, never stored
    assert score_transcript(comedy_task, t, mini_catalog).reward == 0


def test_ordinary_nesting_still_reaches_the_tool(mini_catalog: Catalog, comedy_task: Task) -> None:
    nested = json.dumps({"query": "comedy", "x": [[[[1]]]]})
    agent = ScriptAgent([AgentReply(tool_calls=[call("search_catalog", nested)])])
    t = run(comedy_task, mini_catalog, agent, max_turns=1)
    assert t.stop_reason == "max_turns"
    assert t.tool_calls


class BrokenTools:
    names: ClassVar[list[str]] = ["search_catalog"]

    def schemas(self) -> list[ToolSchema]:
        return []

    def call(self, name: str, arguments: Any) -> Any:
        raise KeyError("our bug")


def test_a_toolset_bug_is_ours(mini_catalog: Catalog, comedy_task: Task) -> None:
    agent = ScriptAgent([AgentReply(tool_calls=[call("search_catalog", "{}")])])
    t = run(comedy_task, mini_catalog, agent, toolset=BrokenTools())
    assert t.stop_reason == "infra_error"
    assert t.error is not None
    assert t.error.kind == "KeyError"


def test_simulator_failure_is_an_infra_error(mini_catalog: Catalog, comedy_task: Task) -> None:
    t = run(
        comedy_task, mini_catalog, ScriptAgent([AgentReply(content="Hi?")]), EchoUser(fail_on=2)
    )
    assert t.stop_reason == "infra_error"
    assert t.error is not None
    assert t.error.kind == "Timeout"


def test_usage_is_summed_per_role_and_model(mini_catalog: Catalog, comedy_task: Task) -> None:
    spend = [ModelCall(model="m-agent", prompt_tokens=100, completion_tokens=5, cost_usd=0.01)]
    agent = ScriptAgent(
        [
            AgentReply(content="A question?", usage=spend),
            AgentReply(tool_calls=[call("recommend", '{"item_id": "tmdb_1"}')], usage=spend),
        ]
    )
    t = run(comedy_task, mini_catalog, agent)
    assert t.usage["agent:m-agent"].calls == 2
    assert t.usage["agent:m-agent"].prompt_tokens == 200
    assert t.usage["agent:m-agent"].cost_usd == pytest.approx(0.02)
    assert t.usage["user:sim-1"].calls == 2


def test_same_seed_same_transcript(mini_catalog: Catalog, make_task: Callable[..., Task]) -> None:
    task = make_task(
        [
            ("genres", "contains", "Comedy", "volunteer"),
            ("runtime", "<=", 100, "hidden"),
            ("rating", ">=", 7.0, "on_ask"),
        ]
    )

    def once(seed: int) -> Transcript:
        context = AgentContext(user_id=task.user_id, policy_text=POLICY, seed=seed)
        agent = build_builtin("heuristic", context)
        user = build_simulator("scripted", task=task, catalog=mini_catalog, seed=seed)
        return run(task, mini_catalog, agent, user, seed=seed)

    a, b = once(5), once(5)
    assert a.content_json() == b.content_json()
    assert a.stop_reason in ("recommended", "user_left")  # either way, identical twice
    assert a.recommendations in ([], ["tmdb_3"])
    assert a.seed == 5
    texts = {once(s).content_json() for s in range(6)}
    assert len(texts) > 1, "the scripted user's wording varies with the seed"


def test_a_flood_of_text_ends_the_trial_output_cap(
    mini_catalog: Catalog, comedy_task: Task
) -> None:
    # Before: 3.5 MB of text per reply for 20 turns made a 70 MB transcript.
    flood = base64.b64encode(os.urandom(2_600_000)).decode()  # ~3.5 MB, incompressible
    t = run(comedy_task, mini_catalog, ScriptAgent([AgentReply(content=flood)]))
    assert t.stop_reason == "output_cap"
    assert t.error is not None
    assert t.error.kind == "AgentTextCap"
    assert len(t.model_dump_json()) < 64 * 1024  # the reply that crossed the cap is not kept
    assert score_transcript(comedy_task, t, mini_catalog).reward == 0


def test_text_up_to_the_cap_is_kept_and_past_it_ends_the_trial(
    mini_catalog: Catalog, comedy_task: Task
) -> None:
    chunk = "x" * (100 * 1024)
    t = run(comedy_task, mini_catalog, ScriptAgent([AgentReply(content=chunk)]))
    assert t.stop_reason == "output_cap"
    kept = [m for m in t.messages if m.role == "agent" and m.content == chunk]
    assert len(kept) == MAX_AGENT_TEXT_BYTES // len(chunk)  # 2 kept; the third crossed 256 KiB
    assert len(t.model_dump_json()) < MAX_AGENT_TEXT_BYTES + 64 * 1024


def test_a_flood_of_tool_calls_ends_the_trial_output_cap(
    mini_catalog: Catalog, comedy_task: Task
) -> None:
    query = json.dumps({"query": "comedy " + "y" * 40_000})
    calls = [call("search_catalog", query, f"c{i}") for i in range(8)]
    t = run(comedy_task, mini_catalog, ScriptAgent([AgentReply(tool_calls=calls)]))
    assert t.stop_reason == "output_cap"
    assert t.error is not None
    assert t.error.kind == "ToolCallBytesCap"
    assert len(t.model_dump_json()) < 2 * MAX_TOOL_CALL_BYTES + 64 * 1024
