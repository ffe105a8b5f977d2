"""Batch-runner throughput: 60 tasks × 8 trials of a LiteLLM submission against the local model server.

What it measures (each phase runs in its own fresh process so CPU time and peak memory are its own):

* ``litellm`` phase: the model server (``runner.model_server``, heuristic policy, +200 ms per call)
  runs in a separate process; the runner drives a ``kind: litellm`` submission (model
  ``openai/heuristic``, ``api_base`` = the server) through the real LiteLLM client at concurrency 64.
  Printed: wall time of the batch (LiteLLM is imported before the clock starts), the ideal wall time
  ``model calls × latency / concurrency``, their ratio (target ≤ 1.15), and the process CPU time.
* ``builtin`` phase: the same tasks × trials with the in-process ``builtin`` heuristic agent (no
  LiteLLM, no HTTP, no added latency) at the same concurrency. The agent is wrapped by a counting
  factory that measures the CPU time spent inside each ``step`` (the policy itself, which in the
  litellm phase runs in the server process). Runner CPU per model call =
  ``(process CPU − CPU inside the policy) / agent steps``: the loop, simulator, tools, scoring,
  records, transcripts and scheduling — everything but the model and LiteLLM. Target < 1 ms.
* LiteLLM's own overhead per call = ``(litellm-phase CPU − builtin-phase runner CPU) / model calls``:
  LiteLLM, the OpenAI SDK/httpx client and the agent's request building and response parsing.

Run: ``.venv/bin/python benchmarks/runner_throughput.py`` (options: --trials, --tasks-limit,
--concurrency, --latency-ms). Uses our suite (tasks/ + the latest snapshot) when present, else the
v1 data (``TAUREC_V1_DATA`` or ../shared/datasets/tau-rec-v1).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

import yaml

from runner.agent_config import AgentConfig
from runner.batch import run_submissions_async
from runner.batch.inputs import dated_snapshots
from runner.paths import SNAPSHOTS_DIR, TASKS_DIR, v1_data_dir
from runner.protocols import Agent, AgentContext, AgentReply, ChatMessage, ToolSchema
from runner.transcript import ComponentSpec


def _suite(limit: int, workdir: Path) -> tuple[Path, Path, str]:
    """(snapshot, tasks dir, label): our suite if it exists, else the v1 data; first `limit` tasks."""
    if list(TASKS_DIR.glob("*.json")) and dated_snapshots(SNAPSHOTS_DIR):
        snapshot, tasks, policy, label = (
            dated_snapshots(SNAPSHOTS_DIR)[-1],
            TASKS_DIR,
            TASKS_DIR / "policy.md",
            "ours",
        )
    else:
        v1 = v1_data_dir()
        snapshot, tasks, policy, label = v1 / "catalog.json", v1 / "tasks", v1 / "policy.md", "v1"
    files = sorted(tasks.glob("*.json"))[:limit]
    chosen = workdir / "suite" / "tasks"
    chosen.mkdir(parents=True)
    for file in files:
        shutil.copy(file, chosen / file.name)
    shutil.copy(policy, chosen / "policy.md")
    return snapshot, chosen, f"{label} ({len(files)} tasks)"


def _submission(workdir: Path, agent: dict[str, Any]) -> Path:
    folder = workdir / "subs" / "bench"
    folder.mkdir(parents=True)
    data = {"slug": "bench", "display_name": "Bench", "contact": {"name": "bench"}, "agent": agent}
    (folder / "submission.yaml").write_text(yaml.safe_dump(data))
    return folder


def _serve(queue: Any, latency_ms: float) -> None:
    from runner.model_server import ServerOptions, serve_model_forever

    serve_model_forever(options=ServerOptions(latency_ms=latency_ms), ready=queue.put)


class _CountingAgent:
    """Delegates to a real agent and adds up the CPU time spent inside its steps."""

    cpu_in_steps = 0.0
    steps = 0

    def __init__(self, inner: Agent) -> None:
        self._inner = inner

    @property
    def spec(self) -> ComponentSpec:
        return self._inner.spec

    async def step(self, messages: list[ChatMessage], tools: list[ToolSchema]) -> AgentReply:
        start = time.process_time()
        reply = await self._inner.step(messages, tools)
        _CountingAgent.cpu_in_steps += time.process_time() - start
        _CountingAgent.steps += 1
        return reply


def _counting_factory(config: AgentConfig, context: AgentContext) -> Agent:
    from runner.agents import build_agent

    return _CountingAgent(build_agent(config, context))


def _phase(name: str, args: argparse.Namespace) -> dict[str, Any]:
    workdir = Path(tempfile.mkdtemp(prefix=f"taurec-bench-{name}-"))
    server = None
    try:
        snapshot, tasks, suite = _suite(args.tasks_limit, workdir)
        if name == "litellm":
            from runner.agents.litellm_agent import import_litellm

            import_litellm()
            queue: Any = mp.get_context("spawn").Queue()
            server = mp.get_context("spawn").Process(
                target=_serve, args=(queue, args.latency_ms), daemon=True
            )
            server.start()
            url = queue.get(timeout=60)
            agent: dict[str, Any] = {
                "kind": "litellm",
                "model": "openai/heuristic",
                "api_base": url,
                "timeout_s": 60,
            }
            factory = None
        else:
            agent = {"kind": "builtin", "name": "heuristic"}
            factory = _counting_factory
        sub = _submission(workdir, agent)
        cpu0, wall0 = time.process_time(), time.perf_counter()
        results = asyncio.run(
            run_submissions_async(
                [sub],
                snapshot=snapshot,
                tasks_dir=tasks,
                trials=args.trials,
                concurrency=args.concurrency,
                out=workdir / "out",
                agent_factory=factory,
            )
        )
        wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
        records = results[0].records
        calls = sum(u.calls for r in records for k, u in r.usage.items() if k.startswith("agent"))
        return {
            "phase": name,
            "suite": suite,
            "trials": len(records),
            "scored": sum(r.status == "scored" for r in records),
            "infra_errors": sum(r.status == "infra_error" for r in records),
            "passed": sum(1 for r in records if r.score is not None and r.score.reward >= 1),
            "model_calls": calls if name == "litellm" else _CountingAgent.steps,
            "wall_s": wall,
            "cpu_s": cpu,
            "cpu_in_policy_s": _CountingAgent.cpu_in_steps,
            "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        }
    finally:
        if server is not None:
            server.terminate()
            server.join(5)
        shutil.rmtree(workdir, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=8)
    parser.add_argument("--tasks-limit", type=int, default=60)
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--latency-ms", type=float, default=200.0)
    parser.add_argument("--phase", choices=["litellm", "builtin"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.phase:
        print(json.dumps(_phase(args.phase, args)))
        return
    figures = {}
    for phase in ("builtin", "litellm"):
        out = subprocess.run(
            [sys.executable, __file__, "--phase", phase, *sys.argv[1:]],
            check=True,
            capture_output=True,
            text=True,
        )
        figures[phase] = json.loads(out.stdout.strip().splitlines()[-1])
    lit, bi = figures["litellm"], figures["builtin"]
    calls = lit["model_calls"]
    ideal = calls * args.latency_ms / 1000 / args.concurrency
    runner_cpu = bi["cpu_s"] - bi["cpu_in_policy_s"]
    runner_ms = runner_cpu / max(bi["model_calls"], 1) * 1000
    litellm_ms = (lit["cpu_s"] - runner_cpu) / max(calls, 1) * 1000
    print(
        f"suite: {lit['suite']} × {args.trials} trials, concurrency {args.concurrency}, "
        f"+{args.latency_ms:.0f} ms per model call, {os.cpu_count()} CPUs"
    )
    print(
        f"litellm run: {lit['trials']} trials ({lit['scored']} scored, {lit['infra_errors']} "
        f"infra errors, {lit['passed']} passed), {calls} model calls"
    )
    print(f"wall time          {lit['wall_s']:8.2f} s")
    print(
        f"ideal              {ideal:8.2f} s   (model calls × {args.latency_ms:.0f} ms / "
        f"{args.concurrency})"
    )
    print(f"ratio              {lit['wall_s'] / ideal:8.3f}     (target ≤ 1.15)")
    print(
        f"runner CPU / call  {runner_ms:8.3f} ms  (target < 1 ms; builtin run: "
        f"{bi['cpu_s']:.2f} s CPU − {bi['cpu_in_policy_s']:.2f} s in the policy, "
        f"{bi['model_calls']} steps, wall {bi['wall_s']:.2f} s)"
    )
    print(
        f"LiteLLM CPU / call {litellm_ms:8.3f} ms  (litellm run CPU {lit['cpu_s']:.2f} s "
        "minus the runner's share)"
    )
    print(
        f"peak memory        {lit['peak_rss_mib']:8.1f} MiB (litellm run), "
        f"{bi['peak_rss_mib']:.1f} MiB (builtin run)"
    )


if __name__ == "__main__":
    main()
