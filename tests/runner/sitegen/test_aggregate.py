"""The polars aggregation agrees with runner.core.metrics.summarize, and the ranking rules hold."""

from __future__ import annotations

import math

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from domains.movies.site_synth import SynthSpec, SynthWorld, synthesize
from runner.core.metrics import summarize
from runner.sitegen.aggregate import aggregate, trials_frame
from runner.sitegen.charts import pareto_front
from runner.sitegen.inputs import SiteInputs, load_inputs
from runner.sitegen.metric_table import METRIC_BY_KEY, METRICS
from runner.sitegen.views import assign_tiers


@pytest.fixture(scope="module")
def inputs(synth_world: SynthWorld) -> SiteInputs:
    return load_inputs(synth_world.submissions, synth_world.snapshots, synth_world.tasks)


def _close(a: float | None, b: float | None) -> bool:
    if a is None or b is None:
        return a is b
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def test_every_run_matches_the_core_summary(inputs: SiteInputs) -> None:
    agg = aggregate(trials_frame(inputs.runs), seed=0)
    assert agg.entries.height == len(inputs.runs) == 8
    for run in inputs.runs:
        summary = summarize(run.records(), ks=(1, 2, 3, 4), seed=0)
        key = (pl.col("submission") == run.slug) & (pl.col("snapshot") == run.snapshot)
        row = agg.entries.filter(key).row(0, named=True)
        assert row["scored"] == summary.counts.scored
        assert row["infra_errors"] == summary.counts.infra_error
        assert _close(row["constraint"], summary.mean_constraint_score)
        assert _close(row["policy"], summary.policy_score)
        assert _close(row["no_rec"], summary.no_recommendation_rate)
        assert _close(row["turns"], summary.mean_turns)
        assert _close(row["tool_calls"], summary.median_tool_calls)
        assert _close(row["proposals_per_success"], summary.proposals_per_success)
        assert _close(row["latency"], summary.median_step_latency_s)
        assert _close(row["cost"], summary.mean_cost_usd)
        by_k = {r["k"]: r for r in agg.pass_k.filter(key).iter_rows(named=True)}
        assert sorted(by_k) == [1, 2, 3, 4]
        for expected in summary.pass_hat_k:
            got = by_k[expected.k]
            assert _close(got["value"], expected.value)
            assert _close(got["ci_low"], expected.ci_low)
            assert _close(got["ci_high"], expected.ci_high)
            assert got["tasks_defined"] == expected.tasks_defined
            assert got["tasks_undefined"] == expected.tasks_undefined
        for policy, rate in summary.policy_violation_rates.items():
            found = agg.per_policy.filter(key & (pl.col("policy") == policy))
            if rate.active_trials == 0:
                assert found.is_empty()
            else:
                assert found["violations"].item() == rate.violations
                assert _close(found["rate"].item(), rate.rate)


def test_infra_errors_never_enter_n(inputs: SiteInputs) -> None:
    agg = aggregate(trials_frame(inputs.runs))
    per_task = agg.per_task
    assert per_task["infra_errors"].sum() > 0, "the synthesized world has infra errors"
    assert (per_task["n"] + per_task["infra_errors"] == 4).all()
    assert (per_task["c"] <= per_task["n"]).all()


def test_strata_cover_every_task_once(inputs: SiteInputs) -> None:
    agg = aggregate(trials_frame(inputs.runs))
    counts = agg.stratified.group_by("submission", "snapshot").agg(pl.col("tasks").sum())
    assert (counts["tasks"] == 12).all()
    assert agg.stratified["pass_1"].drop_nulls().is_between(0, 1).all()


def test_undefined_pass_k_is_none_not_zero(tmp_path) -> None:  # type: ignore[no-untyped-def]
    world = synthesize(tmp_path, SynthSpec(entries=1, tasks=3, trials=1, transcripts=False))
    found = load_inputs(world.submissions, world.snapshots, world.tasks)
    agg = aggregate(trials_frame(found.runs))
    assert agg.pass_k["k"].max() == 1
    row = agg.entries.row(0, named=True)
    assert row["pass_2"] is None
    assert row["pass_4"] is None
    assert METRIC_BY_KEY["pass_4"].format(row["pass_4"]) == "—"


def test_aggregation_is_deterministic(inputs: SiteInputs) -> None:
    first = aggregate(trials_frame(inputs.runs), seed=3)
    second = aggregate(trials_frame(list(reversed(inputs.runs))), seed=3)
    assert_frame_equal(first.entries, second.entries)
    assert_frame_equal(first.pass_k, second.pass_k)
    assert_frame_equal(first.per_task, second.per_task)
    assert_frame_equal(first.per_policy, second.per_policy)


def test_tie_tiers_follow_ci_overlap_with_the_leader() -> None:
    rows = [
        {"pass_1": 0.80, "lo_1": 0.70, "hi_1": 0.90},
        {"pass_1": 0.72, "lo_1": 0.60, "hi_1": 0.75},  # overlaps the leader's [0.70, 0.90]
        {"pass_1": 0.60, "lo_1": 0.50, "hi_1": 0.69},  # does not: a new tier, and its leader
        {"pass_1": 0.55, "lo_1": 0.45, "hi_1": 0.60},  # overlaps the new leader's [0.50, 0.69]
        {"pass_1": None, "lo_1": None, "hi_1": None},
    ]
    assert assign_tiers(rows) == [1, 1, 2, 2, 3]


def test_pareto_front_marks_undominated_entries() -> None:
    frame = pl.DataFrame(
        {
            "entry": ["fast-weak", "slow-strong", "slow-weak", "mid"],
            "pass_1": [0.3, 0.9, 0.2, 0.6],
            "latency": [1.0, 5.0, 6.0, 2.0],
        }
    )
    marked = dict(pareto_front(frame, "latency").select("entry", "pareto").iter_rows())
    assert marked == {"fast-weak": True, "mid": True, "slow-strong": True, "slow-weak": False}


