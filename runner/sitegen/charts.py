"""Altair chart specs for the site (pass^k curves, Pareto fronts, strata, violations, task grid, timeline).

Each chart kind's spec is built once per process as a template reading a named dataset
(`table`); a page carries only the template's id, the title and the data (column-wise). The
templates are written once into `assets/chart-specs.js`, so a site with thousands of charts
ships each spec once and never pays altair's construction cost per chart.
"""

from __future__ import annotations

import functools
import hashlib
import json
from dataclasses import dataclass
from typing import Any, Literal

import altair as alt
import polars as pl

Spec = dict[str, Any]
DATA = "table"


@dataclass(frozen=True)
class Chart:
    """One chart on a page: which shared spec, its title, and its data as columns."""

    template: str
    title: str
    columns: dict[str, list[Any]]

    def spec(self) -> Spec:
        """The whole vega-lite spec, as the browser assembles it (for tests and exports)."""
        rows = [
            dict(zip(self.columns, values, strict=True))
            for values in zip(*self.columns.values(), strict=True)
        ]
        return {**TEMPLATES[self.template], "title": self.title, "datasets": {DATA: rows}}


# Every template built in this process, by id (a digest of its JSON, so ids are stable).
TEMPLATES: dict[str, Spec] = {}


def _register(spec: Spec) -> str:
    key = hashlib.sha256(json.dumps(spec, sort_keys=True).encode()).hexdigest()[:12]
    TEMPLATES.setdefault(key, spec)
    return key


def _chart(template: str, frame: pl.DataFrame, title: str) -> Chart:
    return Chart(template, title, frame.to_dict(as_series=False))


# Charts take the width of their box and re-flow with it (phones included).
WIDTH = "container"
HEIGHT = 260
COMPLEXITY_ORDER = ["simple", "medium", "complex"]
REVEAL_ORDER = ["volunteer", "mixed", "hidden"]


# Templates are built once per process, unvalidated; the tests validate every kind.
VALIDATE = False


MIN_FONT = 10  # px: no chart text smaller than this, on a phone too


def _readable(chart: alt.TopLevelMixin) -> Spec:
    readable = chart.configure_axis(labelFontSize=MIN_FONT, titleFontSize=11).configure_legend(
        labelFontSize=MIN_FONT, titleFontSize=11
    )
    spec: Spec = readable.to_dict(validate=VALIDATE)
    return spec


def _template(chart: alt.TopLevelMixin) -> str:
    return _register(_readable(chart))


def _data() -> alt.NamedData:
    return alt.NamedData(name=DATA)


def pass_k_curves(pass_k: pl.DataFrame, title: str) -> Chart:
    """pass^k against k, one line per entry with its 95 % CI band. Needs columns entry, k, value, ci_low, ci_high."""
    data = pass_k.filter(pl.col("value").is_not_null()).select(
        "entry", "k", "value", "ci_low", "ci_high", "tasks_defined"
    )
    return _chart(_pass_k_template(), data, title)


@functools.cache
def _pass_k_template() -> str:
    base = alt.Chart(_data()).encode(
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
    return _template(alt.layer(band, line).properties(width=WIDTH, height=HEIGHT))


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


def _floor_layers() -> list[alt.Chart]:
    """The exploit floor (column `floor`, when set) as one dashed red line with its label."""
    base = (
        alt.Chart(_data())
        .transform_filter("datum.floor != null")
        .transform_aggregate(floor="max(floor)")
        .transform_calculate(label="'exploit floor ' + format(datum.floor, '.0%')")
        .encode(y=alt.Y("floor:Q", title="pass^1 (share of tasks)"))
    )
    rule: alt.Chart = base.mark_rule(color="#c62828", strokeDash=[6, 4])
    text: alt.Chart = base.mark_text(
        align="left", baseline="bottom", x=4, dy=-2, fontSize=MIN_FONT, color="#c62828"
    ).encode(text="label:N")
    return [rule, text]


def _with_floor(frame: pl.DataFrame, floor: float | None) -> pl.DataFrame:
    return frame.with_columns(floor=pl.lit(floor, dtype=pl.Float64))


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
) -> Chart:
    """pass^1 against a cost axis (latency, USD or a date), labelled points, the Pareto frontier as
    a step line, and the exploit floor."""
    columns = ["entry", "pass_1", "lo_1", "hi_1", x] + (
        ["scored"] if "scored" in frame.columns else []
    )
    data = _with_floor(pareto_front(frame.select(columns), x), floor)
    domain = axis_domain([float(v) for v in data[x].to_list()])
    return _chart(_capability_template(x, x_title, fmt, tuple(domain)), data, title)


@functools.cache
def _capability_template(x: str, x_title: str, fmt: str, domain: tuple[float, ...]) -> str:
    """The shared spec with this board's x domain put in (altair builds the spec once per axis)."""

    def put(node: Any) -> Any:
        if isinstance(node, list):
            return [put(n) for n in node]
        if not isinstance(node, dict):
            return node
        if node.get("field") == x and "domain" in node.get("scale", {}):
            return {**node, "scale": {**node["scale"], "domain": list(domain)}}
        return {k: put(v) for k, v in node.items()}

    return _register(put(_capability_spec(x, x_title, fmt)))


