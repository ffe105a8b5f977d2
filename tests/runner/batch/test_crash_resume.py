"""A real `taurec run` process killed with SIGKILL at random points (and one stopped with SIGINT) resumes to the uninterrupted result."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from runner.batch import load_records, read_manifest, run_submissions
from runner.batch.archive import ARCHIVE, load_trial_transcript
from runner.models.model_server import serve_model

from .conftest import SubmissionMaker, copy_v1_suite, litellm_agent

pytestmark = pytest.mark.slow

TASKS = 12
TRIALS = 2
LATENCY_MS = 15  # per model call: trials take long enough to be caught mid-run
ACK = re.compile(rb"^\[(\d+)/(\d+)\]")


@pytest.fixture(scope="module")
def model_url() -> Iterator[str]:
    with serve_model(latency_ms=LATENCY_MS) as url:
        yield url


def _command(sub: Path, v1_dir: Path, tasks: Path) -> list[str]:
    taurec = Path(sys.executable).with_name("taurec")
    return [
        str(taurec), "run", str(sub),
        "--snapshot", str(v1_dir / "catalog.json"),
        "--tasks", str(tasks),
        "--trials", str(TRIALS),
        "--concurrency", "4",
    ]  # fmt: skip


class _Run:
    """A `taurec run` subprocess whose stdout is read line by line as it is printed."""

    def __init__(self, cmd: list[str], stderr: Path) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.stderr = stderr
        with stderr.open("wb") as err:
            self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=err, env=env)
        self.lines: list[bytes] = []
        self.started = threading.Event()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line)
            if line.startswith(b"running "):
                self.started.set()

    def acknowledged(self) -> int:
        """The highest `[done/total]` the progress output showed."""
        counts = [int(m.group(1)) for line in self.lines if (m := ACK.match(line))]
        return max(counts, default=0)

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.finish()

    def finish(self) -> tuple[int, str]:
        """Wait for the process; its exit code and stderr."""
        self.proc.wait(timeout=600)
        self._reader.join(timeout=30)
        assert self.proc.stdout is not None
        self.proc.stdout.close()
        return self.proc.returncode, self.stderr.read_text(errors="replace")


def _outcome(folder: Path) -> dict[tuple[str, int], tuple[object, ...]]:
    """Per key: status, stop reason, score and the transcript without timings."""
    out: dict[tuple[str, int], tuple[object, ...]] = {}
    for r in load_records(folder):
        transcript = load_trial_transcript(folder, r).content_json()
        score = r.score.model_dump_json() if r.score else None
        out[(r.key.task_id, r.key.trial_index)] = (
            r.key.seed,
            r.status,
            r.stop_reason,
            score,
            transcript,
        )
    return out


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory, v1_dir: Path) -> Path:
    return copy_v1_suite(tmp_path_factory.mktemp("suite"), v1_dir, TASKS)


@pytest.fixture(scope="module")
def uninterrupted(
    tmp_path_factory: pytest.TempPathFactory, v1_dir: Path, suite: Path, model_url: str
) -> dict[tuple[str, int], tuple[object, ...]]:
    """The outcome of the same run, never interrupted."""
    sub = tmp_path_factory.mktemp("whole") / "heur"
    sub.mkdir()
    data = {"slug": "heur", "display_name": "Heur", "contact": {"name": "T"}, "trials": TRIALS}
    data["agent"] = litellm_agent(model_url)
    (sub / "submission.yaml").write_text(json.dumps(data))
    [reference] = run_submissions(
        [sub], snapshot=v1_dir / "catalog.json", tasks_dir=suite, concurrency=4
    )
    return _outcome(reference.results_dir)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_sigkill_at_random_points_loses_no_acknowledged_trial(
    seed: int,
    tmp_path: Path,
    v1_dir: Path,
    suite: Path,
    make_submission: SubmissionMaker,
    model_url: str,
    uninterrupted: dict[tuple[str, int], tuple[object, ...]],
) -> None:
    rng = random.Random(seed)
    sub = make_submission("heur", litellm_agent(model_url), trials=TRIALS)
    folder = sub / "results" / "tau-rec-v1"
    cmd = _command(sub, v1_dir, suite)
    total = TASKS * TRIALS

    # Kill once a random number of trials is acknowledged, after a random extra moment (so the
    # kill lands anywhere: before the first commit, between commits, in the middle of one).
    target = rng.randrange(0, total - 12)
    run = _Run(cmd, tmp_path / "stderr.txt")
    deadline = time.monotonic() + 120
    while run.acknowledged() < target or not run.started.is_set():
        assert run.proc.poll() is None, "the run ended before the kill"
        assert time.monotonic() < deadline, "too slow to reach the kill point"
        time.sleep(0.002)
    time.sleep(rng.uniform(0.0, 0.08))
    assert run.proc.poll() is None, "the run ended before the kill"
    run.kill()
    acknowledged = run.acknowledged()
    killed = load_records(folder)
    # Every trial the progress output acknowledged is on disk, and its transcript loads.
    assert len(killed) >= acknowledged, (target, acknowledged, len(killed))
    assert len(killed) < total, "the kill must land mid-run"
    for record in killed:
        load_trial_transcript(folder, record)
    manifest = read_manifest(folder)
    assert manifest is not None
    assert manifest.status == "running"  # never finished: the manifest says so

    code, err = _Run(cmd, tmp_path / "stderr.txt").finish()
    assert code == 0, err
    raw = [json.loads(line) for line in (folder / "trials.jsonl").read_text().splitlines()]
    keys = [tuple(r["key"].values()) for r in raw]
    assert len(keys) == len(set(keys)), "duplicate keys after resume"
    after = {r.key.as_tuple(): r for r in load_records(folder)}
    for record in killed:  # nothing recorded before the kill was lost or re-run
        assert after[record.key.as_tuple()] == record
    final = read_manifest(folder)
    assert final is not None
    assert final.status == "completed"
    assert final.counts.scored == total
    # The same result as the uninterrupted run, key by key, transcripts included.
    assert _outcome(folder) == uninterrupted
    # Nothing but the records' members is left in the archive (a torn tail is cut on resume).
    spans = [r.transcript_span for r in after.values() if r.transcript_span is not None]
    assert max(s.offset + s.length for s in spans) == (folder / ARCHIVE).stat().st_size


def test_sigint_cancels_cleanly_and_prints_one_line(
    tmp_path: Path, v1_dir: Path, suite: Path, make_submission: SubmissionMaker, model_url: str
) -> None:
    sub = make_submission("heur", litellm_agent(model_url), trials=TRIALS)
    folder = sub / "results" / "tau-rec-v1"
    run = _Run(_command(sub, v1_dir, suite), tmp_path / "stderr.txt")
    deadline = time.monotonic() + 120
    while run.acknowledged() < 4:
        assert run.proc.poll() is None, "run ended before it could be stopped"
        assert time.monotonic() < deadline, "no trial acknowledged within 120 s"
        time.sleep(0.01)
    run.proc.send_signal(signal.SIGINT)
    code, err = run.finish()
    assert code == 130, err
    last = run.lines[-1].decode().strip()
    assert last.startswith("interrupted: heur interrupted:")
    manifest = read_manifest(folder)
    assert manifest is not None
    assert manifest.status == "interrupted"
    records = load_records(folder)
    assert manifest.counts.scored + manifest.counts.infra_error == len(records)
    assert run.acknowledged() <= len(records) < TASKS * TRIALS
