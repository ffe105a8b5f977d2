"""The per-trial store: inventory seeded from the task id, the basket, placed orders, returns and past orders; only write tools change it."""

from __future__ import annotations

import functools
import hashlib
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from domains.grocery.accounts import AccountBook, AccountState
from domains.grocery.items import Product
from domains.grocery.tasks import (
    GroceryTask,
    OrderLine,
    PastOrder,
    ReturnReason,
    catalog_problems,
)
from runner.kits.store.store import StoreError

__all__ = [
    "FINAL_STATE_SCHEMA_VERSION",
    "MAX_STOCK",
    "BasketLine",
    "FinalState",
    "PlacedOrder",
    "ReturnRecord",
    "Store",
    "StoreError",
    "inventory",
    "solutions",
    "stock_level",
    "task_problems",
]

FINAL_STATE_SCHEMA_VERSION: Literal[1] = 1
# Stock counts are drawn from 0..MAX_STOCK per product.
MAX_STOCK = 12
# Ids of orders placed in a trial: `placed_1`, `placed_2`, … (past orders keep their own ids).
PLACED_PREFIX = "placed_"


def stock_level(task: GroceryTask, product_id: str) -> int:
    """Units of a product in stock for a task: 0 when the task lists it out of stock, else a count
    in 0..MAX_STOCK drawn from sha256(task id, product id) — never from the trial seed, so what
    can be bought is the same in every trial, and adding a product moves no other count."""
    if product_id in task.out_of_stock:
        return 0
    return _drawn_stock(task.id, product_id)


@functools.lru_cache(maxsize=1 << 16)
def _drawn_stock(task_id: str, product_id: str) -> int:
    """The drawn count (memoised: a task's gate, its generator and every trial of it read the
    same counts again and again)."""
    digest = hashlib.sha256(f"{task_id}\x00{product_id}".encode()).digest()
    return int.from_bytes(digest[:4], "big") % (MAX_STOCK + 1)


def inventory(task: GroceryTask, catalog: Any) -> dict[str, int]:
    """The stock of every product of the catalog for a task, by id (catalog order)."""
    return {p.id: stock_level(task, p.id) for p in catalog.items}


def solutions(task: GroceryTask, catalog: Any) -> list[str]:
    """Sorted ids of the products an agent may order for the task, given the task's stock."""
    return task.solutions(catalog, inventory(task, catalog))


def task_problems(task: GroceryTask, catalog: Any) -> list[str]:
    """What makes a task wrong on a catalog: ids it lacks, and solvability that contradicts
    `no_valid_recommendation` (empty when the task is sound)."""
    problems = catalog_problems(task, catalog)
    if task.kind == "return" or problems:
        return problems
    found = solutions(task, catalog)
    if task.no_valid_recommendation and found:
        problems.append(
            f"task {task.id}: marked no_valid_recommendation but {len(found)} product(s) are "
            f"valid and in stock, e.g. {found[0]}"
        )
    if not task.no_valid_recommendation and not found:
        problems.append(
            f"task {task.id}: no product is valid and in stock, but the task is not "
            "marked no_valid_recommendation"
        )
    return problems


class BasketLine(BaseModel):
    """One line of the basket (unit price is the catalog price)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    product_id: str
    quantity: int
    unit_price: float


class PlacedOrder(BaseModel):
    """An order placed in the trial, with its lines and total (EUR, rounded to cents)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    order_id: str
    lines: list[OrderLine]
    total: float


