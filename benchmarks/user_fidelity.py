"""Benchmark: does the board rank agents, or phrasing and luck? The honest panel, the natural twins and the adversaries on the shipped suite.

Runs every agent below in process (the real trial loop, standard tools, the given simulated user,
the tool budget) on every task of the shipped suite x N seeds, in a pool of 2 worker processes,
and prints pass^1 and pass^4 overall and per reveal difficulty, each next to its target from
`domains.movies.panel_targets` with a tick or a cross; then the natural-twin losses (plain minus
natural pass^1), every adversary's distance under the expert, and the (task, seed) pairs the
informed agent cannot win, and how every agent's trials ended. It says which simulator (name and
source digest) it ran.

    .venv/bin/python benchmarks/user_fidelity.py [--seeds 4] [--tasks task_001,task_030] \
        [--agents expert,informed] [--workers 2]
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from functools import cache
from pathlib import Path
from typing import Any

from domains.movies.adversaries import ADVERSARY_NAMES, PANEL_ADVERSARIES
from domains.movies.catalog import Catalog
from domains.movies.panel_play import play_panel_trial
from domains.movies.panel_targets import ADVERSARY_MARGIN, TARGETS, TWIN_LOSS_MAX
from domains.movies.scoring import score_transcript
from domains.movies.tasks import Task, load_tasks
from runner.core.metrics import pass_hat_k
from runner.core.paths import POLICY_PATH, SNAPSHOTS_DIR, TASKS_DIR

HONEST = (
    "oracle",
    "informed",
    "expert",
    "expert-natural",
    "expert-styled",
    "careful",
    "heuristic",
    "heuristic-natural",
    "heuristic-styled",
)
AGENTS = (*HONEST, *PANEL_ADVERSARIES, *ADVERSARY_NAMES)
# Agents whose context carries the task: the oracle reads it, the informed agent only its field names.
TWINS = (
    ("expert", "expert-natural"),
    ("expert", "expert-styled"),
    ("heuristic", "heuristic-natural"),
    ("heuristic", "heuristic-styled"),
)
REVEALS = ("volunteer", "mixed", "hidden")
SIMULATOR = "scripted"


@cache
def _world() -> tuple[Catalog, dict[str, Task], str]:
    snapshot = sorted(p for p in SNAPSHOTS_DIR.iterdir() if p.is_dir())[-1]
    tasks = {t.id: t for t in load_tasks(TASKS_DIR)}
    return Catalog.load(snapshot), tasks, POLICY_PATH.read_text(encoding="utf-8")


def _run(job: tuple[str, str, int]) -> tuple[str, str, list[bool], list[str]]:
    """One agent on one task, seeds 0..n-1: which trials ended with reward 1, and how each ended."""
    agent, task_id, seeds = job
    catalog, tasks, policy = _world()
    task = tasks[task_id]
    wins = []
    stops = []
    for seed in range(seeds):
        transcript = asyncio.run(play_panel_trial(agent, task, catalog, policy, seed, SIMULATOR))
        wins.append(score_transcript(task, transcript, catalog).reward == 1.0)
        stops.append(str(transcript.stop_reason))
    return agent, task_id, wins, stops


def _simulator_digest() -> str:
    folder = Path(__file__).resolve().parents[1] / "domains" / "movies" / "simulators"
    digest = hashlib.sha256()
    for file in sorted(folder.glob("*.py")):
        digest.update(file.name.encode() + b"\0" + file.read_bytes())
    return digest.hexdigest()[:12]


Results = dict[str, dict[str, list[bool]]]


def pass_k(
    results: Results, agent: str, k: int, tasks: dict[str, Task], reveal: str | None = None
) -> float | None:
    values = [
        pass_hat_k(len(wins), sum(wins), k)
        for task_id, wins in results[agent].items()
        if reveal is None or tasks[task_id].reveal_difficulty == reveal
    ]
    defined = [v for v in values if v is not None]
    return sum(defined) / len(defined) if defined and len(defined) == len(values) else None


def _fmt(value: float | None) -> str:
    return "  n/a" if value is None else f"{value:5.3f}"


def _mark(ok: bool) -> str:
    return "✓" if ok else "✗"


def _print_reader_figures() -> None:
    """The user's rule reader on each labelled corpus (corpora/reader/) and on the held-out share
    (`benchmarks/reader_shares.py` prints both shares field by field)."""
    from domains.movies.site import reader_accuracy

    accuracy = reader_accuracy()
    scores, total = accuracy.scores, accuracy.total
    print("simulated user's reader on the labelled corpora (rule reader, offline default)")
    for name, score in [*scores.items(), ("held-out", total)]:
        low_r = min(score.recall.items(), key=lambda kv: kv[1])
        low_p = min(score.precision.items(), key=lambda kv: kv[1])
        print(
            f"  {name:<12} {score.messages:>5} messages  lowest recall {low_r[1]:.3f} ({low_r[0]})  "
            f"lowest precision {low_p[1]:.3f} ({low_p[0]})  proposed set exact "
            f"{score.proposals_exact:.3f}  false leaves {score.false_leaves} "
            f"({score.false_leave_share:.2%})  reaction requests heard "
            f"{score.reaction_requests - score.reaction_requests_as_questions}/{score.reaction_requests}  "
            f"{'✓' if _reader_ok(score) else '✗'}"
        )
    print()


def _reader_ok(score: Any) -> bool:
    return (
        min(score.recall.values()) >= 0.95
        and min(score.precision.values()) >= 0.95
        and score.false_leave_share <= 0.01
        and score.reaction_requests_kept >= 0.99
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--tasks", default="", help="comma-separated task ids (default: all)")
    parser.add_argument("--agents", default="", help="comma-separated agents (default: the panel)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--no-reader", action="store_true", help="skip the reader's figures on the corpora"
    )
    args = parser.parse_args()
    if not args.no_reader:
        _print_reader_figures()
    _catalog, all_tasks, _policy = _world()
    wanted = [t for t in args.tasks.split(",") if t] or sorted(all_tasks)
    unknown = sorted(set(wanted) - set(all_tasks))
    if unknown:
        parser.error(f"unknown task id(s): {', '.join(unknown)}")
    tasks = {t: all_tasks[t] for t in wanted}
    agents = [a for a in args.agents.split(",") if a] or list(AGENTS)
    jobs = [(a, t, args.seeds) for a in agents for t in sorted(tasks)]
    started = time.perf_counter()
    results: Results = {a: {} for a in agents}
    stops: dict[str, Counter[str]] = {a: Counter() for a in agents}
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for agent, task_id, wins, ended in pool.map(_run, jobs, chunksize=4):
            results[agent][task_id] = wins
            stops[agent].update(ended)
    wall = time.perf_counter() - started

    counts = {r: sum(1 for t in tasks.values() if t.reveal_difficulty == r) for r in REVEALS}
    print(
        f"user fidelity panel - simulator {SIMULATOR!r} (domains/movies/simulators sha256 "
        f"{_simulator_digest()}), {len(tasks)} tasks "
        f"({', '.join(f'{r} {n}' for r, n in counts.items())}) x {args.seeds} seeds, "
        f"{len(agents)} agents, {len(jobs) * args.seeds} trials in {wall:.0f} s "
        f"({args.workers} workers)"
    )
    targets = {(t.agent, t.reveal): t for t in TARGETS}
    expert = pass_k(results, "expert", 1, tasks) if "expert" in results else None
    header = f"{'agent':<28}{'pass^1':>8}{'pass^4':>8}" + "".join(f"{r:>11}" for r in REVEALS)
    print(header + "   targets")
    print("-" * (len(header) + 40))
    for agent in agents:
        p1 = pass_k(results, agent, 1, tasks)
        p4 = pass_k(results, agent, 4, tasks) if args.seeds >= 4 else None
        by_reveal = {r: pass_k(results, agent, 1, tasks, r) for r in REVEALS}
        notes = []
        for reveal in (None, *REVEALS):
            target = targets.get((agent, reveal))
            value = p1 if reveal is None else by_reveal[reveal]
            if target is not None and value is not None:
                where = f" on {reveal}" if reveal else ""
                notes.append(
                    f"{target.direction} {target.bound:.2f}{where} {_mark(target.holds(value))}"
                )
        adversary = agent in PANEL_ADVERSARIES or agent in ADVERSARY_NAMES
        if adversary and expert is not None and p1 is not None:
            bound = expert - ADVERSARY_MARGIN
            notes.append(f"<= expert-{ADVERSARY_MARGIN:.2f} = {bound:.3f} {_mark(p1 <= bound)}")
        print(
            f"{agent:<28}{_fmt(p1):>8}{_fmt(p4):>8}"
            + "".join(f"{_fmt(by_reveal[r]):>11}" for r in REVEALS)
            + ("   " + "; ".join(notes) if notes else "")
        )

    print("\nnatural-twin losses (plain pass^1 minus natural pass^1; the wording alone)")
    for plain, natural in TWINS:
        if plain in results and natural in results:
            a, b = pass_k(results, plain, 1, tasks), pass_k(results, natural, 1, tasks)
            if a is not None and b is not None:
                loss = a - b
                print(
                    f"  {plain:<12} {a:5.3f} - {natural:<18} {b:5.3f} = {loss:+.3f}   "
                    f"<= {TWIN_LOSS_MAX:.2f} {_mark(loss <= TWIN_LOSS_MAX)}"
                )
    print("\nhow the trials ended (stop reasons; user_left = the user walked away)")
    for agent in agents:
        shown = ", ".join(f"{reason} {n}" for reason, n in stops[agent].most_common())
        print(f"  {agent:<28}{shown}")
    if "informed" in results:
        lost = [
            (task_id, seed)
            for task_id, wins in sorted(results["informed"].items())
            for seed, won in enumerate(wins)
            if not won
        ]
        print(f"\ninformed cannot win {len(lost)} of {len(tasks) * args.seeds} (task, seed) pairs:")
        for start in range(0, len(lost), 6):
            print("  " + "  ".join(f"{t}/{s}" for t, s in lost[start : start + 6]))


if __name__ == "__main__":
    main()
