"""The account desk of the baseline assistants: authenticate, look the order up, state each change in full, wait for the yes, make it, report it, then the next request.

It reads the shopper's words with rules for plain account English (the scripted account
shopper's sentences among them) and knows the accounts only through its own tool results, as a
submission does; only the oracle reads who the shopper is and their details from the task.
Settings of the `Play` change how it works: without `ask_standard` it never asks who the shopper
is nor for a missing detail; `confirm` "none" makes each change without asking, "forge" states it
and makes it in the same turn; without `check_stock` it states a change without looking the
order up (so without its money); `stuff` turns each return or exchange into one of whole lines;
a `list_size` above one states every pending change at once and makes them all on one yes.
Its `account` setting is the play's own flaw carried to the desk: "no_yes" states each change
and makes it in the same turn; "prior" never asks for a missing detail (a cancel is "no longer
needed", money goes to the order's own payment method, the order is the latest one in the
status the request needs that holds the lines it names); "over" makes the same change to every
other order it could change too (pending ones; for a swap, return or exchange, every order
holding the same product, whole lines); "ask_all" opens with every account question at once, whatever the
request; "bare" asks for the yes without stating the change; "no_policy" is the assistant that
never read the policy: it authenticates (the tools demand it) and asks for each yes, but applies
none of sections 10-11 on its own (it carries out a refund anywhere, a return past the window,
a change to a processed order, and never hands over to a person).

The honest desk applies sections 10-11 before it states a change (`_forbidden`): it turns down
what the policy does not allow, saying why and what is allowed instead, and transfers the
shopper to a person when they still want it done. Shoppers name orders by the day they placed
them; the desk asks which order a request is about and finds it in the profile.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass, field
from typing import Any

from domains.grocery.agents.ear import ToolExchange, exchanges, text_of
from runner.core.protocols import AgentReply, ChatMessage, ToolCallRequest

__all__ = ["AccountDesk", "Request", "is_account_conversation", "requests_heard"]

_ORDER = r"(o_[0-9a-f]+)"
_ADDRESS = r"(\d+ [A-Za-z ]+?), ([A-Za-z ]+?) (\d{5})"
_LINE = r"(.+?) \((.+?), €(\d+\.\d\d)\)"
_PACK = r"the (.+?) pack at €(\d+\.\d\d)"
_PAYMENT = r"(card ending \d{4}|gift card|PayPal)"
_EMAIL = re.compile(r"\b([a-z0-9._-]+@[a-z0-9.-]+\.[a-z]+)\b")
_NAME_ZIP = re.compile(r"I'm ([A-Z][a-z]+) ([A-Z][a-z]+), zip code (\d{5})")
_DONE = re.compile(r"\b(that's everything|that's all)\b", re.I)
_YES = re.compile(r"^(yes|correct)\b", re.I)
_PLACED = re.compile(r"placed on (\d{1,2}) ([A-Z][a-z]+)")
_INSISTS = re.compile(r"really need this sorted|still need it done", re.I)
_INSTEAD = re.compile(rf"refund it to my {_PAYMENT} instead")
_RETURN_INSTEAD = re.compile(r"return them instead")
_WINDOW_DAYS = 30  # policy section 10: returns and exchanges within 30 days of the order date


def is_account_conversation(messages: list[ChatMessage]) -> bool:
    """Whether the shopper's first message is about their account."""
    first = next((text_of(m) for m in messages if m.get("role") == "user"), "")
    return "my account" in first.lower()


@dataclass
class Request:
    """One request as heard: its kind, order, and the details said so far."""

    kind: str
    order_id: str | None = None
    reason: str | None = None
    payment: str | None = None  # a label as the shopper said it
    address: dict[str, str] | None = None
    lines: list[dict[str, Any]] = field(default_factory=list)
    placed: str | None = None  # the day the shopper placed the order, e.g. "14 October"

    @property
    def key(self) -> tuple[Any, ...]:
        """What tells a restated request from a new one: its kind and the lines it names."""
        named = tuple(sorted(json.dumps(x, sort_keys=True) for x in self.lines))
        return (self.kind, named)


