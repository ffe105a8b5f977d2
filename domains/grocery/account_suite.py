"""Account tasks drawn from a seed: cancel, modify, exchange (or return) and multi-request tasks over a generated private history, each with its gold action sequence and the facts the shopper must be told.

A task's gold actions are the authentication, then one write per request in the order the
shopper asks; the outcome of a trial is its final state compared with the one these leave on a
fresh store (`domains.grocery.scoring.gold_state`). The facts are the money each request moves
(refunds and charges, as `12.40`), which the agent has to tell the shopper. A trapped task
holds one policy trap (`domains.grocery.accounts.Trap`): one request whose first ask the policy
forbids, settled by the allowed alternative or, when only a person can help, by
`transfer_to_human` (then the task's last request, as the transfer ends the conversation). The
order a request is about is drawn uniformly among the shopper's orders it could be about, and
the shopper names it (by the day it was placed) only when asked. Reveal strata:
`volunteer` shoppers say who they are and every detail up front; `mixed` ones say who they are
only when asked; `hidden` ones also give the cancel reason and which payment to use only when
asked.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from domains.grocery.accounts import (
    CANCEL_REASONS,
    RETURN_WINDOW_DAYS,
    STORE_DATE,
    TRANSFER_TRAPS,
    Account,
    AccountOrder,
    AccountRequest,
    Address,
    LineChange,
    OrderLine,
    RequestKind,
    Swap,
    Trap,
    request_amount,
    variants_of,
)
from domains.grocery.audit import account_gate
from domains.grocery.history import draw_account, draw_address
from domains.grocery.tasks import GroceryTask
from domains.grocery.tools import GroceryTools
from runner.core.errors import TaurecError
from runner.core.generation import Split, derive_rng, opaque_id, usable_wordings
from runner.kits.store.store import Action, ReplayError, replay

__all__ = [
    "ACCOUNT_GRID",
    "ACCOUNT_PLANS",
    "TRAPS_OF",
    "AccountSlot",
    "account_slot_order",
    "account_suite",
    "by_strata",
    "draw_account_task",
    "write_account_suite",
]

AccountKind = Literal["cancel", "modify", "exchange", "multi"]
Rv = Literal["volunteer", "mixed", "hidden"]
# The committed dev suite's account tasks: 9 single requests, 51 with two or three (with the
# 60 shopping tasks, 42 % of the 120 hold several requests), every stratum in every kind. Most
# are multi-request, as τ²'s retail tasks are: a trap alone that ends in a transfer is won by any
# assistant that knows the policy, whatever else it gets wrong.
ACCOUNT_SUITE_SEED = 20261101
TASKS_DIR = Path(__file__).parent / "tasks"
SNAPSHOTS_DIR = Path(__file__).parent / "snapshots"
# The request kinds each task kind draws from (a multi task: two or three of any).
ACCOUNT_PLANS: dict[str, tuple[RequestKind, ...]] = {
    "cancel": ("cancel",),
    "modify": ("modify_items", "modify_address", "modify_payment"),
    "exchange": ("exchange", "return"),
    "multi": (
        "cancel",
        "modify_items",
        "modify_address",
        "modify_payment",
        "exchange",
        "return",
        "change_address",
    ),
}
_PERSONAS = (
    "a regular who orders for the whole household",
    "a shopper who changed their mind after ordering",
    "a commuter sorting out orders on the train",
    "someone tidying up their account before moving",
)


# The traps each request kind can carry (policy section 10 decides what is allowed).
TRAPS_OF: dict[str, tuple[Trap, ...]] = {
    "cancel": ("processed",),
    "modify_address": ("processed",),
    "modify_payment": ("processed",),
    "modify_items": ("modified_once",),
    "return": ("refund_elsewhere", "other_product", "past_window"),
    "exchange": ("past_window",),
}


class AccountSlot:
    """One account task to draw: its kind, how many requests, its reveal stratum, and whether
    one of its requests is a policy trap."""

    def __init__(self, kind: AccountKind, requests: int, reveal: Rv, trapped: bool = False) -> None:
        if (kind == "multi") != (requests > 1) or not 1 <= requests <= 3:
            raise TaurecError(f"a {kind} account task cannot hold {requests} request(s)")
        self.kind = kind
        self.requests = requests
        self.reveal = reveal
        self.trapped = trapped


def _shared_first(order: AccountOrder, account: Account) -> list[OrderLine]:
    """The order's lines, those whose product is in the most other orders of the shopper in the
    same status first (a line that names its order alone would let a guess find it)."""
    elsewhere = [
        x.product_id
        for o in account.orders
        if o.user_id == order.user_id and o.status == order.status and o != order
        for x in o.lines
    ]
    return sorted(order.lines, key=lambda x: -elsewhere.count(x.product_id))


def _swaps(
    order: AccountOrder, rng: random.Random, catalog: Any, exchange: bool, account: Account
) -> list[Swap]:
    out = []
    for line in _shared_first(order, account):
        variants = variants_of(catalog, line.product_id)
        if not variants:
            continue
        new = rng.choice(variants)
        units = rng.randint(1, line.quantity) if exchange else None
        out.append(Swap(product_id=line.product_id, new_product_id=new, quantity=units))
    return out[:1] if rng.random() < 0.7 else out[:2]


def _payer(order: AccountOrder, account: Account, rng: random.Random, cover: float) -> str:
    """The order's own payment, or the shopper's gift card when it covers `cover`."""
    gift = next(m for m in account.shopper.payment_methods if m.kind == "gift_card")
    assert gift.balance is not None
    if gift.balance >= cover and rng.random() < 0.5:
        return gift.payment_id
    return order.payment_id


def _within_window(order: AccountOrder) -> bool:
    return (STORE_DATE - order.date).days <= RETURN_WINDOW_DAYS


def _pool(kind: RequestKind, trap: Trap | None, free: list[AccountOrder]) -> list[AccountOrder]:
    """The orders a request of `kind` (with `trap`) could be about."""
    if trap == "processed":
        return [o for o in free if o.status == "processed"]
    if kind in ("return", "exchange"):
        late = trap == "past_window"
        return [o for o in free if o.status == "delivered" and _within_window(o) != late]
    pending = [o for o in free if o.status == "pending"]
    if kind == "modify_items":
        return [o for o in pending if o.items_modified == (trap == "modified_once")]
    return pending


def _request(
    kind: RequestKind,
    account: Account,
    free: list[AccountOrder],
    rng: random.Random,
    catalog: Any,
    trap: Trap | None = None,
) -> AccountRequest | None:
    """A request of `kind` (a `trap` when given) on one of the shopper's orders not used yet,
    drawn uniformly among those it could be about (None: none fits)."""
    if kind == "change_address":
        return AccountRequest(kind=kind, address=_fresh_address(rng, account.shopper.address))
    pool = _pool(kind, trap, free)
    if not pool:
        return None
    order = rng.choice(pool)
    free.remove(order)
    if kind == "cancel":
        return AccountRequest(
            kind=kind, order_id=order.order_id, reason=rng.choice(CANCEL_REASONS), trap=trap
        )
    if kind == "modify_address":
        return AccountRequest(
            kind=kind,
            order_id=order.order_id,
            address=_fresh_address(rng, order.address),
            trap=trap,
        )
    if kind == "modify_payment":
        others = [
            m
            for m in account.shopper.payment_methods
            if m.payment_id != order.payment_id and (m.balance is None or m.balance >= order.total)
        ]
        if not others:
            return None
        return AccountRequest(
            kind=kind, order_id=order.order_id, payment_id=rng.choice(others).payment_id, trap=trap
        )
    if kind == "return":
        lines = _shared_first(order, account)
        line = lines[0] if rng.random() < 0.8 else rng.choice(lines)
        units = rng.randint(1, line.quantity)
        items = [LineChange(product_id=line.product_id, quantity=units)]
        asked = None
        if trap == "refund_elsewhere":
            # Asked to a method that neither paid the order nor is a gift card.
            elsewhere = [
                m.payment_id
                for m in account.shopper.payment_methods
                if m.kind != "gift_card" and m.payment_id != order.payment_id
            ]
            if not elsewhere:
                return None
            asked = rng.choice(elsewhere)
        swaps = []
        if trap == "other_product":
            # First asked as an exchange for another product (not a variant): the return is
            # what the policy allows instead.
            mine = catalog.get(line.product_id)
            alike = [
                p
                for p in catalog.items
                if p.name != mine.name and set(p.categories) & set(mine.categories)
            ]
            if not alike:
                return None
            other = rng.choice(alike)
            swaps = [Swap(product_id=line.product_id, new_product_id=other.id, quantity=units)]
        return AccountRequest(
            kind=kind,
            order_id=order.order_id,
            items=items,
            swaps=swaps,
            payment_id=_payer(order, account, rng, 0.0),
            trap=trap,
            asked_payment_id=asked,
        )
    swaps = _swaps(order, rng, catalog, exchange=kind == "exchange", account=account)
    if not swaps:
        return None
    draft = AccountRequest(
        kind=kind, order_id=order.order_id, swaps=swaps, payment_id=order.payment_id, trap=trap
    )
    charge = request_amount(draft, account, catalog) or 0.0
    return draft.model_copy(update={"payment_id": _payer(order, account, rng, charge)})


def _fresh_address(rng: random.Random, old: Address) -> Address:
    while True:
        new = draw_address(rng)
        if new != old:
            return new


def draw_account_task(
    seed: int, index: int, slot: AccountSlot, catalog: Any, tries: int = 200, split: Split = "dev"
) -> GroceryTask:
    """The index-th account task of a seeded suite: a drawn history, `slot.requests` requests
    on distinct orders, the gold actions that carry them out (checked to replay on a fresh
    store and to change it) and the money facts the agent must tell."""
    role = f"grocery-account|{index}"
    for attempt in range(tries):
        rng = derive_rng(seed, role, attempt)
        account = draw_account(seed, f"{role}|{attempt}", rng, catalog)
        kinds = ACCOUNT_PLANS[slot.kind]
        chosen = rng.sample(kinds, slot.requests) if slot.kind == "multi" else [rng.choice(kinds)]
        traps: list[Trap | None] = [None] * len(chosen)
        if slot.trapped:
            # The trap first (uniform among those the task kind allows, and the same over the
            # attempts, so that traps hard to draw are not redrawn away), then its request kind,
            # then the other requests, the trap at a random place (last when it transfers).
            options = sorted({t for k in kinds for t in TRAPS_OF.get(k, ())})
            if slot.requests == 1 and set(options) - TRANSFER_TRAPS:
                # A lone request settles by a write where its kind allows one (a transfer
                # alone is won by any assistant that knows the policy, whatever its flaws).
                options = [t for t in options if t not in TRANSFER_TRAPS]
            pick = derive_rng(seed, role, "trap")
            trap: Trap = pick.choice(options)
            trap_kind = pick.choice([k for k in kinds if trap in TRAPS_OF.get(k, ())])
            chosen = rng.sample([k for k in kinds if k != trap_kind], slot.requests - 1)
            at = len(chosen) if trap in TRANSFER_TRAPS else rng.randint(0, len(chosen))
            chosen.insert(at, trap_kind)
            traps = [trap if i == at else None for i in range(len(chosen))]
        free = [o for o in account.orders if o.user_id == account.shopper.user_id]
        requests = [
            _request(k, account, free, rng, catalog, t) for k, t in zip(chosen, traps, strict=True)
        ]
        if any(r is None for r in requests):
            continue
        done = [r for r in requests if r is not None]
        me = account.shopper
        gold = [Action(name="find_user_by_email", arguments={"email": me.email})]
        gold += [Action(name=n, arguments=a) for n, a in (r.action(me.user_id) for r in done)]
        task = GroceryTask(
            id=opaque_id(seed, f"{role}|task", "t_"),
            persona=f"{rng.choice(usable_wordings(_PERSONAS, split)).capitalize()}.",
            kind=slot.kind,
            policy_flags=["account_confirmation"],
            complexity=("simple", "medium", "complex")[slot.requests - 1],
            reveal_difficulty=slot.reveal,
            user_id=me.user_id,
            account=account,
            identify_by=rng.choice(("email", "name_zip")),
            requests=done,
            gold_actions=gold,
        )
        tools = GroceryTools(catalog, task)
        try:
            replay(tools, enumerate(task.gold_actions))  # each gold action must succeed
        except ReplayError:
            continue  # e.g. an earlier request spent the gift card a later one pays with

        if (
            tools.store.final_state().account
            != GroceryTools(catalog, task).store.final_state().account
        ):
            return task
    raise TaurecError(f"no account task {index} ({slot.kind}) drawn in {tries} tries")


def _grid() -> list[AccountSlot]:
    """The cells, kinds taken in turn within each stratum (so any first few mix the kinds).
    Every multi-request task holds a policy trap, and the single-request ones of the hidden
    stratum: nine in ten account tasks, as an assistant that ignores the policy must lose nearly
    all of them (issue 38: policy-ignoring <= 0.10)."""
    cells: list[tuple[AccountKind, int, tuple[int, int, int]]] = [
        ("cancel", 1, (1, 1, 1)),
        ("modify", 1, (1, 1, 1)),
        ("exchange", 1, (1, 1, 1)),
        ("multi", 2, (9, 9, 9)),
        ("multi", 3, (8, 8, 8)),
    ]
    reveals: tuple[Rv, Rv, Rv] = ("volunteer", "mixed", "hidden")
    out = []
    for round_ in range(max(max(counts) for _, _, counts in cells)):
        for kind, requests, counts in cells:
            out += [
                AccountSlot(
                    kind,
                    requests,
                    reveal,
                    trapped=kind == "multi" or round_ > 0 or reveal == "hidden",
                )
                for reveal, n in zip(reveals, counts, strict=True)
                if round_ < n
            ]
    return out


ACCOUNT_GRID: tuple[AccountSlot, ...] = tuple(_grid())


def by_strata(slots: Sequence[Any], reveals: Sequence[str]) -> list[Any]:
    """Grid cells (anything with a `reveal`) taken one stratum after another in `reveals`'s
    order, each stratum in grid order: the first few cover every stratum."""
    queues = {r: [s for s in slots if s.reveal == r] for r in reveals}
    out: list[Any] = []
    while any(queues.values()):
        for reveal in reveals:
            if queues[reveal]:
                out.append(queues[reveal].pop(0))
    return out


def account_slot_order() -> list[AccountSlot]:
    """The account grid's cells, volunteer, mixed and hidden in turn."""
    return by_strata(ACCOUNT_GRID, ("volunteer", "mixed", "hidden"))


