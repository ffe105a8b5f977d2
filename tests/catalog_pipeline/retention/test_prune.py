"""Retention: an expired TMDB snapshot disappears on `taurec catalog prune`, logged, ids kept."""

from __future__ import annotations

import datetime as dt
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from catalog_pipeline.prune import PRUNE_LOG, prune_snapshots, read_prune_log
from catalog_pipeline.snapshot import list_snapshots
from catalog_pipeline.tmdb.provenance import load_manifest
from runner.cli import cli
from runner.core.errors import LoadError
from runner.core.paths import SNAPSHOTS_DIR

COMMITTED = sorted(p for p in SNAPSHOTS_DIR.iterdir() if p.is_dir())[-1]


def _snapshot(root: Path, date: str, source: str, retention: str) -> Path:
    """A copy of the committed snapshot, relabelled with a date, a source and a retention date."""
    folder = root / "snapshots" / date
    shutil.copytree(COMMITTED, folder)
    manifest = load_manifest(folder).model_copy(
        update={
            "date": dt.date.fromisoformat(date),
            "source": source,
            "retention_until": dt.date.fromisoformat(retention),
        }
    )
    (folder / "manifest.json").write_bytes(manifest.to_json_bytes())
    return folder


def _run_on(root: Path, slug: str, date: str) -> Path:
    run = root / "submissions" / slug / "results" / date
    (run / "transcripts").mkdir(parents=True)
    (run / "transcripts" / "t1.json").write_text("{}")
    (run / "trials.jsonl").write_text("{}\n")
    return run


def test_expired_tmdb_snapshot_is_pruned_logged_and_rehydratable(tmp_path: Path) -> None:
    expired = _snapshot(tmp_path, "2026-01-05", "tmdb", "2026-07-05")
    current = _snapshot(tmp_path, "2026-11-02", "tmdb", "2027-05-02")
    fixture = _snapshot(tmp_path, "2025-01-01", "fixture", "2025-07-01")  # ours: never pruned
    old_run = _run_on(tmp_path, "acme", "2026-01-05")
    new_run = _run_on(tmp_path, "acme", "2026-11-02")
    ids_before = (expired / "ids.json").read_bytes()

    result = CliRunner().invoke(
        cli,
        [
            "catalog",
            "prune",
            "--root",
            str(tmp_path / "snapshots"),
            "--submissions",
            str(tmp_path / "submissions"),
            "--today",
            "2026-11-23",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "pruned 2026-01-05" in result.output
    assert not expired.exists()
    assert current.is_dir()
    assert fixture.is_dir()
    assert not (old_run / "transcripts").exists()
    assert (old_run / "trials.jsonl").exists()  # scores stay
    assert (new_run / "transcripts" / "t1.json").exists()
    kept = tmp_path / "snapshots" / "pruned" / "2026-01-05"
    assert (kept / "ids.json").read_bytes() == ids_before
    assert sorted(p.name for p in kept.iterdir()) == ["ids.json", "manifest.json"]
    assert [i.date.isoformat() for i in list_snapshots(tmp_path / "snapshots")] == [
        "2025-01-01",
        "2026-11-02",
    ]
    (record,) = read_prune_log(tmp_path / "snapshots")
    assert record.snapshot == dt.date(2026, 1, 5)
    assert record.pruned_on == dt.date(2026, 11, 23)
    assert record.ids_kept
    assert "snapshots/2026-01-05" in record.removed
    assert "submissions/acme/results/2026-01-05/transcripts" in record.removed
    # A second prune finds nothing and logs nothing more.
    assert prune_snapshots(tmp_path / "snapshots", today=dt.date(2026, 11, 23)) == []
    assert len((tmp_path / "snapshots" / PRUNE_LOG).read_text().splitlines()) == 1


def test_dry_run_removes_nothing(tmp_path: Path) -> None:
    expired = _snapshot(tmp_path, "2026-01-05", "tmdb", "2026-07-05")
    records = prune_snapshots(tmp_path / "snapshots", today=dt.date(2026, 11, 23), dry_run=True)
    assert [r.snapshot for r in records] == [dt.date(2026, 1, 5)]
    assert (expired / "catalog.json").exists()
    assert not (tmp_path / "snapshots" / PRUNE_LOG).exists()


def test_a_bad_manifest_or_log_line_is_named(tmp_path: Path) -> None:
    folder = _snapshot(tmp_path, "2026-01-05", "tmdb", "2026-07-05")
    (folder / "manifest.json").write_text(json.dumps({"schema_version": 1}))
    with pytest.raises(LoadError, match=r"2026-01-05/manifest\.json"):
        prune_snapshots(tmp_path / "snapshots", today=dt.date(2026, 11, 23))
    (tmp_path / "snapshots" / PRUNE_LOG).write_text('{"schema_version": 1}\n')
    with pytest.raises(LoadError, match=r"prune-log\.jsonl.*\n.*line 1"):
        read_prune_log(tmp_path / "snapshots")
