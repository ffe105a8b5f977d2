"""The grocery task suite generator: 60 seeded tasks on the complexity x reveal grid (orders, substitutions, returns, NVR, and allergy cells that trap an assistant ignoring allergies), each passing the difficulty gate on every given snapshot and lost by the policy-ignorer.

Shopping as it is: most shoppers have an allergy or intolerance they mention only when asked,
and most a budget they keep until asked, each aimed at what an assistant skipping the question
puts forward first; substitutes arise when the usual product is out of stock. A draft the
expert that never read the policy (`policy-ignorer`) wins on its first probed trial is redrawn.

Run `python -m domains.grocery.suite` to rewrite `domains/grocery/tasks/task_g*.json` from the
committed snapshots (deterministic: the same snapshots give byte-identical files).
"""

from __future__ import annotations

import datetime as dt
import json
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from domains.grocery.audit import gate_problems
from domains.grocery.tasks import ALLERGY_QUESTION, GroceryTask
from domains.grocery.user.leaks import audit_probe
from domains.grocery.user.vocabulary import topic_of_field
from runner.core.predicates import Complexity, RevealDifficulty

__all__ = [
    "GRID",
    "SUITE_SEED",
    "Names",
    "Slot",
    "allergy_trapped",
    "draw_task",
    "generate_suite",
    "main",
    "write_suite",
]

SUITE_SEED = "taurec-grocery-suite-1"
TASKS_DIR = Path(__file__).parent / "tasks"
SNAPSHOTS_DIR = Path(__file__).parent / "snapshots"

Kind = Literal["order", "return", "substitution"]
# The task contract's complexity and reveal difficulty (runner.core.predicates).
Cx = Complexity
Rv = RevealDifficulty


@dataclass(frozen=True)
class Slot:
    """One cell of the grid to fill: kind, complexity, reveal, and whether nothing may fit."""

    kind: Kind
    complexity: Cx
    reveal: Rv
    nvr: bool = False
    # An allergy cell: the shopper volunteers an allergy that the cheapest product meeting every
    # other need carries (see `allergy_trapped`), so only an assistant heeding it can win.
    allergy_trap: bool = False


def _slots() -> list[Slot]:
    out: list[Slot] = []

    def add(n: int, kind: Kind, cx: Cx, rv: Rv, nvr: bool = False, traps: int = 0) -> None:
        """`n` slots of a cell, the first `traps` of them allergy cells."""
        out.extend(Slot(kind, cx, rv, nvr, allergy_trap=i < traps) for i in range(n))

    # Returns are mostly account work now (the account suite); two plain ones stay here. Most
    # shoppers keep an allergy until asked, aimed at the products asked-nothing picks put
    # forward first (`_unsaid_allergen`); a few cells still volunteer one that traps an
    # assistant ignoring it (allergy cells: one per reveal stratum at least).
    add(1, "return", "simple", "volunteer")
    add(1, "return", "medium", "volunteer")
    add(2, "order", "simple", "volunteer")
    add(2, "substitution", "medium", "volunteer")
    add(3, "order", "simple", "volunteer", traps=2)
    add(2, "order", "medium", "volunteer", traps=1)
    add(1, "order", "complex", "volunteer")
    add(1, "order", "medium", "volunteer", nvr=True)
    add(1, "substitution", "simple", "volunteer")
    add(7, "order", "simple", "mixed")
    add(1, "substitution", "simple", "mixed")
    add(6, "order", "medium", "mixed", traps=1)
    add(4, "order", "complex", "mixed")
    add(1, "order", "simple", "mixed", nvr=True)
    add(1, "order", "medium", "mixed", nvr=True)
    add(1, "order", "complex", "mixed", nvr=True)
    add(2, "substitution", "medium", "mixed")
    add(2, "substitution", "complex", "mixed")
    add(5, "order", "simple", "hidden")
    add(6, "order", "medium", "hidden", traps=1)
    add(5, "order", "complex", "hidden")
    add(1, "order", "medium", "hidden", nvr=True)
    add(2, "substitution", "medium", "hidden")
    add(2, "substitution", "complex", "hidden")
    assert len(out) == 60, len(out)
    return out


GRID: tuple[Slot, ...] = tuple(_slots())

