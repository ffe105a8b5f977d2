"""Combine shard results folders (`taurec run --shard I/N`) into one, refusing mixed inputs and listing gaps."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from runner.batch.archive import ARCHIVE, transcript_gzip
from runner.batch.keys import Shard, shard_of, transcript_name, trial_seed
from runner.batch.store import (
    MANIFEST_FILE,
    TRANSCRIPTS_DIR,
    TRIALS_FILE,
    ArchiveAppender,
    KeyTuple,
    manifest_bytes,
    read_manifest,
    read_trials,
    truncate_archive,
    write_atomic,
)
from runner.core.errors import LoadError, TaurecError
from runner.core.records import RunCounts, RunManifest, RunStatus, TrialRecord
from runner.submissions.links import refuse_links

# Fields every shard must agree on; anything else (times, counts, shard, status) may differ.
_SAME = (
    "submission",
    "snapshot",
    "rules",
    "catalog_digest",
    "task_suite_digest",
    "policy_digest",
    "seed",
    "trials",
    "max_turns",
    "agent",
    "simulator",
    "task_ids",
)


@dataclass
class MergeReport:
    """What a merge wrote, and which (task, trial) keys no shard had."""

    out_dir: Path
    shards: list[str]
    records: int
    scored: int
    infra_errors: int
    missing: list[tuple[str, int]] = field(default_factory=list)
    missing_by_shard: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return not self.missing

    def describe(self) -> str:
        lines = [
            f"merged {len(self.shards)} folder(s) ({', '.join(self.shards)}) → {self.out_dir}: "
            f"{self.records} records ({self.scored} scored, {self.infra_errors} infra errors)"
        ]
        lines += [f"  {n}" for n in self.notes]
        if self.missing:
            shown = ", ".join(f"{t}#{i}" for t, i in self.missing[:20])
            more = f" and {len(self.missing) - 20} more" if len(self.missing) > 20 else ""
            lines.append(f"  MISSING {len(self.missing)} key(s): {shown}{more}")
            by_shard = ", ".join(
                f"shard {s}: {n}" for s, n in sorted(self.missing_by_shard.items())
            )
            lines.append(f"  missing by shard: {by_shard}")
        return "\n".join(lines)


def _check_same(manifests: Sequence[tuple[Path, RunManifest]]) -> None:
    first_path, first = manifests[0]
    problems = []
    for path, m in manifests[1:]:
        for name in _SAME:
            if getattr(m, name) != getattr(first, name):
                a, b = getattr(first, name), getattr(m, name)
                shown = (
                    f"{str(a)[:16]}… vs {str(b)[:16]}…"
                    if name.endswith("digest")
                    else f"{a!r} vs {b!r}"
                )
                problems.append(f"{path}: {name} differs from {first_path} ({shown})")
    counts = {Shard.parse(m.shard).count for _, m in manifests if m.shard}
    if len(counts) > 1:
        problems.append(f"shards of different sizes: {sorted(counts)}")
    if problems:
        raise TaurecError(
            "refusing to merge results of different runs:\n  " + "\n  ".join(problems)
        )


def _verdict(record: TrialRecord) -> dict[str, object]:
    """A record without where its transcript lies (each folder has its own archive)."""
    return record.model_dump(exclude={"transcript", "transcript_span"})


def _gather_transcripts(
    ordered: Sequence[tuple[TrialRecord, Path]], out: Path, notes: list[str]
) -> list[TrialRecord]:
    """Append the transcript of every record that comes from another folder to `out`'s archive
    (one fsync), and return the records pointing at their new members. Records already in `out`
    keep theirs; a transcript that cannot be read is listed in `notes` and its record kept."""
    kept_end = max(
        (
            r.transcript_span.offset + r.transcript_span.length
            for r, src in ordered
            if src.resolve() == out.resolve() and r.transcript_span and r.transcript == ARCHIVE
        ),
        default=0,
    )
    cut = truncate_archive(out, kept_end)
    if cut is not None:
        notes.append(cut)
    written: list[TrialRecord] = []
    with ArchiveAppender(out) as archive:
        for record, src in ordered:
            if src.resolve() == out.resolve():
                written.append(record)
                continue
            try:
                member = transcript_gzip(src, record)
            except LoadError as exc:
                notes.append(
                    f"{src}: transcript of {record.key.task_id}#"
                    f"{record.key.trial_index} not copied: {exc.problems[0]}"
                )
                if record.transcript_span is not None:  # never leave a span into `out`'s archive
                    key = record.key
                    name = transcript_name(key.task_id, key.trial_index, key.seed)
                    record = record.model_copy(update={"transcript": name, "transcript_span": None})
                written.append(record)
                continue
            span = archive.append(member, sync=False)  # one fsync when the block ends
            written.append(
                record.model_copy(update={"transcript": ARCHIVE, "transcript_span": span})
            )
    return written


def merge_shards(shard_dirs: Sequence[Path | str], out_dir: Path | str) -> MergeReport:
    """Merge results folders into `out_dir` (a results folder; its own records, if any, are kept).

    Refuses folders whose digests, seed, trials, agent or simulator differ. Keys no folder holds are
    reported (e.g. a shard that never ran), never invented. An infra_error record never replaces a
    scored one for the same key.
    """
    out = Path(out_dir)
    sources = [Path(d) for d in shard_dirs]
    if not sources:
        raise TaurecError("no shard folder given")
    refuse_links(*sources, out)  # never read another entry's files, never write through a link
    if (out / MANIFEST_FILE).exists() and out.resolve() not in {s.resolve() for s in sources}:
        sources.append(out)
    manifests: list[tuple[Path, RunManifest]] = []
    for src in sources:
        m = read_manifest(src)
        if m is None:
            raise TaurecError(f"{src}: not a results folder (no {MANIFEST_FILE})")
        manifests.append((src, m))
    _check_same(manifests)
    base = manifests[0][1]

    merged: dict[KeyTuple, tuple[TrialRecord, Path]] = {}
    notes: list[str] = []
    for src, _ in manifests:
        loaded = read_trials(src)
        notes += loaded.notes()
        for record in loaded.records:
            key = record.key.as_tuple()
            prior = merged.get(key)
            if prior is not None and prior[0].status == "scored":
                if record.status != "scored":
                    continue  # a scored verdict stands over an infra error of another shard
                if _verdict(record) != _verdict(prior[0]):
                    raise TaurecError(
                        f"{src}: {record.key.task_id}#{record.key.trial_index} (seed "
                        f"{record.key.seed}) is scored differently in {prior[1]}; two verdicts "
                        "for one trial: refusing to pick one"
                    )
                continue
            merged[key] = (record, src)

    ordered = sorted(merged.values(), key=lambda rs: (rs[0].key.task_id, rs[0].key.trial_index))
    # Records whose seed does not follow from the run seed would mean a foreign run slipped in.
    for record, src in ordered:
        expected = trial_seed(base.seed, record.key.task_id, record.key.trial_index)
        if record.key.seed != expected:
            raise TaurecError(
                f"{src}: record {record.key.task_id}#{record.key.trial_index} has "
                f"seed {record.key.seed}, expected {expected} for run seed {base.seed}"
            )

    out.mkdir(parents=True, exist_ok=True)
    (out / TRANSCRIPTS_DIR).mkdir(exist_ok=True)
    written = _gather_transcripts(ordered, out, notes)
    lines = b"".join((r.model_dump_json() + "\n").encode() for r in written)
    write_atomic(out / TRIALS_FILE, lines)

    shard_count = next((Shard.parse(m.shard).count for _, m in manifests if m.shard), 1)
    present = {(r.key.task_id, r.key.trial_index) for r, _ in ordered}
    missing = [
        (task_id, i)
        for i in range(base.trials)
        for task_id in base.task_ids
        if (task_id, i) not in present
    ]
    missing_by_shard: dict[str, int] = {}
    for task_id, i in missing:
        label = f"{shard_of(task_id, i, shard_count)}/{shard_count}"
        missing_by_shard[label] = missing_by_shard.get(label, 0) + 1
    records = written
    statuses = {m.status for _, m in manifests}
    status: RunStatus = "completed"
    if missing:
        status = "budget_exhausted" if statuses == {"budget_exhausted"} else "interrupted"
    manifest = base.model_copy(
        update={
            "status": status,
            "shard": None,
            "started_at": min(m.started_at for _, m in manifests),
            "finished_at": max((m.finished_at or m.started_at) for _, m in manifests),
            "counts": RunCounts(
                planned=len(base.task_ids) * base.trials,
                scored=sum(r.status == "scored" for r in records),
                infra_error=sum(r.status == "infra_error" for r in records),
            ),
            "cost_usd": round(sum(r.cost_usd for r in records), 10),
        }
    )
    write_atomic(out / MANIFEST_FILE, manifest_bytes(manifest))
    return MergeReport(
        out_dir=out,
        shards=[m.shard or "all" for _, m in manifests],
        records=len(records),
        scored=manifest.counts.scored,
        infra_errors=manifest.counts.infra_error,
        missing=missing,
        missing_by_shard=missing_by_shard,
        notes=notes,
    )
