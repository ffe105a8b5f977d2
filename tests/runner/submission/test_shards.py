"""The refresh workflow's shard scripts, run locally: two shards of `taurec run` then a merge into each entry."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from runner.batch import load_records
from runner.core.paths import PROJECT_ROOT, SUBMISSIONS_DIR, TASKS_DIR


def script(root: Path, name: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "TAUREC": str(PROJECT_ROOT / ".venv" / "bin" / "taurec")}
    return subprocess.run(
        [str(root / "scripts" / name), *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def repo(tmp_path: Path, *slugs: str) -> Path:
    """A copy of the repository layout the scripts rely on: scripts/ and submissions/<slug>/
    (without results) for each of `slugs`."""
    root = tmp_path / "repo"
    shutil.copytree(PROJECT_ROOT / "scripts", root / "scripts")
    for slug in slugs:
        target = root / "submissions" / slug
        shutil.copytree(SUBMISSIONS_DIR / slug, target, ignore=shutil.ignore_patterns("results"))
    return root


def suite(tmp_path: Path, source: Path, *names: str) -> Path:
    """tmp_path/tasks holding the named task files of `source` and its policy."""
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    for name in (*names, "policy.md"):
        shutil.copyfile(source / name, tasks / name)
    return tasks


def two_shards(root: Path, tmp_path: Path, date: str, *options: str) -> None:
    """scripts/run_shard.sh as shards 1 and 2 of 2, into tmp_path/shards/shard-N; both succeed."""
    for index in (1, 2):
        out = tmp_path / "shards" / f"shard-{index}"
        ran = script(root, "run_shard.sh", date, str(index), "2", str(out), *options)
        assert ran.returncode == 0, ran.stdout + ran.stderr


@pytest.mark.slow
def test_two_shards_merge_into_every_entry(tmp_path: Path) -> None:
    root = repo(tmp_path, "oracle-baseline", "heuristic-via-litellm")
    # The loopback entry says port 0: each `taurec run` serves the model on a free port itself.
    config = root / "submissions" / "heuristic-via-litellm" / "submission.yaml"
    assert "http://127.0.0.1:0/v1" in config.read_text()
    tasks = suite(tmp_path, TASKS_DIR, "task_001.json", "task_021.json", "task_045.json")
    date = "2026-11-01"
    two_shards(root, tmp_path, date, "--tasks", str(tasks), "--trials", "2", "--max-cost", "1")
    merged = script(root, "merge_shards.sh", date, str(tmp_path / "shards"))
    assert merged.returncode == 0, merged.stdout + merged.stderr
    for slug in ("oracle-baseline", "heuristic-via-litellm"):
        records = load_records(root / "submissions" / slug / "results" / date)
        keys = sorted((r.key.task_id, r.key.trial_index) for r in records)
        assert keys == [(t, i) for t in ("task_001", "task_021", "task_045") for i in (0, 1)]
        assert all(r.status == "scored" for r in records)


@pytest.mark.slow
def test_a_grocery_shard_runs_only_the_entries_entering_grocery(tmp_path: Path) -> None:
    from runner.core.domains import get_domain

    root = repo(tmp_path, "oracle-baseline", "grocery-oracle")
    grocery = get_domain("grocery").tasks_dir
    tasks = suite(tmp_path, grocery, "task_g001.json", "task_g007.json", "suite.json")
    date = "2026-11-01"
    two_shards(root, tmp_path, date, "--domain", "grocery", "--tasks", str(tasks), "--trials", "1")
    assert not list((tmp_path / "shards").glob("*/oracle-baseline"))  # movies only: not run
    merged = script(root, "merge_shards.sh", date, str(tmp_path / "shards"))
    assert "no shard results for oracle-baseline" in merged.stderr
    records = load_records(root / "submissions" / "grocery-oracle" / "results" / f"grocery-{date}")
    assert sorted(r.key.task_id for r in records) == ["task_g001", "task_g007"]
    assert all(r.status == "scored" and r.score and r.score.reward == 1.0 for r in records)