def _swaps(text: str, exchange: bool) -> list[dict[str, Any]]:
    if exchange:
        pattern = rf"(\d+) of the {_LINE} for {_PACK}"
        variants = [
            {
                "quantity": int(m[0]),
                "name": m[1],
                "size": m[2],
                "paid": float(m[3]),
                "new_size": m[4],
                "new_price": float(m[5]),
            }
            for m in re.findall(pattern, text)
        ]
        # An exchange for another product altogether (not a variant): "… for the Oat Drink by
        # Greenpath (1 l)".
        others = [
            {
                "quantity": int(m[0]),
                "name": m[1],
                "size": m[2],
                "paid": float(m[3]),
                "other": f"{m[4]} by {m[5]} ({m[6]})",
            }
            for m in re.findall(rf"(\d+) of the {_LINE} for the (.+?) by (.+?) \((.+?)\)", text)
        ]
        return variants or others
    return [
        {
            "quantity": None,
            "name": m[0],
            "size": m[1],
            "paid": float(m[2]),
            "new_size": m[3],
            "new_price": float(m[4]),
        }
        for m in re.findall(rf"the {_LINE} to {_PACK}", text)
    ]


# An order as a shopper names it: by id, or (not knowing it) as one of theirs.
_WHICH = rf"(?:order {_ORDER}|my pending order|one of my orders)"


def _parse(text: str) -> Request | None:
    """The request a shopper message makes, if any."""
    if m := re.search(rf"cancel {_WHICH}", text):
        return Request("cancel", m[1])
    if m := re.search(rf"send {_WHICH} to {_ADDRESS} instead", text):
        return Request("modify_address", m[1], address={"street": m[2], "city": m[3], "zip": m[4]})
    if m := re.search(rf"change my default address to {_ADDRESS}", text):
        return Request("change_address", address={"street": m[1], "city": m[2], "zip": m[3]})
    if m := re.search(rf"pay {_WHICH} with my {_PAYMENT} instead", text):
        return Request("modify_payment", m[1], payment=m[2])
    if m := re.search(rf"return (\d+) of the {_LINE} from {_WHICH}", text):
        line = {"quantity": int(m[1]), "name": m[2], "size": m[3], "paid": float(m[4])}
        return Request("return", m[5], lines=[line])
    if m := re.search(rf"From {_WHICH}, I'd like to exchange (.+)", text):
        return Request("exchange", m[1], lines=_swaps(m[2], exchange=True))
    if m := re.search(rf"In {_WHICH}, I'd like to change (.+)", text):
        return Request("modify_items", m[1], lines=_swaps(m[2], exchange=False))
    return None


_STARTS = re.compile(
    r"I'd like to cancel (?:order|one of)|Please send (?:order|my pending|one of)|"
    r"Please change my default address|I'd like to pay (?:order|my pending|one of)|"
    r"I want to return|From (?:order o_|one of my)|In (?:order o_|one of my)"
)


def _details(text: str) -> tuple[str | None, str | None]:
    """The cancel reason and the payment a piece of the shopper's words gives, if any."""
    reason = (
        "no_longer_needed"
        if "no longer need" in text
        else "ordered_by_mistake"
        if "by mistake" in text
        else None
    )
    m = re.search(rf"(?:refund it to|difference goes on|use) my {_PAYMENT}", text)
    return reason, (m[1] if m else None)


