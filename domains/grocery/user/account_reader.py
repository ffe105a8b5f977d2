"""The account shopper's reader: one agent message in, what it does at the account desk out.

The only part of the account shopper that interprets words; its decision engine sees only the
`AccountReading`. Rule-based, one reader per account (it finds the account's order ids and
streets by name, as the shopping reader finds products):
- the topics the message asks about, in the order it asks them: who the shopper is (email, or
  name and zip), which order, which items, which address, the reason, the payment method;
- the order ids and streets it names, and every amount of money it writes (`12.50`, also each
  shorter amount inside a longer one, as "the words contain the sum" has always been read);
- whether it asks for a yes (a question with "confirm", "shall I", "go ahead", "proceed", ...);
  together with an order and its sum named, that is a change stated for confirmation;
- whether it reports a result ("I've cancelled it", "is now updated"), offers a transfer to a
  person, or only chats (none of the above: thanks, greetings, "anything else?").
The engine decides what each of these is worth; the reader decides nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal, get_args

__all__ = ["ACCOUNT_TOPICS", "AccountReader", "AccountReading", "AccountTopic", "amounts_in"]

AccountTopic = Literal["who", "order", "items", "address", "reason", "payment"]
ACCOUNT_TOPICS: tuple[AccountTopic, ...] = get_args(AccountTopic)

# The account topics an assistant may ask about (a message's topics are read in text order).
_ASKS: dict[AccountTopic, re.Pattern[str]] = {
    "who": re.compile(r"\b(e-?mail|zip|post ?code|full name|your name)\b", re.I),
    "order": re.compile(
        r"\b(which|wich|what) order\b|\border (id|number)\b|\bnumber of (the|your) order\b"
        r"|\borders?\b[^?]*\bwhich one\b",
        re.I,
    ),
    "items": re.compile(r"\b(which|what) (of the )?(items?|products?|sizes?)\b", re.I),
    "address": re.compile(r"\b(new|which|what) address\b", re.I),
    "reason": re.compile(r"\b(reason|why|cause)\b", re.I),
    "payment": re.compile(
        r"\b(which|what) (payment|card|method)\b|\b(pay(ment)?|paymn?t|refund) method\b"
        r"|\bwhere the refund\b",
        re.I,
    ),
}
_ASKS_YES = re.compile(
    r"\b(confirm|go ahead|proceed|shall i|should i|ok to|okay to|do you want me to)\b", re.I
)
_AMOUNT = re.compile(r"\d+\.\d{2}")
_REPORTS = re.compile(
    r"(?i)\b(?:i'?ve|i have|has been|have been|is now|are now|it'?s now|all set|done[.!]|"
    r"went through|is cancell?ed|was cancell?ed|(?:cancell?ed|updated|changed|submitted|"
    r"processed|requested|filed|moved|switched) (?:it|that|them|the|your|order)\b|"
    r"it'?s done|its done|is processing|: return requested)"
)
_TRANSFER = re.compile(
    r"(?i)\b(?:transfer(?:ring)? you|hand (?:you|this) (?:over|off)|human (?:agent|colleague)|"
    r"(?:a|my) (?:colleague|supervisor|specialist)|put you through|pass (?:you|this) (?:on|to))"
)


@dataclass(frozen=True)
class AccountReading:
    """What one agent message does at the account desk, as the shopper understands it."""

    asked: tuple[AccountTopic, ...]
    """Topics the message asks the shopper about, in the order it asks them."""
    orders: tuple[str, ...] = ()
    """The account's order ids the message names."""
    streets: tuple[str, ...] = ()
    """The account's streets (current or requested) the message names."""
    amounts: frozenset[str] = frozenset()
    """Every sum of money written in the message, as `12.50`."""
    asks_yes: bool = False
    """The message asks the shopper for a yes (to a change, stated in full or not)."""
    reports: bool = False
    """The message reports a result (a change made, a request filed)."""
    transfer: bool = False
    """The message offers or announces a transfer to a person."""

    @property
    def chats(self) -> bool:
        """Nothing but talk: no question, no yes asked for, no result, no transfer."""
        return not (self.asked or self.asks_yes or self.reports or self.transfer)


def amounts_in(text: str) -> frozenset[str]:
    """Every sum written as digits with two decimals, and each shorter one inside it ('112.50'
    holds '12.50' and '2.50')."""
    out: set[str] = set()
    for match in _AMOUNT.finditer(text):
        whole = match.group(0)
        out.update(whole[i:] for i in range(whole.index(".")))
    return frozenset(out)


def topics_in(text: str) -> tuple[AccountTopic, ...]:
    """The account topics one message asks about, in the order the message names them."""
    found = sorted(
        (m.start(), topic) for topic, rx in _ASKS.items() if (m := rx.search(text)) is not None
    )
    return tuple(topic for _, topic in found)


def asks_yes(text: str) -> bool:
    """Whether the message asks for a yes: a question with a confirming phrase."""
    return "?" in text and bool(_ASKS_YES.search(text))


class AccountReader:
    """Reads agent messages for one account: its order ids and streets are what it can name."""

    def __init__(self, orders: Iterable[str] = (), streets: Iterable[str] = ()) -> None:
        self.orders = tuple(dict.fromkeys(orders))
        self.streets = tuple(dict.fromkeys(streets))

    def read(self, text: str) -> AccountReading:
        """The acts of one agent message."""
        return AccountReading(
            asked=topics_in(text),
            orders=self.named_orders(text),
            streets=tuple(s for s in self.streets if s in text),
            amounts=amounts_in(text),
            asks_yes=asks_yes(text),
            reports=bool(_REPORTS.search(text)),
            transfer=bool(_TRANSFER.search(text)),
        )

    def named_orders(self, text: str) -> tuple[str, ...]:
        """The account's order ids the text names."""
        return tuple(o for o in self.orders if o in text)
