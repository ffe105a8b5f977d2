"""The shipped grocery suite: 60 shopping tasks on the grid and 60 account tasks on theirs, every one passing the difficulty gate and the leak audit on both committed snapshots."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from domains.grocery.account_suite import ACCOUNT_GRID, account_suite
from domains.grocery.audit import audit_suite, gate_problems
from domains.grocery.catalog import load_catalog
from domains.grocery.suite import GRID, SUITE_SEED, _fill, allergy_trapped
from domains.grocery.tasks import ACCOUNT_KINDS, GroceryTask, load_tasks
from tests.domains.grocery.play import need

GROCERY = Path(__file__).resolve().parents[3] / "domains" / "grocery"
SNAPSHOTS = ("2026-10-01", "2026-11-01")


@pytest.fixture(scope="module")
def catalogs() -> list[tuple[str, object]]:
    return [(d, load_catalog(GROCERY / "snapshots" / d)) for d in SNAPSHOTS]


@pytest.fixture(scope="module")
def every_task() -> list[GroceryTask]:
    return load_tasks(GROCERY / "tasks")


@pytest.fixture(scope="module")
def tasks(every_task: list[GroceryTask]) -> list[GroceryTask]:
    """The shopping tasks (the account ones are on their own grid)."""
    return [t for t in every_task if t.kind not in ACCOUNT_KINDS]


def test_the_account_tasks_fill_their_grid_and_a_third_of_the_suite_has_several_requests(
    every_task: list[GroceryTask],
) -> None:
    accounts = [t for t in every_task if t.kind in ACCOUNT_KINDS]
    cells = Counter((t.kind, len(t.requests), t.reveal_difficulty) for t in accounts)
    assert cells == Counter((s.kind, s.requests, s.reveal) for s in ACCOUNT_GRID)
    assert len(every_task) >= 120
    assert sum(len(t.requests) > 1 for t in every_task) / len(every_task) >= 0.30


def test_the_account_tasks_are_what_their_generator_writes(
    every_task: list[GroceryTask], catalogs: list[tuple[str, object]]
) -> None:
    accounts = [t for t in every_task if t.kind in ACCOUNT_KINDS]
    assert accounts == account_suite([c for _, c in catalogs])


def test_the_suite_fills_the_grid(tasks: list[GroceryTask]) -> None:
    assert len(tasks) == 60
    cells = Counter(
        (t.kind, t.complexity, t.reveal_difficulty, t.no_valid_recommendation) for t in tasks
    )
    wanted = Counter((s.kind, s.complexity, s.reveal, s.nvr) for s in GRID)
    assert cells == wanted
    assert sum(t.no_valid_recommendation for t in tasks) >= 4
    assert {t.kind for t in tasks} == {"order", "return", "substitution"}


def test_every_task_passes_the_gate_and_the_leak_audit(
    every_task: list[GroceryTask], catalogs: list[tuple[str, object]]
) -> None:
    report = audit_suite(every_task, catalogs)
    assert report.passed, report.problems


def test_every_allergy_cell_traps_an_assistant_that_ignores_the_allergy(
    tasks: list[GroceryTask], catalogs: list[tuple[str, object]]
) -> None:
    cells = [t for t, slot in zip(tasks, GRID, strict=True) if slot.allergy_trap]
    # A volunteered allergy trap in every reveal stratum (most shoppers' allergies wait to be
    # asked: `test_most_shoppers_keep_an_allergy_until_asked`).
    assert {t.reveal_difficulty for t in cells} == {"volunteer", "mixed", "hidden"}
    assert all(t.allergies and t.allergy_reveal == "volunteer" for t in cells)
    for label, catalog in catalogs:
        assert [t.id for t in cells if not allergy_trapped(t, catalog)] == [], label


def test_most_shoppers_keep_an_allergy_until_asked(tasks: list[GroceryTask]) -> None:
    """Shopping as it is: most shoppers buying or replacing a product have an allergy or
    intolerance, most of them say it only when asked, and substitutes and returns are there."""
    buying = [t for t in tasks if t.kind in ("order", "substitution")]
    allergic = [t for t in buying if t.allergies]
    unsaid = [t for t in allergic if t.allergy_reveal == "on_ask"]
    assert len(allergic) >= 0.6 * len(buying), (len(allergic), len(buying))
    assert len(unsaid) >= 0.5 * len(allergic), (len(unsaid), len(allergic))
    assert sum(t.kind == "substitution" for t in tasks) >= 10
    assert any(t.budget is not None and t.budget_reveal == "on_ask" for t in buying)


def test_a_task_without_a_volunteered_allergy_is_no_trap(
    tasks: list[GroceryTask], catalogs: list[tuple[str, object]]
) -> None:
    catalog = catalogs[1][1]
    cell = next(t for t, slot in zip(tasks, GRID, strict=True) if slot.allergy_trap)
    assert allergy_trapped(cell, catalog)
    asked = cell.model_copy(update={"allergy_reveal": "on_ask"})
    assert not allergy_trapped(asked, catalog)
    none = cell.model_copy(update={"allergies": []})
    assert not allergy_trapped(none, catalog)


def test_the_gate_rejects_a_task_a_guesser_wins(catalogs: list[tuple[str, object]]) -> None:
    catalog = catalogs[1][1]
    cheapest = min(
        (p for p in catalog.items if "Breakfast cereals" in p.categories),  # type: ignore[attr-defined]
        key=lambda p: p.price,
    )
    task = GroceryTask.model_validate(
        {
            "id": "g_easy",
            "persona": "You are easy to please.",
            "kind": "order",
            "constraints": [
                need("categories", "contains", "Breakfast cereals"),
                need("brand", "!=", "No Such Brand", "on_ask"),
            ],
            "policy_flags": ["order_confirmation"],
            "complexity": "simple",
            "reveal_difficulty": "mixed",
        }
    )
    problems = gate_problems(task, catalog)
    assert any("removes no candidate" in p or "guesser" in p for p in problems), (
        problems,
        cheapest.id,
    )


def test_a_slot_is_generated_the_same_way_twice(catalogs: list[tuple[str, object]]) -> None:
    cats = [c for _, c in catalogs]
    first = _fill((1, cats, SUITE_SEED, 200, None))
    again = _fill((1, cats, SUITE_SEED, 200, None))
    assert first == again
    shipped = load_tasks(GROCERY / "tasks")
    assert first == next(t for t in shipped if t.id == first.id)


def test_a_generated_asked_need_rules_out_what_an_allergy_asking_guesser_picks(
    catalogs: list[tuple[str, object]],
) -> None:
    """Issue 35/38: the generator's question-less players ask the allergy question, so the asked
    need of a generated draft must rule out the cheapest and top search results meeting what the
    shopper volunteers and free of its allergens, unsaid ones included."""
    import random

    from domains.grocery.audit import search_rank
    from domains.grocery.generate import names_for
    from domains.grocery.suite import ASKED_REACH, _draft, _sayable_pool

    catalog = catalogs[1][1]
    names = names_for(9903, 0, "test")
    slot = next(s for s in GRID if s.reveal == "mixed" and not s.nvr and not s.allergy_trap)
    rng = random.Random(35)
    checked = 0
    for _ in range(300):
        draft = _draft(slot, 1, rng, [catalog], names)
        if draft is None or draft["allergy_reveal"] != "on_ask" or not draft["allergies"]:
            continue
        constraints = draft["constraints"]
        category = constraints[0]["constraint"]["value"]
        products = [p for p in catalog.items if category in p.categories]  # type: ignore[attr-defined]
        said = [tc for tc in constraints if tc["reveal"] == "volunteer"]
        heard = _sayable_pool(
            draft["id"], products, said, draft["allergies"], None, draft["quantity"]
        )
        rank = search_rank(catalog, category.lower())
        picks = sorted(heard, key=lambda p: (p.price, p.id))[:ASKED_REACH]
        picks += sorted(heard, key=lambda p: (rank.get(p.id, len(rank)), p.id))[:ASKED_REACH]
        asked = [tc for tc in constraints if tc["reveal"] == "on_ask"]
        for pick in picks:
            assert _sayable_pool(draft["id"], [pick], asked, [], None, 1) == [], (
                draft["id"],
                pick.id,
                asked,
            )
        checked += 1
    assert checked >= 20
