"""The leaderboard site: load results, aggregate with polars, draw altair charts, render pages, build with mkdocs."""

from __future__ import annotations

from runner.sitegen.aggregate import Aggregates, aggregate, aggregate_runs, trials_frame
from runner.sitegen.build import BuildReport, SiteBuildError, build_site
from runner.sitegen.inputs import SiteInputs, load_inputs
from runner.sitegen.metric_table import METRIC_BY_KEY, METRICS, Metric

__all__ = [
    "METRICS",
    "METRIC_BY_KEY",
    "Aggregates",
    "BuildReport",
    "Metric",
    "SiteBuildError",
    "SiteInputs",
    "aggregate",
    "aggregate_runs",
    "build_site",
    "load_inputs",
    "trials_frame",
]
