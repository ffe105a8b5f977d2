"""The account shopper's reply acts: what its decision engine decided, carrying exactly the facts the words may state.

A writer (the grammar, or a model) sees only these: no act carries an order id (the shopper never
knows one: it says "one of my orders" and, asked which, the day it placed it), a cancel reason or
a payment only when it is volunteered or asked for, who the shopper is only when it is
volunteered or asked for. No act carries the money a request moves: the agent states it, the
shopper never does. On a policy trap the shopper takes the alternative the agent offered
(`TakeInstead`), or says it still wants it done (`Insist`) and then leaves it (`GiveUp`).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from domains.grocery.accounts import CancelReason, RequestKind
from domains.grocery.user.acts import Done, Leave
from runner.kits.user.acts import ActPartBase, ReplyActBase

__all__ = [
    "AccountAct",
    "AccountActPart",
    "AccountHello",
    "ConfirmAction",
    "GiveUp",
    "Gives",
    "Insist",
    "Lead",
    "Line",
    "TakeInstead",
    "Wants",
    "WhoIAm",
]

# What the loop records of a reply (the scorer reads `confirm_action` as consent).
# Where a request is said: first in the opening, one more in it, after the last one was
# settled, or again when the agent's message moved nothing forward.
Lead = Literal["first", "also", "next", "restate"]
AccountActName = Literal[
    "request", "confirm_action", "inform", "insist", "restate", "done", "leave"
]


class AccountHello(ActPartBase):
    """The opening line: the shopper needs help with their account."""

    kind: Literal["account_hello"] = "account_hello"


class WhoIAm(ActPartBase):
    """Who the shopper is: the email, or the full name and zip code."""

    kind: Literal["who_i_am"] = "who_i_am"
    email: str | None = None
    first_name: str = ""
    last_name: str = ""
    zip: str = ""


class Line(ActPartBase):
    """One order line named in a request: the product, its pack and the unit price paid; with
    `units` for a return or exchange, the new pack and its price for a swap, and `other` (the
    product's name, brand and pack) for an exchange to a different product."""

    name: str
    pack: str
    paid: float
    units: int = 1
    new_pack: str | None = None
    new_price: float | None = None
    other: str | None = None


class Wants(ActPartBase):
    """One request, as said: its kind and the facts the shopper gives with it.

    `lead` places it: the `first` of the opening, `also` one more in the opening, `next` after
    the previous request is settled, `restate` when the agent's message moved nothing forward.
    No order id: the shopper says "one of my orders". `reason` and `pay` are set only when the
    shopper gives them with the request (`pay` is always the new payment of a `modify_payment`,
    and for a refund the method the shopper first wants). A return whose line has `other` is
    asked as an exchange for that other product.
    """

    kind: Literal["wants"] = "wants"
    lead: Lead
    request: RequestKind
    reason: CancelReason | None = None
    pay: str | None = Field(default=None, description="The payment method's label")
    street: str | None = None
    city: str | None = None
    zip: str | None = None
    lines: list[Line] = Field(default_factory=list)


class Gives(ActPartBase):
    """The answers to "which order?" (the day the shopper placed it, as "14 October"), "why?"
    and "which payment method?", in that order (each None when not asked, or not the
    shopper's to give)."""

    kind: Literal["gives"] = "gives"
    placed: str | None = None
    reason: CancelReason | None = None
    pay: str | None = Field(default=None, description="The payment method's label")


class ConfirmAction(ActPartBase):
    """The explicit yes to the change the agent stated in full (act `confirm_action`)."""

    kind: Literal["confirm_action"] = "confirm_action"


class TakeInstead(ActPartBase):
    """The allowed alternative the agent offered on refusing a trap, taken: a refund to `pay`
    (a method that may receive it) or, with no `pay`, the return instead of an exchange."""

    kind: Literal["take_instead"] = "take_instead"
    pay: str | None = Field(default=None, description="The payment method's label")


class Insist(ActPartBase):
    """Refused with no alternative, the shopper still wants it done (act `insist`)."""

    kind: Literal["insist"] = "insist"


class GiveUp(ActPartBase):
    """Not handed to a person after insisting, the shopper leaves it there (act `done`)."""

    kind: Literal["give_up"] = "give_up"


AccountActPart = Annotated[
    AccountHello
    | WhoIAm
    | Wants
    | Gives
    | ConfirmAction
    | TakeInstead
    | Insist
    | GiveUp
    | Done
    | Leave,
    Field(discriminator="kind"),
]


class AccountAct(ReplyActBase):
    """One reply of the account shopper, decided: its parts in order, the verdict and the act."""

    act: AccountActName | None = None
    parts: list[AccountActPart]
