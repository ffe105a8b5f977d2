"""Resolve what a run reads: its domain, the snapshot (date, folder or catalog.json), the task suite, its policy, and their digests."""

from __future__ import annotations

import dataclasses
import datetime as dt
import difflib
import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from runner.core.domain import SUITE_MARKER, Domain
from runner.core.domains import DEFAULT_DOMAIN, get_domain
from runner.core.errors import LoadError, TaurecError
from runner.core.generation import suite_domain
from runner.core.transcript import Provenance

_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


@dataclass(frozen=True)
class Snapshot:
    """A resolved snapshot: its catalog, the label used for the results folder, and its date if known."""

    catalog: Any = field(repr=False)
    label: str
    path: Path
    date: dt.date | None


@dataclass(frozen=True)
class RunInputs:
    """Everything a run reads, loaded once and shared by every trial."""

    snapshot: Snapshot
    tasks: list[Any] = field(repr=False)
    retired: dict[str, str]
    tasks_dir: Path
    policy_path: Path
    policy_text: str = field(repr=False)
    catalog_digest: str
    task_suite_digest: str
    policy_digest: str
    domain: Domain = field(default_factory=lambda: get_domain(DEFAULT_DOMAIN), repr=False)

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


def text_digest(path: Path | str) -> str:
    """sha256 of a file's bytes (the policy document)."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def domain_of_suite(tasks_dir: Path) -> Domain:
    """The domain a suite folder names in its `suite.json` (movies when it has none)."""
    return get_domain(suite_domain(tasks_dir) or DEFAULT_DOMAIN)


def _domain(domain: Domain | str | None, tasks_dir: Path | None) -> Domain:
    if isinstance(domain, Domain):
        return domain
    if domain is not None:
        return get_domain(domain)
    return domain_of_suite(tasks_dir) if tasks_dir is not None else get_domain(DEFAULT_DOMAIN)


def dated_snapshots(snapshots_dir: Path | None = None) -> list[Path]:
    """Dated snapshot folders (`YYYY-MM-DD/` holding a catalog.json), oldest first."""
    snapshots_dir = snapshots_dir or get_domain(DEFAULT_DOMAIN).snapshots_dir
    if not snapshots_dir.is_dir():
        return []
    return sorted(
        p
        for p in snapshots_dir.iterdir()
        if p.is_dir() and _parse_date(p.name) and (p / "catalog.json").exists()
    )


def resolve_snapshot(
    spec: str | Path | None,
    snapshots_dir: Path | None = None,
    *,
    domain: Domain | str | None = None,
) -> Snapshot:
    """`None` → the latest dated snapshot; `YYYY-MM-DD` → `<snapshots_dir>/<date>/`; otherwise a path.

    A path may be a snapshot folder (holding catalog.json) or a bare catalog.json. The label is the
    date, or the folder's name for a path (the folder holding catalog.json for a bare file); a
    domain other than movies prefixes its name (`grocery-2026-11-01`), so its results never share
    a folder with another domain's. `snapshots_dir` defaults to the domain's.
    """
    owner = _domain(domain, None)
    snapshots_dir = snapshots_dir or owner.snapshots_dir
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
    catalog = owner.load_catalog(folder)
    folder = folder.resolve()
    label_dir = folder.parent if folder.is_file() else folder
    label = label_dir.name if owner.name == DEFAULT_DOMAIN else f"{owner.name}-{label_dir.name}"
    return Snapshot(catalog=catalog, label=label, path=folder, date=_parse_date(label_dir.name))


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


def is_retired(task: Any, snapshot_date: dt.date | None) -> bool:
    """A task with `retired` set is out from its `since` date on (always, when the snapshot has no date)."""
    retired = getattr(task, "retired", None)
    if retired is None:
        return False
    return snapshot_date is None or snapshot_date >= retired.since


def load_inputs(
    snapshot: str | Path | None = None,
    tasks_dir: str | Path | None = None,
    *,
    snapshots_dir: Path | None = None,
    domain: Domain | str | None = None,
) -> RunInputs:
    """Load the snapshot, the tasks (retired ones set aside, never silently) and the policy once.

    The domain is the one named, else the one the suite folder names, else movies; the task
    folder and the snapshots folder default to the domain's own."""
    owner = _domain(domain, None if tasks_dir is None else Path(tasks_dir))
    if tasks_dir is not None and domain is not None:
        named = domain_of_suite(Path(tasks_dir))
        if named.name != owner.name:
            raise LoadError(
                Path(tasks_dir),
                [f"this suite is a {named.name} suite (its {SUITE_MARKER}), not {owner.name}"],
            )
    snap = resolve_snapshot(snapshot, snapshots_dir, domain=owner)
    tdir = Path(tasks_dir) if tasks_dir is not None else owner.tasks_dir
    all_tasks = list(owner.load_tasks(tdir))
    policy_path = owner.policy_path(tdir)
    retired = {
        t.id: f"retired since {t.retired.since}: {t.retired.reason}"
        for t in all_tasks
        if is_retired(t, snap.date)
    }
    folder = snap.path.parent if snap.path.is_file() else snap.path
    retired |= owner.retired_by_gate(folder, all_tasks)
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
        task_suite_digest=owner.tasks_digest(all_tasks),
        policy_digest=text_digest(policy_path),
        domain=owner,
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
