"""Unscored trials cannot lift an entry: more than 5 % unscored is "incomplete" and unranked; none scored is listed apart."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import polars as pl

from runner.sitegen.aggregate import aggregate
from runner.sitegen.inputs import load_inputs
from runner.sitegen.synth import SynthWorld
from runner.sitegen.trials import TRIALS_SCHEMA


def _trial(slug: str, index: int, status: str, reward: float) -> dict[str, Any]:
    scored = status == "scored"
    return {
        "submission": slug,
        "snapshot": "2026-11-01",
        "task_id": f"task_{index // 4:03d}",
        "trial_index": index % 4,
        "seed": index,
        "status": status,
        "complexity": "simple",
        "reveal_difficulty": "easy",
        "no_valid_recommendation": False,
        "reward": reward if scored else None,
        "constraint_score": reward if scored else None,
        "policy_score": 1.0 if scored else None,
        "weighted_policy_score": 1.0 if scored else None,
        "no_rec": False if scored else None,
        "turns": 3,
        "tool_calls": 2,
        "step_latencies_s": [0.1],
        "cost_usd": 0.0,
        "policy": [],
        "policy_passed": [],
        "leak_audit_clean": True,
        "transcript": "t.json.gz",
    }


def test_standing_of_each_entry() -> None:
    rows = []
    # The cherry-picker: wins the 30 % it answers, the rest unscored (before: pass^1 1.000, ranked).
    rows += [_trial("picker", i, "scored" if i < 12 else "infra_error", 1.0) for i in range(40)]
    rows += [_trial("honest", i, "scored", 1.0 if i % 2 else 0.0) for i in range(40)]
    rows += [_trial("edge", i, "infra_error" if i < 2 else "scored", 0.0) for i in range(40)]
    rows += [_trial("down", i, "infra_error", 0.0) for i in range(40)]
    frame = pl.DataFrame(rows, schema=TRIALS_SCHEMA)
    entries = aggregate(frame).entries
    standing = dict(zip(entries["submission"], entries["standing"], strict=True))
    # 2 of 40 = exactly 5 %: still ranked; 28 of 40 unscored: incomplete; 40 of 40: unscored.
    assert standing == {
        "picker": "incomplete",
        "honest": "ranked",
        "edge": "ranked",
        "down": "unscored",
    }


def test_a_made_up_results_label_is_not_a_board(synth_world: SynthWorld, tmp_path: Path) -> None:
    # Before: a results folder named 2099-01-01 became the default (newest) board.
    subs = tmp_path / "submissions"
    shutil.copytree(synth_world.submissions, subs)
    slug_dir = next(p for p in sorted(subs.iterdir()) if (p / "results").is_dir())
    real = next(p for p in sorted((slug_dir / "results").iterdir()) if p.is_dir())
    shutil.copytree(real, slug_dir / "results" / "2099-01-01")
    inputs = load_inputs(subs, synth_world.snapshots, synth_world.tasks)
    labels = {run.snapshot for run in inputs.runs}
    assert "2099-01-01" not in labels
    assert real.name in labels
    assert any("no snapshot 2099-01-01, not a board" in note for note in inputs.notes)
