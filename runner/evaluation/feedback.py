"""Feedback an agent builder can act on: failures grouped by cause, each with a count, one worked
example and what to change; and a per-skill summary (elicitation, retrieval, policy, declines,
abstention). Built from the trial records, their transcripts, the tasks and the catalog only."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from runner.core.domain import Domain
from runner.core.metrics import PASS_THRESHOLD
from runner.core.predicates import ConstraintCheck
from runner.core.records import TrialRecord
from runner.core.transcript import MessageEvent, Transcript

__all__ = [
    "KIND_TITLE",
    "Cause",
    "Feedback",
    "SkillRow",
    "build_feedback",
    "clip",
    "kind_titles",
    "rule_text",
]

CauseKind = Literal[
    "agent_error",
    "infra_error",
    "tool_error",
    "constraint",
    "policy",
    "abstained",
    "unfinished",
    "outcome",
]
KIND_TITLE: dict[str, str] = {
    "agent_error": "agent error",
    "infra_error": "error raised in a trial",
    "tool_error": "tool call refused",
    "constraint": "constraint missed",
    "policy": "policy broken",
    "abstained": "abstained on a task that has an answer",
    "unfinished": "no recommendation",
    "outcome": "recommendation judged wrong",
}


def kind_titles(domain: Domain) -> dict[str, str]:
    """Each kind's title as `domain` words what a trial ends on ("no recommendation" on movies,
    "no single product ordered" on grocery)."""
    return {**KIND_TITLE, "unfinished": domain.no_outcome, "outcome": domain.wrong_outcome}


# A missed constraint is grouped by its field and the way the judged value missed, never by the
# value asked for: "runtime: above the maximum" whatever the maximum was.
_DIRECTION: dict[str, str] = {
    "<=": "above the maximum",
    ">=": "below the minimum",
    "==": "not the value asked for",
    "!=": "a value ruled out",
    "contains": "lacks a value asked for",
    "contains_any": "has none of the values asked for",
    "not_contains": "has a value ruled out",
    "in": "not one of the values allowed",
}
# What each kind of failure asks of the builder, as a rule to follow.
_REVEAL_HINT = {
    "volunteer": "the user states it in the opening request",
    "on_ask": "the user states it only when asked about it",
    "hidden": "the user never states it; it shows only in the reason of a declined proposal",
}
_CLIP = 240


def clip(text: str, limit: int = _CLIP) -> str:
    """`text` on one line, cut to `limit` characters with an ellipsis."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


class ReportModel(BaseModel):
    """A part of eval's report (strict: an unknown field is an error, as in every saved file)."""

    model_config = ConfigDict(extra="forbid")


class Cause(ReportModel):
    """One cause of failure (or one kind of refused tool call), with how often and one example."""

    kind: CauseKind
    label: str = Field(description="What went wrong, precisely, e.g. unknown tool 'search_movies'")
    trials: int = Field(description="Trials it happened in")
    occurrences: int = Field(description="Times it happened (tool calls, for tool errors)")
    failed_trials: int = Field(description="Of those trials, how many did not pass")
    example: str = Field(description="TASK#TRIAL of the example")
    another: str | None = Field(
        default=None,
        description="TASK#TRIAL of a second example, of another task when there is one",
    )
    details: list[str] = Field(
        description="The example: the offending reply or call, the judged value, the rule broken"
    )

    def heading(self, titles: dict[str, str] = KIND_TITLE) -> str:
        """The cause in one line; `titles`: each kind's title (`kind_titles` of the domain)."""
        times = (
            f"{self.occurrences} calls in {self.trials} trial(s)"
            if self.kind == "tool_error"
            else f"{self.trials} trial(s)"
        )
        return f"{titles[self.kind]}: {self.label} — {times}"


class SkillRow(ReportModel):
    """One skill: trials where it held, out of the trials that test it, and what it measures."""

    skill: str
    held: int
    of: int
    measures: str
    hint: str = Field(default="", description="What the failures of this skill have in common")

    @property
    def rate(self) -> float | None:
        return self.held / self.of if self.of else None


def _skill(skill: str, held: list[Any], of: list[Any], measures: str, hint: str = "") -> SkillRow:
    """A skill row counting `held` trials out of `of`."""
    return SkillRow(skill=skill, held=len(held), of=len(of), measures=measures, hint=hint)


