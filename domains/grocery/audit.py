"""The grocery difficulty gate: each task must be winnable by honest play and not by a guess, on every shipped snapshot, and the shopper must never leak.

Checks per task and catalog:
- a non-NVR task has at least two valid products in stock, one of them with a name no other
  product has or contains (naming it is never ambiguous); an NVR task has none;
- every on_ask and hidden need matters: without it, more products would be valid;
- on mixed and hidden tasks a guesser cannot win: the first two products by each prior (cheapest,
  best Nutri-Score, top search result) among those meeting what the shopper volunteers - or
  volunteers plus what the three standard questions reveal - are not valid; on hidden tasks the
  cheapest product meeting everything the shopper can be asked is not valid either;
- the leak audit: the shopper's replies to probing messages (each topic asked alone, each product
  of the kind proposed alone) never state a hidden value, nor an on_ask value before it is asked.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from domains.grocery.items import Product
from domains.grocery.scoring import GroceryScoringError, gold_state
from domains.grocery.search import search_index
from domains.grocery.store import inventory
from domains.grocery.tasks import ACCOUNT_KINDS, GroceryTask, catalog_problems
from domains.grocery.tools import GroceryTools
from domains.grocery.user.account import AccountShopper
from domains.grocery.user.engine import STANDARD_TOPICS, product_type
from domains.grocery.user.leaks import audit_probe
from domains.grocery.user.needs import NUTRI_ORDER, Need, ambiguous_names, needs_of

__all__ = [
    "PRIORS",
    "GateReport",
    "account_gate",
    "audit_suite",
    "gate_problems",
    "guess_pool",
    "valid_ids",
]

Prior = Callable[[list[Product], GroceryTask, Any], list[Product]]


def _cheapest(pool: list[Product], task: GroceryTask, catalog: Any) -> list[Product]:
    return sorted(pool, key=lambda p: (p.price, p.id))


def _healthiest(pool: list[Product], task: GroceryTask, catalog: Any) -> list[Product]:
    return sorted(pool, key=lambda p: (NUTRI_ORDER.index(p.nutriscore), p.price, p.id))


_RANKS: dict[tuple[int, str], tuple[Any, dict[str, int]]] = {}


def search_rank(catalog: Any, query: str) -> dict[str, int]:
    """Each product's place in the search results for `query` (cached per catalog object)."""
    key = (id(catalog), query)
    hit = _RANKS.get(key)
    if hit is None or hit[0] is not catalog:
        ranked = search_index(catalog).ranked(query, len(catalog))
        hit = _RANKS[key] = (catalog, {p.id: i for i, p in enumerate(ranked)})
    return hit[1]


def _top_search(pool: list[Product], task: GroceryTask, catalog: Any) -> list[Product]:
    rank = search_rank(catalog, product_type(task) or "food")
    return sorted(pool, key=lambda p: (rank.get(p.id, len(rank)), p.id))


PRIORS: dict[str, Prior] = {
    "cheapest": _cheapest,
    "best Nutri-Score": _healthiest,
    "top search result": _top_search,
}


_AMBIGUOUS: dict[int, tuple[Any, set[str]]] = {}


def _ambiguous(catalog: Any) -> set[str]:
    hit = _AMBIGUOUS.get(id(catalog))
    if hit is None or hit[0] is not catalog:
        hit = _AMBIGUOUS[id(catalog)] = (catalog, ambiguous_names([p.name for p in catalog.items]))
    return hit[1]


def valid_ids(task: GroceryTask, catalog: Any) -> list[str]:
    """The products an agent may order for the task, in stock (sorted ids)."""
    return task.solutions(catalog, inventory(task, catalog))


def guess_pool(
    task: GroceryTask,
    catalog: Any,
    known: Callable[[Need], bool],
    stock: dict[str, int] | None = None,
) -> list[Product]:
    """Products in stock meeting the needs a guesser knows (not the one being replaced)."""
    stock = stock if stock is not None else inventory(task, catalog)
    needs = [n for n in needs_of(task) if known(n)]
    return [
        p
        for p in catalog.items
        if stock.get(p.id, 0) >= task.quantity
        and p.id != task.wanted_product
        and all(n.holds(p) for n in needs)
    ]


def _matters(
    task: GroceryTask, catalog: Any, need: Need, valid: set[str], stock: dict[str, int]
) -> bool:
    others = [n for n in needs_of(task) if n != need]
    relaxed = {
        p.id
        for p in catalog.items
        if stock.get(p.id, 0) >= task.quantity
        and p.id != task.wanted_product
        and all(n.holds(p) for n in others)
    }
    return bool(relaxed - valid)


