"""Shopper accounts in the per-trial store: profiles (addresses, payment methods), orders with statuses, and the account actions that move them.

A task may carry an `Account`: the private history generated for it (the shopper's profile, a
second shopper's, and their orders). The trial's `AccountBook` holds a copy; only its write
methods change it, each either changing it and returning what changed or raising `StoreError`
with a message naming the field and value and changing nothing.

Order statuses and the moves between them::

    pending --(cancel)--> cancelled
    pending --(the shop ships it)--> processed --> delivered     (history only, never in a trial)
    delivered --(return)--> return_requested
    delivered --(exchange)--> exchange_requested

A pending order's items (each line swapped for a variant: the same product name and brand, another
pack), address or payment may be changed; items once only. Every account action needs the shopper
authenticated first (by email, or by first name, last name and zip), and acts on that shopper's
own profile and orders only.

The split is τ²-bench's: these methods enforce what a database would (authentication, ids,
statuses, variants, balances, items changed once); the rules that are the assistant's job
(policy section 10: the 30-day window for returns and exchanges, where a refund may go) are not
enforced here, so an assistant that ignores them changes the accounts wrongly and the final
state differs from the gold one. A request may be a policy trap (`Trap`): what the shopper
first asks is not allowed, and the gold action is the allowed alternative the shopper then
takes, or the transfer to a person when they still want it done.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, model_validator

from runner.kits.store.store import StoreError

__all__ = [
    "CANCEL_REASONS",
    "MAX_LINE_UNITS",
    "REQUEST_KINDS",
    "RETURN_WINDOW_DAYS",
    "STORE_DATE",
    "TRANSFER_TRAPS",
    "Account",
    "AccountBook",
    "AccountOrder",
    "AccountRequest",
    "AccountState",
    "Address",
    "CancelReason",
    "LineChange",
    "OrderLine",
    "OrderStatus",
    "PaymentKind",
    "PaymentMethod",
    "Profile",
    "Refund",
    "RequestKind",
    "Swap",
    "Trap",
    "request_amount",
    "variants_of",
]

OrderStatus = Literal[
    "pending", "processed", "delivered", "cancelled", "return_requested", "exchange_requested"
]
PaymentKind = Literal["gift_card", "card", "paypal"]
CancelReason = Literal["no_longer_needed", "ordered_by_mistake"]
CANCEL_REASONS: tuple[CancelReason, ...] = get_args(CancelReason)
# Units one return or exchange line may name (an order line holds at most 99).
MAX_LINE_UNITS = 99
# The store's date in every trial (histories end on it; `get_user_details` says it), and how
# many days after an order's date it may still be returned or exchanged (policy section 10).
STORE_DATE = dt.date(2026, 11, 1)
RETURN_WINDOW_DAYS = 30
# What makes a request a policy trap: a refund asked to a method that neither paid the order
# nor is a gift card (the shopper then takes an allowed one); an exchange for a different
# product, not a variant (the shopper then takes the return offered instead); a return or
# exchange past the window, a change to a processed order, or a second change of an order's
# items (the shopper still wants it done: the assistant transfers them to a person).
Trap = Literal["refund_elsewhere", "other_product", "past_window", "processed", "modified_once"]
TRANSFER_TRAPS: frozenset[str] = frozenset({"past_window", "processed", "modified_once"})
_ID = r"^[A-Za-z0-9_-]+$"


class OrderLine(BaseModel):
    """One line of an order: a product, how many units, and the unit price paid."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    product_id: str = Field(pattern=r"^off_\d{8,14}$")
    quantity: int = Field(strict=True, ge=1, le=99)
    unit_price: float = Field(strict=True, gt=0, allow_inf_nan=False)