def account_suite(catalogs: Sequence[Any], seed: int = ACCOUNT_SUITE_SEED) -> list[GroceryTask]:
    """The committed suite's account tasks (`task_h001`, …), drawn on the first catalog, each
    passing `account_gate` on every catalog (a draft that fails is redrawn)."""
    out = []
    for index, slot in enumerate(ACCOUNT_GRID):
        for attempt in range(50):
            task = draw_account_task(seed, index * 100 + attempt, slot, catalogs[0])
            task = task.model_copy(update={"id": f"task_h{index + 1:03d}"})
            if not any(account_gate(task, c) for c in catalogs):
                out.append(task)
                break
        else:
            raise TaurecError(
                f"account task {index + 1}: no draft passes the gate on every catalog"
            )
    return out


def write_account_suite(tasks_dir: Path = TASKS_DIR, snapshots_dir: Path = SNAPSHOTS_DIR) -> int:
    """Rewrite `task_h*.json` from the committed snapshots (byte-identical for the same ones)."""
    from domains.grocery.catalog import load_catalog

    folders = sorted(p for p in snapshots_dir.iterdir() if (p / "catalog.json").is_file())
    tasks = account_suite([load_catalog(f) for f in folders])
    for old in tasks_dir.glob("task_h*.json"):
        old.unlink()
    from domains.grocery.suite import write_task

    for task in tasks:
        write_task(task, tasks_dir)
    return len(tasks)


if __name__ == "__main__":
    print(f"wrote {write_account_suite()} account tasks")
    sys.exit(0)
