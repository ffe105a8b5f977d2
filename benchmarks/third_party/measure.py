"""Measure the docs agent over loopback HTTP: pass^1 and pass^4 overall, per stratum and per task kind.

The task kind is read from each trial's opening request with the agent's own reader (the result
files carry no kind): account work with one request or several, a return, a replacement of the
usual product, or a plain order. Nothing here reads a task file.

    python -m benchmarks.third_party.measure                        # the dev split, 4 trials, seed 0
    python -m benchmarks.third_party.measure --suite SPLIT_FOLDER   # a generated split
"""

from __future__ import annotations

import argparse
import gzip
import json
import tempfile
from collections import defaultdict
from math import comb
from pathlib import Path
from typing import Any

import runner
from benchmarks.third_party.grocery_account import is_account_request, read_requests
from benchmarks.third_party.grocery_docs_agent import running
from benchmarks.third_party.grocery_reading import Conversation
from benchmarks.third_party.grocery_shopping import hear_needs
from runner.play.agent_config import HttpAgentConfig

__all__ = ["kind_of", "main", "measure"]


def kind_of(opening: str) -> str:
    """The kind of task an opening request asks for, as the agent reads it."""
    if is_account_request(opening):
        requests = read_requests(opening)
        if len(requests) > 1:
            return "account: several requests"
        return f"account: {requests[0].kind}" if requests else "account: unread"
    conversation = Conversation(turns=[("user", opening)], uses_before=[0])
    kind = hear_needs(conversation, set(), set()).kind
    return "usual product (kept or replaced)" if kind == "substitution" else kind


def _pass_k(results: list[bool], k: int) -> float | None:
    n, c = len(results), sum(results)
    return comb(c, k) / comb(n, k) if n >= k else None


def _table(title: str, groups: dict[str, dict[str, list[bool]]]) -> list[str]:
    lines = [f"| {title} | pass^1 | pass^4 | tasks |", "|---|---|---|---|"]
    for name in sorted(groups):
        per_task = groups[name].values()
        p1 = [v for r in per_task if (v := _pass_k(r, 1)) is not None]
        p4 = [v for r in per_task if (v := _pass_k(r, 4)) is not None]
        four = f"{sum(p4) / len(p4):.3f}" if p4 else "undefined"
        lines.append(f"| {name} | {sum(p1) / len(p1):.3f} | {four} | {len(p1)} |")
    return lines


def measure(suite: str | None, trials: int, seed: int, folder: Path) -> str:
    """Run every task of the suite `trials` times and return the markdown report."""
    options: dict[str, Any] = {"domain": "grocery", "trials": trials, "seed": seed}
    if suite is not None:
        options["suite"] = suite
    with running() as endpoint:
        result = runner.evaluate(HttpAgentConfig(endpoint=endpoint), results=str(folder), **options)
    openings: dict[str, str] = {}
    strata: dict[str, dict[str, dict[str, list[bool]]]] = {
        "complexity": defaultdict(lambda: defaultdict(list)),
        "reveal difficulty": defaultdict(lambda: defaultdict(list)),
        "task kind": defaultdict(lambda: defaultdict(list)),
    }
    for archive in folder.glob("*/transcripts/archive.jsonl.gz"):
        with gzip.open(archive, "rt", encoding="utf-8") as lines:
            for line in lines:
                transcript = json.loads(line)
                users = [
                    e["content"]
                    for e in transcript["events"]
                    if e.get("type") == "message" and e.get("role") == "user"
                ]
                openings[transcript["task_id"]] = users[0] if users else ""
    for records in folder.glob("*/trials.jsonl"):
        for line in records.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            if record.get("status") != "scored":
                continue
            task = record["key"]["task_id"]
            won = float(record["score"]["reward"]) >= 1.0
            strata["complexity"][record["complexity"]][task].append(won)
            strata["reveal difficulty"][record["reveal_difficulty"]][task].append(won)
            strata["task kind"][kind_of(openings.get(task, ""))][task].append(won)
    head = [
        f"grocery, suite {suite or 'dev (shipped)'}, {trials} trials, seed {seed}: "
        f"pass^1 {result.pass_k(1):.3f}, pass^4 {result.pass_k(4):.3f} "
        f"({len({t for g in strata['complexity'].values() for t in g})} tasks)",
        "",
    ]
    body: list[str] = []
    for title, groups in strata.items():
        body += [*_table(title, groups), ""]
    failures = [
        f"- {t.task_id}#{t.trial_index}: {[r.reason for r in t.reasons][:2]}"
        for t in result.failures()
    ]
    return "\n".join(head + body + ["failing trials:", *(failures or ["- none"])]) + "\n"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--suite", default=None, help="a folder of task files (default: the dev split)"
    )
    parser.add_argument("--trials", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="docs-agent-") as folder:
        print(measure(args.suite, args.trials, args.seed, Path(folder)), end="")


if __name__ == "__main__":
    main()
