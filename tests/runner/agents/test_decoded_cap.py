"""The reply cap counts decoded bytes on every client path: compressed bombs, codings the clients
cannot bound, and a slow compressed drip, served by a real loopback server to each allowed
provider prefix on each client it can take (the direct client, LiteLLM's own HTTP handler, the
OpenAI SDK on LiteLLM's client) and to the HTTP agent.

Before: the LiteLLM paths counted compressed bytes (the cap wrapped the raw stream and httpx
decoded after it), so ~0.5 MB of gzip became 512 MiB of JSON and the process reached ~2 GB.
"""

from __future__ import annotations

import json
import sys
import textwrap
import time
import zlib
from collections.abc import Iterator

import pytest

from runner.agents.http_agent import HttpAgent
from runner.agents.litellm_agent import LiteLLMAgent
from runner.core.errors import AgentFailure
from runner.core.paths import PROJECT_ROOT
from runner.core.protocols import AgentContext
from runner.models import llm_client
from runner.models.keys import HOSTED_ENV, OWN_SERVER_ENV
from runner.models.llm_client import CLIENT_ENV, LEAN_HTTP_ENV, run_closing_clients
from runner.models.provider_paths import CUSTOM_BASE_PROVIDERS
from runner.models.reply_limit import (
    ACCEPT_ENCODING,
    MAX_RESPONSE_BYTES,
    ReplyDecoder,
    ResponseTooLarge,
    UnboundedEncoding,
    UndecodableReply,
)
from runner.play.agent_config import HttpAgentConfig, LiteLLMAgentConfig, RetryConfig
from runner.play.attribution import attribute
from tests.processes import run_text
from tests.stand_ins import HEAD, MiB, StandIn, StandInHandler, compressed_bomb

BOMB_BYTES = 512 * MiB  # what the attack decoded to: 512 MiB of JSON from ~0.5 MB on the wire
PEAK_RSS_LIMIT = 300 * MiB
CONTEXT = AgentContext(user_id="u1", policy_text="Be kind.", seed=0)
TWO_TRIES = RetryConfig(
    max_attempts=2, initial_backoff_s=0.001, max_backoff_s=0.002, max_total_s=30
)

# (prefix, client) for the model clients, as in test_provider_paths, and the HTTP agent.
CLIENTS = (
    [("openai", "direct")]
    + [(prefix, client) for prefix in CUSTOM_BASE_PROVIDERS for client in ("lean", "sdk")]
    + [("http", "agent")]
)
CLIENT_IDS = [f"{prefix}-{client}" for prefix, client in CLIENTS]
BOMBS = ("gzip", "deflate", "gzip-chunked", "deflate-chunked", "gzip-gzip")


def bomb(coding: str) -> bytes:
    """HEAD and BOMB_BYTES of `a`, compressed as `coding` says (built once per session, ~2 s)."""
    return compressed_bomb(coding, BOMB_BYTES)


def double_gzip() -> bytes:
    packer = zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS | 16)
    return packer.compress(bomb("gzip")) + packer.flush()


class _BombHandler(StandInHandler):
    def do_POST(self) -> None:
        self.take_request()
        bomber: Bomber = self.stand_in
        bomber.accept.append(self.headers.get("Accept-Encoding") or "")
        coding, _, framing = bomber.mode.partition("-")
        chunked = framing == "chunked"
        if coding == "drip":
            # A valid small gzip answer, one byte every 0.1 s (the whole would take ~4 s).
            packer = zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS | 16)
            body = packer.compress(HEAD + b'hi"}}]}') + packer.flush()
            self.answer(body, coding="gzip", pace_s=0.1)
        elif coding in ("br", "zstd"):
            self.answer(b"\x1b\x00\x00 not really compressed", coding=coding, chunked=chunked)
        elif bomber.mode == "gzip-gzip":
            self.answer(double_gzip(), coding="gzip, gzip")
        else:
            self.answer(bomb(coding), coding=coding, chunked=chunked)


class Bomber(StandIn):
    """A stand-in for a submitter's server answering every POST as `mode` says."""

    def __init__(self) -> None:
        super().__init__(_BombHandler)
        self.mode = "gzip"
        self.accept: list[str] = []