@functools.cache
def _capability_spec(x: str, x_title: str, fmt: str) -> Spec:
    domain = [0.0, 1.0]  # replaced per board by _capability_template
    tooltip = [
        alt.Tooltip("entry:N", title="Entry"),
        alt.Tooltip("pass_1:Q", title="pass^1", format=".1%"),
        alt.Tooltip("lo_1:Q", title="95% CI low", format=".1%"),
        alt.Tooltip("hi_1:Q", title="95% CI high", format=".1%"),
        alt.Tooltip(f"{x}:Q", title=x_title, format=fmt),
        alt.Tooltip("pareto:N", title="on the Pareto frontier"),
    ]
    base = alt.Chart(_data()).encode(
        x=alt.X(
            f"{x}:Q",
            title=x_title,
            scale=alt.Scale(domain=list(domain), nice=False),
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
    return _readable(
        alt.layer(errors, frontier, points, labels, *_floor_layers()).properties(
            width=WIDTH, height=HEIGHT
        )
    )


def release_scatter(frame: pl.DataFrame, title: str, floor: float | None = None) -> Chart:
    """pass^1 against the model's release date, one labelled point per entry that states one,
    and the exploit floor."""
    data = frame.filter(pl.col("release_date").is_not_null() & pl.col("pass_1").is_not_null())
    columns = _with_floor(data.select("entry", "pass_1", "lo_1", "hi_1", "release_date"), floor)
    return _chart(_release_template(), columns, title)


@functools.cache
def _release_template() -> str:
    base = alt.Chart(_data()).encode(
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
    return _template(
        alt.layer(errors, points, labels, *_floor_layers()).properties(width=WIDTH, height=HEIGHT)
    )


def strata_heatmap(frame: pl.DataFrame, title: str) -> Chart:
    """pass^1 by reveal difficulty (rows) × complexity (columns), labelled with the task count."""
    data = frame.select("reveal_difficulty", "complexity", "pass_1", "tasks")
    return _chart(_strata_heatmap_template(), data, title)


@functools.cache
def _strata_heatmap_template() -> str:
    base = alt.Chart(_data()).encode(
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
    return _template(alt.layer(rect, text).properties(width=360, height=180))


def strata_grid(frame: pl.DataFrame, title: str) -> Chart:
    """Entries (rows) × strata (columns) of pass^1, for comparing entries on the home page."""
    data = frame.select(
        "entry",
        (pl.col("reveal_difficulty") + " · " + pl.col("complexity")).alias("stratum"),
        "pass_1",
        "tasks",
    )
    return _chart(_strata_grid_template(), data, title)


@functools.cache
def _strata_grid_template() -> str:
    order = [f"{r} · {c}" for r in REVEAL_ORDER for c in COMPLEXITY_ORDER]
    return _entry_grid(
        alt.X(
            "stratum:N",
            title="Reveal difficulty · complexity",
            sort=order,
            axis=alt.Axis(labelAngle=-40),
        ),
        ("pass_1:Q", "pass^1", "blues"),
        [
            alt.Tooltip("stratum:N", title="stratum"),
            alt.Tooltip("pass_1:Q", title="pass^1", format=".1%"),
            alt.Tooltip("tasks:Q", title="tasks"),
        ],
    )


def _entry_grid(
    x: alt.X, color: tuple[str, str, Literal["blues", "greens"]], tooltip: list[alt.Tooltip]
) -> str:
    """A heat map with a row per entry (in the frame's order), coloured by a 0-100 % share
    (`color`: its field, title and colour scheme)."""
    field, title, scheme = color
    chart = (
        alt.Chart(_data())
        .mark_rect()
        .encode(
            x=x,
            y=alt.Y("entry:N", title="Entry", sort=None),
            color=alt.Color(
                field,
                title=title,
                scale=alt.Scale(domain=[0, 1], scheme=scheme),
                legend=alt.Legend(format="%"),
            ),
            tooltip=[alt.Tooltip("entry:N", title="Entry"), *tooltip],
        )
        .properties(width=WIDTH)
    )
    return _template(chart)


def violation_bars(frame: pl.DataFrame, title: str, by_entry: bool) -> Chart:
    """Violation rate per policy; with `by_entry`, one bar per entry inside each policy group."""
    data = frame.select("entry", "policy", "rate", "violations", "active")
    policies = max(1, data["policy"].n_unique()) if by_entry else 0
    return _chart(_violation_template(by_entry, policies), data, title)


@functools.cache
def _violation_template(by_entry: bool, policies: int) -> str:
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
    height = 40 * policies if by_entry else alt.Step(22)
    chart = alt.Chart(_data()).mark_bar().encode(**enc).properties(width=WIDTH, height=height)
    return _template(chart)


def task_grid(frame: pl.DataFrame, title: str) -> Chart:
    """Tasks × entries, coloured by the share of successful trials (c of n)."""
    data = frame.select(
        "entry",
        "task_id",
        "n",
        "c",
        "infra_errors",
        pl.when(pl.col("n") > 0).then(pl.col("c") / pl.col("n")).alias("share"),
    )
    return _chart(_task_grid_template(), data, title)


@functools.cache
def _task_grid_template() -> str:
    return _entry_grid(
        alt.X("task_id:N", title="Task", axis=alt.Axis(labelAngle=-60, labelFontSize=10)),
        ("share:Q", "c / n", "greens"),
        [
            alt.Tooltip("task_id:N", title="task"),
            alt.Tooltip("c:Q", title="successes (c)"),
            alt.Tooltip("n:Q", title="scored trials (n)"),
            alt.Tooltip("infra_errors:Q", title="infra errors"),
        ],
    )


def timeline(frame: pl.DataFrame, title: str) -> Chart:
    """pass^1 of each entry across snapshot dates, with CI rules."""
    data = frame.select("entry", "snapshot", "pass_1", "lo_1", "hi_1")
    return _chart(_timeline_template(), data, title)


@functools.cache
def _timeline_template() -> str:
    base = alt.Chart(_data()).encode(
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
    return _template(alt.layer(rules, line).properties(width=WIDTH, height=HEIGHT))
