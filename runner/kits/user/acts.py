"""Reply acts: what a user's decision engine decided, carrying exactly the facts the words may state.

A writer (templates, or a model) sees only an act, so it cannot leak what the engine did not decide
to say. An act crosses a process boundary when a model writes the words, hence versioned pydantic
models. A domain defines its own parts on `ActPartBase` and its `ReplyAct` on `ReplyActBase` with
a `parts` field over its discriminated union; the parts below are said the same way everywhere.
"""

from __future__ import annotations

from typing import Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict

__all__ = [
    "ACT_SCHEMA_VERSION",
    "AcceptedAlready",
    "ActPartBase",
    "HeldBack",
    "HoldBack",
    "NoPreferenceBase",
    "NothingFitsAck",
    "ReplyActBase",
    "SharedPart",
    "Verdict",
]

ACT_SCHEMA_VERSION: Literal[1] = 1
# What the loop reads of a reply: go on, the proposal accepted or declined, "nothing fits"
# acknowledged as correct, or the user gone.
Verdict = Literal["continue", "accept", "decline", "abstain_ok", "leave"]
# Why questions went unanswered: too many in one message, or no patience left for questions.
HeldBack = Literal["at_once", "patience"]


class ActPartBase(BaseModel):
    """One part of a reply act (frozen; each subclass has a literal `kind`)."""

    model_config = ConfigDict(extra="forbid", frozen=True)


T = TypeVar("T", bound=str)


class NoPreferenceBase(ActPartBase, Generic[T]):
    """Nothing to say about these topics (a domain names its topic type: `NoPreferenceBase[Topic]`)."""

    kind: Literal["no_preference"] = "no_preference"
    topics: list[T]


class HoldBack(ActPartBase):
    """Questions left unanswered: too many at once, or no patience left for questions."""

    kind: Literal["hold_back"] = "hold_back"
    reason: HeldBack


class NothingFitsAck(ActPartBase):
    """A neutral reply to "I found nothing" (the same whether or not the task has an answer)."""

    kind: Literal["nothing_fits_ack"] = "nothing_fits_ack"


class AcceptedAlready(ActPartBase):
    """A choice is already accepted: the user asks the agent to make it official."""

    kind: Literal["accepted_already"] = "accepted_already"


# The parts above, for a domain's discriminated union of parts (`Opening | … | SharedPart`).
SharedPart = HoldBack | NothingFitsAck | AcceptedAlready


class ReplyActBase(BaseModel):
    """One reply of the user, decided: the verdict the loop reads (a domain adds its `parts`)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    schema_version: Literal[1] = ACT_SCHEMA_VERSION
    verdict: Verdict = "continue"
