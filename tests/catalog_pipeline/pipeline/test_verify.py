"""A snapshot whose files don't match its manifest is refused by every command that reads it, and by `catalog verify`/`list`."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from catalog_pipeline.verify import SnapshotMismatch, verify_snapshot
from domains.movies.catalog import Catalog
from runner.core.paths import SNAPSHOTS_DIR, TASKS_DIR

DATE = "2026-11-01"
TAUREC = str(Path(sys.executable).with_name("taurec"))


def taurec(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([TAUREC, *args], capture_output=True, text=True, timeout=300)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    shutil.copytree(SNAPSHOTS_DIR / DATE, tmp_path / "snapshots" / DATE)
    return tmp_path / "snapshots"


def tamper(folder: Path) -> None:
    catalog = json.loads((folder / "catalog.json").read_text())
    catalog[0]["title"] = "A Title Nobody Released"
    (folder / "catalog.json").write_text(json.dumps(catalog))


def test_an_untouched_snapshot_verifies(root: Path) -> None:
    assert verify_snapshot(root / DATE).date.isoformat() == DATE
    done = taurec("catalog", "verify", "--root", str(root))
    assert done.returncode == 0, done.stdout
    assert Catalog.load(root / DATE)


def test_a_modified_file_is_refused_everywhere(root: Path) -> None:
    # Before: flagged only by `catalog list` (exit 0); run, validate, score and site build used it.
    folder = root / DATE
    tamper(folder)
    with pytest.raises(SnapshotMismatch, match=r"catalog\.json: modified"):
        Catalog.load(folder)
    verify = taurec("catalog", "verify", "--root", str(root))
    assert verify.returncode == 1
    assert "catalog.json: modified" in verify.stdout
    listing = taurec("catalog", "list", "--root", str(root))
    assert listing.returncode == 1
    assert "CHECKSUM MISMATCH" in listing.stdout
    validate = taurec("tasks", "validate", "--catalog", str(folder), "--tasks", str(TASKS_DIR))
    assert validate.returncode == 2
    assert "catalog.json: modified" in validate.stderr
    trial = taurec(
        "trial", "--task", "task_001", "--catalog", str(folder), "--tasks", str(TASKS_DIR)
    )
    assert trial.returncode == 2, trial.stdout
    assert "catalog.json: modified" in trial.stderr


def test_a_renamed_folder_is_refused(root: Path) -> None:
    # A made-up label: the folder says 2099-01-01, the manifest another date.
    shutil.move(root / DATE, root / "2099-01-01")
    with pytest.raises(SnapshotMismatch, match="differs from the manifest date"):
        Catalog.load(root / "2099-01-01")
    done = taurec("catalog", "verify", "2099-01-01", "--root", str(root))
    assert done.returncode == 1


def test_a_missing_file_is_refused(root: Path) -> None:
    (root / DATE / "ids.json").unlink()
    with pytest.raises(SnapshotMismatch, match=r"ids\.json: listed in the manifest but missing"):
        verify_snapshot(root / DATE)


def test_a_tampered_ids_file_is_not_hydrated_under_the_same_date(root: Path) -> None:
    from catalog_pipeline.tmdb.pipeline import hydrate
    from runner.core.errors import TaurecError

    ids = root / DATE / "ids.json"
    data = json.loads(ids.read_text())
    data["tmdb_ids"] = data["tmdb_ids"][:-1]
    ids.write_text(json.dumps(data))
    with pytest.raises(TaurecError, match="ids file was changed after the snapshot was written"):
        hydrate(ids, out=root / "out", source="fixture")
