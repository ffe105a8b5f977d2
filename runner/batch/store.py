"""The results folder on disk: append-only trials.jsonl and transcript archive written by one group-commit thread, run.json, a lock."""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import queue
import threading
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from runner.batch.archive import ARCHIVE, TRANSCRIPTS_DIR, archive_member, gzip_deterministic
from runner.core.durable import fsync_dir
from runner.core.errors import LoadError, TaurecError, describe_validation_error, is_disk_full
from runner.core.records import RunManifest, TranscriptSpan, TrialRecord
from runner.core.redact import Redactor
from runner.core.transcript import Transcript

__all__ = [
    "ARCHIVE",
    "MANIFEST_FILE",
    "TRANSCRIPTS_DIR",
    "TRIALS_FILE",
    "ArchiveAppender",
    "GroupCommitter",
    "KeyTuple",
    "LoadedTrials",
    "ResultsFolder",
    "TrialsScan",
    "gzip_deterministic",
    "load_records",
    "manifest_bytes",
    "read_manifest",
    "read_trials",
    "truncate_archive",
    "write_atomic",
]

TRIALS_FILE = "trials.jsonl"
MANIFEST_FILE = "run.json"
LOCK_FILE = ".lock"

KeyTuple = tuple[str, str, str, int, int]


@dataclass
class LoadedTrials:
    """What `trials.jsonl` holds: the last record per key, plus what loading had to say about it."""

    path: Path
    records: list[TrialRecord] = field(default_factory=list)
    superseded: int = 0
    discarded_tail: str | None = None
    tail_offset: int | None = None

    def by_key(self) -> dict[KeyTuple, TrialRecord]:
        return {r.key.as_tuple(): r for r in self.records}

    def notes(self) -> list[str]:
        out = []
        if self.discarded_tail:
            out.append(f"{self.path}: discarded {self.discarded_tail}")
        if self.superseded:
            out.append(
                f"{self.path}: {self.superseded} earlier record(s) superseded by a later one"
            )
        return out


class TrialsScan:
    """`trials.jsonl` record by record, in file order, never all in memory: a torn or invalid
    *last* line is skipped and described (a crash mid-append); an invalid line anywhere else
    raises LoadError naming the file and line."""

    def __init__(self, results_dir: Path | str) -> None:
        self.path = Path(results_dir) / TRIALS_FILE
        self.discarded_tail: str | None = None
        self.tail_offset: int | None = None

    def __iter__(self) -> Iterator[TrialRecord]:
        if not self.path.exists():
            return
        with self.path.open("rb") as fh:
            offset = 0
            number = 0
            line = fh.readline()
            while line:
                following = fh.readline()
                number += 1
                start, offset = offset, offset + len(line)
                if not line.endswith(b"\n"):
                    self.discarded_tail = f"a torn last line (line {number}, {len(line)} bytes)"
                    self.tail_offset = start
                    return
                try:
                    record = TrialRecord.model_validate_json(line[:-1])
                except (ValidationError, ValueError) as exc:
                    if not following:
                        self.discarded_tail = f"an invalid last line (line {number})"
                        self.tail_offset = start
                        return
                    problems = (
                        describe_validation_error(exc, prefix=f"line {number}: ")
                        if isinstance(exc, ValidationError)
                        else [f"line {number}: {exc}"]
                    )
                    raise LoadError(self.path, problems) from exc
                yield record
                line = following


def read_trials(results_dir: Path | str) -> LoadedTrials:
    """Read `trials.jsonl` (see `TrialsScan`). Later records of a key supersede earlier ones (an
    infra_error retried on a later run)."""
    scan = TrialsScan(results_dir)
    parsed = list(scan)
    last: dict[KeyTuple, int] = {}
    for index, record in enumerate(parsed):
        key = record.key.as_tuple()
        earlier = last.get(key)
        if earlier is not None and parsed[earlier].status == "scored":
            check_second_record(scan.path, parsed[earlier], earlier + 1, record, index + 1)
            continue  # the same record twice: keep the first
        last[key] = index
    return LoadedTrials(
        path=scan.path,
        records=[r for i, r in enumerate(parsed) if last.get(r.key.as_tuple()) == i],
        superseded=len(parsed) - len(last),
        discarded_tail=scan.discarded_tail,
        tail_offset=scan.tail_offset,
    )


