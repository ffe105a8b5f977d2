"""Which snapshot, tasks and policy a run reads: dates, folders, bare catalog.json, the policy rule."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from runner.batch.inputs import find_policy, load_inputs, resolve_snapshot
from runner.core.errors import LoadError, TaurecError


@pytest.fixture
def snapshots(tmp_path: Path, v1_dir: Path) -> Path:
    root = tmp_path / "snapshots"
    for date in ("2026-10-01", "2026-11-01"):
        (root / date).mkdir(parents=True)
        shutil.copy(v1_dir / "catalog.json", root / date / "catalog.json")
    (root / "not-a-date").mkdir()
    return root


def test_default_is_the_latest_dated_snapshot(snapshots: Path) -> None:
    snap = resolve_snapshot(None, snapshots)
    assert snap.label == "2026-11-01"
    assert str(snap.date) == "2026-11-01"


def test_a_date_picks_that_folder_and_an_unknown_date_lists_the_known_ones(
    snapshots: Path,
) -> None:
    assert resolve_snapshot("2026-10-01", snapshots).label == "2026-10-01"
    with pytest.raises(LoadError, match=r"2026-10-01, 2026-11-01"):
        resolve_snapshot("2025-01-01", snapshots)


def test_a_path_may_be_a_folder_or_a_bare_catalog_json(v1_dir: Path) -> None:
    by_folder = resolve_snapshot(v1_dir)
    by_file = resolve_snapshot(v1_dir / "catalog.json")
    assert by_folder.label == by_file.label == "tau-rec-v1"
    assert by_folder.date is None
    assert by_folder.catalog.digest() == by_file.catalog.digest()


def test_no_snapshot_at_all_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(TaurecError, match="no dated snapshot"):
        resolve_snapshot(None, tmp_path)


def test_policy_is_in_the_tasks_folder_else_beside_it(tmp_path: Path, v1_dir: Path) -> None:
    assert find_policy(v1_dir / "tasks") == v1_dir / "policy.md"
    own = tmp_path / "tasks"
    own.mkdir()
    (own / "policy.md").write_text("# ours\n")
    (tmp_path / "policy.md").write_text("# beside\n")
    assert find_policy(own) == own / "policy.md"
    with pytest.raises(LoadError, match=r"no policy\.md"):
        find_policy(tmp_path / "elsewhere" / "tasks")


def test_the_v1_data_folder_loads_as_snapshot_and_suite(v1_dir: Path) -> None:
    inputs = load_inputs(v1_dir, v1_dir / "tasks")
    assert len(inputs.tasks) == 60
    assert inputs.retired == {}
    assert inputs.policy_path == (v1_dir / "policy.md").resolve()