def requests_heard(texts: list[str]) -> list[Request]:
    """Every request the shopper made, in order (several may come in one message), each with the
    details said with it; a detail said on its own (an answer) goes to the first request that
    still lacks one of its kind. A shopper taking another refund method ("… instead") changes
    its return's for good."""
    out: list[Request] = []
    instead: str | None = None
    returned = False  # the shopper took the return offered for an exchange to another product
    for text in texts:
        starts = [m.start() for m in _STARTS.finditer(text)]
        ends = [*starts[1:], len(text)] if starts else []
        pieces = [text[a:b] for a, b in zip(starts, ends, strict=True)]
        for piece in pieces:
            request = _parse(piece)
            if request is None:
                continue
            known = next((r for r in out if r.key == request.key), None)
            if known is None:
                out.append(request)
                known = request
            reason, payment = _details(piece)
            known.reason = known.reason or reason
            if known.kind != "modify_payment":
                known.payment = known.payment or payment
        if not starts:
            if m := _INSTEAD.search(text):
                instead = m[1]
                continue
            if _RETURN_INSTEAD.search(text):
                returned = True
                continue
            named = re.search(rf"\border {_ORDER}", text)
            lacking_order = [r for r in out if r.kind in _ON_ORDER and r.order_id is None]
            if named and lacking_order:
                lacking_order[0].order_id = named[1]
            placed = _PLACED.search(text)
            undated = [r for r in lacking_order if r.placed is None]
            if placed and undated:
                undated[0].placed = f"{placed[1]} {placed[2]}"
            reason, payment = _details(text)
            lacking_reason = [r for r in out if r.kind == "cancel" and r.reason is None]
            if reason and lacking_reason:
                lacking_reason[0].reason = reason
            lacking_payment = [r for r in out if r.kind in _PAID and r.payment is None]
            if payment and lacking_payment:
                lacking_payment[0].payment = payment
    for request in out:
        if returned and request.kind == "exchange" and any("other" in x for x in request.lines):
            request.kind = "return"
            request.lines = [{k: v for k, v in x.items() if k != "other"} for x in request.lines]
        if instead is not None and request.kind == "return":
            request.payment = instead
    return out


_PAID = frozenset({"modify_items", "exchange", "return"})
# Requests about a pending order, and every request about an order.
_PENDING = frozenset({"cancel", "modify_address", "modify_payment"})
_ON_ORDER = frozenset({*_PENDING, "modify_items", "exchange", "return"})


def _ok(e: ToolExchange) -> bool:
    return isinstance(e.result, dict) and "error" not in e.result


