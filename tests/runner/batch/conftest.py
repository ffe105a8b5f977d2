"""Fixtures for the batch runner: a small task suite from the v1 data, and submission folders."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

SubmissionMaker = Callable[..., Path]


def copy_v1_suite(root: Path, v1_dir: Path, count: int) -> Path:
    """The first `count` v1 tasks in `<root>/v1/tasks`, the v1 policy beside it; the tasks folder."""
    tasks = root / "v1" / "tasks"
    tasks.mkdir(parents=True)
    for file in sorted((v1_dir / "tasks").glob("*.json"))[:count]:
        shutil.copy(file, tasks / file.name)
    shutil.copy(v1_dir / "policy.md", tasks.parent / "policy.md")
    return tasks


@pytest.fixture
def small_suite(tmp_path: Path, v1_dir: Path) -> Path:
    """Eight v1 tasks in a temporary tasks folder, the v1 policy beside it (the v1 layout)."""
    root = tmp_path / "suite"
    tasks = root / "tasks"
    tasks.mkdir(parents=True)
    for file in sorted((v1_dir / "tasks").glob("*.json"))[:8]:
        shutil.copy(file, tasks / file.name)
    shutil.copy(v1_dir / "policy.md", root / "policy.md")
    return tasks


@pytest.fixture
def make_submission(tmp_path: Path) -> SubmissionMaker:
    """Write `<tmp>/subs/<slug>/submission.yaml` for an agent config; returns the folder."""

    def make(slug: str, agent: dict[str, Any], trials: int = 2, **extra: Any) -> Path:
        folder = tmp_path / "subs" / slug
        folder.mkdir(parents=True, exist_ok=True)
        data = {
            "slug": slug,
            "display_name": slug.replace("-", " ").title(),
            "contact": {"name": "Test Person"},
            "agent": agent,
            "trials": trials,
            **extra,
        }
        (folder / "submission.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
        return folder

    return make


def builtin(name: str = "heuristic") -> dict[str, Any]:
    return {"kind": "builtin", "name": name}


def litellm_agent(api_base: str, model: str = "openai/heuristic", **extra: Any) -> dict[str, Any]:
    """A LiteLLM submission against the local model server, with tiny retry settings."""
    return {
        "kind": "litellm",
        "model": model,
        "api_base": api_base,
        "timeout_s": 2.0,
        "retry": {
            "max_attempts": 2,
            "initial_backoff_s": 0.01,
            "max_backoff_s": 0.05,
            "max_total_s": 5.0,
        },
        **extra,
    }


def run_v1(sub: Path, suite: Path, v1_dir: Path, **options: Any) -> Any:
    """Run the submission folder `sub` on the v1 catalog over `suite`, four trials at a time;
    `options` go to `run_submissions` as they are. Returns its list of results."""
    from runner.batch import run_submissions

    return run_submissions(
        [sub], snapshot=v1_dir / "catalog.json", tasks_dir=suite, concurrency=4, **options
    )


def two_shards(sub: Path, suite: Path, v1_dir: Path, out: Path) -> tuple[Any, Any]:
    """`sub` run as shard 1/2 into `out`/a and as shard 2/2 into `out`/b: the two results."""
    [first] = run_v1(sub, suite, v1_dir, shard="1/2", out=out / "a")
    [second] = run_v1(sub, suite, v1_dir, shard="2/2", out=out / "b")
    return first, second