def check_second_record(
    path: Path, scored: TrialRecord, scored_line: int, record: TrialRecord, line: int
) -> None:
    """A later line for a key already scored is allowed only as an exact repeat (then ignored):
    only an infra_error is ever run again; one that would replace a scored verdict with another
    is an edit, not a retry, and raises LoadError naming both lines."""
    if record != scored:
        raise LoadError(
            path,
            [
                f"line {line}: a second record for {_describe_key(record)}, already "
                f"scored on line {scored_line} (status {record.status!r}, reward "
                f"{_reward(record)!r} after reward {_reward(scored)!r}); a later "
                "record may replace only an infra_error"
            ],
        )


def record_at_line(results_dir: Path | str, line: int) -> TrialRecord:
    """The record on one (1-based) line of trials.jsonl (to compare with a later one)."""
    for number, record in enumerate(TrialsScan(results_dir), start=1):
        if number == line:
            return record
    raise LoadError(Path(results_dir) / TRIALS_FILE, [f"line {line}: no such record"])


def _describe_key(record: TrialRecord) -> str:
    return f"{record.key.task_id}#{record.key.trial_index} (seed {record.key.seed})"


def _reward(record: TrialRecord) -> float | None:
    return None if record.score is None else record.score.reward


def load_records(results_dir: Path | str) -> list[TrialRecord]:
    """The trial records of a results folder, last record per key (see `read_trials`)."""
    return read_trials(results_dir).records


def read_manifest(results_dir: Path | str) -> RunManifest | None:
    path = Path(results_dir) / MANIFEST_FILE
    if not path.exists():
        return None
    try:
        return RunManifest.model_validate_json(path.read_bytes())
    except ValidationError as exc:
        raise LoadError(path, describe_validation_error(exc)) from exc
    except ValueError as exc:
        raise LoadError(path, [f"invalid JSON: {exc}"]) from exc


def write_atomic(path: Path, data: bytes) -> None:
    """Write to a temporary file beside `path`, fsync it, rename it over `path`, fsync the folder."""
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            view = memoryview(data)
            while view:
                written = os.write(fd, view)
                view = view[written:]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)  # a full disk leaves no temporary file behind
        exc.filename = exc.filename or str(path)
        raise
    fsync_dir(path.parent)


def _allocated(path: Path) -> int:
    return path.stat().st_blocks * 512


def overwrite_in_place(path: Path, data: bytes) -> None:
    """Rewrite an existing small file over its own blocks (no new file): the last resort for
    saying "disk full" in run.json when the disk has no room for a temporary copy."""
    fd = os.open(path, os.O_WRONLY)
    try:
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        os.ftruncate(fd, len(data))
        os.fsync(fd)
    finally:
        os.close(fd)


