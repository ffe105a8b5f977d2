"""trials.jsonl on disk: torn and invalid lines, supersession, the append path and deterministic gzip."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from runner.batch.archive import ARCHIVE, archive_member, transcript_gzip
from runner.batch.store import (
    ResultsFolder,
    gzip_deterministic,
    load_records,
    read_trials,
)
from runner.core.errors import LoadError
from runner.core.records import Efficiency, TrialKey, TrialRecord
from runner.core.redact import Redactor
from runner.core.transcript import ComponentSpec, InfraError, MessageEvent, Transcript


def _transcript(task: str, index: int, message: str = "hello") -> Transcript:
    return Transcript(
        task_id=task,
        trial_index=index,
        seed=7,
        agent=ComponentSpec(name="test-agent"),
        simulator=ComponentSpec(name="test-sim"),
        max_turns=20,
        events=[MessageEvent(role="agent", content=message)],
        stop_reason="infra_error",
        error=InfraError(kind="RateLimitError", message="test"),
    )


def _record(task: str, index: int, status: str = "infra_error") -> TrialRecord:
    return TrialRecord(
        key=TrialKey(
            submission="s", snapshot_sha256="c" * 64, task_id=task, trial_index=index, seed=7
        ),
        status="infra_error",
        error=InfraError(kind="RateLimitError", message=f"{status} {task}"),
        complexity="simple",
        reveal_difficulty="volunteer",
        no_valid_recommendation=False,
        efficiency=Efficiency(turns=0, tool_calls=0),
        transcript=f"transcripts/{task}.json.gz",
    )


def _write(path: Path, records: list[TrialRecord], tail: bytes = b"") -> None:
    path.mkdir(parents=True, exist_ok=True)
    body = b"".join((r.model_dump_json() + "\n").encode() for r in records)
    (path / "trials.jsonl").write_bytes(body + tail)


def test_torn_last_line_is_discarded_and_cut_before_the_next_append(tmp_path: Path) -> None:
    records = [_record("a", 0), _record("b", 0)]
    torn = records[1].model_dump_json().encode()[:40]
    _write(tmp_path, records[:1], tail=torn)
    loaded = read_trials(tmp_path)
    assert [r.key.task_id for r in loaded.records] == ["a"]
    assert loaded.discarded_tail is not None
    assert "torn" in loaded.discarded_tail

    folder = ResultsFolder(tmp_path, Redactor({}))
    with folder.locked():
        folder.repair_tail(loaded.tail_offset)
        folder.commit([(_transcript("b", 0), records[1])])
    again = read_trials(tmp_path)
    assert [r.key.task_id for r in again.records] == ["a", "b"]
    assert again.discarded_tail is None


def test_invalid_complete_last_line_is_discarded(tmp_path: Path) -> None:
    _write(tmp_path, [_record("a", 0)], tail=b'{"schema_version": 1}\n')
    loaded = read_trials(tmp_path)
    assert len(loaded.records) == 1
    assert loaded.discarded_tail is not None
    assert "line 2" in loaded.discarded_tail


def test_invalid_line_in_the_middle_names_file_and_line(tmp_path: Path) -> None:
    a, b = _record("a", 0), _record("b", 0)
    (tmp_path / "trials.jsonl").write_bytes(
        (a.model_dump_json() + "\n" + "not json\n" + b.model_dump_json() + "\n").encode()
    )
    with pytest.raises(LoadError) as info:
        load_records(tmp_path)
    assert "trials.jsonl" in str(info.value)
    assert "line 2" in str(info.value)


def test_last_record_of_a_key_wins_and_is_reported(tmp_path: Path) -> None:
    first = _record("a", 0, status="first")
    second = _record("a", 0, status="second")
    _write(tmp_path, [first, _record("b", 1), second])
    loaded = read_trials(tmp_path)
    assert loaded.superseded == 1
    kept = {r.key.task_id: r for r in loaded.records}
    assert kept["a"].error is not None
    assert kept["a"].error.message == "second a"
    assert any("superseded" in note for note in loaded.notes())


def test_transcript_gzip_is_deterministic_and_scrubbed(tmp_path: Path) -> None:
    assert gzip_deterministic(b"same") == gzip_deterministic(b"same")
    folder = ResultsFolder(tmp_path, Redactor({"MY_API_KEY": "sk-planted-0123456789"}))
    transcript = _transcript("x", 0, message="key sk-planted-0123456789")
    with folder.locked():
        [written] = folder.commit([(transcript, _record("x", 0))])
    data = gzip.decompress(transcript_gzip(tmp_path, written)).decode()
    assert "sk-planted" not in data
    assert "[redacted:MY_API_KEY]" in data
    assert b"sk-planted" not in (tmp_path / ARCHIVE).read_bytes()
    assert archive_member("{}") == archive_member("{}")
