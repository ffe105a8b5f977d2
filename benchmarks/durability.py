"""Per-trial cost of making finished trials durable: one file and three fsyncs per trial (before) vs group commit into the archive (now).

Both write the same real trials (transcripts and records of a short built-in heuristic run,
repeated with distinct keys) into a fresh results folder on the project's disk:

* before (the store up to f638992, reproduced with the same primitives): per trial, gzip the
  transcript, write it to its own file atomically (fsync the file, rename, fsync the folder), then
  append the record line and fsync trials.jsonl — one trial after another on one I/O thread;
* now: every trial handed to `GroupCommitter` (one writer thread; a batch of what arrived within
  100 ms, at most 256, costs one write and one fsync of the archive and of trials.jsonl).

Printed per trial: wall time until the last trial is durable, process CPU, fsync calls, and files
created; then the before/now ratios. Trials are handed over as fast as possible (the throughput
case); `--trials` sets how many.

Run: ``.venv/bin/python benchmarks/durability.py`` (~20 s idle; options: --trials, --dir).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from runner.batch import run_submissions
from runner.batch.archive import load_trial_transcript
from runner.batch.store import (
    TRIALS_FILE,
    GroupCommitter,
    ResultsFolder,
    gzip_deterministic,
    load_records,
    write_atomic,
)
from runner.core.records import TrialRecord
from runner.core.redact import Redactor
from runner.core.transcript import Transcript

ROOT = Path(__file__).resolve().parents[1]
Trial = tuple[Transcript, TrialRecord]


class _FsyncCounter:
    """Counts os.fsync calls (both paths call it through the os module)."""

    def __init__(self) -> None:
        self.count = 0
        self._real: Callable[[int], None] = os.fsync

    def __enter__(self) -> _FsyncCounter:
        def counted(fd: int) -> None:
            self.count += 1
            self._real(fd)

        os.fsync = counted
        return self

    def __exit__(self, *_: object) -> None:
        os.fsync = self._real


def _sample(scratch: Path) -> list[Trial]:
    """Transcripts and records of a real run: 10 tasks × 1 trial, built-in heuristic."""
    sub = scratch / "sample" / "heur"
    sub.mkdir(parents=True)
    (sub / "submission.yaml").write_text(
        "slug: heur\ndisplay_name: Heur\ncontact: {name: B}\n"
        "agent: {kind: builtin, name: heuristic}\ntrials: 1\n"
    )
    tasks = sorted(p.stem for p in (ROOT / "tasks").glob("task_*.json"))[:10]
    [result] = run_submissions([sub], tasks_dir=ROOT / "tasks", task_ids=tasks, trials=1)
    records = load_records(result.results_dir)
    return [(load_trial_transcript(result.results_dir, r), r) for r in records]


def _trials(sample: list[Trial], n: int) -> list[Trial]:
    out = []
    for i in range(n):
        transcript, record = sample[i % len(sample)]
        key = record.key.model_copy(update={"trial_index": i})
        out.append((transcript, record.model_copy(update={"key": key})))
    return out


def _before(folder: Path, trials: list[Trial]) -> None:
    """The per-trial path as it was: own gzip file written atomically, then an fsynced append."""
    redactor = Redactor({})
    (folder / "transcripts").mkdir(parents=True)
    fd = os.open(folder / TRIALS_FILE, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        for transcript, record in trials:
            key = record.key
            name = f"transcripts/{key.task_id}.trial{key.trial_index}.seed{key.seed}.json.gz"
            data = gzip_deterministic(redactor.scrub(transcript.model_dump_json()).encode())
            write_atomic(folder / name, data)
            line = (redactor.scrub(record.model_dump_json()) + "\n").encode()
            os.write(fd, line)
            os.fsync(fd)
    finally:
        os.close(fd)


def _now(folder: Path, trials: list[Trial]) -> None:
    results = ResultsFolder(folder, Redactor({}))
    with results.locked():
        committer = GroupCommitter()
        futures = [committer.submit(results, t, r) for t, r in trials]
        committer.close()
        for future in futures:
            future.result()


def _measure(
    write: Callable[[Path, list[Trial]], None], folder: Path, trials: list[Trial]
) -> dict[str, float]:
    with _FsyncCounter() as fsyncs:
        wall, cpu = time.perf_counter(), time.process_time()
        write(folder, trials)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    files = sum(1 for p in folder.rglob("*") if p.is_file())
    n = len(trials)
    return {
        "wall_ms": wall / n * 1000,
        "cpu_ms": cpu / n * 1000,
        "fsyncs": fsyncs.count / n,
        "files": files,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=1000)
    parser.add_argument("--dir", type=Path, default=ROOT, help="where the scratch folders go")
    args = parser.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory(prefix=".durability-", dir=args.dir) as scratch_dir:
        scratch = Path(scratch_dir)
        trials = _trials(_sample(scratch), args.trials)
        figures = {}
        for label, write in (("before", _before), ("now", _now)):
            figures[label] = _measure(write, scratch / label, trials)
            f = figures[label]
            print(
                f"{label:>6}: {f['wall_ms']:.3f} ms wall · {f['cpu_ms']:.3f} ms CPU · "
                f"{f['fsyncs']:.3f} fsyncs per trial · {int(f['files'])} files for {len(trials)} trials"
            )
    before, now = figures["before"], figures["now"]
    print(
        f"before/now per trial: wall {before['wall_ms'] / now['wall_ms']:.1f}× · "
        f"CPU {before['cpu_ms'] / now['cpu_ms']:.1f}× · fsyncs {before['fsyncs'] / now['fsyncs']:.0f}×"
    )


if __name__ == "__main__":
    main()