def manifest_bytes(manifest: RunManifest) -> bytes:
    return (
        json.dumps(manifest.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n"
    ).encode()


class ResultsFolder:
    """One `results/<snapshot-label>/` folder, written crash-safely and scrubbed of secrets."""

    def __init__(self, path: Path, redactor: Redactor) -> None:
        self.path = path
        self.redactor = redactor
        self._fd: int | None = None
        self._archive = ArchiveAppender(path)

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """Hold an exclusive lock so two runs never append to the same folder at once."""
        self.path.mkdir(parents=True, exist_ok=True)
        (self.path / TRANSCRIPTS_DIR).mkdir(exist_ok=True)
        lock_fd = os.open(self.path / LOCK_FILE, os.O_WRONLY | os.O_CREAT, 0o644)
        try:
            try:
                fcntl.flock(lock_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as exc:
                if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN):
                    raise TaurecError(
                        f"{self.path}: another taurec run is writing this results folder"
                    ) from exc
                raise
            yield
        finally:
            self.close()
            os.close(lock_fd)

    def repair_tail(self, tail_offset: int | None) -> None:
        """Cut a torn/invalid last line (starting at `tail_offset`, see `TrialsScan`) off before
        appending, so it never ends up mid-file."""
        path = self.path / TRIALS_FILE
        if tail_offset is not None and path.exists():
            with open(path, "r+b") as fh:
                fh.truncate(tail_offset)
                fh.flush()
                os.fsync(fh.fileno())

    def repair_archive(self, end: int) -> str | None:
        """Before appending: see `truncate_archive`."""
        return truncate_archive(self.path, end)

    def commit(self, trials: Sequence[tuple[Transcript | str, TrialRecord]]) -> list[TrialRecord]:
        """Append finished trials durably: every transcript to the archive in one write, fsync;
        then every record (pointing at its member) to trials.jsonl in one write, fsync. A record
        is never on disk before its transcript. Returns the records as written."""
        if self._fd is None:
            self._fd = _open_append(self.path / TRIALS_FILE)
        members = [
            archive_member(
                self.redactor.scrub(
                    transcript if isinstance(transcript, str) else transcript.model_dump_json()
                )
            )
            for transcript, _ in trials
        ]
        spans = self._archive.append_all(members)
        written = [
            record.model_copy(update={"transcript": ARCHIVE, "transcript_span": span})
            for (_, record), span in zip(trials, spans, strict=True)
        ]
        lines = "".join(self.redactor.scrub(r.model_dump_json()) + "\n" for r in written)
        try:
            _append_durably(self._fd, lines.encode("utf-8"), self.path / TRIALS_FILE)
        except OSError:
            self._archive.cut_back(spans[0].offset)  # members no record will point to
            raise
        return written

    def write_manifest(self, manifest: RunManifest) -> None:
        """Atomically; on a full disk, over the existing run.json's own blocks as a last resort."""
        data = self.redactor.scrub(manifest_bytes(manifest).decode("utf-8")).encode("utf-8")
        path = self.path / MANIFEST_FILE
        try:
            write_atomic(path, data)
        except OSError as exc:
            # Only when the new text fits the blocks the file already holds: a rewrite that
            # ran out of room halfway would leave neither the old manifest nor the new one.
            if not (is_disk_full(exc) and path.exists() and _allocated(path) >= len(data)):
                raise
            overwrite_in_place(path, data)

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
        self._archive.close()


def truncate_archive(results_dir: Path, end: int) -> str | None:
    """Cut archive bytes past `end` (where the last member a record points to ends): transcripts
    written just before a crash whose records never were. Returns a note when it cut anything."""
    path = results_dir / ARCHIVE
    if not path.exists() or (size := path.stat().st_size) <= end:
        return None
    with open(path, "r+b") as fh:
        fh.truncate(end)
        fh.flush()
        os.fsync(fh.fileno())
    return (
        f"{path}: discarded {size - end} byte(s) of transcripts no record points to "
        "(written just before an interruption; those trials run again)"
    )


def _open_append(path: Path) -> int:
    created = not path.exists()
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    if created:  # make the new name itself durable, once
        fsync_dir(path.parent)
    return fd


class ArchiveAppender:
    """Appends gzip members to a results folder's transcript archive and says where each landed;
    each append is one write (cut back if it fails) and, unless deferred, one fsync."""

    def __init__(self, results_dir: Path) -> None:
        self.path = results_dir / ARCHIVE
        self._fd: int | None = None
        self._end = 0
        self._unsynced = False

    def append_all(self, members: Sequence[bytes], *, sync: bool = True) -> list[TranscriptSpan]:
        """Append members in one write (and fsync, unless `sync` is False); their spans."""
        if self._fd is None:
            self._fd = _open_append(self.path)
            self._end = os.fstat(self._fd).st_size
        spans = []
        offset = self._end
        for member in members:
            spans.append(TranscriptSpan(offset=offset, length=len(member)))
            offset += len(member)
        _append_durably(self._fd, b"".join(members), self.path, sync=sync)
        self._end = offset
        self._unsynced = not sync
        return spans

    def cut_back(self, end: int) -> None:
        """Drop what was appended past `end` (a batch whose records could not be written)."""
        if self._fd is not None and end < self._end:
            with contextlib.suppress(OSError):
                os.ftruncate(self._fd, end)
                self._end = end

    def append(self, member: bytes, *, sync: bool = True) -> TranscriptSpan:
        return self.append_all([member], sync=sync)[0]

    def sync(self) -> None:
        """fsync appends made with `sync=False`."""
        if self._fd is not None and self._unsynced:
            os.fsync(self._fd)
            self._unsynced = False

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> ArchiveAppender:
        return self

    def __exit__(self, kind: object, *_: object) -> None:
        try:
            if kind is None:
                self.sync()
        finally:
            self.close()


def _append_durably(fd: int, data: bytes, path: Path, *, sync: bool = True) -> None:
    """Write `data` at the end of an O_APPEND file and fsync it (unless `sync` is False). On any
    failure (a full disk included) the file is cut back to where it was, never left with half a
    line or member, and the error names the file."""
    before = os.fstat(fd).st_size
    try:
        view = memoryview(data)
        while view:
            count = os.write(fd, view)
            if count <= 0:
                raise OSError(errno.ENOSPC, f"{os.strerror(errno.ENOSPC)} (short write)")
            view = view[count:]
        if sync:
            os.fsync(fd)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.ftruncate(fd, before)
        exc.filename = exc.filename or str(path)
        raise


@dataclass
class _Pending:
    folder: ResultsFolder
    transcript: Transcript | str
    record: TrialRecord
    done: Future[TrialRecord]


class GroupCommitter:
    """One thread that makes finished trials durable in batches: whatever arrived within
    `max_wait_s` of a batch's first trial (at most `max_batch`) costs one write and one fsync per
    file, and each trial's future completes only once its record is on disk (acknowledge after)."""

    def __init__(self, *, max_batch: int = 256, max_wait_s: float = 0.1) -> None:
        self.max_batch = max_batch
        self.max_wait_s = max_wait_s
        self.batches = 0
        self.trials = 0
        self._queue: queue.SimpleQueue[_Pending | None] = queue.SimpleQueue()
        self._failure: BaseException | None = None
        self._closed = False
        self._thread: threading.Thread | None = None  # started by the first submit

    def submit(
        self, folder: ResultsFolder, transcript: Transcript | str, record: TrialRecord
    ) -> Future[TrialRecord]:
        """Queue one finished trial (its transcript as a model or as JSON text, e.g. from a helper
        process); the future gives the record as written (or the write error)."""
        if self._closed:
            raise RuntimeError("GroupCommitter.submit after close")
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="taurec-commit", daemon=True)
            self._thread.start()
        done: Future[TrialRecord] = Future()
        self._queue.put(_Pending(folder, transcript, record, done))
        return done

    def close(self) -> None:
        """Commit everything queued, then stop the thread (idempotent)."""
        if not self._closed:
            self._closed = True
            self._queue.put(None)
        if self._thread is not None:
            self._thread.join()

    def _run(self) -> None:
        stopping = False
        while not stopping:
            first = self._queue.get()
            if first is None:
                return
            batch = [first]
            deadline = time.monotonic() + self.max_wait_s
            while len(batch) < self.max_batch:
                try:
                    item = self._queue.get(timeout=max(0.0, deadline - time.monotonic()))
                except queue.Empty:
                    break
                if item is None:
                    stopping = True
                    break
                batch.append(item)
            self._commit(batch)

    def _commit(self, batch: list[_Pending]) -> None:
        by_folder: dict[int, list[_Pending]] = {}
        for item in batch:
            by_folder.setdefault(id(item.folder), []).append(item)
        for items in by_folder.values():
            if self._failure is None:
                try:
                    written = items[0].folder.commit([(i.transcript, i.record) for i in items])
                except BaseException as exc:  # the disk failed: fail this and every later trial
                    self._failure = exc
                else:
                    self.batches += 1
                    self.trials += len(items)
                    for item, record in zip(items, written, strict=True):
                        item.done.set_result(record)
                    continue
            for item in items:
                item.done.set_exception(self._failure)