# Persona pieces (our own words); the persona is shown on the site, never said by the shopper.
_WHO = (
    "a night-shift nurse",
    "a student sharing a flat",
    "a parent of two",
    "a retired teacher",
    "a cyclist training for a race",
    "a home cook who batch-cooks on Sundays",
    "a busy freelancer",
    "a grandparent hosting the weekend",
    "a new arrival in town",
    "a careful label reader",
)
_STYLE = (
    "shops online once a week",
    "likes to get the basket right first time",
    "has little time and wants a straight answer",
    "asks before trying anything new",
    "keeps a tidy cupboard and a tight list",
)
# Most shoppers have an allergy or intolerance (when the kind of product can carry one), and
# most of them keep it until asked (section 1 of the policy asks the assistant to ask).
ALLERGY_SHARE = 0.85
UNSAID_ALLERGY_SHARE = 0.8
# Most shoppers have a budget too, and most keep it until asked (section 5).
BUDGET_SHARE = 0.6
UNSAID_BUDGET_SHARE = 0.7
_ALLERGENS = ("nuts", "peanuts", "milk", "gluten", "soybeans", "eggs", "sesame-seeds", "celery")

# Needs the generator may draw: (topic, constraint or special, may be hidden).
_NEED_KINDS = ("diet", "nutriscore", "organic", "palm_oil", "processing", "brand", "origin")


