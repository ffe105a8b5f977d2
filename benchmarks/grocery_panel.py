"""The grocery panel: every built-in agent x the shipped grocery tasks x 4 seeds through the real loop, scored by final state; prints pass^1 / pass^4 per agent and per reveal class.

.venv/bin/python benchmarks/grocery_panel.py [--snapshot 2026-11-01] [--seeds 4] [--agents a,b] [--tasks N]
    [--tasks-dir FOLDER]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from domains.grocery.agents import ADVERSARIES, TWINS, baselines
from domains.grocery.catalog import load_catalog
from domains.grocery.panel_play import play_grocery_trial
from domains.grocery.scoring import score
from domains.grocery.tasks import ACCOUNT_KINDS, GroceryTask, load_tasks
from runner.core.protocols import AgentContext
from runner.core.rules import get_rules

ROOT = Path(__file__).resolve().parents[1]
GROCERY = ROOT / "domains" / "grocery"
ADVERSARY_MARGIN = 0.30
TWIN_LOSS_MAX = 0.02  # what wording alone may cost an agent (pass^1), as for movies
# Issue 38's caps on each shortcut's pass^1 (the questionnaire's is the margin under the expert).
SHORTCUT_CAPS: dict[str, float] = {
    "order-without-asking": 0.25,  # acting without asking
    "prior-guesser": 0.25,  # guessing from a prior
    "basket-stuffer": 0.25,  # over-filling
    "policy-ignorer": 0.10,  # policy-ignoring (the expert that never read the policy)
    "allergen-ignorer": 0.10,  # ignoring the one allergy rule
    "bare-confirmer": 0.25,  # confirming without stating the basket or the change
}
EXPERT_MIN = (0.90, 0.85)  # the honest expert's pass^1 and pass^4, whichever way it names products


@dataclass(frozen=True)
class Trial:
    """One scored trial of the panel."""

    agent: str
    task: str
    reveal: str
    seed: int
    reward: float
    stop: str
    family: str = "shopping"  # or "account" (the account kinds)
    kind: str = ""  # the task's kind (order, substitution, return, cancel, ...)


async def _one(name: str, task: GroceryTask, catalog: Any, seed: int) -> Trial:
    rules = get_rules("v2")
    context = AgentContext(
        user_id=task.user_id, policy_text="", seed=seed, task=task, catalog=catalog
    )  # type: ignore[arg-type]
    agent = baselines()[name](context, {})
    transcript = await play_grocery_trial(agent, task, catalog, seed)
    result = score(task, transcript, catalog, rules)
    family = "account" if task.kind in ACCOUNT_KINDS else "shopping"
    return Trial(
        name,
        task.id,
        task.reveal_difficulty,
        seed,
        result.reward,
        str(transcript.stop_reason),
        family,
        task.kind,
    )


def run_panel(
    agents: Sequence[str], tasks: Sequence[GroceryTask], catalog: Any, seeds: Sequence[int]
) -> list[Trial]:
    """Every agent x task x seed, in order."""

    async def everything() -> list[Trial]:
        return [await _one(a, t, catalog, s) for a in agents for t in tasks for s in seeds]

    return asyncio.run(everything())


def pass_k(trials: Sequence[Trial], k: int) -> float:
    """Share of tasks whose first k trials all pass (reward 1)."""
    by_task: dict[str, list[float]] = defaultdict(list)
    for t in trials:
        by_task[t.task].append(t.reward)
    if not by_task:
        return float("nan")
    return sum(all(r >= 1.0 for r in rs[:k]) for rs in by_task.values()) / len(by_task)


def table(trials: Sequence[Trial], seeds: int) -> str:
    """The figures: pass^1 (mean over seeds) and pass^k overall, by reveal class and by task
    family (shopping: order, substitution, return; account: cancel, modify, exchange, multi)."""
    lines = [
        f"{'agent':26} {'pass^1':>7} {'pass^' + str(seeds):>7} {'vol':>6} {'mixed':>6} {'hidden':>6}"
        f" {'shop':>6} {'acct':>6}  per-seed pass^1"
    ]
    agents = list(dict.fromkeys(t.agent for t in trials))
    for a in agents:
        mine = [t for t in trials if t.agent == a]
        p1 = sum(t.reward >= 1.0 for t in mine) / len(mine)
        per_seed = []
        for s in sorted({t.seed for t in mine}):
            xs = [t for t in mine if t.seed == s]
            per_seed.append(sum(t.reward >= 1.0 for t in xs) / len(xs))
        cls = []
        groups = [("reveal", rv) for rv in ("volunteer", "mixed", "hidden")]
        groups += [("family", f) for f in ("shopping", "account")]
        for attribute, value in groups:
            xs = [t for t in mine if getattr(t, attribute) == value]
            cls.append(sum(t.reward >= 1.0 for t in xs) / len(xs) if xs else float("nan"))
        lines.append(
            f"{a:26} {p1:7.3f} {pass_k(mine, seeds):7.3f} "
            + " ".join(f"{x:6.3f}" for x in cls)
            + "  "
            + " ".join(f"{x:.3f}" for x in per_seed)
        )
    return "\n".join(lines)


def kind_table(trials: Sequence[Trial]) -> str:
    """Each agent's pass^1 per task kind (trials of that kind won / played), one row per agent:
    which kinds a shortcut still wins."""
    kinds = sorted({t.kind for t in trials})
    lines = [f"{'agent (pass^1 by kind)':26} " + " ".join(f"{k[:12]:>12}" for k in kinds)]
    for a in dict.fromkeys(t.agent for t in trials):
        cells = []
        for k in kinds:
            xs = [t.reward >= 1.0 for t in trials if t.agent == a and t.kind == k]
            cells.append(f"{sum(xs) / len(xs):12.3f}" if xs else f"{'-':>12}")
        lines.append(f"{a:26} " + " ".join(cells))
    return "\n".join(lines)


def targets(trials: Sequence[Trial], seeds: int) -> str:
    """Issue 38's targets against the figures, one line each (agents not played are skipped)."""

    def figures(agent: str) -> tuple[float, float] | None:
        mine = [t for t in trials if t.agent == agent]
        if not mine:
            return None
        return sum(t.reward >= 1.0 for t in mine) / len(mine), pass_k(mine, seeds)

    def line(what: str, ok: bool) -> str:
        return f"  target {what}  {'ok' if ok else 'MISSED'}"

    out = []
    for agent in ("expert", "expert-bare-names"):
        if (f := figures(agent)) is not None:
            ok = f[0] >= EXPERT_MIN[0] and f[1] >= EXPERT_MIN[1]
            out.append(
                line(
                    f"{agent} pass^1 {f[0]:.3f} >= {EXPERT_MIN[0]:.2f}, pass^{seeds} "
                    f"{f[1]:.3f} >= {EXPERT_MIN[1]:.2f}",
                    ok,
                )
            )
    expert = figures("expert")
    asker = figures("questionnaire")
    if expert is not None and asker is not None:
        cap = expert[0] - ADVERSARY_MARGIN
        out.append(line(f"questionnaire pass^1 {asker[0]:.3f} <= {cap:.3f}", asker[0] <= cap))
    for agent, cap in SHORTCUT_CAPS.items():
        if (f := figures(agent)) is not None:
            out.append(line(f"{agent} pass^1 {f[0]:.3f} <= {cap:.2f}", f[0] <= cap))
    if (f := figures("heuristic")) is not None:
        out.append(line(f"heuristic pass^{seeds} {f[1]:.3f} < pass^1 {f[0]:.3f}", f[1] < f[0]))
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--snapshot", default="2026-11-01")
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--agents", default="")
    parser.add_argument("--tasks", type=int, default=0, help="only the first N tasks (0: all)")
    parser.add_argument(
        "--tasks-dir", default="", help="a task folder (e.g. a generated split; default: dev)"
    )
    args = parser.parse_args(argv)
    catalog = load_catalog(GROCERY / "snapshots" / args.snapshot)
    tasks = load_tasks(Path(args.tasks_dir) if args.tasks_dir else GROCERY / "tasks")
    if args.tasks:
        tasks = tasks[: args.tasks]
    agents = [a for a in args.agents.split(",") if a] or list(baselines())
    trials = run_panel(agents, tasks, catalog, range(args.seeds))
    print(f"grocery panel: {len(tasks)} tasks x {args.seeds} seeds, snapshot {args.snapshot}")
    print(table(trials, args.seeds))
    print(kind_table(trials))

    def p1(agent: str) -> float:
        mine = [t for t in trials if t.agent == agent]
        return sum(t.reward >= 1.0 for t in mine) / len(mine)

    print(targets(trials, args.seeds))
    for twin, plain in TWINS.items():
        if twin in agents and plain in agents:
            loss = p1(plain) - p1(twin)
            mark = "ok" if loss <= TWIN_LOSS_MAX else "TOO HIGH"
            print(f"  {twin} loses {loss:.3f} to {plain} (at most {TWIN_LOSS_MAX:.2f})  {mark}")
    expert = [t for t in trials if t.agent == "expert"]
    if expert:
        e1 = sum(t.reward >= 1.0 for t in expert) / len(expert)
        worst = [a for a in ADVERSARIES if a in agents]
        for a in worst:
            mine = [t for t in trials if t.agent == a]
            p1 = sum(t.reward >= 1.0 for t in mine) / len(mine)
            mark = "ok" if p1 <= e1 - ADVERSARY_MARGIN else "TOO HIGH"
            by_family = {
                f: [t.reward >= 1.0 for t in mine if t.family == f] for f in ("shopping", "account")
            }
            split = ", ".join(f"{f} {sum(x) / len(x):.3f}" for f, x in by_family.items() if x)
            print(
                f"  {a}: {p1:.3f} ({split}) vs expert - {ADVERSARY_MARGIN:.2f} = "
                f"{e1 - ADVERSARY_MARGIN:.3f}  {mark}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
