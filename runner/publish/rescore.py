"""Re-score stored transcripts against the snapshot and suite they name, and verify whole results folders.

A transcript names its snapshot, the digests of the catalog and task suite it ran on, and its
rule set. Re-scoring uses that snapshot unless told otherwise, and refuses - naming file, digest
and value - when the catalog or tasks given are not the ones the trial ran on, so a verdict is
never silently judged against other data. `verify_results` re-scores a results folder from its
transcripts and lists every disagreement with the stored records.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from runner.batch.archive import (
    TranscriptMissing,
    describe_transcript,
    iter_transcript_file,
    load_trial_transcript,
)
from runner.batch.inputs import domain_of_suite, resolve_snapshot
from runner.batch.store import read_manifest, read_trials
from runner.core.domain import Domain
from runner.core.domains import DEFAULT_DOMAIN, get_domain
from runner.core.errors import LoadError, TaurecError
from runner.core.records import TrialScore
from runner.core.rules import get_rules
from runner.core.transcript import Provenance, Transcript
from runner.submissions.links import refuse_links

__all__ = [
    "Disagreement",
    "Rescorer",
    "ScoredTrace",
    "VerifyReport",
    "score_trace",
    "score_trace_files",
    "score_traces",
    "summary_line",
    "verify_results",
]


class DigestMismatch(TaurecError):
    """The catalog or tasks given are not the ones a transcript ran on."""


def _short(digest: str) -> str:
    return digest[:16]


class ScoredTrace(BaseModel):
    """One stored transcript re-scored offline (`taurec score`)."""

    model_config = ConfigDict(extra="forbid")

    trace: str
    task_id: str
    status: Literal["scored", "infra_error"]
    score: TrialScore | None = None
    error: str | None = None


def score_trace(
    path: Path | str, transcript: Transcript, catalog: Any, tasks: dict[str, Any], domain: Domain
) -> ScoredTrace:
    """Score one loaded transcript (infra errors listed apart) under its own rule set."""
    task = tasks.get(transcript.task_id)
    if task is None:
        raise LoadError(path, [f"task_id: unknown task {transcript.task_id!r}"])
    if transcript.stop_reason == "infra_error":
        err = transcript.error
        return ScoredTrace(
            trace=str(path),
            task_id=task.id,
            status="infra_error",
            error=f"{err.kind}: {err.message}" if err else "infra error",
        )
    return ScoredTrace(
        trace=str(path),
        task_id=task.id,
        status="scored",
        score=domain.score(task, transcript, catalog, get_rules(transcript.rules)),
    )


def score_trace_files(
    paths: list[Path], catalog: Any, tasks: Sequence[Any], domain: Domain | None = None
) -> list[ScoredTrace]:
    """Load each transcript (current or v1 shape; every member of an archive), find its task and
    score it against `catalog` (no digest check; the domain: movies unless given)."""
    owner = domain or get_domain(DEFAULT_DOMAIN)
    by_id = {t.id: t for t in tasks}
    return [
        score_trace(label, transcript, catalog, by_id, owner)
        for path in paths
        for label, transcript in iter_transcript_file(path)
    ]


def summary_line(entry: ScoredTrace) -> str:
    """One human-readable line (plus failing reasons) for a re-scored trace."""
    if entry.score is None:
        return f"{entry.trace}  {entry.task_id}  infra_error  {entry.error}"
    s = entry.score
    lines = [
        f"{entry.trace}  {entry.task_id}  reward={s.reward:g} constraint={s.constraint_score:g} "
        f"policy={s.policy_score:g} weighted_policy={s.weighted_policy_score:.3f}",
        f"  constraints: {s.constraint_reason}",
    ]
    lines += [f"  {'ok  ' if p.passed else 'FAIL'} {p.policy}: {p.reason}" for p in s.policies]
    return "\n".join(lines)


@dataclass
class Rescorer:
    """Finds and caches the catalog and tasks each transcript needs, checking their digests; the
    domain scores (and says where its suite and snapshots are when none is given)."""

    catalog_spec: str | Path | None = None
    tasks_dir: Path | None = None
    snapshots_dir: Path | None = None
    domain: Domain = field(default_factory=lambda: get_domain(DEFAULT_DOMAIN))
    _catalogs: dict[str, tuple[str, Any, str]] = field(default_factory=dict)
    _tasks: tuple[dict[str, Any], str] | None = None

    def _catalog(self, spec: str | Path | None) -> tuple[str, Any, str]:
        key = str(spec)
        if key not in self._catalogs:
            snap = resolve_snapshot(
                spec, self.snapshots_dir or self.domain.snapshots_dir, domain=self.domain
            )
            self._catalogs[key] = (snap.label, snap.catalog, snap.catalog.digest())
        return self._catalogs[key]

    def tasks(self) -> tuple[dict[str, Any], str]:
        if self._tasks is None:
            tasks = self.domain.load_tasks(self.tasks_dir or self.domain.tasks_dir)
            self._tasks = ({t.id: t for t in tasks}, self.domain.tasks_digest(tasks))
        return self._tasks

    def catalog_for(self, source: str, provenance: Provenance | None) -> Any:
        """The catalog for a transcript (given, else its own snapshot, else the latest) - checked."""
        spec: str | Path | None = self.catalog_spec
        if spec is None and provenance is not None:
            if provenance.snapshot_date is None:
                raise TaurecError(
                    f"{source}: ran on snapshot {provenance.snapshot!r}, which has no date; "
                    "pass --catalog PATH (its folder or catalog.json)"
                )
            spec = provenance.snapshot_date.isoformat()
        label, catalog, digest = self._catalog(spec)
        if provenance is not None:
            if digest != provenance.catalog_digest:
                raise DigestMismatch(
                    f"{source}: catalog_digest is {_short(provenance.catalog_digest)}… (snapshot "
                    f"{provenance.snapshot}) but the catalog given ({label}) has "
                    f"{_short(digest)}…; refusing to score against a different catalog"
                )
            _, tasks_digest = self.tasks()
            if tasks_digest != provenance.task_suite_digest:
                raise DigestMismatch(
                    f"{source}: task_suite_digest is {_short(provenance.task_suite_digest)}… but "
                    f"the tasks in {self.tasks_dir or self.domain.tasks_dir} have "
                    f"{_short(tasks_digest)}…; "
                    "pass --tasks with the suite the trial ran on"
                )
        return catalog

    def score(self, path: Path | str, transcript: Transcript) -> ScoredTrace:
        catalog = self.catalog_for(str(path), transcript.provenance)
        return score_trace(path, transcript, catalog, self.tasks()[0], self.domain)


def score_traces(
    paths: list[Path],
    catalog: str | Path | None = None,
    tasks_dir: Path | None = None,
    *,
    snapshots_dir: Path | None = None,
) -> list[ScoredTrace]:
    """Score each transcript (every member of an archive) under its own rule set against its own
    snapshot (or `catalog`: a date or a path); a digest mismatch raises DigestMismatch naming it.
    The domain is the one the suite folder names (movies by default)."""
    domain = domain_of_suite(tasks_dir) if tasks_dir is not None else get_domain(DEFAULT_DOMAIN)
    rescorer = Rescorer(catalog, tasks_dir, snapshots_dir, domain)
    return [
        rescorer.score(label, transcript)
        for path in paths
        for label, transcript in iter_transcript_file(path)
    ]


@dataclass(frozen=True)
class Disagreement:
    """One place where a stored result is not what re-scoring its transcript gives."""

    where: str
    field: str
    stored: Any
    recomputed: Any

    def describe(self) -> str:
        return f"{self.where}: {self.field} stored {self.stored!r}, recomputed {self.recomputed!r}"


@dataclass
class VerifyReport:
    """What `taurec verify` found in one results folder."""

    results_dir: Path
    checked: int = 0
    disagreements: list[Disagreement] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.disagreements

    def describe(self) -> str:
        head = (
            f"{self.results_dir}: {self.checked} trial(s) re-scored from their transcripts, "
            f"{len(self.disagreements)} disagreement(s)"
        )
        return "\n".join([head, *(f"  {d.describe()}" for d in self.disagreements)])


def _diff(prefix: str, stored: Any, recomputed: Any, where: str) -> list[Disagreement]:
    """Leaf-by-leaf differences between two JSON values."""
    if isinstance(stored, dict) and isinstance(recomputed, dict):
        out = []
        for key in sorted(set(stored) | set(recomputed)):
            out += _diff(f"{prefix}.{key}", stored.get(key), recomputed.get(key), where)
        return out
    if isinstance(stored, list) and isinstance(recomputed, list) and len(stored) == len(recomputed):
        out = []
        for i, (a, b) in enumerate(zip(stored, recomputed, strict=True)):
            out += _diff(f"{prefix}[{i}]", a, b, where)
        return out
    return [] if stored == recomputed else [Disagreement(where, prefix, stored, recomputed)]


def verify_results(
    results_dir: Path,
    *,
    catalog: str | Path | None = None,
    tasks_dir: Path | None = None,
    snapshots_dir: Path | None = None,
) -> VerifyReport:
    """Re-score every trial of a results folder from its transcript and compare with trials.jsonl
    and run.json: scores, status, rule set and digests. Inputs that cannot be found or whose
    digests differ raise; disagreements are collected, never stopped at. The run's domain
    (run.json) scores, and says where the suite and snapshots are when none is given."""
    results_dir = Path(results_dir)
    refuse_links(results_dir)
    manifest = read_manifest(results_dir)
    if manifest is None:
        raise LoadError(results_dir, ["run.json: missing (not a results folder?)"])
    records = list(read_trials(results_dir).by_key().values())
    report = VerifyReport(results_dir)
    rescorer = Rescorer(catalog, tasks_dir, snapshots_dir, get_domain(manifest.domain))
    # The folder's own inputs first: a wrong catalog or suite is refused before any trial.
    rescorer.catalog_for(
        str(results_dir / "run.json"),
        Provenance(
            snapshot=manifest.snapshot,
            snapshot_date=_date_of(manifest.snapshot, rescorer.domain),  # the folder's name
            catalog_digest=manifest.catalog_digest,
            task_suite_digest=manifest.task_suite_digest,
            policy_digest=manifest.policy_digest,
        ),
    )
    for record in sorted(records, key=lambda r: (r.key.task_id, r.key.trial_index)):
        where = f"{record.key.task_id}#{record.key.trial_index}"
        path = describe_transcript(record)
        try:
            transcript = load_trial_transcript(results_dir, record)
        except TranscriptMissing:
            report.disagreements.append(Disagreement(where, "transcript", path, "missing"))
            continue
        report.checked += 1
        for name, stored, found in (
            ("rules", manifest.rules, record.rules),
            ("rules (transcript)", record.rules, transcript.rules),
            ("task_id (transcript)", record.key.task_id, transcript.task_id),
            ("seed (transcript)", record.key.seed, transcript.seed),
            ("catalog_digest", manifest.catalog_digest, record.key.snapshot_sha256),
        ):
            if stored != found:
                report.disagreements.append(Disagreement(where, name, stored, found))
        if transcript.provenance is not None and transcript.provenance != record.provenance:
            report.disagreements.append(
                Disagreement(where, "provenance", record.provenance, transcript.provenance)
            )
        rescored = rescorer.score(path, transcript)
        if rescored.status != record.status:
            report.disagreements.append(
                Disagreement(where, "status", record.status, rescored.status)
            )
            continue
        stored_score = record.score.model_dump(mode="json") if record.score else None
        new_score = rescored.score.model_dump(mode="json") if rescored.score else None
        report.disagreements += _diff("score", stored_score, new_score, where)
    scored = sum(r.status == "scored" for r in records)
    errors = sum(r.status == "infra_error" for r in records)
    for name, stored, found in (
        ("counts.scored", manifest.counts.scored, scored),
        ("counts.infra_error", manifest.counts.infra_error, errors),
    ):
        if manifest.status != "running" and stored != found:
            report.disagreements.append(Disagreement("run.json", name, stored, found))
    return report


def _date_of(label: str, domain: Domain) -> dt.date | None:
    """The date a snapshot label names: `2026-11-01`, or `grocery-2026-11-01` for another domain."""
    try:
        return dt.date.fromisoformat(label.removeprefix(f"{domain.name}-"))
    except ValueError:
        return None
