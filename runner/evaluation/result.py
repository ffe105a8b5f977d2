"""The typed result of `evaluate`: pass^1…pass^k with CIs, per-task table, failing trials with reasons, and its reports."""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from runner.core.metrics import PASS_THRESHOLD, PassHatK, RunSummary, pass_hat_k
from runner.core.predicates import Complexity, RevealDifficulty
from runner.core.records import RunStatus, TrialRecord
from runner.core.transcript import InfraError, StopReason, Transcript
from runner.evaluation.feedback import Feedback
from runner.play.attribution import standing_reason

EVAL_SCHEMA_VERSION: Literal[1] = 1


class TaskRow(BaseModel):
    """One task's trials: how many were scored, how many passed, and pass^k for k = 1…trials."""

    model_config = ConfigDict(extra="forbid")

    task_id: str
    complexity: Complexity
    reveal_difficulty: RevealDifficulty
    no_valid_recommendation: bool
    scored: int = Field(description="n: scored trials (infra errors excluded)")
    passed: int = Field(description="c: trials with reward 1")
    infra_errors: int
    pass_hat_k: list[float | None] = Field(
        description="pass^k for k = 1, 2, …; None where n < k (undefined, not 0)"
    )


class FailedCheck(BaseModel):
    """Why a trial failed: one constraint or policy that did not hold, with the value judged."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["constraint", "policy", "outcome", "infra_error"]
    name: str = Field(description="Constraint field, policy name, or stop reason")
    reason: str
    value: Any = Field(default=None, description="The value judged (a constraint's actual value)")
    severity: float | None = Field(default=None, description="Policy weight, for policies")

    def line(self) -> str:
        judged = (
            "" if self.value is None else f" (judged value: {json.dumps(self.value, default=str)})"
        )
        return f"{self.kind} {self.name}: {self.reason}{judged}"


class FailingTrial(BaseModel):
    """A trial whose reward is below 1 (or that hit an infra error), with its reasons and transcript."""

    model_config = ConfigDict(extra="forbid")

    task_id: str
    trial_index: int
    seed: int
    status: Literal["scored", "infra_error"]
    stop_reason: StopReason | None
    reward: float | None
    recommendation: str | None
    reasons: list[FailedCheck]
    error: InfraError | None = None
    transcript_file: str = Field(description="Relative to the results folder")
    transcript: Transcript | None = Field(default=None, description="The whole conversation")

    def line(self) -> str:
        reward = "infra error" if self.reward is None else f"reward {self.reward:g}"
        why = "; ".join(r.line() for r in self.reasons) or "no reason recorded"
        return f"{self.task_id} trial {self.trial_index} ({reward}, {self.stop_reason}): {why}"


class EvalResult(BaseModel):
    """What one `evaluate` call measured, self-describing (inputs, digests, settings)."""

    model_config = ConfigDict(extra="forbid")

    schema_version: Literal[1] = EVAL_SCHEMA_VERSION
    status: RunStatus
    agent: str = Field(description="Provenance name of the agent, e.g. python:my_pkg.make_agent")
    slug: str
    snapshot: str
    tasks_dir: str
    simulator: str
    rules: str = Field(description="Rule set of the loop, tools and scorer (v1 or v2)")
    domain: str = Field(default="movies", description="The domain of the suite")
    strictness: str = Field(
        default="high", description="Which policy severities failed a trial (low/medium/high)"
    )
    seed: int
    trials: int
    max_turns: int
    catalog_digest: str
    task_suite_digest: str
    policy_digest: str
    results_dir: str | None = Field(description="Where the records stay; None for a scratch run")
    summary: RunSummary
    tasks: list[TaskRow]
    failing: list[FailingTrial]
    feedback: Feedback = Field(
        default_factory=Feedback, description="Failures grouped by cause, and skills"
    )
    shown: FailingTrial | None = Field(
        default=None, description="The trial asked for with show=TASK#TRIAL, passing or not"
    )

    def pass_k(self, k: int) -> float | None:
        """pass^k averaged over tasks (None when no task has k scored trials)."""
        return self.summary.for_k(k).value

    def failures(self, *, include_infra: bool = True) -> list[FailingTrial]:
        """Every failing trial, task then trial order (infra errors too unless excluded)."""
        return [t for t in self.failing if include_infra or t.status == "scored"]

    def shortfalls(self, min_pass: dict[int, float]) -> list[str]:
        """Each `pass^k >= threshold` requirement that is not met, as a sentence (empty: all met).

        A run the board would not rank (too many infrastructure errors, see `runner.play.attribution`)
        meets no requirement: its pass^k leaves out trials nobody has scored yet."""
        out = []
        counts = self.summary.counts
        unranked = standing_reason(counts.trials, counts.scored) if min_pass else None
        if unranked is not None:  # the board's rule: such a run has no pass^k to stand on
            out.append(f"not ranked: {unranked}")
        for k, threshold in sorted(min_pass.items()):
            if k > self.trials:
                out.append(f"pass^{k} needs at least {k} trials per task (ran {self.trials})")
                continue
            value = self.pass_k(k)
            if value is None:
                out.append(f"pass^{k} is undefined (no task has {k} scored trials)")
            elif value < threshold:
                out.append(f"pass^{k} = {value:.3f} is below {threshold:g}")
        return out

    def to_json(self, *, indent: int | None = 2) -> str:
        return self.model_dump_json(indent=indent)

    def to_markdown(self, *, max_failures: int | None = None) -> str:
        from runner.evaluation.report import render_markdown

        return render_markdown(self, max_failures=max_failures)


def _reasons(record: TrialRecord) -> list[FailedCheck]:
    if record.status == "infra_error" or record.score is None:
        error = record.error
        kind, message = (error.kind, error.message) if error else ("Unknown", "no error recorded")
        return [FailedCheck(kind="infra_error", name=kind, reason=message)]
    score = record.score
    checks = [
        FailedCheck(
            kind="constraint",
            name=f"{c.field} {c.op} {json.dumps(c.value, ensure_ascii=False)}",
            reason=c.reason,
            value=c.actual,
        )
        for c in score.constraints
        if not c.satisfied
    ]
    checks += [
        FailedCheck(kind="policy", name=p.policy, reason=p.reason, severity=p.severity)
        for p in score.policies
        if not p.passed
    ]
    if record.error is not None:  # the agent's failure ended it: say what happened first
        reason = f"{record.error.kind}: {record.error.message}"
        checks.insert(0, FailedCheck(kind="outcome", name=str(record.stop_reason), reason=reason))
    elif score.constraint_score < PASS_THRESHOLD and not any(
        c.kind == "constraint" for c in checks
    ):
        checks.insert(
            0,
            FailedCheck(
                kind="outcome", name=str(record.stop_reason), reason=score.constraint_reason
            ),
        )
    return checks


def failing_trial(record: TrialRecord, transcript: Transcript | None) -> FailingTrial:
    score = record.score
    return FailingTrial(
        task_id=record.key.task_id,
        trial_index=record.key.trial_index,
        seed=record.key.seed,
        status=record.status,
        stop_reason=record.stop_reason,
        reward=None if score is None else score.reward,
        recommendation=None if score is None else score.recommendation,
        reasons=_reasons(record),
        error=record.error,
        transcript_file=record.transcript,
        transcript=transcript,
    )


def is_failing(record: TrialRecord) -> bool:
    return record.score is None or record.score.reward < PASS_THRESHOLD


def task_rows(records: list[TrialRecord], ks: list[int]) -> list[TaskRow]:
    """One row per task seen, sorted by id, with pass^k from the one definition in runner.core.metrics."""
    by_task: dict[str, list[TrialRecord]] = {}
    for r in records:
        by_task.setdefault(r.key.task_id, []).append(r)
    rows = []
    for task_id in sorted(by_task):
        group = by_task[task_id]
        scored = [r for r in group if r.status == "scored" and r.score is not None]
        passed = sum(not is_failing(r) for r in scored)
        first = group[0]
        rows.append(
            TaskRow(
                task_id=task_id,
                complexity=first.complexity,
                reveal_difficulty=first.reveal_difficulty,
                no_valid_recommendation=first.no_valid_recommendation,
                scored=len(scored),
                passed=passed,
                infra_errors=len(group) - len(scored),
                pass_hat_k=[pass_hat_k(len(scored), passed, k) for k in ks],
            )
        )
    return rows


__all__ = [
    "EvalResult",
    "FailedCheck",
    "FailingTrial",
    "PassHatK",
    "TaskRow",
    "failing_trial",
    "is_failing",
    "parse_min_pass",
    "task_rows",
]


def parse_min_pass(text: str) -> tuple[int, float]:
    """`K=VALUE` (e.g. `4=0.5`: pass^4 must be at least 0.5) → (4, 0.5); bad text raises ValueError."""
    k_text, sep, value_text = text.partition("=")
    try:
        k, value = int(k_text), float(value_text)
    except ValueError:
        k, value = 0, -1.0
    if not sep or k < 1 or not 0 <= value <= 1:
        raise ValueError(f"{text!r}: expected K=VALUE with K >= 1 and 0 <= VALUE <= 1, e.g. 4=0.5")
    return k, value