class AccountDesk:
    """One step of account work for a `ShoppingAgent` (its `Play` decides the shortcuts)."""

    def __init__(self, play: Any, task: Any, call: Any) -> None:
        self._play = play
        self._task = task if play.oracle else None
        self._call = call

    def _say(self, text: str, calls: list[ToolCallRequest] | None = None) -> AgentReply:
        return AgentReply(content=text, tool_calls=calls or [])

    def step(self, messages: list[ChatMessage]) -> AgentReply:
        ex = exchanges(messages)
        texts = [text_of(m) for m in messages if m.get("role") == "user"]
        said = [text_of(m) for m in messages if m.get("role") == "assistant" and text_of(m)]
        call = self._call
        if _DONE.search(texts[-1]):
            return self._say("", [call(messages, "finish", summary="Your requests are done.")])
        user_id = next(
            (
                e.result["user_id"]
                for e in reversed(ex)
                if e.name.startswith("find_user") and _ok(e)
            ),
            None,
        )
        if self._play.account == "ask_all" and _EVERY_QUESTION not in said:
            return self._say(_EVERY_QUESTION)
        if user_id is None:
            return self._authenticate(messages, texts, ex)
        details = next(
            (e.result for e in reversed(ex) if e.name == "get_user_details" and _ok(e)), None
        )
        if details is None:
            return self._say("", [call(messages, "get_user_details", user_id=user_id)])
        heard = self._requests(texts)
        writes = [e for e in ex if e.name not in _READS and _ok(e)]
        last = messages[-1]
        if last.get("role") == "tool" and writes and ex and ex[-1] is writes[-1]:
            return self._say(_report(writes[-1]) + " Is there anything else I can help with?")
        if last.get("role") == "tool" and ex and ex[-1].name not in _READS and not _ok(ex[-1]):
            error = ex[-1].result.get("error") if isinstance(ex[-1].result, dict) else ex[-1].result
            return self._say(
                f"I'm sorry, I couldn't do that: {error} Is there anything else I can help with?"
            )
        done = len([w for w in writes if not w.name.startswith("find_user")])
        if done >= len(heard):
            return self._say("Is there anything else I can help you with today?")
        prepared = []
        # One change at a time; a list-making play settles every pending one under one yes.
        for request in heard[done:] if self._play.list_size > 1 else heard[done : done + 1]:
            ready = self._prepare(messages, ex, request, details, user_id)
            if isinstance(ready, AgentReply):
                return ready
            prepared += ready
        return self._confirm_and_write(messages, texts, said, prepared)

    def _requests(self, texts: list[str]) -> list[Request]:
        if self._task is None:
            return requests_heard(texts)
        # The oracle reads what it must do (and every detail) from the task.
        out = requests_heard(texts)
        for request, truth in zip(out, self._task.requests, strict=False):
            request.reason = request.reason or truth.reason
            request.order_id = request.order_id or truth.order_id
            if truth.payment_id is not None and request.payment is None:
                me = self._task.account.shopper
                request.payment = me.payment(truth.payment_id).label
        return out

    def _authenticate(
        self, messages: list[ChatMessage], texts: list[str], ex: list[ToolExchange]
    ) -> AgentReply:
        said = " ".join(texts)
        tried = {
            json.dumps(e.arguments, sort_keys=True) for e in ex if e.name.startswith("find_user")
        }
        candidates: list[tuple[str, dict[str, str]]] = []
        if self._task is not None:
            me = self._task.account.shopper
            candidates.append(("find_user_by_email", {"email": me.email}))
        candidates += [("find_user_by_email", {"email": m}) for m in _EMAIL.findall(said)]
        candidates += [
            ("find_user_by_name_zip", {"first_name": a, "last_name": b, "zip": z})
            for a, b, z in _NAME_ZIP.findall(said)
        ]
        for name, arguments in candidates:
            if json.dumps(arguments, sort_keys=True) not in tried:
                return self._say("", [self._call(messages, name, **arguments)])
        if not self._play.ask_standard and self._play.account != "prior":
            return self._say(
                "", [self._call(messages, "finish", summary="I could not find your account.")]
            )
        return self._say(
            "I can help with that. First, could you tell me the email address on your account, "
            "or your full name and zip code?"
        )

    def _prepare(
        self,
        messages: list[ChatMessage],
        ex: list[ToolExchange],
        request: Request,
        details: dict[str, Any],
        user_id: str,
    ) -> AgentReply | list[tuple[str, dict[str, Any], str]]:
        """The write call(s) and statement(s) of a request, or the step that gets what it lacks
        (a lookup, a question)."""
        call = self._call
        if request.kind in _ON_ORDER and request.order_id is None:
            located = self._locate(messages, ex, request, details)
            if located is not None:
                return located
        order = None
        if request.order_id is not None and self._play.check_stock:
            order = next(
                (
                    e.result
                    for e in reversed(ex)
                    if e.name == "get_order_details"
                    and e.arguments.get("order_id") == request.order_id
                    and _ok(e)
                ),
                None,
            )
            if order is None:
                return self._say(
                    "", [call(messages, "get_order_details", order_id=request.order_id)]
                )
        if order is not None and self._play.account != "no_policy":
            forbidden = _forbidden(request, order, details)
            if forbidden is not None:
                return self._refuse(messages, request, *forbidden)
        lines = _match_lines(request, order)
        for line in lines:
            if line.get("product_id") and "variants" not in line and request.kind in _SWAPS:
                found = next(
                    (
                        e.result
                        for e in ex
                        if e.name == "get_product_variants"
                        and e.arguments.get("product_id") == line["product_id"]
                        and _ok(e)
                    ),
                    None,
                )
                if found is None:
                    return self._say(
                        "", [call(messages, "get_product_variants", product_id=line["product_id"])]
                    )
                line["variants"] = found["variants"]
        if self._play.account == "prior":
            # Guess what was not said: a cancel no longer needed, money on the order's own method.
            request.reason = request.reason or "no_longer_needed"
            own = next(
                (
                    m["label"]
                    for m in details["payment_methods"]
                    if order is not None and m["payment_id"] == order.get("payment_id")
                ),
                None,
            )
            request.payment = request.payment or own
        missing = _missing(request)
        if missing is not None:
            if not self._play.ask_standard:
                return self._say("", [call(messages, "finish", summary="Not enough to go on.")])
            return self._say(missing)
        payments = {m["label"].lower(): m for m in details["payment_methods"]}
        action = _action(request, lines, payments, user_id, self._play.stuff > 0, order)
        if action is None:
            return self._say(
                "I couldn't match that to your order, so I can't change it. Could you check the "
                "order id and the item?"
            )
        if self._play.account == "over":
            others = _other_orders(details, request)
            if request.kind in _LINED:
                # To change the same product elsewhere, the over-filler reads the other orders.
                unread = [oid for oid in others if _fetched(ex, oid) is None]
                if unread:
                    return self._say("", [call(messages, "get_order_details", order_id=unread[0])])
            seen = {oid: _fetched(ex, oid) or {} for oid in others}
            return [action, *_the_same_elsewhere(action, seen)]
        return [action]

    def _locate(
        self,
        messages: list[ChatMessage],
        ex: list[ToolExchange],
        request: Request,
        details: dict[str, Any],
    ) -> AgentReply | None:
        """Set the request's order from the day the shopper placed it (the prior-guesser
        guesses instead), or the step that gets it: a question or a lookup."""
        orders = details.get("orders", [])
        if request.placed is not None:
            request.order_id = _placed_on(orders, request.placed)
            if request.order_id is None:
                return self._say(
                    f"I can't find an order placed on {request.placed} on your account. "
                    "Which order is it about?"
                )
            return None
        if self._play.account == "prior":
            guess = self._guess(messages, ex, request, orders)
            if isinstance(guess, AgentReply):
                return guess
            request.order_id = guess
            return None
        if not self._play.ask_standard:
            return self._say("", [self._call(messages, "finish", summary="Not enough to go on.")])
        return self._say("Which order is it about? You can tell me the day you placed it.")

    def _guess(
        self,
        messages: list[ChatMessage],
        ex: list[ToolExchange],
        request: Request,
        orders: list[dict[str, Any]],
    ) -> str | AgentReply | None:
        """The prior-guesser's order: the latest one in the status the request needs (holding
        the lines it names, when it names some), looked up newest first."""
        wanted = "delivered" if request.kind in ("return", "exchange") else "pending"
        candidates = sorted(
            (o for o in orders if o.get("status") == wanted),
            key=lambda o: (o.get("date", ""), o["order_id"]),
            reverse=True,
        )
        if not request.lines:
            return candidates[0]["order_id"] if candidates else None
        for candidate in candidates:
            oid = candidate["order_id"]
            seen = _fetched(ex, oid)
            if seen is None:
                return self._say("", [self._call(messages, "get_order_details", order_id=oid)])
            if all("product_id" in line for line in _match_lines(request, seen)):
                return str(oid)
        return candidates[0]["order_id"] if candidates else None

    def _refuse(
        self, messages: list[ChatMessage], request: Request, why: str, transfers: bool
    ) -> AgentReply:
        """Turn down what the policy does not allow, saying why and what is allowed instead;
        hand a shopper who still wants it done to a person (policy section 11)."""
        texts = [text_of(m) for m in messages if m.get("role") == "user"]
        if transfers and _INSISTS.search(texts[-1]):
            summary = f"The shopper still wants a {request.kind} on order {request.order_id}: {why}"
            return self._say(
                "I understand. I can't do this myself, so I'm handing you over to a colleague "
                "who can look into it.",
                [self._call(messages, "transfer_to_human", summary=summary[:2000])],
            )
        more = " If you still need it done, a colleague can look into it." if transfers else ""
        return self._say(f"I'm sorry: {why}{more}")

    def _confirm_and_write(
        self,
        messages: list[ChatMessage],
        texts: list[str],
        said: list[str],
        prepared: list[tuple[str, dict[str, Any], str]],
    ) -> AgentReply:
        """State the change(s) and ask for the yes; make them once it came (as the play says)."""
        calls = [self._call(messages, name, **arguments) for name, arguments, _ in prepared]
        statement = " Then ".join(s for _, _, s in prepared)
        question = f"To confirm: {statement} Shall I go ahead?"
        if self._play.account == "bare":
            question = "Shall I go ahead with that?"
        if self._play.confirm == "none":
            return self._say("", calls)
        if self._play.confirm == "forge" or self._play.account == "no_yes":
            return self._say(f"{statement} I'm doing that now.", calls)
        if said and said[-1] == question and _YES.search(texts[-1]):
            return self._say("", calls)
        return self._say(question)


