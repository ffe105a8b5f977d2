"""Evaluate one agent in one call: `evaluate(agent, trials=8)` → pass^1…pass^8, failing trials and reports."""

from __future__ import annotations

from runner.evaluation.result import (
    EvalResult,
    FailedCheck,
    FailingTrial,
    TaskRow,
    parse_min_pass,
)
from runner.evaluation.run import DEFAULT_TRIALS, evaluate, evaluate_async
from runner.evaluation.source import AgentSource, import_target

__all__ = [
    "DEFAULT_TRIALS",
    "AgentSource",
    "EvalResult",
    "FailedCheck",
    "FailingTrial",
    "TaskRow",
    "evaluate",
    "evaluate_async",
    "import_target",
    "parse_min_pass",
]
