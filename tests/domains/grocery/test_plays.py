"""The orders a grocery play puts products forward in, and how a pack size is read."""

from __future__ import annotations

import pytest

from domains.grocery.agents.shopper import ranked
from domains.grocery.items import pack_amount
from domains.grocery.testing import tiny_catalog


@pytest.mark.parametrize(
    ("printed", "amount"),
    [
        ("500 g", 500.0),
        ("1 kg", 1000.0),
        ("1.5 l", 1500.0),
        ("75 cl", 750.0),
        ("6 x 33 cl", 1980.0),
        ("20 bags", 20.0),
        ("family size", 0.0),
    ],
)
def test_a_pack_size_is_read_in_grams_or_millilitres(printed: str, amount: float) -> None:
    assert pack_amount(printed) == pytest.approx(amount)


def test_each_rank_puts_its_own_product_first() -> None:
    items = tiny_catalog().items
    cheapest = ranked(items, "cheapest")
    assert [p.price for p in cheapest] == sorted(p.price for p in items)
    healthiest = ranked(items, "healthiest")
    assert healthiest[0].nutriscore == min(p.nutriscore for p in items)
    biggest, smallest = ranked(items, "biggest"), ranked(items, "smallest")
    sizes = [pack_amount(p.quantity) for p in items]
    assert pack_amount(biggest[0].quantity) == max(sizes)
    assert pack_amount(smallest[0].quantity) == min(sizes)
    assert ranked(items, "search") == list(items)  # the shelf's own order


def test_the_strata_gate_fails_a_suite_a_new_prior_wins() -> None:
    """Grocery's gate judges every fixed prior (biggest pack first among them): a suite whose
    hidden shopping stratum one of them wins on more than a quarter of the trials fails, naming
    it and the tasks behind the figure."""
    from collections.abc import Sequence

    from domains.grocery.strata import FIXED_PRIORS, STRATA_SEEDS, _family
    from domains.grocery.suite import TASKS_DIR
    from domains.grocery.tasks import GroceryTask, load_tasks
    from runner.core.generation import Strata

    assert set(FIXED_PRIORS) >= {
        "prior-cheapest-heard",
        "prior-search-heard",
        "prior-healthiest-heard",
        "prior-biggest-heard",
        "prior-smallest-heard",
    }
    hidden = [
        t
        for t in load_tasks(TASKS_DIR)
        if t.reveal_difficulty == "hidden" and _family(t) == "shopping"
    ][:4]
    won = {hidden[0].id, hidden[1].id}  # half the stratum: over the quarter

    def play(name: str, task: GroceryTask, trials: Sequence[int]) -> list[bool]:
        return [name == "prior-biggest-heard" and task.id in won for _ in trials]

    ok, lines, behind = Strata(play, tuple(FIXED_PRIORS), STRATA_SEEDS, _family).gate(hidden)
    assert not ok
    assert behind == won
    assert any(
        line.startswith("strata FAIL: prior-biggest-heard wins 0.500 of the hidden")
        for line in lines
    )
