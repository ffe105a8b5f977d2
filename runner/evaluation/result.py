"""The typed result of `evaluate`: pass^1…pass^k with CIs, per-task table, failing trials with reasons, and its reports."""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import Field

from runner.core.domains import get_domain
from runner.core.metrics import PASS_THRESHOLD, PassHatK, RunSummary, pass_hat_k
from runner.core.predicates import Complexity, RevealDifficulty
from runner.core.records import RunStatus, TrialRecord
from runner.core.transcript import InfraError, StopReason, Transcript
from runner.evaluation.feedback import Cause, Feedback, ReportModel, kind_titles
from runner.play.attribution import standing_reason

EVAL_SCHEMA_VERSION: Literal[1] = 1


class TaskRow(ReportModel):
    """One task's trials: how many were scored, how many passed, and pass^k for k = 1…trials."""

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


class FailedCheck(ReportModel):
    """Why a trial failed: one constraint or policy that did not hold, with the value judged."""

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


class FailingTrial(ReportModel):
    """A trial whose reward is below 1 (or that hit an infra error), with its reasons and transcript."""

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


class EvalResult(ReportModel):
    """What one `evaluate` call measured, self-describing (inputs, digests, settings)."""

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


# The feedback report as markdown: pass^k with CIs, strata, policies, efficiency, failing trials.
def _fmt(value: float | None, digits: int = 3) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


def _ci(entry: PassHatK) -> str:
    if entry.ci_low is None or entry.ci_high is None:
        return "—"
    return f"[{entry.ci_low:.3f}, {entry.ci_high:.3f}]"


def _strata(title: str, strata: dict[str, list[PassHatK]], ks: list[int]) -> list[str]:
    shown = [k for k in ks if k in (1, max(ks))]
    head = "| " + title + " | " + " | ".join(f"pass^{k}" for k in shown) + " | tasks |"
    lines = [head, "|---|" + "---|" * len(shown) + "---|"]
    for name, entries in strata.items():
        by_k = {e.k: e for e in entries}
        cells = " | ".join(_fmt(by_k[k].value) for k in shown)
        tasks = by_k[shown[0]].tasks_defined + by_k[shown[0]].tasks_undefined
        lines.append(f"| {name} | {cells} | {tasks} |")
    return lines


def _skills(result: EvalResult) -> list[str]:
    rows = result.feedback.skills
    if not rows:
        return []
    lines = [
        "",
        "## Skills",
        "",
        "| skill | held | rate | what it counts | what the misses have in common |",
        "|---|---|---|---|---|",
    ]
    for row in rows:
        held = f"{row.held}/{row.of}" if row.of else "—"
        lines.append(
            f"| {row.skill} | {held} | {_fmt(row.rate, 2)} | {row.measures} | {row.hint or '—'} |"
        )
    return lines


def _causes(result: EvalResult, max_causes: int | None) -> list[str]:
    causes = result.feedback.causes
    titles = kind_titles(get_domain(result.domain))
    failing = result.failing
    lines = [
        "",
        f"## What went wrong, by cause ({len(failing)} failing trial(s) of "
        f"{sum(t.scored + t.infra_errors for t in result.tasks)})",
        "",
    ]
    if not causes:
        lines.append("Nothing: every trial passed and no tool call was refused.")
        return lines
    lines.append(
        "Most frequent first, grouped by the rule broken (not by value or message); a trial can "
        "have several causes. Refused tool calls are listed even in trials that passed. Read an "
        "example with `--show TASK#TRIAL`."
    )
    shown = causes if max_causes is None else causes[:max_causes]
    # One heading per kind of cause (most failing first), its rules under it: however many ways
    # one agent finds to break rules, the report has at most as many headings as there are kinds.
    kinds = list(dict.fromkeys(cause.kind for cause in shown))
    for number, kind in enumerate(kinds, start=1):
        rules = [cause for cause in shown if cause.kind == kind]
        trials = result.feedback.kind_trials.get(kind, max(c.trials for c in rules))
        count = (
            f"{sum(c.occurrences for c in rules)} calls in {trials} trial(s)"
            if kind == "tool_error"
            else f"{trials} trial(s)"
        )
        ways = f", {len(rules)} rules" if len(rules) > 1 else ""
        lines += ["", f"### {number}. {titles[kind]} — {count}{ways}", ""]
        for cause in rules:
            lines += _cause(cause, titles)
    if len(shown) < len(causes):
        lines += ["", f"… and {len(causes) - len(shown)} more cause(s) (see the JSON report)"]
    return lines


