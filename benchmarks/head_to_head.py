"""Head-to-head: this project's runner against the original τ-Rec harness, both driven by one loopback server.

What it does:

1. Builds a throwaway venv (``--venv``, default under the temp dir) and installs the ORIGINAL
   harness (github ``nbharaths/tau-rec``) from its published source — the GitHub URL by default,
   or ``--source PATH`` (a folder, e.g. a ``git archive`` export) — with the same LiteLLM version
   as ours. The original declares ``requires-python >= 3.12``; on an older interpreter pip is told
   ``--ignore-requires-python`` (its code parses and runs on 3.11; the run fails loudly if not).
   Its code is installed and driven, never copied.
2. Starts ``runner.models.model_server`` in its own process with +200 ms per call. It serves both roles
   for both harnesses: the agent (model ``heuristic``: our heuristic baseline over the six v1
   tools, which both harnesses expose) and the simulated user (``domains.movies.served``: model
   ``user`` for v1's free-writing user, ``taurec-user`` for our LLM mode's reader and writer,
   which makes up to two calls per user turn where v1 makes one).
3. For each concurrency (8, 16, 64) runs, interleaved (each side goes first in turn), every
   side on the v1 data (first ``--tasks`` tasks × ``--trials`` trials), each run a fresh process
   tree: the original (``tau-rec run`` pointed at the server through ``OPENAI_API_BASE``; it
   always calls through LiteLLM), and ours on each client path of ``--paths``, with default
   workers: ``direct`` (the client ``taurec run`` picks for this OpenAI-compatible server) and
   ``litellm`` (``TAUREC_LLM_CLIENT=litellm``: the path every hosted provider takes, e.g. a
   board's hosted user simulator). Ours is ``taurec run --rules v1`` (the v1 loop) with the LLM
   user simulator, both roles on that path. ``--baseline PATH`` adds another ``taurec`` (an older
   checkout's venv) on the same paths, for an A/B of two versions of ours in the same rounds.
4. Per run: wall time, the ideal ``calls on the trials' chains × latency / concurrency`` and
   their ratio (this checkout words each user reply while its model reader reads, so its reader
   calls overlap a writer call and are off the chain: chain = calls − reader calls, the reader
   counted apart by serving it as ``taurec-user-reader``; every call is on the chain for the
   original and a ``--baseline``); for our sides also "in order": the wall a runner with no
   cost per call would need for the very trials it ran (each trial's chain list-scheduled on
   the concurrency's slots in the order ``taurec run`` takes them; a trial cannot be split, so
   its last ones leave slots idle that the ideal counts as busy); CPU
   (user+sys of the whole process tree, from the children's rusage; the server is a process of
   its own whose CPU is never counted, printed beside; ``--server-cpus 1`` also pins it to its
   own core and the runs to the others) and peak memory (the largest sum of PSS over the process
   tree, sampled every 50 ms: a page that a forked helper shares with its parent counts once;
   the RSS sum, which counts it twice, is printed beside it), and the model calls the server
   answered. Prints medians per side and path, then ratios to the original per path, with the
   load average (a shared machine's figures are noisy: compare sides of the same rounds).

Run: ``.venv/bin/python benchmarks/head_to_head.py --source /tmp/tau-rec-src`` (``--quick``: 10
tasks × 2 trials, concurrency 8 and 64, one repeat). Offline here, export the mirror first:
``mkdir /tmp/tau-rec-src && git --git-dir /work/.mirror/nbharaths+tau-rec/repo archive HEAD |
tar x -C /tmp/tau-rec-src``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import Any

import yaml
from _common import tree_memory_kib

from runner.core.paths import v1_data_dir
from runner.models.llm_client import CLIENT_ENV

ORIGINAL_URL = "git+https://github.com/nbharaths/tau-rec"


def _serve(queue: Any, latency_ms: float) -> None:
    from runner.models.model_server import ServerOptions, serve_model_forever

    serve_model_forever(options=ServerOptions(latency_ms=latency_ms), ready=queue.put)


def _install_original(venv: Path, source: str) -> Path:
    """A venv holding the original harness and our LiteLLM version; returns its `tau-rec`."""
    exe = venv / "bin" / "tau-rec"
    litellm = f"litellm=={metadata.version('litellm')}"
    marker = venv / ".installed"
    if marker.exists() and marker.read_text() == f"{source}\n{litellm}":
        return exe
    if venv.exists():
        shutil.rmtree(venv)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    pip = [python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    # The package alone ignores its `requires-python >= 3.12` (its code parses and runs on 3.11);
    # its dependencies are then resolved normally, so each gets a release built for this Python.
    if sys.version_info < (3, 12):
        print(
            f"installing the original with --ignore-requires-python --no-deps on Python "
            f"{sys.version.split()[0]}, then its dependencies as usual"
        )
    subprocess.run([*pip, "--ignore-requires-python", "--no-deps", source], check=True)
    listed = subprocess.run(
        [
            python,
            "-c",
            "import importlib.metadata as m; print('\\n'.join(m.requires('tau-rec') or []))",
        ],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split("\n")
    requirements = [r for r in listed if r.strip() and "extra ==" not in r]
    others = [r for r in requirements if not r.lower().startswith("litellm")]
    subprocess.run([*pip, *others, litellm], check=True)
    marker.write_text(f"{source}\n{litellm}")
    return exe


def _suite(workdir: Path, tasks: int) -> tuple[Path, Path, Path]:
    """(catalog.json, tasks folder, policy.md): the first `tasks` v1 tasks in a folder of their own."""
    v1 = v1_data_dir()
    folder = workdir / "suite" / "tasks"
    folder.mkdir(parents=True)
    for file in sorted((v1 / "tasks").glob("*.json"))[:tasks]:
        shutil.copy(file, folder / file.name)
    shutil.copy(v1 / "policy.md", folder.parent / "policy.md")
    return v1 / "catalog.json", folder, folder.parent / "policy.md"


def _measure(
    command: list[str], env: dict[str, str], cwd: Path, preexec: Callable[[], None] | None = None
) -> dict[str, float]:
    """Run `command` to completion: wall s, CPU s of its whole tree, peak tree PSS and RSS MiB."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.Popen(
        command,
        env=env,
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        preexec_fn=preexec,
    )
    peak_rss = peak_pss = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak_rss, peak_pss
        while not done.wait(0.05):
            rss, pss = tree_memory_kib(proc.pid)
            peak_rss, peak_pss = max(peak_rss, rss), max(peak_pss, pss)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    out, _ = proc.communicate()
    wall = time.perf_counter() - start
    done.set()
    sampler.join()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(command[:3])} failed ({proc.returncode}):\n{out[-3000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall_s": wall, "cpu_s": cpu, "peak_mib": peak_pss / 1024, "rss_mib": peak_rss / 1024}


SPLIT_ROLES = {
    "reader_model": "openai/taurec-user-reader",
    "writer_model": "openai/taurec-user-writer",
}


def _calls(url: str) -> tuple[int, int]:
    """(requests, requests to the user's reader stand-in) the server has answered so far."""
    with urllib.request.urlopen(url.removesuffix("/v1") + "/taurec/stats", timeout=10) as r:
        counts = json.load(r)["counts"]
    return int(counts.get("requests", 0)), int(counts.get("model:taurec-user-reader", 0))


def _ours(
    args: argparse.Namespace,
    url: str,
    suite: tuple[Path, Path, Path],
    out: Path,
    taurec: Path,
    split_roles: bool,
) -> list[str]:
    catalog, tasks, _ = suite
    sub = out / "subs" / "h2h"
    sub.mkdir(parents=True)
    agent = {"kind": "litellm", "model": "openai/heuristic", "api_base": url, "timeout_s": 120}
    data = {"slug": "h2h", "display_name": "H2H", "contact": {"name": "bench"}, "agent": agent}
    (sub / "submission.yaml").write_text(yaml.safe_dump(data))
    board = {
        "schema_version": 1,
        "suite": str(tasks),
        "simulator": {
            "kind": "litellm",
            "model": "openai/taurec-user",
            "api_base": url,
            "timeout_s": 120,
            # The same stand-ins `taurec-user` serves, by their own names, so the server counts
            # the reader's calls apart (an older checkout's board may not know these options).
            **(SPLIT_ROLES if split_roles else {}),
        },
        "trials": args.trials,
        "rules": "v1",
    }
    (out / "board.yaml").write_text(yaml.safe_dump(board))
    return [
        str(taurec), "run", str(sub),
        "--board", str(out / "board.yaml"),
        "--snapshot", str(catalog),
        "--trials", str(args.trials),
        "--concurrency", str(args.concurrency_now),
        "--out", str(out / "results"),
        *(["--workers", str(args.workers)] if args.workers else []),
    ]  # fmt: skip


def _theirs(
    args: argparse.Namespace, exe: Path, suite: tuple[Path, Path, Path], out: Path
) -> list[str]:
    catalog, tasks, policy = suite
    return [
        str(exe), "run",
        "--model", "openai/heuristic",
        "--simulator-model", "openai/user",
        "--catalog", str(catalog),
        "--tasks", str(tasks),
        "--policy", str(policy),
        "--trials", str(args.trials),
        "--concurrency", str(args.concurrency_now),
        "--output", str(out / "results"),
    ]  # fmt: skip


def _in_order_s(results: Path, latency_ms: float, concurrency: int) -> float:
    """The wall a runner with no cost per call would need for these very trials: each trial's
    chain (its calls but the reader's) scheduled in the order `taurec run` takes them (trial 0 of
    every task, then trial 1, ...) by `runner_throughput.schedule_s`. The ideal packs the calls
    perfectly; a trial is a chain that cannot be split, so the last ones leave slots idle. NaN for
    a side without our records (the original)."""
    from runner_throughput import schedule_s  # this folder's sibling script

    chains: list[tuple[int, str, int]] = []
    for trials in results.glob("*/results/*/trials.jsonl"):
        for line in trials.read_text(encoding="utf-8").splitlines():
            try:
                record = json.loads(line)
                usage, key = record["usage"], record["key"]
                calls = sum(u["calls"] for role, u in usage.items() if not role.endswith("-reader"))
                chains.append((key["trial_index"], key["task_id"], calls))
            except (KeyError, TypeError, ValueError, AttributeError):
                return float("nan")  # not our records
    if not chains:
        return float("nan")
    return schedule_s([calls for _, _, calls in sorted(chains)], latency_ms / 1000, concurrency)


def _server_cpu_s(pid: int | None) -> float:
    """CPU seconds the model server process has used so far (Linux /proc; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, TypeError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# The sides of one repeat: the original (always LiteLLM: it has no other client), and each path of
# ours (the client `taurec run` picks for this OpenAI-compatible server: direct; or LiteLLM forced
# with TAUREC_LLM_CLIENT=litellm, the path a hosted provider takes), optionally also a baseline
# `taurec` (e.g. an older checkout's venv) on the same paths.
_PATH_ENV = {"direct": "auto", "litellm": "litellm"}


# What loading LiteLLM alone costs in memory: a fresh interpreter of ours that loads it the way
# a run on that path does (runner.models.llm_client.import_litellm), then waits to be measured.
_LITELLM_ONLY = (
    "import sys\n"
    "from runner.models.llm_client import import_litellm\n"
    "import_litellm()\n"
    "print('loaded', flush=True)\n"
    "sys.stdin.read()\n"
)


def _litellm_only_pss_mib(env: dict[str, str]) -> float:
    """PSS (MiB) of a fresh interpreter that only loads LiteLLM, read like the runs' (the floor
    of any run on that path)."""
    proc = subprocess.Popen(
        [sys.executable, "-c", _LITELLM_ONLY],
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdin is not None
    assert proc.stdout is not None
    try:
        if proc.stdout.readline().strip() != "loaded":
            raise SystemExit("the LiteLLM-only interpreter failed to load LiteLLM")
        return tree_memory_kib(proc.pid)[1] / 1024
    finally:
        proc.stdin.close()
        proc.wait(30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--source", default=ORIGINAL_URL, help="the original's source (URL or folder)"
    )
    parser.add_argument(
        "--venv", type=Path, default=Path(tempfile.gettempdir()) / "taurec-h2h-venv"
    )
    parser.add_argument("--tasks", type=int, default=60)
    parser.add_argument("--trials", type=int, default=4)
    parser.add_argument("--concurrency", default="8,16,64")
    parser.add_argument("--repeats", type=int, default=3, help="A/B rounds per concurrency")
    parser.add_argument("--latency-ms", type=float, default=200.0)
    parser.add_argument(
        "--workers", type=int, default=0, help="taurec run --workers (default: its own default)"
    )
    parser.add_argument(
        "--paths",
        default="direct,litellm",
        help="our client paths to run: direct (the default client for this OpenAI-compatible "
        "server) and/or litellm (TAUREC_LLM_CLIENT=litellm: the hosted-provider path)",
    )
    parser.add_argument(
        "--baseline",
        type=Path,
        default=None,
        help="another `taurec` executable (e.g. an older checkout's .venv/bin/taurec) run on the "
        "same paths, interleaved, for an A/B of two versions of ours",
    )
    parser.add_argument(
        "--server-cpus",
        default="",
        help="pin the model server to these CPUs (e.g. `1`) and the runs to the others, so the "
        "server has its own core budget (default: no pinning; its CPU is never counted)",
    )
    parser.add_argument(
        "--only", choices=["project", "original"], help="run one side only (to profile it)"
    )
    parser.add_argument(
        "--quick", action="store_true", help="10 tasks × 2 trials, c=8,64, 1 repeat"
    )
    args = parser.parse_args()
    if args.quick:
        args.tasks, args.trials, args.concurrency, args.repeats = 10, 2, "8,64", 1
    source = args.source
    if not source.startswith(("git+", "http://", "https://")):
        source = str(Path(source).resolve())
    exe = _install_original(args.venv, source)
    paths = [p.strip() for p in args.paths.split(",") if p.strip()]
    if not paths or any(p not in _PATH_ENV for p in paths):
        raise SystemExit(f"--paths: choose from {', '.join(_PATH_ENV)} (got {args.paths!r})")
    ours_exe = Path(sys.executable).with_name("taurec")
    sides: list[tuple[str, str, Path | None]] = []  # (label, path, taurec executable)
    if args.only != "original":
        sides += [(f"project/{p}", p, ours_exe) for p in paths]
        if args.baseline is not None:
            sides += [(f"baseline/{p}", p, args.baseline.resolve()) for p in paths]
    if args.only != "project":
        sides.append(("original", "litellm", None))

    server_cpus = {int(c) for c in args.server_cpus.split(",") if c.strip()}
    run_cpus = set(os.sched_getaffinity(0)) - server_cpus if server_cpus else set()
    queue: Any = mp.get_context("spawn").Queue()
    server = mp.get_context("spawn").Process(
        target=_serve, args=(queue, args.latency_ms), daemon=True
    )
    server.start()
    if server_cpus:
        os.sched_setaffinity(server.pid or 0, server_cpus)
    url = queue.get(timeout=60)
    workdir = Path(tempfile.mkdtemp(prefix="taurec-h2h-"))
    base_env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "LITELLM_"))}
    base_env.pop(CLIENT_ENV, None)
    env_ours = {**base_env, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    # The original calls LiteLLM without an api_base: point OpenAI models at the server.
    env_theirs = {
        **base_env,
        "OPENAI_API_BASE": url,
        "OPENAI_API_KEY": "taurec-local",
        "LITELLM_LOCAL_MODEL_COST_MAP": "True",
    }
    pinned = (lambda: os.sched_setaffinity(0, run_cpus)) if run_cpus else None
    try:
        suite = _suite(workdir, args.tasks)
        rows = []
        for concurrency in [int(c) for c in args.concurrency.split(",")]:
            args.concurrency_now = concurrency
            runs: dict[str, list[dict[str, float]]] = {label: [] for label, _, _ in sides}
            for repeat in range(args.repeats):
                shift = repeat % len(sides)  # each side goes first in turn
                for label, path, taurec in sides[shift:] + sides[:shift]:
                    out = workdir / f"{label.replace('/', '-')}-c{concurrency}-r{repeat}"
                    out.mkdir()
                    (calls0, reads0), server0 = _calls(url), _server_cpu_s(server.pid)
                    if taurec is not None:
                        env = {**env_ours, CLIENT_ENV: _PATH_ENV[path]}
                        command = _ours(args, url, suite, out, taurec, taurec == ours_exe)
                    else:
                        env, command = env_theirs, _theirs(args, exe, suite, out)
                    figures = _measure(command, env, out, pinned)
                    calls1, reads1 = _calls(url)
                    figures["calls"] = calls1 - calls0
                    # Calls on the trials' chains: this checkout words each reply while the
                    # reader reads (a reader call and the guess's writer call overlap; a wrong
                    # guess adds a writer call after the reading, and its guess is off the
                    # chain), so every reader call is off the chain. 0 for the other sides.
                    figures["overlapped"] = reads1 - reads0 if taurec == ours_exe else 0
                    figures["server_cpu_s"] = _server_cpu_s(server.pid) - server0
                    chain = figures["calls"] - figures["overlapped"]
                    figures["ideal_s"] = chain * args.latency_ms / 1000 / concurrency
                    figures["in_order_s"] = _in_order_s(
                        out / "results", args.latency_ms, concurrency
                    )
                    runs[label].append(figures)
                    print(
                        f"c={concurrency} repeat {repeat + 1} {label:16s}: wall {figures['wall_s']:6.2f} s "
                        f"(ideal {figures['ideal_s']:5.2f}, in order {figures['in_order_s']:5.2f})  "
                        f"CPU {figures['cpu_s']:6.2f} s  "
                        f"peak PSS {figures['peak_mib']:6.1f} MiB (RSS sum {figures['rss_mib']:6.1f})  "
                        f"{figures['calls']:.0f} calls ({figures['overlapped']:.0f} overlapped)  "
                        f"server CPU {figures['server_cpu_s']:5.2f} s  "
                        f"load {os.getloadavg()[0]:.1f}",
                        flush=True,
                    )
                    shutil.rmtree(out, ignore_errors=True)
            med = {
                label: {k: statistics.median(r[k] for r in rs) for k in rs[0]}
                for label, rs in runs.items()
                if rs
            }
            rows.append((concurrency, med))
        budget = (
            f"server pinned to CPU(s) {sorted(server_cpus)}, runs to {sorted(run_cpus)}"
            if server_cpus
            else "server unpinned"
        )
        print(
            f"\n{args.tasks} tasks × {args.trials} trials, +{args.latency_ms:.0f} ms per call, "
            f"medians of {args.repeats} interleaved round(s), {os.cpu_count()} CPUs, {budget} "
            f"(its CPU is never counted), load average {os.getloadavg()[0]:.1f}"
        )
        print(
            "Absolute medians (wall and ideal = chain calls × latency / concurrency in s; in order = "
            "the same trials' chains list-scheduled in the runner's order with no cost per call, "
            "ours only; CPU of the process tree in s, peak PSS of the process tree in MiB):"
        )
        print(
            "| concurrency | side | client path | wall | ideal | wall/ideal | in order | "
            "wall/in order | CPU | peak PSS | calls |"
        )
        print("|---|---|---|---|---|---|---|---|---|---|---|")
        for concurrency, med in rows:
            for label, path, _ in sides:
                m = med[label]
                print(
                    f"| {concurrency} | {label.split('/')[0]} | {path} | {m['wall_s']:.2f} | "
                    f"{m['ideal_s']:.2f} | {m['wall_s'] / m['ideal_s']:.2f} | "
                    f"{m['in_order_s']:.2f} | {m['wall_s'] / m['in_order_s']:.2f} | "
                    f"{m['cpu_s']:.2f} | {m['peak_mib']:.0f} | {m['calls']:.0f} |"
                )
        if "original" in runs and len(sides) > 1:
            print("\nRatios to the original (which always calls through LiteLLM):")
            print(
                "| concurrency | side | client path | wall | CPU | CPU per model call | peak PSS |"
            )
            print("|---|---|---|---|---|---|---|")
            for concurrency, med in rows:
                o = med["original"]
                for label, path, _ in sides[:-1]:
                    p = med[label]
                    per_call = (p["cpu_s"] / p["calls"]) / (o["cpu_s"] / o["calls"])
                    print(
                        f"| {concurrency} | {label.split('/')[0]} | {path} | "
                        f"{p['wall_s'] / o['wall_s']:.2f} | {p['cpu_s'] / o['cpu_s']:.2f} | "
                        f"{per_call:.2f} | {p['peak_mib'] / o['peak_mib']:.2f} |"
                    )
            if "litellm" in paths and "project/litellm" in runs:
                floor = _litellm_only_pss_mib(env_ours)
                least = min(med["original"]["peak_mib"] for _, med in rows)
                print(
                    f"(CPU per model call: each side's CPU over the calls the server answered; "
                    f"ours makes up to two calls per user turn, see 2.) Floor of the LiteLLM "
                    f"path's memory: a fresh interpreter of ours that only loads LiteLLM has "
                    f"{floor:.0f} MiB PSS = {floor / least:.2f} × the original's smallest median "
                    f"peak above ({least:.0f} MiB), before any run."
                )
            print(
                "(targets, project/original: LiteLLM path wall ≤ 1.0, CPU ≤ 0.5, PSS ≤ 0.8; "
                "direct path CPU ≤ 0.2, PSS ≤ 0.5; project wall/ideal ≤ 1.10 at c=8,16, ≤ 1.25 at 64)"
            )
    finally:
        server.terminate()
        server.join(5)
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
