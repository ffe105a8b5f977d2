"""The snapshot folder on disk: atomic writes, the previous snapshot, and a checked listing."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import re
import shutil
import tempfile
import time
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from catalog_pipeline.manifest import FileEntry, SnapshotManifest
from runner.catalog import Catalog
from runner.durable import fsync_dir
from runner.errors import LoadError, describe_validation_error

DATE_DIR = re.compile(r"^\d{4}-\d{2}-\d{2}$")
MANIFEST_NAME = "manifest.json"


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def file_entry(data: bytes) -> FileEntry:
    return FileEntry(bytes=len(data), sha256=sha256_bytes(data))


def write_atomic(path: Path, data: bytes) -> None:
    """Replace `path` with `data` via a temp file and rename (never a half-written file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
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


def previous_snapshot(root: Path, date: dt.date) -> tuple[dt.date, Catalog] | None:
    """The latest snapshot strictly before `date` under `root`, loaded."""
    earlier = [d for d in snapshot_dates(root) if d < date]
    if not earlier:
        return None
    return earlier[-1], Catalog.load(root / earlier[-1].isoformat())


def load_manifest(folder: Path) -> SnapshotManifest:
    path = folder / MANIFEST_NAME
    try:
        return SnapshotManifest.model_validate_json(path.read_bytes())
    except FileNotFoundError:
        raise LoadError(path, ["manifest not found"]) from None
    except ValidationError as exc:
        raise LoadError(path, describe_validation_error(exc)) from None


class SnapshotMismatch(LoadError):
    """A snapshot folder whose files do not match its manifest: never used."""


def _file_statuses(folder: Path, listed: dict[str, FileEntry]) -> list[FileStatus]:
    """Each listed or present file: ok, modified, missing or unlisted (checked by sha256)."""
    files: list[FileStatus] = []
    present = {p.name: p for p in folder.iterdir() if p.is_file() and not p.name.startswith(".")}
    for name in sorted(set(listed) | set(present)):
        if name not in present:
            files.append(FileStatus(name=name, bytes=0, sha256="", status="missing"))
            continue
        data = present[name].read_bytes()
        digest = sha256_bytes(data)
        if name in listed:
            status = "ok" if listed[name].sha256 == digest else "modified"
        else:
            status = "unlisted"  # manifest.json itself, solvability.json written later
        files.append(FileStatus(name=name, bytes=len(data), sha256=digest, status=status))
    return files


def verify_snapshot(folder: Path | str) -> SnapshotManifest:
    """Check a snapshot folder against its manifest before anything reads it.

    Every listed file must be present with its sha256, and a dated folder's name must be the
    manifest's date. Raises SnapshotMismatch naming each problem; returns the manifest.
    """
    folder = Path(folder)
    manifest = load_manifest(folder)
    problems = [
        f"{f.name}: {f.status} (sha256 differs from the manifest)"
        if f.status == "modified"
        else f"{f.name}: listed in the manifest but missing"
        for f in _file_statuses(folder, manifest.files)
        if f.status in ("modified", "missing")
    ]
    if DATE_DIR.match(folder.name) and folder.name != manifest.date.isoformat():
        problems.append(
            f"folder name {folder.name} differs from the manifest date {manifest.date.isoformat()}"
        )
    if problems:
        raise SnapshotMismatch(folder / MANIFEST_NAME, problems)
    return manifest


def verify_snapshots(root: Path, refs: list[str]) -> list[tuple[str, list[str]]]:
    """(folder, problems) for each snapshot named (a date under `root`, or a path), else all.

    Folders are given as absolute paths, so the caller can see which copy was checked: a bare
    date is the snapshot under `root`, `./2026-11-01` a downloaded folder.
    """
    if refs:
        folders = [root / ref if DATE_DIR.match(ref) else Path(ref) for ref in refs]
    else:
        folders = (
            sorted(p for p in root.iterdir() if p.is_dir() and DATE_DIR.match(p.name))
            if root.is_dir()
            else []
        )
    out: list[tuple[str, list[str]]] = []
    for folder in folders:
        shown = str(folder.resolve())
        try:
            verify_snapshot(folder)
        except LoadError as exc:
            out.append((shown, exc.problems))
        else:
            out.append((shown, []))
    return out


class FileStatus(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    bytes: int
    sha256: str
    status: str  # ok | modified | missing | unlisted


class SnapshotInfo(BaseModel):
    """One row of `taurec catalog list`."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    date: dt.date
    path: str
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
    manifest: SnapshotManifest | None = None
    try:
        manifest = load_manifest(folder)
    except LoadError as exc:
        problem = str(exc)
    files = _file_statuses(folder, manifest.files if manifest else {})
    if manifest is not None and manifest.date != date:
        problem = f"folder name {folder.name} differs from the manifest date {manifest.date}"
    return SnapshotInfo(
        date=date,
        path=str(folder),
        source=manifest.source if manifest else None,
        items=manifest.counts.items if manifest else None,
        total_bytes=sum(f.bytes for f in files),
        catalog_digest=manifest.catalog_digest if manifest else None,
        retention_until=manifest.retention_until if manifest else None,
        expired=bool(manifest and manifest.retention_until < today),
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


def read_json(path: Path) -> object:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise LoadError(path, ["file not found"]) from None
    except json.JSONDecodeError as exc:
        raise LoadError(path, [f"invalid JSON at line {exc.lineno}: {exc.msg}"]) from None
