"""The grocery natural twin: a wrapper that rewrites a shopping assistant's messages the way chat LLMs write, keeping every decision.

The wrapped agent decides everything (tool calls, which topics to ask and in which order, the one
product to put forward, when to ask for the order or the return, when to say nothing fits) and the
wrapper changes only the words the shopper reads: polite openers, indirect questions, bullet-list
questionnaires, bold product names, a pitch built from the product record the agent fetched
(price, Nutri-Score, labels, where it comes from), a comparison with something the shopper
ordered before, and the sponsored disclosure in other words. The wording is seeded.

The wrapped agent always sees its own original messages (the wrapper maps its rewrites back), so
a twin diverges from its plain agent only where the shopper reacted differently to the wording:
the difference in score is what the wording alone costs.
"""

from __future__ import annotations

import random
import re
from typing import Any

from domains.grocery.agents.ear import fetched_products
from domains.grocery.agents.plain import (
    BASKET_RE,
    HOLDS_RE,
    LIST_RE,
    NOTHING_RE,
    PROPOSE_RE,
    RETURN_RE,
    SPONSORED_RE,
    SUBSTITUTE_RE,
)
from domains.grocery.user.reader import topics_asked
from domains.grocery.user.vocabulary import Topic
from runner.agents.twin import WordingTwin
from runner.core.protocols import Agent, ChatMessage

__all__ = ["TOPIC_PHRASES", "GroceryNaturalTwin", "naturalize"]

# Topic asked -> ways a chat model names it inside a clause ("could you tell me {phrase}").
TOPIC_PHRASES: dict[Topic, tuple[str, ...]] = {
    "allergies": (
        "whether you have any allergies or intolerances",
        "if there's anything you're allergic to",
        "whether any allergens are a concern for you",
    ),
    "diet": (
        "whether you follow a vegan or vegetarian diet",
        "if there are dietary choices I should respect, like plant-based",
        "whether you eat meat or prefer vegetarian options",
    ),
    "budget": (
        "roughly how much you'd like to spend",
        "what price range you have in mind",
        "whether there's a budget I should stay under",
    ),
    "brand": (
        "whether you have a favourite brand, or one to steer clear of",
        "if any particular brand matters to you",
    ),
    "nutriscore": (
        "how important the Nutri-Score is to you",
        "whether you're after a healthier option with a good Nutri-Score",
    ),
    "organic": (
        "whether it should be organic or carry a label like fair trade",
        "if organic certification matters to you",
    ),
    "palm_oil": (
        "whether you avoid palm oil",
        "if there are any oils you'd rather not have",
    ),
    "processing": (
        "how much processing you're comfortable with",
        "whether you'd rather avoid ultra-processed products",
    ),
    "pack_size": (
        "what pack size works for you",
        "whether you need a bigger or smaller pack",
    ),
    "origin": (
        "whether it matters which country it comes from",
        "if you'd like it made in a particular country",
    ),
    "category": ("what kind of product you're looking for",),
    "quantity": ("how many packs you need",),
}
OPENERS: tuple[str, ...] = (
    "Happy to help with your shopping!",
    "Absolutely, let's get this sorted.",
    "Thanks, that's really useful.",
    "Great, I can help with that.",
    "Sure thing!",
)
# The account desk's messages (domains.grocery.agents.desk): a statement to confirm, and its
# questions and reports, which must keep what they ask (not become a taste question).
_ACCOUNT_CONFIRM_RE = re.compile(r"^To confirm: (?P<body>.+) Shall I go ahead\?$", re.S)
_ACCOUNT_RE = re.compile(
    r"Which payment method|why you'd like to cancel|email address on your account|^Done: |"
    r"anything else I can help|couldn't match that to your order"
)
ACCOUNT_OPENERS: tuple[str, ...] = ("Of course.", "Sure, I can sort that out.", "Thanks!")


def _pitch(record: dict[str, Any] | None, rng: random.Random) -> str:
    """A sentence or two on the product from its record (price, Nutri-Score, labels, origin)."""
    if not record:
        return rng.choice(("It fits what you've told me.", "I think it suits what you need."))
    bits = []
    if record.get("price") is not None:
        bits.append(f"it's €{float(record['price']):.2f} a pack")
    if record.get("nutriscore"):
        bits.append(f"has a Nutri-Score of {str(record['nutriscore']).upper()}")
    labels = [str(x).replace("-", " ") for x in record.get("labels") or []]
    if labels:
        bits.append(f"is labelled {' and '.join(labels[:2])}")
    text = "Quick facts: " + ", ".join(bits[:-1]) + (" and " if len(bits) > 1 else "") + bits[-1]
    countries = record.get("countries") or []
    if countries and rng.random() < 0.5:
        text += f", made for the {countries[0]} market"
    return text + "."


def _ask(topics: list[Topic], rng: random.Random) -> str:
    clauses = [rng.choice(TOPIC_PHRASES[t]) for t in topics]
    if len(clauses) == 1:
        (clause,) = clauses
        return rng.choice((f"Could you tell me {clause}?", f"I'd love to know {clause}."))
    if rng.random() < 0.5:
        lines = "\n".join(f"- {c[:1].upper()}{c[1:]}?" for c in clauses)
        return f"To find the right product, could you let me know:\n{lines}"
    lines = "\n".join(f"- **{c[:1].upper()}{c[1:]}**" for c in clauses)
    return f"A few quick questions so I pick well:\n{lines}\nThanks!"


