"""Read what the site is built from: submissions with their results, snapshot folders and tasks."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from runner.batch.archive import describe_missing, missing_transcripts
from runner.batch.store import read_manifest, read_trials
from runner.core.domains import DEFAULT_DOMAIN, get_domain
from runner.core.errors import LoadError
from runner.core.json_files import read_json
from runner.core.records import RunManifest, TranscriptSpan, TrialRecord
from runner.core.rules import DEFAULT_RULES
from runner.publish.ledger import LEDGER_FILE, LedgerEntry, load_ledger, verified_entry
from runner.sitegen.trials import read_trials_frame
from runner.submissions.config import Submission, load_submission
from runner.submissions.links import refuse_links

SNAPSHOT_DOWNLOADS = ("catalog.json", "catalog.parquet", "catalog.csv", "ids.json")
SNAPSHOT_FILES = (*SNAPSHOT_DOWNLOADS, "manifest.json", "changes.json", "solvability.json")
# What a TMDB-sourced snapshot may publish: ids and how they were chosen, never TMDB's data.
TMDB_PUBLISHABLE = ("ids.json", "manifest.json")
SHA256SUMS = "SHA256SUMS"


@dataclass
class Run:
    """One (submission, snapshot) results folder: its trials as a flat frame, and its manifest."""

    slug: str
    snapshot: str
    folder: Path
    frame: pl.DataFrame
    manifest: RunManifest | None
    ledger_entry: LedgerEntry | None = None

    def records(self) -> list[TrialRecord]:
        """The full, validated trial records (read on demand: trial pages need them)."""
        return read_trials(self.folder).records

    @property
    def verified(self) -> bool:
        """In the refresh workflow's ledger with matching digests (a typed `verified_by` is not)."""
        return self.ledger_entry is not None


@dataclass
class Entry:
    """One submission folder: its config and its runs, one per snapshot label."""

    slug: str
    folder: Path
    submission: Submission
    runs: list[Run]


@dataclass
class SnapshotInfo:
    """A dated snapshot folder with what the Snapshots page shows."""

    label: str
    folder: Path
    manifest: dict[str, Any]
    catalog: Any  # the domain's catalog (a runner.core.domain.DomainCatalog)
    sha256: dict[str, str]
    solvability: dict[str, dict[str, Any]]
    date: dt.date | None
    domain: str = DEFAULT_DOMAIN

    @property
    def from_tmdb(self) -> bool:
        return self.manifest.get("source") == "tmdb"

    @property
    def latest_release(self) -> dt.date | None:
        """The newest item's date (movies: release date; grocery: first listing)."""
        owner = get_domain(self.domain)
        dates = (owner.item_date(item) for item in self.catalog)
        return max((d for d in dates if d is not None), default=None)

    @property
    def licence_notice(self) -> str | None:
        """The notice every copy of this snapshot carries (a domain's sources may require one)."""
        return get_domain(self.domain).licence_notice(self.manifest)

    @property
    def retention_date(self) -> str | None:
        for key in ("retention_until", "retention_date", "retention"):
            value = self.manifest.get(key)
            if isinstance(value, str):
                return value
        return None

    @property
    def attribution(self) -> list[str]:
        value = self.manifest.get("attribution")
        if isinstance(value, str):
            return [value]
        if isinstance(value, list):
            return [str(v) for v in value]
        if isinstance(value, dict):
            return [str(v) for v in value.values()]
        return []

    @property
    def counts(self) -> dict[str, Any]:
        value = self.manifest.get("counts")
        return dict(value) if isinstance(value, dict) else {"items": len(self.catalog)}


@dataclass(frozen=True)
class LeftOut:
    """A results folder the boards do not show, and why (the Changelog's removal log cites it)."""

    slug: str
    label: str
    reason: str


@dataclass
class SiteInputs:
    """Everything one build reads, plus notes about what loading had to skip or repair."""

    entries: list[Entry]
    snapshots: list[SnapshotInfo]
    tasks: list[Any]  # the domain's tasks (each a runner.core.domain.DomainTask)
    notes: list[str] = field(default_factory=list)
    prunes: list[Any] = field(default_factory=list)  # the domain's prune log (Domain.prune_records)
    left_out: list[LeftOut] = field(default_factory=list)
    domain: str = DEFAULT_DOMAIN
    # Where this board's pages live under the site root: "" for movies, "grocery/" for grocery.
    prefix: str = ""

    @property
    def runs(self) -> list[Run]:
        return [run for entry in self.entries for run in entry.runs]


