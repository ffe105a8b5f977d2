"""Altair chart specs for the site (pass^k curves, Pareto fronts, strata, violations, task grid, timeline)."""

from __future__ import annotations

from typing import Any

import altair as alt
import polars as pl

Spec = dict[str, Any]

# Charts take the width of their box and re-flow with it (phones included).
WIDTH = "container"
HEIGHT = 260
COMPLEXITY_ORDER = ["simple", "medium", "complex"]
REVEAL_ORDER = ["volunteer", "mixed", "hidden"]


# Schema validation of every spec costs ~0.1 s a chart; the tests validate each chart kind once.
VALIDATE = False


MIN_FONT = 10  # px: no chart text smaller than this, on a phone too


def _spec(chart: alt.TopLevelMixin) -> Spec:
    readable = chart.configure_axis(labelFontSize=MIN_FONT, titleFontSize=11).configure_legend(
        labelFontSize=MIN_FONT, titleFontSize=11
    )
    spec: Spec = readable.to_dict(validate=VALIDATE)
    return spec


def _data(frame: pl.DataFrame) -> alt.Data:
    return alt.Data(values=frame.to_dicts())  # type: ignore[no-untyped-call]


def pass_k_curves(pass_k: pl.DataFrame, title: str) -> Spec:
    """pass^k against k, one line per entry with its 95 % CI band. Needs columns entry, k, value, ci_low, ci_high."""
    data = pass_k.filter(pl.col("value").is_not_null()).select(
        "entry", "k", "value", "ci_low", "ci_high", "tasks_defined"
    )
    base = alt.Chart(_data(data)).encode(
        x=alt.X("k:Q", title="k (trials that must all succeed)", axis=alt.Axis(tickMinStep=1)),
        color=alt.Color("entry:N", title="Entry", legend=alt.Legend(symbolLimit=0, labelLimit=220)),
    )
    band = (
        base.transform_filter("datum.ci_low != null")
        .mark_area(opacity=0.15)
        .encode(
            y=alt.Y("ci_low:Q", title="pass^k (share of tasks)", scale=alt.Scale(domain=[0, 1])),
            y2="ci_high:Q",
        )
    )
    tooltip = [
        alt.Tooltip("entry:N", title="Entry"),
        alt.Tooltip("k:Q"),
        alt.Tooltip("value:Q", title="pass^k", format=".1%"),
        alt.Tooltip("ci_low:Q", title="95% CI low", format=".1%"),
        alt.Tooltip("ci_high:Q", title="95% CI high", format=".1%"),
        alt.Tooltip("tasks_defined:Q", title="tasks"),
    ]
    line = base.mark_line(point=True).encode(
        y=alt.Y("value:Q", axis=alt.Axis(format="%")), tooltip=tooltip
    )
    chart = alt.layer(band, line).properties(title=title, width=WIDTH, height=HEIGHT)
    return _spec(chart)


def _pass1_y() -> alt.Y:
    """The pass^1 axis every capability chart shares: a share of tasks from 0 to 1."""
    return alt.Y(
        "pass_1:Q",
        title="pass^1 (share of tasks)",
        axis=alt.Axis(format="%"),
        scale=alt.Scale(domain=[0, 1]),
    )


def _point_labels(base: alt.Chart) -> alt.Chart:
    """Each point named by its entry, beside it (charts stay readable without hovering)."""
    labels: alt.Chart = base.mark_text(
        align="left", dx=6, dy=-6, fontSize=MIN_FONT, limit=140
    ).encode(text="entry:N")
    return labels


def floor_rule(floor: float | None) -> list[alt.Chart]:
    """The exploit floor as a dashed horizontal line with its label (nothing when there is none)."""
    if floor is None:
        return []
    frame = alt.Data(values=[{"floor": floor, "label": f"exploit floor {floor:.0%}"}])  # type: ignore[no-untyped-call]
    base = alt.Chart(frame).encode(y=alt.Y("floor:Q"))
    rule: alt.Chart = base.mark_rule(color="#c62828", strokeDash=[6, 4])
    text: alt.Chart = base.mark_text(
        align="left", baseline="bottom", x=4, dy=-2, fontSize=MIN_FONT, color="#c62828"
    ).encode(text="label:N")
    return [rule, text]


