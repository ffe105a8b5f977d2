"""A pytest helper: `assert_pass_k(agent, k, at_least)` evaluates an agent and fails the test with the feedback report."""

from __future__ import annotations

from typing import Any

from runner.evaluation import AgentSource, EvalResult, evaluate

__all__ = ["assert_pass_k"]


def assert_pass_k(
    agent: AgentSource, k: int, at_least: float, *, trials: int | None = None, **options: Any
) -> EvalResult:
    """Evaluate `agent` (see `runner.evaluate`) and raise AssertionError unless pass^k >= at_least.

    `trials` defaults to max(k, 8). The assertion message is the whole markdown report, so a
    failing test shows pass^1…pass^k and every failing trial's reasons. Returns the result.
    """
    result = evaluate(agent, trials=trials if trials is not None else max(k, 8), **options)
    shortfalls = result.shortfalls({k: at_least})
    if shortfalls or result.status != "completed":
        why = "; ".join(shortfalls) or f"the run ended as {result.status}"
        raise AssertionError(f"{why}\n\n{result.to_markdown()}")
    return result
