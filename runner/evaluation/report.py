"""The feedback report of an evaluation as markdown: pass^k with CIs, strata, policies, efficiency, failing trials."""

from __future__ import annotations

from typing import TYPE_CHECKING

from runner.core.metrics import PassHatK
from runner.evaluation.feedback import KIND_TITLE

if TYPE_CHECKING:
    from runner.evaluation.feedback import Cause
    from runner.evaluation.result import EvalResult, FailingTrial


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
        lines += ["", f"### {number}. {KIND_TITLE[kind]} — {count}{ways}", ""]
        for cause in rules:
            lines += _cause(cause)
    if len(shown) < len(causes):
        lines += ["", f"… and {len(causes) - len(shown)} more cause(s) (see the JSON report)"]
    return lines


def _cause(cause: Cause) -> list[str]:
    """One rule broken: how often, one or two examples, and the first example's details."""
    failed = f", {cause.failed_trials} of them failed" if cause.kind == "tool_error" else ""
    lines = [f"- **{cause.heading()}**{failed}"]
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
        f"{_fmt(s.mean_constraint_score)}, no recommendation in {_fmt(s.no_recommendation_rate)}",
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