class Feedback(ReportModel):
    """Causes (most frequent first) and the per-skill summary of one evaluation."""

    causes: list[Cause] = Field(default_factory=list)
    skills: list[SkillRow] = Field(default_factory=list)
    kind_trials: dict[str, int] = Field(
        default_factory=dict, description="Per kind of cause, the trials with at least one"
    )


@dataclass
class _Group:
    kind: CauseKind
    label: str
    trials: set[tuple[str, int]] = field(default_factory=set)
    failed: set[tuple[str, int]] = field(default_factory=set)
    occurrences: int = 0
    example: tuple[str, int] | None = None
    another: tuple[str, int] | None = None
    details: list[str] = field(default_factory=list)


class _Groups:
    def __init__(self) -> None:
        self.by_key: dict[tuple[str, str], _Group] = {}

    def add(
        self,
        kind: CauseKind,
        label: str,
        key: tuple[str, int],
        failed: bool,
        details: list[str],
    ) -> None:
        group = self.by_key.setdefault((kind, label), _Group(kind, label))
        group.trials.add(key)
        group.occurrences += 1
        if failed:
            group.failed.add(key)
        if group.example is None:
            group.example, group.details = key, details
        elif key != group.example and (
            group.another is None
            or (group.another[0] == group.example[0] and key[0] != group.example[0])
        ):
            group.another = key  # a second example, of another task when one fails the same way

    def kind_trials(self) -> dict[str, int]:
        trials: dict[str, set[tuple[str, int]]] = {}
        for group in self.by_key.values():
            trials.setdefault(group.kind, set()).update(group.trials)
        return {kind: len(trials[kind]) for kind in KIND_TITLE if kind in trials}

    def causes(self) -> list[Cause]:
        order = list(KIND_TITLE)
        groups = sorted(
            self.by_key.values(),
            key=lambda g: (-len(g.failed), -len(g.trials), order.index(g.kind), g.label),
        )
        return [
            Cause(
                kind=g.kind,
                label=g.label,
                trials=len(g.trials),
                occurrences=g.occurrences,
                failed_trials=len(g.failed),
                example=f"{g.example[0]}#{g.example[1]}" if g.example else "",
                another=f"{g.another[0]}#{g.another[1]}" if g.another else None,
                details=g.details,
            )
            for g in groups
        ]


def _value(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)


def _error_text(result: str) -> str:
    try:
        payload = json.loads(result)
    except json.JSONDecodeError:
        return result
    if isinstance(payload, dict) and isinstance(payload.get("error"), str):
        return str(payload["error"])
    return result


def _tool_rule(error: str, tools: list[str], result: str) -> str:
    if error.startswith("unknown tool"):
        return "rule: call only the tools offered in `tools`: " + ", ".join(tools)
    if "not valid JSON" in error or "must be a JSON object" in error:
        return 'rule: `arguments` must be one JSON object, e.g. {"query": "space comedy"}'
    try:
        parameters = json.loads(result).get("parameters")
    except (json.JSONDecodeError, AttributeError):
        parameters = None
    if isinstance(parameters, dict) and isinstance(parameters.get("properties"), dict):
        props = parameters["properties"]
        described = ", ".join(
            f"{name} ({spec.get('type') or 'see schema'})" for name, spec in props.items()
        )
        required = ", ".join(parameters.get("required") or []) or "none"
        return (
            f"rule: arguments must match the tool's JSON schema: {described}; required: {required}"
        )
    return "rule: the tool's description and JSON schema say what it accepts"


# The parts of an error message that differ from one call (or trial) to the next while the rule
# broken stays the same: a URL is kept whole; an aside in parentheses, a list after "are:", the
# value after "unknown ..." or "not found:", an id (tmdb_603, off_0000000000017, placed_2) and a
# number are each replaced by one placeholder.
_VARYING = re.compile(
    r"(?P<url>https?://\S+)"
    r"|(?P<aside> \((?:[^()]|\([^()]*\))*\))"
    r"|(?P<listed>(?<=are: )[^;]*)"
    r"|(?P<named>(?<=not found: )\S+|(?<=unknown )(?:[a-z]+ )*'[^']*')"
    r"|(?P<id>\b[A-Za-z]+_\d+\b)"
    r"|(?P<number>(?<!\w)\d+(?:\.\d+)?(?!\d))"
)
_PLACEHOLDER = {"aside": "", "listed": "…", "id": "<id>", "number": "N"}


