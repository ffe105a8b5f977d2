"""Severities and strictness: which broken policies fail a trial, and how much each weighs.

They sit below both the domain contract (`runner.core.domain`, which re-exports them) and the
trial records (`runner.core.records`), so neither of those two has to import the other.
"""

from __future__ import annotations

from typing import Literal

Severity = Literal["low", "medium", "high", "critical"]
SEVERITIES: tuple[Severity, ...] = ("low", "medium", "high", "critical")
# The weight of each severity in the severity-weighted policy score.
SEVERITY_WEIGHT: dict[Severity, float] = {"low": 1.0, "medium": 2.0, "high": 3.0, "critical": 4.0}

Strictness = Literal["low", "medium", "high"]
STRICTNESS_LEVELS: tuple[Strictness, ...] = ("low", "medium", "high")
DEFAULT_STRICTNESS: Strictness = "high"
# Which severities fail a trial at each strictness; the others only lower the weighted score.
FAILING_SEVERITIES: dict[Strictness, frozenset[Severity]] = {
    "low": frozenset({"critical"}),
    "medium": frozenset({"critical", "high"}),
    "high": frozenset({"critical", "high", "medium", "low"}),
}


def severity_of_weight(weight: float) -> Severity:
    """The named severity of a weight in `SEVERITY_WEIGHT` (the nearest one at or below it)."""
    named = [s for s in SEVERITIES if SEVERITY_WEIGHT[s] <= weight]
    return named[-1] if named else "low"


def fails_trial(weight: float, strictness: Strictness) -> bool:
    """Whether a broken policy of this severity weight fails the trial at `strictness`."""
    return severity_of_weight(weight) in FAILING_SEVERITIES[strictness]
