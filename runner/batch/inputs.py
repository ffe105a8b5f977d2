"""Resolve what a run reads: the snapshot (date, folder or catalog.json), the task suite, its policy, and their digests."""

from __future__ import annotations

import dataclasses
import datetime as dt
import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from runner.catalog import Catalog
from runner.errors import LoadError, TaurecError
from runner.paths import SNAPSHOTS_DIR, TASKS_DIR
from runner.tasks import Task, load_tasks, suite_digest, text_digest
from runner.transcript import Provenance

_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


@dataclass(frozen=True)
class Snapshot:
    """A resolved snapshot: its catalog, the label used for the results folder, and its date if known."""

    catalog: Catalog
    label: str
    path: Path
    date: dt.date | None


@dataclass(frozen=True)
class RunInputs:
    """Everything a run reads, loaded once and shared by every trial."""

    snapshot: Snapshot
    tasks: list[Task] = field(repr=False)
    retired: dict[str, str]
    tasks_dir: Path
    policy_path: Path
    policy_text: str = field(repr=False)
    catalog_digest: str
    task_suite_digest: str
    policy_digest: str

    def provenance(self) -> Provenance:
        """What every transcript and record of the run names: snapshot, date and digests."""
        return Provenance(
            snapshot=self.snapshot.label,
            snapshot_date=self.snapshot.date,
            catalog_digest=self.catalog_digest,
            task_suite_digest=self.task_suite_digest,
            policy_digest=self.policy_digest,
        )


def _parse_date(text: str) -> dt.date | None:
    if not _DATE.match(text):
        return None
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        return None


def dated_snapshots(snapshots_dir: Path = SNAPSHOTS_DIR) -> list[Path]:
    """Dated snapshot folders (`YYYY-MM-DD/` holding a catalog.json), oldest first."""
    if not snapshots_dir.is_dir():
        return []
    return sorted(
        p
        for p in snapshots_dir.iterdir()
        if p.is_dir() and _parse_date(p.name) and (p / "catalog.json").exists()
    )


def resolve_snapshot(spec: str | Path | None, snapshots_dir: Path = SNAPSHOTS_DIR) -> Snapshot:
    """`None` → the latest dated snapshot; `YYYY-MM-DD` → `<snapshots_dir>/<date>/`; otherwise a path.

    A path may be a snapshot folder (holding catalog.json) or a bare catalog.json. The label is the
    date, or the folder's name for a path (the folder holding catalog.json for a bare file).
    """
    if spec is None:
        found = dated_snapshots(snapshots_dir)
        if not found:
            raise TaurecError(
                f"no dated snapshot (YYYY-MM-DD/catalog.json) under {snapshots_dir}; "
                "pass --snapshot DATE|PATH"
            )
        folder = found[-1]
    elif isinstance(spec, str) and _parse_date(spec) and not Path(spec).exists():
        folder = snapshots_dir / spec
        if not (folder / "catalog.json").exists():
            known = ", ".join(p.name for p in dated_snapshots(snapshots_dir)) or "none"
            raise LoadError(folder, [f"no snapshot dated {spec} (known: {known})"])
    else:
        folder = Path(spec)
        if not folder.exists():
            raise LoadError(folder, ["snapshot path not found (expected a folder or catalog.json)"])
    catalog = Catalog.load(folder)
    folder = folder.resolve()
    label_dir = folder.parent if folder.is_file() else folder
    return Snapshot(
        catalog=catalog, label=label_dir.name, path=folder, date=_parse_date(label_dir.name)
    )


def find_policy(tasks_dir: Path) -> Path:
    """The policy read with a task suite: `policy.md` in the tasks folder, else beside it.

    Our suite keeps `tasks/policy.md`; the v1 data keeps `policy.md` next to its `tasks/` folder.
    """
    for candidate in (tasks_dir / "policy.md", tasks_dir.parent / "policy.md"):
        if candidate.is_file():
            return candidate
    raise LoadError(
        tasks_dir, [f"no policy.md in {tasks_dir} or in {tasks_dir.parent} (the suite's policy)"]
    )


def is_retired(task: Task, snapshot_date: dt.date | None) -> bool:
    """A task with `retired` set is out from its `since` date on (always, when the snapshot has no date)."""
    if task.retired is None:
        return False
    return snapshot_date is None or snapshot_date >= task.retired.since


def gate_retired(snap: Snapshot, tasks: list[Task]) -> dict[str, str]:
    """Tasks the snapshot's solvability.json retired for failing the difficulty gate twice.

    Only a file computed for exactly this suite counts (an edited suite is revalidated afresh).
    """
    from runner.suite import SOLVABILITY_FILE, load_solvability

    folder = snap.path.parent if snap.path.is_file() else snap.path
    if not (folder / SOLVABILITY_FILE).is_file():
        return {}
    report = load_solvability(folder)
    if report.tasks_digest != suite_digest(tasks):
        return {}
    return {t.task_id: t.reason for t in report.tasks if t.gate == "retired"}


def load_inputs(
    snapshot: str | Path | None = None,
    tasks_dir: str | Path | None = None,
    *,
    snapshots_dir: Path = SNAPSHOTS_DIR,
) -> RunInputs:
    """Load the snapshot, the tasks (retired ones set aside, never silently) and the policy once."""
    snap = resolve_snapshot(snapshot, snapshots_dir)
    tdir = Path(tasks_dir) if tasks_dir is not None else TASKS_DIR
    all_tasks = load_tasks(tdir)
    policy_path = find_policy(tdir)
    retired = {
        t.id: f"retired since {t.retired.since}: {t.retired.reason}"
        for t in all_tasks
        if t.retired is not None and is_retired(t, snap.date)
    }
    retired |= gate_retired(snap, all_tasks)
    active = [t for t in all_tasks if t.id not in retired]
    if not active:
        raise LoadError(tdir, ["every task is retired for this snapshot: nothing to run"])
    return RunInputs(
        snapshot=snap,
        tasks=active,
        retired=retired,
        tasks_dir=tdir.resolve(),
        policy_path=policy_path.resolve(),
        policy_text=policy_path.read_text(encoding="utf-8"),
        catalog_digest=snap.catalog.digest(),
        # The digest covers the whole suite (retired tasks included), so any task edit is noticed.
        task_suite_digest=suite_digest(all_tasks),
        policy_digest=text_digest(policy_path),
    )


def select_tasks(inputs: RunInputs, task_ids: Sequence[str]) -> RunInputs:
    """Only the named tasks (in suite order); an unknown or retired id fails, naming the closest one."""
    known = {t.id for t in inputs.tasks}
    problems = []
    for task_id in task_ids:
        if task_id in known:
            continue
        if task_id in inputs.retired:
            problems.append(f"task {task_id!r} is {inputs.retired[task_id]}")
            continue
        close = difflib.get_close_matches(task_id, sorted(known), n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        problems.append(f"no task {task_id!r} in the suite{hint}")
    if problems:
        raise LoadError(inputs.tasks_dir, problems)
    if not task_ids:
        raise TaurecError("the task filter is empty: name at least one task id")
    wanted = set(task_ids)
    return dataclasses.replace(inputs, tasks=[t for t in inputs.tasks if t.id in wanted])
