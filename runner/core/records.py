"""Scores, trial records (one JSONL line per finished trial) and run manifests: the runner's file contracts."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from runner.core.predicates import Complexity, ConstraintCheck, RevealDifficulty
from runner.core.rules import RuleSet, RuleSetName, get_rules
from runner.core.severity import DEFAULT_STRICTNESS, Strictness, fails_trial
from runner.core.transcript import (
    ComponentSpec,
    InfraError,
    ModelUsage,
    Provenance,
    StopReason,
    Transcript,
    migrate_schema_1,
)

RECORD_SCHEMA_VERSION: Literal[2] = 2
TRIAL_RECORD_SCHEMA_VERSION: Literal[3] = 3


class PolicyResult(BaseModel):
    """One active policy judged on one transcript, with the reason shown on the site."""

    model_config = ConfigDict(extra="forbid")

    policy: str = Field(description="The policy's name in its domain")
    passed: bool
    severity: float = Field(description="Weight in the severity-weighted policy score")
    reason: str


def policy_scores(policies: Sequence[PolicyResult], strictness: Strictness) -> tuple[float, float]:
    """(policy score, severity-weighted policy score) of a trial's judged policies: the first is 0
    when a broken policy's severity fails trials at `strictness`, the second counts them all."""
    failed = any(not p.passed and fails_trial(p.severity, strictness) for p in policies)
    total = sum(p.severity for p in policies)
    weighted = sum(p.severity for p in policies if p.passed) / total if total else 1.0
    return (0.0 if failed else 1.0), round(weighted, 6)


def unscorable(transcript: Transcript, task_id: str) -> str | None:
    """Why a transcript cannot be scored against the task `task_id` (None: it can): infra errors
    are recorded apart and never scored, and a transcript is scored only against its own task."""
    if transcript.stop_reason == "infra_error":
        err = transcript.error
        detail = f" ({err.kind}: {err.message})" if err else ""
        return (
            f"transcript of task {transcript.task_id} trial {transcript.trial_index} ended in an "
            f"infra error{detail}; infra errors are recorded apart and never scored"
        )
    if transcript.task_id and transcript.task_id != task_id:
        return f"transcript is for task {transcript.task_id!r}, not {task_id!r}"
    return None


def scoring_rules(
    transcript: Transcript, task_id: str, rules: RuleSet | None, error: type[Exception]
) -> RuleSet:
    """The rule set a transcript is scored under (`rules`, else its own), once it is known to be
    scorable against the task `task_id` (else `error` with the reason is raised)."""
    problem = unscorable(transcript, task_id)
    if problem is not None:
        raise error(problem)
    return rules or get_rules(transcript.rules)


class TrialScore(BaseModel):
    """Everything the deterministic scorer says about one transcript (zero LLM calls)."""

    model_config = ConfigDict(extra="forbid")

    recommendation: str | None = Field(description="The final recommended id, if any")
    abstained: bool
    constraint_score: float
    policy_score: float
    reward: float = Field(description="constraint_score × policy_score")
    weighted_policy_score: float = Field(description="Severity-weighted share of policies held")
    constraints: list[ConstraintCheck] = Field(default_factory=list)
    constraint_reason: str = Field(description="One sentence on the constraint verdict")
    policies: list[PolicyResult] = Field(default_factory=list)


@dataclass(frozen=True)
class Verdict:
    """A domain's judgement of one scorable trial: the constraint verdict and the judged policies."""

    recommendation: str | None
    abstained: bool
    constraint_score: float
    constraints: list[ConstraintCheck]
    constraint_reason: str
    policies: list[PolicyResult]


class _Task(Protocol):
    @property
    def id(self) -> str: ...


TaskT = TypeVar("TaskT", bound=_Task, contravariant=True)
CatalogT = TypeVar("CatalogT", contravariant=True)


class Judge(Protocol[TaskT, CatalogT]):
    """A domain's own part of scoring: judge a scorable trial under `rules` (zero model calls)."""

    def __call__(
        self, task: TaskT, transcript: Transcript, catalog: CatalogT, rules: RuleSet
    ) -> Verdict: ...