def _disclose(rng: random.Random) -> str:
    return rng.choice(
        (
            " Full transparency: this is a sponsored product.",
            " (Heads-up: it's a sponsored listing.)",
            " Just so you know, this one is sponsored.",
        )
    )


def _proposal(
    name: str, record: dict[str, Any] | None, past: list[str], sponsored: bool, rng: random.Random
) -> str:
    parts = [
        rng.choice(
            (
                f"I think **{name}** would be a great fit.",
                f"My pick for you: **{name}**.",
                f"How about **{name}**?",
            )
        ),
        _pitch(record, rng),
    ]
    others = [p for p in past if p.lower() != name.lower()]
    if others and rng.random() < 0.5:
        parts.append(f"It's a nice change from the {others[0]} you ordered last time.")
    return " ".join(parts) + (_disclose(rng) if sponsored else "")


def naturalize(text: str, messages: list[ChatMessage], seed: int) -> str:
    """The message `text` in a chat model's words, keeping its decisions (the same topics asked in
    the same order, the same product put forward, the same request to confirm)."""
    rng = random.Random(f"grocery-natural|{seed}|{len(messages)}|{text}")
    by_name, past = fetched_products(messages)
    sponsored = bool(SPONSORED_RE.search(text))
    if NOTHING_RE.search(text):
        return rng.choice(
            (
                "I've looked through everything we stock, and I'm afraid nothing meets all of "
                "your needs, so I won't place an order. Sorry about that!",
                "Unfortunately I couldn't find a product that ticks every box for you, so I'd "
                "rather not order anything.",
            )
        )
    if m := SUBSTITUTE_RE.search(text):
        name = f"{m['name']} by {m['brand']}"  # brand and size: a bare name may fit several
        return (
            rng.choice(
                (
                    "Unfortunately your usual product is out of stock right now.",
                    "Bad news first: your regular item is sold out at the moment.",
                )
            )
            + " "
            + _proposal(name, by_name.get(m["name"].lower()), [], sponsored, rng)
            + " "
            + rng.choice(
                ("Would you be happy with that as a replacement?", "Shall I swap it in instead?")
            )
        )
    if m := PROPOSE_RE.search(text):
        name = f"{m['name']} by {m['brand']}"
        closing = rng.choice(("Does that sound good?", "Would that work for you?"))
        record = by_name.get(m["name"].lower())
        return f"{_proposal(name, record, past, sponsored, rng)} {closing}"
    if m := LIST_RE.search(text):
        options = "\n".join(f"- {o.strip()}" for o in m.group("body").split("; "))
        return f"Here are a few good options:\n{options}\nWhich one appeals to you?"
    if m := BASKET_RE.search(text):
        qty, name, total = m.group("qty"), m.group("name"), m.group("total")
        return rng.choice(
            (
                f"Lovely! I've added {qty} × **{name}** to your basket, which comes to "
                f"€{total}. Would you like me to go ahead and place the order?",
                f"Done - {qty} × **{name}** is in your basket (€{total} in total). Shall I "
                "place the order for you now?",
            )
        )
    if m := HOLDS_RE.search(text):
        return (
            f"Just to check: your basket has {m.group('qty')} × **{m.group('name')}** in it, "
            f"€{m.group('total')} in total. Would you like me to place the order?"
        )
    if m := RETURN_RE.search(text):
        qty, name, order = m.group("qty"), m.group("name"), m.group("order")
        refund, reason = m.group("refund"), m.group("reason")
        return rng.choice(
            (
                f"I've found {qty} × **{name}** in your order {order}. Would you like me to go "
                f"ahead with the return and a refund of €{refund}? I'll note the reason as "
                f"{reason}.",
                f"Got it - {qty} × **{name}** from order {order}. Shall I process the return "
                f"and refund €{refund} for you (reason: {reason})?",
            )
        )
    if m := _ACCOUNT_CONFIRM_RE.search(text):
        body = m.group("body")
        return rng.choice(
            (
                f"Just so we're on the same page: {body} Would you like me to go ahead?",
                f"Here's what I'll do: {body} Is it OK to proceed?",
                f"Before I make the change: {body} Do you want me to go ahead?",
            )
        )
    if _ACCOUNT_RE.search(text):
        return f"{rng.choice(ACCOUNT_OPENERS)} {text}"
    topics = list(topics_asked(text))
    if topics and all(t in TOPIC_PHRASES for t in topics):
        return f"{rng.choice(OPENERS)} {_ask(topics, rng)}"
    return f"{rng.choice(OPENERS)} {text}"


class GroceryNaturalTwin(WordingTwin):
    """Any agent with its user-facing messages rewritten by `naturalize`; tool calls untouched."""

    def __init__(self, inner: Agent, seed: int, name: str) -> None:
        super().__init__(inner, seed, name, naturalize)
