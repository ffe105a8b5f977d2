"""Client CPU per chat call: the direct client (runner.models.openai_compat) against LiteLLM, same server.

Each client runs in a fresh process of its own (so its CPU time and imports are its own) against
one `runner.models.model_server` process with no added latency: one untimed call first (lazy imports,
the pool), then `--calls` calls at `--concurrency`, each a 17-message conversation with one tool,
answered by the server's `random` policy. Printed per client: CPU per call (user+sys of the
client process, from `resource.getrusage`), wall time, and peak RSS (its own VmHWM); and what the client costs
before its first answer (its import, LiteLLM's lazy imports on the first call, the pool): CPU,
wall and the PSS it adds to the process. Those are the floor of a run on that path: a run
that calls LiteLLM pays the import once and the per-call CPU on every call.

Run: ``.venv/bin/python benchmarks/client_overhead.py`` (~30 s; options: --calls, --concurrency).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import _common  # noqa: F401  (the repository root on sys.path)

from tests.processes import peak_rss

MESSAGES = [{"role": "system", "content": "You recommend movies. " * 50}] + [
    {"role": "user" if i % 2 == 0 else "assistant", "content": f"message {i} about films " * 10}
    for i in range(16)
]
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "search_catalog",
            "description": "Search the catalog.",
            "parameters": {"type": "object", "properties": {"query": {"type": "string"}}},
        },
    }
]


def _serve(queue: Any) -> None:
    from runner.models.model_server import ServerOptions, serve_model_forever

    serve_model_forever(options=ServerOptions(latency_ms=0), ready=queue.put)


def _cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _pss_mib() -> float:
    """This process's proportional set size (Linux /proc; 0 elsewhere)."""
    try:
        for line in Path("/proc/self/smaps_rollup").read_text(encoding="ascii").splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


async def _measure(url: str, calls: int, concurrency: int) -> dict[str, float]:
    start_cpu, start_wall, start_pss = _cpu_s(), time.perf_counter(), _pss_mib()
    from runner.models.llm_client import aclose_clients, chat_completion

    gate = asyncio.Semaphore(concurrency)

    async def one() -> None:
        async with gate:
            await chat_completion(
                model="openai/random",
                api_base=url,
                api_key="x",
                messages=MESSAGES,
                tools=TOOLS,
                max_retries=0,
            )

    await one()  # imports the client (LiteLLM: on its first call) and opens its pool
    first = {
        "first_cpu_s": _cpu_s() - start_cpu,
        "first_wall_s": time.perf_counter() - start_wall,
        "first_pss_mib": _pss_mib() - start_pss,
    }
    cpu0, wall0 = _cpu_s(), time.perf_counter()
    await asyncio.gather(*(one() for _ in range(calls)))
    cpu, wall = _cpu_s() - cpu0, time.perf_counter() - wall0
    await aclose_clients()
    peak = peak_rss() / 2**20  # its own VmHWM: ru_maxrss carries the parent's across exec
    return {"cpu_ms_per_call": cpu / calls * 1000, "wall_s": wall, "peak_rss_mib": peak, **first}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=1500)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--client-run", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.client_run:
        url = os.environ["BENCH_URL"]
        result = asyncio.run(_measure(url, args.calls, args.concurrency))
        print(json.dumps(result))
        return
    queue: Any = mp.get_context("spawn").Queue()
    server = mp.get_context("spawn").Process(target=_serve, args=(queue,), daemon=True)
    server.start()
    url = queue.get(timeout=60)
    try:
        print(f"{args.calls} calls at concurrency {args.concurrency}, server {url}")
        for client in ("direct", "litellm"):
            env = {
                **os.environ,
                "BENCH_URL": url,
                "TAUREC_LLM_CLIENT": "auto" if client == "direct" else "litellm",
            }
            done = subprocess.run(
                [sys.executable, __file__, "--client-run", client, f"--calls={args.calls}",
                 f"--concurrency={args.concurrency}"],
                env=env, check=True, capture_output=True, text=True,
            )  # fmt: skip
            r = json.loads(done.stdout.strip().splitlines()[-1])
            print(
                f"  {client:8s} CPU {r['cpu_ms_per_call']:6.3f} ms/call · wall {r['wall_s']:5.2f} s"
                f" · peak RSS {r['peak_rss_mib']:6.1f} MiB · import + first call: CPU "
                f"{r['first_cpu_s']:.2f} s, wall {r['first_wall_s']:.2f} s, "
                f"+{r['first_pss_mib']:.0f} MiB PSS"
            )
    finally:
        server.terminate()


if __name__ == "__main__":
    main()