def _constraint(kind: str, products: list[Any], rng: random.Random) -> dict[str, Any] | None:
    if kind == "diet":
        return {"field": "vegan", "op": "==", "value": "yes"}
    if kind == "nutriscore":
        return {"field": "nutriscore", "op": "in", "value": rng.choice((["a"], ["a", "b"]))}
    if kind == "organic":
        return {
            "field": "labels",
            "op": "contains",
            "value": rng.choice(("organic", "organic", "fair-trade")),
        }
    if kind == "palm_oil":
        return {"field": "palm_oil", "op": "==", "value": "free"}
    if kind == "processing":
        return {"field": "nova_group", "op": "<=", "value": rng.choice((1, 2, 3))}
    if kind == "brand":
        brands = sorted({p.brand for p in products})
        return {"field": "brand", "op": "!=", "value": rng.choice(brands)} if brands else None
    if kind == "origin":
        countries = sorted({c for p in products for c in p.countries})
        return (
            {"field": "countries", "op": "contains", "value": rng.choice(countries)}
            if countries
            else None
        )
    if kind == "price":
        prices = sorted(p.price for p in products)
        if len(prices) < 4:
            return None
        cut = prices[rng.randrange(len(prices) // 3, 2 * len(prices) // 3)]
        return {"field": "price", "op": "<=", "value": round(cut, 2)}
    return None


def _common(catalogs: Sequence[Any]) -> list[Any]:
    """Products present (same id) in every catalog, from the first catalog."""
    first, *others = catalogs
    if not others:
        return list(first.items)
    return [p for p in first.items if all(p.id in c for c in others)]


def _persona(rng: random.Random, who: Sequence[str] = _WHO, style: Sequence[str] = _STYLE) -> str:
    return f"You are {rng.choice(who)} who {rng.choice(style)}."


@dataclass(frozen=True)
class Names:
    """The ids and persona wording one task is drawn with: the committed suite's numbered ids
    (`Names.numbered`), or a generated suite's opaque ones (`domains.grocery.generate`)."""

    task_id: str
    user_id: str
    order_ids: tuple[str, str, str]  # the two past orders', then the order a return is about
    who: tuple[str, ...] = _WHO
    style: tuple[str, ...] = _STYLE
    hidden_depth: int = 1  # how many of the cheapest fitting products a hidden need rules out
    # Whether a mixed or hidden task's asked needs must rule out what an assistant asking
    # nothing but the allergy question would put forward first (`_aim_asked`); generated
    # splits set it.
    aim_asked: bool = False
    # Whether that aim counts the allergy question as asked (the generator's gate players ask
    # it); else it aims at a player that never hears an unsaid allergy (a fallback that still
    # meets the strata rule, which plays the real players).
    aim_heeds_allergy: bool = True

    @classmethod
    def numbered(cls, number: int) -> Names:
        orders = (f"ord_{number:03d}_1", f"ord_{number:03d}_2", f"ord_{number:03d}_r")
        return cls(f"task_g{number:03d}", f"shopper_{number:03d}", orders)


def _draft(
    slot: Slot,
    number: int,
    rng: random.Random,
    catalogs: Sequence[Any],
    names: Names | None = None,
) -> dict[str, Any] | None:
    names = names or Names.numbered(number)
    products = _common(catalogs)
    categories = sorted({p.categories[-1] for p in products})
    category = rng.choice(categories)
    kind_products = [p for p in products if category in p.categories]
    others = [p for p in products if category not in p.categories]
    task_id = names.task_id
    base: dict[str, Any] = {
        "id": task_id,
        "persona": _persona(rng, names.who, names.style),
        "kind": slot.kind,
        "complexity": slot.complexity,
        "reveal_difficulty": slot.reveal,
        "no_valid_recommendation": slot.nvr,
        "user_id": names.user_id,
    }
    past_pool = rng.sample(others, k=min(4, len(others)))
    start = dt.date(2026, 9, 1)
    past = [
        {
            "order_id": names.order_ids[i],
            "date": (start + dt.timedelta(days=7 * i + rng.randrange(5))).isoformat(),
            "lines": [
                {"product_id": p.id, "quantity": rng.randint(1, 3), "unit_price": p.price}
                for p in past_pool[2 * i : 2 * i + 2]
            ],
        }
        for i in range(2)
        if past_pool[2 * i : 2 * i + 2]
    ]
    if slot.kind == "return":
        n_lines = 2 if slot.complexity == "simple" else 4
        lines = rng.sample(products, k=n_lines)
        order = {
            "order_id": names.order_ids[2],
            "date": "2026-10-20",
            "lines": [
                {"product_id": p.id, "quantity": rng.randint(1, 3), "unit_price": p.price}
                for p in lines
            ],
        }
        target = rng.choice(lines)
        return {
            **base,
            "past_orders": [*past, order],
            "return_target": {
                "order_id": order["order_id"],
                "product_id": target.id,
                "reason": rng.choice(("damaged", "expired", "wrong_item", "changed_mind")),
            },
            "policy_flags": ["return_confirmation", "order_confirmation"],
        }
    n_needs = {"simple": 2, "medium": 3, "complex": 3}[slot.complexity] + (
        slot.complexity == "complex" and rng.random() < 0.3
    )
    constraints: list[dict[str, Any]] = [
        {
            "constraint": {"field": "categories", "op": "contains", "value": category},
            "reveal": "volunteer",
        }
    ]
    flags = ["order_confirmation", "sponsored_disclosure", "single_proposal"]
    allergies: list[str] = []
    present = sorted(
        {a for p in kind_products for a in (*p.allergens, *p.traces)} & set(_ALLERGENS)
    )
    # An allergy cell names its allergen once the other needs are drawn (`_trap_allergy`).
    n_allergies = int(slot.allergy_trap)
    if slot.allergy_trap and not present:
        return None
    if not slot.allergy_trap and present and rng.random() < ALLERGY_SHARE:
        allergies = [rng.choice(present)]
        n_allergies = 1
    if n_allergies:
        n_needs -= 1
        flags.append("allergen_safety")
    budget: float | None = None
    quantity = rng.choice((1, 1, 2, 2, 3))
    use_budget = rng.random() < BUDGET_SHARE
    if use_budget:
        n_needs -= 1
    kinds = rng.sample(_NEED_KINDS, k=len(_NEED_KINDS))
    hidden_count = 0
    if slot.reveal == "hidden":
        hidden_count = 1
        n_needs = {"simple": 1, "medium": 2, "complex": 3}[slot.complexity] - (
            n_allergies + (budget is not None or use_budget)
        ) // 2
    for kind in kinds:
        if n_needs <= 0:
            break
        c = _constraint(kind, kind_products, rng)
        if c is None:
            continue
        constraints.append({"constraint": c, "reveal": "volunteer"})
        n_needs -= 1
    allergy_reveal = "volunteer"
    if slot.reveal != "volunteer":
        askable = [i for i, tc in enumerate(constraints) if i > 0 and tc["reveal"] == "volunteer"]
        cued = [i for i in askable if constraints[i]["constraint"]["field"] != "vegan"]
        if slot.reveal == "mixed" and not cued:
            return None
        least = 1 if slot.reveal == "mixed" or names.aim_asked else 0
        n_ask = max(least, len(askable) - rng.randint(0, 1))
        chosen = set(rng.sample(askable, k=min(n_ask, len(askable))))
        if cued and not chosen & set(cued):
            chosen.add(rng.choice(cued))
        for i in sorted(chosen):
            constraints[i]["reveal"] = "on_ask"

    if allergies and not slot.allergy_trap and rng.random() < UNSAID_ALLERGY_SHARE:
        allergy_reveal = "on_ask"
    if use_budget:
        prices = sorted(p.price for p in kind_products)
        if prices:
            cut = prices[rng.randrange(len(prices) // 2, len(prices))]
            budget = round(cut * quantity + 0.01 * rng.randint(0, 20), 2)
            flags.append("budget")
    if allergies and allergy_reveal == "on_ask":
        allergies = [
            _unsaid_allergen(
                task_id, kind_products, category, constraints, allergies, quantity, catalogs[0]
            )
        ]
    if names.aim_asked and slot.reveal != "volunteer" and not slot.nvr:
        # Aimed at the generator's question-less players, who still ask the allergy question
        # (policy section 1) and so avoid the allergen, said or not: settled just above.
        heard = allergies if allergy_reveal == "volunteer" or names.aim_heeds_allergy else []
        aimed = _aim_asked(
            task_id, kind_products, category, constraints, heard, allergies, quantity, catalogs, rng
        )
        if aimed is None:
            return None
        if aimed:
            constraints.append({"constraint": aimed, "reveal": "on_ask"})
    budget_reveal = "volunteer"
    if budget is not None and (slot.reveal != "volunteer" or rng.random() < UNSAID_BUDGET_SHARE):
        budget_reveal = "on_ask"
        said = allergies if allergy_reveal == "volunteer" else []
        budget = _unsaid_budget(
            task_id, kind_products, category, constraints, said, budget, quantity, catalogs[0]
        )
    keep = None
    if slot.allergy_trap:
        trap = _trap_allergy(task_id, kind_products, constraints, budget, quantity, rng)
        if trap is None:
            return None
        keep, allergen = trap
        allergies = [allergen]
    if hidden_count:
        hidden = _hidden_needs(
            task_id,
            kind_products,
            constraints,
            allergies,
            budget,
            quantity,
            hidden_count,
            rng,
            keep=keep,
            depth=names.hidden_depth,
        )
        if hidden is None:
            return None
        constraints += [{"constraint": c, "reveal": "hidden"} for c in hidden]
    task = {
        **base,
        "constraints": constraints,
        "quantity": quantity,
        "budget": budget,
        "allergies": allergies,
        "allergy_reveal": allergy_reveal,
        "budget_reveal": budget_reveal,
        "past_orders": past,
        "out_of_stock": [],
        "policy_flags": sorted(flags),
    }
    if slot.kind == "substitution":
        task["policy_flags"] = sorted({*flags, "substitution_consent"})
    return task


def _unsaid_allergen(
    task_id: str,
    products: list[Any],
    category: str,
    constraints: list[dict[str, Any]],
    allergies: list[str],
    quantity: int,
    catalog: Any,
) -> str:
    """The allergy a shopper keeps until asked, aimed at whoever does not ask: one the top search
    result meeting every other need it can say carries (what an assistant skipping the question
    puts forward first), and the cheapest such product too when one allergen fits both."""
    from domains.grocery.audit import search_rank

    pool = _sayable_pool(task_id, products, constraints, [], None, quantity)
    if not pool:
        return allergies[0]
    rank = search_rank(catalog, category.lower())
    top = min(pool, key=lambda p: (rank.get(p.id, len(rank)), p.id))
    cheapest = min(pool, key=lambda p: (p.price, p.id))
    carried: list[str] = sorted({*top.allergens, *top.traces} & set(_ALLERGENS))
    if not carried:
        return allergies[0]

    def left(allergen: str) -> tuple[bool, int]:
        """Whether the cheapest carries it too, and how many products stay safe."""
        safe = sum(1 for p in pool if allergen not in {*p.allergens, *p.traces})
        return allergen in {*cheapest.allergens, *cheapest.traces}, safe

    return max(carried, key=lambda a: (*left(a), a))


def _unsaid_budget(
    task_id: str,
    products: list[Any],
    category: str,
    constraints: list[dict[str, Any]],
    said_allergies: list[str],
    budget: float,
    quantity: int,
    catalog: Any,
) -> float:
    """A budget the shopper keeps until asked, aimed at whoever does not ask: just under the
    cost of the top search result meeting everything it can say (what an assistant skipping the
    question, to whom price means nothing, puts forward first), when at least three of those
    products cost less; else the budget drawn."""
    from domains.grocery.audit import search_rank

    pool = _sayable_pool(task_id, products, constraints, said_allergies, None, quantity)
    if not pool:
        return budget
    rank = search_rank(catalog, category.lower())
    top = min(pool, key=lambda p: (rank.get(p.id, len(rank)), p.id))
    cap = round(top.price * quantity - 0.01, 2)
    under = [p for p in pool if p.price * quantity <= cap + 1e-9]
    return min(cap, budget) if len(under) >= 3 else budget


@dataclass(frozen=True)
class _StockKey:
    """What `store.stock_level` reads of a task (its id and out-of-stock list)."""

    id: str
    out_of_stock: tuple[str, ...] = ()


def _sayable_pool(
    task_id: str,
    products: list[Any],
    constraints: list[dict[str, Any]],
    allergies: list[str],
    budget: float | None,
    quantity: int,
) -> list[Any]:
    """The products in stock meeting every drawn constraint, the budget and the allergies."""
    from domains.grocery.store import stock_level
    from domains.grocery.user.needs import satisfied

    key = _StockKey(task_id)
    return [
        p
        for p in products
        if stock_level(key, p.id) >= quantity  # type: ignore[arg-type]
        and not (set(p.allergens) | set(p.traces)) & set(allergies)
        and (budget is None or p.price * quantity <= budget + 1e-9)
        and all(
            satisfied(
                tc["constraint"]["op"],
                tc["constraint"]["value"],
                getattr(p, tc["constraint"]["field"]),
            )
            for tc in constraints
        )
    ]


def _trap_allergy(
    task_id: str,
    products: list[Any],
    constraints: list[dict[str, Any]],
    budget: float | None,
    quantity: int,
    rng: random.Random,
) -> tuple[Any, str] | None:
    """The bait and the allergy of an allergy cell: the cheapest product meeting the other needs
    drawn so far, and one allergen it declares or may contain (None when it carries none)."""
    # (An assistant names products by brand, name and size: a shared name hides none of them.)
    pool = _sayable_pool(task_id, products, constraints, [], budget, quantity)
    if not pool:
        return None
    bait = min(pool, key=lambda p: (p.price, p.id))
    carried = sorted({*bait.allergens, *bait.traces} & set(_ALLERGENS))
    return (bait, rng.choice(carried)) if carried else None


def _cut_options(firsts: list[Any], pool: list[Any]) -> list[dict[str, Any]]:
    """Needs none of `firsts` meets and some of `pool` does: a better Nutri-Score (A, or A or
    B: the grades a shopper names), less processing, a label, another brand (when they share
    one)."""
    options: list[dict[str, Any]] = []
    letters = "abcde"
    graded = all(p.nutriscore in letters for p in firsts)
    best = min(letters.index(p.nutriscore) for p in firsts) if graded else 0
    if 0 < best <= 2:
        options.append({"field": "nutriscore", "op": "in", "value": list(letters[:best])})
    least = min(p.nova_group for p in firsts)
    if least > 1:
        options.append({"field": "nova_group", "op": "<=", "value": least - 1})
    for label in ("organic", "fair-trade"):
        if all(label not in f.labels for f in firsts) and any(label in p.labels for p in pool):
            options.append({"field": "labels", "op": "contains", "value": label})
    if all(f.brand == firsts[0].brand for f in firsts):
        options.append({"field": "brand", "op": "!=", "value": firsts[0].brand})
    return options


# How many of each question-less order (cheapest first, top search result first) an asked need
# must rule out: the shopper sits through one unasked miss, the second ends the talk.
ASKED_REACH = 2


def _aim_asked(
    task_id: str,
    products: list[Any],
    category: str,
    constraints: list[dict[str, Any]],
    heard_allergies: list[str],
    allergies: list[str],
    quantity: int,
    catalogs: Sequence[Any],
    rng: random.Random,
) -> dict[str, Any] | Literal[False] | None:
    """An on_ask need ruling out what an assistant that asks nothing else puts forward first
    (the `ASKED_REACH` cheapest and top search results meeting what the shopper volunteers and
    free of the allergens it heard), so that only asking wins; False when the asked needs drawn
    already do (or it would pick an allergen it never heard of), None when no need can."""
    from domains.grocery.search import search_index
    from domains.grocery.tools import MAX_SEARCH_LIMIT
    from domains.grocery.user.needs import satisfied

    def meets(p: Any, reveal: str) -> bool:
        return all(
            satisfied(
                tc["constraint"]["op"],
                tc["constraint"]["value"],
                getattr(p, tc["constraint"]["field"]),
            )
            for tc in constraints
            if tc["reveal"] == reveal
        )

    heard = _sayable_pool(
        task_id,
        products,
        [tc for tc in constraints if tc["reveal"] == "volunteer"],
        heard_allergies,
        None,
        quantity,
    )
    ids = {p.id for p in heard}
    shown = search_index(catalogs[0]).ranked(category.lower(), MAX_SEARCH_LIMIT)
    firsts = sorted(heard, key=lambda p: (p.price, p.id))[:ASKED_REACH]
    firsts += [p for p in shown if p.id in ids][:ASKED_REACH]

    def cut(p: Any) -> bool:
        unsafe = bool((set(p.allergens) | set(p.traces)) & set(allergies) - set(heard_allergies))
        return unsafe or not meets(p, "on_ask")

    loose = [p for p in firsts if not cut(p)]
    if not loose:
        return False
    fields = {tc["constraint"]["field"] for tc in constraints}
    options = [o for o in _cut_options(loose, heard) if o["field"] not in fields]
    for option in rng.sample(options, k=len(options)):
        trial = [*constraints, {"constraint": option, "reveal": "on_ask"}]
        if len(_sayable_pool(task_id, products, trial, allergies, None, quantity)) >= 3:
            return option
    return None


def _hidden_needs(
    task_id: str,
    products: list[Any],
    constraints: list[dict[str, Any]],
    allergies: list[str],
    budget: float | None,
    quantity: int,
    count: int,
    rng: random.Random,
    keep: Any = None,
    depth: int = 1,
) -> list[dict[str, Any]] | None:
    """Hidden constraints aimed at the cheapest product meeting everything the shopper can say,
    so an assistant that asks well but ignores the shopper's declines still picks a wrong one
    (and, given a product to `keep`, only ones it meets: an allergy cell's bait stays in reach);
    with `depth` > 1, aimed at that many of the cheapest (each option rules out all of them)."""
    from domains.grocery.user.needs import satisfied

    pool = _sayable_pool(task_id, products, constraints, allergies, budget, quantity)
    if len(pool) < 3:
        return None
    firsts = sorted(pool, key=lambda p: (p.price, p.id))[:depth]
    first = firsts[0]
    if depth > 1:
        # Also the cheapest of what a shopper volunteering only its first needs (and answering
        # the allergy question every assistant asks) would be shown.
        heard = [tc for tc in constraints if tc["reveal"] == "volunteer"]
        said = _sayable_pool(task_id, products, heard, allergies, None, quantity)
        firsts += [
            p for p in sorted(said, key=lambda p: (p.price, p.id))[:depth] if p not in firsts
        ]
    options: list[dict[str, Any]] = []
    letters = "abcde"
    graded = all(p.nutriscore in letters for p in firsts)
    best = min(letters.index(p.nutriscore) for p in firsts) if graded else 0
    if best > 0:
        better = list(letters[:best])
        options.append({"field": "nutriscore", "op": "in", "value": better})
    least = min(p.nova_group for p in firsts)
    if least > 1:
        options.append({"field": "nova_group", "op": "<=", "value": least - 1})
    for label in ("organic", "fair-trade"):
        if all(label not in f.labels for f in firsts) and any(label in p.labels for p in pool):
            options.append({"field": "labels", "op": "contains", "value": label})
    if all(f.brand == first.brand for f in firsts):
        options.append({"field": "brand", "op": "!=", "value": first.brand})
    options += _floor_and_kind_options(firsts, pool)
    if keep is not None:
        options = [o for o in options if satisfied(o["op"], o["value"], getattr(keep, o["field"]))]
    fields: set[str] = {tc["constraint"]["field"] for tc in constraints}
    chosen: list[dict[str, Any]] = []
    for option in rng.sample(options, k=len(options)):
        if option["field"] in fields or len(chosen) >= count:
            continue
        fields.add(option["field"])
        chosen.append(option)
    return chosen if len(chosen) == count else None


def _floor_and_kind_options(firsts: list[Any], pool: list[Any]) -> list[dict[str, Any]]:
    """Hidden needs pointing the other way from "better" ones, none of `firsts` meets and some
    of `pool` does: a price floor at the pool's middle price (the pricier end of the range: no
    cheapest-first prior meets it), no palm oil, a vegan product."""
    options: list[dict[str, Any]] = []
    dearest = max(p.price for p in firsts)
    prices = sorted(p.price for p in pool)
    middle = prices[len(prices) // 2]
    if middle > dearest + 0.005 and sum(p >= middle for p in prices) >= 2:
        options.append({"field": "price", "op": ">=", "value": round(middle, 2)})
    if all(f.palm_oil != "free" for f in firsts) and any(p.palm_oil == "free" for p in pool):
        options.append({"field": "palm_oil", "op": "==", "value": "free"})
    if all(f.vegan != "yes" for f in firsts) and any(p.vegan == "yes" for p in pool):
        options.append({"field": "vegan", "op": "==", "value": "yes"})
    return options


def _finish(
    task: dict[str, Any], catalogs: Sequence[Any], rng: random.Random, trap: bool = False
) -> GroceryTask | None:
    """Pick the substitution's usual product and the out-of-stock list; validate; for an allergy
    cell, check the trap holds; gate."""
    try:
        draft = GroceryTask.model_validate(
            {
                **task,
                "kind": "order",
                "policy_flags": [f for f in task["policy_flags"] if f != "substitution_consent"],
            }
            if task["kind"] == "substitution"
            else task
        )
    except ValueError:
        return None
    if task["kind"] == "substitution":
        usual = [p for p in _common(catalogs) if draft.satisfies_all(p)]
        if not usual:
            return None
        wanted = rng.choice(usual)
        task = {**task, "wanted_product": wanted.id, "out_of_stock": [wanted.id]}
    try:
        final = GroceryTask.model_validate(task)
    except ValueError:
        return None
    if not final.no_valid_recommendation and final.kind != "return":
        pruned = _prune(final, catalogs)
        if pruned is None:
            return None
        final = pruned
    if trap and not all(allergy_trapped(final, catalog) for catalog in catalogs):
        return None
    for catalog in catalogs:
        if gate_problems(final, catalog):
            return None
    for catalog in catalogs:
        if audit_probe(final, catalog, seeds=(0,)):
            return None
    return final


def _prune(task: GroceryTask, catalogs: Sequence[Any]) -> GroceryTask | None:
    """Drop the on_ask needs that rule out nothing on some catalog (the gate wants every asked
    need to matter); None when a hidden need is the one that does not matter."""
    import re

    data = task.model_dump(mode="json")
    for catalog in catalogs:
        for problem in gate_problems(task, catalog):
            m = re.match(r"the (on_ask|hidden) need on (\w+) removes no candidate", problem)
            if m is None:
                continue
            if m.group(1) == "hidden":
                return None
            topic = m.group(2)
            if topic == "allergies":
                data["allergies"] = []
                data["policy_flags"] = [f for f in data["policy_flags"] if f != "allergen_safety"]
            elif topic == "budget":
                data["budget"] = None
                data["policy_flags"] = [f for f in data["policy_flags"] if f != "budget"]
            else:
                data["constraints"] = [
                    tc
                    for tc in data["constraints"]
                    if not (
                        tc["reveal"] == "on_ask"
                        and topic_of_field(tc["constraint"]["field"]) == topic
                    )
                ]
    try:
        return GroceryTask.model_validate(data)
    except ValueError:
        return None


def allergy_trapped(task: GroceryTask, catalog: Any) -> bool:
    """Whether an assistant that hears every need but the (volunteered) allergy and puts the
    cheapest fitting product forward first would propose an unsafe one: among the search results
    for the kind of product asked for (named by brand, name and size, so a shared name hides
    none), in stock, the cheapest meeting every other need declares or may contain a declared
    allergen."""
    from domains.grocery.search import search_index
    from domains.grocery.store import inventory
    from domains.grocery.tools import MAX_SEARCH_LIMIT
    from domains.grocery.user.engine import product_type
    from domains.grocery.user.needs import needs_of

    if not task.allergies or task.allergy_reveal != "volunteer":
        return False
    wanted = catalog.get(task.wanted_product) if task.wanted_product else None
    query = wanted.categories[-1] if wanted is not None else product_type(task) or "food"
    shown = search_index(catalog).ranked(query, MAX_SEARCH_LIMIT)
    stock = inventory(task, catalog)
    others = [n for n in needs_of(task) if n.kind != "allergies"]
    reach = sorted(
        (
            p
            for p in shown
            if stock.get(p.id, 0) >= task.quantity
            and p.id != task.wanted_product
            and all(n.holds(p) for n in others)
        ),
        key=lambda p: (p.price, p.id),
    )
    return bool(reach) and bool(task.allergen_hits(reach[0]))


def _nvr_ok(task: GroceryTask, catalogs: Sequence[Any]) -> bool:
    """An NVR task: nothing valid, but each need alone leaves something (the mix is what fails)."""
    from domains.grocery.audit import valid_ids

    return all(not valid_ids(task, c) for c in catalogs)


def _policy_blind_wins(task: GroceryTask, catalogs: Sequence[Any]) -> bool:
    """Whether the policy-ignorer (the expert that never read the policy) wins the task's
    first probed trial on some catalog: a shopping task must make the policy matter."""
    from domains.grocery.strata import policy_blind_wins

    return any(policy_blind_wins(task, catalog) for catalog in catalogs)


def _fill(args: tuple[int, Sequence[Any], str, int, Path | None]) -> GroceryTask:
    number, catalogs, seed, tries, progress = args
    slot = GRID[number - 1]
    rng = random.Random(f"{seed}|{number}")
    task = draw_task(slot, number, rng, catalogs, tries)
    if task is None:
        raise RuntimeError(f"no task passes the gate for slot {number} {slot}")
    print(f"slot {number} {slot}: ok", file=sys.stderr, flush=True)
    if progress is not None:
        write_task(task, progress)
    return task


def draw_task(
    slot: Slot,
    number: int,
    rng: random.Random,
    catalogs: Sequence[Any],
    tries: int,
    names: Names | None = None,
    accept: Callable[[GroceryTask], bool] | None = None,
) -> GroceryTask | None:
    """The first of up to `tries` seeded drafts for the slot that passes the gate on every
    catalog and, given `accept`, that check too (None: none did)."""
    for _ in range(tries):
        draft = _draft(slot, number, rng, catalogs, names)
        if draft is None:
            continue
        task = _finish(draft, catalogs, rng, trap=slot.allergy_trap)
        if task is None:
            continue
        if slot.nvr and not _nvr_ok(task, catalogs):
            continue
        if task.kind != "return" and _policy_blind_wins(task, catalogs):
            continue
        if accept is not None and not accept(task):
            continue
        # Judged above without it (`domains.grocery.strata.play`): every shopping conversation
        # holds section 1's question rule.
        return task.flagged(ALLERGY_QUESTION)
    return None


def generate_suite(
    catalogs: Sequence[Any],
    *,
    seed: str = SUITE_SEED,
    tries: int = 20000,
    workers: int = 1,
    progress: Path | None = None,
) -> list[GroceryTask]:
    """The 60 tasks of the grid, each the first seeded draft that passes the gate on all catalogs
    (the same whatever `workers` is: each slot has its own seeded rng)."""
    jobs = [(number, catalogs, seed, tries, progress) for number in range(1, len(GRID) + 1)]
    if workers <= 1:
        return [_fill(job) for job in jobs]
    import multiprocessing

    # The hardest cells first, so the slowest searches start early.
    hard = {"hidden": 0, "mixed": 1, "volunteer": 2}
    order = sorted(
        jobs, key=lambda j: (hard[GRID[j[0] - 1].reveal], -len(GRID[j[0] - 1].complexity), j[0])
    )
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        found = list(pool.imap_unordered(_fill, order, chunksize=1))
    return sorted(found, key=lambda t: t.id)


def write_task(task: GroceryTask, directory: Path = TASKS_DIR) -> Path:
    """Write one task as `<id>.json` (schema field order, 2-space indent, final newline)."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{task.id}.json"
    data = task.model_dump(mode="json")
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return path


def write_suite(tasks: Sequence[GroceryTask], directory: Path = TASKS_DIR) -> list[Path]:
    """Replace the suite's task files with these tasks."""
    keep = {f"{t.id}.json" for t in tasks}
    for old in directory.glob("task_g*.json"):
        if old.name not in keep:
            old.unlink()
    return [write_task(task, directory) for task in tasks]


def main(argv: Sequence[str] | None = None) -> int:
    """Generate the suite from the given snapshot folders (default: every committed snapshot)."""
    from domains.grocery.catalog import load_catalog

    args = list(sys.argv[1:] if argv is None else argv)
    folders = [Path(a) for a in args] or sorted(p for p in SNAPSHOTS_DIR.glob("20*") if p.is_dir())
    if not folders:
        print("no snapshot folders given or committed", file=sys.stderr)
        return 2
    catalogs = [load_catalog(f) for f in folders]
    tasks = generate_suite(catalogs, workers=2, progress=TASKS_DIR)
    paths = write_suite(tasks)
    print(f"wrote {len(paths)} tasks to {TASKS_DIR} from {', '.join(str(f) for f in folders)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