class Scorer(Protocol[TaskT, CatalogT]):
    """The one scoring entry every domain exposes (see `domain_scorer`)."""

    def __call__(
        self,
        task: TaskT,
        transcript: Transcript,
        catalog: CatalogT,
        rules: RuleSet | None = None,
        strictness: Strictness = DEFAULT_STRICTNESS,
    ) -> TrialScore: ...


def domain_scorer(
    judge: Judge[TaskT, CatalogT], error: type[Exception], doc: str
) -> Scorer[TaskT, CatalogT]:
    """A domain's scorer from its `judge`: infra errors and a transcript of another task raise
    `error`; the trial is judged under its own rule set (or `rules`); the policy score is 0 when a
    broken policy's severity fails trials at `strictness`, and reward = constraint × policy score."""

    def score(
        task: TaskT,
        transcript: Transcript,
        catalog: CatalogT,
        rules: RuleSet | None = None,
        strictness: Strictness = DEFAULT_STRICTNESS,
    ) -> TrialScore:
        verdict = judge(task, transcript, catalog, scoring_rules(transcript, task.id, rules, error))
        policy_score, weighted = policy_scores(verdict.policies, strictness)
        return TrialScore(
            recommendation=verdict.recommendation,
            abstained=verdict.abstained,
            constraint_score=verdict.constraint_score,
            policy_score=policy_score,
            reward=verdict.constraint_score * policy_score,
            weighted_policy_score=weighted,
            constraints=verdict.constraints,
            constraint_reason=verdict.constraint_reason,
            policies=verdict.policies,
        )

    score.__doc__ = doc
    return score


class TrialKey(BaseModel):
    """Identity of a trial: re-running never duplicates a key."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    submission: str
    snapshot_sha256: str
    task_id: str
    trial_index: int
    seed: int

    def as_tuple(self) -> tuple[str, str, str, int, int]:
        return (self.submission, self.snapshot_sha256, self.task_id, self.trial_index, self.seed)


class Efficiency(BaseModel):
    model_config = ConfigDict(extra="forbid")

    turns: int
    tool_calls: int
    proposals: int = Field(
        default=0, description="Agent messages naming a catalog title (each one gets a verdict)"
    )
    step_latencies_s: list[float] = Field(default_factory=list)
    wall_time_s: float = 0.0


class TranscriptSpan(BaseModel):
    """Where one transcript lies inside a transcript archive: a whole gzip member, by byte range."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    offset: int = Field(ge=0, description="Byte offset of the gzip member in the archive")
    length: int = Field(ge=1, description="Length of the gzip member in bytes")


def _migrate_record(data: Any) -> Any:
    """Schema 1 and 2 records load as schema 3: their transcript is a file of its own (no span)."""
    data = migrate_schema_1(data)
    if isinstance(data, dict) and data.get("schema_version") == 2:
        return {**data, "schema_version": TRIAL_RECORD_SCHEMA_VERSION}
    return data


