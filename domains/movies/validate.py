"""Solvability of a task suite on a catalog: constraint, reachable and winning solutions per task."""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from domains.movies.catalog import Catalog, CatalogItem
from domains.movies.tasks import PolicyName, Task, load_tasks
from runner.core.errors import TaurecError
from runner.core.paths import SNAPSHOTS_DIR, TASKS_DIR

SolvabilityStatus = Literal["ok", "inconsistent", "retired"]
_DATE_DIR = re.compile(r"^\d{4}-\d{2}-\d{2}$")


class TaskSolvability(BaseModel):
    """One task checked against one catalog."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    task_id: str
    status: SolvabilityStatus
    reason: str
    no_valid_recommendation: bool
    constraint_solutions: list[str] = Field(description="Ids satisfying every constraint")
    reachable_solutions: list[str] = Field(
        description="Constraint solutions on at least one user service (all, if none listed)"
    )
    winning_solutions: list[str] = Field(
        description="Reachable solutions every active policy allows"
    )
    warnings: list[str] = Field(default_factory=list)


class SolvabilityReport(BaseModel):
    """Per-task solvability plus the digest of the catalog it was computed on."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    catalog_digest: str
    tasks: dict[str, TaskSolvability]

    @property
    def inconsistent(self) -> list[TaskSolvability]:
        return [t for t in self.tasks.values() if t.status == "inconsistent"]

    @property
    def ok(self) -> bool:
        return not self.inconsistent

    def to_json_summary(self) -> str:
        """The `tasks validate --json` document: solutions and status per task id."""
        doc = {
            "tasks": {
                task_id: {
                    "constraint_solutions": t.constraint_solutions,
                    "reachable_solutions": t.reachable_solutions,
                    "winning_solutions": t.winning_solutions,
                    "status": t.status,
                }
                for task_id, t in self.tasks.items()
            }
        }
        return json.dumps(doc, indent=2) + "\n"

    def format_text(self) -> str:
        """A human-readable report: one line per task, then the inconsistencies."""
        lines = []
        for t in self.tasks.values():
            if t.status == "retired":
                lines.append(f"{t.task_id}  retired       {t.reason}")
                continue
            counts = (
                f"constraint={len(t.constraint_solutions):<3} "
                f"reachable={len(t.reachable_solutions):<3} winning={len(t.winning_solutions):<3}"
            )
            lines.append(f"{t.task_id}  {t.status:<12}  {counts}  {t.reason}")
            lines += [f"    warning: {w}" for w in t.warnings]
        statuses = [t.status for t in self.tasks.values()]
        lines.append(
            f"{len(statuses)} tasks: {statuses.count('ok')} ok, "
            f"{statuses.count('inconsistent')} inconsistent, {statuses.count('retired')} retired"
        )
        lines += [f"INCONSISTENT {t.task_id}: {t.reason}" for t in self.inconsistent]
        return "\n".join(lines) + "\n"


# Which reachable items each active policy still allows (policies met procedurally allow all).
PolicyFilter = Callable[[Task, CatalogItem], bool]
POLICY_FILTERS: dict[PolicyName, PolicyFilter] = {
    "watch_history": lambda task, item: item.id not in task.watched,
}


def on_user_services(task: Task, item: CatalogItem) -> bool:
    """Streamable on one of the user's services (every item is, when the task lists none)."""
    return not task.user_services or bool(set(item.streaming_services) & set(task.user_services))


def policy_allows(task: Task, item: CatalogItem) -> bool:
    """On the user's services and allowed by every active policy that rules items out."""
    return on_user_services(task, item) and all(
        POLICY_FILTERS[p](task, item) for p in task.policy_flags if p in POLICY_FILTERS
    )


def _is_retired(task: Task, snapshot_date: dt.date | None) -> bool:
    if task.retired is None:
        return False
    return snapshot_date is None or snapshot_date >= task.retired.since


