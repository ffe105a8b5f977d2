"""Start-up and stop of the CLI: `taurec --help` and a one-trial `taurec run` on the builtin heuristic.

Each repeat runs every command as a fresh process (wall time, and the CPU time of the process
from the children's rusage): `taurec --help`, and `taurec run` of the heuristic baseline on one
task × one trial with `--fresh` into a temporary folder (no model, no network: everything it
costs is start-up, loading the inputs, one trial and stopping). With ``--baseline PATH`` (another
`taurec`, e.g. an older checkout's ``.venv/bin/taurec``) the two executables alternate within
every repeat, the order swapping each repeat, so both see the same machine load. Prints medians
and the load average.

Then the floor of the one-trial run: what trimming our imports cannot remove. One probe run (a
fresh interpreter running the same command in-process) reports the packages outside the
standard library it imports and the time spent compiling our modules' regular expressions
(`re.compile` called from our code) and creating our pydantic model classes (the pydantic
metaclass, for classes defined in our packages); each repeat also times a fresh interpreter that
only imports those packages (with what they import themselves) and asyncio, the runner's loop.
The floor is that import wall plus the two build times (the probe's timers add a little to the
latter). With a baseline, the table sets it beside 60 % of the baseline's one-trial wall.

Run: ``.venv/bin/python benchmarks/cli_startup.py`` (options: --repeats, --baseline, --task).
"""

from __future__ import annotations

import argparse
import json
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


# Run in a fresh interpreter (`python -c _PROBE report.json taurec-arguments...`), so that nothing
# of this script is counted: runs `taurec` in-process and, at exit, writes the non-standard-library
# top-level packages it imported and the seconds spent compiling our regexes (`re.compile` called
# from our modules) and creating our pydantic model classes (the metaclass, outermost calls).
_PROBE = """
import atexit, importlib.util, json, re, sys, time
import pydantic
OURS = {"runner", "domains", "catalog_pipeline"}
spent = {"regex_s": 0.0, "pydantic_s": 0.0}
compile_, metaclass = re.compile, type(pydantic.BaseModel)
new, depth = metaclass.__new__, [0]
def timed_compile(pattern, flags=0):
    if sys._getframe(1).f_globals.get("__name__", "").partition(".")[0] not in OURS:
        return compile_(pattern, flags)
    start = time.perf_counter()
    try:
        return compile_(pattern, flags)
    finally:
        spent["regex_s"] += time.perf_counter() - start
def timed_new(mcs, name, bases, namespace, **kwargs):
    if depth[0] or str(namespace.get("__module__", "")).partition(".")[0] not in OURS:
        return new(mcs, name, bases, namespace, **kwargs)
    depth[0] += 1
    start = time.perf_counter()
    try:
        return new(mcs, name, bases, namespace, **kwargs)
    finally:
        depth[0] -= 1
        spent["pydantic_s"] += time.perf_counter() - start
re.compile = timed_compile
metaclass.__new__ = timed_new
report, sys.argv = sys.argv[1], ["taurec", *sys.argv[2:]]
def importable(name):
    try:
        return importlib.util.find_spec(name) is not None
    except ValueError:  # a module an extension made at run time (no spec): nothing to import
        return False
def write():
    names = {n.partition(".")[0] for n in sys.modules}
    imported = sorted(
        n for n in names
        if n not in OURS and n not in sys.stdlib_module_names and n.isidentifier()
        and not n.startswith("_") and importable(n)
    )
    open(report, "w").write(json.dumps({**spent, "imported": imported}))
atexit.register(write)
from runner.cli import main
main()
"""


def _import_only(names: list[str]) -> list[str]:
    """A fresh interpreter importing `names` and asyncio, the runner's loop, and nothing else."""
    return [sys.executable, "-c", f"import asyncio, {', '.join(names)}"]


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
        probe, floor_run = work / "probe.json", [
            "run", str(PROJECT_ROOT / "submissions" / "heuristic-baseline"), "--tasks",
            str(tasks), "--trials", "1", "--fresh", "--out", str(work / "out-probe"),
        ]  # fmt: skip
        _timed([sys.executable, "-c", _PROBE, str(probe), *floor_run], env, PROJECT_ROOT)
        if not probe.is_file():
            raise SystemExit(
                f"the floor probe wrote no report ({probe}); run it by hand to see why"
            )
        found = json.loads(probe.read_text())
        imports_only = _import_only(found["imported"])
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
            figures.setdefault(("imports only", "-"), []).append(
                _timed(imports_only, env, PROJECT_ROOT)
            )
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
        imports = statistics.median(w for w, _ in figures[("imports only", "-")])
        floor = imports + found["regex_s"] + found["pydantic_s"]
        print(
            f"\nFloor of the project's one-trial run (what trimming our imports cannot remove): "
            f"{floor:.3f} s = a fresh interpreter importing only asyncio and the "
            f"{len(found['imported'])} packages outside the standard library that the run imports "
            f"({', '.join(found['imported'])}), median {imports:.3f} s, + compiling "
            f"our regexes {found['regex_s']:.3f} s + creating our pydantic model classes "
            f"{found['pydantic_s']:.3f} s (one probe run)."
        )
        base = figures.get(("run 1 trial", "baseline"))
        if base:
            target = 0.6 * statistics.median(w for w, _ in base)
            print(
                f"60 % of the baseline's one-trial wall: {target:.3f} s; floor / that "
                f"= {floor / target:.2f}; room left above the floor for everything else "
                f"(our modules, the trial, writing results): {target - floor:+.3f} s."
            )
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
