"""The results folder on disk: append-only trials.jsonl, atomic gzip transcripts, run.json, and a lock."""

from __future__ import annotations

import contextlib
import errno
import fcntl
import gzip
import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from runner.batch.redact import Redactor
from runner.durable import fsync_dir
from runner.errors import LoadError, TaurecError, describe_validation_error, is_disk_full
from runner.records import RunManifest, TrialRecord

TRIALS_FILE = "trials.jsonl"
MANIFEST_FILE = "run.json"
TRANSCRIPTS_DIR = "transcripts"
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


def _parse_line(line: bytes) -> TrialRecord:
    return TrialRecord.model_validate_json(line)


def read_trials(results_dir: Path | str) -> LoadedTrials:
    """Read `trials.jsonl`: a torn or invalid *last* line is discarded (a crash mid-append); an
    invalid line anywhere else raises LoadError naming the file and line. Later records of a key
    supersede earlier ones (an infra_error retried on a later run)."""
    path = Path(results_dir) / TRIALS_FILE
    loaded = LoadedTrials(path=path)
    if not path.exists():
        return loaded
    data = path.read_bytes()
    lines = data.split(b"\n")
    # `data` ends with "\n" when the last append completed: then the final chunk is empty.
    complete, tail = lines[:-1], lines[-1]
    offset = 0
    parsed: list[TrialRecord] = []
    for number, line in enumerate(complete, start=1):
        start = offset
        offset += len(line) + 1
        try:
            parsed.append(_parse_line(line))
        except (ValidationError, ValueError) as exc:
            is_last = number == len(complete) and not tail
            if is_last:
                loaded.discarded_tail = f"an invalid last line (line {number})"
                loaded.tail_offset = start
                break
            problems = (
                describe_validation_error(exc, prefix=f"line {number}: ")
                if isinstance(exc, ValidationError)
                else [f"line {number}: {exc}"]
            )
            raise LoadError(path, problems) from exc
    if tail:
        loaded.discarded_tail = f"a torn last line (line {len(complete) + 1}, {len(tail)} bytes)"
        loaded.tail_offset = offset
    last: dict[KeyTuple, int] = {}
    for index, record in enumerate(parsed):
        key = record.key.as_tuple()
        earlier = last.get(key)
        if earlier is not None and parsed[earlier].status == "scored":
            if record != parsed[earlier]:
                # Only an infra_error is ever run again; a line that would replace a scored
                # verdict with another one is an edit, not a retry.
                raise LoadError(
                    path,
                    [
                        f"line {index + 1}: a second record for {_describe_key(record)}, already "
                        f"scored on line {earlier + 1} (status {record.status!r}, reward "
                        f"{_reward(record)!r} after reward {_reward(parsed[earlier])!r}); a later "
                        "record may replace only an infra_error"
                    ],
                )
            continue  # the same record twice: keep the first
        last[key] = index
    loaded.superseded = len(parsed) - len(last)
    loaded.records = [r for i, r in enumerate(parsed) if last[r.key.as_tuple()] == i]
    return loaded


def _describe_key(record: TrialRecord) -> str:
    return f"{record.key.task_id}#{record.key.trial_index} (seed {record.key.seed})"


def _reward(record: TrialRecord) -> float | None:
    return None if record.score is None else record.score.reward


def load_records(results_dir: Path | str) -> list[TrialRecord]:
    """The trial records of a results folder, last record per key (see `read_trials`)."""
    return read_trials(results_dir).records


def missing_transcripts(results_dir: Path | str, names: Iterable[str]) -> list[str]:
    """The transcript paths (relative, as records hold them) not in the results folder."""
    root = Path(results_dir)
    folders: dict[str, set[str]] = {}  # one listing per folder, not one stat per transcript

    def present(name: str) -> bool:
        folder, _, leaf = name.rpartition("/")
        if folder not in folders:
            try:
                folders[folder] = {e.name for e in os.scandir(root / folder) if e.is_file()}
            except OSError:
                folders[folder] = set()
        return leaf in folders[folder]

    return [name for name in names if not present(name)]


def describe_missing(names: list[str], limit: int = 5) -> str:
    """The first few missing transcript paths, and how many more."""
    more = f" and {len(names) - limit} more" if len(names) > limit else ""
    return ", ".join(names[:limit]) + more


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


def gzip_deterministic(data: bytes) -> bytes:
    """gzip with a fixed header (mtime 0, no file name): equal input gives equal bytes."""
    return gzip.compress(data, compresslevel=6, mtime=0)


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

    def repair_tail(self, loaded: LoadedTrials) -> None:
        """Cut a torn/invalid last line off before appending, so it never ends up mid-file."""
        if loaded.tail_offset is not None and loaded.path.exists():
            with open(loaded.path, "r+b") as fh:
                fh.truncate(loaded.tail_offset)
                fh.flush()
                os.fsync(fh.fileno())

    def write_transcript(self, relative: str, content: str) -> None:
        data = gzip_deterministic(self.redactor.scrub(content).encode("utf-8"))
        write_atomic(self.path / relative, data)

    def append_record(self, record: TrialRecord) -> None:
        """One record = one `os.write` of the whole line on an O_APPEND descriptor, then fsync."""
        line = (self.redactor.scrub(record.model_dump_json()) + "\n").encode("utf-8")
        if self._fd is None:
            self._fd = os.open(
                self.path / TRIALS_FILE, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644
            )
        before = os.fstat(self._fd).st_size
        try:
            written = os.write(self._fd, line)
            if written != len(line):
                raise OSError(
                    errno.ENOSPC,
                    f"{os.strerror(errno.ENOSPC)} (short write, {written} of {len(line)} bytes)",
                    str(self.path / TRIALS_FILE),
                )
            os.fsync(self._fd)
        except OSError as exc:
            # Never leave half a line: cut the file back to where this record began.
            with contextlib.suppress(OSError):
                os.ftruncate(self._fd, before)
            exc.filename = exc.filename or str(self.path / TRIALS_FILE)
            raise

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
