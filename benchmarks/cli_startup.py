"""Start-up and stop of the CLI: `taurec --help` and a one-trial `taurec run` on the builtin heuristic.

Each repeat runs every command as a fresh process (wall time, and the CPU time of the process
from the children's rusage): `taurec --help`, and `taurec run` of the heuristic baseline on one
task × one trial with `--fresh` into a temporary folder (no model, no network: everything it
costs is start-up, loading the inputs, one trial and stopping). With ``--baseline PATH`` (another
`taurec`, e.g. an older checkout's ``.venv/bin/taurec``) the two executables alternate within
every repeat, the order swapping each repeat, so both see the same machine load. Prints medians
and the load average.

Run: ``.venv/bin/python benchmarks/cli_startup.py`` (options: --repeats, --baseline, --task).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from runner.core.paths import PROJECT_ROOT, TASKS_DIR


def _timed(command: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float]:
    """(wall s, CPU s) of one command run to completion; exits on failure."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True, cwd=cwd)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _checkout(taurec: Path) -> Path:
    """The checkout an executable belongs to: the folder holding its `.venv`, else ours."""
    for parent in taurec.parents:
        if parent.name == ".venv":
            return parent.parent
    return PROJECT_ROOT


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--baseline", type=Path, default=None, help="another taurec to compare")
    parser.add_argument("--task", default="task_001.json", help="the one task of the run")
    args = parser.parse_args()
    sides = {"project": Path(sys.executable).with_name("taurec")}
    if args.baseline is not None:
        sides["baseline"] = args.baseline.resolve()
    work = Path(tempfile.mkdtemp(prefix="taurec-cli-startup-"))
    env = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    try:
        tasks = work / "tasks"
        tasks.mkdir()
        shutil.copy(TASKS_DIR / args.task, tasks / args.task)
        shutil.copy(TASKS_DIR / "policy.md", tasks / "policy.md")
        figures: dict[tuple[str, str], list[tuple[float, float]]] = {}
        for repeat in range(args.repeats):
            order = list(sides) if repeat % 2 == 0 else list(sides)[::-1]
            for side in order:
                taurec = str(sides[side])
                # Each side runs in its own checkout (the folder holding its .venv), on that
                # checkout's own submission: commands act on the checkout they are run in.
                checkout = _checkout(sides[side])
                submission = checkout / "submissions" / "heuristic-baseline"
                run = [
                    taurec, "run", str(submission), "--tasks", str(tasks), "--trials", "1",
                    "--fresh", "--out", str(work / f"out-{side}"),
                ]  # fmt: skip
                for name, command in (("taurec --help", [taurec, "--help"]), ("run 1 trial", run)):
                    figures.setdefault((name, side), []).append(_timed(command, env, checkout))
        print(
            f"{args.repeats} repeats, sides interleaved, {os.cpu_count()} CPUs, "
            f"load average {os.getloadavg()[0]:.1f}"
        )
        print("| command | side | wall median (s) | CPU median (s) | wall / baseline |")
        print("|---|---|---|---|---|")
        for name in ("taurec --help", "run 1 trial"):
            base = figures.get((name, "baseline"))
            for side in sides:
                runs = figures[(name, side)]
                wall = statistics.median(w for w, _ in runs)
                cpu = statistics.median(c for _, c in runs)
                ratio = f"{wall / statistics.median(w for w, _ in base):.2f}" if base else "-"
                print(f"| {name} | {side} | {wall:.2f} | {cpu:.2f} | {ratio} |")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