def pareto_front(frame: pl.DataFrame, x: str) -> pl.DataFrame:
    """Mark the entries no other entry beats on both pass^1 (higher) and `x` (lower).

    Entries with no scored trial have no pass^1 to stand on and are left out, so a 0 % entry
    that never ran is never drawn on the frontier; a point ties off the frontier when an entry
    at the same or lower `x` already reached its pass^1.
    """
    scored = pl.col("scored") > 0 if "scored" in frame.columns else pl.lit(True)
    return (
        frame.lazy()
        .filter(pl.col(x).is_not_null() & pl.col("pass_1").is_not_null() & scored)
        .sort([x, "pass_1", "entry"], descending=[False, True, False])
        .with_columns(best_before=pl.col("pass_1").cum_max().shift(1))
        .with_columns(
            pareto=pl.col("best_before").is_null() | (pl.col("pass_1") > pl.col("best_before"))
        )
        .drop("best_before")
        .collect()
    )


def axis_domain(values: list[float]) -> list[float]:
    """A non-degenerate x domain: padded around the data, never a single point (e.g. every cost $0)."""
    if not values:
        return [0.0, 1.0]
    lo, hi = min(values), max(values)
    if hi <= lo:
        pad = abs(lo) * 0.5 if lo else 1.0
        return [max(0.0, lo - pad), hi + pad]
    pad = (hi - lo) * 0.08
    return [max(0.0, lo - pad) if lo >= 0 else lo - pad, hi + pad]


def capability_vs(
    frame: pl.DataFrame, x: str, x_title: str, title: str, fmt: str, floor: float | None = None
) -> Spec:
    """pass^1 against a cost axis (latency, USD or a date), labelled points, the Pareto frontier as a
    step line, and the exploit floor."""
    columns = ["entry", "pass_1", "lo_1", "hi_1", x] + (
        ["scored"] if "scored" in frame.columns else []
    )
    data = pareto_front(frame.select(columns), x)
    tooltip = [
        alt.Tooltip("entry:N", title="Entry"),
        alt.Tooltip("pass_1:Q", title="pass^1", format=".1%"),
        alt.Tooltip("lo_1:Q", title="95% CI low", format=".1%"),
        alt.Tooltip("hi_1:Q", title="95% CI high", format=".1%"),
        alt.Tooltip(f"{x}:Q", title=x_title, format=fmt),
        alt.Tooltip("pareto:N", title="on the Pareto frontier"),
    ]
    domain = axis_domain([float(v) for v in data[x].to_list()])
    base = alt.Chart(_data(data)).encode(
        x=alt.X(
            f"{x}:Q",
            title=x_title,
            scale=alt.Scale(domain=domain, nice=False),
            axis=alt.Axis(format=fmt),
        ),
        y=_pass1_y(),
    )
    errors = base.mark_rule(opacity=0.35).encode(y="lo_1:Q", y2="hi_1:Q")
    frontier = (
        base.transform_filter("datum.pareto")
        .mark_line(interpolate="step-after", strokeDash=[4, 3], color="#7b1fa2")
        .encode(order=f"{x}:Q")
    )
    points = base.mark_point(filled=True, size=70).encode(
        color=alt.Color(
            "pareto:N",
            title="Pareto frontier",
            scale=alt.Scale(domain=[True, False], range=["#7b1fa2", "#9e9e9e"]),
        ),
        tooltip=tooltip,
    )
    labels = _point_labels(base)
    chart = alt.layer(errors, frontier, points, labels, *floor_rule(floor)).properties(
        title=title, width=WIDTH, height=HEIGHT
    )
    return _spec(chart)