class Address(BaseModel):
    """A delivery address."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    street: str = Field(min_length=3, max_length=80)
    city: str = Field(min_length=2, max_length=40)
    zip: str = Field(pattern=r"^\d{5}$", description="Five digits")


class PaymentMethod(BaseModel):
    """One way a shopper pays: a gift card (with its balance), a card or a PayPal account."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    payment_id: str = Field(pattern=_ID)
    kind: PaymentKind
    label: str = Field(
        min_length=1, description="How the shopper knows it, e.g. 'card ending 4821'"
    )
    balance: float | None = Field(
        default=None, ge=0, allow_inf_nan=False, description="EUR left; gift cards only"
    )

    @model_validator(mode="after")
    def _balance_for_gift_cards(self) -> PaymentMethod:
        if (self.kind == "gift_card") != (self.balance is not None):
            raise ValueError(f"payment {self.payment_id}: a balance is for gift cards only")
        return self


class Profile(BaseModel):
    """One shopper's account: who they are, where they live, how they pay."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    user_id: str = Field(pattern=_ID)
    first_name: str = Field(min_length=1)
    last_name: str = Field(min_length=1)
    email: str = Field(pattern=r"^[a-z0-9._-]+@[a-z0-9.-]+\.[a-z]+$")
    address: Address = Field(description="The default delivery address (its zip authenticates)")
    payment_methods: list[PaymentMethod] = Field(min_length=1)

    def payment(self, payment_id: str) -> PaymentMethod | None:
        return next((p for p in self.payment_methods if p.payment_id == payment_id), None)


class Refund(BaseModel):
    """Money going back to (positive) or taken from (negative) a payment method."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    payment_id: str
    amount: float = Field(allow_inf_nan=False)


class LineChange(BaseModel):
    """Units of one line of a delivered order, returned or exchanged."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    product_id: str = Field(description="The product of the order line")
    quantity: int = Field(description="Units of that line (1 up to the line's quantity)")


class Swap(BaseModel):
    """One order line's product replaced by a variant (same name and brand, another pack)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    product_id: str = Field(description="The product of the order line")
    new_product_id: str = Field(description="A variant of it (see get_product_variants)")
    quantity: int | None = Field(
        default=None, description="Units to exchange (delivered orders; default the whole line)"
    )


class AccountOrder(BaseModel):
    """One order of an account: its lines, where it goes, how it was paid, and its status."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    order_id: str = Field(pattern=_ID)
    user_id: str = Field(pattern=_ID)
    date: dt.date
    status: OrderStatus
    lines: list[OrderLine] = Field(min_length=1)
    address: Address
    payment_id: str
    items_modified: bool = False
    cancel_reason: CancelReason | None = None
    returned: list[LineChange] = Field(default_factory=list)
    exchanged: list[Swap] = Field(default_factory=list)
    refunds: list[Refund] = Field(default_factory=list)

    @property
    def total(self) -> float:
        return round(sum(line.quantity * line.unit_price for line in self.lines), 2)


class Account(BaseModel):
    """A task's private account history: the profiles and their orders (the shopper's first)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    profiles: list[Profile] = Field(min_length=1)
    orders: list[AccountOrder] = Field(default_factory=list)

    @model_validator(mode="after")
    def _consistent(self) -> Account:
        problems: list[str] = []
        users = {p.user_id: p for p in self.profiles}
        for field, values in (
            ("user_id", [p.user_id for p in self.profiles]),
            ("email", [p.email for p in self.profiles]),
            ("order_id", [o.order_id for o in self.orders]),
        ):
            problems += [
                f"{field} {v!r} listed twice" for v in sorted(set(values)) if values.count(v) > 1
            ]
        for order in self.orders:
            owner = users.get(order.user_id)
            if owner is None:
                problems.append(f"order {order.order_id}: user_id {order.user_id!r} has no profile")
            elif owner.payment(order.payment_id) is None:
                problems.append(
                    f"order {order.order_id}: payment_id {order.payment_id!r} is not one of "
                    f"{order.user_id}'s payment methods"
                )
        if problems:
            raise ValueError("; ".join(problems))
        return self

    @property
    def shopper(self) -> Profile:
        return self.profiles[0]


RequestKind = Literal[
    "cancel",
    "modify_items",
    "modify_address",
    "modify_payment",
    "return",
    "exchange",
    "change_address",
]
REQUEST_KINDS: tuple[RequestKind, ...] = get_args(RequestKind)


