"""The grocery snapshot folder on disk: atomic write, manifest loading and digest verification."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import tempfile
import time
from pathlib import Path

from pydantic import ValidationError

from domains.grocery.source.manifest import FileEntry, GroceryManifest
from runner.core.durable import fsync_dir
from runner.core.errors import LoadError, describe_validation_error

DATE_DIR = re.compile(r"^\d{4}-\d{2}-\d{2}$")
MANIFEST_NAME = "manifest.json"


def sha256_bytes(data: bytes) -> str:
    """Hex sha256 of some bytes."""
    return hashlib.sha256(data).hexdigest()


def file_entry(data: bytes) -> FileEntry:
    """The manifest entry (size, sha256) of a file's bytes."""
    return FileEntry(bytes=len(data), sha256=sha256_bytes(data))


def write_snapshot_folder(folder: Path, files: dict[str, bytes]) -> None:
    """Make `folder` hold `files` (keeping any other file it had, e.g. one written later), all or
    nothing: the new folder is built beside it under a dot-name, then renamed into place."""
    old = {p.name: p for p in folder.iterdir() if p.is_file()} if folder.is_dir() else {}
    stamp = f"{os.getpid()}-{time.monotonic_ns()}"
    partial = folder.with_name(f".{folder.name}.partial-{stamp}")
    replaced = folder.with_name(f".{folder.name}.replaced-{stamp}")
    try:
        partial.mkdir(parents=True)
        for name, path in sorted(old.items()):
            if name not in files and not name.startswith("."):
                shutil.copy2(path, partial / name)
        for name, data in sorted(files.items()):
            fd, tmp = tempfile.mkstemp(dir=partial, prefix=f".{name}.", suffix=".tmp")
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(tmp, 0o644)
            os.replace(tmp, partial / name)
        fsync_dir(partial)
        if folder.is_dir():
            os.replace(folder, replaced)
        os.replace(partial, folder)
        fsync_dir(folder.parent)
    except BaseException:
        shutil.rmtree(partial, ignore_errors=True)
        if replaced.is_dir() and not folder.exists():
            os.replace(replaced, folder)
        raise
    shutil.rmtree(replaced, ignore_errors=True)


def load_manifest(folder: Path) -> GroceryManifest:
    """The folder's `manifest.json`, validated (LoadError naming field and value otherwise)."""
    path = folder / MANIFEST_NAME
    try:
        return GroceryManifest.model_validate_json(path.read_bytes())
    except FileNotFoundError:
        raise LoadError(path, ["manifest not found"]) from None
    except ValidationError as exc:
        raise LoadError(path, describe_validation_error(exc)) from None


class SnapshotMismatch(LoadError):
    """A snapshot folder whose files do not match its manifest: never used."""


def verify(snapshot_dir: Path | str) -> list[str]:
    """Re-compute every listed file's sha256; one line per mismatch (empty: the folder is intact).

    Checks: each file the manifest lists is present with its size and sha256, the catalog digest
    is catalog.json's, and a dated folder's name is the manifest's date. Files the manifest does
    not list (written later, e.g. a solvability report) are not its to vouch for and are left
    alone. A manifest that does not load raises LoadError.
    """
    folder = Path(snapshot_dir)
    manifest = load_manifest(folder)
    problems: list[str] = []
    present = {p.name for p in folder.iterdir() if p.is_file() and not p.name.startswith(".")}
    for name, entry in sorted(manifest.files.items()):
        if name not in present:
            problems.append(f"{name}: listed in the manifest but missing")
            continue
        data = (folder / name).read_bytes()
        digest = sha256_bytes(data)
        if digest != entry.sha256 or len(data) != entry.bytes:
            problems.append(
                f"{name}: sha256 {digest} ({len(data)} bytes) differs from the manifest's "
                f"{entry.sha256} ({entry.bytes} bytes)"
            )
    catalog = manifest.files.get("catalog.json")
    if catalog is not None and catalog.sha256 != manifest.catalog_digest:
        problems.append(
            f"catalog_digest {manifest.catalog_digest} differs from catalog.json's {catalog.sha256}"
        )
    if DATE_DIR.match(folder.name) and folder.name != manifest.date.isoformat():
        problems.append(
            f"folder name {folder.name} differs from the manifest date {manifest.date.isoformat()}"
        )
    return problems


def verify_or_raise(snapshot_dir: Path | str) -> GroceryManifest:
    """`verify`, raising SnapshotMismatch naming every problem; returns the manifest."""
    folder = Path(snapshot_dir)
    problems = verify(folder)
    if problems:
        raise SnapshotMismatch(folder / MANIFEST_NAME, problems)
    return load_manifest(folder)
