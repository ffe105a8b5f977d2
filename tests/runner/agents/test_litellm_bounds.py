"""Both model clients (direct and LiteLLM) against a hostile OpenAI-compatible server: an endless
body is cut at the byte cap (memory stays flat), a one-byte drip is cut at the call's deadline, a
redirect is not followed."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import textwrap
import time
from collections.abc import Iterator

import pytest

from runner.agents.litellm_agent import LiteLLMAgent
from runner.core.errors import TaurecError
from runner.core.paths import PROJECT_ROOT
from runner.core.protocols import AgentContext
from runner.models.llm_client import CLIENT_ENV, aclose_clients
from runner.models.reply_limit import MAX_RESPONSE_BYTES
from runner.play.agent_config import LiteLLMAgentConfig, RetryConfig
from tests.processes import run_text
from tests.stand_ins import Hostile

ONE_TRY = RetryConfig(max_attempts=1, initial_backoff_s=0.001, max_backoff_s=0.002, max_total_s=60)
CONTEXT = AgentContext(user_id="u1", policy_text="Be kind.", seed=0)
HUGE = 1536 * 1024 * 1024  # what the attack streamed: 1.5 GB


@pytest.fixture
def hostile() -> Iterator[Hostile]:
    # The drip sends each byte well inside the 1 s read timeout.
    with Hostile(HUGE, drip_s=0.25).running() as server:
        yield server


def _step(url: str, timeout_s: float = 30.0, attempts: int = 1) -> None:
    retry = ONE_TRY.model_copy(update={"max_attempts": attempts})
    config = LiteLLMAgentConfig(model="openai/m", api_base=url, timeout_s=timeout_s, retry=retry)

    async def main() -> None:
        try:
            await LiteLLMAgent(config, CONTEXT).step([{"role": "user", "content": "hi"}], [])
        finally:
            await aclose_clients()

    asyncio.run(main())


ONE_STEP = textwrap.dedent(
    """
    import json, sys
    sys.path.insert(0, sys.argv[2])
    from tests.processes import peak_rss
    from tests.runner.agents.test_litellm_bounds import _step
    try:
        _step(sys.argv[1], attempts=3)
        outcome = "answered"
    except Exception as exc:
        outcome = f"{type(exc).__name__}: {exc}"
    rss = peak_rss()  # this process's own peak: ru_maxrss would carry the forking worker's
    print(json.dumps({"outcome": outcome, "rss": rss}))
    """
)


@pytest.fixture(params=["auto", "litellm"])
def client(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Both clients: the direct one (`openai/` at a custom base) and LiteLLM's, forced."""
    monkeypatch.setenv(CLIENT_ENV, request.param)
    return str(request.param)


def test_an_endless_answer_is_cut_at_the_byte_cap(hostile: Hostile, client: str) -> None:
    # Before: LiteLLM read the whole 1.5 GB stream into memory (3.2-6.5 GB RSS).
    started = time.monotonic()
    done = run_text(
        [sys.executable, "-c", ONE_STEP, hostile.url, PROJECT_ROOT],
        env={**os.environ, CLIENT_ENV: client},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    # Loopback is the operator's own server (an infra error); a submitter's host: agent_error.
    assert result["outcome"].startswith(("AgentFailure", "InfraFailure")), result
    assert f"larger than {MAX_RESPONSE_BYTES} bytes" in result["outcome"]
    assert "ResponseTooLarge" in result["outcome"]  # its own named stop, not a server error
    assert len(hostile.paths) == 1  # refused, not retried (3 attempts were allowed)
    assert hostile.sent < 64 * 1024 * 1024  # the reader hung up near the cap, not at 1.5 GB
    assert result["rss"] < 1024 * 1024 * 1024, result  # LiteLLM's imports, not the body
    assert time.monotonic() - started < 120


def test_a_dripping_answer_is_cut_at_the_call_deadline(hostile: Hostile, client: str) -> None:
    # Before (HTTP agent path): one byte every 5 s held a trial 245 s despite timeout_s 10.
    hostile.mode = "drip"
    started = time.monotonic()
    with pytest.raises(TaurecError, match="Timeout"):
        _step(hostile.url, timeout_s=1.0)
    # The body would take 63 s; the call's deadline is timeout_s + 5 s of slack.
    assert time.monotonic() - started < 15


def test_a_redirect_is_not_followed(hostile: Hostile, client: str) -> None:
    hostile.mode = "redirect"
    with pytest.raises(TaurecError, match="307"):
        _step(hostile.url)
    assert hostile.paths == ["/v1/chat/completions"]  # never the Location it pointed to
