"""On hosted runs every client path connects to the address the address check judged, and a
refused address is the agent's error whatever the agent's kind.

The resolver here is the process's own `socket.getaddrinfo`, wrapped: the first lookup of a name
answers a public address (what the check sees), every later one answers 127.0.0.1, where a
listener counts the connections it gets (what a rebinding attacker would point the connection
at: the runner's metadata service, a sibling container). A client that resolved the name again
when it connects would reach the listener; a pinned one goes to the public address instead.
"""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from domains.movies.catalog import Catalog
from domains.movies.tasks import load_task
from runner.agents.http_agent import HttpAgent
from runner.agents.litellm_agent import LiteLLMAgent
from runner.core.errors import TaurecError
from runner.core.protocols import AgentContext, AgentReply, ChatMessage, ToolSchema
from runner.core.transcript import ComponentSpec
from runner.models import keys, llm_client
from runner.models.keys import HOSTED_ENV, RefusedEndpoint
from runner.models.llm_client import CLIENT_ENV, LEAN_HTTP_ENV, run_closing_clients
from runner.models.provider_paths import CUSTOM_BASE_PROVIDERS
from runner.play.agent_config import HttpAgentConfig, LiteLLMAgentConfig, RetryConfig
from runner.play.attribution import attribute
from tests.movie_world import movie_trial

NAME = "models.rebind.example"
PUBLIC = "93.184.216.34"  # a public address: what the check is shown first
ONE_TRY = RetryConfig(max_attempts=1, initial_backoff_s=0.001, max_backoff_s=0.002, max_total_s=30)
CONTEXT = AgentContext(user_id="u1", policy_text="Be kind.", seed=0)
CLIENTS = (
    [("openai", "direct")]
    + [(prefix, client) for prefix in CUSTOM_BASE_PROVIDERS for client in ("lean", "sdk")]
    + [("http", "agent")]
)
CLIENT_IDS = [f"{prefix}-{client}" for prefix, client in CLIENTS]


class Listener:
    """A TCP listener on 127.0.0.1 that counts the connections it accepts and closes them."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.sock.settimeout(0.05)
        self.port = self.sock.getsockname()[1]
        self.accepted = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.accepted += 1
            conn.close()

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        self.sock.close()


class Rebinder:
    """`socket.getaddrinfo` for the test process: NAME is PUBLIC on its first lookup and
    127.0.0.1 on every later one (or `first` for all, when set); other names resolve as usual."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.lookups = 0
        self.first = PUBLIC
        self.later = "127.0.0.1"

    def __call__(self, host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        if host not in (NAME, NAME.encode()):
            return self.real(host, port, *args, **kwargs)
        self.lookups += 1
        address = self.first if self.lookups == 1 else self.later
        number = int(port) if isinstance(port, int | str) and str(port).isdigit() else 0
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, number))]


@pytest.fixture
def listener() -> Iterator[Listener]:
    found = Listener()
    yield found
    found.close()


@pytest.fixture
def rebinder(monkeypatch: pytest.MonkeyPatch) -> Iterator[Rebinder]:
    """A hosted run whose resolver rebinds NAME after the first lookup."""
    resolver = Rebinder(socket.getaddrinfo)
    monkeypatch.setenv(HOSTED_ENV, "1")
    monkeypatch.setattr(socket, "getaddrinfo", resolver)
    keys._resolve.cache_clear()
    yield resolver
    keys._resolve.cache_clear()


def use_client(monkeypatch: pytest.MonkeyPatch, client: str) -> None:
    monkeypatch.setenv(CLIENT_ENV, "auto" if client in ("direct", "agent") else "litellm")
    monkeypatch.setenv(LEAN_HTTP_ENV, "False" if client == "sdk" else "True")


def make_agent(prefix: str, client: str, port: int, timeout_s: float = 3.0) -> Any:
    if client == "agent":
        config = HttpAgentConfig(
            endpoint=f"https://{NAME}:{port}/step", timeout_s=timeout_s, retry=ONE_TRY
        )
        return HttpAgent(config, CONTEXT)
    return LiteLLMAgent(
        LiteLLMAgentConfig(
            model=f"{prefix}/m",
            api_base=f"http://{NAME}:{port}/v1",
            timeout_s=timeout_s,
            retry=ONE_TRY,
        ),
        CONTEXT,
    )


