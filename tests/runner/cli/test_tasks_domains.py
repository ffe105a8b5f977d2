"""`taurec tasks` asks the suite's domain: named by --domain or by the folder's suite.json, movies otherwise."""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner

from runner.cli import cli
from runner.core.domains import get_domain
from runner.core.errors import TaurecError

DATE = "2026-11-01"


def test_a_domain_without_a_check_says_so() -> None:
    result = CliRunner().invoke(cli, ["tasks", "validate", "--domain", "grocery"])
    assert isinstance(result.exception, TaurecError), result.output
    assert "the grocery domain revalidates a dated --snapshot only" in str(result.exception)


def _small_suite(tmp_path: Path) -> Path:
    grocery = get_domain("grocery")
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    for name in ("task_g001.json", "task_g007.json", "policy.md", "suite.json"):
        shutil.copyfile(grocery.tasks_dir / name, tasks / name)
    return tasks


def test_grocery_stats_and_audit(tmp_path: Path) -> None:
    """The grocery suite's make-up, and its gate and leak audit on one shipped snapshot."""
    tasks = _small_suite(tmp_path)
    stats = CliRunner().invoke(cli, ["tasks", "stats", "--tasks", str(tasks)])
    assert stats.exit_code == 0, stats.output
    assert stats.output.startswith("2 grocery tasks")
    audit = CliRunner().invoke(cli, ["tasks", "audit", "--tasks", str(tasks), "--snapshot", DATE])
    assert audit.exit_code == 0, audit.output
    assert f"2 of 2 tasks pass the difficulty gate and the leak audit on {DATE}" in audit.output
    missing = CliRunner().invoke(
        cli, ["tasks", "audit", "--tasks", str(tasks), "--snapshot", "1999-01-01"]
    )
    assert isinstance(missing.exception, TaurecError)
    assert "no grocery snapshot" in str(missing.exception)


def test_the_suite_folder_names_the_domain_it_is_revalidated_by(tmp_path: Path) -> None:
    grocery = get_domain("grocery")
    tasks = _small_suite(tmp_path)
    snaps = tmp_path / "snaps"
    shutil.copytree(grocery.snapshots_dir / DATE, snaps / DATE)
    args = ["tasks", "validate", "--snapshot", DATE, "--snapshots-dir", str(snaps)]
    by_folder = CliRunner().invoke(cli, [*args, "--tasks", str(tasks)])
    by_name = CliRunner().invoke(cli, [*args, "--tasks", str(tasks), "--domain", "grocery"])
    assert by_folder.exit_code == 0, by_folder.output
    assert by_folder.output == by_name.output
    assert f"2 of 2 tasks pass the difficulty gate on {DATE}" in by_folder.output
    json_asked = CliRunner().invoke(cli, [*args, "--tasks", str(tasks), "--json"])
    assert json_asked.exit_code == 2
    assert "no JSON form" in json_asked.output
