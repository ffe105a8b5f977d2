"""Account work: find the shopper, then settle each request one at a time, each with its own yes."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from benchmarks.third_party.grocery_reading import Conversation, call, is_no, is_yes

__all__ = ["Request", "account_step", "is_account_request", "read_requests"]

ASK_WHO = "To look at your account I first need to find you"
ASK_ORDER = "Which order do you mean"
ASK_REASON = "Why would you like to cancel"
ASK_PAYMENT = "Which of your payment methods should"
CONFIRM = "Shall I go ahead with this change?"
OFFER_RETURN = "I could return it instead, if you like."
CANNOT = "I'm afraid I can't"
OTHER_PERSON = "I can only help with your own account"

_ACCOUNT_WORDS = re.compile(
    r"\baccount\b|@|\bzip\b|one of my orders|default address|cancel (?:one of )?my order", re.I
)
_SPLIT = re.compile(
    r"\s*(?:\bAlso:|\bAnd one more thing:|\bBesides that:|\bAnother thing:|\bPlus:|\bAnd also:)\s*",
    re.I,
)
_ITEM = r"(?P<name>[^()]+?)\s*\((?P<size>[^,()]+),\s*€\s?(?P<price>\d+(?:\.\d+)?)\)"


def is_account_request(opening: str) -> bool:
    return bool(_ACCOUNT_WORDS.search(opening)) and not re.search(r"\bord_\w+", opening)


@dataclass
class Swap:
    quantity: int | None
    name: str
    size: str
    price: float
    new_size: str | None = None
    new_price: float | None = None
    other_product: str | None = None


@dataclass
class Request:
    """One thing the shopper asked for, as read from their opening."""

    kind: str  # cancel | payment | order_address | default_address | modify | exchange | return
    text: str
    swaps: list[Swap] = field(default_factory=list)
    method: str | None = None  # "gift card" | "paypal" | "card ending 1234"
    address: tuple[str, str, str] | None = None
    reason: str | None = None

    @property
    def tool(self) -> str:
        return {
            "cancel": "cancel_pending_order",
            "payment": "modify_pending_order_payment",
            "order_address": "modify_pending_order_address",
            "default_address": "modify_user_address",
            "modify": "modify_pending_order_items",
            "exchange": "exchange_delivered_order_items",
            "return": "return_delivered_order_items",
        }[self.kind]

    @property
    def needs_order(self) -> bool:
        return self.kind != "default_address"


def _method(text: str) -> str | None:
    card = re.search(r"card ending (?:in )?(\d{4})", text, re.I)
    if card:
        return f"card ending {card.group(1)}"
    if re.search(r"gift ?card", text, re.I):
        return "gift card"
    if re.search(r"paypal", text, re.I):
        return "paypal"
    return None


def _address(text: str) -> tuple[str, str, str] | None:
    found = re.search(r"(\d+\s+[A-Z][\w' ]+?),\s*([A-Z][\w' ]+?)\s+(\d{5})\b", text)
    return (found.group(1).strip(), found.group(2).strip(), found.group(3)) if found else None


def _cancel_reason(text: str) -> str | None:
    if re.search(r"no longer need|don't need|do not need|not needed|no longer want", text, re.I):
        return "no_longer_needed"
    if re.search(
        r"by mistake|mistaken|accident|in error|wrongly ordered|ordered it wrong", text, re.I
    ):
        return "ordered_by_mistake"
    return None


def _swaps(text: str, exchange: bool) -> list[Swap]:
    swaps = []
    pattern = (
        rf"(?:(?P<qty>\d+) of )?the {_ITEM}\s+(?:for|to) the\s+"
        r"(?:(?P<new_size>[^;.]+?) pack at €\s?(?P<new_price>\d+(?:\.\d+)?)|(?P<other>[^;.()]+?\([^)]*\)))"
    )
    for found in re.finditer(pattern, text):
        quantity = int(found.group("qty")) if found.group("qty") else None
        swaps.append(
            Swap(
                quantity=quantity if exchange else None,
                name=found.group("name").strip(),
                size=found.group("size").strip(),
                price=float(found.group("price")),
                new_size=(found.group("new_size") or "").strip() or None,
                new_price=float(found.group("new_price")) if found.group("new_price") else None,
                other_product=(found.group("other") or "").strip() or None,
            )
        )
    return swaps


def read_requests(opening: str) -> list[Request]:
    """Each request of the opening, in the order the shopper made them."""
    requests: list[Request] = []
    for part in _SPLIT.split(opening):
        low = part.lower()
        if re.search(r"\bcancel\b", low):
            requests.append(Request("cancel", part, reason=_cancel_reason(part)))
        elif re.search(r"default address", low):
            requests.append(Request("default_address", part, address=_address(part)))
        elif re.search(r"\bsend\b.*\border", low) or re.search(r"deliver.*\bto\b.*\d{5}", low):
            requests.append(Request("order_address", part, address=_address(part)))
        elif re.search(r"\bpay\b.*\border|\bpayment\b", low) and "exchange" not in low:
            requests.append(Request("payment", part, method=_method(part)))
        elif re.search(r"\bexchange\b|\bswap\b", low):
            difference = re.search(r"difference[^.]*", part, re.I)
            requests.append(
                Request(
                    "exchange",
                    part,
                    swaps=_swaps(part, exchange=True),
                    method=_method(difference.group(0)) if difference else None,
                )
            )
        elif re.search(r"\breturn\b|send back", low):
            found = re.search(rf"return (?P<qty>\d+) of the {_ITEM}", part)
            swaps = []
            if found:
                swaps.append(
                    Swap(
                        int(found.group("qty")),
                        found.group("name").strip(),
                        found.group("size").strip(),
                        float(found.group("price")),
                    )
                )
            refund = re.search(r"refund[^.]*", part, re.I)
            requests.append(
                Request(
                    "return", part, swaps=swaps, method=_method(refund.group(0)) if refund else None
                )
            )
        elif re.search(r"\bchange the\b", low):
            difference = re.search(r"difference[^.]*", part, re.I)
            requests.append(
                Request(
                    "modify",
                    part,
                    swaps=_swaps(part, exchange=False),
                    method=_method(difference.group(0)) if difference else None,
                )
            )
    return requests


# ---------------------------------------------------------------------------- the account itself


@dataclass
class Account:
    user_id: str
    profile: dict[str, Any]
    orders: dict[str, dict[str, Any]]

    def payment(self, method: str | None) -> dict[str, Any] | None:
        if method is None:
            return None
        for option in self.profile.get("payment_methods") or []:
            label = str(option.get("label") or "").lower()
            kind = str(option.get("kind") or "")
            if method == "gift card" and kind == "gift_card":
                return dict(option)
            if method == "paypal" and kind == "paypal":
                return dict(option)
            if method.startswith("card ending") and label == method:
                return dict(option)
        return None

    def label(self, payment_id: str) -> str:
        for option in self.profile.get("payment_methods") or []:
            if option.get("payment_id") == payment_id:
                return str(option.get("label") or payment_id)
        return payment_id

    def today(self) -> date:
        return date.fromisoformat(str(self.profile.get("today") or "2026-11-01"))


def _authenticate(conversation: Conversation) -> dict[str, Any] | None:
    """A successful find_user_by_* call's next step, or None when found."""
    found = [
        u
        for u in conversation.uses
        if u.name in ("find_user_by_email", "find_user_by_name_zip")
        and u.ok
        and isinstance(u.result, dict)
    ]
    if found:
        return None
    text = conversation.user_text()
    tried = {
        (u.name, tuple(sorted((k, str(v).lower()) for k, v in u.args.items())))
        for u in conversation.uses
        if u.name.startswith("find_user")
    }
    email = re.findall(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", text)
    if email and ("find_user_by_email", (("email", email[-1].lower()),)) not in tried:
        return {"tool_calls": [call(conversation, "find_user_by_email", email=email[-1])]}
    name = re.findall(
        r"(?:I'm|I am|my name is|this is|name's)\s+([A-Z][\w'-]+)\s+([A-Z][\w'-]+)", text
    )
    zipcode = re.findall(r"zip(?:\s*code)?(?:\s*is)?[:\s]*(\d{5})", text, re.I)
    if name and zipcode:
        first, last = name[-1]
        args = {"first_name": first, "last_name": last, "zip": zipcode[-1]}
        if (
            "find_user_by_name_zip",
            tuple(sorted((k, v.lower()) for k, v in args.items())),
        ) not in tried:
            return {"tool_calls": [call(conversation, "find_user_by_name_zip", **args)]}
    return {
        "message": (
            f"{ASK_WHO}: could you tell me the email address on your account? If you don't have it, "
            "your first name, last name and the zip code of your address will do."
        )
    }


def _account(conversation: Conversation) -> Account | dict[str, Any]:
    """The authenticated shopper's profile and orders, or the tool calls that fetch them."""
    found = [
        u
        for u in conversation.uses
        if u.name in ("find_user_by_email", "find_user_by_name_zip")
        and u.ok
        and isinstance(u.result, dict)
    ]
    user_id = str(found[-1].result.get("user_id"))
    details = [
        u for u in conversation.results("get_user_details") if u.ok and isinstance(u.result, dict)
    ]
    if not details:
        return {"tool_calls": [call(conversation, "get_user_details", user_id=user_id)]}
    profile = details[-1].result
    orders: dict[str, dict[str, Any]] = {}
    for use in conversation.results("get_order_details"):
        if use.ok and isinstance(use.result, dict):
            orders[str(use.result.get("order_id"))] = use.result
    # Re-read orders after a change so statuses and lines are current.
    changed_after = max(
        (i for i, u in enumerate(conversation.uses) if u.name in _WRITE_TOOLS and u.ok), default=-1
    )
    fresh = {
        str(u.result.get("order_id"))
        for i, u in enumerate(conversation.uses)
        if u.name == "get_order_details"
        and u.ok
        and isinstance(u.result, dict)
        and i > changed_after
    }
    wanted = [str(o.get("order_id")) for o in profile.get("orders") or []]
    missing = [oid for oid in wanted if oid not in orders]
    if missing:
        calls = [
            call(conversation, "get_order_details", offset=i, order_id=oid)
            for i, oid in enumerate(missing)
        ]
        return {"tool_calls": calls}
    if changed_after >= 0 and not fresh:
        calls = [
            call(conversation, "get_order_details", offset=i, order_id=oid)
            for i, oid in enumerate(wanted)
        ]
        return {"tool_calls": calls}
    return Account(user_id, profile, orders)


_WRITE_TOOLS = {
    "cancel_pending_order",
    "modify_pending_order_payment",
    "modify_pending_order_address",
    "modify_user_address",
    "modify_pending_order_items",
    "exchange_delivered_order_items",
    "return_delivered_order_items",
}


def _money(amount: float) -> str:
    return f"€{abs(amount):.2f}"


def _line_text(line: dict[str, Any], quantity: int | None = None) -> str:
    count = quantity if quantity is not None else line.get("quantity")
    return f"{count} × {line.get('name')} ({line.get('size')}) at €{float(line.get('unit_price') or 0):.2f} each"


def _order_summary(order: dict[str, Any]) -> str:
    lines = ", ".join(_line_text(line) for line in order.get("lines") or [])
    return f"order {order.get('order_id')} placed on {order.get('date')} ({lines}; total €{float(order.get('total') or 0):.2f})"


def _find_line(order: dict[str, Any], swap: Swap) -> dict[str, Any] | None:
    for line in order.get("lines") or []:
        if (
            str(line.get("name")).lower() == swap.name.lower()
            and str(line.get("size")) == swap.size
        ) and abs(float(line.get("unit_price") or 0) - swap.price) < 0.005:
            return dict(line)
    for line in order.get("lines") or []:
        if str(line.get("name")).lower() == swap.name.lower():
            return dict(line)
    return None


_MONTHS = {
    m: i
    for i, m in enumerate(
        [
            "january",
            "february",
            "march",
            "april",
            "may",
            "june",
            "july",
            "august",
            "september",
            "october",
            "november",
            "december",
        ],
        start=1,
    )
}


def _order_named(text: str, account: Account, request: Request) -> dict[str, Any] | None:
    """The order a shopper's reply names: by id, by date, or by what it holds."""
    fitting = {
        "cancel": "pending",
        "payment": "pending",
        "order_address": "pending",
        "modify": "pending",
    }.get(request.kind, "delivered")
    for order_id, order in account.orders.items():
        if order_id.lower() in text.lower():
            return order
    dates: set[str] = set(re.findall(r"\b(\d{4}-\d{2}-\d{2})\b", text))
    low = text.lower()
    for month, number in _MONTHS.items():
        for day in re.findall(
            rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{month}\b", low
        ) + re.findall(rf"\b{month}\s+(\d{{1,2}})(?:st|nd|rd|th)?\b", low):
            dates.add(f"{account.today().year}-{number:02d}-{int(day):02d}")
            dates.add(f"{account.today().year - 1}-{number:02d}-{int(day):02d}")
    by_date = [o for o in account.orders.values() if str(o.get("date")) in dates]
    if len(by_date) == 1:
        return by_date[0]
    scored: list[tuple[int, str]] = []
    for order_id, order in account.orders.items():
        names = [str(line.get("name") or "").lower() for line in order.get("lines") or []]
        hits = sum(1 for name in names if name and name in low)
        if hits:
            scored.append((hits, order_id))
    scored.sort(reverse=True)
    candidates = [oid for hits, oid in scored if hits == scored[0][0]] if scored else []
    pool = [account.orders[oid] for oid in candidates]
    if by_date:
        pool = [o for o in pool if o in by_date] or by_date
    if len(pool) > 1:
        pool = [o for o in pool if o.get("status") == fitting] or pool
    if len(pool) == 1:
        return pool[0]
    return None


def account_step(conversation: Conversation) -> dict[str, Any]:
    """One step of account work."""
    conversation.user_text()
    if re.search(
        r"\b(human|real person|a person|someone else|colleague|manager|agent)\b",
        conversation.last_user,
        re.I,
    ) and (
        re.search(
            r"\b(speak|talk|transfer|put me through|connect|want|need)\b",
            conversation.last_user,
            re.I,
        )
    ):
        return _transfer(conversation, "The shopper asked to speak to a person.")
    who = _authenticate(conversation)
    if who is not None:
        return who
    account = _account(conversation)
    if isinstance(account, dict):
        return account
    requests = read_requests(conversation.opening)
    if not requests:
        if conversation.agent_said("What can I do for your account"):
            return _finish(conversation, "Nothing was changed on your account.")
        return {"message": "Thank you, I found your account. What can I do for your account today?"}
    done_messages: list[str] = []
    for index, request in enumerate(requests):
        state = _settle(conversation, account, request, index)
        if state is None:
            continue
        if isinstance(state, str):
            done_messages.append(state)
            continue
        return _with_outcome(state, conversation, done_messages)
    summary = " ".join(done_messages[-3:]) or "Your requests are settled."
    return _finish(conversation, summary[:1900])


def _with_outcome(
    reply: dict[str, Any], conversation: Conversation, outcomes: list[str]
) -> dict[str, Any]:
    """Prefix the outcome of the change just made, when our last message has not told it yet."""
    message = reply.get("message")
    if message and outcomes:
        last_change = max(
            (i for i, u in enumerate(conversation.uses) if u.name in _WRITE_TOOLS and u.ok),
            default=-1,
        )
        told_since = conversation.uses_before and conversation.uses_before[-1] > last_change
        if last_change >= 0 and not told_since:
            reply = {"message": f"{outcomes[-1]} Let's go on with your next request."}
    return reply


def _finish(conversation: Conversation, summary: str) -> dict[str, Any]:
    return {"tool_calls": [call(conversation, "finish", summary=summary)]}


def _transfer(conversation: Conversation, summary: str) -> dict[str, Any]:
    return {
        "message": "I'll hand you over to a colleague who can help with this.",
        "tool_calls": [call(conversation, "transfer_to_human", summary=summary)],
    }


def _request_tag(index: int, request: Request) -> str:
    """How our messages about one request are told apart: its number in the shopper's list."""
    return f"(request {index + 1})"


def _settle(
    conversation: Conversation, account: Account, request: Request, index: int
) -> dict[str, Any] | str | None:
    """None: nothing to say (settled earlier, told); str: its outcome; dict: the next step for it."""
    tag = _request_tag(index, request)
    # Done by a write tool that went through?
    done = [u for u in conversation.uses if u.name == request.tool and u.ok]
    ours = [u for u in done if _belongs(u, conversation, tag)]
    if ours:
        return _outcome(ours[-1].result, request, account)
    if conversation.agent_said(f"{CANNOT} {tag}"):
        reply = conversation.reply_after(f"{CANNOT} {tag}")
        offered_return = conversation.agent_said(f"{CANNOT} {tag} exchange") and OFFER_RETURN in (
            conversation.last_agent
        )
        if (
            reply is not None
            and reply == conversation.last_user
            and CANNOT in conversation.last_agent
        ):
            if (offered_return and is_yes(reply)) or (
                re.search(r"\breturn\b", reply, re.I) and offered_return
            ):
                pass
            elif _insists(reply):
                return _transfer(
                    conversation,
                    f"The shopper still wants this done, which the tools and policy do not allow: {request.text}",
                )
        if not (offered_return or conversation.agent_said(f"{CANNOT} {tag} exchange")):
            return None
        exchange_reply = conversation.reply_after(f"{CANNOT} {tag} exchange") or ""
        if not (is_yes(exchange_reply) or re.search(r"\breturn\b", exchange_reply, re.I)):
            return None
        request = Request("return", request.text, swaps=request.swaps, method=None)
        tag = _request_tag(index, request).replace(")", " return)")
        done = [u for u in conversation.uses if u.name == request.tool and u.ok]
        ours = [u for u in done if _belongs(u, conversation, tag)]
        if ours:
            return _outcome(ours[-1].result, request, account)
    # Which order?
    order: dict[str, Any] | None = None
    if request.needs_order:
        reply = conversation.reply_after(f"{ASK_ORDER} {tag}")
        named = _order_named(reply, account, request) if reply else None
        if named is None:
            asked = sum(
                1
                for role, t in conversation.turns
                if role == "assistant" and f"{ASK_ORDER} {tag}" in t
            )
            if asked >= 2:
                return f"{CANNOT} {tag} find that order, so nothing was changed for it."
            what = _what(request)
            return {
                "message": (
                    f"{ASK_ORDER} {tag} for {what}? Please tell me the day you placed it or what it holds."
                )
            }
        order = named
        refusal = _status_refusal(order, request, account)
        if refusal:
            return {"message": f"{CANNOT} {tag} {refusal}"}
    return _change(conversation, account, request, order, tag)


def _insists(reply: str) -> bool:
    return bool(
        re.search(
            r"really need|still (?:want|need|like)|insist|anyway|must|person|someone|human|sort(?:ed)? (?:it )?out|"
            r"please just|do it",
            reply,
            re.I,
        )
    )


def _belongs(use: Any, conversation: Conversation, tag: str) -> bool:
    """A write call belongs to the request whose confirmation it followed."""
    index = conversation.uses.index(use)
    for turn_index in range(len(conversation.turns) - 1, -1, -1):
        if (
            conversation.uses_before[turn_index] <= index
            and conversation.turns[turn_index][0] == "assistant"
        ):
            return tag in conversation.turns[turn_index][1]
    return False


def _what(request: Request) -> str:
    return {
        "cancel": "the cancellation",
        "payment": "the new payment",
        "order_address": "the new delivery address",
        "modify": "changing the items",
        "exchange": "the exchange",
        "return": "the return",
    }.get(request.kind, "this")


def _status_refusal(order: dict[str, Any], request: Request, account: Account) -> str | None:
    status = str(order.get("status"))
    oid = order.get("order_id")
    if request.kind in ("cancel", "payment", "order_address", "modify"):
        if status == "processed":
            return f"change order {oid}: it has been processed and is on its way, so it can no longer be cancelled or changed."
        if status != "pending":
            return f"change order {oid}: it is {status}, and only a pending order can be cancelled or changed."
        if request.kind == "modify" and order.get("items_modified"):
            return f"change the items of order {oid}: its items have already been changed once."
    if request.kind in ("exchange", "return"):
        if status == "processed":
            return f"return or exchange items of order {oid} yet: it is still on its way."
        if status != "delivered":
            return f"return or exchange items of order {oid}: it is {status}."
        if order.get("returned") or order.get("exchanged"):
            return f"return or exchange items of order {oid}: a return or exchange was already asked for on it."
        placed = date.fromisoformat(str(order.get("date")))
        if account.today() - placed > timedelta(days=30):
            return f"return or exchange items of order {oid}: it was placed on {placed}, more than 30 days ago, so it is past the return window."
    return None


def _change(
    conversation: Conversation,
    account: Account,
    request: Request,
    order: dict[str, Any] | None,
    tag: str,
) -> dict[str, Any] | str | None:
    oid = str(order.get("order_id")) if order else ""
    extra_method = _method(conversation.reply_after(f"{ASK_PAYMENT} {tag}") or "")
    method = extra_method or request.method
    if request.kind == "cancel":
        reason = request.reason or _cancel_reason(
            conversation.reply_after(f"{ASK_REASON} {tag}") or ""
        )
        if reason is None:
            if conversation.agent_said(f"{ASK_REASON} {tag}"):
                return f"{CANNOT} {tag} cancel the order for that reason: only 'no longer needed' or 'ordered by mistake'."
            return {
                "message": f"{ASK_REASON} {tag} order {oid}: because you no longer need it, or because you ordered it by mistake?"
            }
        assert order is not None
        paid = account.label(str(order.get("payment_id")))
        statement = (
            f"Please confirm {tag}: I will cancel {_order_summary(order)}, reason: "
            f"{reason.replace('_', ' ')}. The whole total of €{float(order.get('total') or 0):.2f} goes back to your {paid}. {CONFIRM}"
        )
        return _confirm_or_act(
            conversation, statement, tag, "cancel_pending_order", order_id=oid, reason=reason
        )
    if request.kind == "payment":
        assert order is not None
        target = account.payment(method)
        if target is None:
            return _ask_payment(conversation, account, tag, "pay the order")
        total = float(order.get("total") or 0)
        if target.get("kind") == "gift_card" and float(target.get("balance") or 0) < total:
            return {
                "message": f"{CANNOT} {tag} move order {oid} to your gift card: its balance of €{float(target.get('balance') or 0):.2f} does not cover the total of €{total:.2f}."
            }
        old = account.label(str(order.get("payment_id")))
        statement = (
            f"Please confirm {tag}: order {oid} (total €{total:.2f}) will be paid with your "
            f"{target.get('label')} instead of your {old}: €{total:.2f} charged to your {target.get('label')} "
            f"and €{total:.2f} refunded to your {old}. {CONFIRM}"
        )
        return _confirm_or_act(
            conversation,
            statement,
            tag,
            "modify_pending_order_payment",
            order_id=oid,
            payment_id=target["payment_id"],
        )
    if request.kind in ("order_address", "default_address"):
        address = request.address
        if address is None:
            return f"{CANNOT} {tag} read the new address."
        street, city, zipcode = address
        if request.kind == "default_address":
            current = account.profile.get("address") or {}
            statement = (
                f"Please confirm {tag}: your default address changes from {current.get('street')}, "
                f"{current.get('city')} {current.get('zip')} to {street}, {city} {zipcode}; orders already "
                f"placed keep their address, and nothing is charged. {CONFIRM}"
            )
            return _confirm_or_act(
                conversation,
                statement,
                tag,
                "modify_user_address",
                user_id=account.user_id,
                street=street,
                city=city,
                zip=zipcode,
            )
        assert order is not None
        statement = (
            f"Please confirm {tag}: {_order_summary(order)} will be delivered to {street}, {city} {zipcode} "
            f"instead; nothing is charged or refunded. {CONFIRM}"
        )
        return _confirm_or_act(
            conversation,
            statement,
            tag,
            "modify_pending_order_address",
            order_id=oid,
            street=street,
            city=city,
            zip=zipcode,
        )
    assert order is not None
    if request.kind == "return":
        return _return(conversation, account, request, order, tag, method)
    return _swap(conversation, account, request, order, tag, method)


def _ask_payment(
    conversation: Conversation, account: Account, tag: str, purpose: str
) -> dict[str, Any] | str:
    if (
        conversation.reply_after(f"{ASK_PAYMENT} {tag}") is not None
        and sum(
            1
            for role, t in conversation.turns
            if role == "assistant" and f"{ASK_PAYMENT} {tag}" in t
        )
        >= 2
    ):
        return f"{CANNOT} {tag} tell which payment method you mean."
    labels = ", ".join(str(o.get("label")) for o in account.profile.get("payment_methods") or [])
    return {"message": f"{ASK_PAYMENT} {tag} {purpose}? You have: {labels}."}


def _return(
    conversation: Conversation,
    account: Account,
    request: Request,
    order: dict[str, Any],
    tag: str,
    method: str | None,
) -> dict[str, Any] | str | None:
    items = []
    parts = []
    refund = 0.0
    for swap in request.swaps:
        line = _find_line(order, swap)
        if line is None:
            return {"message": f"{CANNOT} {tag} find {swap.name} in order {order.get('order_id')}."}
        quantity = min(
            int(swap.quantity or line.get("quantity") or 1), int(line.get("quantity") or 1)
        )
        items.append({"product_id": line["product_id"], "quantity": quantity})
        parts.append(_line_text(line, quantity))
        refund += quantity * float(line.get("unit_price") or 0)
    if not items:
        return f"{CANNOT} {tag} tell which item to return."
    original = str(order.get("payment_id"))
    allowed = {original} | {
        str(o.get("payment_id"))
        for o in account.profile.get("payment_methods") or []
        if o.get("kind") == "gift_card"
    }
    target = account.payment(method)
    if target is None or str(target.get("payment_id")) not in allowed:
        asked = conversation.reply_after(f"{ASK_PAYMENT} {tag}")
        if (
            asked is not None
            and target is not None
            and str(target.get("payment_id")) not in allowed
        ):
            return _transfer(
                conversation,
                f"The shopper wants the refund of a return from order {order.get('order_id')} on their "
                f"{target.get('label')}, which did not pay the order.",
            )
        why = (
            f"A refund can only go to the payment that paid the order (your {account.label(original)}) or to "
            "one of your gift cards"
        )
        if target is not None:
            why += f", not to your {target.get('label')}"
        return {"message": f"{why}. {ASK_PAYMENT} {tag} receive the refund of €{refund:.2f}?"}
    statement = (
        f"Please confirm {tag}: from order {order.get('order_id')} placed on {order.get('date')}, I will return "
        f"{'; '.join(parts)}, a refund of €{refund:.2f} to your {target.get('label')}. {CONFIRM}"
    )
    return _confirm_or_act(
        conversation,
        statement,
        tag,
        "return_delivered_order_items",
        order_id=order.get("order_id"),
        items=items,
        refund_payment_id=target["payment_id"],
    )


def _variants(conversation: Conversation, product_id: str) -> list[dict[str, Any]] | None:
    for use in conversation.results("get_product_variants"):
        if use.args.get("product_id") == product_id and isinstance(use.result, dict):
            return list(use.result.get("variants") or [])
    return None


def _swap(
    conversation: Conversation,
    account: Account,
    request: Request,
    order: dict[str, Any],
    tag: str,
    method: str | None,
) -> dict[str, Any] | str | None:
    swaps = []
    parts = []
    difference = 0.0
    for swap in request.swaps:
        line = _find_line(order, swap)
        if line is None:
            return {
                "message": f"{CANNOT} {tag} find {swap.name} ({swap.size}) in order {order.get('order_id')}."
            }
        if swap.other_product:
            return {
                "message": (
                    f"{CANNOT} {tag} exchange {swap.name} for {swap.other_product}: an exchange can only swap "
                    f"an item for another pack or recipe of the same product. {OFFER_RETURN}"
                )
            }
        variants = _variants(conversation, str(line["product_id"]))
        if variants is None:
            return {
                "tool_calls": [
                    call(conversation, "get_product_variants", product_id=line["product_id"])
                ]
            }
        chosen = None
        for variant in variants:
            size_ok = str(variant.get("quantity") or variant.get("size")) == swap.new_size
            price_ok = (
                swap.new_price is None
                or abs(float(variant.get("price") or 0) - swap.new_price) < 0.005
            )
            if (
                size_ok
                and price_ok
                and variant.get("id", variant.get("product_id")) != line["product_id"]
            ):
                chosen = variant
        if chosen is None:
            return {
                "message": f"{CANNOT} {tag} find a {swap.new_size} pack of {swap.name} at that price."
            }
        quantity = (
            int(line.get("quantity") or 1)
            if request.kind == "modify"
            else int(swap.quantity or line.get("quantity") or 1)
        )
        new_id = str(chosen.get("id", chosen.get("product_id")))
        entry: dict[str, Any] = {"product_id": line["product_id"], "new_product_id": new_id}
        if request.kind == "exchange":
            entry["quantity"] = quantity
        swaps.append(entry)
        new_price = float(chosen.get("price") or 0)
        difference += quantity * (new_price - float(line.get("unit_price") or 0))
        parts.append(
            f"{quantity} × {line.get('name')} ({line.get('size')}, €{float(line.get('unit_price') or 0):.2f}) for "
            f"the {chosen.get('quantity') or chosen.get('size')} pack at €{new_price:.2f}"
        )
    if not swaps:
        return f"{CANNOT} {tag} tell which items to change."
    target = account.payment(method)
    if target is None:
        return _ask_payment(conversation, account, tag, "take the price difference")
    if (
        difference > 0
        and target.get("kind") == "gift_card"
        and float(target.get("balance") or 0) < difference
    ):
        return {
            "message": f"{CANNOT} {tag} charge {_money(difference)} to your gift card: its balance is too low."
        }
    money = (
        f"{_money(difference)} charged to your {target.get('label')}"
        if difference > 0.004
        else f"{_money(difference)} refunded to your {target.get('label')}"
        if difference < -0.004
        else f"no price difference (your {target.get('label')} is not charged)"
    )
    verb = "exchange" if request.kind == "exchange" else "change, in"
    statement = (
        f"Please confirm {tag}: I will {verb} order {order.get('order_id')} placed on {order.get('date')}: "
        f"{'; '.join(parts)}; {money}. {CONFIRM}"
    )
    tool = request.tool
    return _confirm_or_act(
        conversation,
        statement,
        tag,
        tool,
        order_id=order.get("order_id"),
        swaps=swaps,
        payment_id=target["payment_id"],
    )


def _confirm_or_act(
    conversation: Conversation, statement: str, tag: str, tool: str, **arguments: Any
) -> dict[str, Any]:
    """State the change and ask; on a clear yes to that very statement, make it."""
    last = conversation.last_agent
    reply = conversation.last_user
    if tag in last and CONFIRM in last and reply:
        if is_yes(reply) and last == statement:
            return {"tool_calls": [call(conversation, tool, **arguments)]}
        if is_no(reply) and not is_yes(reply):
            return {
                "message": f"{CANNOT} {tag} make a change you do not want, so I left it as it is."
            }
    return {"message": statement}


def _outcome(result: Any, request: Request, account: Account) -> str:
    if not isinstance(result, dict):
        return "Done."
    status = result.get("status")
    refunds = result.get("refunds") or []
    amounts = []
    for refund in refunds[-1:]:
        if isinstance(refund, dict):
            amount = refund.get("amount")
            pid = refund.get("payment_id")
            if isinstance(amount, (int, float)):
                verb = "refunded to" if amount >= 0 else "charged to"
                amounts.append(f"{_money(float(amount))} {verb} your {account.label(str(pid))}")
    what = f"order {result.get('order_id')}" if result.get("order_id") else "your account"
    said = f"Done: {what} is now {status}" if status else f"Done: {what} is updated"
    return said + (f"; {'; '.join(amounts)}." if amounts else ".")