def step(agent: Any) -> None:
    run_closing_clients(agent.step([{"role": "user", "content": "hi"}], []))


@pytest.fixture(params=CLIENTS, ids=CLIENT_IDS)
def prefix_client(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> tuple[str, str]:
    """Each (provider prefix, client) in turn, with that client switched on."""
    prefix, client = request.param
    use_client(monkeypatch, client)
    return prefix, client


def test_a_rebinding_name_gets_no_request_through(
    listener: Listener,
    rebinder: Rebinder,
    monkeypatch: pytest.MonkeyPatch,
    prefix_client: tuple[str, str],
) -> None:
    # Before: the check resolved NAME (public: allowed) and the client resolved it again when it
    # connected (127.0.0.1: the listener got the request).
    monkeypatch.setattr(llm_client, "DEADLINE_SLACK_S", 0.5)
    with pytest.raises(TaurecError):  # the public address is not a server of ours: any failure
        step(make_agent(*prefix_client, listener.port))
    assert listener.accepted == 0
    assert rebinder.lookups == 1  # resolved once, by the check; the connection used its answer


def test_a_name_resolving_to_a_private_address_is_refused_as_the_agents_error(
    listener: Listener, rebinder: Rebinder, prefix_client: tuple[str, str]
) -> None:
    rebinder.first = rebinder.later = "169.254.169.254"  # link-local: a cloud metadata service
    with pytest.raises(RefusedEndpoint, match=r"resolves to 169\.254\.169\.254") as caught:
        step(make_agent(*prefix_client, listener.port))
    verdict = attribute(caught.value, source="agent", trusted=True)
    assert (verdict.stop_reason, verdict.error.kind) == ("agent_error", "RefusedEndpoint")
    assert listener.accepted == 0


# ------------------------------------------------------------------ one rule, every agent kind


class PythonAgent:
    """A submitter's Python agent that calls a model through the runner's own client."""

    def __init__(self, api_base: str) -> None:
        self.api_base = api_base

    @property
    def spec(self) -> ComponentSpec:
        return ComponentSpec(name="python-test")

    async def step(self, messages: list[ChatMessage], tools: list[ToolSchema]) -> AgentReply:
        await llm_client.chat_completion(
            model="openai/m", api_base=self.api_base, messages=messages, api_key="x"
        )
        raise AssertionError("the call was made")


@pytest.mark.parametrize("kind", ["litellm", "http", "python"])
@pytest.mark.parametrize("address", ["10.1.2.3", "169.254.169.254", "127.0.0.1"])
def test_a_refused_address_ends_the_trial_as_the_agents_error_whatever_the_kind(
    v1_dir: Path, monkeypatch: pytest.MonkeyPatch, kind: str, address: str
) -> None:
    # Before: the LiteLLM entry's trial was the agent's error, the HTTP entry's an infra error.
    monkeypatch.setenv(HOSTED_ENV, "1")
    catalog = Catalog.load(v1_dir / "catalog.json")
    task = load_task(v1_dir / "tasks" / "task_005.json")
    agent: Any
    if kind == "litellm":
        config = LiteLLMAgentConfig(model="openai/m", api_base=f"http://{address}:8/v1")
        agent = LiteLLMAgent(config, CONTEXT)
    elif kind == "http":
        endpoint = f"https://{address}:8/step"
        agent = HttpAgent(HttpAgentConfig(endpoint=endpoint, retry=ONE_TRY), CONTEXT)
    else:
        agent = PythonAgent(f"http://{address}:8/v1")
    transcript = asyncio.run(movie_trial(task, catalog, agent))
    assert transcript.stop_reason == "agent_error"
    assert transcript.error is not None
    assert transcript.error.kind == "RefusedEndpoint"
    assert address in transcript.error.message
