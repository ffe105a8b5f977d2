"""What the site publishes of runs on a TMDB-sourced snapshot: trial records without the catalog values their verdicts quote.

TMDB's terms let us share ids, not their data. A verdict on such a run keeps what it judged
(field, operator, the task's own value, satisfied or not) but not the title's value, which a
reader gets back by hydrating the snapshot with their own key and running `taurec score`.
"""

from __future__ import annotations

from runner.core.records import TrialRecord

NOT_REPUBLISHED = (
    "the title's value is TMDB data, not republished: hydrate the snapshot and run "
    "`taurec score` to see it"
)
# Policies whose reasons quote a catalog field of the recommended title (content rating, services).
QUOTING_POLICIES = frozenset({"availability", "age_restricted"})


def redact_record(record: TrialRecord) -> TrialRecord:
    """The record with every catalog value its verdicts quote replaced by a plain verdict."""
    score = record.score
    if score is None:
        return record
    reason = score.constraint_reason
    checks = []
    for check in score.constraints:
        plain = (
            f"{check.field} {check.op} {check.value!r}: "
            f"{'holds' if check.satisfied else 'fails'} ({NOT_REPUBLISHED})"
        )
        if check.reason:
            reason = reason.replace(check.reason, plain)
        checks.append(check.model_copy(update={"actual": None, "reason": plain}))
    policies = [
        p.model_copy(update={"reason": f"{'passed' if p.passed else 'failed'} ({NOT_REPUBLISHED})"})
        if p.policy in QUOTING_POLICIES
        else p
        for p in score.policies
    ]
    return record.model_copy(
        update={
            "score": score.model_copy(
                update={"constraints": checks, "policies": policies, "constraint_reason": reason}
            )
        }
    )