def rule_text(message: str) -> str:
    """`message` with what varies per call taken out, so that every instance of one rule reads
    the same: "only 0 unit(s) of off_17 can be added (1 already in the basket); asked for 3"
    and every other refusal over the shelf's stock become "only N unit(s) of <id> can be added;
    asked for N"."""

    def replace(match: re.Match[str]) -> str:
        kind = match.lastgroup or ""
        if kind == "url":
            return match.group()
        if kind == "named":
            text = match.group()
            return text.split("'")[0] + "…" if "'" in text else "…"
        return _PLACEHOLDER[kind]

    message = re.sub(r" at position \d+", "", message)
    message = message.split("; did you mean")[0]
    return " ".join(_VARYING.sub(replace, message).split())


def _tool_label(name: str, error: str) -> str:
    """The rule the refused call broke, without what differs per call (the value got, an id)."""
    error = re.sub(r" \(got [^)]*\)", "", error)
    if error.startswith("unknown tool"):
        return "unknown tool"
    return f"{name}: {rule_text(error)}"


def _error_label(kind: str, first_line: str) -> str:
    """An agent's or a run's error by its kind and rule: an HTTP error by its status alone (not
    its body, its retries or how long they took)."""
    status = re.search(r"\bHTTP (\d{3})\b", first_line)
    if status is not None:
        return f"{kind}: HTTP {status.group(1)}"
    return f"{kind}: {clip(rule_text(first_line), 160)}"


def _item_text(domain: Domain, catalog: Any, item_id: str | None) -> str:
    if item_id is None:
        return "nothing"
    if catalog is None:  # no catalog given: its ids are what the trial names
        return item_id
    return domain.feedback_item(catalog, item_id)


def _reveal_of(domain: Domain, task: Any, check: ConstraintCheck) -> str | None:
    return None if task is None else domain.constraint_reveal(task, check)


def _trial_causes(
    groups: _Groups,
    domain: Domain,
    record: TrialRecord,
    transcript: Transcript | None,
    task: Any,
    catalog: Any,
) -> None:
    key = (record.key.task_id, record.key.trial_index)
    score = record.score
    failing = score is None or score.reward < PASS_THRESHOLD
    if transcript is not None:
        for event in transcript.events:
            if isinstance(event, MessageEvent) or not event.is_error:
                continue
            text = _error_text(event.result)
            # A recommend of an unknown id is judged as a recommendation, where recommend is a
            # tool of the domain; elsewhere (a movie agent ported to grocery) it is a refused call.
            if (
                event.name == "recommend"
                and event.name in transcript.tools
                and not text.startswith(("arguments", "bad arguments"))
            ):
                continue
            args = (
                event.raw_arguments if event.raw_arguments is not None else _value(event.arguments)
            )
            groups.add(
                "tool_error",
                _tool_label(event.name, text),
                key,
                failing,
                [
                    f"call: {clip(f'{event.name}({args})')}",
                    f"answer: {clip(text)}",
                    _tool_rule(text, list(transcript.tools), event.result),
                ],
            )
    error = record.error
    if score is None or record.stop_reason in ("agent_error", "infra_error"):
        kind: CauseKind = "agent_error" if record.stop_reason == "agent_error" else "infra_error"
        message = error.message if error else "no error recorded"
        lines = [line for line in message.strip().splitlines() if line.strip()]
        label = _error_label(error.kind if error else "Unknown", lines[0] if lines else message)
        rest = lines[1:]
        if lines and label.split(": ", 1)[-1] != lines[0]:
            rest.insert(0, f"error: {clip(lines[0], 400)}")
        at = next((i for i, line in enumerate(rest) if line.startswith("Traceback")), len(rest))
        details = [clip(line, 400) for line in rest[:at]]
        if at < len(rest):
            details.append("raised at:\n```text\n" + "\n".join(rest[at:]) + "\n```")
        groups.add(kind, label, key, True, details)
        return
    if not failing:
        return
    recommended = _item_text(domain, catalog, score.recommendation)
    for check in score.constraints:
        if check.satisfied:
            continue
        reveal = _reveal_of(domain, task, check)
        details = [
            f"asked: {check.field} {check.op} {_value(check.value)}",
            f"recommended {recommended}: {check.field} was {_value(check.actual)}",
            f"judged: {check.reason}",
        ]
        if reveal is not None:
            details.append(f"this constraint is `{reveal}`: {_REVEAL_HINT.get(reveal, reveal)}")
        direction = _DIRECTION.get(check.op, f"fails {check.op}")
        groups.add("constraint", f"{check.field}: {direction}", key, True, details)
    for policy in score.policies:
        if not policy.passed:
            groups.add(
                "policy",
                policy.policy,
                key,
                True,
                [f"recommended {recommended}", f"judged: {policy.reason}"],
            )
    if score.constraints and any(not c.satisfied for c in score.constraints):
        return
    if score.constraint_score >= PASS_THRESHOLD:
        return
    tools = list(transcript.tools) if transcript is not None else []
    hint = [] if task is None or catalog is None else domain.winning_hint(task, catalog, tools)
    if record.stop_reason == "abstained" and task is not None and not task.no_valid_recommendation:
        groups.add("abstained", domain.abstain_call, key, True, hint)
        return
    details = [f"judged: {score.constraint_reason}", *hint]
    if score.recommendation is not None or record.stop_reason == "recommended":  # judged wrong
        groups.add("outcome", rule_text(score.constraint_reason), key, True, details)
        return
    groups.add("unfinished", f"the trial ended `{record.stop_reason}`", key, True, details)


