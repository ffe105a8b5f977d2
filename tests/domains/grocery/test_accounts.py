"""Shopper accounts: generated histories with opaque ids, and the order-status moves of the account book."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from domains.grocery.accounts import (
    Account,
    AccountBook,
    Address,
    LineChange,
    Swap,
    variants_of,
)
from domains.grocery.catalog import load_catalog
from domains.grocery.history import draw_account
from runner.kits.store.store import StoreError

SNAPSHOT = Path(__file__).resolve().parents[3] / "domains/grocery/snapshots/2026-11-01"
CATALOG = load_catalog(SNAPSHOT)
TASKS = Path(__file__).resolve().parents[3] / "domains/grocery/tasks"


def account(seed: int = 7, role: str = "grocery|0") -> Account:
    return draw_account(seed, role, random.Random(f"{seed}|{role}"), CATALOG)


def book(seed: int = 7) -> tuple[AccountBook, Account]:
    acc = account(seed)
    b = AccountBook(acc, CATALOG)
    b.find_by_email(acc.shopper.email)
    return b, acc


def test_a_history_is_the_same_for_a_seed_and_its_ids_are_opaque() -> None:
    a, b = account(7), account(7)
    assert a == b
    assert account(8) != a
    shopper, neighbour = a.profiles
    assert shopper.user_id.startswith("u_")
    assert neighbour.user_id != shopper.user_id
    statuses = [o.status for o in a.orders if o.user_id == shopper.user_id]
    assert {"pending", "delivered", "processed"} <= set(statuses)
    assert {m.kind for m in shopper.payment_methods} >= {"card", "gift_card"}
    # Every order holds a line with a variant (so it can be modified or exchanged).
    assert all(any(variants_of(CATALOG, x.product_id) for x in o.lines) for o in a.orders)
    # No id of the history appears in any committed file of the suite.
    ids = [p.user_id for p in a.profiles] + [o.order_id for o in a.orders]
    ids += [m.payment_id for p in a.profiles for m in p.payment_methods]
    public = " ".join(p.read_text(encoding="utf-8") for p in TASKS.glob("*.json"))
    assert not [i for i in ids if i in public]


def test_an_account_names_bad_owners_and_payments() -> None:
    data = json.loads(account().model_dump_json())
    data["orders"][0]["payment_id"] = "card_nobody"
    with pytest.raises(ValueError, match="payment_id 'card_nobody' is not one of"):
        Account.model_validate(data)
    data = json.loads(account().model_dump_json())
    data["orders"][0]["user_id"] = "u_ghost"
    with pytest.raises(ValueError, match="user_id 'u_ghost' has no profile"):
        Account.model_validate(data)


def test_authentication_by_email_or_by_name_and_zip() -> None:
    acc = account()
    b = AccountBook(acc, CATALOG)
    me = acc.shopper
    with pytest.raises(StoreError, match="not authenticated"):
        b.profile(me.user_id)
    with pytest.raises(StoreError, match=r"email .nobody@example\.org."):
        b.find_by_email("nobody@example.org")
    with pytest.raises(StoreError, match="zip '00000'"):
        b.find_by_name_zip(me.first_name, me.last_name, "00000")
    assert b.find_by_name_zip(me.first_name.upper(), me.last_name, me.address.zip) == me.user_id
    assert b.profile(me.user_id) == me


def test_orders_move_only_along_their_transitions() -> None:
    b, acc = book()
    me = acc.shopper.user_id
    pending = next(o for o in acc.orders if o.user_id == me and o.status == "pending")
    delivered = next(o for o in acc.orders if o.user_id == me and o.status == "delivered")
    cancelled = b.cancel(pending.order_id, "no_longer_needed")
    assert cancelled.status == "cancelled"
    assert cancelled.cancel_reason == "no_longer_needed"
    assert cancelled.refunds[-1].amount == pending.total
    # A cancelled order can be neither cancelled again nor modified; a delivered one not cancelled.
    with pytest.raises(StoreError, match="is cancelled; this needs an order that is pending"):
        b.cancel(pending.order_id, "no_longer_needed")
    with pytest.raises(StoreError, match="is delivered; this needs an order that is pending"):
        b.cancel(delivered.order_id, "ordered_by_mistake")
    line = delivered.lines[0]
    returned = b.return_items(
        delivered.order_id,
        [LineChange(product_id=line.product_id, quantity=1)],
        delivered.payment_id,
    )
    assert returned.status == "return_requested"
    assert returned.refunds[-1].amount == line.unit_price
    with pytest.raises(StoreError, match="is return_requested"):
        b.exchange_items(
            delivered.order_id,
            [Swap(product_id=line.product_id, new_product_id=line.product_id)],
            delivered.payment_id,
        )


def test_a_pending_order_is_modified_to_a_variant_once_and_the_gift_card_pays_the_difference() -> (
    None
):
    b, acc = book()
    me = acc.shopper
    pending = next(o for o in acc.orders if o.user_id == me.user_id and o.status == "pending")
    line = next(x for x in pending.lines if variants_of(CATALOG, x.product_id))
    new = variants_of(CATALOG, line.product_id)[0]
    gift = next(m for m in me.payment_methods if m.kind == "gift_card")
    assert gift.balance is not None
    difference = round(line.quantity * (CATALOG.get(new).price - line.unit_price), 2)
    changed = b.modify_items(
        pending.order_id, [Swap(product_id=line.product_id, new_product_id=new)], gift.payment_id
    )
    assert changed.items_modified
    assert new in [x.product_id for x in changed.lines]
    left = b.profile(me.user_id).payment(gift.payment_id)
    assert left is not None
    assert left.balance == round(gift.balance - difference, 2)
    with pytest.raises(StoreError, match="already modified once"):
        b.modify_items(
            pending.order_id,
            [Swap(product_id=new, new_product_id=line.product_id)],
            gift.payment_id,
        )
    # Address and payment of the same pending order can still change.
    moved = b.modify_address(
        pending.order_id, Address(street="1 Test Way", city="Ashcombe", zip="12345")
    )
    assert moved.address.zip == "12345"
    assert b.change_default_address(me.user_id, moved.address).address == moved.address


def test_a_history_has_several_orders_in_each_status_so_no_prior_names_the_one_asked() -> None:
    from domains.grocery.accounts import RETURN_WINDOW_DAYS, STORE_DATE

    for seed in range(30):
        acc = account(seed, f"grocery|{seed}")
        mine = [o for o in acc.orders if o.user_id == acc.shopper.user_id]
        by_status = {s: [o for o in mine if o.status == s] for s in ("pending", "processed")}
        assert 2 <= len(by_status["pending"]) <= 4
        assert len(by_status["processed"]) == 1
        delivered = [o for o in mine if o.status == "delivered"]
        late = [o for o in delivered if (STORE_DATE - o.date).days > RETURN_WINDOW_DAYS]
        assert len(late) == 1
        assert 2 <= len(delivered) - 1 <= 3
        assert len({o.date for o in mine}) == len(mine)  # the day placed names one order
        assert sum(o.items_modified for o in mine) <= 1
        # The staple recurs: some product is in at least two of the shopper's orders.
        products = [x.product_id for o in mine for x in o.lines]
        assert max(products.count(p) for p in products) >= 2


def test_nine_in_ten_account_tasks_hold_a_trap_and_a_transfer_comes_last() -> None:
    from domains.grocery.account_suite import ACCOUNT_GRID, TRAPS_OF, AccountSlot, draw_account_task
    from domains.grocery.accounts import TRANSFER_TRAPS

    assert sum(s.trapped for s in ACCOUNT_GRID) / len(ACCOUNT_GRID) >= 0.85
    # Seed 4302, drawn for this test only.
    for index, kind in enumerate(("cancel", "modify", "exchange", "multi", "multi")):
        slot = AccountSlot(kind, 1 if kind != "multi" else 2 + index % 2, "hidden", True)  # type: ignore[arg-type]
        task = draw_account_task(4302, index, slot, CATALOG)
        traps = [r for r in task.requests if r.trap is not None]
        assert len(traps) == 1
        request = traps[0]
        assert request.trap in TRAPS_OF[request.kind]
        if request.trap in TRANSFER_TRAPS:
            assert task.requests[-1] is request
            assert task.gold_actions[-1].name == "transfer_to_human"
        assert task.account is not None
        order = next(o for o in task.account.orders if o.order_id == request.order_id)
        if request.trap == "refund_elsewhere":
            asked = task.account.shopper.payment(str(request.asked_payment_id))
            assert asked is not None
            assert asked.kind != "gift_card"
            assert asked.payment_id != order.payment_id
        if request.trap == "processed":
            assert order.status == "processed"
        if request.trap == "modified_once":
            assert order.items_modified


def test_the_committed_account_tasks_hold_their_traps() -> None:
    tasks = [json.loads(p.read_text()) for p in sorted(TASKS.glob("task_h*.json"))]
    trapped = [t for t in tasks if any(r.get("trap") for r in t["requests"])]
    assert len(tasks) == 60
    assert len(trapped) >= 54
    assert {r["trap"] for t in trapped for r in t["requests"] if r.get("trap")} == {
        "refund_elsewhere",
        "other_product",
        "past_window",
        "processed",
        "modified_once",
    }
