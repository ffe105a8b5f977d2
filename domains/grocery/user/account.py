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
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any

from domains.grocery.accounts import AccountRequest, Profile, request_amount
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
# A trial's shopper is vague (holds the reason and the payment back until asked) this often.
VAGUE_SHARE = 0.5
_CONFIRM_WORDS = re.compile(
    r"\b(confirm|go ahead|proceed|shall i|should i|ok to|okay to|do you want me to)\b", re.I
)


def _label(profile: Profile, payment_id: str | None) -> str:
    method = profile.payment(payment_id or "")
    return method.label if method is not None else "usual card"


def _who(task: GroceryTask) -> str:
    assert task.account is not None
    me = task.account.shopper
    if task.identify_by == "email":
        return f"My email is {me.email}."
    return f"I'm {me.first_name} {me.last_name}, zip code {me.address.zip}."


def describe_request(
    request: AccountRequest, task: GroceryTask, catalog: Any, details: bool, vague: bool = False
) -> str:
    """The request in the shopper's words (with the reason or payment when `details`; a
    `vague` shopper leaves the id of a pending order out, giving it only when asked)."""
    assert task.account is not None
    me = task.account.shopper
    order = next((o for o in task.account.orders if o.order_id == request.order_id), None)
    pay = _label(me, request.payment_id)

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
        which = "one of my orders" if vague else f"order {request.order_id}"
        text = f"I'd like to cancel {which}"
        return text + (f", because {_REASONS[str(request.reason)]}." if details else ".")
    if kind == "modify_address":
        a = request.address
        assert a is not None
        which = "my pending order" if vague else f"order {request.order_id}"
        return f"Please send {which} to {a.street}, {a.city} {a.zip} instead."
    if kind == "change_address":
        a = request.address
        assert a is not None
        return f"Please change my default address to {a.street}, {a.city} {a.zip}."
    if kind == "modify_payment":
        which = "my pending order" if vague else f"order {request.order_id}"
        return f"I'd like to pay {which} with my {pay} instead."
    if kind == "return":
        item = request.items[0]
        text = f"I want to return {item.quantity} of the {paid(item.product_id)} from order {request.order_id}"
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
        text = f"From order {request.order_id}, I'd like to exchange {swaps}"
    else:
        text = f"In order {request.order_id}, I'd like to change {swaps}"
    return text + (f"; any difference goes on my {pay}." if details else ".")


@dataclass
class _State:
    """Where the conversation stands, rebuilt from the agent's messages."""

    current: int = 0  # the request being handled
    confirmed: bool = False  # the current request got its yes
    identified: bool = False
    stalled: int = 0  # agent messages without progress
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
        state.stalled += 1
        asked = sorted(
            (m.start(), topic) for topic, rx in _ASKS.items() if (m := rx.search(text)) is not None
        )
        answered, _ = answerable([t for _, t in asked], state.ledger, self._questions)
        state.ledger.asked.update(answered)
        answers = []
        if "who" in answered:
            state.identified = True
            answers.append(_who(task))
        if "order" in answered and request.order_id is not None:
            answers.append(f"It's order {request.order_id}.")
        if "reason" in answered and request.reason is not None:
            answers.append(f"It's because {_REASONS[request.reason]}.")
        if "payment" in answered and request.payment_id is not None:
            assert task.account is not None
            answers.append(f"Please use my {_label(task.account.shopper, request.payment_id)}.")
        if answers:
            return " ".join(answers), "inform"
        restated = describe_request(request, task, self._catalog, self._details, self._vague)
        return f"Sorry, to be clear: {restated}", "restate"
