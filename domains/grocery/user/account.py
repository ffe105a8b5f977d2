"""The scripted account shopper: who they are, every request up front, then each settled in turn, and a yes only to a change stated in full.

Decisions are a pure function of (task, catalog, seed, the agent's messages): each reply
re-reads the whole conversation. The seed picks the words (a per-turn rng) and, once per trial,
whether the shopper is vague: a vague shopper leaves the cancel reason and the payment to use
out of its requests and gives them only when asked, as on `hidden` tasks (an assistant that
asks wins either way; one that guesses wins only where its guess happens to be right). What the
shopper says up front follows the task's stratum: `volunteer` gives who they are and every
detail in the opening; `mixed` says who they are only when asked; `hidden` also gives the
cancel reason and the payment to use only when asked. Questions follow the kit's patience rules
(`runner.kits.user.ledger`), as for every domain's user: who they are is a plain fact, free to
ask; at most three other topics are answered in one message, and a message asking more is a
form, after which no new topic is answered. A
request is confirmed (act `confirm_action`) only when the agent's question names its order (or,
for the default address, the new street) and every sum of money it moves; after the agent's
next message the shopper restates the next request, or says that is all (act `done`).

The shopper never knows an order's id: it says "one of my orders" and, asked which, names the
day it placed it. A policy trap (`AccountRequest.trap`) is asked as the shopper wants it; once
the agent refuses it, naming why (`_refuses`), the shopper takes the allowed alternative (a
refund to a method that may receive it, the return offered for an exchange to another product)
or says it still wants it done (the agent should then
transfer it to a person); an agent that carries the first ask out gets its yes like any other.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any

from domains.grocery.accounts import AccountOrder, AccountRequest, Profile, request_amount
from domains.grocery.policies import CONFIRM_ACTION
from domains.grocery.tasks import GroceryTask
from runner.core.protocols import UserTurn
from runner.core.transcript import ComponentSpec, MessageEvent
from runner.kits.user.ledger import Ledger, Questions, answerable

__all__ = ["ACCOUNT_OPENERS", "AccountShopper", "describe_request"]

# Every account opening names "my account" (how an assistant can tell it from a purchase).
ACCOUNT_OPENERS = (
    "Hi, I need some help with my account.",
    "Hello, I'd like to sort something out on my account.",
    "Hi there, a question about my account.",
)
_REASONS = {
    "no_longer_needed": "I no longer need it",
    "ordered_by_mistake": "I ordered it by mistake",
}
_YES = ("Yes, please go ahead.", "Yes, that's right, go ahead.", "Correct, please do that.")
_NEXT = ("Thanks. Now the next one:", "Great, thank you. Next:", "Thanks! Then:")
_ALSO = ("Also:", "And one more thing:", "Besides that:")
_DONE = ("That's everything, thank you!", "That's all I needed, thanks.")
_LEAVE = "This is taking too long; I'll sort it out another time."
# Agent messages read without progress before the shopper gives up.
PATIENCE = 8

_ASKS_WHO = re.compile(r"\b(e-?mail|zip|post ?code|full name|your name)\b", re.I)
_ASKS_REASON = re.compile(r"\b(reason|why)\b", re.I)
_ASKS_PAYMENT = re.compile(r"\b(which|what) (payment|card|method)\b|\bpay(ment)? method\b", re.I)
# The account topics an assistant may ask about, in the order a message is read.
_ASKS = {
    "who": _ASKS_WHO,
    "order": re.compile(r"\b(which|what) order\b|\border (id|number)\b", re.I),
    "items": re.compile(r"\b(which|what) (items?|products?|sizes?)\b", re.I),
    "address": re.compile(r"\b(new|which|what) address\b", re.I),
    "reason": _ASKS_REASON,
    "payment": _ASKS_PAYMENT,
}
_PLAIN_FACTS = frozenset({"who"})
# A refusal of a trap: a negation and the reason the policy gives for that trap.
_REFUSAL = re.compile(
    r"\b(cannot|can ?not|can't|can no longer|couldn't|could not|not possible|unable|only)\b", re.I
)
_TRAP_REASONS = {
    "processed": re.compile(r"\bprocessed\b|on its way", re.I),
    "past_window": re.compile(r"\b30[- ]?days?\b|\bwindow\b", re.I),
    "modified_once": re.compile(r"\bonce\b|\balready\b", re.I),
    "refund_elsewhere": re.compile(r"\boriginal\b|\bpaid (?:the|that|this) order\b", re.I),
    # Not a variant, and the return offered instead.
    "other_product": re.compile(r"(?=.*\b(?:same product|variant))(?=.*\breturn)", re.I | re.S),
}
_INSIST = ("I understand, but I really need this sorted out.", "I see, but I still need it done.")
_GIVE_UP = ("Alright, I'll leave it there then. That's all.", "Fine, that's all for today then.")
# A trial's shopper is vague (holds the reason and the payment back until asked) this often.
VAGUE_SHARE = 0.5
_CONFIRM_WORDS = re.compile(
    r"\b(confirm|go ahead|proceed|shall i|should i|ok to|okay to|do you want me to)\b", re.I
)


def _label(profile: Profile, payment_id: str | None) -> str:
    method = profile.payment(payment_id or "")
    return method.label if method is not None else "usual card"


def _placed(order: AccountOrder) -> str:
    """How the shopper names an order: the day it placed it."""
    return f"the order I placed on {order.date.day} {order.date:%B}"


def _refuses(text: str, request: AccountRequest) -> bool:
    """Whether an agent message turns the request's trap down, naming the policy's reason."""
    cue = _TRAP_REASONS.get(str(request.trap))
    return cue is not None and bool(_REFUSAL.search(text)) and bool(cue.search(text))


def _who(task: GroceryTask) -> str:
    assert task.account is not None
    me = task.account.shopper
    if task.identify_by == "email":
        return f"My email is {me.email}."
    return f"I'm {me.first_name} {me.last_name}, zip code {me.address.zip}."


def describe_request(
    request: AccountRequest, task: GroceryTask, catalog: Any, details: bool, vague: bool = False
) -> str:
    """The request in the shopper's words (with the reason or payment when `details`). It never
    names the order (the shopper gives its date when asked); `vague` is kept for callers and
    changes nothing more than `details` does. A trap is asked as the shopper first wants it."""
    del vague
    assert task.account is not None
    me = task.account.shopper
    order = next((o for o in task.account.orders if o.order_id == request.order_id), None)
    pay = _label(me, request.asked_payment_id or request.payment_id)

    def pack(pid: str) -> str:
        p = catalog.get(pid)
        return f"the {p.quantity} pack at €{p.price:.2f}"

    def paid(pid: str) -> str:
        assert order is not None
        line = next(x for x in order.lines if x.product_id == pid)
        p = catalog.get(pid)
        return f"{p.name} ({p.quantity}, €{line.unit_price:.2f})"

    kind = request.kind
    if kind == "cancel":
        text = "I'd like to cancel one of my orders"
        return text + (f", because {_REASONS[str(request.reason)]}." if details else ".")
    if kind == "modify_address":
        a = request.address
        assert a is not None
        return f"Please send one of my orders to {a.street}, {a.city} {a.zip} instead."
    if kind == "change_address":
        a = request.address
        assert a is not None
        return f"Please change my default address to {a.street}, {a.city} {a.zip}."
    if kind == "modify_payment":
        return f"I'd like to pay one of my orders with my {pay} instead."
    if kind == "return" and request.trap == "other_product":
        swap = request.swaps[0]
        other = catalog.get(swap.new_product_id)
        text = (
            f"From one of my orders, I'd like to exchange {swap.quantity} of the "
            f"{paid(swap.product_id)} for the {other.name} by {other.brand} ({other.quantity})"
        )
        return text + (f"; any difference goes on my {pay}." if details else ".")
    if kind == "return":
        item = request.items[0]
        text = (
            f"I want to return {item.quantity} of the {paid(item.product_id)} from one of my orders"
        )
        return text + (f"; please refund it to my {pay}." if details else ".")
    swaps = "; and ".join(
        (
            f"{s.quantity} of the {paid(s.product_id)} for {pack(s.new_product_id)}"
            if kind == "exchange"
            else f"the {paid(s.product_id)} to {pack(s.new_product_id)}"
        )
        for s in request.swaps
    )
    if kind == "exchange":
        text = f"From one of my orders, I'd like to exchange {swaps}"
    else:
        text = f"In one of my orders, I'd like to change {swaps}"
    return text + (f"; any difference goes on my {pay}." if details else ".")


@dataclass
class _State:
    """Where the conversation stands, rebuilt from the agent's messages."""

    current: int = 0  # the request being handled
    confirmed: bool = False  # the current request got its yes
    identified: bool = False
    stalled: int = 0  # agent messages without progress
    refused: bool = False  # the agent turned the current request's trap down
    insisted: bool = False  # and the shopper said it still wants it done
    ledger: Ledger = field(default_factory=Ledger)  # the topics answered, and any form sent