@pytest.fixture
def bomber(monkeypatch: pytest.MonkeyPatch) -> Iterator[Bomber]:
    """The stand-in as a submitter's server on a hosted run (let through as the run's own model
    server, the one loopback address a hosted run may call; its failures are the agent's)."""
    with Bomber().running(poll_s=0.01) as server:
        monkeypatch.setenv(HOSTED_ENV, "1")
        monkeypatch.setenv(OWN_SERVER_ENV, server.where)
        yield server


def client_env(client: str) -> dict[str, str]:
    return {
        CLIENT_ENV: "auto" if client in ("direct", "agent") else "litellm",
        LEAN_HTTP_ENV: "False" if client == "sdk" else "True",
    }


def one_step(prefix: str, client: str, url: str, timeout_s: float = 30.0) -> None:
    """One agent step against `url` on the given client; raises what the step raises."""
    retry = TWO_TRIES.model_copy(update={"max_attempts": 1 if client == "agent" else 2})
    agent: HttpAgent | LiteLLMAgent
    if client == "agent":
        config = HttpAgentConfig(endpoint=f"{url}/step", timeout_s=timeout_s, retry=retry)
        agent = HttpAgent(config, CONTEXT)
    else:
        agent = LiteLLMAgent(
            LiteLLMAgentConfig(model=f"{prefix}/m", api_base=url, timeout_s=timeout_s, retry=retry),
            CONTEXT,
        )
    run_closing_clients(agent.step([{"role": "user", "content": "hi"}], []))


# What each reply past the cap is refused with: a compressed bomb is cut at the decoded cap; a
# coding the cap cannot bound (br, zstd) is refused before it is read.
REFUSALS = [
    (mode, f"decodes to more than {MAX_RESPONSE_BYTES} bytes: refused") for mode in BOMBS
] + [
    (coding, f"is encoded as {coding.partition('-')[0]}, which cannot be decoded within the")
    for coding in ("br", "zstd", "br-chunked")
]


@pytest.mark.parametrize(("mode", "refusal"), REFUSALS, ids=[mode for mode, _ in REFUSALS])
@pytest.mark.parametrize(("prefix", "client"), CLIENTS, ids=CLIENT_IDS)
def test_a_reply_past_the_cap_is_refused_as_the_agents_error(
    bomber: Bomber,
    monkeypatch: pytest.MonkeyPatch,
    prefix: str,
    client: str,
    mode: str,
    refusal: str,
) -> None:
    for name, value in client_env(client).items():
        monkeypatch.setenv(name, value)
    bomber.mode = mode
    with pytest.raises(AgentFailure) as caught:
        one_step(prefix, client, bomber.url)
    assert caught.value.kind == "ResponseTooLarge", caught.value
    assert refusal in caught.value.message
    assert len(bomber.paths) == 1  # refused, not retried (two attempts allowed)
    assert bomber.accept == [ACCEPT_ENCODING]  # it asked for no coding it cannot bound
    assert attribute(caught.value, source="agent", trusted=True).stop_reason == "agent_error"


@pytest.mark.parametrize(("prefix", "client"), CLIENTS, ids=CLIENT_IDS)
def test_a_slow_compressed_drip_ends_at_the_deadline(
    bomber: Bomber, monkeypatch: pytest.MonkeyPatch, prefix: str, client: str
) -> None:
    for name, value in client_env(client).items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(llm_client, "DEADLINE_SLACK_S", 0.5)  # the real slack is 5 s
    bomber.mode = "drip"
    started = time.monotonic()
    with pytest.raises(AgentFailure, match="Timeout"):
        one_step(prefix, client, bomber.url, timeout_s=0.5)
    assert time.monotonic() - started < 3.5  # the drip alone would take ~4 s


# ------------------------------------------------------------------ peak memory, in a child


