"""Reliability metrics from trial records: pass^k per task, seeded bootstrap CIs, and a run summary."""

from __future__ import annotations

import functools
import math
import statistics
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from runner.core.records import TrialRecord

SUMMARY_SCHEMA_VERSION: Literal[1] = 1
PASS_THRESHOLD = 1.0 - 1e-9  # a trial passes when its reward is 1


def pass_hat_k(n: int, c: int, k: int) -> float | None:
    """pass^k of one task with `c` passing trials out of `n`: C(c,k)/C(n,k); None when n < k."""
    if k < 1:
        raise ValueError(f"k must be >= 1, got {k}")
    if n < 0 or c < 0 or c > n:
        raise ValueError(f"need 0 <= c <= n, got n={n}, c={c}")
    if n < k:
        return None
    return math.comb(c, k) / math.comb(n, k)


@functools.lru_cache(maxsize=64)
def _resample_indices(seed: int, resamples: int, size: int) -> np.ndarray[Any, Any]:
    """The resampling draws of a seed: the same for every call, so built once per (seed, size)."""
    indices = np.random.default_rng(seed).integers(0, size, size=(resamples, size))
    indices.setflags(write=False)
    return indices


def bootstrap_ci(
    values: Sequence[float] | np.ndarray[Any, Any],
    *,
    seed: int = 0,
    resamples: int = 2000,
    level: float = 0.95,
) -> tuple[float, float]:
    """Percentile bootstrap CI of the mean (resampling the values, e.g. tasks); seeded, vectorized."""
    data = np.asarray(values, dtype=np.float64)
    if data.ndim != 1 or data.size == 0:
        raise ValueError("bootstrap_ci needs a non-empty 1-d sequence of values")
    if not 0 < level < 1:
        raise ValueError(f"level must be in (0, 1), got {level}")
    means = data[_resample_indices(seed, resamples, data.size)].mean(axis=1)
    alpha = (1.0 - level) / 2.0
    low, high = np.quantile(means, [alpha, 1.0 - alpha])
    return float(low), float(high)


class PassHatK(BaseModel):
    """pass^k averaged over the tasks where it is defined (n >= k), with a bootstrap CI."""

    model_config = ConfigDict(extra="forbid")

    k: int
    value: float | None = Field(description="Mean over defined tasks; None when none is defined")
    ci_low: float | None = None
    ci_high: float | None = None
    tasks_defined: int
    tasks_undefined: int = Field(description="Tasks with fewer than k scored trials (excluded)")


class PolicyRate(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)

    active_trials: int = Field(description="Scored trials whose task activates the policy")
    violations: int
    rate: float | None


class SummaryCounts(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)

    trials: int = Field(description="All records, scored or not")
    scored: int
    infra_error: int = Field(description="Excluded from n everywhere; reported here")
    tasks: int = Field(description="Tasks seen in the records")


