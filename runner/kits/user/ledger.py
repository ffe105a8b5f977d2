"""The decision engine's ledger and its patience rules, the same for every domain's user.

A domain's engine keeps a `Ledger` (extended with what its own rules need) rebuilt from the
conversation, and asks the kit two questions: which of the topics asked in one message the user
answers (`answerable`: a few per message, a bounded number of distinct topics in all, and none
once the agent has sent a form), and whether the user has had enough (`worn_out`: avoidable
misses, or declines of any kind, at their caps). The caps are the domain's, fixed by its task
(and seed, where a domain draws them), so honest play always fits them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import Literal, TypeVar

from runner.kits.user.acts import HeldBack

__all__ = ["Ledger", "PerMessage", "Questions", "answerable"]

T = TypeVar("T", bound=str)

# What counts against the topics answered in one message: "answered", every topic answered so
# far in it (plain facts too); "asked", every taste topic asked in it, answered or held back.
PerMessage = Literal["answered", "asked"]


@dataclass(frozen=True)
class Questions:
    """How many questions a user answers: `per_message` topics in one message (what counts is
    `counts`), `in_all` distinct topics over the conversation; `free` topics (plain facts, not
    tastes) cost nothing."""

    per_message: int
    in_all: int
    free: frozenset[str]
    counts: PerMessage


@dataclass
class Ledger:
    """What the user has been through so far: the topics it answered, whether the agent sent it a
    form, and its avoidable misses (`strikes`) and declines of any kind."""

    asked: set[str] = dataclass_field(default_factory=set)
    form: bool = False
    strikes: int = 0
    declines: int = 0

    def worn_out(self, strikes: int, declines: int) -> bool:
        """At either cap the user leaves."""
        return self.strikes >= strikes or self.declines >= declines


def answerable(
    order: Iterable[T], ledger: Ledger, questions: Questions
) -> tuple[list[T], HeldBack | None]:
    """The topics of one message (in `order`) the user answers, and why it holds the rest back.

    At most `per_message` topics are answered in one message; a message that asks more is a form,
    and from then on the user answers no topic it has not answered before. A topic not answered
    before counts against `in_all`; asking again about one (to pin down a vague answer) is free,
    and so is a `free` topic. Held back:
    "at_once" when the message asked more than one go allows, "patience" when no topic is left.
    Sets `ledger.form`; the caller records the answered topics.
    """
    free, counts = questions.free, questions.counts
    answered: list[T] = []
    fresh = 0
    seen = 0
    held: HeldBack | None = None
    for topic in order:
        if counts == "asked" and topic in free:
            answered.append(topic)
            continue
        if (seen if counts == "asked" else len(answered)) >= questions.per_message:
            held = held or "at_once"
            ledger.form = True
            break
        seen += 1
        if topic in ledger.asked or topic in free:
            answered.append(topic)
        elif ledger.form or len(ledger.asked - free) + fresh >= questions.in_all:
            held = "patience"
        else:
            answered.append(topic)
            fresh += 1
    return answered, held
