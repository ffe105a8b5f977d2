"""A results folder's transcript archive, and `load_trial_transcript`: the one way to read a trial's transcript.

A run appends each finished trial's transcript to `transcripts/archive.jsonl.gz` as an independent
gzip member (so `zcat` of the file gives one JSON transcript per line) and records the member's byte
range in the trial record (`transcript_span`). Folders written before the archive hold one
`.json.gz` file per trial (no span); they load through the same functions.
"""

from __future__ import annotations

import os
import zlib
from collections.abc import Iterable, Iterator
from pathlib import Path

from isal import igzip

from runner.core.errors import LoadError
from runner.core.records import TranscriptSpan, TrialRecord
from runner.core.transcript import Transcript, load_transcript, parse_transcript

__all__ = [
    "ARCHIVE",
    "TRANSCRIPTS_DIR",
    "TranscriptMissing",
    "archive_member",
    "describe_missing",
    "describe_transcript",
    "gzip_deterministic",
    "iter_transcript_file",
    "load_trial_transcript",
    "missing_transcripts",
    "transcript_gzip",
    "transcript_path",
    "transcript_present",
]

TRANSCRIPTS_DIR = "transcripts"
ARCHIVE = f"{TRANSCRIPTS_DIR}/archive.jsonl.gz"
# Compression is the commit thread's largest CPU cost. Measured on v1 transcripts (~90 KB of JSON
# each), per trial: zlib level 6 1.7 ms for 20.0 % of the JSON size, zlib level 3 0.77 ms for
# 23.5 %, ISA-L (isal.igzip, the same gzip format) level 2 0.15 ms for 24.0 %.
COMPRESS_LEVEL = 2
_GZIP_MAGIC = b"\x1f\x8b"
_CHUNK = 1 << 16


class TranscriptMissing(LoadError):
    """The transcript a record points to is not there (never written, or pruned with its snapshot)."""


def gzip_deterministic(data: bytes) -> bytes:
    """gzip with a fixed header (mtime 0, no file name): equal input gives equal bytes (with the
    pinned isal). Any gzip reader reads it; ISA-L only makes the compression ~5x cheaper."""
    return igzip.compress(data, compresslevel=COMPRESS_LEVEL, mtime=0)


def archive_member(transcript_json: str) -> bytes:
    """One transcript as an archive member: its JSON text plus a newline, gzipped on its own."""
    return gzip_deterministic((transcript_json + "\n").encode("utf-8"))


def transcript_path(results_dir: Path | str, name: str) -> Path:
    """The file a record's `transcript` names; refused unless it lies inside the folder's
    transcripts/ once symlinks are resolved (the record's own check only sees the text)."""
    folder = Path(results_dir)
    path = folder / name
    root = (folder / TRANSCRIPTS_DIR).resolve()
    if not path.resolve().is_relative_to(root):
        raise LoadError(path, [f"transcript: {name!r} resolves outside {folder / TRANSCRIPTS_DIR}"])
    return path


def describe_transcript(record: TrialRecord) -> str:
    """A record's transcript as a short text: its file, and its offset inside an archive."""
    return _describe(record.transcript, record.transcript_span)


def _describe(name: str, span: TranscriptSpan | None) -> str:
    return name if span is None else f"{name}@{span.offset}"


def transcript_present(results_dir: Path | str, record: TrialRecord) -> bool:
    """Whether the transcript a record points to is there (see `missing_transcripts`)."""
    return not missing_transcripts(results_dir, [(record.transcript, record.transcript_span)])


def missing_transcripts(
    results_dir: Path | str, pointers: Iterable[tuple[str, TranscriptSpan | None]]
) -> list[str]:
    """Which of these transcripts (a record's `transcript` and `transcript_span`) are not there:
    no file, an archive too short for the member, or a path outside transcripts/. Described as
    `name` or `name@offset`. Each folder is listed once (no stat per transcript file); nothing
    is read (`load_trial_transcript` checks the content)."""
    folder = Path(results_dir)
    root = (folder / TRANSCRIPTS_DIR).resolve()
    listings: dict[str, set[str]] = {}
    sizes: dict[str, int] = {}

    def present(name: str) -> bool:
        parent, _, leaf = name.rpartition("/")
        if parent not in listings:
            listings[parent] = _files_inside(folder / parent, root)
        return leaf in listings[parent]

    missing = []
    for name, span in pointers:
        if not present(name):
            missing.append(_describe(name, span))
        elif span is not None:
            if name not in sizes:
                sizes[name] = (folder / name).stat().st_size
            if span.offset + span.length > sizes[name]:
                missing.append(_describe(name, span))
    return missing