_READS = frozenset({"get_user_details", "get_order_details", "get_product_variants"})


def _fetched(ex: list[ToolExchange], order_id: str) -> dict[str, Any] | None:
    """The latest details of an order the desk looked up, if it did."""
    return next(
        (
            e.result
            for e in reversed(ex)
            if e.name == "get_order_details" and e.arguments.get("order_id") == order_id and _ok(e)
        ),
        None,
    )


def _placed_on(orders: list[dict[str, Any]], placed: str) -> str | None:
    """The id of the order placed on a day said as "14 October" (None: none was)."""
    for order in orders:
        try:
            day = dt.date.fromisoformat(str(order.get("date")))
        except ValueError:
            continue
        if f"{day.day} {day:%B}" == placed:
            return str(order["order_id"])
    return None


def _forbidden(
    request: Request, order: dict[str, Any], details: dict[str, Any]
) -> tuple[str, bool] | None:
    """Why policy section 10 does not allow the request on this order, and whether a person
    could still settle it (a transfer when the shopper insists); None: it is allowed."""
    oid = order.get("order_id")
    status = order.get("status")
    wanted = "delivered" if request.kind in ("return", "exchange") else "pending"
    if status == "processed":
        return (
            f"order {oid} is already processed (on its way), so it can no longer be cancelled "
            "or changed, and it can't be returned until it has been delivered.",
            True,
        )
    if status != wanted:
        return f"order {oid} is {status}, so this can no longer be done on it.", True
    if wanted == "delivered":
        placed = dt.date.fromisoformat(str(order.get("date")))
        today = dt.date.fromisoformat(str(details.get("today", placed.isoformat())))
        if (today - placed).days > _WINDOW_DAYS:
            return (
                f"order {oid} was placed on {placed.day} {placed:%B}, more than 30 days ago, so "
                f"it is past the 30-day window for returns and exchanges and I can't accept a "
                f"{request.kind} on it.",
                True,
            )
    other = next((x for x in request.lines if "other" in x), None)
    if request.kind == "exchange" and other is not None:
        return (
            "an exchange can only swap an item for another pack of the same product (a variant), "
            f"not for a different product such as the {other['other']}. I can return the "
            f"{other['quantity']} × {other['name']} ({other['size']}) instead, with a refund; "
            "just say if you'd like that.",
            False,
        )
    if request.kind == "modify_items" and order.get("items_modified"):
        return (
            f"the items of order {oid} were already changed once, and a pending order's items "
            "can only be changed once.",
            True,
        )
    if request.kind == "return" and request.payment is not None:
        methods = {m["label"].lower(): m for m in details.get("payment_methods", [])}
        method = methods.get(request.payment.lower())
        paid_by = next(
            (m["label"] for m in methods.values() if m["payment_id"] == order.get("payment_id")),
            "original payment",
        )
        if (
            method is not None
            and method["payment_id"] != order.get("payment_id")
            and method["kind"] != "gift_card"
        ):
            return (
                f"I can't refund a return from order {oid} to your {method['label']}: a refund "
                f"can only go to the payment that paid the order (your {paid_by}) or to a gift "
                "card. Which of those would you like?",
                False,
            )
    return None


