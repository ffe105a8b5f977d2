"""Issue 14's runner edges, each as the attack that used to work: --fresh under a live run, a deleted
run.json, a deleted transcript, and a hand-added line that re-judges a scored trial."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from runner.batch import load_records, merge_shards, read_manifest
from runner.batch.archive import describe_transcript, missing_transcripts, transcript_gzip
from runner.batch.store import TRIALS_FILE
from runner.core.errors import LoadError, TaurecError
from runner.core.paths import PROJECT_ROOT
from runner.publish.rescore import verify_results
from runner.sitegen.inputs import load_inputs

from .conftest import SubmissionMaker, builtin, run_v1, two_shards

HOLD_LOCK = """
import sys
from pathlib import Path
from runner.core.redact import Redactor
from runner.batch.store import ResultsFolder
with ResultsFolder(Path(sys.argv[1]), Redactor({})).locked():
    print("locked", flush=True)
    sys.stdin.read()
"""


@pytest.fixture
def finished(small_suite: Path, v1_dir: Path, make_submission: SubmissionMaker) -> Path:
    """A completed heuristic run (8 tasks × 1 trial); returns its results folder."""
    sub = make_submission("heur", builtin("heuristic"), trials=1)
    [result] = run_v1(sub, small_suite, v1_dir)
    assert result.manifest.status == "completed"
    return result.results_dir


def test_fresh_refuses_to_move_a_folder_another_run_is_writing(
    finished: Path, small_suite: Path, v1_dir: Path
) -> None:
    # Another process holds the folder's lock, exactly as a running `taurec run` does.
    with subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, str(finished)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=PROJECT_ROOT,
    ) as holder:
        assert holder.stdout is not None
        assert holder.stdin is not None
        assert holder.stdout.readline().strip() == "locked"
        try:
            with pytest.raises(TaurecError, match="another taurec run is writing"):
                run_v1(finished.parent.parent, small_suite, v1_dir, fresh=True)
            # Nothing moved: the writer's folder is where it was, whole.
            replaced = finished.parent / ".replaced"
            assert not replaced.exists() or not any(replaced.iterdir())
            assert len(load_records(finished)) == 8
        finally:
            holder.stdin.close()
            holder.wait(timeout=30)
    # Once the writer is gone, --fresh moves the folder aside as before.
    [fresh] = run_v1(finished.parent.parent, small_suite, v1_dir, fresh=True)
    assert fresh.ran == 8
    assert len(list((finished.parent / ".replaced").iterdir())) == 1


def test_resume_without_run_json_is_refused(
    finished: Path, small_suite: Path, v1_dir: Path
) -> None:
    (finished / "run.json").unlink()
    # Different settings than the records were made with: they must not be reused silently.
    with pytest.raises(TaurecError, match=r"run\.json is missing") as info:
        run_v1(finished.parent.parent, small_suite, v1_dir, seed=5, max_turns=3)
    assert str(finished) in str(info.value)
    assert not (finished / "run.json").exists()
    [fresh] = run_v1(finished.parent.parent, small_suite, v1_dir, seed=5, max_turns=3, fresh=True)
    assert fresh.ran == 8
    manifest = read_manifest(finished)
    assert manifest is not None
    assert (manifest.seed, manifest.max_turns) == (5, 3)


def test_a_deleted_transcript_is_noticed_by_resume_verify_and_site(
    finished: Path, small_suite: Path, v1_dir: Path
) -> None:
    # The archive's last member goes (as if cut off): exactly one transcript is missing.
    scored = [r for r in load_records(finished) if r.status == "scored"]
    victim = max(scored, key=lambda r: r.transcript_span.offset if r.transcript_span else -1)
    assert victim.transcript_span is not None
    with (finished / victim.transcript).open("r+b") as fh:
        fh.truncate(victim.transcript_span.offset + victim.transcript_span.length - 1)
    described = describe_transcript(victim)
    with pytest.raises(TaurecError, match="point to a transcript that is not there") as info:
        run_v1(finished.parent.parent, small_suite, v1_dir)
    assert described in str(info.value)
    assert "1 scored trial record(s)" in str(info.value)

    report = verify_results(finished, catalog=v1_dir / "catalog.json", tasks_dir=small_suite)
    assert not report.ok
    assert [(d.field, d.stored, d.recomputed) for d in report.disagreements] == [
        ("transcript", described, "missing")
    ]
    verify = subprocess.run(
        [
            str(PROJECT_ROOT / ".venv" / "bin" / "taurec"), "verify", str(finished),
            "--catalog", str(v1_dir / "catalog.json"), "--tasks", str(small_suite),
        ],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert verify.returncode == 1, verify.stdout + verify.stderr
    assert "transcript stored" in verify.stdout
    assert "'missing'" in verify.stdout
    assert "Traceback" not in verify.stderr

    inputs = load_inputs(finished.parent.parent.parent, finished / "no-snaps", small_suite)
    assert any("1 transcript(s) missing" in n and described in n for n in inputs.notes)

    # A folder of one file per trial (before the archive): a deleted file is noticed alike.
    old_layout = finished.parent / "old-layout"
    old_layout.mkdir()
    (old_layout / "transcripts").mkdir()
    name = "transcripts/t.json.gz"
    (old_layout / name).write_bytes(transcript_gzip(finished, scored[0]))
    assert missing_transcripts(old_layout, [(name, None), ("transcripts/gone.json.gz", None)]) == [
        "transcripts/gone.json.gz"
    ]


def test_a_second_verdict_on_a_scored_key_is_refused_everywhere(
    finished: Path, small_suite: Path, v1_dir: Path
) -> None:
    records = load_records(finished)
    failed = next(r for r in records if r.score is not None and r.score.reward < 1.0)
    assert failed.score is not None
    forged = failed.model_copy(
        update={"score": failed.score.model_copy(update={"reward": 1.0})}, deep=True
    )
    trials = finished / TRIALS_FILE
    # The same line twice is harmless (kept once); a different one is an edit.
    with trials.open("a") as fh:
        fh.write(failed.model_dump_json() + "\n")
    assert len(load_records(finished)) == len(records)
    with trials.open("a") as fh:
        fh.write(forged.model_dump_json() + "\n")
    with pytest.raises(LoadError, match="already scored on line") as info:
        load_records(finished)
    assert f"{failed.key.task_id}#{failed.key.trial_index}" in str(info.value)
    assert "trials.jsonl" in str(info.value)
    with pytest.raises(LoadError, match="already scored"):
        run_v1(finished.parent.parent, small_suite, v1_dir)
    with pytest.raises(LoadError, match="already scored"):
        verify_results(finished, catalog=v1_dir / "catalog.json", tasks_dir=small_suite)
    with pytest.raises(LoadError, match="already scored"):
        load_inputs(finished.parent.parent.parent, finished / "no-snaps", small_suite)


def test_merge_refuses_two_verdicts_for_one_trial(
    small_suite: Path, v1_dir: Path, make_submission: SubmissionMaker, tmp_path: Path
) -> None:
    # A hostile shard carries its own verdict for a trial another shard scored: merge used to
    # let whichever shard came last win.
    sub = make_submission("heur", builtin("heuristic"), trials=1)
    a, b = two_shards(sub, small_suite, v1_dir, tmp_path)
    victim = next(r for r in load_records(a.results_dir) if r.score is not None)
    assert victim.score is not None
    forged = victim.model_copy(
        update={"score": victim.score.model_copy(update={"reward": 1 - victim.score.reward})},
        deep=True,
    )
    with (b.results_dir / TRIALS_FILE).open("a") as fh:
        fh.write(forged.model_dump_json() + "\n")
    with pytest.raises(TaurecError, match="two verdicts for one trial"):
        merge_shards([a.results_dir, b.results_dir], tmp_path / "merged")
    # The same record in both (a re-run shard copied whole) is no conflict.
    with (b.results_dir / TRIALS_FILE).open("w") as fh:
        fh.write(victim.model_dump_json() + "\n")
    merge_shards([a.results_dir, b.results_dir], tmp_path / "merged")