def _files_inside(directory: Path, root: Path) -> set[str]:
    """Names of the files in `directory` that lie inside `root` (a symlink out of it is left out)."""
    try:
        if not directory.resolve().is_relative_to(root):
            return set()
        names = set()
        for entry in os.scandir(directory):
            if entry.is_symlink():
                target = Path(entry.path).resolve()
                if target.is_relative_to(root) and target.is_file():
                    names.add(entry.name)
            elif entry.is_file():
                names.add(entry.name)
        return names
    except OSError:
        return set()


def describe_missing(names: list[str], limit: int = 5) -> str:
    """The first few missing transcripts, and how many more."""
    more = f" and {len(names) - limit} more" if len(names) > limit else ""
    return ", ".join(names[:limit]) + more


def _read_span(path: Path, span: TranscriptSpan) -> bytes:
    with path.open("rb") as fh:
        fh.seek(span.offset)
        blob = fh.read(span.length)
    if len(blob) != span.length:
        raise TranscriptMissing(
            path,
            [
                f"transcript_span: bytes {span.offset}+{span.length} lie past the end of the "
                f"archive ({span.offset + len(blob)} bytes)"
            ],
        )
    return blob


def transcript_gzip(results_dir: Path | str, record: TrialRecord) -> bytes:
    """The gzip bytes of a record's transcript (one complete gzip file): its archive member, or
    its own file. Raises TranscriptMissing when the file is absent, LoadError when it is unfit."""
    path = transcript_path(results_dir, record.transcript)
    if not path.is_file():
        raise TranscriptMissing(path, ["transcript: file not found"])
    if record.transcript_span is None:
        data = path.read_bytes()
        return data if path.suffix == ".gz" else gzip_deterministic(data)
    blob = _read_span(path, record.transcript_span)
    if not blob.startswith(_GZIP_MAGIC):
        span = record.transcript_span
        raise LoadError(path, [f"transcript_span: no gzip member at byte {span.offset}"])
    return blob


def _inflate_member(blob: bytes, source: str) -> bytes:
    """The content of exactly one gzip member (CRC and length checked)."""
    inflater = zlib.decompressobj(wbits=31)
    try:
        text = inflater.decompress(blob)
    except zlib.error as exc:
        raise LoadError(source, [f"corrupt gzip member: {exc}"]) from exc
    if not inflater.eof:
        raise LoadError(source, ["truncated gzip member"])
    if inflater.unused_data:
        raise LoadError(source, ["transcript_span covers more than one gzip member"])
    return text


def load_trial_transcript(results_dir: Path | str, record: TrialRecord) -> Transcript:
    """The transcript of one trial record, read from its results folder (archive or own file)."""
    if record.transcript_span is None:
        path = transcript_path(results_dir, record.transcript)
        if not path.is_file():
            raise TranscriptMissing(path, ["transcript: file not found"])
        return load_transcript(path)
    span = record.transcript_span
    source = f"{Path(results_dir) / record.transcript}@{span.offset}"
    transcript = parse_transcript(
        _inflate_member(transcript_gzip(results_dir, record), source), source
    )
    key = record.key
    found = (transcript.task_id, transcript.trial_index, transcript.seed)
    if found != (key.task_id, key.trial_index, key.seed):
        raise LoadError(
            source,
            [
                f"transcript_span: the member holds task {found[0]!r} trial {found[1]} seed "
                f"{found[2]}, not the record's {key.task_id!r} trial {key.trial_index} seed {key.seed}"
            ],
        )
    return transcript


def iter_transcript_file(path: Path | str) -> Iterator[tuple[str, Transcript]]:
    """Every transcript in a file given by path, labelled: one for a transcript file, one per
    member (`<path>@<offset>`) for an archive of several gzip members."""
    path = Path(path)
    data = path.read_bytes()
    if not data.startswith(_GZIP_MAGIC):
        yield str(path), load_transcript(path)
        return
    view = memoryview(data)
    offset = 0
    members = 0
    while offset < len(data):
        source = f"{path}@{offset}"
        text, end = _next_member(view, offset, source)
        members += 1
        label = str(path) if members == 1 and end == len(data) else source
        yield label, parse_transcript(text, label)
        offset = end


def _next_member(data: memoryview, offset: int, source: str) -> tuple[bytes, int]:
    """Inflate the gzip member starting at `offset`, fed in chunks (no copy of the rest of the
    file per member); returns its content and the offset just after it."""
    inflater = zlib.decompressobj(wbits=31)
    parts = []
    position = offset
    try:
        while not inflater.eof:
            chunk = data[position : position + _CHUNK]
            if not chunk:
                raise LoadError(source, ["truncated gzip member"])
            parts.append(inflater.decompress(chunk))
            position += len(chunk)
    except zlib.error as exc:
        raise LoadError(source, [f"corrupt gzip member: {exc}"]) from exc
    return b"".join(parts), position - len(inflater.unused_data)
