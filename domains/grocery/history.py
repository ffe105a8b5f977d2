"""A task's private account history, drawn from a seed: the shopper's profile and orders, and a second shopper's, with opaque ids.

Every id (users, orders, payment methods) is a keyed hash of the seed and the task's role
(`runner.core.generation.opaque_id`), so nothing an agent sees maps to a public file; names,
streets and cities come from small lists in our own words. The shopper has several orders in
several statuses, so that which order a request is about is never guessable from a prior: two to
four pending ones (sometimes one whose items were already changed once), two or three delivered
within the return window and one delivered before it, one processed; a staple product (one with
variants) recurs in most of them, as a regular buy does. Each order's lines include one with
variants (so cancel, modify, return and exchange can all be asked); the shopper has a card, a
gift card and often a PayPal account; the second shopper (a neighbour) has orders of their own,
which the shopper's agent must never touch.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from domains.grocery.accounts import (
    RETURN_WINDOW_DAYS,
    STORE_DATE,
    Account,
    AccountOrder,
    Address,
    OrderLine,
    OrderStatus,
    PaymentMethod,
    Profile,
)
from runner.core.errors import TaurecError
from runner.core.generation import opaque_id

__all__ = ["draw_account", "draw_address", "variant_products"]

_FIRST = ("Ines", "Tomas", "Maren", "Odile", "Ravi", "Selma", "Kofi", "Lena", "Piet", "Yara")
_LAST = ("Albers", "Brandt", "Castell", "Dunmore", "Eklund", "Ferro", "Galway", "Hoyt", "Ivers")
_STREETS = (
    "Linden Lane",
    "Quarry Road",
    "Harbour Walk",
    "Orchard Close",
    "Mill Street",
    "Beacon Row",
    "Willow Court",
)
_CITIES = ("Eastbrook", "Marlow Vale", "Kingsferry", "Ashcombe", "Northwick")


def variant_products(catalog: Any) -> list[Any]:
    """Products with at least one variant (same name and brand, another id), catalog order."""
    groups: dict[tuple[str, str], int] = {}
    for p in catalog.items:
        groups[(p.name, p.brand)] = groups.get((p.name, p.brand), 0) + 1
    return [p for p in catalog.items if groups[(p.name, p.brand)] > 1]


def draw_address(rng: random.Random) -> Address:
    return Address(
        street=f"{rng.randint(2, 98)} {rng.choice(_STREETS)}",
        city=rng.choice(_CITIES),
        zip=f"{rng.randint(10000, 99999)}",
    )


def _profile(seed: int, role: str, rng: random.Random, taken: set[str]) -> Profile:
    first = rng.choice(_FIRST)
    last = rng.choice([n for n in _LAST if f"{first} {n}" not in taken])
    taken.add(f"{first} {last}")
    user_id = opaque_id(seed, f"{role}|user", "u_")
    methods = [
        PaymentMethod(
            payment_id=opaque_id(seed, f"{role}|card", "card_"),
            kind="card",
            label=f"card ending {rng.randint(1000, 9999)}",
        ),
        PaymentMethod(
            payment_id=opaque_id(seed, f"{role}|gift", "gift_"),
            kind="gift_card",
            label="gift card",
            balance=float(rng.randint(3, 40)),
        ),
    ]
    if rng.random() < 0.6:
        methods.append(
            PaymentMethod(
                payment_id=opaque_id(seed, f"{role}|paypal", "paypal_"),
                kind="paypal",
                label="PayPal",
            )
        )
    return Profile(
        user_id=user_id,
        first_name=first,
        last_name=last,
        email=f"{first}.{last}{rng.randint(10, 99)}@example.org".lower(),
        address=draw_address(rng),
        payment_methods=methods,
    )


def _order(
    seed: int,
    role: str,
    rng: random.Random,
    profile: Profile,
    status: OrderStatus,
    products: list[Any],
    days_ago: int,
    modified: bool = False,
) -> AccountOrder:
    lines = [
        OrderLine(product_id=p.id, quantity=rng.randint(1, 3), unit_price=p.price) for p in products
    ]
    # Orders are paid by card or PayPal: a gift card pays only what its balance covers.
    payers = [m.payment_id for m in profile.payment_methods if m.kind != "gift_card"]
    return AccountOrder(
        order_id=opaque_id(seed, f"{role}|order", "o_"),
        user_id=profile.user_id,
        date=STORE_DATE - dt.timedelta(days=days_ago),
        status=status,
        lines=lines,
        address=profile.address,
        payment_id=rng.choice(payers),
        items_modified=modified,
    )


def draw_account(seed: int, role: str, rng: random.Random, catalog: Any) -> Account:
    """The private history of one task (`role` names it, e.g. 'grocery|7'): the shopper first,
    then a neighbour; each order holds one to three lines, one of them with a variant, and the
    shopper's staple (a product with variants) is in most of the shopper's orders."""
    varied = variant_products(catalog)
    plain = list(catalog.items)
    if len(varied) < 4:
        raise TaurecError(
            f"the catalog has {len(varied)} products with a variant; account tasks need 4"
        )
    taken: set[str] = set()
    shopper = _profile(seed, f"{role}|shopper", rng, taken)
    neighbour = _profile(seed, f"{role}|neighbour", rng, taken)
    staple = rng.choice(varied)

    def pick(regular: bool) -> list[Any]:
        first = staple if regular and rng.random() < 0.85 else rng.choice(varied)
        others = [p for p in rng.sample(plain, 2) if p.id != first.id]
        return [first, *others[: rng.randint(0, 2)]]

    window = RETURN_WINDOW_DAYS
    # Distinct days for the shopper's orders: pending ones the newest, then processed,
    # delivered within the window, and one delivered before it.
    pending_days = sorted(rng.sample(range(1, 7), rng.randint(2, 4)))
    delivered_days = sorted(rng.sample(range(9, window - 1), rng.randint(2, 3)))
    modified = rng.randrange(len(pending_days)) if rng.random() < 0.5 else -1
    plan: list[tuple[Profile, str, OrderStatus, int, bool]] = [
        (shopper, f"pending{i}", "pending", d, i == modified) for i, d in enumerate(pending_days)
    ]
    plan.append((shopper, "processed", "processed", 7 + rng.randint(0, 1), False))
    plan += [
        (shopper, f"delivered{i}", "delivered", d, False) for i, d in enumerate(delivered_days)
    ]
    plan.append((shopper, "delivered-old", "delivered", window + rng.randint(8, 40), False))
    plan += [
        (neighbour, "pending", "pending", 3, False),
        (neighbour, "delivered", "delivered", 9, False),
    ]
    orders = [
        _order(
            seed, f"{role}|{who.user_id}|{name}", rng, who, status, pick(who is shopper), days, mod
        )
        for who, name, status, days, mod in plan
    ]
    return Account(profiles=[shopper, neighbour], orders=orders)
