"""The transcript archive and its one loader, the group-commit writer, and the running counters."""

from __future__ import annotations

import gzip
import json
import threading
from pathlib import Path

import pytest

from runner.batch import load_records, merge_shards
from runner.batch.archive import (
    ARCHIVE,
    TranscriptMissing,
    iter_transcript_file,
    load_trial_transcript,
    transcript_gzip,
)
from runner.batch.store import TRIALS_FILE, GroupCommitter, ResultsFolder
from runner.batch.tally import RunTally, TrialOutcome
from runner.core.errors import LoadError
from runner.core.metrics import summarize
from runner.core.records import Efficiency, TranscriptSpan, TrialKey, TrialRecord
from runner.core.redact import Redactor
from runner.core.transcript import ComponentSpec, MessageEvent, Transcript

from .conftest import SubmissionMaker, builtin, run_v1


def _pair(task: str, index: int = 0, seed: int = 7) -> tuple[Transcript, TrialRecord]:
    transcript = Transcript(
        task_id=task,
        trial_index=index,
        seed=seed,
        agent=ComponentSpec(name="a"),
        simulator=ComponentSpec(name="s"),
        events=[MessageEvent(role="agent", content=f"hello from {task}")],
        stop_reason="max_turns",
    )
    record = TrialRecord(
        key=TrialKey(
            submission="s", snapshot_sha256="c" * 64, task_id=task, trial_index=index, seed=seed
        ),
        status="scored",
        complexity="simple",
        reveal_difficulty="volunteer",
        no_valid_recommendation=False,
        efficiency=Efficiency(turns=1, tool_calls=0),
        transcript=ARCHIVE,
    )
    return transcript, record


def _committed(tmp_path: Path, tasks: list[str]) -> list[TrialRecord]:
    folder = ResultsFolder(tmp_path, Redactor({}))
    with folder.locked():
        return folder.commit([_pair(t) for t in tasks])


def test_each_record_loads_its_own_member_and_gunzip_reads_json_lines(tmp_path: Path) -> None:
    written = _committed(tmp_path, ["a", "b", "c"])
    assert [load_trial_transcript(tmp_path, r).task_id for r in written] == ["a", "b", "c"]
    assert load_records(tmp_path) == written
    lines = gzip.decompress((tmp_path / ARCHIVE).read_bytes()).decode().splitlines()
    assert [json.loads(line)["task_id"] for line in lines] == ["a", "b", "c"]
    # Each member is a gzip file of its own (a download of one transcript needs no re-encoding).
    assert json.loads(gzip.decompress(transcript_gzip(tmp_path, written[1])))["task_id"] == "b"
    labels = [label for label, _ in iter_transcript_file(tmp_path / ARCHIVE)]
    assert labels == [f"{tmp_path / ARCHIVE}@{r.transcript_span.offset}" for r in written]  # type: ignore[union-attr]


def test_a_span_that_points_at_another_trials_member_is_refused(tmp_path: Path) -> None:
    a, b = _committed(tmp_path, ["a", "b"])
    swapped = a.model_copy(update={"transcript_span": b.transcript_span})
    with pytest.raises(LoadError, match="not the record's 'a'"):
        load_trial_transcript(tmp_path, swapped)
    assert a.transcript_span is not None
    assert b.transcript_span is not None
    both = TranscriptSpan(offset=0, length=a.transcript_span.length + b.transcript_span.length)
    with pytest.raises(LoadError, match="more than one gzip member"):
        load_trial_transcript(tmp_path, a.model_copy(update={"transcript_span": both}))
    inside = TranscriptSpan(offset=3, length=a.transcript_span.length)
    with pytest.raises(LoadError, match="no gzip member at byte 3"):
        load_trial_transcript(tmp_path, a.model_copy(update={"transcript_span": inside}))


def test_a_cut_archive_or_a_missing_file_is_a_missing_transcript(tmp_path: Path) -> None:
    a, b = _committed(tmp_path, ["a", "b"])
    assert b.transcript_span is not None
    with (tmp_path / ARCHIVE).open("r+b") as fh:
        fh.truncate(b.transcript_span.offset + 5)
    assert load_trial_transcript(tmp_path, a).task_id == "a"
    with pytest.raises(TranscriptMissing, match="past the end"):
        load_trial_transcript(tmp_path, b)
    (tmp_path / ARCHIVE).unlink()
    with pytest.raises(TranscriptMissing, match="not found"):
        load_trial_transcript(tmp_path, a)


def test_a_symlink_out_of_transcripts_is_refused(tmp_path: Path) -> None:
    secret = tmp_path / "secret.json"
    secret.write_text('{"not": "a transcript"}')
    (tmp_path / "run" / "transcripts").mkdir(parents=True)
    (tmp_path / "run" / "transcripts" / "x.json").symlink_to(secret)
    _, record = _pair("a")
    record = record.model_copy(update={"transcript": "transcripts/x.json"})
    with pytest.raises(LoadError, match="resolves outside"):
        load_trial_transcript(tmp_path / "run", record)


