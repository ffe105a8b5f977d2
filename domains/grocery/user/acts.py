"""The shopper's reply acts: what the decision engine decided, carrying exactly the facts the words may state.

A writer (templates, or a model) sees only these, so it cannot leak what the engine did not decide
to say: an `Inform` carries the needs it may state; a `Decline` with reason `hint` carries only the
topic and a direction, never the value.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from domains.grocery.user.needs import Need
from domains.grocery.user.vocabulary import Topic
from runner.kits.user.acts import ActPartBase, NoPreferenceBase, ReplyActBase, SharedPart

__all__ = [
    "Accept",
    "ActPart",
    "ConfirmOrder",
    "ConfirmReturn",
    "Decline",
    "Done",
    "Inform",
    "Leave",
    "NoPreference",
    "NotYet",
    "OneAtATime",
    "Opening",
    "PushToCommit",
    "ReplyAct",
    "Unsure",
    "WhichOne",
]


class Opening(ActPartBase):
    """The first message: what the shopper wants done, the needs it volunteers, topic cues."""

    kind: Literal["opening"] = "opening"
    task_kind: Literal["order", "return", "substitution"]
    product_type: str | None = Field(default=None, description="e.g. 'breakfast cereal'")
    quantity: int = 1
    wanted: str | None = Field(default=None, description="The usual product (substitution)")
    returning: str | None = Field(default=None, description="The product to return")
    order_id: str | None = None
    return_reason: str | None = None
    needs: list[Need] = Field(default_factory=list)
    cues: list[Topic] = Field(default_factory=list, description="Topics named, values unsaid")


class Inform(ActPartBase):
    """An answer about one topic, stating its needs plainly."""

    kind: Literal["inform"] = "inform"
    topic: Topic
    needs: list[Need]
    quantity: int | None = Field(default=None, description="Packs wanted (topic `quantity`)")


class NoPreference(NoPreferenceBase[Topic]):
    """Nothing to say about these topics."""


class Unsure(ActPartBase):
    """Asked about a topic it will not spell out (hidden): it will know it when it sees it."""

    kind: Literal["unsure"] = "unsure"
    topics: list[Topic]


class Accept(ActPartBase):
    """The proposed product is accepted (as a substitute, in a substitution task)."""

    kind: Literal["accept"] = "accept"
    name: str
    substitute: bool = False


class Decline(ActPartBase):
    """The proposed product is declined.

    `broken`: it misses a need already stated (`need` may be restated); `hint`: it misses a need
    not stated (only the topic and `direction` may be said); `not_for_me`: it misses an on_ask
    need nobody asked about; `again`: it was declined before; `not_buying`: a return task.
    """

    kind: Literal["decline"] = "decline"
    name: str
    reason: Literal["broken", "hint", "not_for_me", "again", "not_buying"]
    need: Need | None = None
    topic: Topic | None = None
    direction: Literal["lower", "higher", "better", "other", "farming", "trade", "none"] = "none"


class OneAtATime(ActPartBase):
    """Several new products at once: the shopper asks for the single best one."""

    kind: Literal["one_at_a_time"] = "one_at_a_time"


class WhichOne(ActPartBase):
    """A product name that fits several products (brands or sizes): the shopper asks which one."""

    kind: Literal["which_one"] = "which_one"
    name: str


class ConfirmOrder(ActPartBase):
    """The explicit yes to placing the basket the agent described (act `confirm_order`)."""

    kind: Literal["confirm_order"] = "confirm_order"


class ConfirmReturn(ActPartBase):
    """The explicit yes to the return the agent described (act `confirm_return`)."""

    kind: Literal["confirm_return"] = "confirm_return"


class NotYet(ActPartBase):
    """Asked to confirm something it has not agreed to."""

    kind: Literal["not_yet"] = "not_yet"
    reason: Literal[
        "nothing_chosen", "not_chosen", "wrong_return", "no_order", "no_return", "undescribed"
    ]


class PushToCommit(ActPartBase):
    """The shopper asks the agent to move on (suggest a product, or sort out the return)."""

    kind: Literal["push_to_commit"] = "push_to_commit"
    task_kind: Literal["order", "return", "substitution"] = "order"


class Done(ActPartBase):
    """Everything the shopper came for is agreed and done."""

    kind: Literal["done"] = "done"


class Leave(ActPartBase):
    """The shopper leaves: too many avoidable misses, or out of turns."""

    kind: Literal["leave"] = "leave"
    reason: Literal["declines", "patience"]


ActPart = Annotated[
    Opening
    | Inform
    | NoPreference
    | Unsure
    | Accept
    | Decline
    | OneAtATime
    | WhichOne
    | ConfirmOrder
    | ConfirmReturn
    | NotYet
    | PushToCommit
    | Done
    | Leave
    | SharedPart,
    Field(discriminator="kind"),
]


class ReplyAct(ReplyActBase):
    """One reply of the shopper, decided: its parts in order, the verdict and the scored act."""

    act: (
        Literal["confirm_order", "confirm_return", "consent_substitution", "nothing_fits_ack"]
        | None
    ) = None
    parts: list[ActPart]