def release_scatter(frame: pl.DataFrame, title: str, floor: float | None = None) -> Spec:
    """pass^1 against the model's release date, one labelled point per entry that states one."""
    data = frame.filter(pl.col("release_date").is_not_null() & pl.col("pass_1").is_not_null())
    base = alt.Chart(_data(data.select("entry", "pass_1", "lo_1", "hi_1", "release_date"))).encode(
        x=alt.X("release_date:T", title="Model release date", axis=alt.Axis(format="%Y-%m")),
        y=_pass1_y(),
    )
    tooltip = [
        alt.Tooltip("entry:N", title="Entry"),
        alt.Tooltip("release_date:T", title="released", format="%Y-%m-%d"),
        alt.Tooltip("pass_1:Q", title="pass^1", format=".1%"),
    ]
    errors = base.mark_rule(opacity=0.35).encode(y="lo_1:Q", y2="hi_1:Q")
    points = base.mark_point(filled=True, size=70, color="#3f51b5").encode(tooltip=tooltip)
    labels = _point_labels(base)
    chart = alt.layer(errors, points, labels, *floor_rule(floor)).properties(
        title=title, width=WIDTH, height=HEIGHT
    )
    return _spec(chart)


def strata_heatmap(frame: pl.DataFrame, title: str) -> Spec:
    """pass^1 by reveal difficulty (rows) × complexity (columns), labelled with the task count."""
    data = frame.select("reveal_difficulty", "complexity", "pass_1", "tasks")
    base = alt.Chart(_data(data)).encode(
        x=alt.X("complexity:N", title="Complexity (constraints)", sort=COMPLEXITY_ORDER),
        y=alt.Y("reveal_difficulty:N", title="Reveal difficulty", sort=REVEAL_ORDER),
    )
    rect = base.mark_rect().encode(
        color=alt.Color(
            "pass_1:Q",
            title="pass^1",
            scale=alt.Scale(domain=[0, 1], scheme="blues"),
            legend=alt.Legend(format="%"),
        ),
        tooltip=[
            alt.Tooltip("reveal_difficulty:N", title="reveal"),
            alt.Tooltip("complexity:N"),
            alt.Tooltip("pass_1:Q", title="pass^1", format=".1%"),
            alt.Tooltip("tasks:Q", title="tasks"),
        ],
    )
    text = (
        base.mark_text(baseline="middle")
        .encode(
            text=alt.Text("label:N"),
            color=alt.condition("datum.pass_1 > 0.6", alt.value("white"), alt.value("black")),
        )
        .transform_calculate(
            label="(datum.pass_1 == null ? '—' : format(datum.pass_1, '.0%')) + ' · ' + datum.tasks + ' tasks'"
        )
    )
    chart = alt.layer(rect, text).properties(title=title, width=360, height=180)
    return _spec(chart)


def strata_grid(frame: pl.DataFrame, title: str) -> Spec:
    """Entries (rows) × strata (columns) of pass^1, for comparing entries on the home page."""
    data = frame.select(
        "entry",
        (pl.col("reveal_difficulty") + " · " + pl.col("complexity")).alias("stratum"),
        "pass_1",
        "tasks",
    )
    order = [f"{r} · {c}" for r in REVEAL_ORDER for c in COMPLEXITY_ORDER]
    chart = (
        alt.Chart(_data(data))
        .mark_rect()
        .encode(
            x=alt.X(
                "stratum:N",
                title="Reveal difficulty · complexity",
                sort=order,
                axis=alt.Axis(labelAngle=-40),
            ),
            y=alt.Y("entry:N", title="Entry", sort=None),
            color=alt.Color(
                "pass_1:Q",
                title="pass^1",
                scale=alt.Scale(domain=[0, 1], scheme="blues"),
                legend=alt.Legend(format="%"),
            ),
            tooltip=[
                alt.Tooltip("entry:N", title="Entry"),
                alt.Tooltip("stratum:N", title="stratum"),
                alt.Tooltip("pass_1:Q", title="pass^1", format=".1%"),
                alt.Tooltip("tasks:Q", title="tasks"),
            ],
        )
        .properties(title=title, width=WIDTH)
    )
    return _spec(chart)


