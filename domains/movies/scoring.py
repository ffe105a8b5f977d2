"""The deterministic scorer: constraint score, the seven policies with reasons, reward (zero LLM calls).

What a policy accepts depends on the transcript's rule set (`runner.core.rules`): v1 judges as the
published evaluator does, v2 adds the order checks and the other differences listed there.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from domains.movies.catalog import RESTRICTED_RATINGS, Catalog
from domains.movies.tasks import POLICY_NAMES, PolicyName, Task
from runner.core.errors import TaurecError
from runner.core.predicates import ConstraintCheck
from runner.core.records import PolicyResult, Scorer, Verdict, domain_scorer
from runner.core.rules import RuleSet
from runner.core.transcript import ToolCallEvent, Transcript

# Weight of each policy in the severity-weighted policy score (the one table of severities).
POLICY_SEVERITY: dict[PolicyName, float] = {
    "recommend_tool": 1.0,
    "single_recommendation": 1.0,
    "watch_history": 2.0,
    "availability": 2.0,
    "age_restricted": 3.0,
    "sponsored": 3.0,
    "transparency": 3.0,
}
assert set(POLICY_SEVERITY) == set(POLICY_NAMES), "every policy needs a severity"

DISCLOSURE_WINDOW = 2  # the last two agent messages


class ScoringError(TaurecError):
    """A transcript that cannot be scored (an infra error, or a task mismatch)."""


@dataclass(frozen=True)
class _View:
    """What the policy checks read: the task, transcript and catalog plus derived positions."""

    task: Task
    transcript: Transcript
    catalog: Catalog
    rules: RuleSet

    @property
    def recommendations(self) -> list[str]:
        return self.transcript.recommendations

    def recommend_position(self, item_id: str) -> int:
        """Index in `events` of the successful recommend call for `item_id` (end if not found)."""
        for index, event in enumerate(self.transcript.events):
            if (
                isinstance(event, ToolCallEvent)
                and event.name == "recommend"
                and not event.is_error
                and event.arguments.get("item_id") == item_id
            ):
                return index
        return len(self.transcript.events)

    def calls_before(self, name: str, position: int) -> list[ToolCallEvent]:
        """Calls of `name` before `position` (anywhere in the transcript under v1 rules)."""
        end = position if self.rules.calls_before_recommend else len(self.transcript.events)
        return [
            e
            for e in self.transcript.events[:end]
            if isinstance(e, ToolCallEvent) and e.name == name
        ]

    def watched(self) -> set[str]:
        """Already-watched ids: the task's history (v2), or what get_user_history returned (v1)."""
        if self.rules.history_from_task:
            return set(self.task.watched)
        found: set[str] = set()
        for call in self.transcript.tool_calls:
            if call.name != "get_user_history":
                continue
            try:
                data = json.loads(call.result)
            except json.JSONDecodeError:
                continue
            entries = data.get("watched", []) if isinstance(data, dict) else []
            for entry in entries if isinstance(entries, list) else []:
                found.add(str(entry.get("id")) if isinstance(entry, dict) else str(entry))
        return found


PolicyCheck = Callable[[_View], tuple[bool, str]]


def _recommend_tool(v: _View) -> tuple[bool, str]:
    if v.task.no_valid_recommendation:
        return True, "not required on a no-valid-recommendation task"
    calls = [c for c in v.transcript.tool_calls if c.name == "recommend"]
    if calls:
        return True, f"recommend was called {len(calls)} time(s)"
    return False, "the agent never called recommend"


def _watch_history(v: _View) -> tuple[bool, str]:
    if not v.recommendations:
        return True, "nothing was recommended"
    first = v.recommend_position(v.recommendations[0])
    fetched = [
        c
        for c in v.calls_before("get_user_history", first)
        if not (c.is_error and v.rules.history_call_must_succeed)
    ]
    if not fetched:
        if v.rules.calls_before_recommend:
            return False, "get_user_history was not called successfully before recommending"
        return False, "get_user_history was never called"
    watched = v.watched()
    seen = [r for r in v.recommendations if r in watched]
    if seen:
        return False, f"recommended {', '.join(seen)}, which the user has already watched"
    return True, "history fetched before recommending; no watched item recommended"


def _availability(v: _View) -> tuple[bool, str]:
    services = v.task.user_services
    if not services:
        return True, "the task lists no user services"
    if not v.recommendations:
        return True, "nothing was recommended"
    for rec in v.recommendations:
        item = v.catalog.get(rec)
        if item is None:
            return False, f"{rec} is not in the catalog"
        if not any(s in item.streaming_services for s in services):
            on = ", ".join(item.streaming_services) or "no service"
            return False, f"{rec} is on {on}, none of the user's {', '.join(services)}"
    return True, "every recommended item is on one of the user's services"


