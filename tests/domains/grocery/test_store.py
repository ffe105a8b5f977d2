"""The per-trial store: seeded inventory, basket, orders, returns, refusals that change nothing, and the final state."""

from __future__ import annotations

import json

import pytest

from domains.grocery.catalog import ProductCatalog
from domains.grocery.store import (
    MAX_STOCK,
    FinalState,
    Store,
    StoreError,
    inventory,
    solutions,
    stock_level,
    task_problems,
)
from tests.domains.grocery.play import (
    CATALOG,
    MILLET_POPS,
    OAT_CRUNCH,
    PENNE,
    make_task,
    past_order,
)

PAST = [past_order("A1", "2026-10-01", (OAT_CRUNCH, 2, 3.25), (PENNE, 1, 1.29))]


def _with_stock(task_id: str = "g_test") -> tuple[Store, str, int]:
    """A store and a product with at least 3 units on the shelf."""
    store = Store(make_task(id=task_id, past_orders=PAST), CATALOG)
    pid = next(p.id for p in CATALOG.items if stock_level(store.task, p.id) >= 3)
    return store, pid, stock_level(store.task, pid)


def test_inventory_is_seeded_by_task_and_product_only() -> None:
    task = make_task(out_of_stock=[MILLET_POPS])
    stock = inventory(task, CATALOG)
    assert stock == inventory(make_task(out_of_stock=[MILLET_POPS]), CATALOG)
    assert stock[MILLET_POPS] == 0
    assert all(0 <= n <= MAX_STOCK for n in stock.values())
    assert len(set(stock.values())) > 3  # counts vary across products
    # A smaller catalog leaves every other count where it was.
    smaller = ProductCatalog([p for p in CATALOG.items if p.id != OAT_CRUNCH])
    assert inventory(task, smaller) == {k: v for k, v in stock.items() if k != OAT_CRUNCH}
    assert inventory(make_task(id="g_other"), CATALOG) != inventory(make_task(), CATALOG)


def test_the_basket_adds_up_and_refuses_more_than_the_shelf() -> None:
    store, pid, stock = _with_stock()
    store.add(pid, 1)
    line = store.add(pid, 2)
    assert line.quantity == 3
    with pytest.raises(StoreError, match=rf"only {stock - 3} unit\(s\) of {pid} can be added"):
        store.add(pid, stock - 2)
    assert store.in_basket(pid) == 3  # the refusal changed nothing
    empty = next(p.id for p in CATALOG.items if stock_level(store.task, p.id) == 0)
    with pytest.raises(StoreError, match="only 0 unit"):
        store.add(empty, 1)
    with pytest.raises(StoreError, match="unknown product id 'off_1'"):
        store.add("off_1", 1)
    with pytest.raises(StoreError, match="at least 1"):
        store.add(pid, 0)


def test_removing_and_ordering() -> None:
    store, pid, stock = _with_stock()
    with pytest.raises(StoreError, match="basket is empty"):
        store.place_order()
    with pytest.raises(StoreError, match="not in the basket"):
        store.remove(pid)
    store.add(pid, 2)
    assert store.remove(pid).quantity == 2
    store.add(pid, 2)
    price = store.product(pid).price
    order = store.place_order()
    assert order.order_id == "placed_1"
    assert order.total == round(2 * price, 2)
    assert store.basket() == []
    assert store.stock(pid) == stock - 2
    store.add(pid, 1)
    assert store.place_order().order_id == "placed_2"


def test_returns_past_and_new_orders_once() -> None:
    store, pid, _ = _with_stock()
    record = store.process_return("A1", OAT_CRUNCH, "damaged")
    assert (record.quantity, record.refund, record.reason) == (2, 6.5, "damaged")
    with pytest.raises(StoreError, match="already returned"):
        store.process_return("A1", OAT_CRUNCH, "damaged")
    with pytest.raises(StoreError, match="has no line for"):
        store.process_return("A1", MILLET_POPS, "damaged")
    with pytest.raises(StoreError, match="unknown order id 'Z9'; the shopper's orders are: A1"):
        store.process_return("Z9", OAT_CRUNCH, "damaged")
    store.add(pid, 1)
    order = store.place_order()
    assert store.process_return(order.order_id, pid, "changed_mind").quantity == 1
    assert len(store.returns) == 2


def test_the_final_state_is_a_versioned_model_that_round_trips() -> None:
    store, pid, _ = _with_stock()
    store.add(pid, 1)
    store.place_order()
    store.add(pid, 1)
    store.process_return("A1", PENNE, "expired")
    state = store.final_state()
    data = json.loads(state.model_dump_json())
    assert next(iter(data)) == "schema_version"
    assert data["schema_version"] == 1
    assert FinalState.model_validate_json(state.model_dump_json()) == state
    assert [o.order_id for o in state.orders] == ["placed_1"]
    assert [b.product_id for b in state.basket] == [pid]
    assert state.returns[0].refund == 1.29
    with pytest.raises(ValueError, match="Extra inputs"):
        FinalState.model_validate({**data, "extra": 1})


def test_task_problems_check_solvability_against_the_nvr_flag() -> None:
    task = make_task()
    assert solutions(task, CATALOG)
    assert task_problems(task, CATALOG) == []
    wrong = make_task(no_valid_recommendation=True)
    assert "marked no_valid_recommendation but" in task_problems(wrong, CATALOG)[0]
    impossible = make_task(
        constraints=[
            {"constraint": {"field": "price", "op": "<=", "value": 0.1}, "reveal": "volunteer"}
        ]
    )
    assert "no product is valid and in stock" in task_problems(impossible, CATALOG)[0]
    missing = make_task(out_of_stock=["off_9999999999999"])
    assert task_problems(missing, CATALOG) == [
        "task g_test: out_of_stock names 'off_9999999999999', which is not in the catalog"
    ]