class RunSummary(BaseModel):
    """Aggregate figures of one run (one submission on one snapshot)."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    schema_version: Literal[1] = SUMMARY_SCHEMA_VERSION
    ks: list[int]
    seed: int
    counts: SummaryCounts
    pass_hat_k: list[PassHatK]
    by_complexity: dict[str, list[PassHatK]]
    by_reveal_difficulty: dict[str, list[PassHatK]]
    mean_reward: float | None
    mean_constraint_score: float | None
    policy_score: float | None = Field(description="Share of scored trials holding every policy")
    weighted_policy_score: float | None
    policy_violation_rates: dict[str, PolicyRate]
    no_recommendation_rate: float | None
    mean_turns: float | None
    median_tool_calls: float | None
    mean_proposals: float | None = Field(
        default=None, description="Titles proposed per scored trial (each one gets a verdict)"
    )
    proposals_per_success: float | None = Field(
        default=None, description="All proposals of scored trials over the trials with reward 1"
    )
    median_step_latency_s: float | None
    mean_cost_usd: float | None = Field(description="Per scored trial")
    total_cost_usd: float = Field(description="All records, infra errors included")
    simulator_errors: dict[str, int] = Field(
        default_factory=dict,
        description="The simulated user's own fallbacks over all records, by component:reason "
        "(LLM mode's reader fallbacks and writer guard triggers; empty for the scripted user)",
    )

    def for_k(self, k: int) -> PassHatK:
        for entry in self.pass_hat_k:
            if entry.k == k:
                return entry
        raise KeyError(k)


def _per_success(scored: list[TrialRecord]) -> float | None:
    """Proposals made across scored trials per trial that succeeded (None with no success)."""
    successes = sum(trial_passed(r) for r in scored)
    return sum(r.efficiency.proposals for r in scored) / successes if successes else None


def trial_passed(record: TrialRecord) -> bool:
    """A scored trial with reward 1 (the only kind pass^k counts as a success)."""
    return record.score is not None and record.score.reward >= PASS_THRESHOLD


def _pass_hat_k_over_tasks(
    by_task: dict[str, list[TrialRecord]], ks: Sequence[int], seed: int
) -> list[PassHatK]:
    counts = {
        task: (len(trials), sum(trial_passed(t) for t in trials))
        for task, trials in by_task.items()
    }
    return pass_hat_k_over_tasks(counts, ks, seed)


def _per_task_pass_hat_k(counts: Mapping[str, tuple[int, int]], k: int) -> tuple[list[float], int]:
    """pass^k of every task where it is defined (tasks sorted by id), and how many it is not."""
    per_task = []
    undefined = 0
    for task_id in sorted(counts):
        n, c = counts[task_id]
        value = pass_hat_k(n, c, k)
        if value is None:
            undefined += 1
        else:
            per_task.append(value)
    return per_task, undefined


def pass_hat_k_means(
    counts: Mapping[str, tuple[int, int]], ks: Sequence[int]
) -> list[tuple[int, float | None]]:
    """(k, pass^k averaged over tasks) for each k: `pass_hat_k_over_tasks` without the CIs.

    The end-of-run summary prints only these; the 2,000 bootstrap resamples of each CI (and
    numpy's random and quantile modules they import) are left to those who read the CIs.
    """
    out: list[tuple[int, float | None]] = []
    for k in ks:
        per_task, _undefined = _per_task_pass_hat_k(counts, k)
        out.append((k, float(np.mean(per_task)) if per_task else None))
    return out


def pass_hat_k_over_tasks(
    counts: Mapping[str, tuple[int, int]], ks: Sequence[int], seed: int
) -> list[PassHatK]:
    """pass^k for each k, averaged over tasks from their (scored n, passing c) counts."""
    out = []
    for k in ks:
        per_task, undefined = _per_task_pass_hat_k(counts, k)
        if per_task:
            low, high = bootstrap_ci(per_task, seed=seed)
            out.append(
                PassHatK(
                    k=k,
                    value=float(np.mean(per_task)),
                    ci_low=low,
                    ci_high=high,
                    tasks_defined=len(per_task),
                    tasks_undefined=undefined,
                )
            )
        else:
            out.append(PassHatK(k=k, value=None, tasks_defined=0, tasks_undefined=undefined))
    return out


def _mean(values: Iterable[float]) -> float | None:
    data = list(values)
    return float(statistics.fmean(data)) if data else None


def _median(values: Iterable[float]) -> float | None:
    data = list(values)
    return float(statistics.median(data)) if data else None


def summarize(
    records: Sequence[TrialRecord],
    ks: Sequence[int] = (1, 2, 4),
    seed: int = 0,
    policy_names: Sequence[str] = (),
) -> RunSummary:
    """Summarize one run's trial records. Infra-error trials are counted apart, never in n.

    The policy rate table lists `policy_names` (the domain's, in its order) and then any other
    policy the records judged, in the order first seen."""
    keys = [r.key.as_tuple() for r in records]
    if len(set(keys)) != len(keys):
        dup = next(k for k in keys if keys.count(k) > 1)
        raise ValueError(f"duplicate trial key {dup}")
    runs = {(r.key.submission, r.key.snapshot_sha256) for r in records}
    if len(runs) > 1:
        raise ValueError(f"records mix {len(runs)} (submission, snapshot) runs; summarize one")
    scored = [r for r in records if r.status == "scored" and r.score is not None]
    # Every task seen is listed; one whose trials all hit infra errors has n = 0 (undefined).
    by_task: dict[str, list[TrialRecord]] = {r.key.task_id: [] for r in records}
    for r in scored:
        by_task[r.key.task_id].append(r)

    def strata(attr: str) -> dict[str, list[PassHatK]]:
        groups: dict[str, dict[str, list[TrialRecord]]] = defaultdict(dict)
        for r in records:
            groups[str(getattr(r, attr))].setdefault(r.key.task_id, [])
        for r in scored:
            groups[str(getattr(r, attr))][r.key.task_id].append(r)
        return {name: _pass_hat_k_over_tasks(groups[name], ks, seed) for name in sorted(groups)}

    rates: dict[str, PolicyRate] = {}
    seen = [p.policy for r in scored for p in (r.score.policies if r.score else [])]
    for name in dict.fromkeys([*policy_names, *seen]):
        results = [
            p for r in scored for p in (r.score.policies if r.score else []) if p.policy == name
        ]
        violations = sum(not p.passed for p in results)
        rates[name] = PolicyRate(
            active_trials=len(results),
            violations=violations,
            rate=violations / len(results) if results else None,
        )
    scores = [r.score for r in scored if r.score is not None]
    simulator_errors: Counter[str] = Counter()
    for r in records:
        simulator_errors.update(r.simulator_errors)
    return RunSummary(
        simulator_errors=dict(sorted(simulator_errors.items())),
        ks=list(ks),
        seed=seed,
        counts=SummaryCounts(
            trials=len(records),
            scored=len(scored),
            infra_error=sum(r.status == "infra_error" for r in records),
            tasks=len(by_task),
        ),
        pass_hat_k=_pass_hat_k_over_tasks(by_task, ks, seed),
        by_complexity=strata("complexity"),
        by_reveal_difficulty=strata("reveal_difficulty"),
        mean_reward=_mean(s.reward for s in scores),
        mean_constraint_score=_mean(s.constraint_score for s in scores),
        policy_score=_mean(s.policy_score for s in scores),
        weighted_policy_score=_mean(s.weighted_policy_score for s in scores),
        policy_violation_rates=rates,
        no_recommendation_rate=_mean(float(s.recommendation is None) for s in scores),
        mean_turns=_mean(r.efficiency.turns for r in scored),
        median_tool_calls=_median(r.efficiency.tool_calls for r in scored),
        mean_proposals=_mean(r.efficiency.proposals for r in scored),
        proposals_per_success=_per_success(scored),
        median_step_latency_s=_median(lat for r in scored for lat in r.efficiency.step_latencies_s),
        mean_cost_usd=_mean(r.cost_usd for r in scored),
        total_cost_usd=round(sum(r.cost_usd for r in records), 10),
    )
