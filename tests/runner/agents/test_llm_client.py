"""The one call path of both roles: direct for OpenAI-compatible endpoints, LiteLLM's lean HTTP
handler for providers, one pool, each response priced once."""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from domains.movies.catalog import Catalog
from domains.movies.simulators import build_simulator
from domains.movies.simulators.model_writer import WRITER_PROMPT
from domains.movies.tasks import Task, load_task
from runner.agents.litellm_agent import LiteLLMAgent
from runner.core.protocols import AgentContext, UserSimulator
from runner.core.transcript import MessageEvent
from runner.models.llm_client import (
    BASE64_LOGGING_ENV,
    CLIENT_ENV,
    LEAN_HTTP_ENV,
    aclose_clients,
    import_litellm,
    register_prices,
    uses_direct_path,
    uses_sdk_path,
)
from runner.play.agent_config import LiteLLMAgentConfig, RetryConfig
from tests.loopback import QuietHandler, completion, send_json, serving
from tests.processes import run_text

FAST = RetryConfig(max_attempts=2, initial_backoff_s=0.001, max_backoff_s=0.002, max_total_s=30)
# A model name no other test prices (LiteLLM's price map is process-wide).
PRICED = "client-probe-priced"


@dataclass
class Seen:
    """What the loopback server saw: each request's User-Agent and the client's (host, port)."""

    agents: list[str] = field(default_factory=list)
    peers: set[tuple[str, int]] = field(default_factory=set)


