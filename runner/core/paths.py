"""Where the project's data lives by default (repository root, tasks, snapshots, submissions, v1 data)."""

from __future__ import annotations

import os
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]
TASKS_DIR = PROJECT_ROOT / "tasks"
POLICY_PATH = TASKS_DIR / "policy.md"
SNAPSHOTS_DIR = PROJECT_ROOT / "catalog_pipeline" / "snapshots"
SUBMISSIONS_DIR = PROJECT_ROOT / "submissions"
SITE_DIR = PROJECT_ROOT / "site"
PUBLIC_DIR = PROJECT_ROOT / "public"
EXAMPLES_DIR = PROJECT_ROOT / "examples"
# The board's splits: `splits/<domain>/live/` (aggregates + encrypted results of the live test
# split) and `splits/<domain>/retired/<split id>/` (a retired split: its tasks, key, results).
SPLITS_DIR = PROJECT_ROOT / "splits"


def retired_splits_dir(domain: str) -> Path:
    """Where a domain's retired test splits are published (tasks, key, results, dated)."""
    return SPLITS_DIR / domain / "retired"


def v1_data_dir() -> Path:
    """The published τ-Rec v1 data, read by path only (never copied into the project)."""
    override = os.environ.get("TAUREC_V1_DATA")
    if override:
        return Path(override)
    return PROJECT_ROOT.parent / "shared" / "datasets" / "tau-rec-v1"
