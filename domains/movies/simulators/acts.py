"""The user's reply acts: what the decision engine decided, handed to a writer to put into words.

An act carries exactly the facts its words may state (the constraints to state, the title to ask
about, the reason class of a decline) and nothing else of the task, so a writer - templates or a
model - cannot leak what the engine did not decide to say. It crosses a process boundary when a
model writes the words, hence a versioned pydantic model.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from domains.movies.tasks import Constraint
from runner.kits.user.acts import ActPartBase, NoPreferenceBase, ReplyActBase, SharedPart

__all__ = [
    "Accept",
    "ActPart",
    "AskBack",
    "Decline",
    "Inform",
    "Leave",
    "NoPreference",
    "Opening",
    "PushToCommit",
    "ReplyAct",
]


class Opening(ActPartBase):
    """The first message: a request, the persona line (if it names no value), every volunteered constraint."""

    kind: Literal["opening"] = "opening"
    persona: str | None = None
    constraints: list[Constraint] = Field(default_factory=list)


class Inform(ActPartBase):
    """An answer about one field: its constraints (plainly, or value-free when `vague`), or the services."""

    kind: Literal["inform"] = "inform"
    field: str
    constraints: list[Constraint] = Field(default_factory=list)
    vague: bool = False
    services: list[str] | None = Field(
        default=None, description="The services the user has (only when asked about services)"
    )


class NoPreference(NoPreferenceBase[str]):
    """Nothing to say about these fields (`topics`: the field names)."""


class AskBack(ActPartBase):
    """Before deciding, the user asks what a proposed title is about."""

    kind: Literal["ask_back"] = "ask_back"
    title: str


class Accept(ActPartBase):
    """The proposed title is accepted."""

    kind: Literal["accept"] = "accept"
    title: str


class Decline(ActPartBase):
    """The proposed title is declined; `constraint` is the one a hint points at (never its value)."""

    kind: Literal["decline"] = "decline"
    title: str
    reason: Literal["watched", "not_for_me", "hint", "not_on_services"]
    constraint: Constraint | None = None
    item_id: str | None = Field(default=None, description="The declined item (for the hint's side)")


class Leave(ActPartBase):
    """The user leaves: pushed a list, or out of patience."""

    kind: Literal["leave"] = "leave"
    reason: Literal["list", "declines"]


class PushToCommit(ActPartBase):
    """The user asks the agent to suggest something."""

    kind: Literal["push_to_commit"] = "push_to_commit"


ActPart = Annotated[
    Opening
    | Inform
    | NoPreference
    | AskBack
    | Accept
    | Decline
    | Leave
    | PushToCommit
    | SharedPart,
    Field(discriminator="kind"),
]


class ReplyAct(ReplyActBase):
    """One reply of the user, decided: its parts in order and the verdict the loop reads."""

    parts: list[ActPart]
