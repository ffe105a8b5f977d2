"""Solvability on the v1 data and on broken tasks; `taurec tasks validate` and `taurec score`."""

from __future__ import annotations

import datetime as dt
import gzip
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from click.testing import CliRunner

from domains.movies.catalog import Catalog
from domains.movies.tasks import Retirement, Task
from domains.movies.validate import check_solvability
from runner.cli import cli
from runner.core.transcript import ComponentSpec, InfraError, Transcript
from runner.publish.rescore import score_trace_files
from tests.movie_world import inconsistent_suite

if TYPE_CHECKING:
    from .conftest import TaskFactory

NVR_IDS = [f"task_{n:03d}" for n in range(50, 55)]


def test_v1_suite_is_consistent(v1_catalog: Catalog, v1_tasks: list[Task]) -> None:
    report = check_solvability(v1_catalog, v1_tasks)
    assert report.ok, [(t.task_id, t.reason) for t in report.inconsistent]
    assert len(report.tasks) == 60
    for task in v1_tasks:
        result = report.tasks[task.id]
        assert result.status == "ok"
        if task.id in NVR_IDS:
            assert result.constraint_solutions == []
        else:
            assert result.winning_solutions, task.id
            assert set(result.winning_solutions) <= set(result.reachable_solutions)
            assert set(result.reachable_solutions) <= set(result.constraint_solutions)
            for item_id in result.winning_solutions:
                item = v1_catalog.get(item_id)
                assert item is not None
                assert task.satisfies_all(item)
                if task.user_services:
                    assert set(item.streaming_services) & set(task.user_services)
                if "watch_history" in task.policy_flags:
                    assert item_id not in task.watched


def test_watch_history_removes_watched_solutions(v1_catalog: Catalog, v1_tasks: list[Task]) -> None:
    report = check_solvability(v1_catalog, v1_tasks)
    task = next(t for t in v1_tasks if t.id == "task_023")
    result = report.tasks["task_023"]
    assert set(result.reachable_solutions) - set(result.winning_solutions) == set(task.watched)


def test_inconsistencies_name_the_reason(tiny_catalog: Catalog, make_task: TaskFactory) -> None:
    tasks = [
        make_task(task_id="nvr_solvable", nvr=True),
        make_task(task_id="unsolvable", constraints=[("runtime", "<=", 10)]),
        make_task(task_id="unreachable", services=["Peacock"]),
        make_task(
            task_id="all_watched",
            constraints=[("genres", "contains", "Horror")],
            policies=["watch_history"],
            watched=["tmdb_6"],
        ),
        make_task(task_id="fine", services=["Hulu"]),
    ]
    report = check_solvability(tiny_catalog, tasks)
    reasons = {t.task_id: t.reason for t in report.inconsistent}
    assert set(reasons) == {"nvr_solvable", "unsolvable", "unreachable", "all_watched"}
    assert "3 constraint solution(s)" in reasons["nvr_solvable"]
    assert "no item satisfies" in reasons["unsolvable"]
    assert "Peacock" in reasons["unreachable"]
    assert "ruled out by active policies" in reasons["all_watched"]
    assert report.tasks["fine"].winning_solutions == ["tmdb_1"]
    assert not report.ok


def test_retired_tasks_are_reported_not_checked(
    tiny_catalog: Catalog, make_task: TaskFactory
) -> None:
    task = make_task(constraints=[("runtime", "<=", 10)])
    task.retired = Retirement(since=dt.date(2026, 11, 1), reason="catalog lost its solutions")
    assert check_solvability(tiny_catalog, [task]).tasks[task.id].status == "retired"
    before = check_solvability(tiny_catalog, [task], snapshot_date=dt.date(2026, 10, 1))
    assert before.tasks[task.id].status == "inconsistent"


