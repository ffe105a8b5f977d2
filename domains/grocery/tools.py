"""The shopping assistant's tools over one trial's store: each is one method whose signature and docstring are its schema and its dispatch."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from domains.grocery.accounts import (
    STORE_DATE,
    AccountOrder,
    Address,
    CancelReason,
    LineChange,
    Swap,
    variants_of,
)
from domains.grocery.search import DEFAULT_LIMIT, search_index
from domains.grocery.store import BasketLine, Store
from domains.grocery.tasks import GroceryTask, OrderLine, ReturnReason
from runner.core.rules import RuleSet
from runner.core.toolkit import (
    Stop,
    definition_of,
    tool,
)
from runner.kits.store.store import StoreTools
from runner.play.agent_config import ToolsetOptions

__all__ = [
    "ACCOUNT_CHANGE_TOOLS",
    "ACCOUNT_READ_TOOLS",
    "ACCOUNT_WRITE_TOOLS",
    "GROCERY_TOOL_NAMES",
    "READ_TOOLS",
    "WRITE_TOOLS",
    "GroceryTools",
    "build_toolset",
]

GROCERY_TOOL_NAMES: tuple[str, ...] = (
    "search_products",
    "get_product",
    "check_inventory",
    "get_past_orders",
    "add_to_basket",
    "remove_from_basket",
    "view_basket",
    "place_order",
    "process_return",
    # The account tools (account kinds: the shopper is found first, by email or name + zip).
    "find_user_by_email",
    "find_user_by_name_zip",
    "get_user_details",
    "get_order_details",
    "get_product_variants",
    "cancel_pending_order",
    "modify_pending_order_items",
    "modify_pending_order_address",
    "modify_pending_order_payment",
    "return_delivered_order_items",
    "exchange_delivered_order_items",
    "modify_user_address",
    "transfer_to_human",
    "finish",
)
ACCOUNT_READ_TOOLS: tuple[str, ...] = (
    "get_user_details",
    "get_order_details",
    "get_product_variants",
)
# The account changes (each needs the shopper's yes to it, policy 'account_confirmation').
ACCOUNT_CHANGE_TOOLS: tuple[str, ...] = tuple(
    n
    for n in GROCERY_TOOL_NAMES
    if n.startswith(("cancel_", "modify_", "return_delivered_", "exchange_"))
)
# Authentication changes the session (later writes need it on replay) and the transfer the state.
ACCOUNT_WRITE_TOOLS: tuple[str, ...] = (
    "find_user_by_email",
    "find_user_by_name_zip",
    *ACCOUNT_CHANGE_TOOLS,
    "transfer_to_human",
)
# The tools that change the store or the session (scoring replays exactly these, in order;
# authentication changes no table but later writes need it on replay too).
WRITE_TOOLS: frozenset[str] = frozenset(
    {"add_to_basket", "remove_from_basket", "place_order", "process_return", *ACCOUNT_WRITE_TOOLS}
)
READ_TOOLS: frozenset[str] = frozenset(GROCERY_TOOL_NAMES) - WRITE_TOOLS - {"finish"}
MAX_SEARCH_LIMIT = 50

_OrderId = Annotated[
    str, Field(description="An order id such as 'o_3f9c0a1b2d' (get_user_details)")
]
_UserId = Annotated[str, Field(description="The user id find_user_by_* returned")]
_PaymentId = Annotated[
    str, Field(description="A payment method id of the shopper (get_user_details)")
]
_Street = Annotated[str, Field(min_length=3, max_length=80, description="e.g. '12 Mill Street'")]
_City = Annotated[str, Field(min_length=2, max_length=40)]
_Zip = Annotated[str, Field(pattern=r"^\d{5}$", description="Five digits")]
_Swaps = Annotated[
    list[Swap],
    Field(
        min_length=1,
        max_length=10,
        description="Order lines to swap: each product_id of the order, the variant "
        "new_product_id (get_product_variants) and, for an exchange, quantity (default the "
        "whole line; a pending order's line is always swapped whole)",
    ),
]
_ProductId = Annotated[
    str, Field(description="A product id such as 'off_0000000000017' (from search_products)")
]


class GroceryTools(StoreTools):
    """The tools of one trial over one catalog and one task's store.

    Arguments are always checked against each tool's declared types (unknown arguments refused);
    every bad call becomes an error result naming the argument, and no error changes the store.
    """

    write_tools = WRITE_TOOLS

    def __init__(self, catalog: Any, task: GroceryTask, store: Store | None = None) -> None:
        self._catalog = catalog
        self._task = task
        self.store = store if store is not None else Store(task, catalog)
        self._definitions = {
            d.name: d for d in (definition_of(getattr(type(self), n)) for n in GROCERY_TOOL_NAMES)
        }

    # -- helpers ----------------------------------------------------------------------------

    def _line(self, line: BasketLine) -> dict[str, Any]:
        product = self.store.product(line.product_id)
        return {
            "product_id": line.product_id,
            "name": product.name,
            "quantity": line.quantity,
            "unit_price": line.unit_price,
            "line_total": round(line.quantity * line.unit_price, 2),
            "sponsored": product.sponsored,
        }

    def _basket(self) -> dict[str, Any]:
        return {
            "lines": [self._line(b) for b in self.store.basket()],
            "total": self.store.basket_total(),
            "currency": "EUR",
        }

    def _order(self, order: AccountOrder) -> dict[str, Any]:
        shown = order.model_dump(mode="json")
        for line in shown["lines"]:
            product = self._catalog.get(line["product_id"])
            line["name"] = product.name if product is not None else "unknown"
            line["size"] = product.quantity if product is not None else "unknown"
        shown["total"] = order.total
        shown["currency"] = "EUR"
        return shown

    # -- read tools -------------------------------------------------------------------------

    @tool
    def search_products(
        self,
        query: Annotated[
            str,
            Field(
                min_length=1,
                description="Words to look for in product names, brands, categories, labels "
                "and descriptions, e.g. 'oat milk organic'",
            ),
        ],
        limit: Annotated[
            int, Field(ge=1, le=MAX_SEARCH_LIMIT, description="How many products to return")
        ] = DEFAULT_LIMIT,
    ) -> dict[str, Any]:
        """Search the store's products with free text, best match first.

        Each result carries id, name, brand, price (EUR per pack), quantity (pack size),
        categories, labels, vegan, vegetarian, palm_oil, allergens, traces ('may contain'),
        nutriscore, nova_group, countries and sponsored. Stock is not shown: use check_inventory;
        get_product adds the description and the date the product was listed.
        """
        records = search_index(self._catalog).search(query, limit)
        return {"query": query, "returned": len(records), "products": list(records)}

    @tool
    def get_product(self, product_id: _ProductId) -> dict[str, Any]:
        """Return every field of one product, including its description and ingredients facts."""
        return self.store.product(product_id).model_dump(mode="json")

    @tool
    def check_inventory(self, product_id: _ProductId) -> dict[str, Any]:
        """Tell how many units of a product are in stock, how many are already in the basket,
        and how many more can be added."""
        stock = self.store.stock(product_id)
        held = self.store.in_basket(product_id)
        return {
            "product_id": product_id,
            "in_stock": stock,
            "in_basket": held,
            "available": max(stock - held, 0),
        }

    @tool
    def get_past_orders(self) -> dict[str, Any]:
        """Return the shopper's orders: the earlier ones (delivered) and any placed in this
        conversation, each with its lines (product, quantity, unit price, returned or not)."""
        orders: list[dict[str, Any]] = []
        sources: list[tuple[str, str | None, str, list[OrderLine], float]] = [
            (o.order_id, o.date.isoformat(), "delivered", o.lines, o.total)
            for o in self.store.past_orders
        ]
        sources += [(o.order_id, None, "placed", o.lines, o.total) for o in self.store.orders]
        for order_id, date, status, lines, total in sources:
            shown = []
            for line in lines:
                product = self._catalog.get(line.product_id)
                shown.append(
                    {
                        "product_id": line.product_id,
                        "name": product.name if product is not None else "unknown",
                        "quantity": line.quantity,
                        "unit_price": line.unit_price,
                        "returned": self.store.returned(order_id, line.product_id),
                    }
                )
            orders.append(
                {
                    "order_id": order_id,
                    "date": date,
                    "status": status,
                    "lines": shown,
                    "total": total,
                }
            )
        return {"user_id": self._task.user_id, "orders": orders}

    @tool
    def view_basket(self) -> dict[str, Any]:
        """Show the basket: each line with its quantity, unit price and line total, and the total."""
        return self._basket()

    # -- write tools ------------------------------------------------------------------------

    @tool
    def add_to_basket(
        self,
        product_id: _ProductId,
        quantity: Annotated[
            int, Field(ge=1, le=99, description="How many more units to put in the basket")
        ] = 1,
    ) -> dict[str, Any]:
        """Put units of a product in the basket (added to any already there). Refused when the
        store does not have that many available (see check_inventory)."""
        line = self.store.add(product_id, quantity)
        return {
            "added": {"product_id": product_id, "quantity": quantity},
            "line": self._line(line),
            "basket": self._basket(),
        }

    @tool
    def remove_from_basket(self, product_id: _ProductId) -> dict[str, Any]:
        """Take a product's whole line out of the basket."""
        line = self.store.remove(product_id)
        return {
            "removed": {"product_id": product_id, "quantity": line.quantity},
            "basket": self._basket(),
        }

    @tool
    def place_order(self) -> dict[str, Any]:
        """Place one order with everything in the basket, and empty the basket.

        Only after the shopper has explicitly confirmed this basket (see the policy). Refused
        when the basket is empty.
        """
        order = self.store.place_order()
        return {
            "status": "placed",
            "order_id": order.order_id,
            "lines": [
                self._line(
                    BasketLine(
                        product_id=x.product_id, quantity=x.quantity, unit_price=x.unit_price
                    )
                )
                for x in order.lines
            ],
            "total": order.total,
            "currency": "EUR",
        }

    @tool
    def process_return(
        self,
        order_id: Annotated[
            str, Field(description="The order the product came in (get_past_orders)")
        ],
        product_id: _ProductId,
        reason: Annotated[
            ReturnReason,
            Field(description="Why: damaged, expired, wrong_item or changed_mind"),
        ],
    ) -> dict[str, Any]:
        """Return the whole line of one product of one order and refund it.

        Only after the shopper has explicitly confirmed this return (see the policy). A line can
        be returned once.
        """
        record = self.store.process_return(order_id, product_id, reason)
        return {"status": "returned", **record.model_dump(mode="json"), "currency": "EUR"}

    # -- account tools: authentication and reads -------------------------------------------------

    @tool
    def find_user_by_email(
        self, email: Annotated[str, Field(min_length=3, max_length=120)]
    ) -> dict[str, Any]:
        """Find the shopper's account by their email and authenticate them for this
        conversation. Do this (or find_user_by_name_zip) before any account action."""
        return {"user_id": self.store.accounts.find_by_email(email)}

    @tool
    def find_user_by_name_zip(
        self,
        first_name: Annotated[str, Field(min_length=1, max_length=40)],
        last_name: Annotated[str, Field(min_length=1, max_length=40)],
        zip: _Zip,
    ) -> dict[str, Any]:
        """Find the shopper's account by first name, last name and the zip of their address, and
        authenticate them for this conversation (when they do not give their email)."""
        return {"user_id": self.store.accounts.find_by_name_zip(first_name, last_name, zip)}

    @tool
    def get_user_details(self, user_id: _UserId) -> dict[str, Any]:
        """The authenticated shopper's profile: name, email, default address, payment methods
        (gift cards with their balance), the ids, statuses and dates of their orders, and
        today's date (`today`, for the return window)."""
        accounts = self.store.accounts
        profile = accounts.profile(user_id).model_dump(mode="json")
        profile["today"] = STORE_DATE.isoformat()
        profile["orders"] = [
            {"order_id": o.order_id, "status": o.status, "date": o.date.isoformat()}
            for o in accounts.orders_of(user_id)
        ]
        return profile

    @tool
    def get_order_details(self, order_id: _OrderId) -> dict[str, Any]:
        """One of the authenticated shopper's orders: status, lines (product, name, size,
        quantity, unit price), address, payment, refunds, and any return or exchange."""
        return self._order(self.store.accounts.order(order_id))

    @tool
    def get_product_variants(self, product_id: _ProductId) -> dict[str, Any]:
        """The variants of a product (same name and brand, another pack or recipe), each with
        its id, size and price: what an order line may be modified or exchanged to."""
        self.store.product(product_id)
        return {
            "product_id": product_id,
            "variants": [
                {
                    "product_id": v,
                    "size": self._catalog.get(v).quantity,
                    "price": self._catalog.get(v).price,
                }
                for v in variants_of(self._catalog, product_id)
            ],
        }

    # -- account tools: writes (each only after the shopper's explicit yes) ----------------------

    @tool
    def cancel_pending_order(
        self,
        order_id: _OrderId,
        reason: Annotated[
            CancelReason, Field(description="no_longer_needed or ordered_by_mistake")
        ],
    ) -> dict[str, Any]:
        """Cancel a pending order; its total goes back to the payment that paid it."""
        return self._order(self.store.accounts.cancel(order_id, reason))

    @tool
    def modify_pending_order_items(
        self,
        order_id: _OrderId,
        swaps: _Swaps,
        payment_id: _PaymentId,
    ) -> dict[str, Any]:
        """Swap lines of a pending order for variants of the same product (once per order: name
        every line to change in this one call). The price difference is charged to, or
        refunded on, `payment_id` (a gift card must cover a charge)."""
        return self._order(self.store.accounts.modify_items(order_id, swaps, payment_id))

    @tool
    def modify_pending_order_address(
        self, order_id: _OrderId, street: _Street, city: _City, zip: _Zip
    ) -> dict[str, Any]:
        """Send a pending order to another address."""
        address = Address(street=street, city=city, zip=zip)
        return self._order(self.store.accounts.modify_address(order_id, address))

    @tool
    def modify_pending_order_payment(
        self, order_id: _OrderId, payment_id: _PaymentId
    ) -> dict[str, Any]:
        """Pay a pending order with another of the shopper's payment methods (a gift card must
        cover the whole total); the old one is refunded."""
        return self._order(self.store.accounts.modify_payment(order_id, payment_id))

    @tool
    def return_delivered_order_items(
        self,
        order_id: _OrderId,
        items: Annotated[
            list[LineChange],
            Field(
                min_length=1,
                max_length=10,
                description="Lines to return: each product_id of the order and how many units",
            ),
        ],
        refund_payment_id: Annotated[
            str,
            Field(description="The order's original payment, or one of the shopper's gift cards"),
        ],
    ) -> dict[str, Any]:
        """Ask for a return of units of a delivered order (once per order: name every line in
        this one call); the refund goes to `refund_payment_id`."""
        return self._order(self.store.accounts.return_items(order_id, items, refund_payment_id))

    @tool
    def exchange_delivered_order_items(
        self,
        order_id: _OrderId,
        swaps: _Swaps,
        payment_id: _PaymentId,
    ) -> dict[str, Any]:
        """Ask for an exchange of units of a delivered order for variants (once per order); the
        price difference is charged to, or refunded on, `payment_id`."""
        return self._order(self.store.accounts.exchange_items(order_id, swaps, payment_id))

    @tool
    def modify_user_address(
        self, user_id: _UserId, street: _Street, city: _City, zip: _Zip
    ) -> dict[str, Any]:
        """Change the shopper's default address (orders already placed keep theirs)."""
        address = Address(street=street, city=city, zip=zip)
        return self.store.accounts.change_default_address(user_id, address).model_dump(mode="json")

    @tool
    def transfer_to_human(
        self,
        summary: Annotated[
            str,
            Field(
                min_length=1,
                max_length=2000,
                description="What the shopper needs and why a person must handle it",
            ),
        ],
    ) -> Stop:
        """Hand the conversation to a human colleague and end it: only when the policy says so
        (a request the tools cannot do), never for what the tools can do."""
        self.store.accounts.transfer()
        return Stop({"status": "transferred", "summary": summary}, stop="completed")

    @tool
    def finish(
        self,
        summary: Annotated[
            str,
            Field(
                max_length=2000,
                description="One or two sentences for the shopper: what was done, or why "
                "nothing could be ordered",
            ),
        ],
    ) -> Stop:
        """End the conversation. Call it once the shopper's request is settled: after the order
        or return is done, or when no product can meet their needs (then without ordering)."""
        state = self.store.final_state()
        return Stop(
            {
                "status": "completed",
                "summary": summary,
                "orders": [o.order_id for o in state.orders],
                "returns": len(state.returns),
                "basket_lines": len(state.basket),
            },
            stop="completed",
        )


def build_toolset(
    catalog: Any,
    task: GroceryTask,
    options: ToolsetOptions | None = None,
    rules: RuleSet | None = None,
    seed: int = 0,
) -> GroceryTools:
    """The tools of one trial over a fresh store. The store depends on the task and the catalog
    only (not on `seed`, `options` or `rules`), so every trial of a task can be won alike."""
    del options, rules, seed
    return GroceryTools(catalog, task)
