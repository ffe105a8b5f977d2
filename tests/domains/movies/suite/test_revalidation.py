"""Revalidating a snapshot writes solvability.json and names what changed since the snapshot before."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from domains.movies.suite import SOLVABILITY_FILE, load_solvability, revalidate_snapshot
from runner.cli import cli
from runner.core.errors import TaurecError

from .conftest import SnapshotWriter, movie, task_json

TasksWriter = Callable[[list[dict[str, Any]]], Path]

HORROR = [("genres", "contains", "Horror")]


@pytest.fixture
def two_snapshots(snapshots: SnapshotWriter, tasks_dir: TasksWriter) -> tuple[Path, Path]:
    """October → November: the only horror film leaves Netflix, a G-rated horror appears,
    a drama is added, and one task is retired from November on."""
    october = [
        movie(1, genres=["Horror"], content_rating="R"),
        movie(2, genres=["Comedy"]),
        movie(3, genres=["Drama"]),
    ]
    november = [
        movie(1, genres=["Horror"], content_rating="R", streaming_services=["Shudder"]),
        movie(2, genres=["Comedy"]),
        movie(3, genres=["Drama"]),
        movie(4, genres=["Drama"], rating=7.9),
        movie(5, genres=["Horror", "Family"], content_rating="G", streaming_services=[]),
    ]
    snapshots("2026-10-01", october)
    folder = snapshots("2026-11-01", november)
    tasks = [
        task_json(
            "t_lost",
            HORROR,
            user_services=["Netflix"],
            policy_flags=["availability", "recommend_tool"],
        ),
        task_json(
            "t_nvr",
            [*HORROR, ("content_rating", "==", "G")],
            no_valid_recommendation=True,
            policy_flags=["transparency", "recommend_tool"],
        ),
        task_json("t_more", [("genres", "contains", "Drama")]),
        task_json("t_same", [("genres", "contains", "Comedy")]),
        task_json(
            "t_retired",
            [("genres", "contains", "Comedy")],
            retired={"since": "2026-11-01", "reason": "its only solution is leaving the catalog"},
        ),
    ]
    return folder, tasks_dir(tasks)


def test_first_snapshot_has_no_previous_and_every_task_is_new(
    two_snapshots: tuple[Path, Path],
) -> None:
    folder, tasks = two_snapshots
    result = revalidate_snapshot("2026-10-01", tasks_dir=tasks, snapshots_dir=folder.parent)
    assert result.previous_snapshot is None
    assert {t.task_id: t.change for t in result.tasks} == {
        "t_lost": "new",
        "t_more": "new",
        "t_nvr": "new",
        "t_retired": "new",
        "t_same": "new",
    }
    assert result.ok


def test_changes_since_the_previous_snapshot_are_named(two_snapshots: tuple[Path, Path]) -> None:
    # These five-title catalogs fail the difficulty gate by design; test_gate.py covers the gate.
    folder, tasks = two_snapshots
    result = revalidate_snapshot(
        "2026-11-01", tasks_dir=tasks, snapshots_dir=folder.parent, gate=False
    )
    by_id = {t.task_id: t for t in result.tasks}
    assert result.previous_snapshot is not None
    assert result.previous_snapshot.isoformat() == "2026-10-01"
    assert by_id["t_lost"].change == "lost_last_winning_solution"
    assert by_id["t_lost"].status == "inconsistent"
    assert by_id["t_lost"].winning_removed == ["tmdb_1"]
    assert by_id["t_nvr"].change == "nvr_became_solvable"
    assert by_id["t_nvr"].constraint_solutions == ["tmdb_5"]
    assert by_id["t_more"].change == "solutions_changed"
    assert by_id["t_more"].winning_added == ["tmdb_4"]
    assert by_id["t_same"].change == "unchanged"
    assert by_id["t_retired"].status == "retired"
    assert by_id["t_retired"].change == "retired"
    assert "its only solution is leaving" in by_id["t_retired"].reason
    assert not result.ok
    assert result.counts.model_dump() == {
        "tasks": 5,
        "ok": 2,
        "inconsistent": 2,
        "retired": 1,
        "changed": 3,
        "flagged": 0,
        "gate_retired": 0,
    }
    text = result.format_text()
    assert "retired  t_retired" in text
    assert "INCONSISTENT  t_nvr" in text
    assert text.index("t_lost  lost_last") < text.index("t_more  solutions_changed")


def test_solvability_json_is_written_versioned_and_byte_identical(
    two_snapshots: tuple[Path, Path],
) -> None:
    folder, tasks = two_snapshots
    revalidate_snapshot("2026-11-01", tasks_dir=tasks, snapshots_dir=folder.parent)
    file = folder / SOLVABILITY_FILE
    first = file.read_bytes()
    assert next(iter(json.loads(first))) == "schema_version"
    revalidate_snapshot("2026-11-01", tasks_dir=tasks, snapshots_dir=folder.parent)
    assert file.read_bytes() == first
    loaded = load_solvability(folder)
    assert [t.task_id for t in loaded.tasks] == ["t_lost", "t_more", "t_nvr", "t_retired", "t_same"]


def test_unknown_snapshot_is_a_clear_error(two_snapshots: tuple[Path, Path]) -> None:
    folder, tasks = two_snapshots
    with pytest.raises(
        TaurecError, match=r"no snapshot 2026-12-01 under .*known: 2026-10-01, 2026-11-01"
    ):
        revalidate_snapshot("2026-12-01", tasks_dir=tasks, snapshots_dir=folder.parent)


def test_cli_exits_non_zero_when_an_active_task_is_inconsistent(
    two_snapshots: tuple[Path, Path],
) -> None:
    folder, tasks = two_snapshots
    runner = CliRunner()
    args = ["tasks", "validate", "--tasks", str(tasks), "--snapshots-dir", str(folder.parent)]
    october = runner.invoke(cli, [*args, "--snapshot", "2026-10-01"])
    assert october.exit_code == 0, october.output
    november = runner.invoke(cli, [*args, "--snapshot", "2026-11-01"])
    assert november.exit_code == 1
    assert "lost_last_winning_solution" in november.output
    assert (folder / SOLVABILITY_FILE).exists()
    both = runner.invoke(cli, [*args, "--snapshot", "2026-11-01", "--catalog", str(folder)])
    assert both.exit_code == 2
    assert "not both" in both.output


def test_retiring_the_broken_tasks_makes_the_snapshot_pass(
    two_snapshots: tuple[Path, Path], tasks_dir: TasksWriter
) -> None:
    folder, tasks = two_snapshots
    fixed = []
    for file in sorted(tasks.glob("*.json")):
        task = json.loads(file.read_text())
        if task["id"] in ("t_lost", "t_nvr"):
            task["retired"] = {"since": "2026-11-01", "reason": "catalog moved on"}
        fixed.append(task)
    tasks_dir(fixed)
    result = revalidate_snapshot(
        "2026-11-01", tasks_dir=tasks, snapshots_dir=folder.parent, gate=False
    )
    assert result.ok
    assert result.counts.retired == 3
    october = revalidate_snapshot("2026-10-01", tasks_dir=tasks, snapshots_dir=folder.parent)
    assert october.counts.retired == 0  # retired from November on, still checked before
