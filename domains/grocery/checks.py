"""Grocery's `taurec tasks audit` and `taurec tasks stats`: the gate and leak audit on the shipped snapshots, and the suite's make-up, as printable reports."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from domains.grocery.audit import audit_suite
from domains.grocery.catalog import load_catalog
from domains.grocery.tasks import GroceryTask
from runner.core.errors import TaurecError
from runner.core.suite_report import SuiteReport

__all__ = ["audit_report", "stats_report"]


def _catalogs(snapshot: str | None, snapshots_dir: Path) -> list[tuple[str, Any]]:
    """(label, catalog) of the snapshot named (a date under `snapshots_dir` or a folder), else of
    every committed snapshot."""
    if snapshot is None:
        folders = sorted(p for p in snapshots_dir.iterdir() if (p / "catalog.json").is_file())
        if not folders:
            raise TaurecError(f"no grocery snapshot under {snapshots_dir}")
    else:
        folder = Path(snapshot)
        folders = [folder if folder.is_dir() else snapshots_dir / snapshot]
        if not (folders[0] / "catalog.json").is_file():
            raise TaurecError(f"--snapshot {snapshot}: no grocery snapshot (catalog.json) there")
    return [(folder.name, load_catalog(folder)) for folder in folders]


def audit_report(
    tasks: Sequence[GroceryTask], snapshot: str | None, snapshots_dir: Path
) -> SuiteReport:
    """Every task through the difficulty gate and the shopper's leak audit on each snapshot."""
    catalogs = _catalogs(snapshot, snapshots_dir)
    report = audit_suite(tasks, catalogs)
    labels = ", ".join(label for label, _ in catalogs)
    passed = report.tasks - len(report.problems)
    lines = [
        f"{passed} of {report.tasks} tasks pass the difficulty gate and the leak audit on {labels}"
    ]
    failures = tuple(f"{tid}: {p}" for tid, problems in report.problems.items() for p in problems)
    lines += [f"  FAIL {line}" for line in failures]
    data = {
        "snapshots": [label for label, _ in catalogs],
        "tasks": report.tasks,
        "passed": passed,
        "problems": report.problems,
    }
    return SuiteReport(
        ok=report.passed,
        text="\n".join(lines) + "\n",
        json=json.dumps(data, indent=2, sort_keys=True) + "\n",
        failures=failures,
    )


def stats_report(tasks: Sequence[GroceryTask]) -> SuiteReport:
    """The suite's grid (complexity x reveal), kinds, NVR tasks, policies and constrained fields."""
    grid = Counter((t.complexity, t.reveal_difficulty) for t in tasks)
    kinds = Counter(t.kind for t in tasks)
    policies = Counter(p for t in tasks for p in t.policy_flags)
    fields = Counter(c.constraint.field for t in tasks for c in t.constraints)
    reveals = Counter(c.reveal for t in tasks for c in t.constraints)
    allergies = sum(1 for t in tasks if t.allergies)
    nvr = sum(1 for t in tasks if t.no_valid_recommendation)
    # Requests per conversation (a shopping task is one request).
    requests = Counter(max(len(t.requests), 1) for t in tasks)
    lines = [
        f"{len(tasks)} grocery tasks",
        "",
        f"{'':10}" + "".join(f"{r:>11}" for r in ("volunteer", "mixed", "hidden")),
    ]
    for cx in ("simple", "medium", "complex"):
        lines.append(
            f"{cx:10}" + "".join(f"{grid[(cx, r)]:>11}" for r in ("volunteer", "mixed", "hidden"))
        )
    lines += [
        "",
        "kinds: " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())),
        f"nothing fits (NVR): {nvr}; with declared allergies: {allergies}",
        "requests per conversation: "
        + ", ".join(f"{k}: {n}" for k, n in sorted(requests.items()))
        + f" ({sum(n for k, n in requests.items() if k > 1) / max(len(tasks), 1):.0%} with several)",
        "constraint reveals: " + ", ".join(f"{k} {n}" for k, n in sorted(reveals.items())),
        "fields constrained: " + ", ".join(f"{k} {n}" for k, n in sorted(fields.items())),
        "policies flagged: " + ", ".join(f"{k} {n}" for k, n in sorted(policies.items())),
    ]
    data = {
        "tasks": len(tasks),
        "grid": {f"{cx}/{rv}": n for (cx, rv), n in sorted(grid.items())},
        "kinds": dict(sorted(kinds.items())),
        "nvr": nvr,
        "requests": {str(k): n for k, n in sorted(requests.items())},
        "with_allergies": allergies,
        "constraint_reveals": dict(sorted(reveals.items())),
        "fields": dict(sorted(fields.items())),
        "policies": dict(sorted(policies.items())),
    }
    return SuiteReport(
        ok=True,
        text="\n".join(lines) + "\n",
        json=json.dumps(data, indent=2, sort_keys=True) + "\n",
    )