def test_group_commit_batches_and_acknowledges_only_what_is_on_disk(tmp_path: Path) -> None:
    folder = ResultsFolder(tmp_path, Redactor({}))
    seen_on_disk: list[bool] = []
    lock = threading.Lock()

    def check(done: object) -> None:
        record = done.result()  # type: ignore[attr-defined]
        text = (tmp_path / TRIALS_FILE).read_text()
        with lock:
            seen_on_disk.append(f'"task_id":"{record.key.task_id}"' in text)

    with folder.locked():
        committer = GroupCommitter(max_batch=16, max_wait_s=0.05)
        futures = [committer.submit(folder, *_pair(f"t{i}")) for i in range(100)]
        for future in futures:
            future.add_done_callback(check)
        committer.close()
    assert all(f.done() and f.exception() is None for f in futures)
    assert seen_on_disk == [True] * 100  # each acknowledgement came after its record was written
    assert committer.trials == 100
    assert 100 / 16 <= committer.batches < 100  # batched: far fewer commits (fsyncs) than trials
    records = load_records(tmp_path)
    assert len(records) == 100
    assert {load_trial_transcript(tmp_path, r).task_id for r in records} == {
        f"t{i}" for i in range(100)
    }


def test_a_failed_write_fails_that_trial_and_every_later_one(tmp_path: Path) -> None:
    folder = ResultsFolder(tmp_path, Redactor({}))
    with folder.locked():
        (tmp_path / ARCHIVE).mkdir()  # the archive cannot be opened (even by root)
        committer = GroupCommitter(max_wait_s=0.0)
        first = committer.submit(folder, *_pair("a"))
        assert isinstance(first.exception(timeout=10), OSError)
        second = committer.submit(folder, *_pair("b"))
        assert isinstance(second.exception(timeout=10), OSError)
        committer.close()
    assert load_records(tmp_path) == []


def test_bytes_written_after_the_last_record_are_cut_on_resume(
    small_suite: Path, v1_dir: Path, make_submission: SubmissionMaker
) -> None:
    sub = make_submission("heur", builtin("heuristic"), trials=1)
    [first] = run_v1(sub, small_suite, v1_dir)
    folder = first.results_dir
    # A crash after the archive's fsync but before the records': drop the last record line and
    # leave a torn member behind it.
    lines = (folder / TRIALS_FILE).read_bytes().splitlines(keepends=True)
    (folder / TRIALS_FILE).write_bytes(b"".join(lines[:-1]))
    with (folder / ARCHIVE).open("ab") as fh:
        fh.write(b"\x1f\x8b\x08torn")
    [again] = run_v1(sub, small_suite, v1_dir)
    assert again.ran == 1
    assert any("no record points to" in note for note in again.notes)
    records = load_records(folder)
    assert len(records) == 8
    spans = [r.transcript_span for r in records if r.transcript_span is not None]
    assert max(s.offset + s.length for s in spans) == (folder / ARCHIVE).stat().st_size
    for record in records:
        load_trial_transcript(folder, record)


def test_merge_gathers_archives_and_old_per_file_folders_and_is_idempotent(
    small_suite: Path, v1_dir: Path, make_submission: SubmissionMaker, tmp_path: Path
) -> None:
    sub = make_submission("heur", builtin("heuristic"), trials=2)
    shards = []
    for i in (1, 2):
        [res] = run_v1(sub, small_suite, v1_dir, shard=f"{i}/2", out=tmp_path / f"shard{i}")
        shards.append(res.results_dir)
    # Turn shard 2 into the layout of older runs: one gzip file per trial, no spans.
    old = shards[1]
    rewritten = []
    for record in load_records(old):
        name = f"transcripts/{record.key.task_id}.trial{record.key.trial_index}.json.gz"
        (old / name).write_bytes(transcript_gzip(old, record))
        rewritten.append(record.model_copy(update={"transcript": name, "transcript_span": None}))
    (old / ARCHIVE).unlink()
    (old / TRIALS_FILE).write_text("".join(r.model_dump_json() + "\n" for r in rewritten))

    out = tmp_path / "merged"
    report = merge_shards(shards, out)
    assert report.complete
    assert report.records == 16
    merged = load_records(out)
    assert all(r.transcript == ARCHIVE for r in merged)
    for record in merged:
        transcript = load_trial_transcript(out, record)
        assert (transcript.task_id, transcript.seed) == (record.key.task_id, record.key.seed)
    size = (out / ARCHIVE).stat().st_size
    again = merge_shards(shards, out)
    assert again.records == 16
    assert (out / ARCHIVE).stat().st_size == size  # nothing appended twice
    assert load_records(out) == merged


def test_running_counters_match_the_summary_of_the_records(
    small_suite: Path, v1_dir: Path, make_submission: SubmissionMaker
) -> None:
    [result] = run_v1(make_submission("heur", builtin("heuristic"), trials=3), small_suite, v1_dir)
    records = result.records
    summary = summarize(records, ks=(1, 2, 3), seed=0)
    tally = result.tally
    assert tally.pass_hat_k((1, 2, 3), 0) == summary.pass_hat_k
    assert tally.pass_hat_k_means((1, 2, 3)) == [(p.k, p.value) for p in summary.pass_hat_k]
    assert (tally.scored, tally.infra_error) == (summary.counts.scored, summary.counts.infra_error)
    assert tally.cost_usd == pytest.approx(summary.total_cost_usd)
    rebuilt = RunTally()
    for record in records:
        rebuilt.add(TrialOutcome.of(record))
    assert rebuilt.per_task == tally.per_task
    assert 0 < summary.for_k(1).value < 1  # type: ignore[operator]  # a mix, not a trivial case
