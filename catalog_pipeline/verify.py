"""Check any domain's snapshot folder against its manifest (every listed file present, with its size and sha256) before anything reads it."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict

from catalog_pipeline.manifest import (
    DATE_DIR,
    MANIFEST_NAME,
    FileEntry,
    SnapshotHead,
    load_head,
)
from runner.core.errors import LoadError
from runner.core.item_catalog import ItemCatalog, ItemT


def sha256_bytes(data: bytes) -> str:
    """Hex sha256 of some bytes."""
    return hashlib.sha256(data).hexdigest()


class SnapshotMismatch(LoadError):
    """A snapshot folder whose files do not match its manifest: never used."""


class FileStatus(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    bytes: int
    sha256: str
    status: str  # ok | modified | missing | unlisted


def file_statuses(folder: Path, listed: dict[str, FileEntry]) -> list[FileStatus]:
    """Each listed or present file: ok, modified, missing or unlisted (checked by size and sha256)."""
    files: list[FileStatus] = []
    present = {p.name: p for p in folder.iterdir() if p.is_file() and not p.name.startswith(".")}
    for name in sorted(set(listed) | set(present)):
        if name not in present:
            files.append(FileStatus(name=name, bytes=0, sha256="", status="missing"))
            continue
        data = present[name].read_bytes()
        digest = sha256_bytes(data)
        if name in listed:
            entry = listed[name]
            same = entry.sha256 == digest and entry.bytes == len(data)
            status = "ok" if same else "modified"
        else:
            status = "unlisted"  # manifest.json itself, solvability.json written later
        files.append(FileStatus(name=name, bytes=len(data), sha256=digest, status=status))
    return files


def problems_of(folder: Path, head: SnapshotHead) -> list[str]:
    """One line per mismatch between `folder` and its manifest (empty: the folder is intact).

    Each listed file must be present with its size and sha256, the catalog digest must be
    catalog.json's, and a dated folder's name must be the manifest's date. Files the manifest
    does not list (written later, e.g. a solvability report) are not its to vouch for.
    """
    problems = []
    for f in file_statuses(folder, head.files):
        if f.status == "missing":
            problems.append(f"{f.name}: listed in the manifest but missing")
        elif f.status == "modified":
            entry = head.files[f.name]
            problems.append(
                f"{f.name}: modified (sha256 {f.sha256}, {f.bytes} bytes; the manifest lists "
                f"{entry.sha256}, {entry.bytes} bytes)"
            )
    catalog = head.files.get("catalog.json")
    if catalog is not None and head.catalog_digest not in (None, catalog.sha256):
        problems.append(
            f"catalog_digest {head.catalog_digest} differs from catalog.json's {catalog.sha256}"
        )
    if DATE_DIR.match(folder.name) and folder.name != head.date.isoformat():
        problems.append(
            f"folder name {folder.name} differs from the manifest date {head.date.isoformat()}"
        )
    return problems


def verify_snapshot(folder: Path | str) -> SnapshotHead:
    """Check a snapshot folder of any domain against its manifest before anything reads it.

    Raises SnapshotMismatch naming each problem (LoadError if the manifest does not load);
    returns the manifest's shared fields, its domain among them.
    """
    folder = Path(folder)
    head = load_head(folder)
    problems = problems_of(folder, head)
    if problems:
        raise SnapshotMismatch(folder / MANIFEST_NAME, problems)
    return head


def snapshot_folders(root: Path, refs: list[str]) -> list[Path]:
    """The folders named (a date under `root`, or a path), else every dated folder under `root`."""
    if refs:
        return [root / ref if DATE_DIR.match(ref) else Path(ref) for ref in refs]
    if not root.is_dir():
        return []
    return sorted(p for p in root.iterdir() if p.is_dir() and DATE_DIR.match(p.name))


def verify_folders(folders: list[Path]) -> list[tuple[str, str | None, list[str]]]:
    """(folder, its domain if the manifest says, problems) for each folder, as absolute paths so
    the caller sees which copy was checked (`./2026-11-01` is a downloaded folder)."""
    out: list[tuple[str, str | None, list[str]]] = []
    for folder in folders:
        shown = str(folder.resolve())
        if not folder.is_dir():
            out.append((shown, None, ["snapshot folder not found"]))
            continue
        try:
            head = verify_snapshot(folder)
        except SnapshotMismatch as exc:
            out.append((shown, load_head(folder).domain, exc.problems))
        except LoadError as exc:
            out.append((shown, None, exc.problems))
        else:
            out.append((shown, head.domain, []))
    return out


def verify_snapshots(root: Path, refs: list[str]) -> list[tuple[str, list[str]]]:
    """(folder, problems) for each snapshot named (a date under `root`, or a path), else all."""
    return [(f, p) for f, _, p in verify_folders(snapshot_folders(root, refs))]


def verify_problems(folder: Path | str) -> list[str]:
    """`problems_of` a folder (empty: intact); a manifest that does not load raises LoadError."""
    folder = Path(folder)
    return problems_of(folder, load_head(folder))


class SourceCatalog(ItemCatalog[ItemT]):
    """A source's catalog, whose snapshot folder is checked before it is read: every file against
    the manifest (any domain's), then every field of the source's own manifest (the `manifest`
    reader a subclass names: `class Catalog(SourceCatalog[Item], manifest=load_manifest)`)."""

    read_manifest: ClassVar[Callable[[Path], object]]

    def __init_subclass__(cls, manifest: Callable[[Path], object], **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.read_manifest = staticmethod(manifest)

    @classmethod
    def verify_folder(cls, folder: Path) -> None:
        verify_snapshot(folder)
        cls.read_manifest(folder)
