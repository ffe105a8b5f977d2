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
