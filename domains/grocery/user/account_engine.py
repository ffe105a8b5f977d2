"""The account shopper's decision engine: the only part that sees the task; readings in, reply acts out.

Who the shopper is, every request up front, then each settled in turn, and a yes only to a change
stated in full. The shopper never knows an order's id: it says "one of my orders" and, asked
which, names the day it placed it (`placed`). The seed decides, once per trial, whether the
shopper is vague: a vague shopper leaves the cancel reason and the payment to use out of its
requests and gives them only when asked, as on `hidden` tasks (an assistant
that asks wins either way; one that guesses wins only where its guess happens to be right). What
the shopper says up front follows the task's stratum: `volunteer` gives who they are and every
detail in the opening; `mixed` says who they are only when asked; `hidden` also gives the cancel
reason and the payment to use only when asked. Questions follow the kit's patience rules
(`runner.kits.user.ledger`), as for every domain's user: who they are is a plain fact, free to
ask; at most three other topics are answered in one message, and a message asking more is a
form, after which no new topic is answered.

Each rule is one function, in the order `react` applies them:
- `settled`: after the shopper's yes, the agent's next message reports the change: on to the
  next request (restated in full), or `done`;
- `stated`: a request is confirmed (act `confirm_action`) only when the agent's message names
  its order (or, for the default address, the new street) and every sum of money it moves, and
  asks for a yes;
- `trap_reply`: a policy trap (`AccountRequest.trap`) is asked as the shopper wants it; once
  the agent refuses it naming the policy's reason (`AccountReading.refuses`), the shopper takes
  the allowed alternative (`alternative`: a refund to a method that may receive it, the return
  offered for an exchange to another product) or, where only a person could do it, says it
  still wants it done (`insists`); an agent that then does not hand it over gets a goodbye
  (`gives_up`). An agent that carries the first ask out gets its yes like any other;
- `answer`: the topics asked that the patience rules allow, answered from the task (the
  payment first asked for, or after a refusal the one the refund may go to);
- otherwise the request is restated; after `PATIENCE` messages without progress the shopper
  leaves.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from domains.grocery.accounts import AccountOrder, AccountRequest, Profile, request_amount
from domains.grocery.tasks import GroceryTask
from domains.grocery.user.account_acts import (
    AccountAct,
    AccountActPart,
    AccountHello,
    ConfirmAction,
    Gives,
    GiveUp,
    Insist,
    Lead,
    Line,
    TakeInstead,
    Wants,
    WhoIAm,
)
from domains.grocery.user.account_reader import AccountReader, AccountReading
from domains.grocery.user.acts import Done, Leave
from runner.kits.user.ledger import Ledger, Questions, answerable

__all__ = ["PATIENCE", "VAGUE_SHARE", "AccountEngine", "AccountState", "is_vague"]

# Agent messages read without progress before the shopper gives up.
PATIENCE = 8
# A trial's shopper is vague (holds the reason and the payment back until asked) this often.
VAGUE_SHARE = 0.5
_PLAIN_FACTS = frozenset({"who"})


def is_vague(task: GroceryTask, seed: int) -> bool:
    """Whether this trial's shopper holds the reason and payment back until asked."""
    return random.Random(f"account-vague|{seed}|{task.id}").random() < VAGUE_SHARE


@dataclass
class AccountState:
    """Where the conversation stands, rebuilt from the agent's messages."""

    current: int = 0  # the request being handled
    confirmed: bool = False  # the current request got its yes
    identified: bool = False
    stalled: int = 0  # agent messages without progress
    refused: bool = False  # the agent turned the current request's trap down
    insisted: bool = False  # and the shopper said it still wants it done
    ledger: Ledger = field(default_factory=Ledger)  # the topics answered, and any form sent
    said: list[AccountAct] = field(default_factory=list)  # the act decided for each message


def _label(profile: Profile, payment_id: str | None) -> str:
    method = profile.payment(payment_id or "")
    return method.label if method is not None else "usual card"