def check_task(task: Task, catalog: Catalog) -> TaskSolvability:
    """Compute one task's solution sets and whether they are consistent with its design."""
    constraint = [item for item in catalog.items if task.satisfies_all(item)]
    services = task.user_services
    reachable = [item for item in constraint if on_user_services(task, item)]
    winning = [item for item in reachable if policy_allows(task, item)]

    warnings = []
    missing = [w for w in task.watched if w not in catalog]
    if missing:
        warnings.append(f"watched ids not in the catalog: {', '.join(missing)}")
    if "transparency" in task.policy_flags and not task.no_valid_recommendation:
        warnings.append("transparency is active on a task that has valid recommendations")

    status: SolvabilityStatus = "ok"
    if task.no_valid_recommendation:
        if constraint:
            status = "inconsistent"
            reason = (
                f"no-valid-recommendation task has {len(constraint)} constraint solution(s): "
                f"{', '.join(i.id for i in constraint[:5])}"
            )
        else:
            reason = "no item satisfies every constraint, as designed"
    elif not constraint:
        status, reason = "inconsistent", "no item satisfies every constraint"
    elif not reachable:
        status = "inconsistent"
        reason = (
            f"none of the {len(constraint)} constraint solution(s) is on the user's services "
            f"({', '.join(services)})"
        )
    elif not winning:
        status = "inconsistent"
        reason = f"all {len(reachable)} reachable solution(s) are ruled out by active policies"
    else:
        reason = f"{len(winning)} winning solution(s)"
    if (
        status == "ok"
        and "watch_history" in task.policy_flags
        and task.user_id not in task.user_history
    ):
        status, reason = (
            "inconsistent",
            f"watch_history is active but user {task.user_id!r} has no history",
        )
    return TaskSolvability(
        task_id=task.id,
        status=status,
        reason=reason,
        no_valid_recommendation=task.no_valid_recommendation,
        constraint_solutions=[i.id for i in constraint],
        reachable_solutions=[i.id for i in reachable],
        winning_solutions=[i.id for i in winning],
        warnings=warnings,
    )


def check_solvability(
    catalog: Catalog, tasks: list[Task], *, snapshot_date: dt.date | None = None
) -> SolvabilityReport:
    """Check every task; a retired task (as of `snapshot_date`, or at all if None) is not checked."""
    results: dict[str, TaskSolvability] = {}
    for task in sorted(tasks, key=lambda t: t.id):
        if _is_retired(task, snapshot_date):
            assert task.retired is not None
            results[task.id] = TaskSolvability(
                task_id=task.id,
                status="retired",
                reason=f"retired since {task.retired.since.isoformat()}: {task.retired.reason}",
                no_valid_recommendation=task.no_valid_recommendation,
                constraint_solutions=[],
                reachable_solutions=[],
                winning_solutions=[],
            )
        else:
            results[task.id] = check_task(task, catalog)
    return SolvabilityReport(catalog_digest=catalog.digest(), tasks=results)


def snapshot_dates(snapshots_dir: Path = SNAPSHOTS_DIR) -> list[dt.date]:
    """Dates of the snapshot folders (`<YYYY-MM-DD>/catalog.json`), oldest first."""
    if not snapshots_dir.is_dir():
        return []
    return sorted(
        dt.date.fromisoformat(p.name)
        for p in snapshots_dir.iterdir()
        if p.is_dir() and _DATE_DIR.match(p.name) and (p / "catalog.json").exists()
    )


def latest_snapshot_dir(snapshots_dir: Path = SNAPSHOTS_DIR) -> Path | None:
    """The newest `<YYYY-MM-DD>/` snapshot folder holding a catalog.json, if any."""
    if not snapshots_dir.is_dir():
        return None
    dated = sorted(
        p
        for p in snapshots_dir.iterdir()
        if p.is_dir() and _DATE_DIR.match(p.name) and (p / "catalog.json").exists()
    )
    return dated[-1] if dated else None


def resolve_catalog_path(path: Path | None) -> Path:
    """The catalog given, or the latest committed snapshot; a clear error when there is none."""
    if path is not None:
        return path
    latest = latest_snapshot_dir()
    if latest is None:
        raise TaurecError(f"no snapshot under {SNAPSHOTS_DIR}; pass --catalog PATH")
    return latest


def validate_suite(
    catalog_path: Path | None, tasks_dir: Path | None, *, snapshot_date: dt.date | None = None
) -> SolvabilityReport:
    """Load a catalog (default: latest snapshot) and a task folder (default: tasks/), and check."""
    catalog = Catalog.load(resolve_catalog_path(catalog_path))
    tasks = load_tasks(tasks_dir or TASKS_DIR)
    return check_solvability(catalog, tasks, snapshot_date=snapshot_date)