def load_entries(
    submissions_dir: Path,
    notes: list[str],
    rules: str = DEFAULT_RULES,
    left_out: list[LeftOut] | None = None,
    domain: str = DEFAULT_DOMAIN,
) -> list[Entry]:
    """Every `submissions/<slug>/` entering `domain`, with its runs under the board's rule set.

    A board never mixes rule sets: a run under another rule set is left out, with a note (and,
    with `left_out`, a record of the folder and the reason). Nor domains: an entry that does not
    enter `domain` is not on its board, and a run of another domain is left to that domain's.
    """
    skipped = left_out if left_out is not None else []
    entries: list[Entry] = []
    if not submissions_dir.is_dir():
        notes.append(f"{submissions_dir}: no submissions folder")
        return entries
    # A linked entry or results folder would show another entry's scores (and badge) as its own.
    refuse_links(submissions_dir)
    for folder in sorted(p for p in submissions_dir.iterdir() if p.is_dir()):
        if folder.name.startswith((".", "_")):
            continue
        if not (folder / "submission.yaml").exists():
            notes.append(f"{folder}: no submission.yaml, skipped")
            continue
        submission = load_submission(folder)
        if domain not in submission.domains:
            continue
        runs: list[Run] = []
        results = folder / "results"
        if results.is_dir():
            for run_dir in sorted(p for p in results.iterdir() if p.is_dir()):
                manifest = read_manifest(run_dir)
                ran_on = manifest.domain if manifest is not None else DEFAULT_DOMAIN
                if ran_on != domain:
                    continue  # on the board of its own domain
                frame = read_trials_frame(run_dir, submission.slug, run_dir.name, notes)
                if frame.is_empty():
                    notes.append(f"{run_dir}: no trial records, skipped")
                    status = f" (run {manifest.status})" if manifest is not None else ""
                    skipped.append(
                        LeftOut(
                            submission.slug, run_dir.name, f"its run left no trial records{status}"
                        )
                    )
                    continue
                if manifest is not None and manifest.rules != rules:
                    notes.append(
                        f"{run_dir}: ran under rule set {manifest.rules}, this board shows "
                        f"{rules} only; left out"
                    )
                    skipped.append(
                        LeftOut(
                            submission.slug,
                            run_dir.name,
                            f"it ran under rule set {manifest.rules}; this board shows {rules} only",
                        )
                    )
                    continue
                pointers = frame.select("transcript", "transcript_offset", "transcript_length")
                missing = missing_transcripts(
                    run_dir,
                    (
                        (name, None if at is None else TranscriptSpan(offset=at, length=length))
                        for name, at, length in pointers.iter_rows()
                    ),
                )
                if missing:
                    notes.append(
                        f"{run_dir}: {len(missing)} transcript(s) missing, those trials cannot be "
                        f"checked: {describe_missing(missing)}"
                    )
                runs.append(Run(submission.slug, run_dir.name, run_dir, frame, manifest))
        entries.append(Entry(submission.slug, folder, submission, runs))
    return entries


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _solvability(path: Path) -> dict[str, dict[str, Any]]:
    """Per task id, what helper C's `solvability.json` says (tolerant of a list or a mapping)."""
    if not path.exists():
        return {}
    raw = read_json(path)
    if isinstance(raw, dict) and "tasks" in raw:
        raw = raw["tasks"]
    out: dict[str, dict[str, Any]] = {}
    if isinstance(raw, dict):
        out = {str(k): v for k, v in raw.items() if isinstance(v, dict)}
    elif isinstance(raw, list):
        for row in raw:
            if isinstance(row, dict):
                task_id = row.get("task_id", row.get("id"))
                if task_id is not None:
                    out[str(task_id)] = row
    return out


