"""`taurec score` judges a transcript against the snapshot it ran on; `taurec verify` re-checks results folders."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from domains.movies.catalog import Catalog
from domains.movies.tasks import load_tasks
from runner.batch import load_records, run_submissions
from runner.batch.archive import ARCHIVE, load_trial_transcript
from runner.cli import cli
from runner.publish.rescore import DigestMismatch, score_trace_files, score_traces, verify_results

from .conftest import SubmissionMaker, builtin

OLD, NEW = "2026-11-01", "2026-12-01"


@pytest.fixture
def two_snapshots(tmp_path: Path, v1_dir: Path) -> Path:
    """An old snapshot (the v1 catalog) and a newer one without half of its titles."""
    snaps = tmp_path / "snaps"
    (snaps / OLD).mkdir(parents=True)
    shutil.copy(v1_dir / "catalog.json", snaps / OLD / "catalog.json")
    items = json.loads((v1_dir / "catalog.json").read_text(encoding="utf-8"))
    (snaps / NEW).mkdir()
    (snaps / NEW / "catalog.json").write_text(json.dumps(items[::2]), encoding="utf-8")
    return snaps


@pytest.fixture
def old_run(two_snapshots: Path, small_suite: Path, make_submission: SubmissionMaker) -> Path:
    """The heuristic baseline run on the OLD snapshot, before NEW existed as far as it knew."""
    sub = make_submission("heur", builtin("heuristic"), trials=1)
    [result] = run_submissions(
        [sub], snapshot=OLD, tasks_dir=small_suite, snapshots_dir=two_snapshots
    )
    return result.results_dir


def test_score_uses_the_snapshot_the_transcript_names(
    old_run: Path, two_snapshots: Path, small_suite: Path
) -> None:
    records = [r for r in load_records(old_run) if r.status == "scored"]
    # `taurec score` on the run's archive scores every member, labelled by its offset.
    paths = [old_run / ARCHIVE]
    rescored = score_traces(paths, tasks_dir=small_suite, snapshots_dir=two_snapshots)
    by_label = {s.trace: s.score for s in rescored}
    assert len(by_label) == len(load_records(old_run))
    assert [
        by_label[f"{old_run / ARCHIVE}@{r.transcript_span.offset}"]
        for r in records
        if r.transcript_span is not None
    ] == [r.score for r in records]
    # The newest snapshot would judge differently: this is the mistake the default avoids.
    newest = Catalog.load(two_snapshots / NEW)
    against_new = score_trace_files(paths, newest, load_tasks(small_suite))
    assert [s.score for s in against_new if s.status == "scored"] != [r.score for r in records]
    assert any(
        s.score is not None and "not in the catalog" in s.score.constraint_reason
        for s in against_new
    )


def test_a_catalog_or_suite_with_other_digests_is_refused(
    old_run: Path, two_snapshots: Path, small_suite: Path, tmp_path: Path
) -> None:
    path = old_run / ARCHIVE
    with pytest.raises(DigestMismatch, match="catalog_digest"):
        score_traces([path], NEW, small_suite, snapshots_dir=two_snapshots)
    other = tmp_path / "other-suite"
    shutil.copytree(small_suite.parent, other)
    next((other / "tasks").glob("*.json")).unlink()
    with pytest.raises(DigestMismatch, match="task_suite_digest"):
        score_traces([path], tasks_dir=other / "tasks", snapshots_dir=two_snapshots)
    # The real command: a clear message and a non-zero exit, no traceback.
    taurec = Path(sys.executable).parent / "taurec"
    result = subprocess.run(
        [taurec, "score", path, "--catalog", two_snapshots / NEW, "--tasks", small_suite],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert "catalog_digest" in result.stderr
    assert "refusing to score against a different catalog" in result.stderr
    assert "Traceback" not in result.stderr
    # --catalog takes a path (or a date) and a matching one is accepted.
    ok = CliRunner().invoke(
        cli,
        ["score", str(path), "--catalog", str(two_snapshots / OLD), "--tasks", str(small_suite)],
    )
    assert ok.exit_code == 0, ok.output


def test_verify_passes_on_a_real_results_folder_and_catches_a_tampered_score(
    old_run: Path, two_snapshots: Path, small_suite: Path
) -> None:
    report = verify_results(old_run, tasks_dir=small_suite, snapshots_dir=two_snapshots)
    assert report.ok, report.describe()
    assert report.checked == len(load_records(old_run))
    args = [
        "verify",
        str(old_run),
        "--catalog",
        str(two_snapshots / OLD),
        "--tasks",
        str(small_suite),
    ]
    assert CliRunner().invoke(cli, args).exit_code == 0

    # Tamper: lower one stored reward in trials.jsonl (any edit of a score is caught alike).
    lines = (old_run / "trials.jsonl").read_text(encoding="utf-8").splitlines()
    rows = [json.loads(line) for line in lines]
    target = next(r for r in rows if r["status"] == "scored" and r["score"]["reward"] == 1.0)
    target["score"]["reward"] = 0.0
    (old_run / "trials.jsonl").write_text(
        "".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8"
    )
    tampered = verify_results(old_run, tasks_dir=small_suite, snapshots_dir=two_snapshots)
    assert [(d.field, d.stored, d.recomputed) for d in tampered.disagreements] == [
        ("score.reward", 0.0, 1.0)
    ]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 1
    assert f"{target['key']['task_id']}#0: score.reward stored 0.0, recomputed 1.0" in result.output


def test_schema_1_transcripts_still_load_and_score(
    old_run: Path, two_snapshots: Path, small_suite: Path, tmp_path: Path
) -> None:
    record = next(r for r in load_records(old_run) if r.status == "scored")
    data = json.loads(load_trial_transcript(old_run, record).model_dump_json())
    for key in ("rules", "provenance"):
        data.pop(key)
    data["schema_version"] = 1
    old = tmp_path / "schema1.json"
    old.write_text(json.dumps(data), encoding="utf-8")
    [entry] = score_traces([old], str(two_snapshots / OLD), small_suite)
    assert entry.score == record.score


def test_a_grocery_run_is_rescored_by_its_own_domain(
    tmp_path: Path, make_submission: SubmissionMaker
) -> None:
    """verify reads the domain from run.json, score from the suite folder's suite.json."""
    from runner.core.domains import get_domain

    grocery = get_domain("grocery")
    tasks = tmp_path / "grocery-tasks"
    tasks.mkdir()
    for name in ("task_g001.json", "task_g007.json", "policy.md", "suite.json"):
        shutil.copyfile(grocery.tasks_dir / name, tasks / name)
    sub = make_submission("shop", builtin("oracle"), trials=1, domains=["grocery"])
    [result] = run_submissions([sub], snapshot="2026-11-01", tasks_dir=tasks)
    assert result.manifest.domain == "grocery"

    report = verify_results(result.results_dir, tasks_dir=tasks)
    assert (report.ok, report.checked) == (True, 2), report.describe()
    rescored = score_traces([result.results_dir / ARCHIVE], tasks_dir=tasks)
    assert sorted((s.task_id, s.score.reward if s.score else None) for s in rescored) == [
        ("task_g001", 1.0),
        ("task_g007", 1.0),
    ]
