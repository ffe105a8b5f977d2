"""The shopper's decision engine: the only part that holds the task; from its ledger of needs it decides each reply act.

Its inputs are the reader's `Reading` of each agent message; its output is a `ReplyAct` for a
writer. Nothing here is random: the shopper's patience is a budget fixed by the task (turns,
avoidable misses, informative declines, questions) and the trial's needs; the trial seed may
make the shopper vague (one taste only cued, its value said when asked: `needs_of`), which an
assistant that asks about every cue wins either way.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import Any, Literal

from domains.grocery.items import Product
from domains.grocery.tasks import GroceryTask
from domains.grocery.user.acts import (
    Accept,
    ActPart,
    ConfirmOrder,
    ConfirmReturn,
    Decline,
    Done,
    Inform,
    Leave,
    NoPreference,
    NotYet,
    OneAtATime,
    Opening,
    PushToCommit,
    ReplyAct,
    Unsure,
    WhichOne,
)
from domains.grocery.user.needs import Need, needs_of, ordered_value
from domains.grocery.user.reader import Reading
from domains.grocery.user.vocabulary import FREE_TOPICS, TOPICS, Topic
from runner.kits.user.acts import AcceptedAlready, HoldBack, NothingFitsAck
from runner.kits.user.ledger import Ledger, Questions, answerable

__all__ = [
    "STANDARD_TOPICS",
    "EngineState",
    "Patience",
    "ShopperEngine",
    "cued_topics",
    "patience_of",
    "product_type",
]

# What any careful assistant asks without a cue; the opening cues every other on_ask topic.
STANDARD_TOPICS: frozenset[Topic] = frozenset({"allergies", "diet", "budget"})


@dataclass(frozen=True)
class Patience:
    """The shopper's fixed budgets for one task (no randomness: honest play always fits them).

    `topics_per_message`: taste topics answered in one message (more makes it a form, and no
    further new topics are answered); `questions`: distinct taste topics answered over the whole
    conversation (its on_ask topics plus two, at least four); `strikes`: avoidable misses it sits
    through (a product breaking what it said or an on_ask need nobody asked about, a product
    declined before, a hint ignored, a basket holding lines it never chose) before it leaves; `declines`: declines of any kind before it
    leaves (3 + 2 per hidden need); `turns`: agent messages it reads before it leaves.
    """

    topics_per_message: int
    questions: int
    strikes: int
    declines: int
    turns: int


def patience_of(task: GroceryTask, trial: int | None = None) -> Patience:
    """The patience of the shopper of `task` (in trial `trial`: a vague one cues a taste)."""
    needs = needs_of(task, trial)
    on_ask = {n.topic for n in needs if n.reveal == "on_ask"} - FREE_TOPICS
    hidden = sum(1 for n in needs if n.reveal == "hidden")
    return Patience(
        topics_per_message=3,
        questions=max(4, len(on_ask) + 2),
        strikes=2,
        declines=3 + 2 * hidden,
        turns=12 + 2 * hidden,
    )


def cued_topics(task: GroceryTask, trial: int | None = None) -> list[Topic]:
    """The on_ask topics the opening names without their values (all but the standard ones)."""
    topics = {n.topic for n in needs_of(task, trial) if n.reveal == "on_ask"}
    return [t for t in TOPICS if t in topics and t not in STANDARD_TOPICS and t != "category"]


def product_type(task: GroceryTask) -> str | None:
    """What kind of product the shopper asks for, from its category constraint."""
    for tc in task.constraints:
        c = tc.constraint
        if c.field == "categories" and c.op in ("contains", "contains_any"):
            value = c.value[0] if isinstance(c.value, list) else c.value
            return str(value).lower()
    return None


@dataclass
class EngineState(Ledger):
    """What the shopper has been through so far (rebuilt by replaying the agent's messages)."""

    turns: int = 0
    accepted: list[str] = dataclass_field(default_factory=list)
    declined: set[str] = dataclass_field(default_factory=set)
    hinted: dict[int, list[float | None]] = dataclass_field(default_factory=dict)
    confirmed_order: bool = False
    confirmed_return: bool = False


class ShopperEngine:
    """Decides the shopper's reply acts for one task."""

    def __init__(self, task: GroceryTask, catalog: Any, trial: int | None = None) -> None:
        self._task = task
        self._catalog = catalog
        self._trial = trial
        self.needs: list[Need] = needs_of(task, trial)
        self.patience = patience_of(task, trial)
        self._questions = Questions(
            self.patience.topics_per_message, self.patience.questions, FREE_TOPICS, "asked"
        )
        past = {line.product_id for o in task.past_orders for line in o.lines}
        self._referenced = past | ({task.wanted_product} if task.wanted_product else set())

    # -- the first message ------------------------------------------------------------------

    def opening(self) -> ReplyAct:
        task = self._task
        volunteered = [n for n in self.needs if n.reveal == "volunteer"]
        if task.kind == "return":
            target = task.return_target
            assert target is not None
            product = self._catalog.get(target.product_id)
            return ReplyAct(
                parts=[
                    Opening(
                        task_kind="return",
                        returning=product.name if product is not None else target.product_id,
                        order_id=target.order_id,
                        return_reason=target.reason,
                    )
                ]
            )
        wanted = None
        if task.kind == "substitution" and task.wanted_product:
            product = self._catalog.get(task.wanted_product)
            wanted = product.name if product is not None else None
        stated = [n for n in volunteered if not (n.topic == "category" and task.kind == "order")]
        return ReplyAct(
            parts=[
                Opening(
                    task_kind=task.kind,
                    product_type=product_type(task),
                    quantity=task.quantity,
                    wanted=wanted,
                    needs=stated,
                    cues=cued_topics(task, self._trial),
                )
            ]
        )

    # -- every later message ----------------------------------------------------------------

    def react(self, reading: Reading, state: EngineState) -> ReplyAct:
        """Decide the reply to one agent message, updating `state`."""
        state.turns += 1
        if state.turns > self.patience.turns:
            return ReplyAct(verdict="leave", parts=[Leave(reason="patience")])
        parts: list[ActPart] = []
        verdict: Literal["continue", "accept", "decline"] = "continue"
        act: (
            Literal["confirm_order", "confirm_return", "consent_substitution", "nothing_fits_ack"]
            | None
        ) = None

        answered, held = answerable(reading.asked, state, self._questions)
        parts += self._answers(answered, state)
        if held is not None:
            parts.append(HoldBack(reason=held))

        proposed = [p for p in reading.proposed if p not in self._referenced or p in state.accepted]
        new = [p for p in proposed if p not in state.accepted and p not in state.declined]
        again = [p for p in proposed if p in state.declined]
        # Lines first heard in a request to confirm the basket, beside what it chose or in place
        # of the product it wanted: not products to weigh but a basket it never asked for.
        unasked = (
            reading.confirm == "order"
            and bool(new)
            and self._task.kind != "return"
            and (any(p in state.accepted for p in proposed) or self._task.kind == "substitution")
        )
        if unasked:
            parts.append(NotYet(reason="not_chosen"))
            state.declined.update(new)
            state.strikes += 1
            state.declines += 1
            verdict = "decline"
        elif self._task.kind == "return" and new:
            product = self._catalog.get(new[0])
            parts.append(Decline(name=product.name, reason="not_buying"))
            state.declined.update(new)
            verdict = "decline"
        elif len(new) > 1:
            parts.append(OneAtATime())
        elif new:
            product = self._catalog.get(new[0])
            review = self._review(product, state)
            parts.append(review)
            if isinstance(review, Accept):
                state.accepted.append(product.id)
                verdict = "accept"
                if review.substitute:
                    act = "consent_substitution"
            else:
                state.declined.add(product.id)
                state.declines += 1
                verdict = "decline"
        elif again:
            product = self._catalog.get(again[0])
            state.strikes += 1
            state.declines += 1
            parts.append(Decline(name=product.name, reason="again"))
            verdict = "decline"
        elif reading.unclear and self._task.kind != "return":
            # A name several products share, with nothing said that tells them apart.
            parts.append(WhichOne(name=reading.unclear[0]))

        if reading.confirm == "order" and not new:
            part = self._confirm_order(reading, state)
            parts.append(part)
            if isinstance(part, ConfirmOrder):
                act, verdict = "confirm_order", "accept"
        elif reading.confirm == "return" and not new:
            part_r = self._confirm_return(reading, state)
            parts.append(part_r)
            if isinstance(part_r, ConfirmReturn):
                act, verdict = "confirm_return", "accept"

        if state.worn_out(self.patience.strikes, self.patience.declines):
            return ReplyAct(verdict="leave", parts=[*parts, Leave(reason="declines")])
        if not parts or (
            new and verdict == "accept" and act != "confirm_order" and reading.confirm == "order"
        ):
            idle = self._idle(reading, state)
            parts.append(idle)
            if isinstance(idle, NothingFitsAck) and act is None:
                act = "nothing_fits_ack"
        return ReplyAct(verdict=verdict, act=act, parts=parts)

    def _idle(self, reading: Reading, state: EngineState) -> ActPart:
        if reading.nothing_fits:
            return NothingFitsAck()
        if state.confirmed_order or state.confirmed_return:
            return Done()
        if state.accepted:
            return AcceptedAlready()
        return PushToCommit(task_kind=self._task.kind)

    def _confirm_order(self, reading: Reading, state: EngineState) -> ActPart:
        if self._task.kind == "return":
            return NotYet(reason="no_order")
        if not state.accepted:
            return NotYet(reason="nothing_chosen")
        others = [
            p for p in reading.proposed if p not in state.accepted and p not in self._referenced
        ]
        if others:
            return NotYet(reason="not_chosen")
        if not any(p in reading.named for p in state.accepted):
            # Asked to confirm a basket it was not shown: what is in it, and the total?
            return NotYet(reason="undescribed")
        state.confirmed_order = True
        return ConfirmOrder()

    def _confirm_return(self, reading: Reading, state: EngineState) -> ActPart:
        target = self._task.return_target
        if self._task.kind != "return" or target is None:
            return NotYet(reason="no_return")
        wanted = self._catalog.get(target.product_id)
        names = {self._catalog.get(pid).name.casefold() for pid in reading.named}
        # Two products may share a name: naming the target's name is naming the target.
        if reading.named and (wanted is None or wanted.name.casefold() not in names):
            return NotYet(reason="wrong_return")
        state.confirmed_return = True
        return ConfirmReturn()

    def _answers(self, topics: list[Topic], state: EngineState) -> list[ActPart]:
        state.asked.update(topics)
        parts: list[ActPart] = []
        nothing: list[Topic] = []
        unsure: list[Topic] = []
        for topic in TOPICS:
            if topic not in topics:
                continue
            if topic == "quantity":
                parts.append(Inform(topic="quantity", needs=[], quantity=self._task.quantity))
                continue
            mine = [n for n in self.needs if n.topic == topic]
            stated = [n for n in mine if n.reveal != "hidden"]
            if topic == "category" and self._task.kind == "order":
                stated = [n for n in stated if n.reveal != "volunteer"]
            if stated:
                parts.append(Inform(topic=topic, needs=stated))
            elif mine:
                if all(n.reveal == "hidden" for n in mine):
                    unsure.append(topic)
            else:
                nothing.append(topic)
        if nothing:
            parts.append(NoPreference(topics=nothing))
        if unsure:
            parts.append(Unsure(topics=unsure))
        return parts

    def _review(self, product: Product, state: EngineState) -> Accept | Decline:
        """Accept a product meeting every need; else decline, saying no more than it may."""
        for index, need in enumerate(self.needs):
            if need.holds(product):
                continue
            told = need.reveal == "volunteer" or (
                need.reveal == "on_ask" and need.topic in state.asked
            )
            if told:
                state.strikes += 1
                return Decline(name=product.name, reason="broken", need=need)
            if need.reveal == "on_ask":
                state.strikes += 1
                return Decline(name=product.name, reason="not_for_me")
            value = ordered_value(need, product)
            earlier = state.hinted.setdefault(index, [])
            if earlier and (value is None or any(v is not None and value >= v for v in earlier)):
                state.strikes += 1
            earlier.append(value)
            direction: Literal["lower", "higher", "better", "other", "farming", "trade"] = (
                "lower" if need.field == "price" else "better" if value is not None else "other"
            )
            if need.field == "price" and need.constraint is not None and need.constraint.op == ">=":
                direction = "higher"  # a floor: it wants something less basic
            if need.field == "labels" and need.constraint is not None:
                direction = "trade" if "fair-trade" in str(need.constraint.value) else "farming"
            return Decline(name=product.name, reason="hint", topic=need.topic, direction=direction)
        substitute = self._task.kind == "substitution" and product.id != self._task.wanted_product
        return Accept(name=product.name, substitute=substitute)