class ReturnRecord(BaseModel):
    """A processed return: the whole line of one order, why, and the refund."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    order_id: str
    product_id: str
    quantity: int
    reason: ReturnReason
    refund: float


class FinalState(BaseModel):
    """What a trial changed in the store: the orders placed, the returns made, the basket left."""

    model_config = ConfigDict(extra="forbid")

    schema_version: Literal[1] = FINAL_STATE_SCHEMA_VERSION
    task_id: str
    orders: list[PlacedOrder] = Field(default_factory=list)
    returns: list[ReturnRecord] = Field(default_factory=list)
    basket: list[BasketLine] = Field(default_factory=list)
    account: AccountState | None = Field(
        default=None, description="The accounts (profiles, orders) of an account task"
    )


def _total(lines: list[OrderLine]) -> float:
    return round(sum(line.quantity * line.unit_price for line in lines), 2)


class Store:
    """One trial's store over a catalog and a task. Reads never change it; each write method
    either changes it and returns what changed, or raises StoreError and changes nothing."""

    def __init__(self, task: GroceryTask, catalog: Any) -> None:
        self.task = task
        self.catalog = catalog
        self._sold: dict[str, int] = {}
        self._basket: dict[str, int] = {}  # insertion order is the basket's order
        self._orders: list[PlacedOrder] = []
        self._returns: list[ReturnRecord] = []
        # The shopper's accounts on an account task (None: the task has no account).
        self._accounts = AccountBook(task.account, catalog) if task.account is not None else None

    # -- reads --------------------------------------------------------------------------------

    def product(self, product_id: str) -> Product:
        found: Product | None = self.catalog.get(product_id)
        if found is None:
            raise StoreError(
                f"unknown product id {product_id!r}: ids look like 'off_0000000000017'; "
                "use search_products to find them"
            )
        return found

    def stock(self, product_id: str) -> int:
        """Units on the shelf now (the task's stock less what this trial's orders took)."""
        self.product(product_id)
        return stock_level(self.task, product_id) - self._sold.get(product_id, 0)

    def in_basket(self, product_id: str) -> int:
        return self._basket.get(product_id, 0)

    def basket(self) -> list[BasketLine]:
        return [
            BasketLine(product_id=pid, quantity=n, unit_price=self.product(pid).price)
            for pid, n in self._basket.items()
        ]

    def basket_total(self) -> float:
        return round(sum(line.quantity * line.unit_price for line in self.basket()), 2)

    @property
    def past_orders(self) -> list[PastOrder]:
        return list(self.task.past_orders)

    @property
    def orders(self) -> list[PlacedOrder]:
        return list(self._orders)

    @property
    def returns(self) -> list[ReturnRecord]:
        return list(self._returns)

    def returned(self, order_id: str, product_id: str) -> bool:
        return any(r.order_id == order_id and r.product_id == product_id for r in self._returns)

    def order_lines(self, order_id: str) -> list[OrderLine]:
        """The lines of a past order or of an order placed in this trial."""
        past = self.task.past_order(order_id)
        if past is not None:
            return list(past.lines)
        placed = next((o for o in self._orders if o.order_id == order_id), None)
        if placed is not None:
            return list(placed.lines)
        known = [o.order_id for o in self.task.past_orders] + [o.order_id for o in self._orders]
        raise StoreError(
            f"unknown order id {order_id!r}; the shopper's orders are: "
            + (", ".join(known) if known else "none")
        )

    @property
    def accounts(self) -> AccountBook:
        """The task's accounts (refused on a task with none)."""
        if self._accounts is None:
            raise StoreError(
                "no shopper account is on file in this conversation: account tools do not apply"
            )
        return self._accounts

    # -- writes -------------------------------------------------------------------------------

    def add(self, product_id: str, quantity: int) -> BasketLine:
        """Put `quantity` more units in the basket; refuses more than the shelf holds."""
        if quantity < 1:
            raise StoreError(f"quantity must be at least 1, got {quantity}")
        product = self.product(product_id)
        available = self.stock(product_id) - self.in_basket(product_id)
        if quantity > available:
            held = self.in_basket(product_id)
            extra = f" ({held} already in the basket)" if held else ""
            raise StoreError(
                f"only {max(available, 0)} unit(s) of {product_id} can be added{extra}; "
                f"asked for {quantity}"
            )
        self._basket[product_id] = self.in_basket(product_id) + quantity
        return BasketLine(
            product_id=product_id, quantity=self._basket[product_id], unit_price=product.price
        )

    def remove(self, product_id: str) -> BasketLine:
        """Take a product's whole line out of the basket."""
        self.product(product_id)
        if product_id not in self._basket:
            raise StoreError(f"{product_id} is not in the basket")
        quantity = self._basket.pop(product_id)
        return BasketLine(
            product_id=product_id, quantity=quantity, unit_price=self.product(product_id).price
        )

    def place_order(self) -> PlacedOrder:
        """Turn the whole basket into one order, take its units off the shelf, empty the basket."""
        if not self._basket:
            raise StoreError("the basket is empty: add products with add_to_basket first")
        lines = [
            OrderLine(product_id=b.product_id, quantity=b.quantity, unit_price=b.unit_price)
            for b in self.basket()
        ]
        order = PlacedOrder(
            order_id=f"{PLACED_PREFIX}{len(self._orders) + 1}", lines=lines, total=_total(lines)
        )
        for line in lines:
            self._sold[line.product_id] = self._sold.get(line.product_id, 0) + line.quantity
        self._orders.append(order)
        self._basket.clear()
        return order

    def process_return(self, order_id: str, product_id: str, reason: ReturnReason) -> ReturnRecord:
        """Return the whole line of `product_id` in `order_id` (once) and refund it."""
        lines = self.order_lines(order_id)
        line = next((x for x in lines if x.product_id == product_id), None)
        if line is None:
            raise StoreError(
                f"order {order_id} has no line for {product_id}; its products are: "
                + ", ".join(x.product_id for x in lines)
            )
        if self.returned(order_id, product_id):
            raise StoreError(f"{product_id} of order {order_id} was already returned")
        record = ReturnRecord(
            order_id=order_id,
            product_id=product_id,
            quantity=line.quantity,
            reason=reason,
            refund=round(line.quantity * line.unit_price, 2),
        )
        self._returns.append(record)
        return record

    # -- the outcome --------------------------------------------------------------------------

    def final_state(self) -> FinalState:
        return FinalState(
            task_id=self.task.id,
            orders=list(self._orders),
            returns=list(self._returns),
            basket=self.basket(),
            account=self._accounts.state() if self._accounts is not None else None,
        )
