"""The account shopper's leak audit: no reply states a fact of the account before it may.

The facts are the account's: its order ids, the sums its requests move and its orders' totals
(which take the catalog's prices), the email, full name and zip code, the streets, the payment
methods and the cancel reasons. Two checks read them:
- `account_leaks` checks one written reply against the template's words of the same act and the
  agent's last message (LLM mode's writer check);
- `audit_account` checks every shopper message of a trial, as the shopping audit does: a fact is
  said in time when the shopper volunteers it (the trial's opening request carries it: who the
  shopper is for a `volunteer` task, each request's order, reason, payment, new address and the
  prices of the lines it names), when the agent asked its topic before (read by the account
  reader: "order" for an order id, "who" for the email, name and zip, "address", "reason",
  "payment"), or when an agent message said it first. A sum is never the shopper's to give: only
  the agent may say it first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from domains.grocery.accounts import request_amount
from domains.grocery.tasks import GroceryTask
from domains.grocery.user.account_acts import Line, Wants, WhoIAm
from domains.grocery.user.account_engine import AccountEngine
from domains.grocery.user.account_reader import AccountReader, AccountTopic
from runner.core.transcript import Leak, LeakAudit, MessageEvent, Transcript
from runner.kits.user.leaks import audit_transcript, leak_at

__all__ = ["Fact", "account_facts", "account_leaks", "audit_account", "volunteered"]

_REASON_WORDS = {
    "no_longer_needed": r"no longer need|don'?t need|do not need|not need(?:ed)? any ?more",
    "ordered_by_mistake": r"mistake|by accident|accidentally|wrong order",
}


@dataclass(frozen=True)
class Fact:
    """One account fact a reply may state only when its act does: what it is, how it is found,
    its value as an act carries it, and the topic whose question lets the shopper say it (None:
    no question does, as for a sum)."""

    what: str
    pattern: re.Pattern[str]
    value: str = ""
    topic: AccountTopic | None = None


def _literal(what: str, value: str, topic: AccountTopic | None) -> Fact:
    pattern = re.compile(r"(?<![\w.])" + re.escape(value) + r"(?![\w])", re.I)
    return Fact(what, pattern, value, topic)


def account_facts(task: GroceryTask, catalog: Any) -> list[Fact]:
    """Every fact of the task's account a reply could give away: order ids, the sums each
    request moves and each order's total, the email, the full name, the zip codes, the streets,
    the payment methods and the cancel reasons."""
    account = task.account
    assert account is not None
    me = account.shopper
    facts = [_literal(f"order id {o.order_id}", o.order_id, "order") for o in account.orders]
    sums = {o.total for o in account.orders if o.user_id == me.user_id}
    sums |= {a for r in task.requests if (a := request_amount(r, account, catalog)) is not None}
    facts += [_literal(f"the sum {s:.2f}", f"{s:.2f}", None) for s in sorted(sums)]
    facts += [
        _literal("the email", me.email, "who"),
        _literal("the zip code", me.address.zip, "who"),
    ]
    facts.append(_literal("the full name", f"{me.first_name} {me.last_name}", "who"))
    streets = {me.address.street} | {r.address.street for r in task.requests if r.address}
    zips = {r.address.zip for r in task.requests if r.address} - {me.address.zip}
    facts += [_literal(f"the street {s}", s, "address") for s in sorted(streets)]
    facts += [_literal(f"the zip code {z}", z, "address") for z in sorted(zips)]
    facts += [_literal(f"the payment {p.label}", p.label, "payment") for p in me.payment_methods]
    reasons = {r.reason for r in task.requests if r.reason is not None}
    facts += [
        Fact(f"the reason {r}", re.compile(_REASON_WORDS[r], re.I), r, "reason")
        for r in sorted(reasons)
    ]
    return facts


def account_leaks(facts: list[Fact], words: str, reference: str, echo: str) -> list[str]:
    """The facts `words` state that neither `reference` (the template's words of the same act)
    nor `echo` (the agent's last message) says: each one said before it was asked."""
    return [
        f"states {f.what} ({m.group(0)!r}), which the act does not give"
        for f in facts
        if (m := f.pattern.search(words))
        and not f.pattern.search(reference)
        and not f.pattern.search(echo)
    ]


def _prices(line: Line) -> set[str]:
    return {f"{line.paid:.2f}"} | (
        {f"{line.new_price:.2f}"} if line.new_price is not None else set()
    )


def volunteered(task: GroceryTask, catalog: Any, seed: int) -> frozenset[str]:
    """The fact values the trial's shopper gives unasked: what its opening request carries."""
    out: set[str] = set()
    for part in AccountEngine(task, catalog, seed).opening().parts:
        if isinstance(part, WhoIAm):
            name = f"{part.first_name} {part.last_name}" if part.first_name else ""
            out |= {v for v in (part.email, part.zip, name) if v}
        elif isinstance(part, Wants):
            out |= {v for v in (part.reason, part.pay, part.street, part.zip) if v}
            out |= {price for line in part.lines for price in _prices(line)}
    return frozenset(out)


def audit_account(task: GroceryTask, catalog: Any, transcript: Transcript) -> LeakAudit:
    """Check every shopper message of an account trial: no fact said before it may be."""
    facts = account_facts(task, catalog)
    free = volunteered(task, catalog, transcript.seed)
    reader = AccountReader()
    agent_before = [""]  # all the agent said before each event, by event index
    for event in transcript.events:
        said = event.content if isinstance(event, MessageEvent) and event.role == "agent" else ""
        agent_before.append(agent_before[-1] + "\n" + said if said else agent_before[-1])

    def leaks_in(text: str, asked: frozenset[str], echo: str, index: int) -> list[Leak]:
        del echo  # every earlier agent message counts, not only the last
        out = []
        for fact in facts:
            m = fact.pattern.search(text)
            if m is None or fact.value in free or (fact.topic is not None and fact.topic in asked):
                continue
            if fact.pattern.search(agent_before[index]):
                continue
            out.append(
                leak_at(index, fact.topic or "sum", False, text, m.span(), fact.what, "its topic")
            )
        return out

    return audit_transcript(transcript, lambda text: reader.read(text).asked, leaks_in)
