"""The shopper's leak audit: no reply states a hidden need's value, nor an on_ask need's value before its topic is asked.

`message_leaks` checks one reply against the ledger; `audit_leaks` checks every reply of a trial
(the loop records it in the transcript, as for movies; an account trial against its account's
facts, `account_leaks.audit_account`); `audit_probe` drives a fresh shopper with
probing messages (each topic asked alone; each product of the kind proposed alone) and audits
every reply, which is the v1-style audit the difficulty gate runs on every task.
"""

from __future__ import annotations

import re
from collections.abc import Set as AbstractSet
from typing import Any

from domains.grocery.tasks import GroceryTask
from domains.grocery.user.account_leaks import audit_account
from domains.grocery.user.needs import Need, needs_of
from domains.grocery.user.reader import topics_asked
from domains.grocery.user.scripted import ScriptedShopper
from domains.grocery.user.vocabulary import ALLERGEN_WORDS, TOPICS, Topic
from runner.core.transcript import Leak, LeakAudit, MessageEvent, Transcript
from runner.kits.user.leaks import audit_transcript, leak_at

__all__ = ["PROBE_QUESTIONS", "audit_leaks", "audit_probe", "message_leaks", "value_patterns"]

# One plain question per topic, as an assistant would ask it.
PROBE_QUESTIONS: dict[Topic, str] = {
    "allergies": "Do you have any allergies?",
    "diet": "Do you follow a particular diet?",
    "budget": "What's your budget?",
    "category": "What kind of product are you looking for?",
    "brand": "Any brand you prefer?",
    "nutriscore": "Do you care about the Nutri-Score?",
    "organic": "Should it be organic?",
    "palm_oil": "Any oils you avoid?",
    "processing": "Do you mind how processed it is?",
    "pack_size": "What pack size do you need?",
    "origin": "Which country should it come from?",
    "quantity": "How many packs do you need?",
}


def _words(values: list[str]) -> str:
    return r"(?i)\b(?:" + "|".join(values) + r")\b"


def value_patterns(need: Need) -> list[re.Pattern[str]]:
    """Regexes that find the need's value stated in a message."""
    if need.kind == "allergies":
        words = [w for a in need.allergies for w in ALLERGEN_WORDS.get(a, (a,))]
        return [re.compile(_words(words))]
    if need.kind == "budget":
        assert need.budget is not None
        return [
            re.compile(re.escape(f"{need.budget:.2f}")),
            re.compile(rf"€\s?{int(need.budget)}\b"),
        ]
    c = need.constraint
    assert c is not None
    values = [str(v) for v in c.value] if isinstance(c.value, list) else [str(c.value)]
    if c.field in ("vegan", "vegetarian"):
        return [re.compile(_words(["vegan", "vegetarian", "plant-based", "meat"]))]
    if c.field == "nutriscore":
        letters = "".join(v for v in values if len(v) == 1)
        return [re.compile(rf"(?i)nutri-?score (?:of )?[{letters}]\b|\b[{letters}] or [a-e]\b")]
    if c.field == "labels":
        return [re.compile(_words([re.escape(v).replace(r"\-", "[- ]?") for v in values]))]
    if c.field == "palm_oil":
        return [re.compile(r"(?i)\bpalm\b")]
    if c.field == "nova_group":
        return [re.compile(r"(?i)\bnova\b|ultra-processed|\bgroup [1-4]\b")]
    if c.field == "price":
        return [re.compile(re.escape(f"{float(values[0]):.2f}"))]
    return [re.compile(_words([re.escape(v) for v in values]))]


def _found(
    needs: list[Need], text: str, asked: AbstractSet[str], echo: str
) -> list[tuple[Need, re.Match[str]]]:
    """Each need whose value the reply states too early, with where (at most one match per need)."""
    found = []
    stated_topics = {n.topic for n in needs if n.reveal == "volunteer"} | asked
    for need in needs:
        if need.reveal == "volunteer" or (need.reveal == "on_ask" and need.topic in asked):
            continue
        # A value another (stated) need of the same topic also says is no leak.
        if need.reveal == "on_ask" and need.topic in stated_topics:
            continue
        for pattern in value_patterns(need):
            m = pattern.search(text)
            if m and not pattern.search(echo):
                found.append((need, m))
                break
    return found


def _when(need: Need) -> str:
    return "is hidden" if need.reveal == "hidden" else "was not asked about yet"


def message_leaks(needs: list[Need], text: str, asked: set[Topic], *, echo: str = "") -> list[str]:
    """What one reply leaks, given the topics asked so far and the agent's last message."""
    return [
        f"reply {text!r} states {m.group(0)!r} while the {need.topic} need {_when(need)}"
        for need, m in _found(needs, text, asked, echo)
    ]


def audit_leaks(task: GroceryTask, transcript: Transcript, catalog: Any = None) -> LeakAudit:
    """Check every shopper message of a trial against the task's reveal tags (the per-trial audit).

    An account task's trial is checked against its account's facts (`audit_account`), whose sums
    take the catalog's prices: it needs `catalog`."""
    if task.account is not None:
        if catalog is None:
            raise ValueError(f"task {task.id}: the account leak audit needs the catalog")
        return audit_account(task, catalog, transcript)
    needs = needs_of(task)

    def leaks_in(text: str, asked: frozenset[str], echo: str, index: int) -> list[Leak]:
        return [
            leak_at(
                index,
                need.constraint.field if need.constraint is not None else need.kind,
                need.reveal == "hidden",
                text,
                (m.start(), m.end()),
                repr(m.group(0)),
                f"the {need.topic} need",
            )
            for need, m in _found(needs, text, asked, echo)
        ]

    return audit_transcript(transcript, topics_asked, leaks_in)


def _reply(user: ScriptedShopper, conversation: list[MessageEvent], text: str) -> str:
    conversation.append(MessageEvent(role="agent", content=text))
    turn = user.reply(conversation)
    conversation.append(MessageEvent(role="user", content=turn.content))
    return turn.content


def audit_probe(
    task: GroceryTask, catalog: Any, seeds: tuple[int, ...] = (0, 1, 2, 3)
) -> list[str]:
    """Leaks in the shopper's replies to a set of probing conversations (empty: clean)."""
    needs = needs_of(task)
    problems: list[str] = []
    greeting = MessageEvent(role="agent", content="Hello! How can I help with your shopping?")
    kind = next(
        (
            str(
                n.constraint.value[0]
                if isinstance(n.constraint.value, list)
                else n.constraint.value
            )
            for n in needs
            if n.constraint is not None and n.constraint.field == "categories"
        ),
        None,
    )
    products = [p for p in catalog.items if kind is None or kind in p.categories]
    for seed in seeds:
        user = ScriptedShopper(task, catalog, seed)
        opening = user.reply([greeting]).content
        problems += message_leaks(needs, opening, set())
        for topic in TOPICS:
            user = ScriptedShopper(task, catalog, seed)
            conv = [greeting, MessageEvent(role="user", content=opening)]
            question = PROBE_QUESTIONS[topic]
            problems += message_leaks(needs, _reply(user, conv, question), {topic}, echo=question)
        for product in products[:: max(1, len(products) // 12)]:
            user = ScriptedShopper(task, catalog, seed)
            conv = [greeting, MessageEvent(role="user", content=opening)]
            pitch = f"How about {product.name} by {product.brand}?"
            problems += message_leaks(needs, _reply(user, conv, pitch), set(), echo=pitch)
    return sorted(set(problems))