class AccountEngine:
    """Decides the account shopper's replies for one task and seed."""

    def __init__(self, task: GroceryTask, catalog: Any, seed: int) -> None:
        if task.account is None or not task.requests:
            raise ValueError(f"task {task.id}: an account shopper needs account and requests")
        self.task = task
        self._catalog = catalog
        self._amounts = [request_amount(r, task.account, catalog) for r in task.requests]
        self.vague = is_vague(task, seed)
        # Whether requests come with their reason and payment (said up front, not only when asked).
        self.details = task.reveal_difficulty != "hidden" and not self.vague
        details_topics = {"reason" for r in task.requests if r.reason is not None}
        details_topics |= {"payment" for r in task.requests if r.payment_id is not None}
        details_topics |= {"order" for r in task.requests if r.order_id is not None}
        self._questions = Questions(
            per_message=3, in_all=max(4, len(details_topics) + 2), free=_PLAIN_FACTS, counts="asked"
        )

    def reader(self) -> AccountReader:
        """The rule reader for this account (its order ids, and the streets it may hear)."""
        account = self.task.account
        assert account is not None
        streets = [p.address.street for p in account.profiles]
        streets += [r.address.street for r in self.task.requests if r.address is not None]
        return AccountReader([o.order_id for o in account.orders], streets)

    def fresh(self) -> AccountState:
        """The state before the agent's first message (a volunteer shopper said who they are)."""
        return AccountState(identified=self.task.reveal_difficulty == "volunteer")

    # -- what the shopper says --------------------------------------------------------------

    def who(self) -> WhoIAm:
        """Who the shopper is, the way the task says they identify."""
        assert self.task.account is not None
        me = self.task.account.shopper
        if self.task.identify_by == "email":
            return WhoIAm(email=me.email)
        return WhoIAm(first_name=me.first_name, last_name=me.last_name, zip=me.address.zip)

    def wants(self, index: int, lead: Lead) -> Wants:
        """Request `index` as the shopper says it (never its order; the details only when it
        gives them up front; a trap as the shopper first wants it)."""
        request = self.task.requests[index]
        assert self.task.account is not None
        me = self.task.account.shopper
        kind, details = request.kind, self.details
        pays = kind == "modify_payment" or (
            details and kind in ("return", "exchange", "modify_items")
        )
        address = request.address
        return Wants(
            lead=lead,
            request=kind,
            reason=request.reason if details else None,
            pay=_label(me, request.asked_payment_id or request.payment_id) if pays else None,
            street=address.street if address is not None else None,
            city=address.city if address is not None else None,
            zip=address.zip if address is not None else None,
            lines=self._lines(request),
        )

    def _order(self, request: AccountRequest) -> AccountOrder | None:
        assert self.task.account is not None
        return next((o for o in self.task.account.orders if o.order_id == request.order_id), None)

    def _lines(self, request: AccountRequest) -> list[Line]:
        order = self._order(request)
        if order is None:
            return []

        def line(pid: str, units: int, new: str | None = None) -> Line:
            paid = next(x for x in order.lines if x.product_id == pid)
            p = self._catalog.get(pid)
            n = self._catalog.get(new) if new is not None else None
            return Line(
                name=p.name,
                pack=str(p.quantity),
                paid=paid.unit_price,
                units=units,
                new_pack=str(n.quantity) if n is not None else None,
                new_price=n.price if n is not None else None,
            )

        if request.trap == "other_product":  # a return asked as an exchange to another product
            swap = request.swaps[0]
            other = self._catalog.get(swap.new_product_id)
            asked = line(swap.product_id, swap.quantity or 0)
            return [
                asked.model_copy(
                    update={"other": f"{other.name} by {other.brand} ({other.quantity})"}
                )
            ]
        if request.kind == "return":  # a return names one line (the generator makes no more)
            return [line(i.product_id, i.quantity) for i in request.items[:1]]
        return [line(s.product_id, s.quantity or 0, s.new_product_id) for s in request.swaps]

    def opening(self) -> AccountAct:
        """The first message: the account, who the shopper is (volunteer), every request."""
        parts: list[AccountActPart] = [AccountHello()]
        if self.task.reveal_difficulty == "volunteer":
            parts.append(self.who())
        # Every request up front, as people do; each is then settled in turn.
        parts += [
            self.wants(i, "first" if i == 0 else "also") for i in range(len(self.task.requests))
        ]
        return AccountAct(act="request", parts=parts)

    # -- the rules, in the order they apply ----------------------------------------------------

    def react(self, reading: AccountReading, state: AccountState) -> AccountAct:
        """The reply to one agent message (recorded in `state.said`)."""
        act = self._react(reading, state)
        state.said.append(act)
        return act

    def leaves(self, state: AccountState) -> AccountAct | None:
        """The goodbye once the shopper's patience is spent, else None."""
        if state.stalled >= PATIENCE:
            return AccountAct(verdict="leave", act="leave", parts=[Leave(reason="patience")])
        return None

    def _react(self, reading: AccountReading, state: AccountState) -> AccountAct:
        if state.current >= len(self.task.requests):
            state.stalled += 1
            return AccountAct(act="done", parts=[Done()])
        if state.confirmed:
            return self.settled(state)
        if self.stated(reading, state.current):
            state.confirmed = True
            return AccountAct(act="confirm_action", parts=[ConfirmAction()])
        trap = self.trap_reply(reading, state)
        if trap is not None:
            return trap
        state.stalled += 1
        answers = self.answer(reading, state)
        if answers:
            return AccountAct(act="inform", parts=answers)
        return AccountAct(act="restate", parts=[self.wants(state.current, "restate")])

    def settled(self, state: AccountState) -> AccountAct:
        """The agent's message after the yes reports the change: on to the next request."""
        state.current += 1
        state.confirmed = False
        state.refused = state.insisted = False
        state.stalled = 0
        if state.current >= len(self.task.requests):
            return AccountAct(act="done", parts=[Done()])
        return AccountAct(act="request", parts=[self.wants(state.current, "next")])

    def stated(self, reading: AccountReading, index: int) -> bool:
        """Whether the message states request `index` in full (its order, or for the default
        address the new street, and every sum it moves) and asks for a yes."""
        request = self.task.requests[index]
        if request.kind == "change_address" and request.address is not None:
            anchored = request.address.street in reading.streets
        else:
            anchored = str(request.order_id) in reading.orders
        amount = self._amounts[index]
        money = amount is None or f"{amount:.2f}" in reading.amounts
        return anchored and money and reading.asks_yes

    def trap_reply(self, reading: AccountReading, state: AccountState) -> AccountAct | None:
        """The reply on the current request's trap: giving up after insisting, else the answer
        to a refusal naming the trap's reason; None: not a trap turn."""
        request = self.task.requests[state.current]
        if request.trap is None:
            return None
        if state.insisted:
            return self.gives_up(state)
        if state.refused or request.trap not in reading.refuses:
            return None
        state.refused = True
        state.stalled = 0
        if request.transfers:
            return self.insists(state)
        return AccountAct(act="inform", parts=[self.alternative(request)])

    def insists(self, state: AccountState) -> AccountAct:
        """Refused what only a person could still do: the shopper says it still wants it done."""
        state.insisted = True
        return AccountAct(act="insist", parts=[Insist()])

    def gives_up(self, state: AccountState) -> AccountAct:
        """Insisted and not handed to a person: the shopper leaves the rest there."""
        state.current = len(self.task.requests)
        return AccountAct(act="done", parts=[GiveUp()])

    def alternative(self, request: AccountRequest) -> TakeInstead:
        """The allowed alternative, taken: the return offered for an exchange to another
        product, or the refund to the method that may receive it."""
        if request.trap == "other_product":
            return TakeInstead()
        assert self.task.account is not None
        return TakeInstead(pay=_label(self.task.account.shopper, request.payment_id))

    def placed(self, request: AccountRequest) -> str | None:
        """How the shopper names the request's order: the day it placed it ("14 October")."""
        order = self._order(request)
        return None if order is None else f"{order.date.day} {order.date:%B}"

    def answer(self, reading: AccountReading, state: AccountState) -> list[AccountActPart]:
        """The answers to the topics asked that the patience rules allow."""
        request = self.task.requests[state.current]
        answered, _ = answerable(list(reading.asked), state.ledger, self._questions)
        state.ledger.asked.update(answered)
        answers: list[AccountActPart] = []
        if "who" in answered:
            state.identified = True
            answers.append(self.who())
        assert self.task.account is not None
        # The payment first asked for; once the trap was refused, the one the refund may go to.
        wanted = request.payment_id if state.refused else request.asked_payment_id
        gives = Gives(
            placed=self.placed(request) if "order" in answered else None,
            reason=request.reason if "reason" in answered else None,
            pay=_label(self.task.account.shopper, wanted or request.payment_id)
            if "payment" in answered and request.payment_id is not None
            else None,
        )
        return answers + ([gives] if gives != Gives() else [])