def _cause(cause: Cause, titles: dict[str, str]) -> list[str]:
    """One rule broken: how often, one or two examples, and the first example's details."""
    failed = f", {cause.failed_trials} of them failed" if cause.kind == "tool_error" else ""
    lines = [f"- **{cause.heading(titles)}**{failed}"]
    lines.append(f"  - example: `{cause.example}` (`--show {cause.example}`)")
    lines += ["  - " + detail.replace("\n", "\n    ") for detail in cause.details]
    if cause.another:
        lines.append(f"  - another: `{cause.another}`")
    return lines


def render_trial(trial: FailingTrial) -> str:
    """One trial readably: every message and tool call in order, how it ended, and its verdict."""
    from runner.play.named_trial import NamedTrial, format_transcript

    head = (
        f"# {trial.task_id}#{trial.trial_index}: "
        + ("infra error" if trial.reward is None else f"reward {trial.reward:g}")
        + f", {trial.stop_reason}"
    )
    lines = [head, ""]
    if trial.transcript is None:
        lines.append(f"(transcript not found: {trial.transcript_file})")
    else:
        lines.append(format_transcript(NamedTrial(transcript=trial.transcript)))
    if trial.status != "scored" or (trial.reward is not None and trial.reward < 1):
        lines += ["", "why it failed:"]
        lines += [f"  - {r.line()}" for r in trial.reasons]
    return "\n".join(lines) + "\n"


def _simulator_errors(counts: dict[str, int]) -> list[str]:
    """The simulated user's own error count (LLM mode), when it had any."""
    if not counts:
        return []
    shown = ", ".join(f"{key} {n}" for key, n in counts.items())
    return ["", f"The simulated user fell back {sum(counts.values())} time(s): {shown}."]


def render_markdown(result: EvalResult, *, max_failures: int | None = None) -> str:
    """A report for humans and improvement loops: failures grouped by cause with one example each
    (`max_failures` caps the causes shown), and a per-skill summary."""
    s = result.summary
    lines = [
        f"# τ-Rec evaluation: {result.agent}",
        "",
        f"{s.counts.tasks} tasks × {result.trials} trials on snapshot `{result.snapshot}`, "
        f"simulator `{result.simulator}`, rules {result.rules}, seed {result.seed}, max {result.max_turns} turns "
        f"(status: {result.status}). {s.counts.scored} trials scored, "
        f"{s.counts.infra_error} infrastructure errors (excluded from n).",
        *_simulator_errors(s.simulator_errors),
        "",
        "## Reliability",
        "",
        "| k | pass^k | 95% CI | tasks defined |",
        "|---|---|---|---|",
    ]
    lines += [f"| {e.k} | {_fmt(e.value)} | {_ci(e)} | {e.tasks_defined} |" for e in s.pass_hat_k]
    lines += _skills(result)
    lines += _causes(result, max_failures)
    lines += ["", "## By stratum", ""]
    lines += _strata("complexity", s.by_complexity, s.ks)
    lines += [""]
    lines += _strata("reveal difficulty", s.by_reveal_difficulty, s.ks)
    lines += [
        "",
        "## Policy adherence",
        "",
        f"All policies held in {_fmt(s.policy_score)} of scored trials; severity-weighted "
        f"score {_fmt(s.weighted_policy_score)}.",
        "",
        "| policy | active trials | violations | rate |",
        "|---|---|---|---|",
    ]
    lines += [
        f"| {name} | {rate.active_trials} | {rate.violations} | {_fmt(rate.rate)} |"
        for name, rate in s.policy_violation_rates.items()
        if rate.active_trials
    ]
    lines += [
        "",
        "## Efficiency",
        "",
        f"- mean reward {_fmt(s.mean_reward)}, mean constraint score "
        f"{_fmt(s.mean_constraint_score)}, {get_domain(result.domain).no_outcome} in "
        f"{_fmt(s.no_recommendation_rate)}",
        f"- mean turns {_fmt(s.mean_turns, 2)}, median tool calls {_fmt(s.median_tool_calls, 1)}, "
        f"median step latency {_fmt(s.median_step_latency_s, 4)} s",
        f"- proposals: {_fmt(s.mean_proposals, 2)} per scored trial, "
        f"{_fmt(s.proposals_per_success, 2)} per success",
        f"- cost: {_fmt(s.mean_cost_usd, 6)} USD per scored trial, "
        f"{s.total_cost_usd:.6f} USD in all",
        "",
    ]
    if result.results_dir:
        lines += ["", f"Records and transcripts: `{result.results_dir}`"]
    return "\n".join(lines) + "\n"
