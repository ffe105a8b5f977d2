"""The shopper's ledger: every need of a task (typed constraints, allergies, budget) with its topic and reveal tag, and how a product meets it."""

from __future__ import annotations

import datetime as dt
import random
import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from domains.grocery.items import Product
from domains.grocery.tasks import GroceryTask, ProductConstraint
from domains.grocery.user.vocabulary import Topic, topic_of_field
from runner.core.predicates import Reveal

__all__ = [
    "NUTRI_ORDER",
    "Need",
    "ambiguous_names",
    "budget_reveal",
    "needs_of",
    "ordered_value",
    "satisfied",
]

NUTRI_ORDER = ("a", "b", "c", "d", "e", "unknown")
# A trial's shopper is vague about one volunteered taste this often: it names the topic only
# ("I care about the Nutri-Score") and gives the value when asked.
VAGUE_SHARE = 0.5
# Tastes a vague shopper may cue instead of stating (not the product type, the safety or money
# questions every careful assistant asks anyway), and how many cues one opening carries at most
# (what the shopper answers in one message).
_CUEABLE = frozenset({"brand", "nutriscore", "organic", "palm_oil", "pack_size", "processing"})
_CUEABLE |= {"origin"}
MAX_CUES = 3


class Need(BaseModel):
    """One thing the shopper needs of the product: a typed constraint, the allergies, or the budget."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    topic: Topic
    reveal: Reveal
    kind: Literal["constraint", "allergies", "budget"]
    constraint: ProductConstraint | None = None
    allergies: tuple[str, ...] = ()
    budget: float | None = None
    quantity: int = 1

    def holds(self, product: Product) -> bool:
        """Whether the product meets this need."""
        if self.kind == "allergies":
            present = set(product.allergens) | set(product.traces)
            return not present & set(self.allergies)
        if self.kind == "budget":
            assert self.budget is not None
            return round(product.price * self.quantity, 2) <= self.budget + 1e-9
        assert self.constraint is not None
        c = self.constraint
        return satisfied(c.op, c.value, getattr(product, c.field))

    @property
    def field(self) -> str:
        """The product field this need reads (allergies: `allergens`; budget: `price`)."""
        if self.kind == "allergies":
            return "allergens"
        if self.kind == "budget":
            return "price"
        assert self.constraint is not None
        return self.constraint.field


def satisfied(op: str, value: Any, actual: Any) -> bool:
    """`actual op value`, with the same meaning as `runner.core.predicates.evaluate_predicate` (no
    record built: the gate calls this millions of times)."""
    if isinstance(actual, dt.date):
        actual = actual.isoformat()
    if op == "<=":
        return bool(actual <= value)
    if op == ">=":
        return bool(actual >= value)
    if op == "==":
        return bool(actual == value)
    if op == "!=":
        return bool(actual != value)
    if op == "contains":
        return value in actual
    if op == "not_contains":
        return value not in actual
    if op == "contains_any":
        return any(x in actual for x in value)
    if op == "in":
        return actual in value
    raise ValueError(f"unknown operator {op!r}")


def ambiguous_names(names: list[str]) -> set[str]:
    """The names (casefolded) that another name in the list equals or contains as whole words,
    or that contain another: naming such a product in a message could name two."""
    folded = sorted({n.casefold() for n in names})
    counts: dict[str, int] = {}
    for n in names:
        counts[n.casefold()] = counts.get(n.casefold(), 0) + 1
    out = {n for n, k in counts.items() if k > 1}
    for a in folded:
        pattern = re.compile(r"(?<!\w)" + re.escape(a) + r"(?!\w)")
        for b in folded:
            if a != b and pattern.search(b):
                out |= {a, b}
    return out


def budget_reveal(task: GroceryTask) -> Reveal:
    """When the shopper states the budget: the task's `budget_reveal` (the suite sets it to
    `volunteer` on volunteer tasks and `on_ask` elsewhere)."""
    return task.budget_reveal


def needs_of(task: GroceryTask, trial: int | None = None) -> list[Need]:
    """The ledger of a task, in task order: allergies, the budget, then each typed constraint.

    With a `trial` seed, the shopper of that trial may be vague (`VAGUE_SHARE`): one taste it
    would volunteer is only cued in the opening, its value said when asked (never past
    `MAX_CUES` cues). Without one: the task as written (what the audit and the gate read)."""
    out: list[Need] = []
    if task.allergies:
        out.append(
            Need(
                topic="allergies",
                reveal=task.allergy_reveal,
                kind="allergies",
                allergies=tuple(task.allergies),
            )
        )
    if task.budget is not None:
        out.append(
            Need(
                topic="budget",
                reveal=budget_reveal(task),
                kind="budget",
                budget=task.budget,
                quantity=task.quantity,
            )
        )
    for tc in task.constraints:
        topic = topic_of_field(tc.constraint.field) or "category"
        out.append(Need(topic=topic, reveal=tc.reveal, kind="constraint", constraint=tc.constraint))
    return out if trial is None else _vague(task, out, trial)


def _vague(task: GroceryTask, needs: list[Need], trial: int) -> list[Need]:
    rng = random.Random(f"vague-need|{trial}|{task.id}")
    if rng.random() >= VAGUE_SHARE:
        return needs
    cued = {n.topic for n in needs if n.reveal == "on_ask" and n.topic in _CUEABLE}
    stated = [
        i
        for i, n in enumerate(needs)
        if n.reveal == "volunteer" and n.topic in _CUEABLE and n.topic not in cued
    ]
    if not stated or len(cued) >= MAX_CUES:
        return needs
    i = rng.choice(stated)
    topic = needs[i].topic
    return [n.model_copy(update={"reveal": "on_ask"}) if n.topic == topic else n for n in needs]


def ordered_value(need: Need, product: Product) -> float | None:
    """Where the product stands on the need's ordered scale (higher is worse), if it has one.

    Used to judge whether a new proposal repeats a miss the shopper already hinted at.
    """
    field = need.field
    if field == "price":
        floor = need.constraint is not None and need.constraint.op == ">="
        return -float(product.price) if floor else float(product.price)
    if field == "nutriscore":
        return float(NUTRI_ORDER.index(product.nutriscore))
    if field == "nova_group":
        return float(product.nova_group)
    return None


def describe_value(value: Any) -> str:
    """A value as plain text for messages and reasons."""
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return str(value)
