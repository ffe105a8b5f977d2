"""Retention: delete snapshots past their manifest's `retention_until` (and the transcripts run on them), logging each prune.

Only a source whose terms bound how long its data may be kept writes `retention_until` (TMDB); a
snapshot without one (grocery's, under the ODbL) and fixture snapshots are never pruned.
"""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from catalog_pipeline.manifest import DATE_DIR, load_head
from runner.core.json_files import read_jsonl

PRUNE_LOG = "prune-log.jsonl"
PRUNED_DIR = "pruned"  # <snapshots>/pruned/<date>/ keeps manifest.json and ids.json
TRANSCRIPTS_DIR = "transcripts"


class PruneRecord(BaseModel):
    """One line of `prune-log.jsonl`: a snapshot removed because its retention date passed."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    schema_version: Literal[1] = 1
    snapshot: dt.date
    pruned_on: dt.date
    retention_until: dt.date
    source: str
    reason: str
    removed: list[str] = Field(description="Paths removed, relative to the repository root given")
    ids_kept: bool = Field(
        description="ids.json was kept under pruned/<date>/, so the catalog can be re-hydrated"
    )


def _rel(path: Path, base: Path) -> str:
    try:
        return path.resolve().relative_to(base.resolve()).as_posix()
    except ValueError:
        return str(path)


def prune_snapshots(
    snapshots: Path,
    *,
    submissions: Path | None = None,
    today: dt.date | None = None,
    base: Path | None = None,
    dry_run: bool = False,
) -> list[PruneRecord]:
    """Remove every snapshot (fixtures aside) whose manifest's `retention_until` is before `today`.

    The snapshot folder goes (e.g. TMDB's terms bound how long its data may be kept); its
    `manifest.json` and `ids.json` move to `<snapshots>/pruned/<date>/`, so it can still be
    re-hydrated and its runs stay explained. Runs on
    it keep their scores (`trials.jsonl`, `run.json`) but lose their transcripts, which quote the
    catalog. Fixture snapshots are our own fictional data and are never pruned. Each prune is
    appended to `<snapshots>/prune-log.jsonl`; an unreadable manifest is an error naming it.
    """
    today = today or dt.date.today()
    base = base or snapshots.parent
    records: list[PruneRecord] = []
    if not snapshots.is_dir():
        return records
    for folder in sorted(p for p in snapshots.iterdir() if p.is_dir() and DATE_DIR.match(p.name)):
        manifest = load_head(folder)
        if (
            manifest.source == "fixture"
            or manifest.retention_until is None
            or manifest.retention_until >= today
        ):
            continue
        doomed = [folder]
        if submissions is not None and submissions.is_dir():
            doomed += sorted(
                p
                for p in submissions.glob(f"*/results/{folder.name}/{TRANSCRIPTS_DIR}")
                if p.is_dir()
            )
        record = PruneRecord(
            snapshot=manifest.date,
            pruned_on=today,
            retention_until=manifest.retention_until,
            source=manifest.source,
            reason=f"retention date {manifest.retention_until} passed ({manifest.source.upper()}-derived data)",
            removed=[_rel(p, base) for p in doomed],
            ids_kept=(folder / "ids.json").exists(),
        )
        records.append(record)
        if dry_run:
            continue
        kept = snapshots / PRUNED_DIR / folder.name
        kept.mkdir(parents=True, exist_ok=True)
        for name in ("manifest.json", "ids.json"):
            if (folder / name).exists():
                shutil.copyfile(folder / name, kept / name)
        for path in doomed:
            if path.is_dir():
                shutil.rmtree(path)
            else:
                path.unlink()
        with (snapshots / PRUNE_LOG).open("a", encoding="utf-8") as log:
            log.write(record.model_dump_json() + "\n")
    return records


def read_prune_log(snapshots: Path) -> list[PruneRecord]:
    """Every logged prune, oldest first; a bad line is an error naming the file and line."""
    return read_jsonl(snapshots / PRUNE_LOG, PruneRecord)
