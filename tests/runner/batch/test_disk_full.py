"""A full disk, injected at the OS level: the real `taurec` binary runs under RLIMIT_FSIZE, so the
kernel refuses the write that would grow a file past the limit (EFBIG, the same path as ENOSPC).
The run and the catalog refresh must end with one line, a manifest that says so, no temporary
files, and nothing half-written that a later command would trust."""

from __future__ import annotations

import os
import resource
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from runner.batch import load_records, read_manifest
from runner.batch.inputs import resolve_snapshot
from runner.batch.store import read_trials
from runner.core.paths import PROJECT_ROOT

from .conftest import SubmissionMaker, builtin

TAUREC = str(PROJECT_ROOT / ".venv" / "bin" / "taurec")


def _file_size_limit(limit: int) -> Callable[[], None]:
    def apply() -> None:  # in the child, before exec (Python ignores SIGXFSZ, so writes fail)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return apply


def _taurec(
    *args: str | Path, limit: int | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [TAUREC, *map(str, args)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**os.environ, **(env or {})},
        preexec_fn=None if limit is None else _file_size_limit(limit),
    )


def _leftovers(root: Path) -> list[Path]:
    return [p for p in root.rglob("*") if ".tmp" in p.name or ".partial-" in p.name]


# Transcripts here are 9-16 KB gzipped and records ~1.6 KB, all transcripts in one archive: at
# 12 KB the first batch does not fit, at 40 KB a later one (trials.jsonl, always the smaller file,
# runs out of room only in test_a_refused_record_append_cuts_both_files_back below).
@pytest.mark.parametrize(
    ("limit", "refused"), [(12_000, "archive.jsonl.gz"), (40_000, "archive.jsonl.gz")]
)
def test_a_run_that_fills_the_disk_stops_cleanly_and_resumes(
    limit: int, refused: str, small_suite: Path, v1_dir: Path, make_submission: SubmissionMaker
) -> None:
    sub = make_submission("heur", builtin("heuristic"), trials=2)
    run = ("run", sub, "--snapshot", v1_dir / "catalog.json", "--tasks", small_suite)
    full = _taurec(*run, "--concurrency", "2", limit=limit)
    assert full.returncode == 1, full.stdout + full.stderr
    assert "Traceback" not in full.stderr
    errors = [line for line in full.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, full.stderr
    assert "disk full writing" in errors[0]
    assert refused in errors[0]
    folder = sub / "results" / "tau-rec-v1"
    manifest = read_manifest(folder)
    assert manifest is not None
    assert manifest.status == "disk_full"
    assert manifest.error is not None
    assert manifest.error in errors[0]  # run.json says what the one line says
    loaded = read_trials(folder)
    assert loaded.discarded_tail is None  # the refused append was cut back, not left torn
    assert len(loaded.records) < 16
    assert _leftovers(sub) == []

    # With room again, the same command resumes: every trial once, nothing lost.
    again = _taurec(*run)
    assert again.returncode == 0, again.stdout + again.stderr
    records = load_records(folder)
    assert len(records) == len({r.key.as_tuple() for r in records}) == 16
    resumed = read_manifest(folder)
    assert resumed is not None
    assert resumed.status == "completed"
    assert resumed.error is None


def test_a_refresh_that_fills_the_disk_leaves_the_last_complete_snapshot_the_default(
    tmp_path: Path,
) -> None:
    out = tmp_path / "snapshots"
    env = {"TAUREC_CACHE_DIR": str(tmp_path / "cache")}
    refresh = ("catalog", "refresh", "--source", "fixture", "--out", out, "--no-cache")
    old = _taurec(*refresh, "--date", "2026-10-01", "--limit", "5", env=env)
    assert old.returncode == 0, old.stdout + old.stderr
    before = {p.name: p.read_bytes() for p in (out / "2026-10-01").iterdir()}

    for date in ("2026-11-01", "2026-10-01"):  # a new date, and a re-run over a complete one
        full = _taurec(*refresh, "--date", date, "--limit", "60", limit=20_000, env=env)
        assert full.returncode == 1, full.stdout + full.stderr
        assert "Traceback" not in full.stderr
        assert full.stderr.count("error:") == 1, full.stderr
        assert "disk full writing" in full.stderr
    assert not (out / "2026-11-01").exists()
    assert {p.name: p.read_bytes() for p in (out / "2026-10-01").iterdir()} == before
    assert sorted(p.name for p in out.iterdir()) == ["2026-10-01"]
    assert _leftovers(out) == []
    assert resolve_snapshot(None, out).label == "2026-10-01"


REFUSED_APPEND = """
import resource, sys
from pathlib import Path
from runner.core.redact import Redactor
from runner.batch.store import ResultsFolder
from runner.core.records import Efficiency, TrialKey, TrialRecord
from runner.core.transcript import ComponentSpec, Transcript

folder = Path(sys.argv[1])
resource.setrlimit(resource.RLIMIT_FSIZE, (18_000, 18_000))
key = TrialKey(submission="s", snapshot_sha256="c" * 64, task_id="t", trial_index=0, seed=1)
record = TrialRecord(key=key, status="scored", complexity="simple", reveal_difficulty="volunteer",
    no_valid_recommendation=False, efficiency=Efficiency(turns=0, tool_calls=0),
    transcript="transcripts/archive.jsonl.gz")
transcript = Transcript(task_id="t", seed=1, agent=ComponentSpec(name="a"),
    simulator=ComponentSpec(name="s"))
results = ResultsFolder(folder, Redactor({}))
with results.locked():
    try:
        results.commit([(transcript, record)])
    except OSError as exc:
        print("refused", exc.filename)
"""


def test_a_refused_record_append_cuts_both_files_back(tmp_path: Path) -> None:
    """trials.jsonl already past the limit: the archive write succeeds, the record's does not;
    neither file keeps anything of the batch (no record without its transcript, no orphan)."""
    (tmp_path / "transcripts").mkdir()
    (tmp_path / "trials.jsonl").write_bytes(b"x" * 20_000)
    done = subprocess.run(
        [str(PROJECT_ROOT / ".venv" / "bin" / "python"), "-c", REFUSED_APPEND, str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"refused {tmp_path / 'trials.jsonl'}"
    assert (tmp_path / "trials.jsonl").stat().st_size == 20_000
    assert (tmp_path / "transcripts" / "archive.jsonl.gz").stat().st_size == 0


def _can_mount_a_small_disk() -> bool:
    probe = subprocess.run(
        ["unshare", "-rm", "sh", "-c", 'd="$(mktemp -d)" && mount -t tmpfs -o size=8k tmpfs "$d"'],
        capture_output=True,
        timeout=30,
        check=False,
    )
    return probe.returncode == 0


def test_a_run_on_a_really_full_disk_still_says_so_in_run_json(
    small_suite: Path, v1_dir: Path, make_submission: SubmissionMaker, tmp_path: Path
) -> None:
    # ENOSPC itself: a 64 KiB tmpfs in a user+mount namespace (no privilege needed where the
    # kernel allows it). With no room left even for run.json's temporary copy, the final
    # manifest is written over run.json's own blocks.
    if not _can_mount_a_small_disk():
        pytest.skip("this kernel refuses an unprivileged mount namespace (RLIMIT_FSIZE covers it)")
    sub = make_submission("heur", builtin("heuristic"), trials=2)
    disk, kept = tmp_path / "disk", tmp_path / "kept"
    disk.mkdir()
    kept.mkdir()
    script = (
        'mount -t tmpfs -o size=64k tmpfs "$1" || exit 99; shift; '
        'out="$1"; kept="$2"; shift 2; "$@" --out "$out" 2>"$kept/stderr"; rc=$?; '
        'cp -a "$out/." "$kept/"; exit $rc'
    )
    command = [TAUREC, "run", str(sub), "--snapshot", str(v1_dir / "catalog.json")]
    command += ["--tasks", str(small_suite), "--concurrency", "2", "--workers", "1"]
    done = subprocess.run(
        ["unshare", "-rm", "sh", "-c", script, "sh", str(disk), str(disk), str(kept), *command],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    stderr = (kept / "stderr").read_text()
    assert done.returncode == 1, stderr + done.stdout
    assert "Traceback" not in stderr
    [error] = stderr.splitlines()  # one line, nothing else
    assert error.startswith("error: disk full writing")
    assert "No space left on device" in error
    folder = kept / "heur" / "results" / "tau-rec-v1"
    manifest = read_manifest(folder)
    assert manifest is not None
    assert manifest.status == "disk_full"
    assert manifest.error is not None
    assert "No space left on device" in manifest.error
    assert read_trials(folder).discarded_tail is None
    assert _leftovers(kept) == []
