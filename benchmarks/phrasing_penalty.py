"""Benchmark: what wording alone costs. pass^1 of each plain agent and each of its natural twins, per domain and reveal stratum, and the penalty (plain minus twin).

Every twin makes its plain agent's decisions and rewrites only the words (`*-natural`: the first
twin; `*-styled`: seeded assistant styles written without looking at the reader), so the penalty
is the phrasing penalty of issue 37. Runs the real trial loop in process with the scripted user on
every non-retired dev task of movies and of grocery x N seeds (trial index = seed), and prints one
table per domain with a tick where the penalty is at most the twin bound (0.02).

    .venv/bin/python -m benchmarks.phrasing_penalty [--seeds 4] [--first-seed 0] \
        [--domains movies,grocery]
"""

from __future__ import annotations

import argparse
import asyncio
import time
from collections import defaultdict
from collections.abc import Sequence

from benchmarks.grocery_panel import GROCERY, run_panel
from domains.grocery.catalog import load_catalog
from domains.grocery.tasks import load_tasks as load_grocery_tasks
from domains.movies.catalog import Catalog
from domains.movies.panel_play import play_panel_trial
from domains.movies.panel_targets import TWIN_LOSS_MAX
from domains.movies.scoring import score_transcript
from domains.movies.tasks import load_tasks
from runner.core.paths import POLICY_PATH, SNAPSHOTS_DIR, TASKS_DIR

PLAIN = ("expert", "heuristic")
TWIN_KINDS = ("natural", "styled")
STRATA = ("volunteer", "mixed", "hidden")
# (agent, stratum, won) per trial
Outcome = tuple[str, str, bool]


def movies_trials(agents: Sequence[str], seeds: range) -> tuple[list[Outcome], int]:
    """Every agent on every non-retired movies dev task x `seeds`."""
    snapshot = sorted(p for p in SNAPSHOTS_DIR.iterdir() if p.is_dir())[-1]
    catalog = Catalog.load(snapshot)
    policy = POLICY_PATH.read_text(encoding="utf-8")
    tasks = [t for t in load_tasks(TASKS_DIR) if not t.retired]
    out: list[Outcome] = []
    for agent in agents:
        for task in tasks:
            for seed in seeds:
                transcript = asyncio.run(play_panel_trial(agent, task, catalog, policy, seed))
                won = score_transcript(task, transcript, catalog).reward == 1.0
                out.append((agent, task.reveal_difficulty, won))
    return out, len(tasks)


def grocery_trials(agents: Sequence[str], seeds: range) -> tuple[list[Outcome], int]:
    """Every agent on every grocery dev task x `seeds`."""
    catalog = load_catalog(sorted(p for p in (GROCERY / "snapshots").iterdir() if p.is_dir())[-1])
    tasks = load_grocery_tasks(GROCERY / "tasks")
    trials = run_panel(agents, tasks, catalog, seeds)
    return [(t.agent, t.reveal, t.reward >= 1.0) for t in trials], len(tasks)


def pass1(outcomes: Sequence[Outcome], agent: str, stratum: str | None) -> float | None:
    """pass^1 of `agent` (every task has the same number of trials: the mean of its wins)."""
    wins = [w for a, s, w in outcomes if a == agent and (stratum is None or s == stratum)]
    return sum(wins) / len(wins) if wins else None


def table(outcomes: Sequence[Outcome], twins: Sequence[str]) -> list[str]:
    """One row per plain agent and twin: pass^1 overall and per stratum; a twin's row adds the
    penalty (plain minus twin) under each, with a tick when it is at most the bound."""
    counts: dict[str, int] = defaultdict(int)
    for a, s, _w in outcomes:
        if a == PLAIN[0]:
            counts[s] += 1
    head = f"{'agent':<20}{'all':>16}" + "".join(f"{s:>16}" for s in STRATA)
    lines = [head, "  trials per agent: " + ", ".join(f"{s} {counts[s]}" for s in STRATA)]
    for plain in PLAIN:
        for agent in (plain, *(t for t in twins if t.startswith(plain + "-"))):
            cells = []
            for stratum in (None, *STRATA):
                value, base = pass1(outcomes, agent, stratum), pass1(outcomes, plain, stratum)
                if value is None or base is None:
                    cells.append(f"{'n/a':>16}")
                elif agent == plain:
                    cells.append(f"{value:>16.3f}")
                else:
                    loss = base - value
                    mark = "✓" if loss <= TWIN_LOSS_MAX else "✗"
                    cells.append(f"{value:>7.3f} ({loss:+.3f}{mark})")
            lines.append(f"{agent:<20}" + "".join(cells))
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seeds", type=int, default=4, help="trials per task")
    parser.add_argument("--first-seed", type=int, default=0, help="seeds first..first+n-1")
    parser.add_argument("--domains", default="movies,grocery")
    args = parser.parse_args()
    twins = [f"{p}-{k}" for p in PLAIN for k in TWIN_KINDS]
    agents = [*PLAIN, *twins]
    runners = {"movies": movies_trials, "grocery": grocery_trials}
    for domain in [d for d in args.domains.split(",") if d]:
        if domain not in runners:
            parser.error(f"unknown domain {domain!r} (movies, grocery)")
        started = time.perf_counter()
        seeds = range(args.first_seed, args.first_seed + args.seeds)
        outcomes, tasks = runners[domain](agents, seeds)
        print(
            f"\n{domain}: {tasks} dev tasks x seeds {seeds[0]}..{seeds[-1]}, scripted user, "
            f"{len(outcomes)} trials in {time.perf_counter() - started:.0f} s; a twin's cell is "
            f"pass^1 (penalty = plain - twin; ✓ when <= {TWIN_LOSS_MAX:.2f})"
        )
        print("\n".join(table(outcomes, twins)))


if __name__ == "__main__":
    main()
