"""run_submissions with the built-in baselines: layout, resume, retired tasks, digests, shards and merge."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from runner.batch import load_records, merge_shards, read_manifest, run_submissions
from runner.batch.archive import ARCHIVE, load_trial_transcript, transcript_gzip
from runner.batch.keys import trial_seed
from runner.core.errors import TaurecError

from .conftest import SubmissionMaker, builtin, run_v1, two_shards


def test_a_run_writes_records_transcripts_and_manifest(
    small_suite: Path, v1_dir: Path, make_submission: SubmissionMaker
) -> None:
    sub = make_submission("heur", builtin("heuristic"), trials=2)
    [result] = run_v1(sub, small_suite, v1_dir)
    folder = sub / "results" / "tau-rec-v1"
    assert result.results_dir == folder
    manifest = read_manifest(folder)
    assert manifest is not None
    assert manifest.status == "completed"
    assert manifest.counts.planned == 16
    assert manifest.counts.scored + manifest.counts.infra_error == 16
    assert manifest.snapshot == "tau-rec-v1"
    assert manifest.policy_digest
    assert manifest.catalog_digest
    assert manifest.task_suite_digest
    assert len(manifest.task_ids) == 8
    records = load_records(folder)
    keys = {r.key.as_tuple() for r in records}
    assert len(keys) == len(records) == 16
    for r in records:
        assert r.key.seed == trial_seed(0, r.key.task_id, r.key.trial_index)
        transcript = load_trial_transcript(folder, r)
        assert transcript.task_id == r.key.task_id
        assert transcript.seed == r.key.seed
        assert r.transcript == ARCHIVE
        assert transcript_gzip(folder, r)[4:8] == b"\x00\x00\x00\x00"  # gzip mtime 0
    # One archive of independent gzip members: gunzip reads it as JSON lines, one per trial.
    lines = gzip.decompress((folder / ARCHIVE).read_bytes()).decode().splitlines()
    assert sorted(json.loads(line)["seed"] for line in lines) == sorted(r.key.seed for r in records)
    assert list((folder / "transcripts").iterdir()) == [folder / ARCHIVE]

    # Resume is the default: nothing is run twice.
    [again] = run_v1(sub, small_suite, v1_dir)
    assert again.ran == 0
    assert again.skipped_existing == 16
    assert len((folder / "trials.jsonl").read_text().splitlines()) == 16


def test_same_seed_gives_the_same_transcript_content(
    small_suite: Path, v1_dir: Path, make_submission: SubmissionMaker, tmp_path: Path
) -> None:
    sub = make_submission("heur", builtin("heuristic"), trials=1)
    run_v1(sub, small_suite, v1_dir, out=tmp_path / "a")
    run_v1(sub, small_suite, v1_dir, out=tmp_path / "b")

    def contents(root: Path) -> dict[str, str]:
        folder = root / "heur" / "results" / "tau-rec-v1"
        return {
            r.key.task_id: load_trial_transcript(folder, r).content_json()
            for r in load_records(folder)
        }

    assert contents(tmp_path / "a") == contents(tmp_path / "b")


def test_changed_tasks_are_refused_unless_fresh(
    small_suite: Path, v1_dir: Path, make_submission: SubmissionMaker
) -> None:
    sub = make_submission("heur", builtin("random"), trials=1)
    run_v1(sub, small_suite, v1_dir)
    task_file = sorted(small_suite.glob("*.json"))[0]
    data = json.loads(task_file.read_text())
    data["persona"] += " Edited."
    task_file.write_text(json.dumps(data))
    with pytest.raises(TaurecError, match="task suite changed"):
        run_v1(sub, small_suite, v1_dir)
    (small_suite.parent / "policy.md").write_text("# another policy\n")
    with pytest.raises(TaurecError, match="policy changed"):
        run_v1(sub, small_suite, v1_dir)
    [fresh] = run_v1(sub, small_suite, v1_dir, fresh=True)
    assert fresh.ran == 8
    replaced = list((sub / "results" / ".replaced").iterdir())
    assert len(replaced) == 1
    assert (replaced[0] / "trials.jsonl").exists()
    assert any("moved the previous results" in n for n in fresh.notes)


def test_retired_tasks_are_skipped_and_listed(
    small_suite: Path, v1_dir: Path, make_submission: SubmissionMaker
) -> None:
    task_file = sorted(small_suite.glob("*.json"))[0]
    data = json.loads(task_file.read_text())
    data["retired"] = {"since": "2020-01-01", "reason": "no longer solvable"}
    task_file.write_text(json.dumps(data))
    sub = make_submission("heur", builtin("random"), trials=1)
    [result] = run_v1(sub, small_suite, v1_dir)
    assert result.manifest.retired_tasks == {
        data["id"]: "retired since 2020-01-01: no longer solvable"
    }
    assert data["id"] not in {r.key.task_id for r in result.records}
    assert result.manifest.counts.planned == 7


def _comparable(folder: Path) -> dict[tuple[str, int], tuple[float | None, str, str]]:
    out = {}
    for r in load_records(folder):
        content = load_trial_transcript(folder, r).content_json()
        reward = r.score.reward if r.score else None
        out[(r.key.task_id, r.key.trial_index)] = (reward, r.status, content)
    return out


def test_three_shards_merge_to_the_unshardedrun_v1(
    small_suite: Path, v1_dir: Path, make_submission: SubmissionMaker, tmp_path: Path
) -> None:
    sub = make_submission("heur", builtin("heuristic"), trials=3)
    run_v1(sub, small_suite, v1_dir, out=tmp_path / "whole")
    shard_dirs = []
    for i in (1, 2, 3):
        [res] = run_v1(sub, small_suite, v1_dir, shard=f"{i}/3", out=tmp_path / f"shard{i}")
        assert res.manifest.shard == f"{i}/3"
        shard_dirs.append(res.results_dir)
    sizes = [len(load_records(d)) for d in shard_dirs]
    assert sum(sizes) == 24
    assert all(sizes)

    report = merge_shards(shard_dirs, tmp_path / "merged")
    assert report.complete
    assert report.records == 24
    whole = tmp_path / "whole" / "heur" / "results" / "tau-rec-v1"
    assert _comparable(tmp_path / "merged") == _comparable(whole)
    merged_manifest = read_manifest(tmp_path / "merged")
    assert merged_manifest is not None
    assert merged_manifest.status == "completed"
    assert merged_manifest.shard is None

    # A missing shard is reported, key by key.
    partial = merge_shards(shard_dirs[:2], tmp_path / "partial")
    assert not partial.complete
    assert len(partial.missing) == sizes[2]
    assert partial.missing_by_shard == {"3/3": sizes[2]}
    assert "MISSING" in partial.describe()


def test_merge_refuses_mixed_digests(
    small_suite: Path, v1_dir: Path, make_submission: SubmissionMaker, tmp_path: Path
) -> None:
    sub = make_submission("heur", builtin("random"), trials=1)
    [a] = run_v1(sub, small_suite, v1_dir, shard="1/2", out=tmp_path / "a")
    (small_suite.parent / "policy.md").write_text("# changed policy\n")
    [b] = run_v1(sub, small_suite, v1_dir, shard="2/2", out=tmp_path / "b")
    with pytest.raises(TaurecError, match="policy_digest"):
        merge_shards([a.results_dir, b.results_dir], tmp_path / "merged")


def test_transcripts_are_gzip_json(
    small_suite: Path, v1_dir: Path, make_submission: SubmissionMaker
) -> None:
    sub = make_submission("rand", builtin("random"), trials=1)
    [result] = run_v1(sub, small_suite, v1_dir)
    for record in result.records:
        data = json.loads(gzip.decompress(transcript_gzip(result.results_dir, record)))
        assert data["task_id"] == record.key.task_id


def test_two_submissions_share_one_batch(
    small_suite: Path, v1_dir: Path, make_submission: SubmissionMaker
) -> None:
    oracle = make_submission("oracle", builtin("oracle"), trials=2)
    rand = make_submission("rand", builtin("random"), trials=1)
    results = run_submissions(
        [oracle, rand], snapshot=v1_dir / "catalog.json", tasks_dir=small_suite, concurrency=8
    )
    by_slug = {r.submission: r for r in results}
    assert by_slug["oracle"].manifest.counts.scored == 16
    assert by_slug["rand"].manifest.counts.scored == 8
    assert all(r.score is not None and r.score.reward == 1.0 for r in by_slug["oracle"].records)
    assert by_slug["rand"].results_dir == rand / "results" / "tau-rec-v1"


def test_a_run_inside_github_actions_records_the_workflow_run_as_verification(
    small_suite: Path,
    v1_dir: Path,
    make_submission: SubmissionMaker,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sub = make_submission("verified", builtin("oracle"), trials=1)
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_SERVER_URL", "https://github.com")
    monkeypatch.setenv("GITHUB_REPOSITORY", "taurec/leaderboard")
    monkeypatch.setenv("GITHUB_RUN_ID", "42")
    run_v1(sub, small_suite, v1_dir)
    manifest = read_manifest(sub / "results" / "tau-rec-v1")
    assert manifest is not None
    assert manifest.verified_by == "https://github.com/taurec/leaderboard/actions/runs/42"


def test_a_local_run_is_not_marked_verified(
    small_suite: Path,
    v1_dir: Path,
    make_submission: SubmissionMaker,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sub = make_submission("local", builtin("oracle"), trials=1)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    run_v1(sub, small_suite, v1_dir)
    manifest = read_manifest(sub / "results" / "tau-rec-v1")
    assert manifest is not None
    assert manifest.verified_by is None


def test_merge_never_follows_a_record_out_of_its_folder(
    small_suite: Path, v1_dir: Path, make_submission: SubmissionMaker, tmp_path: Path
) -> None:
    # A hostile shard rewrites a record's transcript path to a file outside its folder: merge
    # used to copy whatever `src / record.transcript` resolved to into the merged results.
    sub = make_submission("heur", builtin("random"), trials=1)
    a, b = two_shards(sub, small_suite, v1_dir, tmp_path)
    secret = tmp_path / "secret.txt"
    secret.write_text("not a transcript")
    trials = a.results_dir / "trials.jsonl"
    lines = trials.read_text().splitlines()
    first = json.loads(lines[0])
    first["transcript"] = "../../../../secret.txt"
    lines[0] = json.dumps(first)
    trials.write_text("\n".join(lines) + "\n")
    with pytest.raises(TaurecError, match=r"transcript.*plain path inside transcripts/"):
        merge_shards([a.results_dir, b.results_dir], tmp_path / "merged")
    assert not any(
        p.read_bytes() == b"not a transcript"
        for p in (tmp_path / "merged").rglob("*")
        if p.is_file()
    )