@pytest.fixture
def server() -> Iterator[tuple[str, Seen]]:
    seen = Seen()

    class Handler(QuietHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, so a reused connection shows up as one peer
        disable_nagle_algorithm = True

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            seen.agents.append(self.headers.get("User-Agent", ""))
            seen.peers.add(self.client_address[:2])
            system = str(body["messages"][0].get("content") or "")
            if system == WRITER_PROMPT:  # the user simulator's writer
                content = "Something funny, please."
            else:
                content = "What kind of movie would you like tonight?"
            send_json(self, completion(content, body["model"], 100, 10))

    with serving(Handler) as httpd:
        yield f"http://127.0.0.1:{httpd.server_port}/v1", seen


@pytest.fixture(scope="module")
def task(v1_dir: Path) -> Task:
    return load_task(v1_dir / "tasks" / "task_001.json")


@pytest.fixture(scope="module")
def catalog(v1_dir: Path) -> Catalog:
    return Catalog.load(v1_dir / "catalog.json")


def roles(url: str, task: Task, catalog: Catalog, model: str) -> tuple[LiteLLMAgent, UserSimulator]:
    config = LiteLLMAgentConfig(model=f"openai/{model}", api_base=url, retry=FAST, timeout_s=10)
    context = AgentContext(user_id=task.user_id, policy_text="Be kind.", seed=1)
    # The user's opening is one writer call (its guard may swap the words; the call still counts).
    options = {"api_base": url, "retry": FAST.model_dump(), "timeout_s": 10, "reader": "rules"}
    user = build_simulator(
        f"litellm:openai/{model}", task=task, catalog=catalog, seed=1, options=options
    )
    return LiteLLMAgent(config, context), user


async def one_exchange(agent: LiteLLMAgent, user: UserSimulator) -> tuple[float, float]:
    """An agent step then a user turn, sequentially; their recorded costs."""
    reply = await agent.step([{"role": "assistant", "content": "Hi!"}], [])
    turn = await user.respond([MessageEvent(role="agent", content=reply.content or "")])
    return reply.usage[0].cost_usd, turn.usage[0].cost_usd


def exchanges(agent: LiteLLMAgent, user: UserSimulator, count: int) -> list[tuple[float, float]]:
    async def main() -> list[tuple[float, float]]:
        try:
            return [await one_exchange(agent, user) for _ in range(count)]
        finally:
            await aclose_clients()

    return asyncio.run(main())


def test_both_roles_call_an_openai_compatible_endpoint_directly_by_default(
    server: tuple[str, Seen], task: Task, catalog: Catalog
) -> None:
    url, seen = server
    exchanges(*roles(url, task, catalog, "probe"), count=2)
    assert len(seen.agents) == 4
    # aiohttp announces itself; LiteLLM's handler says "litellm/…", the SDK "AsyncOpenAI/Python".
    assert all("aiohttp/" in a for a in seen.agents), seen.agents


def test_litellm_takes_the_lean_http_path_when_chosen(
    server: tuple[str, Seen], task: Task, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    url, seen = server
    monkeypatch.setenv(CLIENT_ENV, "litellm")
    import_litellm()
    exchanges(*roles(url, task, catalog, "probe"), count=2)
    assert len(seen.agents) == 4
    assert all(a.startswith("litellm/") for a in seen.agents), seen.agents


def test_the_sdk_path_stays_selectable(
    server: tuple[str, Seen], task: Task, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    url, seen = server
    monkeypatch.setenv(CLIENT_ENV, "litellm")
    monkeypatch.setenv(LEAN_HTTP_ENV, "False")
    exchanges(*roles(url, task, catalog, "probe"), count=1)
    assert all(a.startswith("AsyncOpenAI/") for a in seen.agents), seen.agents


def test_which_calls_go_direct() -> None:
    local = "http://127.0.0.1:8000/v1"
    assert uses_direct_path("openai/heuristic", local)
    assert uses_direct_path("openai/my-vllm-model", "https://models.example.org/v1")
    # Hosted OpenAI keeps LiteLLM's per-model parameter mapping, with or without an api_base.
    assert not uses_direct_path("openai/gpt-5-mini", None)
    assert not uses_direct_path("openai/gpt-5-mini", "https://api.openai.com/v1")
    # Every other provider speaks its own protocol through LiteLLM.
    assert not uses_direct_path("anthropic/claude-sonnet-4-5", local)
    assert not uses_direct_path("hosted_vllm/heuristic", local)


def test_providers_that_need_the_sdk_are_named_in_one_place() -> None:
    assert uses_sdk_path("github_copilot/gpt-4o")
    assert not uses_sdk_path("openai/gpt-4o-mini")
    assert not uses_sdk_path("gpt-4o-mini")
    assert not uses_sdk_path("anthropic/claude-sonnet-4-5")


@pytest.fixture(params=["auto", "litellm"])
def client(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each client switch in turn: `auto` (the direct client where it applies) and `litellm`."""
    monkeypatch.setenv(CLIENT_ENV, request.param)
    return str(request.param)


def test_agent_and_user_share_one_connection(
    server: tuple[str, Seen], task: Task, catalog: Catalog, client: str
) -> None:
    url, seen = server
    exchanges(*roles(url, task, catalog, "probe"), count=5)
    assert len(seen.agents) == 10
    # Ten sequential calls from both roles over one kept-alive connection of one shared pool.
    assert len(seen.peers) == 1, seen.peers


def test_each_response_is_priced_once(
    server: tuple[str, Seen],
    task: Task,
    catalog: Catalog,
    client: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url, _ = server
    litellm = import_litellm()
    litellm.register_model(
        {
            f"openai/{PRICED}": {
                "input_cost_per_token": 1e-6,
                "output_cost_per_token": 4e-6,
                "litellm_provider": "openai",
                "mode": "chat",
            }
        }
    )
    ours: list[object] = []
    original = litellm.completion_cost

    def counted(*args: Any, **kwargs: Any) -> Any:
        ours.append(kwargs.get("completion_response"))
        return original(*args, **kwargs)

    # LiteLLM prices each response itself on the way out (its own module's reference); a call
    # through the package attribute can only come from our code pricing it again.
    monkeypatch.setattr(litellm, "completion_cost", counted)
    costs = exchanges(*roles(url, task, catalog, PRICED), count=2)
    expected = 100 * 1e-6 + 10 * 4e-6
    assert costs == [(pytest.approx(expected), pytest.approx(expected))] * 2
    assert ours == []


DIRECT_RUN = """
import asyncio, json, sys
from runner.play.agent_config import LiteLLMAgentConfig
from runner.agents.litellm_agent import LiteLLMAgent
from domains.movies.catalog import Catalog
from runner.models.llm_client import aclose_clients
from runner.core.protocols import AgentContext
from domains.movies.simulators import build_simulator
from domains.movies.tasks import load_task
from runner.core.transcript import MessageEvent
from tests.loopback import QuietHandler, completion, send_json, serving

url, task = sys.argv[1], load_task(sys.argv[2])
model = "openai/gpt-4o-mini"
agent = LiteLLMAgent(
    LiteLLMAgentConfig(model=model, api_base=url, timeout_s=10),
    AgentContext(user_id=task.user_id, policy_text="Be kind.", seed=1),
)
user = build_simulator(
    "litellm:" + model, task=task, catalog=Catalog.load(sys.argv[3]), seed=1,
    options={"api_base": url, "timeout_s": 10, "reader": "rules"},
)

async def main():
    try:
        reply = await agent.step([{"role": "assistant", "content": "Hi!"}], [])
        turn = await user.respond([MessageEvent(role="agent", content=reply.content or "")])
        return [reply.usage[0].cost_usd, turn.usage[0].cost_usd]
    finally:
        await aclose_clients()

costs = asyncio.run(main())
print(json.dumps({"costs": costs, "litellm": "litellm" in sys.modules, "httpx": "httpx" in sys.modules}))
"""


def test_a_direct_run_never_imports_litellm_and_prices_from_its_bundled_map(
    server: tuple[str, Seen], v1_dir: Path
) -> None:
    import os
    import sys

    url, _ = server
    root = Path(__file__).resolve().parents[3]
    done = run_text(
        [
            sys.executable,
            "-c",
            DIRECT_RUN,
            url,
            str(v1_dir / "tasks" / "task_001.json"),
            str(v1_dir / "catalog.json"),
        ],
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
        timeout=120,
        check=True,
    )
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["litellm"] is False
    assert seen["httpx"] is False  # LiteLLM's client library (and the rich console its CLI loads)
    # What LiteLLM itself charges for gpt-4o-mini at this usage (100 prompt, 10 completion tokens).
    litellm = import_litellm()
    entry = litellm.model_cost["gpt-4o-mini"]
    expected = 100 * entry["input_cost_per_token"] + 10 * entry["output_cost_per_token"]
    assert expected > 0
    assert seen["costs"] == [pytest.approx(expected), pytest.approx(expected)]


def test_an_unknown_model_is_priced_by_an_exact_entry_at_zero(
    server: tuple[str, Seen], task: Task, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Unknown to LiteLLM's map: each response would be priced by fallback matching, then read
    # as 0. Registered once at zero on its first call, it is priced by an exact entry: still 0.
    url, _ = server
    monkeypatch.setenv(CLIENT_ENV, "litellm")
    litellm = import_litellm()
    unknown = "client-probe-unknown"
    with pytest.raises(Exception, match="isn't mapped"):
        litellm.get_model_info(f"openai/{unknown}")
    assert exchanges(*roles(url, task, catalog, unknown), count=1) == [(0.0, 0.0)]
    info = litellm.get_model_info(f"openai/{unknown}")
    assert (info["input_cost_per_token"], info["output_cost_per_token"]) == (0.0, 0.0)
    # A model LiteLLM prices keeps its own prices.
    register_prices("openai/gpt-4o-mini")
    assert litellm.get_model_info("openai/gpt-4o-mini")["input_cost_per_token"] > 0


def test_litellm_builds_no_base64_scan_of_its_logging_payload() -> None:
    # LiteLLM's documented switch, read at its import: 0 = no truncation pass over the messages.
    import_litellm()
    from litellm.litellm_core_utils import logging_utils

    assert os.environ[BASE64_LOGGING_ENV] == "0"
    messages = [{"role": "user", "content": "data:image/png;base64," + "A" * 500}]
    assert logging_utils.truncate_base64_in_messages(messages) is messages


def test_the_direct_client_sends_every_body_it_is_given_as_json() -> None:
    # orjson encodes the body; what it refuses (an integer past 64 bits) goes through `json`.
    from runner.models import openai_compat

    bodies: list[bytes] = []

    class Handler(QuietHandler):
        def do_POST(self) -> None:
            bodies.append(self.rfile.read(int(self.headers["Content-Length"])))
            send_json(self, completion("ok", "m", 1, 1))

    messages = [{"role": "user", "content": 'Amélie, "quoted" \\ and ✓ — 2½ hours?'}]
    extras: list[dict[str, Any]] = [{"top_k": 3, "ratio": 0.1}, {"big": 2**70}]

    async def main(url: str) -> None:
        try:
            for extra in extras:
                await openai_compat.chat_completion(
                    model="openai/m", api_base=url, messages=messages, seed=7, extra_body=extra
                )
        finally:
            await aclose_clients()

    with serving(Handler) as httpd:
        asyncio.run(main(f"http://127.0.0.1:{httpd.server_port}/v1"))
    expected = [{"model": "m", "messages": messages, "seed": 7, **extra} for extra in extras]
    assert [json.loads(body) for body in bodies] == expected
    assert "Amélie".encode() in bodies[0]  # UTF-8 text, not \\u escapes