def test_metric_table_formats() -> None:
    assert {m.key for m in METRICS} >= {"pass_1", "pass_2", "pass_4", "cost", "latency"}
    assert METRIC_BY_KEY["pass_1"].format(0.8472) == "84.7"
    assert METRIC_BY_KEY["latency"].format(1.234) == "1.23 s"
    assert METRIC_BY_KEY["cost"].format(0.00213) == "$0.0021"
    assert METRIC_BY_KEY["pass_1"].format(None) == "—"
    assert all(m.description for m in METRICS)


def test_fast_reader_matches_the_validated_records(synth_world: SynthWorld, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from runner.sitegen.trials import read_trials_frame, records_frame

    run_dir = synth_world.submissions / synth_world.slugs[0] / "results" / "2026-11-01"
    notes: list[str] = []
    fast = read_trials_frame(run_dir, "s", "snap", notes)
    from runner.batch.store import read_trials

    slow = records_frame(read_trials(run_dir).records, "s", "snap")
    assert_frame_equal(fast, slow)
    assert notes == []

    # A torn last line is dropped and noted; a re-run record of a key supersedes the first.
    copy = tmp_path / "run"
    copy.mkdir()
    lines = (run_dir / "trials.jsonl").read_bytes().splitlines(keepends=True)
    (copy / "trials.jsonl").write_bytes(b"".join([*lines, lines[0], lines[1][:40]]))
    notes = []
    repaired = read_trials_frame(copy, "s", "snap", notes)
    assert repaired.height == fast.height
    assert any("torn" in n for n in notes)


def test_a_bad_record_mid_file_names_the_file_and_line(synth_world: SynthWorld, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from runner.core.errors import LoadError
    from runner.sitegen.trials import read_trials_frame

    run_dir = synth_world.submissions / synth_world.slugs[0] / "results" / "2026-11-01"
    lines = (run_dir / "trials.jsonl").read_bytes().splitlines(keepends=True)
    (tmp_path / "trials.jsonl").write_bytes(b"".join([lines[0], b'{"status": 3}\n', lines[1]]))
    with pytest.raises(LoadError, match=r"trials.jsonl.*\n.*line 2"):
        read_trials_frame(tmp_path, "s", "snap", [])


def test_every_chart_kind_is_a_valid_vega_lite_spec(inputs: SiteInputs) -> None:
    from altair.utils.schemapi import validate_jsonschema
    from altair.vegalite.v6.schema.core import load_schema

    import runner.sitegen.charts as charts
    from runner.sitegen.views import boards, timeline_chart

    agg = aggregate(trials_frame(inputs.runs))
    board = boards(inputs, agg)[0]
    assert set(board.charts) == {
        "pass_k",
        "latency",
        "cost",
        "release",
        "strata",
        "violations",
        "tasks",
    }
    timeline = timeline_chart(inputs, agg)
    assert timeline is not None
    schema = load_schema()
    for chart in [*board.charts.values(), timeline]:
        assert chart is not None
        spec = chart.spec()
        assert spec["$schema"].startswith("https://vega.github.io/schema/vega-lite/v6")
        assert spec["title"]
        assert spec["datasets"]["table"]  # every chart kind has data here
        validate_jsonschema(spec, schema, rootschema=schema)  # raises on an invalid spec
    # A chart carries only its data; its spec is shared with every chart of its kind.
    assert "datasets" not in charts.TEMPLATES[board.charts["pass_k"].template]


def test_pareto_front_ignores_unscored_entries_and_ties() -> None:
    from runner.sitegen.charts import pareto_front

    frame = pl.DataFrame(
        {
            "entry": ["never ran", "cheap", "same cost worse", "dear better", "dear worse"],
            "pass_1": [0.0, 0.4, 0.3, 0.7, 0.5],
            "scored": [0, 10, 10, 10, 10],
            "cost": [0.0, 0.0, 0.0, 0.02, 0.03],
        }
    )
    marked = {r["entry"]: r["pareto"] for r in pareto_front(frame, "cost").to_dicts()}
    # The 0 % entry with no scored trial is not a point at all, let alone on the frontier.
    assert marked == {
        "cheap": True,
        "same cost worse": False,
        "dear better": True,
        "dear worse": False,
    }


def test_capability_axes_never_collapse_to_a_point() -> None:
    from runner.sitegen.charts import axis_domain, capability_vs

    assert axis_domain([0.0, 0.0, 0.0]) == [0.0, 1.0]  # every entry at $0
    lo, hi = axis_domain([2.5, 2.5])
    assert lo < 2.5 < hi
    lo, hi = axis_domain([0.1, 0.5])
    assert 0 <= lo <= 0.1
    assert hi >= 0.5
    frame = pl.DataFrame(
        {
            "entry": ["a", "b"],
            "pass_1": [0.5, 0.6],
            "lo_1": [0.4, 0.5],
            "hi_1": [0.6, 0.7],
            "scored": [4, 4],
            "cost": [0.0, 0.0],
        }
    )
    spec = capability_vs(frame, "cost", "Cost", "t", "$.4f").spec()
    domains = [
        layer["encoding"]["x"]["scale"]["domain"]
        for layer in spec["layer"]
        if "x" in layer.get("encoding", {})
    ] or [spec["encoding"]["x"]["scale"]["domain"]]
    assert all(d[1] > d[0] for d in domains)
    assert any(layer["mark"]["type"] == "text" for layer in spec["layer"])  # labelled points
