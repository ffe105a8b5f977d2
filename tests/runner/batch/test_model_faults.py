"""LiteLLM submissions against the local model server: injected faults become infra_error records."""

from __future__ import annotations

from pathlib import Path

import pytest

from runner.batch import load_records, read_trials, run_submissions
from runner.batch.archive import load_trial_transcript
from runner.batch.report import format_summary
from runner.core.metrics import summarize
from runner.models.model_server import serve_model

from .conftest import SubmissionMaker, litellm_agent

pytestmark = pytest.mark.slow


def _run(sub: Path, suite: Path, v1_dir: Path, **options: object):  # type: ignore[no-untyped-def]
    return run_submissions(
        [sub],
        snapshot=v1_dir / "catalog.json",
        tasks_dir=suite,
        trials=1,
        concurrency=8,
        **options,
    )


@pytest.mark.parametrize(
    ("fault", "timeout_s"),
    [("429", 2.0), ("500", 2.0), ("hang", 0.3)],
)
def test_persistent_faults_become_infra_errors_then_resume_scores_them(
    fault: str,
    timeout_s: float,
    small_suite: Path,
    v1_dir: Path,
    make_submission: SubmissionMaker,
) -> None:
    with serve_model(faults=[fault], retry_after_s=0.01, hang_s=3.0) as url:
        sub = make_submission("faulty", litellm_agent(url, timeout_s=timeout_s), trials=1)
        [result] = _run(sub, small_suite, v1_dir)
    assert result.manifest.counts.infra_error == 8
    assert result.manifest.counts.scored == 0
    assert all(r.status == "infra_error" and r.score is None for r in result.records)
    assert all(r.error is not None and r.error.message for r in result.records)
    summary = summarize(result.records)
    assert summary.counts.infra_error == 8
    assert summary.counts.scored == 0
    assert summary.for_k(1).value is None  # infra errors are never in n
    text = format_summary([result])
    assert "infra errors 8" in text
    assert "excluded from pass^k n" in text

    # The next run retries exactly the errored keys; the new records supersede the old ones. The
    # healthy server gets a generous deadline: 0.3 s made a loaded CI machine time out honest calls.
    with serve_model() as url:
        make_submission("faulty", litellm_agent(url, timeout_s=max(timeout_s, 30.0)), trials=1)
        [again] = _run(sub, small_suite, v1_dir)
    assert again.retried_infra == 8
    assert again.manifest.counts.scored == 8
    assert again.manifest.counts.infra_error == 0
    loaded = read_trials(result.results_dir)
    assert loaded.superseded == 8
    assert all(r.status == "scored" for r in loaded.records)
    # Each new record points at its own transcript: the retried one, not the errored one.
    for record in loaded.records:
        assert load_trial_transcript(result.results_dir, record).stop_reason != "infra_error"


def test_a_single_429_is_retried_and_scored(
    small_suite: Path, v1_dir: Path, make_submission: SubmissionMaker
) -> None:
    with serve_model(faults=["once429"], retry_after_s=0.01) as url:
        sub = make_submission("flaky", litellm_agent(url), trials=1)
        [result] = _run(sub, small_suite, v1_dir)
    assert result.manifest.counts.scored == 8
    assert result.manifest.counts.infra_error == 0


def test_malformed_tool_json_is_the_agents_fault_not_an_infra_error(
    small_suite: Path, v1_dir: Path, make_submission: SubmissionMaker
) -> None:
    with serve_model(faults=["malformed_tool_json"]) as url:
        sub = make_submission("garbled", litellm_agent(url), trials=1)
        [result] = _run(sub, small_suite, v1_dir, max_turns=3)
    records = load_records(result.results_dir)
    assert all(r.status == "scored" for r in records)
    assert all(r.score is not None and r.score.reward == 0.0 for r in records)


def test_max_cost_stops_scheduling_with_a_priced_local_model(
    small_suite: Path, v1_dir: Path, make_submission: SubmissionMaker
) -> None:
    prices = {"input_per_mtok": 1_000.0, "output_per_mtok": 1_000.0}
    with serve_model() as url:
        sub = make_submission("pricey", litellm_agent(url, prices=prices), trials=2)
        [result] = run_submissions(
            [sub],
            snapshot=v1_dir / "catalog.json",
            tasks_dir=small_suite,
            concurrency=1,
            max_cost=0.5,
        )
        m = result.manifest
        assert m.status == "budget_exhausted"
        assert m.max_cost_usd == 0.5
        assert 1 <= m.counts.scored < m.counts.planned
        assert m.cost_usd >= 0.5
        assert "not yet run" in format_summary([result])

        [rest] = run_submissions(
            [sub], snapshot=v1_dir / "catalog.json", tasks_dir=small_suite, concurrency=4
        )
    assert rest.manifest.status == "completed"
    assert rest.skipped_existing == m.counts.scored
    assert rest.manifest.counts.scored == rest.manifest.counts.planned == 16
