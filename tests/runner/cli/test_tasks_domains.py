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
    for args in (["stats"], ["audit", "--snapshot", DATE], ["validate"]):
        result = CliRunner().invoke(cli, ["tasks", *args, "--domain", "grocery"])
        assert isinstance(result.exception, TaurecError), (args, result.output)
        assert "the grocery domain" in str(result.exception)


def test_the_suite_folder_names_the_domain_it_is_revalidated_by(tmp_path: Path) -> None:
    grocery = get_domain("grocery")
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    for name in ("task_g001.json", "task_g007.json", "policy.md", "suite.json"):
        shutil.copyfile(grocery.tasks_dir / name, tasks / name)
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