# Tool calls that end a trial or act on the user's behalf: none of them looks anything up.
_NOT_LOOKUPS = frozenset({"recommend", "finish"})


def _fields_asked(transcript: Transcript | None, domain: Domain) -> set[str]:
    """The fields the agent asked the user about (as the user's reader hears them) after the
    opening request. No transcript: no evidence, nothing asked."""
    if transcript is None:
        return set()
    asked: set[str] = set()
    heard_user = False
    for message in transcript.messages:
        if message.role == "user":
            heard_user = True
        elif heard_user:
            asked.update(domain.preference_questions(message.content))
    return asked


def _looked_up(transcript: Transcript | None) -> bool:
    """Did the agent call a tool that reads the catalog or the user's data before it ended?"""
    if transcript is None:
        return False
    return any(call.name not in _NOT_LOOKUPS for call in transcript.tool_calls)


def _skills(
    records: list[TrialRecord],
    tasks: dict[str, Any],
    domain: Domain,
    transcripts: dict[tuple[str, int], Transcript],
) -> list[SkillRow]:
    """Each skill counts a trial only when the agent used it: elicitation needs a preference
    question actually asked, retrieval a lookup actually made, learning a changed proposal after a
    decline. A right answer reached without the skill (a lookup of the task, a lucky guess) earns
    no credit for it."""
    scored = [r for r in records if r.score is not None and r.status == "scored"]
    valid = [r for r in scored if not r.no_valid_recommendation]
    recommended = [r for r in valid if r.score is not None and r.score.recommendation]

    def transcript(r: TrialRecord) -> Transcript | None:
        return transcripts.get((r.key.task_id, r.key.trial_index))

    def reveals(r: TrialRecord) -> set[str]:
        assert r.score is not None
        task = tasks.get(r.key.task_id)
        return {_reveal_of(domain, task, c) or "?" for c in r.score.constraints}

    def withheld_fields(r: TrialRecord) -> set[str]:
        assert r.score is not None
        task = tasks.get(r.key.task_id)
        return {
            c.field
            for c in r.score.constraints
            if _reveal_of(domain, task, c) in {"on_ask", "hidden"}
        }

    def failed_reveals(r: TrialRecord) -> set[str]:
        assert r.score is not None
        task = tasks.get(r.key.task_id)
        return {_reveal_of(domain, task, c) or "?" for c in r.score.constraints if not c.satisfied}

    def missed(rows: list[TrialRecord], reveals: set[str]) -> str:
        counts: dict[str, int] = {}
        for r in rows:
            assert r.score is not None
            task = tasks.get(r.key.task_id)
            for c in r.score.constraints:
                if not c.satisfied and _reveal_of(domain, task, c) in reveals:
                    counts[c.field] = counts.get(c.field, 0) + 1
        return ", ".join(f"{name} ({n})" for name, n in sorted(counts.items(), key=lambda x: -x[1]))

    # Elicitation is tested only where the user holds something back, and held only when the
    # agent asked about a field the user held back (a policy check or a proposal is no question).
    withheld = [r for r in recommended if reveals(r) & {"on_ask", "hidden"}]
    elicited = [
        r
        for r in withheld
        if not failed_reveals(r) & {"on_ask", "hidden"}
        and _fields_asked(transcript(r), domain) & withheld_fields(r)
    ]
    retrieved = [
        r for r in recommended if "volunteer" not in failed_reveals(r) and _looked_up(transcript(r))
    ]
    unelicited = missed(recommended, {"on_ask", "hidden"})
    unretrieved = missed(recommended, {"volunteer"})
    policy_ok = [
        r for r in scored if r.score is not None and r.score.policy_score >= PASS_THRESHOLD
    ]
    declined = [r for r in scored if r.efficiency.proposals >= 2]
    recovered = [r for r in declined if r.score is not None and r.score.reward >= PASS_THRESHOLD]
    nvr = [r for r in scored if r.no_valid_recommendation]
    abstained_ok = [r for r in nvr if r.stop_reason == "abstained"]
    wrong_abstain = [r for r in valid if r.stop_reason == "abstained"]
    unfinished = [r for r in valid if r.score is not None and not r.score.recommendation]
    return [
        _skill(
            "elicitation",
            elicited,
            withheld,
            f"{domain.outcome_plural} on tasks with a constraint the user states only when "
            "asked (on_ask) or after a decline (hidden) that meet every such constraint, in "
            "trials where the agent asked the user about one of those fields",
            f"ask before proposing; fields missed: {unelicited}" if unelicited else "",
        ),
        _skill(
            "retrieval",
            retrieved,
            recommended,
            f"{domain.outcome_plural} that meet every constraint the user volunteered, in "
            "trials where the agent looked the catalog up with a tool",
            f"{domain.check_hint}; fields missed: {unretrieved}" if unretrieved else "",
        ),
        _skill("policy", policy_ok, scored, "scored trials in which every active policy held"),
        _skill(
            "learning from declines",
            recovered,
            declined,
            "trials with two or more proposals (at least one declined) that still ended in a pass",
            "read the reason of each decline and rule out what it names"
            if len(recovered) < len(declined)
            else "",
        ),
        _skill(
            "abstention",
            abstained_ok,
            nvr,
            f"trials of tasks where {domain.nothing_fits[0]} that ended with {domain.abstain_call}",
            f"{len(wrong_abstain)} abstention(s) and {len(unfinished) - len(wrong_abstain)} "
            "unfinished trial(s) on tasks that have an answer"
            if wrong_abstain or len(unfinished) > len(wrong_abstain)
            else "",
        ),
    ]


def build_feedback(
    records: Iterable[TrialRecord],
    transcripts: dict[tuple[str, int], Transcript],
    tasks: Sequence[Any],
    catalog: Any,
    domain: Domain,
    *,
    skill_tasks: Sequence[Any] | None = None,
) -> Feedback:
    """Group every failure (and every refused tool call) by cause, and summarise each skill.

    The domain names items, tags constraints and hints at what wins (`Domain.feedback_item`,
    `constraint_reveal`, `winning_hint`); with no catalog the causes name ids and carry no hint."""
    by_id = {t.id: t for t in tasks}
    records = sorted(records, key=lambda r: (r.key.task_id, r.key.trial_index))
    groups = _Groups()
    for record in records:
        key = (record.key.task_id, record.key.trial_index)
        _trial_causes(groups, domain, record, transcripts.get(key), by_id.get(key[0]), catalog)
    # The skills read each trial's task (which constraints it holds back) in every domain, even
    # where the causes are grouped without it.
    skill_by_id = by_id if skill_tasks is None else {t.id: t for t in skill_tasks}
    return Feedback(
        causes=groups.causes(),
        skills=_skills(records, skill_by_id, domain, transcripts),
        kind_trials=groups.kind_trials(),
    )