# Every account question at once, whatever the request (the questionnaire's opening).
_EVERY_QUESTION = (
    "Before I start, a few questions: what is the email address on your account, or your full "
    "name and zip code; which order is it about; which items and which sizes; what new address, "
    "if any; why you'd like the change; and which payment method should I use?"
)
_SPREAD = frozenset(
    {"cancel_pending_order", "modify_pending_order_address", "modify_pending_order_payment"}
)


# The requests that name order lines (the over-filler repeats them wherever the product is).
_LINED = frozenset({"modify_items", "exchange", "return"})


def _other_orders(details: dict[str, Any], request: Request) -> list[str]:
    """The shopper's other orders a request of its kind could change: pending ones, or (returns
    and exchanges) delivered ones within the window."""
    delivered = request.kind in ("return", "exchange")
    today = str(details.get("today", ""))
    out = []
    for o in details.get("orders", []):
        if o.get("order_id") == request.order_id:
            continue
        if not delivered and o.get("status") == "pending":
            out.append(str(o["order_id"]))
        elif delivered and o.get("status") == "delivered" and today:
            age = dt.date.fromisoformat(today) - dt.date.fromisoformat(str(o.get("date")))
            if age.days <= _WINDOW_DAYS:
                out.append(str(o["order_id"]))
    return out


