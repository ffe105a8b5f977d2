"""Unscored trials cannot lift an entry: more than 5 % unscored is "incomplete" and unranked; none scored is listed apart."""

from __future__ import annotations

from typing import Any

import polars as pl

from runner.sitegen.aggregate import aggregate
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