def test_cli_validate_v1_json_and_text(v1_dir: Path) -> None:
    runner = CliRunner()
    args = ["tasks", "validate", "--catalog", str(v1_dir), "--tasks", str(v1_dir / "tasks")]
    result = runner.invoke(cli, [*args, "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert list(doc) == ["tasks"]
    assert len(doc["tasks"]) == 60
    assert set(doc["tasks"]["task_001"]) == {
        "constraint_solutions",
        "reachable_solutions",
        "winning_solutions",
        "status",
    }
    assert all(doc["tasks"][t]["constraint_solutions"] == [] for t in NVR_IDS)
    text = runner.invoke(cli, args)
    assert text.exit_code == 0
    assert "60 tasks: 60 ok, 0 inconsistent, 0 retired" in text.output


def test_cli_validate_fails_naming_task_and_reason(tmp_path: Path, v1_dir: Path) -> None:
    tasks_dir = inconsistent_suite(v1_dir, tmp_path / "tasks")
    result = CliRunner().invoke(
        cli, ["tasks", "validate", "--catalog", str(v1_dir), "--tasks", str(tasks_dir)]
    )
    assert result.exit_code == 1
    assert "inconsistent task task_001: no item satisfies every constraint" in result.output


def _v1_trace(task: Task, item_id: str, *, check_history: bool) -> dict[str, Any]:
    events: list[dict[str, Any]] = [
        {"type": "message", "role": "system", "content": "policy text"},
        {"type": "message", "role": "agent", "content": "Hello! What are you in the mood for?"},
        {"type": "message", "role": "user", "content": "Something fun."},
    ]
    if check_history:
        events.append(
            {
                "type": "tool_call",
                "name": "get_user_history",
                "arguments": {"user_id": task.user_id},
                "result": json.dumps({"watched": [{"id": w} for w in task.watched]}),
            }
        )
    events += [
        {"type": "message", "role": "agent", "content": "Here is my pick."},
        {
            "type": "tool_call",
            "name": "recommend",
            "arguments": {"item_id": item_id},
            "result": json.dumps({"status": "recommended", "id": item_id}),
        },
    ]
    return {
        "task_id": task.id,
        "model": "some-model",
        "trial": 0,
        "events": events,
        "recommendations": [item_id],
        "stop_reason": "recommended",
        "agent_step_latencies_s": [1.5, 2.0],
        "trial_runtime_s": 4.2,
    }


def test_v1_traces_are_rescored(
    tmp_path: Path, v1_dir: Path, v1_catalog: Catalog, v1_tasks: list[Task]
) -> None:
    task = next(t for t in v1_tasks if t.id == "task_005")
    winner = check_solvability(v1_catalog, [task]).tasks[task.id].winning_solutions[0]
    good = tmp_path / "good.json"
    good.write_text(json.dumps(_v1_trace(task, winner, check_history=True)))
    bad = tmp_path / "bad.json.gz"
    bad.write_bytes(
        gzip.compress(json.dumps(_v1_trace(task, winner, check_history=False)).encode())
    )
    good_score, bad_score = score_trace_files([good, bad], v1_catalog, v1_tasks)
    assert good_score.score is not None
    assert good_score.score.reward == 1.0
    assert bad_score.score is not None
    assert (bad_score.score.constraint_score, bad_score.score.reward) == (1.0, 0.0)
    assert [p.policy for p in bad_score.score.policies if not p.passed] == ["watch_history"]

    result = CliRunner().invoke(
        cli,
        ["score", str(good), str(bad), "--catalog", str(v1_dir), "--tasks", str(v1_dir / "tasks")],
    )
    assert result.exit_code == 0, result.output
    assert "reward=1" in result.output
    assert "FAIL watch_history" in result.output
    as_json = CliRunner().invoke(
        cli,
        ["score", str(good), "--json", "--catalog", str(v1_dir), "--tasks", str(v1_dir / "tasks")],
    )
    assert json.loads(as_json.output)[0]["score"]["reward"] == 1.0


def test_infra_error_traces_are_listed_apart(
    tmp_path: Path, tiny_catalog: Catalog, make_task: TaskFactory
) -> None:
    task = make_task()
    transcript = Transcript(
        task_id=task.id,
        agent=ComponentSpec(name="litellm", args={"model": "openai/x"}),
        simulator=ComponentSpec(name="scripted"),
        stop_reason="infra_error",
        error=InfraError(kind="ServerError", message="503 after retries"),
    )
    path = tmp_path / "t.json"
    path.write_text(transcript.model_dump_json())
    (entry,) = score_trace_files([path], tiny_catalog, [task])
    assert (entry.status, entry.score) == ("infra_error", None)
    assert entry.error == "ServerError: 503 after retries"