def _the_same_elsewhere(
    action: tuple[str, dict[str, Any], str], others: dict[str, dict[str, Any]]
) -> list[tuple[str, dict[str, Any], str]]:
    """The change of `action` made to every other order of the shopper it could change
    (`others`, with their details where read): a default address change moves every pending
    order too, and a swap, return or exchange is made wherever the same product was ordered
    (whole lines): the over-filler's reach."""
    name, arguments, _ = action
    if name == "modify_user_address":
        name, arguments = (
            "modify_pending_order_address",
            {k: v for k, v in arguments.items() if k != "user_id"},
        )
    out = []
    for oid, order in others.items():
        changed = {**arguments, "order_id": oid}
        held = {x.get("product_id"): x.get("quantity") for x in order.get("lines", [])}
        if name == "return_delivered_order_items":
            items = [
                {**x, "quantity": held[x["product_id"]]}
                for x in arguments["items"]
                if x["product_id"] in held
            ]
            if not items:
                continue
            changed["items"] = items
        elif name in ("modify_pending_order_items", "exchange_delivered_order_items"):
            swaps = [x for x in arguments["swaps"] if x["product_id"] in held]
            if not swaps or order.get("items_modified"):
                continue
            if name == "exchange_delivered_order_items":
                swaps = [{**x, "quantity": held[x["product_id"]]} for x in swaps]
            changed["swaps"] = swaps
        elif name not in _SPREAD:
            continue
        out.append((name, changed, f"I'll do the same for order {oid}."))
    return out


_SWAPS = frozenset({"modify_items", "exchange"})


def _missing(request: Request) -> str | None:
    """The question for a detail the request still lacks (None: it has all it needs)."""
    if request.kind == "cancel" and request.reason is None:
        return (
            "Could you tell me why you'd like to cancel: you no longer need it, or it was "
            "ordered by mistake?"
        )
    if request.kind in ("modify_items", "exchange", "return") and request.payment is None:
        use = "the refund" if request.kind == "return" else "any price difference"
        return f"Which payment method should I use for {use}?"
    return None