class AccountShopper:
    """A shopper with account requests (a `UserSimulator`)."""

    def __init__(self, task: GroceryTask, catalog: Any, seed: int) -> None:
        if task.account is None or not task.requests:
            raise ValueError(f"task {task.id}: an account shopper needs account and requests")
        self._task = task
        self._catalog = catalog
        self._seed = seed
        self._amounts = [request_amount(r, task.account, catalog) for r in task.requests]
        vague = random.Random(f"account-vague|{seed}|{task.id}").random() < VAGUE_SHARE
        # Whether requests come with their reason and payment (said up front, not only when asked).
        self._details = task.reveal_difficulty != "hidden" and not vague
        self._vague = vague
        details_topics = {"reason" for r in task.requests if r.reason is not None}
        details_topics |= {"payment" for r in task.requests if r.payment_id is not None}
        details_topics |= {"order" for r in task.requests if r.order_id is not None}
        self._questions = Questions(
            per_message=3, in_all=max(4, len(details_topics) + 2), free=_PLAIN_FACTS, counts="asked"
        )

    @property
    def vague(self) -> bool:
        """Whether this trial's shopper holds back the order, reason and payment until asked."""
        return self._vague

    @property
    def spec(self) -> ComponentSpec:
        return ComponentSpec(name="scripted")

    async def respond(self, conversation: list[MessageEvent]) -> UserTurn:
        return self.reply(conversation)

    def _stated(self, text: str, index: int) -> bool:
        """Whether an agent message states request `index` in full and asks for a yes."""
        request = self._task.requests[index]
        anchor = (
            request.address.street
            if request.kind == "change_address" and request.address is not None
            else str(request.order_id)
        )
        amount = self._amounts[index]
        money = amount is None or f"{amount:.2f}" in text
        return anchor in text and money and "?" in text and bool(_CONFIRM_WORDS.search(text))

    def reply(self, conversation: list[MessageEvent]) -> UserTurn:
        task = self._task
        agent = [e.content for e in conversation if e.role == "agent"]
        turn = sum(1 for e in conversation if e.role == "user")
        rng = random.Random(f"account|{self._seed}|{task.id}|{turn}")
        volunteer = task.reveal_difficulty == "volunteer"
        details = self._details
        if turn == 0:
            parts = [rng.choice(ACCOUNT_OPENERS)]
            if volunteer:
                parts.append(_who(task))
            # Every request up front, as people do; each is then settled in turn.
            for i, request in enumerate(task.requests):
                text = describe_request(request, task, self._catalog, details, self._vague)
                parts.append(text if i == 0 else f"{rng.choice(_ALSO)} {text}")
            return UserTurn(content=" ".join(parts), act="request")
        state = _State(identified=volunteer)
        said: tuple[str, str | None] = ("", None)
        for text in agent[1:]:  # the greeting was answered by the opening
            said = self._react(text, state, rng)
        if state.stalled >= PATIENCE:
            return UserTurn(content=_LEAVE, verdict="leave", act="leave")
        return UserTurn(content=said[0], act=said[1])

    def _react(self, text: str, state: _State, rng: random.Random) -> tuple[str, str | None]:
        task = self._task
        if state.current >= len(task.requests):
            state.stalled += 1
            return rng.choice(_DONE), "done"
        request = task.requests[state.current]
        if state.confirmed:
            # The agent's message after the yes reports the change: on to the next request.
            state.current += 1
            state.confirmed = False
            state.refused = state.insisted = False
            state.stalled = 0
            if state.current >= len(task.requests):
                return rng.choice(_DONE), "done"
            following = describe_request(
                task.requests[state.current], task, self._catalog, self._details, self._vague
            )
            return f"{rng.choice(_NEXT)} {following}", "request"
        if self._stated(text, state.current):
            state.confirmed = True
            return rng.choice(_YES), CONFIRM_ACTION
        trap_reply = self._trap_reply(text, request, state, rng)
        if trap_reply is not None:
            return trap_reply
        state.stalled += 1
        asked = sorted(
            (m.start(), topic) for topic, rx in _ASKS.items() if (m := rx.search(text)) is not None
        )
        answered, _ = answerable([t for _, t in asked], state.ledger, self._questions)
        state.ledger.asked.update(answered)
        assert task.account is not None
        answers = []
        if "who" in answered:
            state.identified = True
            answers.append(_who(task))
        order = next((o for o in task.account.orders if o.order_id == request.order_id), None)
        if "order" in answered and order is not None:
            answers.append(f"It's {_placed(order)}.")
        if "reason" in answered and request.reason is not None:
            answers.append(f"It's because {_REASONS[request.reason]}.")
        if "payment" in answered and request.payment_id is not None:
            wanted = request.payment_id if state.refused else request.asked_payment_id
            pay = _label(task.account.shopper, wanted or request.payment_id)
            answers.append(f"Please use my {pay}.")
        if answers:
            return " ".join(answers), "inform"
        restated = describe_request(request, task, self._catalog, self._details, self._vague)
        return f"Sorry, to be clear: {restated}", "restate"

    def _trap_reply(
        self, text: str, request: AccountRequest, state: _State, rng: random.Random
    ) -> tuple[str, str | None] | None:
        """The shopper's answer on a trap: the allowed alternative or insisting once refused,
        then (a transfer trap the agent did not hand over) giving up; None: not a trap turn."""
        if request.trap is None:
            return None
        if state.insisted:
            state.current = len(self._task.requests)
            return rng.choice(_GIVE_UP), "done"
        if state.refused or not _refuses(text, request):
            return None
        state.refused = True
        state.stalled = 0
        if request.transfers:
            state.insisted = True
            return rng.choice(_INSIST), "insist"
        if request.trap == "other_product":
            return "Alright, then please return them instead.", "inform"
        assert self._task.account is not None
        pay = _label(self._task.account.shopper, request.payment_id)
        return f"I see. Then please refund it to my {pay} instead.", "inform"
