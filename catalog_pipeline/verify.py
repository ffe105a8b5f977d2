"""Check a snapshot folder against its manifest (every listed file present, with its sha256) before anything reads it."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from catalog_pipeline.manifest import FileEntry, SnapshotManifest
from runner.core.errors import LoadError, describe_validation_error

DATE_DIR = re.compile(r"^\d{4}-\d{2}-\d{2}$")
MANIFEST_NAME = "manifest.json"


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


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
