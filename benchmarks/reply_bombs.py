"""Compressed reply bombs against every client path: outcome, seconds and peak memory.

A loopback server answers every POST with 512 MiB of JSON compressed to ~0.5 MB (gzip or
deflate, with a Content-Length or chunked), or with a body labelled `br` / `zstd`. For each
encoding one child process loads LiteLLM, then makes one agent step on every client an allowed
provider prefix can take at a submitter's server (the direct client; LiteLLM's own HTTP handler,
`lean`; the OpenAI SDK on LiteLLM's client, `sdk`) and on the HTTP agent, as a hosted run does
(the server is let through as the run's own model server; a failure there is the agent's).
Printed per encoding and client: the outcome (the exception's class and kind), the seconds the
step took (its timeout_s is 10) and the child's peak RSS so far (VmHWM: the most it ever held,
LiteLLM's ~180 MiB included; the first line of each child is that floor).

Run: ``.venv/bin/python benchmarks/reply_bombs.py`` (~1 min; `--modes gzip,br` for some).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from typing import Any

from _common import ROOT

from tests.stand_ins import MiB, StandIn, StandInHandler, compressed_bomb

BOMB_BYTES = 512 * MiB
MODES = ("gzip", "deflate", "gzip-chunked", "deflate-chunked", "br", "zstd")
PREFIXES = ("openai", "hosted_vllm", "litellm_proxy", "anthropic", "ollama_chat")


class _Bombs(StandInHandler):
    def do_POST(self) -> None:
        self.take_request()
        coding, _, framing = self.stand_in.mode.partition("-")
        if coding in ("gzip", "deflate"):
            body = compressed_bomb(coding, BOMB_BYTES)
        else:
            body = b"\x1b\x00 not really compressed"
        self.answer(body, coding=coding, chunked=framing == "chunked")


class _Server(StandIn):
    def __init__(self, mode: str) -> None:
        super().__init__(_Bombs)
        self.mode = mode


def _peak_rss() -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    return 0


def _child(where: str) -> None:
    """One step on every client against the server at `where`; one JSON line each."""
    from runner.agents.http_agent import HttpAgent
    from runner.agents.litellm_agent import LiteLLMAgent
    from runner.core.protocols import AgentContext
    from runner.models.keys import HOSTED_ENV, OWN_SERVER_ENV
    from runner.models.llm_client import (
        CLIENT_ENV,
        LEAN_HTTP_ENV,
        import_litellm,
        run_closing_clients,
    )
    from runner.play.agent_config import HttpAgentConfig, LiteLLMAgentConfig, RetryConfig

    os.environ[HOSTED_ENV] = "1"
    os.environ[OWN_SERVER_ENV] = where
    import_litellm()
    print(json.dumps({"client": "(LiteLLM loaded)", "peak_rss_mib": _peak_rss() // MiB}))
    retry = RetryConfig(max_attempts=1)
    context = AgentContext(user_id="u1", policy_text="Be kind.", seed=0)
    clients = [("openai", "direct")]
    clients += [(p, c) for p in PREFIXES for c in ("lean", "sdk")]
    clients += [("http", "agent")]
    url = f"http://{where}/v1"
    for prefix, client in clients:
        os.environ[CLIENT_ENV] = "auto" if client in ("direct", "agent") else "litellm"
        os.environ[LEAN_HTTP_ENV] = "False" if client == "sdk" else "True"
        agent: Any
        if client == "agent":
            agent = HttpAgent(
                HttpAgentConfig(endpoint=f"{url}/step", timeout_s=10, retry=retry), context
            )
        else:
            config = LiteLLMAgentConfig(
                model=f"{prefix}/m", api_base=url, timeout_s=10, retry=retry
            )
            agent = LiteLLMAgent(config, context)
        started = time.monotonic()
        try:
            run_closing_clients(agent.step([{"role": "user", "content": "hi"}], []))
            outcome = "answered"
        except Exception as exc:
            outcome = f"{type(exc).__name__}: {getattr(exc, 'kind', '')}"
        row = {
            "client": f"{prefix}/{client}",
            "outcome": outcome,
            "seconds": round(time.monotonic() - started, 2),
            "peak_rss_mib": _peak_rss() // MiB,
        }
        print(json.dumps(row), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--modes", default=",".join(MODES), help="comma-separated encodings")
    parser.add_argument("--child", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    if args.child:
        _child(args.child)
        return
    for mode in [m for m in args.modes.split(",") if m]:
        with _Server(mode).running(poll_s=0.05) as server:
            done = subprocess.run(
                [sys.executable, __file__, "--child", server.where],
                capture_output=True,
                text=True,
                timeout=600,
                check=False,
                cwd=ROOT,
                env={**os.environ, "PYTHONPATH": str(ROOT)},
            )
        for line in done.stdout.splitlines():
            print(json.dumps({"encoding": mode, **json.loads(line)}))
        if done.returncode:
            print(done.stderr[-2000:], file=sys.stderr)


if __name__ == "__main__":
    main()
