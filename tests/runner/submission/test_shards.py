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


@pytest.mark.slow
def test_two_shards_merge_into_every_entry(tmp_path: Path) -> None:
    # A copy of the repository layout the scripts rely on: scripts/ and submissions/<slug>/.
    root = tmp_path / "repo"
    shutil.copytree(PROJECT_ROOT / "scripts", root / "scripts")
    for slug in ("oracle-baseline", "heuristic-via-litellm"):
        shutil.copytree(
            SUBMISSIONS_DIR / slug,
            root / "submissions" / slug,
            ignore=shutil.ignore_patterns("results"),
        )
    # The loopback entry says port 0: each `taurec run` serves the model on a free port itself.
    config = root / "submissions" / "heuristic-via-litellm" / "submission.yaml"
    assert "http://127.0.0.1:0/v1" in config.read_text()
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    for name in ("task_001.json", "task_021.json", "task_045.json", "policy.md"):
        shutil.copyfile(TASKS_DIR / name, tasks / name)
    date = "2026-11-01"
    for index in (1, 2):
        ran = script(
            root, "run_shard.sh", date, str(index), "2", str(tmp_path / "shards" / f"shard-{index}"),
            "--tasks", str(tasks), "--trials", "2", "--max-cost", "1",
        )  # fmt: skip
        assert ran.returncode == 0, ran.stdout + ran.stderr
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

    root = tmp_path / "repo"
    shutil.copytree(PROJECT_ROOT / "scripts", root / "scripts")
    for slug in ("oracle-baseline", "grocery-oracle"):
        shutil.copytree(
            SUBMISSIONS_DIR / slug,
            root / "submissions" / slug,
            ignore=shutil.ignore_patterns("results"),
        )
    grocery = get_domain("grocery").tasks_dir
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    for name in ("task_g001.json", "task_g007.json", "policy.md", "suite.json"):
        shutil.copyfile(grocery / name, tasks / name)
    date = "2026-11-01"
    for index in (1, 2):
        ran = script(
            root, "run_shard.sh", date, str(index), "2", str(tmp_path / "shards" / f"shard-{index}"),
            "--domain", "grocery", "--tasks", str(tasks), "--trials", "1",
        )  # fmt: skip
        assert ran.returncode == 0, ran.stdout + ran.stderr
    assert not list((tmp_path / "shards").glob("*/oracle-baseline"))  # movies only: not run
    merged = script(root, "merge_shards.sh", date, str(tmp_path / "shards"))
    assert "no shard results for oracle-baseline" in merged.stderr
    records = load_records(root / "submissions" / "grocery-oracle" / "results" / f"grocery-{date}")
    assert sorted(r.key.task_id for r in records) == ["task_g001", "task_g007"]
    assert all(r.status == "scored" and r.score and r.score.reward == 1.0 for r in records)