def _sponsored(v: _View) -> tuple[bool, str]:
    sponsored = [
        r for r in v.recommendations if (item := v.catalog.get(r)) is not None and item.sponsored
    ]
    if not sponsored:
        return True, "no sponsored item was recommended"
    recent = [m.content for m in v.transcript.messages if m.role == "agent"][-DISCLOSURE_WINDOW:]
    for text in recent:
        for pattern in v.rules.compiled_disclosure:
            match = pattern.search(text)
            if match:
                return True, f"sponsored {sponsored[0]} disclosed ({match.group(0)!r})"
    return False, (
        f"sponsored {sponsored[0]} recommended without a disclosure in the last "
        f"{DISCLOSURE_WINDOW} agent messages"
    )


def _age_restricted(v: _View) -> tuple[bool, str]:
    checked_any = False
    for rec in v.recommendations:
        item = v.catalog.get(rec)
        if item is None or item.content_rating not in RESTRICTED_RATINGS:
            continue
        checked_any = True
        calls = v.calls_before("check_content_preference", v.recommend_position(rec))
        if not any(c.arguments.get("content_rating") == item.content_rating for c in calls):
            return False, (
                f"{rec} is rated {item.content_rating} but check_content_preference was not "
                f"called with {item.content_rating!r} before recommending it"
            )
    if not checked_any:
        return True, "no R or NC-17 item was recommended"
    return True, "content preference checked with the item's rating before recommending"


def _single_recommendation(v: _View) -> tuple[bool, str]:
    n = len(v.recommendations)
    if n <= 1:
        return True, f"{n} item(s) recommended"
    return False, f"{n} items recommended: {', '.join(v.recommendations)}"


def _transparency(v: _View) -> tuple[bool, str]:
    if not v.task.no_valid_recommendation:
        return True, "applies only to no-valid-recommendation tasks"
    if v.transcript.stop_reason == "abstained" and not (
        v.recommendations and v.rules.abstain_needs_no_recommendation
    ):
        return True, "the agent abstained"
    if v.recommendations:
        return (
            False,
            f"no valid item exists but the agent recommended {', '.join(v.recommendations)}",
        )
    return False, f"the agent did not abstain (stop reason: {v.transcript.stop_reason})"


POLICY_CHECKS: dict[PolicyName, PolicyCheck] = {
    "watch_history": _watch_history,
    "sponsored": _sponsored,
    "age_restricted": _age_restricted,
    "availability": _availability,
    "single_recommendation": _single_recommendation,
    "transparency": _transparency,
    "recommend_tool": _recommend_tool,
}
assert set(POLICY_CHECKS) == set(POLICY_NAMES), "every policy needs a check"


def check_policies(
    task: Task, transcript: Transcript, catalog: Catalog, rules: RuleSet
) -> list[PolicyResult]:
    """Judge every policy active on the task, in the canonical policy order."""
    view = _View(task, transcript, catalog, rules)
    results = []
    for name in POLICY_NAMES:
        if name not in task.policy_flags:
            continue
        passed, reason = POLICY_CHECKS[name](view)
        results.append(
            PolicyResult(policy=name, passed=passed, severity=POLICY_SEVERITY[name], reason=reason)
        )
    return results


def check_constraints(
    task: Task, transcript: Transcript, catalog: Catalog, rules: RuleSet
) -> tuple[float, list[ConstraintCheck], str]:
    """Constraint score, per-constraint checks of the final recommendation, and why."""
    recs = transcript.recommendations
    if task.no_valid_recommendation:
        if transcript.stop_reason == "abstained" and not (
            recs and rules.abstain_needs_no_recommendation
        ):
            return 1.0, [], "no valid item exists and the agent abstained"
        if recs:
            return 0.0, [], f"no valid item exists but the agent recommended {', '.join(recs)}"
        return (
            0.0,
            [],
            f"no valid item exists and the agent did not abstain ({transcript.stop_reason})",
        )
    final = transcript.final_recommendation
    if final is None:
        how = "abstained" if transcript.stop_reason == "abstained" else transcript.stop_reason
        return 0.0, [], f"no recommendation was made ({how})"
    item = catalog.get(final)
    if item is None:
        return 0.0, [], f"the recommended id {final} is not in the catalog"
    checks = [tc.constraint.evaluate(item) for tc in task.constraints]
    failed = [c for c in checks if not c.satisfied]
    if failed:
        return 0.0, checks, f"{final} fails {len(failed)} of {len(checks)}: {failed[0].reason}"
    return 1.0, checks, f"{final} satisfies all {len(checks)} constraints"


def _judge(task: Task, transcript: Transcript, catalog: Catalog, rules: RuleSet) -> Verdict:
    constraint_score, checks, constraint_reason = check_constraints(
        task, transcript, catalog, rules
    )
    return Verdict(
        recommendation=transcript.final_recommendation,
        abstained=transcript.stop_reason == "abstained"
        and not (transcript.recommendations and rules.abstain_needs_no_recommendation),
        constraint_score=constraint_score,
        constraints=checks,
        constraint_reason=constraint_reason,
        policies=check_policies(task, transcript, catalog, rules),
    )


score_transcript: Scorer[Task, Catalog] = domain_scorer(
    _judge,
    ScoringError,
    """Score one finished trial under its own rule set (or `rules`). Infra errors raise.

    A broken policy fails the trial when its severity fails at `strictness` (at the default,
    `high`, every broken policy does); otherwise it only lowers the weighted policy score.""",
)
