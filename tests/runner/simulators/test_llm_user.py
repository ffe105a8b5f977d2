"""The LiteLLM user simulator against a small scripted OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from runner.agents import build_builtin
from runner.catalog import Catalog
from runner.errors import InfraFailure
from runner.llm_client import run_closing_clients as run
from runner.loop import GREETING, run_trial
from runner.protocols import AgentContext
from runner.simulators import build_simulator
from runner.simulators.llm import build_user_prompt, parse_user_turn
from runner.tasks import Task
from runner.tools import build_toolset
from tests.loopback import QuietHandler, completion, send_json, serving

from .conftest import chat


class FakeUserModel:
    """Answers like a user model would: an opening, then accepts any proposal. `mode` injects faults."""

    def __init__(self) -> None:
        self.mode = "ok"
        self.requests: list[dict[str, Any]] = []

    def answer(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        self.requests.append(body)
        if self.mode == "500":
            return 500, {"error": {"message": "boom", "type": "server_error"}}
        last = body["messages"][-1]["content"]
        if self.mode == "garbage":
            content = "sure thing!"
        elif "How about" in last:
            content = json.dumps({"message": "Sounds good, I'll take it.", "verdict": "accept"})
        elif len(body["messages"]) == 2:
            content = json.dumps({"message": "Hi! I'd like a comedy.", "verdict": "continue"})
        else:
            content = "```json\n" + json.dumps({"message": "Not fussy about the rest."}) + "\n```"
        return 200, completion(content, body["model"], 40, 8)


@pytest.fixture
def fake_user_server() -> Iterator[tuple[str, FakeUserModel]]:
    model = FakeUserModel()

    class Handler(QuietHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            status, payload = model.answer(body)
            send_json(self, payload, status)

    with serving(Handler) as server:
        yield f"http://127.0.0.1:{server.server_port}/v1", model


@pytest.fixture
def comedy_task(make_task: Callable[..., Task]) -> Task:
    return make_task(
        [
            ("genres", "contains", "Comedy", "volunteer"),
            ("runtime", "<=", 100, "on_ask"),
            ("rating", ">=", 6.0, "hidden"),
        ],
        user_services=["Netflix"],
    )


def test_prompt_carries_the_reveal_rules(comedy_task: Task) -> None:
    prompt = build_user_prompt(comedy_task)
    assert "[SAY UP FRONT] the movie's genres includes Comedy" in prompt
    assert "[SAY WHEN ASKED] the movie's runtime at most 100 minutes" in prompt
    assert "[NEVER SAY] the movie's rating at least 6.0" in prompt
    assert "Netflix" in prompt


def test_parse_user_turn() -> None:
    assert parse_user_turn('{"message": "ok", "verdict": "accept"}') == ("ok", "accept")
    assert parse_user_turn('noise {"message": "hm", "verdict": "weird"} noise') == (
        "hm",
        "continue",
    )
    with pytest.raises(ValueError, match="JSON"):
        parse_user_turn("no json here")


@pytest.mark.slow
def test_trial_with_llm_user(
    fake_user_server: tuple[str, FakeUserModel], catalog: Catalog, comedy_task: Task
) -> None:
    url, model = fake_user_server
    user = build_simulator(
        "litellm:openai/fake-user",
        task=comedy_task,
        catalog=catalog,
        seed=1,
        options={"api_base": url},
    )
    agent = build_builtin(
        "heuristic", AgentContext(user_id="user_1", policy_text="Be good.", seed=1)
    )
    t = run(
        run_trial(task=comedy_task, catalog=catalog, agent=agent, simulator=user,
                  toolset=build_toolset(catalog, comedy_task), seed=1)
    )  # fmt: skip
    assert t.stop_reason == "recommended", t.events
    assert t.messages[1].content == "Hi! I'd like a comedy."
    assert (
        t.usage["user:openai/fake-user"].prompt_tokens
        == 40 * t.usage["user:openai/fake-user"].calls
    )
    assert t.simulator.name == "litellm"
    assert t.simulator.args["model"] == "openai/fake-user"
    first = model.requests[0]["messages"]
    assert first[0]["role"] == "system"
    assert first[1] == {"role": "user", "content": GREETING}


def test_malformed_output_and_server_errors_are_infra_failures(
    fake_user_server: tuple[str, FakeUserModel], catalog: Catalog, comedy_task: Task
) -> None:
    url, model = fake_user_server
    options: dict[str, Any] = {
        "api_base": url,
        "retry": {"max_attempts": 2, "initial_backoff_s": 0.0},
    }
    user = build_simulator(
        "litellm:openai/fake-user", task=comedy_task, catalog=catalog, seed=0, options=options
    )
    model.mode = "garbage"
    with pytest.raises(InfraFailure) as bad:
        run(user.respond(chat(GREETING)))
    assert bad.value.kind == "MalformedResponse"
    model.mode = "500"
    before = len(model.requests)
    with pytest.raises(InfraFailure):
        run(user.respond(chat(GREETING)))
    assert len(model.requests) - before == 2, "retried once under the shared retry policy"
