"""Leaderboard aggregation with polars lazy expressions: per (submission, snapshot) figures, strata, tasks, policies."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import polars as pl

from runner.core.metrics import PASS_THRESHOLD, bootstrap_ci, pass_hat_k
from runner.play.attribution import MAX_UNSCORED_SHARE
from runner.sitegen.inputs import Run
from runner.sitegen.trials import TRIALS_SCHEMA

RUN_KEYS = ("submission", "snapshot")


@dataclass
class Aggregates:
    """The tables the site renders; every frame is sorted, so output is byte-stable."""

    entries: pl.DataFrame
    pass_k: pl.DataFrame
    stratified: pl.DataFrame
    per_task: pl.DataFrame
    per_policy: pl.DataFrame
    trials: pl.DataFrame
    _parts: dict[str, dict[tuple[str, str], pl.DataFrame]] = field(default_factory=dict, repr=False)

    def of_run(self, table: str, slug: str, snapshot: str) -> pl.DataFrame:
        """The rows of one (submission, snapshot) in `table` (each table is split once, then looked up)."""
        frame: pl.DataFrame = getattr(self, table)
        if table not in self._parts:
            self._parts[table] = {
                (str(k[0]), str(k[1])): part
                for k, part in frame.partition_by(
                    list(RUN_KEYS), as_dict=True, maintain_order=True
                ).items()
            }
        return self._parts[table].get((slug, snapshot), frame.clear())


def trials_frame(runs: Iterable[Run]) -> pl.DataFrame:
    """One row per trial record of every run (see `runner.sitegen.trials.TRIALS_SCHEMA`)."""
    frames = [run.frame for run in runs]
    return pl.concat(frames) if frames else pl.DataFrame(schema=TRIALS_SCHEMA)


def _per_task(trials: pl.LazyFrame) -> pl.LazyFrame:
    scored = pl.col("status") == "scored"
    return (
        trials.group_by(*RUN_KEYS, "task_id", "complexity", "reveal_difficulty")
        .agg(
            n=scored.sum().cast(pl.Int64),
            c=(scored & (pl.col("reward") >= PASS_THRESHOLD)).sum().cast(pl.Int64),
            infra_errors=(pl.col("status") == "infra_error").sum().cast(pl.Int64),
        )
        .sort(*RUN_KEYS, "task_id")
    )


def _pass_table(pairs: pl.DataFrame) -> pl.DataFrame:
    """pass^k for every distinct (n, c) and k ≤ max n, from the one definition in runner.core.metrics."""
    max_n = int(pairs["n"].max() or 0)  # type: ignore[arg-type]
    rows: dict[str, list[object]] = {"n": [], "c": [], "k": [], "value": []}
    for n, c in pairs.select("n", "c").iter_rows():
        for k in range(1, max_n + 1):
            rows["n"].append(n)
            rows["c"].append(c)
            rows["k"].append(k)
            rows["value"].append(pass_hat_k(n, c, k))
    return pl.DataFrame(
        rows, schema={"n": pl.Int64, "c": pl.Int64, "k": pl.Int64, "value": pl.Float64}
    )


def ci_wanted(k: int, max_n: int) -> bool:
    """Which k get a bootstrap CI: 1-4, powers of two and the largest k (each CI costs ~ms)."""
    return k <= 4 or k & (k - 1) == 0 or k == max_n


def _pass_k(per_task: pl.DataFrame, seed: int, level: float) -> pl.DataFrame:
    """Per run and k: the mean of per-task pass^k over tasks where it is defined, with its CI."""
    if per_task.is_empty():
        return pl.DataFrame(
            schema={
                "submission": pl.String,
                "snapshot": pl.String,
                "k": pl.Int64,
                "value": pl.Float64,
                "ci_low": pl.Float64,
                "ci_high": pl.Float64,
                "tasks_defined": pl.Int64,
                "tasks_undefined": pl.Int64,
            }
        )
    lookup = _pass_table(per_task.select("n", "c").unique().sort("n", "c"))
    long = (
        per_task.lazy()
        .with_columns(max_n=pl.col("n").max().over(RUN_KEYS))
        .join(lookup.lazy(), on=["n", "c"], how="left")
        .filter(pl.col("k") <= pl.col("max_n"))
        .group_by(*RUN_KEYS, "k")
        .agg(
            value=pl.col("value").mean(),
            values=pl.col("value").sort_by("task_id").drop_nulls(),
            tasks_defined=pl.col("value").is_not_null().sum().cast(pl.Int64),
            tasks_undefined=pl.col("value").is_null().sum().cast(pl.Int64),
            max_n=pl.col("max_n").first(),
        )
        .sort(*RUN_KEYS, "k")
        .collect()
    )
    lows: list[float | None] = []
    highs: list[float | None] = []
    for k, max_n, values in long.select("k", "max_n", "values").iter_rows():
        if values and ci_wanted(k, max_n):
            low, high = bootstrap_ci(values, seed=seed, level=level)
            lows.append(low)
            highs.append(high)
        else:
            lows.append(None)
            highs.append(None)
    return long.drop("values", "max_n").with_columns(
        ci_low=pl.Series(lows, dtype=pl.Float64), ci_high=pl.Series(highs, dtype=pl.Float64)
    )


def _entries(trials: pl.LazyFrame, pass_k: pl.DataFrame) -> pl.DataFrame:
    scored = pl.col("status") == "scored"
    base = trials.group_by(*RUN_KEYS).agg(
        trials=pl.len().cast(pl.Int64),
        scored=scored.sum().cast(pl.Int64),
        infra_errors=(pl.col("status") == "infra_error").sum().cast(pl.Int64),
        tasks=pl.col("task_id").n_unique().cast(pl.Int64),
        mean_reward=pl.col("reward").filter(scored).mean(),
        constraint=pl.col("constraint_score").filter(scored).mean(),
        policy=pl.col("policy_score").filter(scored).mean(),
        weighted_policy=pl.col("weighted_policy_score").filter(scored).mean(),
        no_rec=pl.col("no_rec").filter(scored).cast(pl.Float64).mean(),
        turns=pl.col("turns").filter(scored).mean(),
        tool_calls=pl.col("tool_calls").filter(scored).median(),
        proposals_per_success=pl.when((pl.col("reward") == 1.0).filter(scored).sum() > 0)
        .then(
            pl.col("proposals").filter(scored).sum()
            / (pl.col("reward") == 1.0).filter(scored).sum()
        )
        .otherwise(None),
        cost=pl.col("cost_usd").filter(scored).mean(),
        tokens=pl.col("tokens").filter(scored).mean(),
        total_cost=pl.col("cost_usd").sum(),
        leaks=(pl.col("leak_audit_clean") == False).sum().cast(pl.Int64),  # noqa: E712
    )
    latency = (
        trials.filter(scored)
        .select(*RUN_KEYS, "step_latencies_s")
        .explode("step_latencies_s")
        .group_by(*RUN_KEYS)
        .agg(
            latency=pl.col("step_latencies_s").median(),
            latency_p95=pl.col("step_latencies_s").quantile(0.95, "linear"),
        )
    )
    wide = (
        pass_k.lazy()
        .select(
            *RUN_KEYS,
            "k",
            pl.col("value").alias("pass"),
            pl.col("ci_low").alias("lo"),
            pl.col("ci_high").alias("hi"),
        )
        .filter(pl.col("k").is_in([1, 2, 4]))
        .collect()
        .pivot(on="k", index=list(RUN_KEYS), values=["pass", "lo", "hi"])
    )
    # Columns the pivot did not create (nobody ran enough trials) are undefined, not zero.
    missing = [
        pl.lit(None, dtype=pl.Float64).alias(f"{m}_{k}")
        for k in (1, 2, 4)
        for m in ("pass", "lo", "hi")
        if f"{m}_{k}" not in wide.columns
    ]
    wide = wide.with_columns(*missing)
    max_k = pass_k.lazy().group_by(*RUN_KEYS).agg(max_k=pl.col("k").max())
    unscored = pl.col("trials") - pl.col("scored")
    # runner.play.attribution.standing as an expression (a test holds the two equal).
    standing = (
        pl.when(pl.col("scored") == 0)
        .then(pl.lit("unscored"))
        .when(unscored > MAX_UNSCORED_SHARE * pl.col("trials"))
        .then(pl.lit("incomplete"))
        .otherwise(pl.lit("ranked"))
    )
    return (
        base.with_columns(standing=standing)
        .join(latency, on=list(RUN_KEYS), how="left")
        .join(wide.lazy(), on=list(RUN_KEYS), how="left")
        .join(max_k, on=list(RUN_KEYS), how="left")
        .sort(*RUN_KEYS)
        .collect()
    )


def _per_policy(trials: pl.LazyFrame) -> pl.LazyFrame:
    return (
        trials.filter(pl.col("status") == "scored")
        .select(*RUN_KEYS, "policy", "policy_passed")
        .explode("policy", "policy_passed")
        .drop_nulls("policy")
        .group_by(*RUN_KEYS, "policy")
        .agg(
            active=pl.len().cast(pl.Int64),
            violations=(~pl.col("policy_passed")).sum().cast(pl.Int64),
        )
        .with_columns(rate=pl.col("violations") / pl.col("active"))
        .sort(*RUN_KEYS, "policy")
    )


def _stratified(per_task: pl.DataFrame) -> pl.DataFrame:
    return (
        per_task.lazy()
        .with_columns(p1=pl.when(pl.col("n") > 0).then(pl.col("c") / pl.col("n")))
        .group_by(*RUN_KEYS, "reveal_difficulty", "complexity")
        .agg(
            pass_1=pl.col("p1").mean(),
            tasks=pl.len().cast(pl.Int64),
            tasks_defined=pl.col("p1").is_not_null().sum().cast(pl.Int64),
        )
        .sort(*RUN_KEYS, "reveal_difficulty", "complexity")
        .collect()
    )


def aggregate(
    trials: pl.DataFrame | pl.LazyFrame, *, seed: int = 0, level: float = 0.95
) -> Aggregates:
    """All leaderboard tables from a trials frame (see `trials_frame`); pure and deterministic."""
    # A canonical row order first: float sums, and so every mean, do not depend on input order.
    lazy = trials.lazy().sort(*RUN_KEYS, "task_id", "trial_index")
    per_task = _per_task(lazy).collect()
    pass_k = _pass_k(per_task, seed, level)
    return Aggregates(
        entries=_entries(lazy, pass_k),
        pass_k=pass_k,
        stratified=_stratified(per_task),
        per_task=per_task,
        per_policy=_per_policy(lazy).collect(),
        trials=trials.collect() if isinstance(trials, pl.LazyFrame) else trials,
    )


def aggregate_runs(runs: Iterable[Run], *, seed: int = 0, level: float = 0.95) -> Aggregates:
    """`aggregate` over loaded runs."""
    return aggregate(trials_frame(runs), seed=seed, level=level)
