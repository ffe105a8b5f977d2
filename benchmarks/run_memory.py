"""Peak memory of `taurec run` at 240 and 3,840 trials (built-in heuristic agent, scripted user).

Each configuration is one fresh `taurec run` process (60 tasks × 4 trials, then 60 tasks × 64
trials, concurrency 16, `--workers 1`, the latest snapshot and our suite, results in a temporary
folder); its
peak resident memory is its own VmHWM (`tests.processes.wait_peak_rss`, read while it runs: not
`os.wait4`'s ru_maxrss, which carries this process's peak across fork and exec), its CPU time
from `os.wait4` on that process. Printed: the
figures per configuration, the per-trial CPU, and the ratio of the two peaks (target ≤ 1.2: a run
keeps no record per finished trial, so peak memory must not grow with the number of trials).

`--checkout PATH` runs the `runner` package of another checkout of this project (e.g. a git
worktree of an older commit) with this venv, to compare before and after a change (`--workers 0`
leaves the option out, for checkouts older than it).

Run: ``.venv/bin/python benchmarks/run_memory.py`` (~2-3 min idle; options: --trials,
--concurrency, --agent, --checkout).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml
from _common import ROOT

from tests.processes import wait_peak_rss


def _submission(folder: Path, agent: str) -> Path:
    sub = folder / "bench"
    sub.mkdir(parents=True)
    data = {
        "slug": "bench",
        "display_name": "Memory benchmark",
        "contact": {"name": "Benchmark"},
        "agent": {"kind": "builtin", "name": agent},
        "trials": 4,
    }
    (sub / "submission.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    return sub


def _measure(
    trials: int, concurrency: int, workers: int, agent: str, checkout: Path | None
) -> dict[str, float]:
    """One `taurec run` process: peak RSS (MiB), CPU (s), wall (s), trials run."""
    with tempfile.TemporaryDirectory(prefix="taurec-run-memory-") as scratch:
        sub = _submission(Path(scratch), agent)
        env = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
        if checkout is not None:
            env["PYTHONPATH"] = str(checkout)
        command = [
            sys.executable, "-c", "from runner.cli import main; main()",
            "run", str(sub), "--trials", str(trials), "--concurrency", str(concurrency),
            "--tasks", str(ROOT / "tasks"), "--no-preflight",
        ]  # fmt: skip
        if workers:
            command += ["--workers", str(workers)]
        started = time.perf_counter()
        with open(Path(scratch) / "out.txt", "wb") as out:
            proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env)
            # The child's own VmHWM: wait4's ru_maxrss would carry this process's peak.
            status, peak, usage = wait_peak_rss(proc.pid)
        wall = time.perf_counter() - started
        proc.returncode = os.waitstatus_to_exitcode(status)
        text = (Path(scratch) / "out.txt").read_text(errors="replace")
        if proc.returncode != 0:
            raise SystemExit(f"taurec run failed ({proc.returncode}):\n{text[-3000:]}")
        records = (sub / "results").rglob("trials.jsonl")
        count = sum(p.read_bytes().count(b"\n") for p in records)
    return {
        "peak_mib": peak / 2**20,
        "cpu_s": usage.ru_utime + usage.ru_stime,
        "wall_s": wall,
        "trials": count,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, nargs=2, default=[4, 64], metavar=("FEW", "MANY"))
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--workers", type=int, default=1, help="0: do not pass --workers")
    parser.add_argument(
        "--agent", default="heuristic", help="built-in baseline (default heuristic)"
    )
    parser.add_argument("--checkout", type=Path, default=None, help="run another checkout's runner")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    print(f"load average at start: {load:.2f} on {os.cpu_count()} cores")
    which = args.checkout or ROOT
    print(f"runner from {which}; agent builtin {args.agent}; scripted user; tasks/ (60 tasks)")
    results = []
    for k in args.trials:
        figures = _measure(k, args.concurrency, args.workers, args.agent, args.checkout)
        results.append(figures)
        per_trial_ms = figures["cpu_s"] / max(figures["trials"], 1) * 1000
        print(
            f"{int(figures['trials']):>6} trials: peak RSS {figures['peak_mib']:.1f} MiB · "
            f"CPU {figures['cpu_s']:.1f} s ({per_trial_ms:.1f} ms/trial incl. start-up) · "
            f"wall {figures['wall_s']:.1f} s"
        )
    few, many = results
    ratio = many["peak_mib"] / few["peak_mib"]
    growth = (many["peak_mib"] - few["peak_mib"]) * 1024 / max(many["trials"] - few["trials"], 1)
    print(
        f"peak RSS ratio {int(many['trials'])}/{int(few['trials'])} trials: {ratio:.3f} "
        f"(target <= 1.2) · growth {growth:.2f} KiB per extra trial"
    )


if __name__ == "__main__":
    main()