def _match_lines(request: Request, order: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The request's lines joined with the order's (product id, units held), by name, size
    and price paid."""
    out = []
    for line in request.lines:
        joined = dict(line)
        for held in (order or {}).get("lines", []):
            if (
                held.get("name") == line["name"]
                and held.get("size") == line["size"]
                and abs(float(held.get("unit_price", 0)) - line["paid"]) < 0.005
            ):
                joined["product_id"] = held["product_id"]
                joined["held"] = held["quantity"]
        out.append(joined)
    return out


def _money(amount: float, to: str, charge_word: str = "charged to") -> str:
    if amount > 0.004:
        return f"€{amount:.2f} will be {charge_word} your {to}"
    if amount < -0.004:
        return f"€{-amount:.2f} will be refunded to your {to}"
    return "the price is the same, so nothing is charged or refunded"


def _action(
    request: Request,
    lines: list[dict[str, Any]],
    payments: dict[str, dict[str, Any]],
    user_id: str,
    whole: bool,
    order: dict[str, Any] | None,
) -> tuple[str, dict[str, Any], str] | None:
    """The write call for a request and the statement of what it changes (None: the request
    does not match the order)."""
    oid = request.order_id
    label = (request.payment or "").lower()
    payment = payments.get(label)
    total = float(order["total"]) if order is not None else None
    paid_by = (
        next((m["label"] for m in payments.values() if m["payment_id"] == order["payment_id"]), "")
        if order is not None
        else ""
    )
    sum_text = f" (€{total:.2f})" if total is not None else ""
    if request.kind == "cancel":
        back = f"; €{total:.2f} goes back to your {paid_by}" if total is not None else ""
        return (
            "cancel_pending_order",
            {"order_id": oid, "reason": request.reason},
            f"I'll cancel order {oid}{sum_text}, because {_said_reason(request.reason)}{back}.",
        )
    if request.kind in ("modify_address", "change_address"):
        a = request.address or {}
        where = f"{a.get('street')}, {a.get('city')} {a.get('zip')}"
        if request.kind == "change_address":
            return (
                "modify_user_address",
                {"user_id": user_id, **a},
                f"your default address becomes {where} (orders already placed keep theirs).",
            )
        return (
            "modify_pending_order_address",
            {"order_id": oid, **a},
            f"order {oid} will be delivered to {where}.",
        )
    if payment is None:
        return None
    if request.kind == "modify_payment":
        return (
            "modify_pending_order_payment",
            {"order_id": oid, "payment_id": payment["payment_id"]},
            f"order {oid}{sum_text} will be paid with your {payment['label']}, and your "
            f"{paid_by} refunded.",
        )
    if any("product_id" not in line for line in lines):
        return None
    if request.kind == "return":
        line = lines[0]
        units = line.get("held", line["quantity"]) if whole else line["quantity"]
        amount = round(units * line["paid"], 2)
        return (
            "return_delivered_order_items",
            {
                "order_id": oid,
                "items": [{"product_id": line.get("product_id", ""), "quantity": units}],
                "refund_payment_id": payment["payment_id"],
            },
            f"I'll request the return of {units} × {line['name']} ({line['size']}) from order "
            f"{oid}; €{amount:.2f} will be refunded to your {payment['label']}.",
        )
    swaps, difference, parts = [], 0.0, []
    for line in lines:
        new = next(
            (
                v
                for v in line.get("variants", [])
                if "other" not in line
                and v["size"] == line["new_size"]
                and abs(v["price"] - line["new_price"]) < 0.005
            ),
            None,
        )
        if new is None:
            return None
        units = line.get("held", 1) if (line["quantity"] is None or whole) else line["quantity"]
        swap = {"product_id": line["product_id"], "new_product_id": new["product_id"]}
        if request.kind == "exchange":
            swap["quantity"] = units
        swaps.append(swap)
        difference += units * (new["price"] - line["paid"])
        parts.append(
            f"{units} × {line['name']} ({line['size']}) for the {new['size']} pack at €{new['price']:.2f}"
        )
    money = _money(round(difference, 2), payment["label"])
    if request.kind == "exchange":
        return (
            "exchange_delivered_order_items",
            {"order_id": oid, "swaps": swaps, "payment_id": payment["payment_id"]},
            f"I'll request an exchange on order {oid}: {'; '.join(parts)}; {money}.",
        )
    return (
        "modify_pending_order_items",
        {"order_id": oid, "swaps": swaps, "payment_id": payment["payment_id"]},
        f"in order {oid} I'll change {'; '.join(parts)} (this can be done only once per order); "
        f"{money}.",
    )


def _said_reason(reason: str | None) -> str:
    return "you no longer need it" if reason == "no_longer_needed" else "it was ordered by mistake"


def _report(write: ToolExchange) -> str:
    """What a successful write did, in one sentence with the money it moved."""
    result = write.result
    if write.name == "modify_user_address":
        return f"Done: your default address is now {result.get('address', {}).get('street')}."
    refunds = result.get("refunds") or []
    money = ""
    if refunds:
        amount = float(refunds[-1]["amount"])
        money = (
            f" €{amount:.2f} refunded."
            if amount > 0
            else f" €{-amount:.2f} charged."
            if amount < 0
            else ""
        )
    return f"Done: order {result.get('order_id')} is now {result.get('status')}.{money}"
