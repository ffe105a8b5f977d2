"""A real `taurec run` process killed with SIGKILL (and one stopped with SIGINT) resumes to a complete set."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from runner.batch import load_records, read_manifest

from .conftest import SubmissionMaker, builtin

TASKS = 24
TRIALS = 2


def _command(sub: Path, v1_dir: Path, tasks: Path) -> list[str]:
    taurec = Path(sys.executable).with_name("taurec")
    return [
        str(taurec), "run", str(sub),
        "--snapshot", str(v1_dir / "catalog.json"),
        "--tasks", str(tasks),
        "--trials", str(TRIALS),
        "--concurrency", "2",
    ]  # fmt: skip


def _full_suite(tmp_path: Path, v1_dir: Path) -> Path:
    tasks = tmp_path / "v1" / "tasks"
    tasks.mkdir(parents=True)
    for file in sorted((v1_dir / "tasks").glob("*.json"))[:TASKS]:
        shutil.copy(file, tasks / file.name)
    shutil.copy(v1_dir / "policy.md", tasks.parent / "policy.md")
    return tasks


def _lines(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


def _start_and_wait(cmd: list[str], trials_file: Path, at_least: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    deadline = time.monotonic() + 120
    while _lines(trials_file) < at_least:
        if proc.poll() is not None:
            out, err = proc.communicate()
            pytest.fail(f"run ended before it could be stopped: {out.decode()} {err.decode()}")
        if time.monotonic() > deadline:
            proc.kill()
            pytest.fail("no records appeared within 120 s")
        time.sleep(0.005)
    return proc


@pytest.mark.slow
def test_sigkill_mid_run_then_resume_completes_without_duplicates(
    tmp_path: Path, v1_dir: Path, make_submission: SubmissionMaker
) -> None:
    tasks = _full_suite(tmp_path, v1_dir)
    sub = make_submission("heur", builtin("heuristic"), trials=TRIALS)
    folder = sub / "results" / "tau-rec-v1"
    cmd = _command(sub, v1_dir, tasks)

    proc = _start_and_wait(cmd, folder / "trials.jsonl", at_least=12)
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=30)
    assert proc.returncode == -signal.SIGKILL

    before = {r.key.as_tuple(): r for r in load_records(folder)}
    assert 12 <= len(before) < TASKS * TRIALS, "the kill must land mid-run"
    manifest = read_manifest(folder)
    assert manifest is not None
    assert manifest.status == "running"  # never finished: the manifest says so

    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    assert "already recorded" in done.stdout

    raw = [json.loads(line) for line in (folder / "trials.jsonl").read_text().splitlines()]
    keys = [tuple(r["key"].values()) for r in raw]
    assert len(keys) == len(set(keys)), "duplicate keys after resume"
    after = {r.key.as_tuple(): r for r in load_records(folder)}
    assert len(after) == TASKS * TRIALS
    for key, record in before.items():  # nothing finished before the kill was lost or re-run
        assert after[key] == record
    for record in after.values():
        assert (folder / record.transcript).exists()
    final = read_manifest(folder)
    assert final is not None
    assert final.status == "completed"
    assert final.counts.scored + final.counts.infra_error == TASKS * TRIALS


@pytest.mark.slow
def test_sigint_cancels_cleanly_and_prints_one_line(
    tmp_path: Path, v1_dir: Path, make_submission: SubmissionMaker
) -> None:
    tasks = _full_suite(tmp_path, v1_dir)
    sub = make_submission("heur", builtin("heuristic"), trials=TRIALS)
    folder = sub / "results" / "tau-rec-v1"
    proc = _start_and_wait(_command(sub, v1_dir, tasks), folder / "trials.jsonl", at_least=5)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err.decode()
    last = out.decode().strip().splitlines()[-1]
    assert last.startswith("interrupted: heur interrupted:")
    manifest = read_manifest(folder)
    assert manifest is not None
    assert manifest.status == "interrupted"
    records = load_records(folder)
    assert manifest.counts.scored + manifest.counts.infra_error == len(records)
    assert 5 <= len(records) < TASKS * TRIALS
