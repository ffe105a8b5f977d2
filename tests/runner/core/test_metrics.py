"""pass^k edge cases, seeded bootstrap, and the run summary built from trial records."""

from __future__ import annotations

import math

import numpy as np
import pytest

from domains.movies import MoviesDomain
from runner.core.metrics import bootstrap_ci, pass_hat_k, summarize
from runner.core.records import Efficiency, PolicyResult, TrialKey, TrialRecord, TrialScore
from runner.core.transcript import InfraError


def record(
    task_id: str,
    trial: int,
    reward: float | None,
    *,
    complexity: str = "simple",
    reveal: str = "volunteer",
    policies: list[tuple[str, bool]] | None = None,
    recommendation: str | None = "tmdb_1",
    tool_calls: int = 3,
    latencies: list[float] | None = None,
    cost: float = 0.01,
    proposals: int = 0,
) -> TrialRecord:
    key = TrialKey(
        submission="sub", snapshot_sha256="abc", task_id=task_id, trial_index=trial, seed=trial
    )
    base = {
        "key": key,
        "complexity": complexity,
        "reveal_difficulty": reveal,
        "no_valid_recommendation": False,
        "efficiency": Efficiency(
            turns=2,
            tool_calls=tool_calls,
            proposals=proposals,
            step_latencies_s=latencies or [0.5],
        ),
        "cost_usd": cost,
        "transcript": f"transcripts/{task_id}/{trial}.json",
    }
    if reward is None:
        return TrialRecord.model_validate(
            {
                **base,
                "status": "infra_error",
                "stop_reason": "infra_error",
                "error": InfraError(kind="Timeout", message="gave up"),
            }
        )
    results = [
        PolicyResult(policy=name, passed=ok, severity=1.0, reason="r")  # type: ignore[arg-type]
        for name, ok in (policies or [])
    ]
    policy_score = 1.0 if all(ok for _, ok in (policies or [])) else 0.0
    return TrialRecord.model_validate(
        {
            **base,
            "status": "scored",
            "stop_reason": "recommended" if recommendation else "max_turns",
            "score": TrialScore(
                recommendation=recommendation,
                abstained=False,
                constraint_score=reward,
                policy_score=policy_score,
                reward=reward * policy_score,
                weighted_policy_score=policy_score,
                constraint_reason="r",
                policies=results,
            ),
        }
    )


def test_pass_hat_k_formula_and_edge_cases() -> None:
    assert pass_hat_k(4, 4, 4) == 1.0  # c = n
    assert pass_hat_k(4, 2, 3) == 0.0  # c < k
    assert pass_hat_k(3, 3, 4) is None  # n < k: undefined, never 0
    assert pass_hat_k(4, 3, 2) == pytest.approx(math.comb(3, 2) / math.comb(4, 2))
    assert pass_hat_k(5, 0, 1) == 0.0
    assert pass_hat_k(5, 2, 1) == pytest.approx(0.4)
    with pytest.raises(ValueError, match="k must be"):
        pass_hat_k(3, 1, 0)
    with pytest.raises(ValueError, match="c <= n"):
        pass_hat_k(3, 4, 1)


def test_bootstrap_is_reproducible_with_a_seed() -> None:
    values = list(np.linspace(0, 1, 60))
    a = bootstrap_ci(values, seed=7)
    assert a == bootstrap_ci(values, seed=7)
    assert a != bootstrap_ci(values, seed=8)
    low, high = a
    assert low < float(np.mean(values)) < high
    assert bootstrap_ci([0.5, 0.5, 0.5]) == (0.5, 0.5)
    with pytest.raises(ValueError, match="non-empty"):
        bootstrap_ci([])


