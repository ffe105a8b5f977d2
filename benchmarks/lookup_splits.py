"""The lookup adversary on the dev split and on generated test splits, beside the same agent without the lookup: pass^1, elicitation credit.

.venv/bin/python benchmarks/lookup_splits.py [--domains movies,grocery] [--seeds 101,202,303] [--trials 4]

For each domain: the committed dev suite, then one test split per seed (`taurec tasks generate`,
the test share of the wording, opaque ids). Each split is run with `lookup` (maps the user id to
a public task and plays it as the oracle) and with its fallback (the same agent, no lookup), and
with the expert for scale. Prints pass^1 with its CI and the elicitation row of the eval report.
The issue's bar (issue 35): on a test split the lookup scores pass^1 <= 0.30 and <= its fallback
+ 0.02, and is credited no elicitation.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from domains.grocery.agents.lookup import LOOKUP_FALLBACK as GROCERY_FALLBACK
from domains.movies.adversaries.lookup import LOOKUP_FALLBACK as MOVIES_FALLBACK
from runner.batch.generate import generate_suite
from runner.core.domains import get_domain
from runner.evaluation import evaluate

FALLBACK = {"movies": MOVIES_FALLBACK, "grocery": GROCERY_FALLBACK}
LOOKUP_BAR = 0.30
MARGIN = 0.02


def _row(domain: str, suite: str | Path, agent: str, trials: int) -> tuple[float, str, int, str]:
    result = evaluate(agent, domain=domain, suite=suite, trials=trials, concurrency=8)
    first = result.summary.pass_hat_k[0]
    ci = f"[{first.ci_low:.3f}, {first.ci_high:.3f}]" if first.ci_low is not None else "—"
    skill = next(r for r in result.feedback.skills if r.skill == "elicitation")
    credit = f"{skill.held}/{skill.of}" if skill.of else "— (no withheld task recommended)"
    return first.value or 0.0, ci, skill.held, credit


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--domains", default="movies,grocery")
    parser.add_argument("--seeds", default="101,202,303")
    parser.add_argument("--trials", type=int, default=4)
    args = parser.parse_args(argv)
    failures = 0
    with tempfile.TemporaryDirectory(prefix="lookup-splits-") as scratch:
        for domain in args.domains.split(","):
            owner = get_domain(domain)
            splits: list[tuple[str, str | Path]] = [("dev", owner.tasks_dir)]
            for seed in (int(s) for s in args.seeds.split(",")):
                out = Path(scratch) / f"{domain}-{seed}"
                started = time.perf_counter()
                generate_suite(owner, None, seed, out, split="test")
                print(
                    f"{domain}: test split seed {seed} drawn in {time.perf_counter() - started:.0f} s"
                )
                splits.append((f"test seed {seed}", out))
            print(f"\n## {domain} ({args.trials} trials per task)\n")
            print("| split | agent | pass^1 | 95% CI | elicitation credit |")
            print("|---|---|---|---|---|")
            for name, suite in splits:
                figures = {}
                for agent in ("lookup", FALLBACK[domain], "expert"):
                    value, ci, held, credit = _row(domain, suite, agent, args.trials)
                    figures[agent] = (value, held)
                    print(f"| {name} | {agent} | {value:.3f} | {ci} | {credit} |")
                if name != "dev":
                    lookup, fallback = figures["lookup"][0], figures[FALLBACK[domain]][0]
                    held = figures["lookup"][1]
                    ok = lookup <= LOOKUP_BAR and lookup <= fallback + MARGIN and held == 0
                    failures += not ok
                    print(
                        f"| {name} | bar | {'met' if ok else 'NOT MET'} | lookup {lookup:.3f} "
                        f"(<= {LOOKUP_BAR}, <= {fallback:.3f} + {MARGIN}) | no elicitation |"
                    )
            print()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
