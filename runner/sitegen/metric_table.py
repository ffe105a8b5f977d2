"""The one typed table of leaderboard metrics: name, direction, format and description, read by every template."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Literal

from runner.core.domain import Domain
from runner.play.attribution import MAX_UNSCORED_SHARE

Direction = Literal["higher", "lower", "none"]
Format = Literal["pct", "ratio", "float1", "float2", "int", "seconds", "usd"]


@dataclass(frozen=True)
class Metric:
    """One column of the leaderboard: how it is named, read, formatted and explained."""

    key: str
    label: str
    direction: Direction
    fmt: Format
    description: str
    unit: str = ""

    @property
    def arrow(self) -> str:
        return {"higher": "↑", "lower": "↓", "none": ""}[self.direction]

    def format(self, value: float | int | None) -> str:
        """The value as the site prints it; an undefined value prints as an em dash."""
        if value is None or (isinstance(value, float) and math.isnan(value)):
            return "—"
        match self.fmt:
            case "pct":
                return f"{100 * value:.1f}"
            case "ratio":
                return f"{value:.3f}"
            case "float1":
                return f"{value:.1f}"
            case "float2":
                return f"{value:.2f}"
            case "int":
                return f"{int(value):d}"
            case "seconds":
                return f"{value:.2f} s"
            case "usd":
                return f"${value:.4f}" if value < 1 else f"${value:.2f}"


def _pass(k: int) -> Metric:
    return Metric(
        key=f"pass_{k}",
        label=f"pass^{k}",
        direction="higher",
        fmt="pct",
        unit="%",
        description=(
            f"Chance that {k} independent trial{'s' if k > 1 else ''} of a task all succeed, "
            f"estimated per task as C(c,{k})/C(n,{k}) and averaged over tasks (%), with a 95 % "
            "bootstrap CI over tasks."
        ),
    )


PASS_KS: tuple[int, ...] = (1, 2, 4)
# The board's headline, its one definition: the pass^k that ranks the board (order and tie tiers
# by its 95 % CI). pass^1, because at the board's 4 trials per task it is the most precise of the
# pass^k shown (pass^4 of a task is 0 or 1 from one all-or-nothing draw); pass^2 and pass^4 are
# shown beside it, each with its own exploit floor. The README, leaderboard.yaml and the site
# say so (a test holds them to it).
HEADLINE_K = 1
HEADLINE = f"pass_{HEADLINE_K}"
assert HEADLINE_K in PASS_KS

METRICS: tuple[Metric, ...] = (
    *(_pass(k) for k in PASS_KS),
    Metric(
        "constraint",
        "constraint",
        "higher",
        "pct",
        "Mean constraint score: the share of scored trials whose {outcome} satisfies every "
        "constraint of the task (when {nothing_fits}, {nothing_right}: it scores 1).",
        "%",
    ),
    Metric(
        "policy",
        "policy",
        "higher",
        "pct",
        "Mean policy score: the share of scored trials that respect every active policy.",
        "%",
    ),
    Metric(
        "weighted_policy",
        "weighted policy",
        "higher",
        "pct",
        "Severity-weighted share of active policies held, averaged over scored trials.",
        "%",
    ),
    Metric(
        "no_rec",
        "no-rec",
        "none",
        "pct",
        "Share of scored trials that end with {no_outcome} (the agent stopped, or the turns ran "
        "out). Right on tasks where {nothing_fits}, wrong elsewhere.",
        "%",
    ),
    Metric("turns", "turns", "lower", "float1", "Mean conversation turns per scored trial."),
    Metric("tool_calls", "tools", "lower", "float1", "Median tool calls per scored trial."),
    Metric(
        "proposals_per_success",
        "proposals/success",
        "lower",
        "float2",
        "{Items} put to the user per successful trial: agent messages naming a catalog {item}, "
        "summed over scored trials, divided by the trials that succeeded. Low means the agent "
        "asked before it guessed.",
    ),
    Metric(
        "latency",
        "latency",
        "lower",
        "seconds",
        "Median agent step latency over all steps of scored trials (seconds).",
        "s",
    ),
    Metric(
        "latency_p95",
        "p95 latency",
        "lower",
        "seconds",
        "95th percentile of agent step latency over all steps of scored trials (seconds): the "
        "slow tail a user waits through.",
        "s",
    ),
    Metric(
        "tokens",
        "tokens",
        "lower",
        "int",
        "Mean agent tokens (prompt + completion) per scored trial; 0 for agents that call no model.",
    ),
    Metric(
        "cost",
        "cost",
        "lower",
        "usd",
        "Mean model cost per scored trial (USD, agent side).",
        "USD",
    ),
    Metric(
        "scored",
        "n scored",
        "none",
        "int",
        "Trials scored (the agent's own failures included, as reward 0). An entry with more "
        f"than {MAX_UNSCORED_SHARE:.0%} of its trials unscored is listed apart, not ranked.",
    ),
    Metric(
        "infra_errors",
        "infra errors",
        "lower",
        "int",
        "Trials that failed on our side (the user simulator, a provider we call with our key, "
        "our machines). Counted and shown, never part of n, run again. Whatever the agent's "
        "own code or endpoint does is the agent's failure: scored 0 (see Methodology).",
    ),
)


def _worded(
    outcome: str, no_outcome: str, nothing_fits: tuple[str, str], item: str
) -> tuple[Metric, ...]:
    words = {
        "outcome": outcome,
        "no_outcome": no_outcome,
        "nothing_fits": nothing_fits[0],
        "nothing_right": nothing_fits[1],
        "item": item,
        "Items": f"{item.capitalize()}s",
    }
    return tuple(replace(m, description=m.description.format(**words)) for m in _UNWORDED)


def metrics_for(domain: Domain) -> tuple[Metric, ...]:
    """The metrics as `domain` words them on its board: what a trial is judged on
    (`Domain.outcome_noun`), its absence, a task where nothing fits and what one item is called
    (movies: "final recommendation", "titles"; grocery: "final order or return", "products")."""
    return _worded(domain.outcome_noun, domain.no_outcome, domain.nothing_fits, domain.card_noun)


def metric_by_key_for(domain: Domain) -> dict[str, Metric]:
    """`metrics_for(domain)` by key."""
    return {m.key: m for m in metrics_for(domain)}


_UNWORDED = METRICS
# Worded as no domain in particular: for the figures' labels and formats (pages that explain a
# metric use `metrics_for` of their board's domain).
METRICS = _worded(Domain.outcome_noun, Domain.no_outcome, Domain.nothing_fits, "item")
METRIC_BY_KEY: dict[str, Metric] = {m.key: m for m in METRICS}

# The leaderboard's numeric columns, in order (pass^k columns carry their CI).
TABLE_COLUMNS: tuple[str, ...] = (
    "pass_1",
    "pass_2",
    "pass_4",
    "constraint",
    "policy",
    "no_rec",
    "turns",
    "tool_calls",
    "proposals_per_success",
    "latency",
    "latency_p95",
    "tokens",
    "cost",
    "scored",
    "infra_errors",
)

# What the board shows before a reader picks columns (the picker above it shows and hides any
# column, every figure stays one click away). Keys are those of the board's header cells: the
# metric keys above plus rank, entry, organization, violations, submitted, open_weights, release,
# simulator and badges. A phone shows the ranking alone; a tablet (700-1199 px) adds the other
# pass^k, cost and the badges; a laptop screen (1366 px) adds what else fits beside them without
# scrolling sideways: organization, the two scores, latency and the trials that failed on our side
# (counted and shown, never dropped). The site's CSS and script hold the two breakpoints.
PHONE_COLUMNS: tuple[str, ...] = ("rank", "entry", HEADLINE)
TABLET_COLUMNS: tuple[str, ...] = (*PHONE_COLUMNS, "pass_2", "pass_4", "cost", "badges")
WIDE_COLUMNS: tuple[str, ...] = (
    *TABLET_COLUMNS,
    "organization",
    "constraint",
    "policy",
    "latency",
    "infra_errors",
)