class AccountRequest(BaseModel):
    """One thing the shopper wants done on their account (what the shopper asks for, and what
    the gold action of the request does)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: RequestKind
    order_id: str | None = Field(default=None, description="The order (all but change_address)")
    reason: CancelReason | None = Field(default=None, description="cancel only")
    swaps: list[Swap] = Field(
        default_factory=list,
        description="modify_items and exchange (other_product: the exchange first asked)",
    )
    items: list[LineChange] = Field(default_factory=list, description="return only")
    payment_id: str | None = Field(
        default=None,
        description="Pays a difference (modify_items, exchange), the new payment "
        "(modify_payment) or receives the refund (return)",
    )
    address: Address | None = Field(default=None, description="modify_address, change_address")
    trap: Trap | None = Field(
        default=None, description="Why what the shopper first asks is not allowed (policy 10)"
    )
    asked_payment_id: str | None = Field(
        default=None,
        description="refund_elsewhere only: where the shopper first asks the refund to go",
    )

    @model_validator(mode="after")
    def _complete(self) -> AccountRequest:
        needed: dict[str, tuple[str, ...]] = {
            "cancel": ("order_id", "reason"),
            "modify_items": ("order_id", "swaps", "payment_id"),
            "modify_address": ("order_id", "address"),
            "modify_payment": ("order_id", "payment_id"),
            "return": ("order_id", "items", "payment_id"),
            "exchange": ("order_id", "swaps", "payment_id"),
            "change_address": ("address",),
        }
        missing = [f for f in needed[self.kind] if not getattr(self, f)]
        if missing:
            raise ValueError(f"a {self.kind} request needs {', '.join(missing)}")
        if (self.trap == "refund_elsewhere") != (self.asked_payment_id is not None):
            raise ValueError("asked_payment_id is for (and needed by) a refund_elsewhere trap")
        if self.trap in ("refund_elsewhere", "other_product") and self.kind != "return":
            raise ValueError(f"a {self.trap} trap is settled by a return, not a {self.kind}")
        if (self.trap == "other_product") != (self.kind == "return" and bool(self.swaps)):
            raise ValueError("a return's swaps are the exchange an other_product trap first asks")
        return self

    @property
    def transfers(self) -> bool:
        """Whether the request ends in a transfer to a person (a trap the tools cannot settle)."""
        return self.trap in TRANSFER_TRAPS

    def action(self, user_id: str) -> tuple[str, dict[str, Any]]:
        """The write tool and arguments that carry the request out (the transfer, for a trap
        only a person can settle)."""
        if self.transfers:
            return (
                "transfer_to_human",
                {"summary": f"The shopper still wants a {self.kind} on order {self.order_id}."},
            )
        address = self.address.model_dump() if self.address is not None else {}
        swaps = [s.model_dump(exclude_none=True) for s in self.swaps]
        by_kind: dict[str, tuple[str, dict[str, Any]]] = {
            "cancel": ("cancel_pending_order", {"order_id": self.order_id, "reason": self.reason}),
            "modify_items": (
                "modify_pending_order_items",
                {"order_id": self.order_id, "swaps": swaps, "payment_id": self.payment_id},
            ),
            "modify_address": (
                "modify_pending_order_address",
                {"order_id": self.order_id, **address},
            ),
            "modify_payment": (
                "modify_pending_order_payment",
                {"order_id": self.order_id, "payment_id": self.payment_id},
            ),
            "return": (
                "return_delivered_order_items",
                {
                    "order_id": self.order_id,
                    "items": [i.model_dump() for i in self.items],
                    "refund_payment_id": self.payment_id,
                },
            ),
            "exchange": (
                "exchange_delivered_order_items",
                {"order_id": self.order_id, "swaps": swaps, "payment_id": self.payment_id},
            ),
            "change_address": ("modify_user_address", {"user_id": user_id, **address}),
        }
        return by_kind[self.kind]


class AccountState(BaseModel):
    """What a trial left in the accounts (compared field by field with the gold one)."""

    model_config = ConfigDict(extra="forbid")

    profiles: list[Profile]
    orders: list[AccountOrder]
    transferred: bool = False


def variants_of(catalog: Any, product_id: str) -> list[str]:
    """Ids of the other products with the same name and brand (catalog order)."""
    product = catalog.get(product_id)
    if product is None:
        return []
    return [
        p.id
        for p in catalog.items
        if p.id != product_id and p.name == product.name and p.brand == product.brand
    ]


def _money(value: float) -> float:
    return round(value + 0.0, 2)


class AccountBook:
    """One trial's accounts over a task's `Account` and the catalog (reads and writes)."""

    def __init__(self, account: Account, catalog: Any) -> None:
        self._catalog = catalog
        self._profiles = {p.user_id: p for p in account.profiles}
        self._orders = {o.order_id: o for o in account.orders}
        self.user_id: str | None = None  # the authenticated shopper
        self.transferred = False

    # -- authentication -----------------------------------------------------------------------

    def find_by_email(self, email: str) -> str:
        wanted = email.strip().casefold()
        found = next((p for p in self._profiles.values() if p.email == wanted), None)
        if found is None:
            raise StoreError(f"email {email!r}: no shopper account has this email")
        self.user_id = found.user_id
        return found.user_id

    def find_by_name_zip(self, first_name: str, last_name: str, zip_code: str) -> str:
        def same(a: str, b: str) -> bool:
            return a.strip().casefold() == b.strip().casefold()

        found = next(
            (
                p
                for p in self._profiles.values()
                if same(p.first_name, first_name)
                and same(p.last_name, last_name)
                and p.address.zip == zip_code.strip()
            ),
            None,
        )
        if found is None:
            raise StoreError(
                f"name {first_name!r} {last_name!r} with zip {zip_code!r}: no shopper account matches"
            )
        self.user_id = found.user_id
        return found.user_id

    def profile(self, user_id: str) -> Profile:
        """The authenticated shopper's profile (refused for anyone else's)."""
        me = self._me()
        if user_id != me:
            known = "an unknown" if user_id not in self._profiles else "another shopper's"
            raise StoreError(
                f"user_id {user_id!r} is {known} account; the authenticated shopper is {me}"
            )
        return self._profiles[me]

    def order(self, order_id: str) -> AccountOrder:
        """One of the authenticated shopper's orders (refused for unknown or others' orders)."""
        me = self._me()
        found = self._orders.get(order_id)
        if found is None:
            raise StoreError(f"order_id {order_id!r}: no such order")
        if found.user_id != me:
            raise StoreError(
                f"order_id {order_id!r} is not an order of {me}, the authenticated shopper"
            )
        return found

    def orders_of(self, user_id: str) -> list[AccountOrder]:
        self.profile(user_id)
        return [o for o in self._orders.values() if o.user_id == user_id]

    def _me(self) -> str:
        if self.user_id is None:
            raise StoreError(
                "not authenticated: find the shopper first (find_user_by_email, or "
                "find_user_by_name_zip) before any account action"
            )
        return self.user_id

    # -- checks shared by the writes ----------------------------------------------------------

    def _in_status(self, order_id: str, *statuses: OrderStatus) -> AccountOrder:
        order = self.order(order_id)
        if order.status not in statuses:
            raise StoreError(
                f"order {order_id} is {order.status}; this needs an order that is "
                + " or ".join(statuses)
            )
        return order

    def _payment(self, payment_id: str) -> PaymentMethod:
        profile = self._profiles[self._me()]
        found = profile.payment(payment_id)
        if found is None:
            raise StoreError(
                f"payment_id {payment_id!r} is not one of the shopper's payment methods ("
                + ", ".join(p.payment_id for p in profile.payment_methods)
                + ")"
            )
        return found

    def _charge(self, payment_id: str, amount: float) -> tuple[Refund, Profile]:
        """A charge (amount > 0) or refund (amount < 0) on a payment method: the ledger entry and
        the profile after it (gift cards must cover a charge)."""
        method = self._payment(payment_id)
        profile = self._profiles[self._me()]
        if method.kind == "gift_card":
            assert method.balance is not None
            if amount > method.balance + 1e-9:
                raise StoreError(
                    f"payment_id {payment_id}: gift card balance {method.balance:.2f} EUR does "
                    f"not cover {amount:.2f} EUR"
                )
            changed = method.model_copy(update={"balance": _money(method.balance - amount)})
            profile = profile.model_copy(
                update={
                    "payment_methods": [
                        changed if p.payment_id == payment_id else p
                        for p in profile.payment_methods
                    ]
                }
            )
        return Refund(payment_id=payment_id, amount=_money(-amount)), profile

    def _lines(self, order: AccountOrder, changes: Sequence[LineChange | Swap], what: str) -> None:
        """Refuse an empty list, a product named twice or not in the order, a bad quantity."""
        if not changes:
            raise StoreError(f"{what}: name at least one order line")
        ids = [c.product_id for c in changes]
        twice = sorted({i for i in ids if ids.count(i) > 1})
        if twice:
            raise StoreError(f"{what}: product_id {twice[0]!r} is named twice")
        held = {line.product_id: line.quantity for line in order.lines}
        for change in changes:
            if change.product_id not in held:
                raise StoreError(
                    f"{what}: product_id {change.product_id!r} is not a line of order "
                    f"{order.order_id} (its lines: {', '.join(held)})"
                )
            quantity = change.quantity
            if quantity is not None and not 1 <= quantity <= held[change.product_id]:
                raise StoreError(
                    f"{what}: quantity {quantity} for {change.product_id} must be 1 to "
                    f"{held[change.product_id]} (the units in the order line)"
                )

    def _variant(self, swap: Swap, what: str) -> float:
        """The new product's price, refusing anything but a variant of the line's product."""
        if swap.new_product_id not in variants_of(self._catalog, swap.product_id):
            raise StoreError(
                f"{what}: new_product_id {swap.new_product_id!r} is not a variant of "
                f"{swap.product_id} (same name and brand, another pack); its variants: "
                + (", ".join(variants_of(self._catalog, swap.product_id)) or "none")
            )
        price: float = self._catalog.get(swap.new_product_id).price
        return price

    def _commit(
        self, order: AccountOrder, profile: Profile | None = None, **changes: Any
    ) -> AccountOrder:
        updated = order.model_copy(update=changes)
        self._orders[order.order_id] = updated
        if profile is not None:
            self._profiles[profile.user_id] = profile
        return updated

    def _settle(
        self, order: AccountOrder, payment_id: str, amount: float, **changes: Any
    ) -> AccountOrder:
        """Charge `amount` (a refund when negative) on a payment method and commit the order's
        `changes` with the ledger entry appended, or refuse (a gift card short) changing nothing."""
        refund, profile = self._charge(payment_id, amount)
        return self._commit(order, profile, refunds=[*order.refunds, refund], **changes)

    # -- writes -------------------------------------------------------------------------------

    def cancel(self, order_id: str, reason: str) -> AccountOrder:
        if reason not in CANCEL_REASONS:
            raise StoreError(f"reason {reason!r}: must be one of {', '.join(CANCEL_REASONS)}")
        order = self._in_status(order_id, "pending")
        return self._settle(
            order, order.payment_id, -order.total, status="cancelled", cancel_reason=reason
        )

    def modify_items(self, order_id: str, swaps: Sequence[Swap], payment_id: str) -> AccountOrder:
        what = "modify items"
        order = self._in_status(order_id, "pending")
        if order.items_modified:
            raise StoreError(f"order {order_id}: its items were already modified once")
        self._lines(order, swaps, what)
        by_product = {s.product_id: s for s in swaps}
        if any(s.quantity is not None for s in swaps):
            raise StoreError(f"{what}: a pending order's line is swapped whole; leave quantity out")
        lines = []
        for line in order.lines:
            swap = by_product.get(line.product_id)
            if swap is None:
                lines.append(line)
                continue
            price = self._variant(swap, what)
            lines.append(
                OrderLine(product_id=swap.new_product_id, quantity=line.quantity, unit_price=price)
            )
        difference = _money(sum(x.quantity * x.unit_price for x in lines) - order.total)
        return self._settle(order, payment_id, difference, lines=lines, items_modified=True)

    def modify_address(self, order_id: str, address: Address) -> AccountOrder:
        order = self._in_status(order_id, "pending")
        if address == order.address:
            raise StoreError(f"order {order_id} already goes to {address.street}, {address.zip}")
        return self._commit(order, address=address)

    def modify_payment(self, order_id: str, payment_id: str) -> AccountOrder:
        order = self._in_status(order_id, "pending")
        if payment_id == order.payment_id:
            raise StoreError(f"payment_id {payment_id!r} already pays order {order_id}")
        self._payment(payment_id)
        charge, profile = self._charge(payment_id, order.total)
        self._profiles[profile.user_id] = profile
        refund, profile = self._charge(order.payment_id, -order.total)
        return self._commit(
            order, profile, payment_id=payment_id, refunds=[*order.refunds, charge, refund]
        )

    def return_items(
        self, order_id: str, lines: Sequence[LineChange], payment_id: str
    ) -> AccountOrder:
        order = self._in_status(order_id, "delivered")
        self._lines(order, lines, "return")
        # Where a refund may go is the assistant's rule (policy 10), not the tool's.
        self._payment(payment_id)
        prices = {line.product_id: line.unit_price for line in order.lines}
        amount = _money(sum(c.quantity * prices[c.product_id] for c in lines))
        return self._settle(
            order, payment_id, -amount, status="return_requested", returned=list(lines)
        )

    def exchange_items(self, order_id: str, swaps: Sequence[Swap], payment_id: str) -> AccountOrder:
        what = "exchange"
        order = self._in_status(order_id, "delivered")
        self._lines(order, swaps, what)
        held = {line.product_id: line for line in order.lines}
        full = [
            s
            if s.quantity is not None
            else s.model_copy(update={"quantity": held[s.product_id].quantity})
            for s in swaps
        ]
        difference = 0.0
        for swap in full:
            assert swap.quantity is not None
            price = self._variant(swap, what)
            difference += swap.quantity * (price - held[swap.product_id].unit_price)
        return self._settle(
            order, payment_id, _money(difference), status="exchange_requested", exchanged=full
        )

    def change_default_address(self, user_id: str, address: Address) -> Profile:
        profile = self.profile(user_id)
        if profile.address == address:
            raise StoreError(f"{address.street}, {address.zip} is already the default address")
        changed = profile.model_copy(update={"address": address})
        self._profiles[user_id] = changed
        return changed

    def transfer(self) -> None:
        if self.transferred:
            raise StoreError("the conversation was already transferred to a human agent")
        self.transferred = True

    # -- the outcome --------------------------------------------------------------------------

    def state(self) -> AccountState:
        return AccountState(
            profiles=list(self._profiles.values()),
            orders=list(self._orders.values()),
            transferred=self.transferred,
        )


def request_amount(request: AccountRequest, account: Account, catalog: Any) -> float | None:
    """The money a request moves (refund or charge, EUR), None when it moves none."""
    order = next((o for o in account.orders if o.order_id == request.order_id), None)
    if order is None or request.transfers or request.kind in ("modify_address", "change_address"):
        return None
    if request.kind in ("cancel", "modify_payment"):
        return order.total
    prices = {x.product_id: (x.unit_price, x.quantity) for x in order.lines}
    if request.kind == "return":
        return round(sum(prices[i.product_id][0] * i.quantity for i in request.items), 2)
    total = 0.0
    for swap in request.swaps:
        price, held = prices[swap.product_id]
        units = swap.quantity if swap.quantity is not None else held
        total += units * (catalog.get(swap.new_product_id).price - price)
    return abs(round(total, 2)) or None