class TrialRecord(BaseModel):
    model_config = ConfigDict(extra="forbid")

    schema_version: Literal[3] = TRIAL_RECORD_SCHEMA_VERSION
    rules: RuleSetName = Field(default="v2", description="The rule set it ran and was scored under")
    provenance: Provenance | None = Field(
        default=None, description="Snapshot and digests (absent in schema-1 records)"
    )
    key: TrialKey
    status: Literal["scored", "infra_error"]
    error: InfraError | None = Field(
        default=None, description="Why an infra_error trial, or an agent_error one, ended"
    )
    # Task strata, copied in so reports never need the task files to aggregate.
    complexity: Complexity
    reveal_difficulty: RevealDifficulty
    no_valid_recommendation: bool
    stop_reason: StopReason | None = None
    score: TrialScore | None = Field(default=None, description="Absent when status is infra_error")
    efficiency: Efficiency
    usage: dict[str, ModelUsage] = Field(default_factory=dict)
    cost_usd: float = 0.0
    leak_audit_clean: bool | None = None
    simulator_errors: dict[str, int] = Field(
        default_factory=dict,
        description="The simulated user's own fallbacks in the trial by `component:reason` "
        "(reader fallbacks, writer guard triggers); empty for the scripted user",
    )
    transcript: str = Field(
        description="Path of the transcript inside transcripts/ of the results folder: a file of "
        "its own, or the run's archive when `transcript_span` is set"
    )
    transcript_span: TranscriptSpan | None = Field(
        default=None,
        description="The transcript's gzip member inside the archive `transcript` names (absent: "
        "the file holds this transcript alone)",
    )

    _migrate = model_validator(mode="before")(_migrate_record)

    @field_validator("transcript")
    @classmethod
    def _inside_transcripts(cls, value: str) -> str:
        """A record may only point inside its own folder's transcripts/ (merge, verify and the
        site follow this path: `../` or an absolute path would read or copy any file)."""
        parts = value.split("/")
        if (
            "\\" in value
            or value.startswith("/")
            or len(parts) < 2
            or parts[0] != "transcripts"
            or any(p in ("", ".", "..") for p in parts)
        ):
            raise ValueError(f"must be a plain path inside transcripts/, got {value!r}")
        return value


def simulator_error_counts(transcript: Transcript) -> dict[str, int]:
    """A transcript's simulator notes counted by `component:reason` (sorted keys)."""
    counts: dict[str, int] = {}
    for note in transcript.simulator_notes:
        key = f"{note.component}:{note.reason}"
        counts[key] = counts.get(key, 0) + 1
    return dict(sorted(counts.items()))


RunStatus = Literal["running", "completed", "budget_exhausted", "interrupted", "disk_full"]


class RunCounts(BaseModel):
    model_config = ConfigDict(extra="forbid")

    planned: int = 0
    scored: int = 0
    infra_error: int = 0
    skipped_existing: int = 0


class RunManifest(BaseModel):
    """One per (submission, snapshot): what ran, on what, with which digests."""

    model_config = ConfigDict(extra="forbid")

    schema_version: Literal[2] = RECORD_SCHEMA_VERSION
    rules: RuleSetName = Field(default="v2", description="The rule set of every trial in the run")
    domain: str = Field(default="movies", description="The domain of the suite (registry name)")
    strictness: Strictness = Field(
        default=DEFAULT_STRICTNESS,
        description="Which policy severities fail a trial (high: all; medium: critical and high; "
        "low: critical only); the others only lower the severity-weighted policy score",
    )
    status: RunStatus
    taurec_version: str
    git_revision: str | None
    submission: str
    snapshot: str = Field(description="Snapshot label (its date) or path")
    agent: ComponentSpec
    simulator: ComponentSpec
    submission_config: dict[str, Any] = Field(
        default_factory=dict, description="The submission file, secrets redacted"
    )
    tools: list[str] = Field(default_factory=list)
    task_suite_digest: str
    policy_digest: str
    catalog_digest: str
    trials: int
    max_turns: int
    step_timeout_s: float | None = Field(
        default=None,
        description="Seconds one step of a Python agent may take (absent in older manifests)",
    )
    seed: int
    shard: str | None = Field(default=None, description="'I/N' when this folder is one shard")
    started_at: str
    finished_at: str | None = None
    counts: RunCounts = Field(default_factory=RunCounts)
    cost_usd: float = 0.0
    max_cost_usd: float | None = None
    error: str | None = Field(
        default=None, description="Why the run stopped early, in one line (e.g. the disk was full)"
    )
    task_ids: list[str] = Field(
        default_factory=list, description="Tasks in scope (all shards), so merges can list gaps"
    )
    retired_tasks: dict[str, str] = Field(
        default_factory=dict, description="Task id → why it was skipped (retired), never silent"
    )
    verified_by: str | None = Field(
        default=None,
        description="URL of the CI workflow run that produced these results (set by the runner "
        "when GITHUB_ACTIONS=true); None for local runs. The site shows 'verified' only when "
        "the run is also in the refresh workflow's ledger with the same digests.",
    )

    _migrate = model_validator(mode="before")(migrate_schema_1)