CHILD = textwrap.dedent(
    """
    import json, os, sys, time
    sys.path.insert(0, sys.argv[1])
    from tests.processes import peak_rss
    from tests.runner.agents.test_decoded_cap import CLIENTS, client_env, one_step
    from runner.models.llm_client import import_litellm
    import_litellm()  # its import is not the call's time
    url = sys.argv[2]
    for prefix, client in CLIENTS:
        os.environ.update(client_env(client))
        started = time.monotonic()
        try:
            one_step(prefix, client, url, timeout_s=10.0)
            outcome = "answered"
        except Exception as exc:
            outcome = f"{type(exc).__name__}: {getattr(exc, 'kind', '')}"
        seconds = round(time.monotonic() - started, 2)
        print(json.dumps({"case": f"{prefix}-{client}", "outcome": outcome, "rss": peak_rss(),
                          "seconds": seconds}), flush=True)
    """
)


@pytest.mark.parametrize("mode", ["gzip", "deflate", "gzip-chunked"])
def test_peak_memory_stays_bounded_on_every_client(bomber: Bomber, mode: str) -> None:
    # One child process calls every client in turn (LiteLLM loaded first); its peak RSS after
    # each call is the most it ever held, so the first case past the limit is the one to blame.
    bomber.mode = mode
    bomb(mode.partition("-")[0])  # built before the child starts waiting on it
    done = run_text([sys.executable, "-c", CHILD, PROJECT_ROOT, bomber.url], timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    results = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert [r["case"] for r in results] == CLIENT_IDS
    for result in results:
        assert result["outcome"] == "AgentFailure: ResponseTooLarge", result
        assert result["rss"] < PEAK_RSS_LIMIT, result
        assert result["seconds"] < 10.0 + llm_client.DEADLINE_SLACK_S, result


# ------------------------------------------------------------------ the decoder itself


def decode(body: bytes, coding: str | None, chunk: int, limit: int = MAX_RESPONSE_BYTES) -> bytes:
    decoder = ReplyDecoder(coding, "a test", limit)
    out = bytearray()
    for start in range(0, len(body), chunk):
        for piece in decoder.feed(body[start : start + chunk]):
            assert len(piece) <= 64 * 1024  # never more than one slice per decompression call
            out += piece
    for piece in decoder.finish():
        out += piece
    return bytes(out)


def packed(data: bytes, wbits: int) -> bytes:
    packer = zlib.compressobj(9, zlib.DEFLATED, wbits)
    return packer.compress(data) + packer.flush()


@pytest.mark.parametrize("chunk", [1, 7, 4096, 1 << 20])
@pytest.mark.parametrize(
    ("coding", "wbits"),
    [("gzip", zlib.MAX_WBITS | 16), ("deflate", zlib.MAX_WBITS), ("deflate", -zlib.MAX_WBITS)],
)
def test_the_decoder_gives_back_the_whole_body_under_the_cap(
    coding: str, wbits: int, chunk: int
) -> None:
    # 3 MiB of text that compresses ~1000:1, so one small chunk holds many full slices.
    body = HEAD + b"ab" * (3 * MiB // 2) + b'"}}]}'
    assert decode(packed(body, wbits), coding, chunk) == body


def test_the_decoder_undoes_stacked_codings_and_passes_identity_through() -> None:
    body = b'{"choices": []}' * 100
    twice = packed(packed(body, zlib.MAX_WBITS), zlib.MAX_WBITS | 16)
    assert decode(twice, "deflate, gzip", 5) == body
    assert decode(body, None, 3) == decode(body, "identity", 3) == body


def test_the_decoder_refuses_past_the_cap_raw_or_decoded_and_bad_data() -> None:
    with pytest.raises(ResponseTooLarge, match="is larger than 100 bytes"):
        decode(b"x" * 101, None, 10, limit=100)
    with pytest.raises(ResponseTooLarge, match="decodes to more than 100 bytes"):
        decode(packed(b"x" * 101, zlib.MAX_WBITS | 16), "gzip", 10, limit=100)
    with pytest.raises(UnboundedEncoding, match="encoded as br, zstd"):
        ReplyDecoder("br, zstd", "a test")
    with pytest.raises(UndecodableReply, match="not valid compressed data"):
        decode(b"not gzip at all", "gzip", 4)
    with pytest.raises(UndecodableReply, match="a deflate body of one byte"):
        decode(b"x", "deflate", 1)
