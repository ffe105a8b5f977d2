"""`taurec trial`: runs one trial by names and prints the transcript (text or JSON)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from runner.cli import cli


def test_trial_prints_a_transcript(v1_dir: Path) -> None:
    args = [
        "trial",
        "--task",
        "task_001",
        "--catalog",
        str(v1_dir),
        "--tasks",
        str(v1_dir / "tasks"),
    ]
    result = CliRunner().invoke(cli, [*args, "--agent", "heuristic", "--seed", "2"])
    assert result.exit_code == 0, result.output
    assert "stop: recommended" in result.output
    assert "leak audit: clean" in result.output
    assert "reward 1" in result.output


def test_trial_json_and_task_file(v1_dir: Path) -> None:
    task_file = v1_dir / "tasks" / "task_050.json"
    result = CliRunner().invoke(
        cli,
        [
            "trial",
            "--task",
            str(task_file),
            "--catalog",
            str(v1_dir),
            "--agent",
            "oracle",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["transcript"]["stop_reason"] == "abstained"
    assert data["score"]["reward"] == 1.0


def test_unknown_names_fail_with_a_suggestion(v1_dir: Path) -> None:
    base = ["trial", "--catalog", str(v1_dir), "--tasks", str(v1_dir / "tasks")]
    result = CliRunner().invoke(cli, [*base, "--task", "task_006", "--agent", "orcle"])
    assert result.exit_code != 0
    assert "did you mean 'oracle'" in str(result.exception)
    result = CliRunner().invoke(cli, [*base, "--task", "task_6"])
    assert result.exit_code != 0
    assert "not a task file" in str(result.exception)
