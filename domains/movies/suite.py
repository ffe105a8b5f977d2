"""The task suite as a whole: its stratification statistics, and revalidation against a dated snapshot."""

from __future__ import annotations

import datetime as dt
import json
from collections import Counter
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from domains.movies.audit import TaskAudit, audit_task
from domains.movies.catalog import Catalog
from domains.movies.informed_probe import INFORMED_SEEDS
from domains.movies.tasks import POLICY_NAMES, Task, load_tasks, suite_digest
from domains.movies.validate import (
    SolvabilityReport,
    SolvabilityStatus,
    check_solvability,
    snapshot_dates,
)
from runner.core.errors import LoadError, TaurecError, describe_validation_error
from runner.core.paths import SNAPSHOTS_DIR, TASKS_DIR

COMPLEXITIES = ("simple", "medium", "complex")
REVEAL_DIFFICULTIES = ("volunteer", "mixed", "hidden")
SOLVABILITY_FILE = "solvability.json"


# ---- stats -----------------------------------------------------------------------------------


class SuiteStats(BaseModel):
    """Counts that describe a task suite: the stratification grid, NVR tasks, policies, fields."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    tasks: int
    active: int
    retired: list[str]
    grid: dict[str, dict[str, int]] = Field(description="complexity -> reveal difficulty -> count")
    no_valid_recommendation: int
    policies: dict[str, int] = Field(description="Tasks with each policy active")
    fields: dict[str, int] = Field(description="Constraints on each catalog field")
    operators: dict[str, int] = Field(description="Constraints using each operator")
    reveals: dict[str, int] = Field(description="Constraints with each reveal tag")
    user_services: int = Field(description="Tasks that list the user's streaming services")
    watch_histories: int = Field(description="Tasks whose user has watched something")

    def format_text(self) -> str:
        width = max(len(c) for c in COMPLEXITIES) + 2
        head = "".join(f"{r:>11}" for r in REVEAL_DIFFICULTIES) + f"{'total':>9}"
        lines = [f"tasks: {self.tasks} ({self.active} active, {len(self.retired)} retired)", ""]
        lines.append(" " * width + head)
        for complexity in COMPLEXITIES:
            row = self.grid[complexity]
            cells = "".join(f"{row[r]:>11}" for r in REVEAL_DIFFICULTIES)
            lines.append(f"{complexity:<{width}}{cells}{sum(row.values()):>9}")
        totals = "".join(
            f"{sum(self.grid[c][r] for c in COMPLEXITIES):>11}" for r in REVEAL_DIFFICULTIES
        )
        lines.append(f"{'total':<{width}}{totals}{self.active:>9}")
        lines += ["", f"no-valid-recommendation tasks: {self.no_valid_recommendation}"]
        lines.append(f"tasks with user services: {self.user_services}")
        lines.append(f"tasks with a watch history: {self.watch_histories}")
        lines += ["", "policy coverage (tasks with the policy active):"]
        lines += [f"  {name:<22}{count:>4}" for name, count in self.policies.items()]
        lines += ["", "constraints by field:"]
        lines += [f"  {name:<22}{count:>4}" for name, count in self.fields.items()]
        lines += ["", "constraints by operator:"]
        lines += [f"  {name:<22}{count:>4}" for name, count in self.operators.items()]
        lines += ["", "constraints by reveal:"]
        lines += [f"  {name:<22}{count:>4}" for name, count in self.reveals.items()]
        if self.retired:
            lines += ["", f"retired (not counted above): {', '.join(self.retired)}"]
        return "\n".join(lines) + "\n"


def _by_count(counter: Counter[str]) -> dict[str, int]:
    return dict(sorted(counter.items(), key=lambda kv: (-kv[1], kv[0])))


def suite_stats(tasks: list[Task]) -> SuiteStats:
    """Describe a suite; retired tasks are listed apart and left out of every count."""
    active = [t for t in tasks if t.retired is None]
    grid = {c: dict.fromkeys(REVEAL_DIFFICULTIES, 0) for c in COMPLEXITIES}
    for task in active:
        grid[task.complexity][task.reveal_difficulty] += 1
    constraints = [tc for t in active for tc in t.constraints]
    return SuiteStats(
        tasks=len(tasks),
        active=len(active),
        retired=sorted(t.id for t in tasks if t.retired is not None),
        grid=grid,
        no_valid_recommendation=sum(t.no_valid_recommendation for t in active),
        policies={p: sum(p in t.policy_flags for t in active) for p in POLICY_NAMES},
        fields=_by_count(Counter(tc.constraint.field for tc in constraints)),
        operators=_by_count(Counter(tc.constraint.op for tc in constraints)),
        reveals={
            r: sum(tc.reveal == r for tc in constraints) for r in ("volunteer", "on_ask", "hidden")
        },
        user_services=sum(bool(t.user_services) for t in active),
        watch_histories=sum(bool(t.watched) for t in active),
    )


def load_suite_stats(tasks_dir: Path | None = None) -> SuiteStats:
    return suite_stats(load_tasks(tasks_dir or TASKS_DIR))


# ---- revalidation ----------------------------------------------------------------------------

GateStatus = Literal["pass", "flagged", "retired"]
Change = Literal[
    "new",
    "unchanged",
    "solutions_changed",
    "lost_last_winning_solution",
    "nvr_became_solvable",
    "retired",
]


class TaskRevalidation(BaseModel):
    """One task on one snapshot, and how that differs from the previous snapshot."""

    model_config = ConfigDict(extra="forbid")

    task_id: str
    status: SolvabilityStatus
    reason: str
    no_valid_recommendation: bool
    constraint_solutions: list[str]
    reachable_solutions: list[str]
    winning_solutions: list[str]
    change: Change
    previous_status: SolvabilityStatus | None = Field(
        description="Status on the previous snapshot (None: no previous snapshot or task was new)"
    )
    winning_added: list[str] = Field(description="Winning solutions not winning before")
    winning_removed: list[str] = Field(description="Winning solutions no longer winning")
    warnings: list[str] = Field(default_factory=list)
    gate: GateStatus | None = Field(
        default=None,
        description="Difficulty gate: pass; flagged (fails on this snapshot only); retired "
        "(failed on the previous snapshot too). None: retired by hand, or a schema 1 file",
    )
    audit: TaskAudit | None = Field(
        default=None,
        description="The difficulty figures and gate checks (see domains.movies.audit)",
    )


class SolvabilityCounts(BaseModel):
    model_config = ConfigDict(extra="forbid")

    tasks: int
    ok: int
    inconsistent: int
    retired: int
    changed: int = Field(description="Active tasks whose change is neither 'unchanged' nor 'new'")
    flagged: int = Field(
        default=0, description="Tasks failing the difficulty gate for the first time"
    )
    gate_retired: int = Field(
        default=0, description="Tasks retired for failing the gate on two snapshots in a row"
    )


class SnapshotSolvability(BaseModel):
    """`solvability.json` of a snapshot folder: every task re-checked against its catalog."""

    model_config = ConfigDict(extra="forbid")

    schema_version: Literal[1, 2] = Field(
        default=2, description="2 adds the difficulty audit and gate; 1 files still load"
    )
    snapshot_date: dt.date
    previous_snapshot: dt.date | None
    catalog_sha256: str
    previous_catalog_sha256: str | None
    tasks_digest: str
    counts: SolvabilityCounts
    tasks: list[TaskRevalidation]

    @property
    def ok(self) -> bool:
        return self.counts.inconsistent == 0

    @property
    def changed(self) -> list[TaskRevalidation]:
        return [t for t in self.tasks if t.change not in ("unchanged", "new", "retired")]

    def to_json_bytes(self) -> bytes:
        return (
            json.dumps(self.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n"
        ).encode()

    def format_text(self) -> str:
        prev = self.previous_snapshot.isoformat() if self.previous_snapshot else "none"
        c = self.counts
        lines = [
            f"snapshot {self.snapshot_date.isoformat()} (previous: {prev}): {c.tasks} tasks, "
            f"{c.ok} ok, {c.inconsistent} inconsistent, {c.retired} retired, {c.changed} changed, "
            f"gate: {c.flagged} flagged, {c.gate_retired} retired"
        ]
        # Status changes first: they are what stops a scheduled run; then mere solution changes.
        ordered = sorted(self.changed, key=lambda t: (t.change == "solutions_changed", t.task_id))
        for t in ordered:
            detail = ""
            if t.winning_added or t.winning_removed:
                detail = f" (+{len(t.winning_added)} -{len(t.winning_removed)} winning)"
            lines.append(f"  changed  {t.task_id}  {t.change}{detail}: {t.reason}")
        lines += [
            f"  retired  {t.task_id}  {t.reason}" for t in self.tasks if t.status == "retired"
        ]
        lines += [
            f"  flagged  {t.task_id}  fails the gate: "
            + "; ".join(f"{c.rule}: {c.reason}" for c in t.audit.failed_checks)
            for t in self.tasks
            if t.gate == "flagged" and t.audit is not None
        ]
        lines += [
            f"  INCONSISTENT  {t.task_id}  {t.reason}"
            for t in self.tasks
            if t.status == "inconsistent"
        ]
        return "\n".join(lines) + "\n"


def _change(now: TaskRevalidation, before: SolvabilityReport | None) -> Change:
    if now.status == "retired":
        return "retired"
    old = before.tasks.get(now.task_id) if before else None
    if old is None or old.status == "retired":
        return "new"
    if now.no_valid_recommendation and now.constraint_solutions and not old.constraint_solutions:
        return "nvr_became_solvable"
    if not now.no_valid_recommendation and old.winning_solutions and not now.winning_solutions:
        return "lost_last_winning_solution"
    same = (
        old.constraint_solutions == now.constraint_solutions
        and old.reachable_solutions == now.reachable_solutions
        and old.winning_solutions == now.winning_solutions
    )
    return "unchanged" if same else "solutions_changed"


def _apply_gate(
    row: TaskRevalidation,
    task: Task,
    catalog: Catalog,
    previous: Catalog | None,
    previous_date: dt.date | None,
    informed_seeds: int,
) -> None:
    """Audit the task; failing the gate flags it, failing it on the previous snapshot too retires it.

    An inconsistent task keeps its status (it must stop the run, not quietly leave the suite).
    """
    row.audit = audit_task(task, catalog, informed_seeds=informed_seeds)
    if row.audit.passed:
        row.gate = "pass"
        return
    failed_before = (
        previous is not None
        and not audit_task(task, previous, informed_seeds=informed_seeds).passed
    )
    if not failed_before or row.status != "ok":
        row.gate = "flagged"
        return
    assert previous_date is not None
    rules = ", ".join(c.rule for c in row.audit.failed_checks)
    row.gate, row.status, row.change = "retired", "retired", "retired"
    row.reason = (
        f"retired: failed the difficulty gate on {previous_date.isoformat()} and again ({rules})"
    )


def revalidate(
    catalog: Catalog,
    tasks: list[Task],
    *,
    snapshot_date: dt.date,
    previous: Catalog | None = None,
    previous_date: dt.date | None = None,
    gate: bool = True,
    informed_seeds: int = INFORMED_SEEDS,
) -> SnapshotSolvability:
    """Check every task on `catalog` and compare with the same tasks on the previous catalog.

    The comparison recomputes the previous snapshot with today's tasks, so a change always
    means the catalog changed, never that a task file was edited. With `gate`, each task is also
    audited for difficulty: failing flags it, failing on the previous snapshot too retires it.
    """
    report = check_solvability(catalog, tasks, snapshot_date=snapshot_date)
    before = (
        check_solvability(previous, tasks, snapshot_date=previous_date)
        if previous is not None
        else None
    )
    rows = []
    by_task = {t.id: t for t in tasks}
    for task_id, result in report.tasks.items():
        old = before.tasks.get(task_id) if before else None
        old_winning = set(old.winning_solutions) if old and old.status != "retired" else set()
        row = TaskRevalidation(
            task_id=task_id,
            status=result.status,
            reason=result.reason,
            no_valid_recommendation=result.no_valid_recommendation,
            constraint_solutions=result.constraint_solutions,
            reachable_solutions=result.reachable_solutions,
            winning_solutions=result.winning_solutions,
            change="unchanged",
            previous_status=old.status if old else None,
            winning_added=[]
            if old is None
            else [i for i in result.winning_solutions if i not in old_winning],
            winning_removed=(
                [] if old is None else sorted(old_winning - set(result.winning_solutions))
            ),
            warnings=result.warnings,
        )
        row.change = _change(row, before)
        if gate and result.status != "retired":
            _apply_gate(
                row,
                by_task[task_id],
                catalog,
                previous if old else None,
                previous_date,
                informed_seeds,
            )
        rows.append(row)
    statuses = Counter(r.status for r in rows)
    return SnapshotSolvability(
        snapshot_date=snapshot_date,
        previous_snapshot=previous_date if previous is not None else None,
        catalog_sha256=report.catalog_digest,
        previous_catalog_sha256=before.catalog_digest if before else None,
        tasks_digest=suite_digest(tasks),
        counts=SolvabilityCounts(
            tasks=len(rows),
            ok=statuses["ok"],
            inconsistent=statuses["inconsistent"],
            retired=statuses["retired"],
            changed=sum(r.change not in ("unchanged", "new", "retired") for r in rows),
            flagged=sum(r.gate == "flagged" for r in rows),
            gate_retired=sum(r.gate == "retired" for r in rows),
        ),
        tasks=rows,
    )


def revalidate_snapshot(
    date: dt.date | str,
    *,
    tasks_dir: Path | None = None,
    snapshots_dir: Path = SNAPSHOTS_DIR,
    write: bool = True,
    gate: bool = True,
    informed_seeds: int = INFORMED_SEEDS,
) -> SnapshotSolvability:
    """Revalidate the suite on `<snapshots_dir>/<date>/` against the snapshot before it, and
    write `solvability.json` into that folder (byte-identical for identical inputs); the gate
    plays the informed agent on `informed_seeds` trials of each task."""
    day = dt.date.fromisoformat(date) if isinstance(date, str) else date
    folder = snapshots_dir / day.isoformat()
    if not (folder / "catalog.json").exists():
        known = ", ".join(d.isoformat() for d in snapshot_dates(snapshots_dir)) or "none"
        raise TaurecError(f"no snapshot {day.isoformat()} under {snapshots_dir} (known: {known})")
    earlier = [d for d in snapshot_dates(snapshots_dir) if d < day]
    previous_date = earlier[-1] if earlier else None
    previous = Catalog.load(snapshots_dir / previous_date.isoformat()) if previous_date else None
    result = revalidate(
        Catalog.load(folder),
        load_tasks(tasks_dir or TASKS_DIR),
        snapshot_date=day,
        previous=previous,
        previous_date=previous_date,
        gate=gate,
        informed_seeds=informed_seeds,
    )
    if write:
        target = folder / SOLVABILITY_FILE
        data = result.to_json_bytes()
        if not target.exists() or target.read_bytes() != data:
            target.write_bytes(data)
    return result


def load_solvability(path: Path | str) -> SnapshotSolvability:
    """Read a snapshot's `solvability.json` (a folder or the file itself)."""
    path = Path(path)
    file = path / SOLVABILITY_FILE if path.is_dir() else path
    try:
        return SnapshotSolvability.model_validate_json(file.read_bytes())
    except FileNotFoundError:
        raise LoadError(file, ["file not found"]) from None
    except ValidationError as exc:
        raise LoadError(file, describe_validation_error(exc)) from exc
