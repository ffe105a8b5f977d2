"""Shared test set-up: offline LiteLLM, the v1 data path, and real model calls switched off."""

from __future__ import annotations

import os
from pathlib import Path

os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")

import pytest

from domains.movies.catalog import Catalog
from domains.movies.tasks import Task, load_task
from runner.core.paths import v1_data_dir


@pytest.fixture(scope="session")
def v1_dir() -> Path:
    """The published τ-Rec v1 data, by path (TAUREC_V1_DATA overrides)."""
    path = v1_data_dir()
    if not (path / "catalog.json").exists():
        pytest.fail(f"τ-Rec v1 data not found at {path} (set TAUREC_V1_DATA)")
    return path


@pytest.fixture(scope="session")
def v1_catalog(v1_dir: Path) -> Catalog:
    """The published v1 catalog."""
    return Catalog.load(v1_dir / "catalog.json")


@pytest.fixture(scope="session")
def v1_task(v1_dir: Path) -> Task:
    """The v1 suite's first task."""
    return load_task(v1_dir / "tasks" / "task_001.json")