def test_summary_excludes_infra_errors_from_n_and_counts_them() -> None:
    records = [
        record("t1", 0, 1.0),
        record("t1", 1, 1.0),
        record("t1", 2, None),  # infra error: not a failure, not in n
        record("t2", 0, 1.0),
        record("t2", 1, 0.0),
        record("t3", 0, None),  # only infra errors: undefined for every k
    ]
    summary = summarize(records, ks=(1, 2, 4), seed=0)
    assert summary.counts.model_dump() == {"trials": 6, "scored": 4, "infra_error": 2, "tasks": 3}
    k1 = summary.for_k(1)
    assert (k1.tasks_defined, k1.tasks_undefined) == (2, 1)
    assert k1.value == pytest.approx((1.0 + 0.5) / 2)
    k2 = summary.for_k(2)
    assert k2.value == pytest.approx((1.0 + 0.0) / 2)
    k4 = summary.for_k(4)
    assert (k4.value, k4.ci_low, k4.tasks_defined, k4.tasks_undefined) == (None, None, 0, 3)
    assert summary.total_cost_usd == pytest.approx(0.06)
    assert summary.mean_cost_usd == pytest.approx(0.01)


def test_summary_breakdowns_and_efficiency_figures() -> None:
    records = [
        record("a", 0, 1.0, complexity="simple", reveal="hidden", tool_calls=2, latencies=[1, 3]),
        record("a", 1, 1.0, complexity="simple", reveal="hidden", tool_calls=4),
        record(
            "b",
            0,
            1.0,
            complexity="complex",
            reveal="mixed",
            policies=[("availability", False), ("recommend_tool", True)],
            tool_calls=6,
        ),
        record(
            "b",
            1,
            0.0,
            complexity="complex",
            reveal="mixed",
            policies=[("availability", True)],
            recommendation=None,
            tool_calls=8,
        ),
    ]
    summary = summarize(records, ks=(1,), seed=3, policy_names=MoviesDomain.policy_names)
    assert summary.by_complexity["simple"][0].value == 1.0
    assert summary.by_complexity["complex"][0].value == 0.0
    assert set(summary.by_reveal_difficulty) == {"hidden", "mixed"}
    rates = summary.policy_violation_rates
    assert (rates["availability"].active_trials, rates["availability"].violations) == (2, 1)
    assert rates["availability"].rate == 0.5
    assert rates["sponsored"].rate is None
    assert rates["sponsored"].active_trials == 0
    assert summary.no_recommendation_rate == 0.25
    assert summary.median_tool_calls == 5.0
    assert summary.median_step_latency_s == 0.5
    assert summary.mean_turns == 2.0
    assert summary.policy_score == 0.75
    assert (
        summarize(records, ks=(1,), seed=3, policy_names=MoviesDomain.policy_names) == summary
    )  # deterministic


def test_proposals_are_counted_per_scored_trial_and_per_success() -> None:
    records = [
        record("a", 0, 1.0, proposals=3),
        record("a", 1, 0.0, proposals=4),
        record("b", 0, 1.0, proposals=1),
        record("b", 1, None, proposals=9),  # an infra error: not a scored trial
    ]
    summary = summarize(records, ks=(1,), seed=0)
    assert summary.mean_proposals == pytest.approx(8 / 3)
    assert summary.proposals_per_success == pytest.approx(8 / 2)
    no_success = summarize([record("a", 0, 0.0, proposals=2)], ks=(1,), seed=0)
    assert no_success.proposals_per_success is None


def test_summary_refuses_duplicates_and_mixed_runs() -> None:
    with pytest.raises(ValueError, match="duplicate"):
        summarize([record("a", 0, 1.0), record("a", 0, 0.0)])
    other = record("a", 1, 1.0)
    other = other.model_copy(update={"key": other.key.model_copy(update={"submission": "x"})})
    with pytest.raises(ValueError, match="mix"):
        summarize([record("a", 0, 1.0), other])


def test_the_simulated_users_own_errors_are_summed_per_run() -> None:
    quiet = record("t1", 0, 1.0)
    noisy = record("t1", 1, 0.0).model_copy(
        update={"simulator_errors": {"reader:invalid_json": 1, "writer:leak": 2}}
    )
    also = record("t2", 0, None).model_copy(update={"simulator_errors": {"writer:leak": 1}})
    summary = summarize([quiet, noisy, also])
    assert summary.simulator_errors == {"reader:invalid_json": 1, "writer:leak": 3}
    assert summarize([quiet]).simulator_errors == {}
