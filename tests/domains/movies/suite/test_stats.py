"""Suite statistics: the grid, NVR count, policy coverage and fields; retired tasks listed apart."""

from __future__ import annotations

from click.testing import CliRunner

from domains.movies.suite import suite_stats
from domains.movies.tasks import Task
from runner.cli import cli

from .conftest import task_json


def make(task_id: str, n: int, reveal: str, **extra: object) -> Task:
    constraints = [("runtime", "<=", 100 + i) for i in range(n)]
    return Task.model_validate(task_json(task_id, constraints, reveal_difficulty=reveal, **extra))


def test_grid_counts_policies_and_fields() -> None:
    tasks = [
        make("a", 1, "volunteer"),
        make("b", 3, "mixed", policy_flags=["availability", "recommend_tool"]),
        make("c", 5, "hidden", no_valid_recommendation=True),
        make("d", 2, "hidden", retired={"since": "2026-11-01", "reason": "gone"}),
    ]
    stats = suite_stats(tasks)
    assert stats.tasks == 4
    assert stats.active == 3
    assert stats.retired == ["d"]
    assert stats.grid["simple"] == {"volunteer": 1, "mixed": 0, "hidden": 0}
    assert stats.grid["medium"]["mixed"] == 1
    assert stats.grid["complex"]["hidden"] == 1
    assert stats.no_valid_recommendation == 1
    assert stats.policies["recommend_tool"] == 3
    assert stats.policies["availability"] == 1
    assert stats.policies["sponsored"] == 0
    assert stats.fields == {"runtime": 9}
    assert stats.operators == {"<=": 9}
    text = stats.format_text()
    assert "retired (not counted above): d" in text
    assert "no-valid-recommendation tasks: 1" in text


def test_stats_command_prints_the_shipped_grid() -> None:
    result = CliRunner().invoke(cli, ["tasks", "stats"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert any(line.split() == ["simple", "8", "7", "5", "20"] for line in lines)
    assert any(line.split() == ["total", "13", "32", "15", "60"] for line in lines)
    assert "no-valid-recommendation tasks: 5" in result.output