def load_snapshots(
    snapshots_dir: Path, notes: list[str], domain: str = DEFAULT_DOMAIN
) -> list[SnapshotInfo]:
    """Every snapshot folder holding a catalog, oldest first; another domain's labels carry its
    name (`grocery-2026-11-01`), as its results folders do."""
    owner = get_domain(domain)
    found: list[SnapshotInfo] = []
    if not snapshots_dir.is_dir():
        notes.append(f"{snapshots_dir}: no snapshots folder")
        return found
    for folder in sorted(p for p in snapshots_dir.iterdir() if p.is_dir()):
        if not (folder / "catalog.json").exists():
            continue
        manifest_path = folder / "manifest.json"
        manifest: dict[str, Any] = {}
        if manifest_path.exists():
            try:
                loaded = json.loads(manifest_path.read_text(encoding="utf-8"))
            except json.JSONDecodeError as exc:
                raise LoadError(manifest_path, [f"invalid JSON: {exc.msg}"]) from exc
            manifest = loaded if isinstance(loaded, dict) else {}
        try:
            date: dt.date | None = dt.date.fromisoformat(folder.name)
        except ValueError:
            date = None
        files = SNAPSHOT_FILES
        found.append(
            SnapshotInfo(
                label=folder.name if domain == DEFAULT_DOMAIN else f"{domain}-{folder.name}",
                folder=folder,
                manifest=manifest,
                catalog=owner.load_catalog(folder),
                sha256={f: _sha256(folder / f) for f in files if (folder / f).exists()},
                solvability=_solvability(folder / "solvability.json"),
                date=date,
                domain=domain,
            )
        )
    return found


def _drop_unknown_dates(
    entries: list[Entry], labels: set[str], notes: list[str], left_out: list[LeftOut]
) -> None:
    """A dated results folder needs its snapshot: a made-up label (`2099-01-01`) is no board."""
    for entry in entries:
        kept = []
        for run in entry.runs:
            if _DATE_LABEL.match(_date_part(run.snapshot)) and run.snapshot not in labels:
                notes.append(f"{run.folder}: no snapshot {run.snapshot}, not a board: skipped")
                left_out.append(
                    LeftOut(run.slug, run.snapshot, f"there is no snapshot folder {run.snapshot}")
                )
            else:
                kept.append(run)
        entry.runs[:] = kept


_DATE_LABEL = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def _date_part(label: str) -> str:
    """`2026-11-01` of `grocery-2026-11-01` (a movies label is the date itself)."""
    return label[-10:] if len(label) > 10 and label[-11] == "-" else label


def published_files(snap: SnapshotInfo) -> tuple[str, ...]:
    """The snapshot files the site publishes: ids + manifest for TMDB data (its terms), all for ours."""
    return TMDB_PUBLISHABLE if snap.from_tmdb else SNAPSHOT_FILES


def load_inputs(
    submissions_dir: Path,
    snapshots_dir: Path,
    tasks_dir: Path,
    rules: str = DEFAULT_RULES,
    domain: str = DEFAULT_DOMAIN,
    prefix: str = "",
) -> SiteInputs:
    """Load one board's inputs: the submissions entering `domain` (runs under `rules` and of that
    domain only), its snapshots and tasks; problems raise LoadError. `prefix` is where the
    board's pages go under the site root (e.g. `grocery/`)."""
    notes: list[str] = []
    left_out: list[LeftOut] = []
    entries = load_entries(Path(submissions_dir), notes, rules, left_out, domain)
    ledger = load_ledger(Path(submissions_dir) / LEDGER_FILE)
    for run in (r for e in entries for r in e.runs):
        run.ledger_entry = verified_entry(run.folder, run.manifest, ledger)
        if run.ledger_entry is None and run.manifest is not None and run.manifest.verified_by:
            notes.append(
                f"{run.folder}: run.json names a workflow run but the ledger does not vouch for "
                "these files; shown as self-reported"
            )
    snapshots = load_snapshots(Path(snapshots_dir), notes, domain)
    _drop_unknown_dates(entries, {s.label for s in snapshots}, notes, left_out)
    owner = get_domain(domain)
    folder = Path(tasks_dir)
    # A suite folder with no task file yet (a new domain's) is an empty Tasks page, not an error.
    has_tasks = any(p.name != "suite.json" for p in folder.glob("*.json"))
    loads = folder.is_dir() and (has_tasks or domain == DEFAULT_DOMAIN)
    tasks = list(owner.load_tasks(folder)) if loads else []
    if not tasks:
        notes.append(f"{tasks_dir}: no tasks folder")
    prunes = owner.prune_records(Path(snapshots_dir))
    return SiteInputs(entries, snapshots, tasks, notes, prunes, left_out, domain, prefix)
