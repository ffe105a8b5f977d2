"""evaluate(): same figures as `taurec run` + the site's aggregation, every agent form, feedback, resume."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import runner
from runner.batch import load_records
from runner.core.errors import LoadError, TaurecError
from runner.core.protocols import AgentContext
from runner.evaluation import EvalResult, evaluate, evaluate_async
from runner.play.agent_config import BuiltinAgentConfig
from runner.sitegen.aggregate import aggregate
from runner.sitegen.trials import read_trials_frame
from tests.entries import write_entry

from .conftest import ProposeOnce

TAUREC = Path(sys.executable).parent / "taurec"


def test_pass_k_1_to_8_equal_taurec_run_and_the_site_aggregation(
    tmp_path: Path, twenty_tasks: Path
) -> None:
    result = evaluate(ProposeOnce, suite=twenty_tasks, trials=8, seed=3)
    assert isinstance(result, EvalResult)
    assert result.trials == 8
    assert result.agent.startswith("python:")
    assert "ProposeOnce" in result.agent

    # The same agent as a submission folder, run by the CLI, aggregated by the site code.
    sub = write_entry(
        tmp_path / "subs" / "propose-once",
        {"kind": "builtin", "name": "heuristic", "args": {"max_proposals": 1}},
        display_name="Propose once",
        contact="Test",
        trials=8,
    )
    out = tmp_path / "out"
    subprocess.run(
        [
            str(TAUREC),
            "run",
            str(sub),
            "--tasks",
            str(twenty_tasks),
            "--seed",
            "3",
            "--out",
            str(out),
            "--concurrency",
            "4",
        ],
        check=True,
        capture_output=True,
    )
    folder = out / "propose-once" / "results" / result.snapshot
    frame = read_trials_frame(folder, "propose-once", result.snapshot, [])
    agg = aggregate(frame)
    site = agg.pass_k.sort("k")
    assert site["k"].to_list() == list(range(1, 9))
    # Per task, the trial outcomes (n scored, c passed) are identical…
    site_tasks = {t: (n, c) for t, n, c in agg.per_task.select("task_id", "n", "c").iter_rows()}
    assert site_tasks == {r.task_id: (r.scored, r.passed) for r in result.tasks}
    # …so pass^1…pass^8 agree; the means differ at most in the last bits (numpy vs polars sums).
    ours = [result.pass_k(k) for k in range(1, 9)]
    assert ours == pytest.approx(site["value"].to_list(), rel=1e-12, abs=0)
    assert [f"{v:.6f}" for v in ours] == [f"{v:.6f}" for v in site["value"].to_list()]
    # Not a degenerate agent: reliability falls with k, and some trials fail.
    assert ours[0] is not None
    assert ours[7] is not None
    assert ours[0] > ours[7] > 0
    assert result.failures()


def test_failing_trials_carry_reasons_values_and_transcripts(twenty_tasks: Path) -> None:
    result = evaluate(ProposeOnce, suite=twenty_tasks, trials=2, seed=3)
    failing = result.failures()
    assert failing, "the one-proposal agent fails some trials"
    for trial in failing:
        assert trial.reward is not None
        assert trial.reward < 1
        assert trial.reasons, trial
        assert trial.transcript is not None
        assert trial.transcript.task_id == trial.task_id
    constraint = [r for t in failing for r in t.reasons if r.kind == "constraint"]
    assert constraint
    assert all(r.reason for r in constraint)
    markdown = result.to_markdown()
    # Failures are grouped by cause, each with its count and one example (not one line each).
    causes = result.feedback.causes
    assert causes
    assert f"## What went wrong, by cause ({len(failing)} failing trial(s) of 40)" in markdown
    for cause in causes:
        assert cause.heading() in markdown
        assert f"example: `{cause.example}`" in markdown
    assert sum(c.trials for c in causes if c.kind != "tool_error") >= len(failing)
    assert "## Skills" in markdown
    assert {s.skill for s in result.feedback.skills} == {
        "elicitation",
        "retrieval",
        "policy",
        "learning from declines",
        "abstention",
    }
    # The JSON round-trips into the same typed result.
    assert EvalResult.model_validate_json(result.to_json()) == result
    passed = {(r.task_id, r.passed, r.scored) for r in result.tasks}
    assert sum(r.scored for r in result.tasks) == 40
    assert len(passed) == 20


def test_agent_forms_give_the_same_trials(twenty_tasks: Path) -> None:
    """A config, a name, a factory with/without context, a shared object, a submission folder."""
    tasks = sorted(p.stem for p in twenty_tasks.glob("*.json"))[:3]
    options = {"suite": twenty_tasks, "trials": 2, "tasks": tasks}

    def zero_arg() -> object:
        return ProposeOnce(AgentContext(user_id="unused", policy_text="", seed=0))

    by_config = evaluate(BuiltinAgentConfig(name="heuristic"), **options)
    by_name = evaluate("heuristic", **options)
    assert by_config.agent == by_name.agent == "builtin:heuristic"
    assert by_config.tasks == by_name.tasks  # (latencies differ; outcomes do not)
    assert [r.task_id for r in by_config.tasks] == tasks

    with_context = evaluate(lambda ctx: ProposeOnce(ctx), **options)
    assert with_context.summary.counts.scored == 6
    shared = evaluate(ProposeOnce(AgentContext(user_id="u", policy_text="", seed=0)), **options)
    assert shared.agent == "python:propose-once"
    assert shared.summary.counts.scored == 6
    built = evaluate(zero_arg, **options)
    assert built.agent.endswith("zero_arg")


def test_module_attr_strings_and_submission_folders(tmp_path: Path, twenty_tasks: Path) -> None:
    tasks = sorted(p.stem for p in twenty_tasks.glob("*.json"))[:2]
    options = {"suite": twenty_tasks, "trials": 1, "tasks": tasks}
    target = evaluate("domains.movies.baselines:HeuristicAgent", **options)
    assert target.agent == "python:domains.movies.baselines.heuristic.HeuristicAgent"
    folder = Path(runner.__file__).parent.parent / "submissions" / "random-baseline"
    from_folder = evaluate(folder, **options)
    assert from_folder.agent == "builtin:random"
    assert from_folder.slug == "random-baseline"
    assert from_folder.results_dir is None  # a scratch folder, removed afterwards


def test_bad_agents_and_filters_fail_clearly(twenty_tasks: Path) -> None:
    options = {"suite": twenty_tasks, "trials": 1}
    with pytest.raises(TaurecError, match=r"cannot import module 'no_such_pkg\.agents'"):
        evaluate("no_such_pkg.agents:make", **options)
    with pytest.raises(TaurecError, match="has no attribute 'nope'"):
        evaluate("runner.agents:nope", **options)
    with pytest.raises(TaurecError, match="did you mean 'heuristic'"):
        evaluate("heuristik", **options)
    with pytest.raises(LoadError, match="no task 'task_9999'"):
        evaluate("heuristic", tasks=["task_9999"], **options)
    with pytest.raises(LoadError, match="neither ours nor v1 nor a folder"):
        evaluate("heuristic", suite="v3", trials=1)
    # A factory that returns something that is not an Agent fails each trial as the agent's
    # failure (scored 0, runner.play.attribution), never a crash, never a silent pass, never dropped.
    not_an_agent: Any = lambda: object()  # noqa: E731
    result = evaluate(not_an_agent, tasks=["task_001"], **options)
    [trial] = result.failures()
    assert trial.status == "scored"
    assert trial.stop_reason == "agent_error"
    assert "not an Agent" in trial.reasons[0].reason
    assert result.pass_k(1) == 0.0


def test_results_folder_resumes_and_async_form(tmp_path: Path, twenty_tasks: Path) -> None:
    import asyncio

    tasks = sorted(p.stem for p in twenty_tasks.glob("*.json"))[:4]
    results = tmp_path / "results"
    first = evaluate(ProposeOnce, suite=twenty_tasks, trials=2, tasks=tasks, results=results)
    assert first.results_dir is not None
    folder = Path(first.results_dir)
    assert folder == results / first.snapshot
    assert len(load_records(folder)) == 8
    lines = (folder / "trials.jsonl").read_text().splitlines()
    # Resumed: the same call runs nothing again and reports the same figures.
    again = asyncio.run(
        evaluate_async(ProposeOnce, suite=twenty_tasks, trials=2, tasks=tasks, results=results)
    )
    assert (folder / "trials.jsonl").read_text().splitlines() == lines
    assert again.tasks == first.tasks
    assert again.summary.counts == first.summary.counts
    # More trials extend the folder; a different agent is refused (unless fresh).
    more = evaluate(ProposeOnce, suite=twenty_tasks, trials=3, tasks=tasks, results=results)
    assert more.summary.counts.scored == 12
    with pytest.raises(TaurecError, match="the agent changed"):
        evaluate(
            "heuristic",
            suite=twenty_tasks,
            trials=1,
            tasks=tasks,
            results=results,
            slug=first.slug,
        )
    manifest = json.loads((folder / "run.json").read_text())
    assert manifest["agent"]["name"] == first.agent


def test_shortfalls_name_each_unmet_threshold(twenty_tasks: Path) -> None:
    result = evaluate(ProposeOnce, suite=twenty_tasks, trials=4, seed=3)
    p4 = result.pass_k(4)
    assert p4 is not None
    assert 0 < p4 < 1
    assert result.shortfalls({4: p4}) == []
    [short] = result.shortfalls({4: min(1.0, p4 + 0.01)})
    assert short.startswith("pass^4 = ")
    assert result.shortfalls({8: 0.1}) == ["pass^8 needs at least 8 trials per task (ran 4)"]


def test_the_published_v1_suite_under_the_v1_rules(v1_dir: Path) -> None:
    tasks = sorted(p.stem for p in (v1_dir / "tasks").glob("*.json"))[:2]
    result = evaluate("heuristic", suite="v1", rules="v1", trials=1, tasks=tasks)
    assert result.rules == "v1"
    assert result.snapshot == v1_dir.name  # the v1 catalog goes with the v1 suite
    # Compared resolved: the data folder may be reached through a link (a CI copy, a checkout).
    assert Path(result.tasks_dir).resolve() == (v1_dir / "tasks").resolve()
    assert [r.task_id for r in result.tasks] == tasks
    assert "rules v1" in result.to_markdown()
