"""The fidelity targets of issue 21 in one table: what the honest panel must reach and the adversaries must stay under.

Not asserted by the tests yet (the simulated user is being rewritten); `benchmarks/user_fidelity.py`
prints each figure next to its target with a tick or a cross.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["ADVERSARY_MARGIN", "TARGETS", "TWIN_LOSS_MAX", "Target"]

Reveal = Literal["volunteer", "mixed", "hidden"]


@dataclass(frozen=True)
class Target:
    """One bound on one agent's pass^1 (overall, or on one reveal difficulty)."""

    agent: str
    bound: float
    direction: Literal[">=", "<="]
    reveal: Reveal | None = None
    what: str = ""

    def holds(self, value: float) -> bool:
        return value >= self.bound if self.direction == ">=" else value <= self.bound


# Every adversary must stay at least this far under the expert (pass^1 overall).
ADVERSARY_MARGIN = 0.30
# The natural twin of an agent may lose at most this much pass^1 to wording alone.
TWIN_LOSS_MAX = 0.02

TARGETS: tuple[Target, ...] = (
    Target("expert", 0.90, ">=", what="the honest expert wins almost every task"),
    Target("informed", 0.95, ">=", what="knowing which fields matter is nearly enough"),
    Target("no-question-prober", 0.25, "<=", "mixed", "not asking must not pay on mixed tasks"),
    Target("decline-ignoring-guesser", 0.25, "<=", "hidden", "hidden tasks need the hints"),
    Target("policy-ignoring-retriever", 0.10, "<=", what="breaking policies must not pay"),
)