def violation_bars(frame: pl.DataFrame, title: str, by_entry: bool) -> Spec:
    """Violation rate per policy; with `by_entry`, one bar per entry inside each policy group."""
    data = frame.select("entry", "policy", "rate", "violations", "active")
    enc: dict[str, Any] = {
        "x": alt.X(
            "rate:Q",
            title="Violation rate (share of trials where the policy applies)",
            axis=alt.Axis(format="%"),
        ),
        "y": alt.Y("policy:N", title="Policy"),
        "tooltip": [
            alt.Tooltip("entry:N", title="Entry"),
            alt.Tooltip("policy:N"),
            alt.Tooltip("rate:Q", title="violation rate", format=".1%"),
            alt.Tooltip("violations:Q", title="violations"),
            alt.Tooltip("active:Q", title="trials where active"),
        ],
    }
    if by_entry:
        enc["color"] = alt.Color("entry:N", title="Entry", legend=alt.Legend(labelLimit=220))
        enc["yOffset"] = alt.YOffset("entry:N")
    else:
        enc["color"] = alt.value("#c62828")
    height = 40 * max(1, data["policy"].n_unique()) if by_entry else alt.Step(22)
    chart = (
        alt.Chart(_data(data))
        .mark_bar()
        .encode(**enc)
        .properties(title=title, width=WIDTH, height=height)
    )
    return _spec(chart)


def task_grid(frame: pl.DataFrame, title: str) -> Spec:
    """Tasks × entries, coloured by the share of successful trials (c of n)."""
    data = frame.select(
        "entry",
        "task_id",
        "n",
        "c",
        "infra_errors",
        pl.when(pl.col("n") > 0).then(pl.col("c") / pl.col("n")).alias("share"),
    )
    chart = (
        alt.Chart(_data(data))
        .mark_rect()
        .encode(
            x=alt.X("task_id:N", title="Task", axis=alt.Axis(labelAngle=-60, labelFontSize=10)),
            y=alt.Y("entry:N", title="Entry", sort=None),
            color=alt.Color(
                "share:Q",
                title="c / n",
                scale=alt.Scale(domain=[0, 1], scheme="greens"),
                legend=alt.Legend(format="%"),
            ),
            tooltip=[
                alt.Tooltip("entry:N", title="Entry"),
                alt.Tooltip("task_id:N", title="task"),
                alt.Tooltip("c:Q", title="successes (c)"),
                alt.Tooltip("n:Q", title="scored trials (n)"),
                alt.Tooltip("infra_errors:Q", title="infra errors"),
            ],
        )
        .properties(title=title, width=WIDTH)
    )
    return _spec(chart)


def timeline(frame: pl.DataFrame, title: str) -> Spec:
    """pass^1 of each entry across snapshot dates, with CI rules."""
    data = frame.select("entry", "snapshot", "pass_1", "lo_1", "hi_1")
    base = alt.Chart(_data(data)).encode(
        x=alt.X(
            "snapshot:T", title="Snapshot date", axis=alt.Axis(format="%Y-%m-%d", tickCount="month")
        ),
        color=alt.Color("entry:N", title="Entry", legend=alt.Legend(symbolLimit=0, labelLimit=220)),
    )
    rules = base.mark_rule(opacity=0.4).encode(y="lo_1:Q", y2="hi_1:Q")
    line = base.mark_line(point=True).encode(
        y=_pass1_y(),
        tooltip=[
            alt.Tooltip("entry:N", title="Entry"),
            alt.Tooltip("snapshot:T", title="snapshot", format="%Y-%m-%d"),
            alt.Tooltip("pass_1:Q", title="pass^1", format=".1%"),
            alt.Tooltip("lo_1:Q", title="95% CI low", format=".1%"),
            alt.Tooltip("hi_1:Q", title="95% CI high", format=".1%"),
        ],
    )
    return _spec(alt.layer(rules, line).properties(title=title, width=WIDTH, height=HEIGHT))
