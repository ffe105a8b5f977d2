"""Unscored trials cannot lift an entry: more than 5 % unscored is "incomplete" and unranked; none scored is listed apart."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import polars as pl

from domains.movies.site_synth import SNAPSHOT_DATES, SynthWorld
from runner.play.attribution import standing
from runner.sitegen.aggregate import aggregate, trials_frame
from runner.sitegen.inputs import load_inputs
from runner.sitegen.trials import TRIALS_SCHEMA
from runner.sitegen.views import boards


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


def test_the_site_standing_is_the_attribution_rule() -> None:
    # The polars expression of the aggregation and runner.play.attribution.standing agree everywhere.
    rows = []
    cases = [(trials, scored) for trials in (1, 4, 20, 40, 41) for scored in range(trials + 1)]
    for case, (trials, scored) in enumerate(cases):
        slug = f"e{case}"
        rows += [
            _trial(slug, i, "scored" if i < scored else "infra_error", 1.0) for i in range(trials)
        ]
    entries = aggregate(pl.DataFrame(rows, schema=TRIALS_SCHEMA)).entries
    got = dict(zip(entries["submission"], entries["standing"], strict=True))
    assert got == {f"e{case}": standing(t, s) for case, (t, s) in enumerate(cases)}


def _cherry_pick(run_dir: Path) -> None:
    """Rewrite a results folder as the deep-argument agent's was before the rule: its failed
    trials became infra errors, and only the 4 it won were scored."""
    lines = (run_dir / "trials.jsonl").read_text().splitlines()
    out = []
    for index, line in enumerate(lines):
        record = json.loads(line)
        if index < 4:
            record["score"]["reward"] = 1.0
            record["score"]["constraint_score"] = 1.0
            record["score"]["policy_score"] = 1.0
        else:
            record.update(status="infra_error", score=None, stop_reason="infra_error")
            record["error"] = {"kind": "RecursionError", "message": "maximum recursion depth"}
        out.append(json.dumps(record))
    (run_dir / "trials.jsonl").write_text("\n".join(out) + "\n")


def test_an_unranked_entry_shows_no_score_and_is_off_every_frontier(
    synth_world: SynthWorld, tmp_path: Path
) -> None:
    # Before: marked incomplete, it still printed pass^1 100.0 and sat on the Pareto frontier.
    subs = tmp_path / "submissions"
    shutil.copytree(synth_world.submissions, subs)
    slug = synth_world.slugs[1]  # not the verified one: its ledger digests would not match
    label = SNAPSHOT_DATES[-1]
    _cherry_pick(subs / slug / "results" / label)
    inputs = load_inputs(subs, synth_world.snapshots, synth_world.tasks)
    [board] = [b for b in boards(inputs, aggregate(trials_frame(inputs.runs))) if b.label == label]
    assert slug not in [r.slug for r in board.rows]
    [row] = [r for r in board.unranked if r.slug == slug]
    assert row.standing == "incomplete"
    assert row.tier is None
    assert all(row.values[k] is None for k in ("pass_1", "pass_2", "pass_4", "constraint"))
    assert {row.cells[k] for k in ("pass_1", "pass_2", "pass_4")} == {"—"}
    assert row.export()["pass_1"] is None
    assert any("not ranked" in b.title for b in row.badges)
    name = row.name
    for key in ("latency", "cost", "release", "pass_k", "strata", "tasks"):
        chart = board.charts[key]
        if chart is None:
            continue
        assert name not in json.dumps(chart.columns), key
        assert slug not in json.dumps(chart.columns), key
