"""The `http` agent against a small agent server speaking the documented protocol over real HTTP."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from domains.movies.catalog import Catalog
from domains.movies.scoring import score_transcript
from domains.movies.tasks import load_task
from runner.agents import build_agent
from runner.agents.http_agent import HttpAgent, check_endpoint, last_tool_results
from runner.agents.http_protocol import AgentStepRequest
from runner.core.errors import AgentFailure, InfraFailure, TaurecError
from runner.core.protocols import AgentContext
from runner.play.agent_config import BuiltinAgentConfig, HttpAgentConfig, RetryConfig
from runner.submissions.smoke import serve_http_stand_in
from tests.loopback import QuietHandler, send_json, serving
from tests.movie_world import movie_trial

FAST = RetryConfig(max_attempts=3, initial_backoff_s=0.001, max_backoff_s=0.002, max_total_s=20)
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "search_catalog",
            "description": "Search the catalog",
            "parameters": {
                "type": "object",
                "properties": {"query": {"type": "string"}},
                "required": ["query"],
            },
        },
    }
]
CONTEXT = AgentContext(
    user_id="u_test_7", policy_text="Be honest. Never push sponsored items.", seed=3
)


@dataclass
class Answer:
    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0


@dataclass
class AgentServer:
    """Answers each POST with the next scripted Answer and keeps what it received."""

    url: str
    answers: list[Answer]
    received: list[dict[str, Any]] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)


@pytest.fixture
def agent_server() -> Iterator[AgentServer]:
    state = AgentServer(url="", answers=[])
    stop = threading.Event()

    class Handler(QuietHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            state.received.append(json.loads(self.rfile.read(length)))
            state.headers.append(dict(self.headers.items()))
            answer = state.answers.pop(0) if state.answers else Answer(500, {"error": "no script"})
            if answer.delay_s and stop.wait(answer.delay_s):
                return
            send_json(self, answer.body, answer.status, answer.headers)

    with serving(Handler, poll_s=0.05) as server:
        state.url = f"http://127.0.0.1:{server.server_address[1]}/agent/step"
        try:
            yield state
        finally:
            stop.set()


def make_agent(url: str, **overrides: Any) -> HttpAgent:
    config = HttpAgentConfig(endpoint=url, timeout_s=5, retry=FAST, **overrides)
    return HttpAgent(config, CONTEXT)


GREETING = {"role": "assistant", "content": "Hi! What would you like to watch?"}
USER = {"role": "user", "content": "Something about space, not too long."}


def test_two_steps_tool_call_then_message(
    agent_server: AgentServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TAUREC_KEY_TEST_AGENT", "Bearer agent-secret-123456")
    agent_server.answers = [
        Answer(
            body={
                "tool_calls": [
                    {"id": "c1", "name": "search_catalog", "arguments": {"query": "space"}}
                ],
                "usage": [{"model": "acme/planner", "prompt_tokens": 12, "completion_tokens": 3}],
            }
        ),
        Answer(body={"message": "How about tmdb_1, a short space adventure?"}),
    ]
    agent = make_agent(agent_server.url, headers_env={"Authorization": "TAUREC_KEY_TEST_AGENT"})
    messages: list[dict[str, Any]] = [GREETING, USER]
    first = asyncio.run(agent.step(messages, TOOLS))
    assert first.content is None
    assert [(c.id, c.name, json.loads(c.arguments)) for c in first.tool_calls] == [
        ("c1", "search_catalog", {"query": "space"})
    ]
    assert first.usage[0].model == "acme/planner"
    assert first.usage[0].prompt_tokens == 12

    messages += [
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "c1",
                    "type": "function",
                    "function": {"name": "search_catalog", "arguments": '{"query": "space"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": '[{"id": "tmdb_1"}]'},
    ]
    second = asyncio.run(agent.step(messages, TOOLS))
    assert second.content == "How about tmdb_1, a short space adventure?"
    assert second.tool_calls == []

    one, two = (AgentStepRequest.model_validate(body) for body in agent_server.received)
    assert one.protocol_version == 1
    assert one.user_id == "u_test_7"
    assert one.policy == CONTEXT.policy_text
    assert one.tools == TOOLS
    assert one.messages == [GREETING, USER]
    assert one.last_tool_results == []
    assert [(r.tool_call_id, r.name, r.content) for r in two.last_tool_results] == [
        ("c1", "search_catalog", '[{"id": "tmdb_1"}]')
    ]
    assert agent_server.headers[0]["Authorization"] == "Bearer agent-secret-123456"
    assert "agent-secret" not in json.dumps(agent.spec.model_dump())
    assert agent.spec.args["headers_env"] == {"Authorization": "TAUREC_KEY_TEST_AGENT"}


def test_malformed_argument_text_is_passed_through_raw(agent_server: AgentServer) -> None:
    agent_server.answers = [
        Answer(
            body={"tool_calls": [{"id": "c1", "name": "search_catalog", "arguments": '{"query": '}]}
        )
    ]
    reply = asyncio.run(make_agent(agent_server.url).step([GREETING, USER], TOOLS))
    assert reply.tool_calls[0].arguments == '{"query": '


@pytest.mark.parametrize(
    ("body", "field_name"),
    [
        ({"tool_calls": [{"name": "search_catalog"}]}, "tool_calls.0.id"),
        ({"message": 42}, "message"),
        ({"mesage": "typo"}, "mesage"),
        ({}, "message"),
        (
            {"usage": [{"model": "m", "prompt_tokens": -1}], "message": "hi"},
            "usage.0.prompt_tokens",
        ),
    ],
)
def test_malformed_response_names_the_field(
    agent_server: AgentServer, body: dict[str, Any], field_name: str
) -> None:
    agent_server.answers = [Answer(body=body)]
    with pytest.raises(AgentFailure) as caught:
        asyncio.run(make_agent(agent_server.url).step([GREETING, USER], TOOLS))
    assert caught.value.kind == "MalformedResponse"
    assert field_name in caught.value.message
    assert len(agent_server.received) == 1


def test_not_json_is_an_agent_failure(agent_server: AgentServer) -> None:
    agent_server.answers = [Answer(body=b"<html>oops</html>")]
    with pytest.raises(AgentFailure, match="not JSON"):
        asyncio.run(make_agent(agent_server.url).step([GREETING, USER], TOOLS))


def test_503_with_retry_after_then_success(agent_server: AgentServer) -> None:
    agent_server.answers = [
        Answer(503, {"error": "busy"}, {"Retry-After": "0.05"}),
        Answer(429, {"error": "slow down"}, {"Retry-After": "0"}),
        Answer(body={"message": "ready"}),
    ]
    reply = asyncio.run(make_agent(agent_server.url).step([GREETING, USER], TOOLS))
    assert reply.content == "ready"
    assert len(agent_server.received) == 3


def test_500s_until_attempts_exhausted(agent_server: AgentServer) -> None:
    agent_server.answers = [Answer(500, {"error": "down"}) for _ in range(5)]
    with pytest.raises(AgentFailure) as caught:
        asyncio.run(make_agent(agent_server.url).step([GREETING, USER], TOOLS))
    assert caught.value.kind == "ServerError"
    assert len(agent_server.received) == FAST.max_attempts


def test_401_fails_at_once_without_leaking_the_header(
    agent_server: AgentServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    secret = "Bearer very-secret-value-987"
    monkeypatch.setenv("TAUREC_KEY_TEST_HEADER", secret)
    agent_server.answers = [Answer(401, {"error": f"bad credential {secret}"})]
    agent = make_agent(agent_server.url, headers_env={"Authorization": "TAUREC_KEY_TEST_HEADER"})
    with pytest.raises(AgentFailure) as caught:
        asyncio.run(agent.step([GREETING, USER], TOOLS))
    assert caught.value.kind == "AuthenticationError"
    assert "very-secret-value" not in str(caught.value)
    assert len(agent_server.received) == 1


def test_timeout_becomes_an_agent_failure(agent_server: AgentServer) -> None:
    agent_server.answers = [Answer(body={"message": "late"}, delay_s=30) for _ in range(2)]
    config = HttpAgentConfig(
        endpoint=agent_server.url,
        timeout_s=0.2,
        retry=RetryConfig(max_attempts=2, initial_backoff_s=0.001, max_backoff_s=0.001),
    )
    with pytest.raises(AgentFailure) as caught:
        asyncio.run(HttpAgent(config, CONTEXT).step([GREETING, USER], TOOLS))
    assert caught.value.kind == "Timeout"


def test_missing_header_env_is_an_infra_failure(agent_server: AgentServer) -> None:
    agent = make_agent(agent_server.url, headers_env={"X-Api-Key": "TAUREC_KEY_TEST_UNSET"})
    with pytest.raises(InfraFailure, match="TAUREC_KEY_TEST_UNSET"):
        asyncio.run(agent.step([GREETING, USER], TOOLS))
    assert agent_server.received == []


@pytest.mark.parametrize(
    "url",
    ["http://agent.example/step", "ftp://127.0.0.1/x", "http://10.0.0.1/step", "/relative/step"],
)
def test_non_https_endpoints_are_refused(url: str) -> None:
    with pytest.raises(TaurecError):
        check_endpoint(url)
    with pytest.raises(TaurecError):
        HttpAgent(HttpAgentConfig(endpoint=url), CONTEXT)


@pytest.mark.parametrize(
    "url",
    [
        "https://agent.example/step",
        "http://127.0.0.1:9/x",
        "http://localhost/x",
        "http://[::1]:8/x",
    ],
)
def test_https_and_loopback_endpoints_are_allowed(url: str) -> None:
    check_endpoint(url)


def test_last_tool_results_only_after_the_last_assistant_message() -> None:
    call = {"id": "a", "type": "function", "function": {"name": "get_metadata", "arguments": "{}"}}
    messages = [
        GREETING,
        USER,
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "a", "content": "{}"},
        {"role": "assistant", "content": "Any favourite genre?"},
        {"role": "user", "content": "Comedy"},
    ]
    assert last_tool_results(messages) == []
    assert [r.name for r in last_tool_results(messages[:4])] == ["get_metadata"]


@pytest.fixture
def heuristic_service() -> Iterator[str]:
    """An agent service that runs the heuristic policy behind the protocol (stateless): the
    stand-in endpoint `taurec submission smoke` points an http entry at, its seed fixed at the
    in-process agent's (0)."""
    with serve_http_stand_in(seed=0) as url:
        yield url


def test_a_whole_trial_over_the_protocol_matches_the_in_process_heuristic(
    heuristic_service: str, v1_dir: Path
) -> None:
    catalog = Catalog.load(v1_dir / "catalog.json")
    task = load_task(v1_dir / "tasks" / "task_005.json")
    policy = (v1_dir / "policy.md").read_text(encoding="utf-8")
    context = AgentContext(user_id=task.user_id, policy_text=policy, seed=0)

    def trial(agent: Any) -> Any:
        return asyncio.run(movie_trial(task, catalog, agent))

    over_http = trial(HttpAgent(HttpAgentConfig(endpoint=heuristic_service, retry=FAST), context))
    local = trial(build_agent(BuiltinAgentConfig(name="heuristic"), context))
    assert over_http.stop_reason in {"recommended", "abstained"}
    assert over_http.events == local.events
    assert over_http.agent.name == "http"
    reward = score_transcript(task, over_http, catalog).reward
    assert reward == score_transcript(task, local, catalog).reward
