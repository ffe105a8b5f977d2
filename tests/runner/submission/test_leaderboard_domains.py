"""`taurec leaderboard` over several domains: each domain's fixture refresh and suite validation, named by domain."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from runner.core.board import BoardSettings
from runner.core.domains import get_domain
from runner.core.errors import TaurecError
from runner.publish.leaderboard import build_leaderboard, entrants, shipped_submissions
from tests.domains.grocery.play import make_task

DATE = "2026-11-01"


def _suite(folder: Path, **fields: object) -> Path:
    grocery = get_domain("grocery")
    folder.mkdir(parents=True)
    shutil.copyfile(grocery.tasks_dir / "policy.md", folder / "policy.md")
    task = make_task(id="g_one", persona="A shopper who wants something vegan.", **fields)
    (folder / "g_one.json").write_text(task.model_dump_json(), encoding="utf-8")
    return folder


def test_grocery_refreshes_its_fixture_snapshot_and_validates_its_suite(tmp_path: Path) -> None:
    lines: list[str] = []
    result = build_leaderboard(
        steps=["refresh", "validate"],
        board=BoardSettings(domains=["grocery"]),
        domain_snapshots={"grocery": tmp_path / "snapshots"},
        domain_tasks={"grocery": _suite(tmp_path / "tasks")},
        echo=lines.append,
    )
    assert [t.step for t in result.timings] == ["refresh", "validate"]
    assert lines[0] == "[1/2] refresh …"
    # The pipeline over the fixture world served on 127.0.0.1 rebuilds the committed snapshot.
    committed = get_domain("grocery").snapshots_dir / DATE / "catalog.json"
    assert (tmp_path / "snapshots" / DATE / "catalog.json").read_bytes() == committed.read_bytes()
    assert "wrote catalog.csv, catalog.json, catalog.parquet, ids.json, manifest.json" in (
        result.timings[0].detail
    )
    assert result.timings[1].detail == f"1 of 1 tasks pass the difficulty gate on {DATE}"


def test_each_step_names_its_domain_and_an_inconsistent_suite_stops_the_build(
    tmp_path: Path,
) -> None:
    lines: list[str] = []
    with pytest.raises(TaurecError, match="the grocery task suite is inconsistent") as caught:
        build_leaderboard(
            steps=["validate", "site"],
            board=BoardSettings(domains=["grocery", "movies"]),
            domain_tasks={"grocery": _suite(tmp_path / "tasks", no_valid_recommendation=True)},
            public_dir=tmp_path / "public",
            echo=lines.append,
        )
    assert "g_one: [2026-11-01] an NVR task has valid products" in str(caught.value)
    assert lines == ["[1/3] grocery: validate …"]
    assert not (tmp_path / "public").exists()


def test_each_domain_runs_the_entries_that_enter_it() -> None:
    shipped = shipped_submissions()
    grocery = {f.name for f in entrants(shipped, "grocery")}
    movies = {f.name for f in entrants(shipped, "movies")}
    assert not grocery & movies
    assert grocery | movies == {f.name for f in shipped}
    assert {"grocery-expert", "grocery-oracle", "grocery-do-nothing"} <= grocery
    assert {"heuristic-baseline", "oracle-baseline"} <= movies
