"""Any domain's snapshot folder on disk: atomic writes, the dated folders, and a checked listing."""

from __future__ import annotations

import datetime as dt
import os
import shutil
import tempfile
import time
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from catalog_pipeline.manifest import DATE_DIR, FileEntry, SnapshotHead, load_head
from catalog_pipeline.verify import FileStatus, file_statuses, sha256_bytes
from runner.core.durable import fsync_dir
from runner.core.errors import LoadError


def file_entry(data: bytes) -> FileEntry:
    """The manifest entry (size, sha256) of a file's bytes."""
    return FileEntry(bytes=len(data), sha256=sha256_bytes(data))


def write_atomic(path: Path, data: bytes, *, durable: bool = True) -> None:
    """Replace `path` with `data` via a temp file and rename (never a half-written file).

    `durable` also flushes the bytes to disk before the rename (a snapshot's files); a cache
    entry, which can always be fetched again, skips that.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            if durable:
                handle.flush()
                os.fsync(handle.fileno())
        os.chmod(tmp, 0o644)  # mkstemp creates 0600; snapshots are meant to be shared
        os.replace(tmp, path)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            exc.filename = exc.filename or str(path)
        raise


def write_snapshot_folder(folder: Path, files: dict[str, bytes]) -> list[str]:
    """Make `folder` hold `files` (and keep any other file it had, e.g. solvability.json), all
    or nothing: the new folder is built beside it under a dot-name, then renamed into place, so
    a full disk or a kill mid-write never leaves a half snapshot under a date. Returns the names
    whose bytes changed (none: nothing is written)."""
    old = {p.name: p for p in folder.iterdir() if p.is_file()} if folder.is_dir() else {}
    changed = [n for n, data in files.items() if n not in old or old[n].read_bytes() != data]
    if not changed:
        return []
    stamp = f"{os.getpid()}-{time.monotonic_ns()}"
    partial = folder.with_name(f".{folder.name}.partial-{stamp}")
    replaced = folder.with_name(f".{folder.name}.replaced-{stamp}")
    try:
        partial.mkdir(parents=True)
        for name, path in old.items():
            if name not in files and not name.startswith("."):
                shutil.copy2(path, partial / name)
        for name, data in files.items():
            write_atomic(partial / name, data)
        fsync_dir(partial)
        if folder.is_dir():
            os.replace(folder, replaced)
        os.replace(partial, folder)
        fsync_dir(folder.parent)
    except BaseException:
        shutil.rmtree(partial, ignore_errors=True)
        if replaced.is_dir() and not folder.exists():
            os.replace(replaced, folder)  # put the complete old snapshot back
        raise
    shutil.rmtree(replaced, ignore_errors=True)
    return changed


def snapshot_dates(root: Path) -> list[dt.date]:
    """Dates of the snapshot folders under `root` that hold a catalog.json, oldest first."""
    if not root.is_dir():
        return []
    dates = []
    for child in root.iterdir():
        if child.is_dir() and DATE_DIR.match(child.name) and (child / "catalog.json").exists():
            try:
                dates.append(dt.date.fromisoformat(child.name))
            except ValueError:
                continue
    return sorted(dates)


class SnapshotInfo(BaseModel):
    """One row of `taurec catalog list`: any domain's snapshot, as its manifest's shared fields say."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    date: dt.date
    path: str
    domain: str | None
    source: str | None
    items: int | None
    total_bytes: int
    catalog_digest: str | None
    retention_until: dt.date | None
    expired: bool
    checksums_ok: bool
    files: list[FileStatus]
    problem: str | None = None


def describe_snapshot(folder: Path, *, today: dt.date | None = None) -> SnapshotInfo:
    """Sizes and checksums of one folder, checked against its manifest."""
    today = today or dt.date.today()
    date = dt.date.fromisoformat(folder.name)
    problem = None
    manifest: SnapshotHead | None = None
    try:
        manifest = load_head(folder)
    except LoadError as exc:
        problem = str(exc)
    files = file_statuses(folder, manifest.files if manifest else {})
    if manifest is not None and manifest.date != date:
        problem = f"folder name {folder.name} differs from the manifest date {manifest.date}"
    return SnapshotInfo(
        date=date,
        path=str(folder),
        domain=manifest.domain if manifest else None,
        source=manifest.source if manifest else None,
        items=manifest.counts.get("items") if manifest else None,
        total_bytes=sum(f.bytes for f in files),
        catalog_digest=manifest.catalog_digest if manifest else None,
        retention_until=manifest.retention_until if manifest else None,
        expired=bool(manifest and manifest.retention_until and manifest.retention_until < today),
        checksums_ok=manifest is not None
        and problem is None
        and all(f.status in ("ok", "unlisted") for f in files),
        files=files,
        problem=problem,
    )


def list_snapshots(root: Path | str, *, today: dt.date | None = None) -> list[SnapshotInfo]:
    """Every dated snapshot folder under `root`: sizes, checksums (verified), retention."""
    root = Path(root)
    if not root.is_dir():
        return []
    folders = sorted(p for p in root.iterdir() if p.is_dir() and DATE_DIR.match(p.name))
    return [describe_snapshot(folder, today=today) for folder in folders]