def account_gate(task: GroceryTask, catalog: Any) -> list[str]:
    """Why an account task fails on a catalog (empty: it passes): each gold action must succeed
    on a fresh store and change it; a shopper who waits to be asked must not say who they are
    (mixed, hidden) nor the reason or payment (hidden) in the opening."""
    try:
        gold = gold_state(task, catalog)
    except GroceryScoringError as exc:
        return [str(exc)]
    if gold.account == GroceryTools(catalog, task).store.final_state().account:
        return ["the gold actions change nothing"]
    assert task.account is not None
    me = task.account.shopper
    problems = []
    for seed in range(4):
        opening = AccountShopper(task, catalog, seed).reply([]).content
        said = [me.email, f"zip code {me.address.zip}"]
        if task.reveal_difficulty != "volunteer" and any(s in opening for s in said):
            problems.append(f"the opening (seed {seed}) says who the shopper is unasked")
        if task.reveal_difficulty == "hidden" and any(
            w in opening for w in ("because", "refund it to", "difference goes on")
        ):
            problems.append(
                f"the opening (seed {seed}) gives a detail the shopper waits to be asked"
            )
    return sorted(set(problems))


def gate_problems(task: GroceryTask, catalog: Any) -> list[str]:
    """Why the task fails the difficulty gate on this catalog (empty: it passes)."""
    problems = catalog_problems(task, catalog)
    if problems:
        return problems
    if task.kind in ACCOUNT_KINDS:
        return account_gate(task, catalog)
    if task.kind == "return":
        return []
    stock = inventory(task, catalog)
    needs = needs_of(task)
    valid = sorted(
        p.id
        for p in catalog.items
        if stock.get(p.id, 0) >= task.quantity
        and p.id != task.wanted_product
        and all(n.holds(p) for n in needs)
    )
    if task.no_valid_recommendation:
        if valid:
            problems.append(f"an NVR task has valid products {valid[:3]}")
        return problems
    if len(valid) < 2:
        return [f"only {len(valid)} valid product(s) in stock (need at least 2)"]
    unique = [pid for pid in valid if catalog.get(pid).name.casefold() not in _ambiguous(catalog)]
    if not unique:
        return ["every valid product shares its name with another product"]
    for need in needs_of(task):
        if need.reveal != "volunteer" and not _matters(task, catalog, need, set(valid), stock):
            problems.append(f"the {need.reveal} need on {need.topic} removes no candidate")
    if task.reveal_difficulty == "volunteer":
        return problems
    levels: list[tuple[str, Callable[[Need], bool], int]] = [
        ("what it volunteers", lambda n: n.reveal == "volunteer", 2),
        (
            "the standard questions",
            lambda n: (
                n.reveal == "volunteer" or (n.reveal == "on_ask" and n.topic in STANDARD_TOPICS)
            ),
            1,
        ),
    ]
    if task.reveal_difficulty == "hidden":
        levels.append(("every answer", lambda n: n.reveal != "hidden", 1))
    for label, known, depth in levels:
        pool = guess_pool(task, catalog, known, stock)
        for prior_name, prior in PRIORS.items():
            if label == "every answer" and prior_name != "cheapest":
                continue
            # The cheapest guess gets `depth` tries; the other priors one.
            picks = [
                p.id for p in prior(pool, task, catalog)[: depth if prior_name == "cheapest" else 1]
            ]
            won = [pid for pid in picks if pid in valid]
            if won:
                problems.append(
                    f"a guesser knowing {label} wins by {prior_name}: {won[0]} is valid"
                )
    return problems


@dataclass(frozen=True)
class GateReport:
    """The gate's verdict on a suite over some catalogs: problems by task id (empty: all pass)."""

    problems: dict[str, list[str]]
    tasks: int

    @property
    def passed(self) -> bool:
        return not self.problems


def audit_suite(
    tasks: Sequence[GroceryTask], catalogs: Iterable[tuple[str, Any]], *, leaks: bool = True
) -> GateReport:
    """Run the gate (and the leak audit) on every task against every named catalog."""
    problems: dict[str, list[str]] = {}
    for label, catalog in catalogs:
        for task in tasks:
            found = gate_problems(task, catalog)
            if leaks and not found and task.kind not in ACCOUNT_KINDS:
                # (an account task's gate probes its shopper's opening itself)
                found = audit_probe(task, catalog)
            if found:
                problems.setdefault(task.id, []).extend(f"[{label}] {p}" for p in found)
    return GateReport(problems=dict(sorted(problems.items())), tasks=len(tasks))
