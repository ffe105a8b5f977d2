"""The grocery styled twin: a second natural wording of the shopping assistant's decisions, written from many seeded shop-assistant styles.

Nothing here was written against the shopper's reader: the wrapper knows only the plain
assistant's own sentences (its questions, `STANDARD_QUESTIONS` and `CUE_QUESTIONS`, and the
proposal, basket, return and "nothing fits" sentences of `domains.grocery.agents.plain`) and
rewrites each into the style drawn for the trial (`runner.agents.styles`): chatty, formal, terse,
non-native or cheerful; polite or not; with or without a pleasantry; questions as bullets or
prose; a pitch that describes the product (price, Nutri-Score, labels) and often ends by asking
for a reaction; a few typos. The decisions are the assistant's: the same topics asked in the
same order, the same product put forward, the same request to order or to return, the same
disclosure. A message it does not recognise is passed on unchanged.
"""

from __future__ import annotations

import random
from typing import Any

from domains.grocery.agents.ear import fetched_products
from domains.grocery.agents.plain import (
    BASKET_RE,
    HOLDS_RE,
    NOTHING_RE,
    PROPOSE_RE,
    RETURN_RE,
    SPONSORED_RE,
    SUBSTITUTE_RE,
)
from domains.grocery.agents.shopper import CUE_QUESTIONS, STANDARD_QUESTIONS
from runner.agents.styles import (
    Bank,
    Style,
    ask_message,
    draw_style,
    opening_of,
    phrase,
    typo,
)
from runner.agents.twin import WordingTwin
from runner.core.protocols import Agent, ChatMessage

__all__ = ["ASK", "GroceryStyledTwin", "plain_topics", "stylize"]

_QUESTION_TOPICS: dict[str, str] = {
    q: t for t, q in (*STANDARD_QUESTIONS.items(), *CUE_QUESTIONS.items())
}

# Topic -> how each register asks about it (one topic per question).
ASK: dict[str, Bank] = {
    "allergies": {
        "any": ("Is there anything you're allergic to?", "Any allergies I should watch out for?"),
        "formal": ("Do you have any food allergies or intolerances I should take into account?",),
        "terse": ("Allergies?",),
        "nonnative": ("You have some allergy to food?",),
        "cheerful": ("First things first: any allergies?",),
    },
    "diet": {
        "any": ("Do you eat everything, or are you vegetarian or vegan?",),
        "formal": ("Do you follow any particular diet, for instance vegetarian or vegan?",),
        "terse": ("Vegan/vegetarian?",),
        "nonnative": ("You are vegetarian or vegan, or you eat all?",),
        "cheerful": ("Are we shopping plant-based today, or anything goes?",),
    },
    "budget": {
        "any": ("How much are you looking to spend?", "What's your budget for this?"),
        "formal": ("May I ask what price range you have in mind?",),
        "terse": ("Budget?", "Max price?"),
        "nonnative": ("How much money you want to spend maximum?",),
        "cheerful": ("What's the damage we're allowed, any budget?",),
    },
    "brand": {
        "any": ("Do you have a favourite brand, or one you'd rather not buy?",),
        "terse": ("Brand preference?",),
        "nonnative": ("Some brand you like or you don't like?",),
    },
    "nutriscore": {
        "any": ("Does the Nutri-Score matter to you? Which grade would you accept?",),
        "formal": ("Is there a minimum Nutri-Score grade you would like?",),
        "terse": ("Nutri-Score?",),
        "nonnative": ("Which Nutri-Score you want, A or B or other?",),
    },
    "organic": {
        "any": ("Does it need to be organic or fair trade?",),
        "formal": ("Should I restrict the search to organic or fair-trade products?",),
        "terse": ("Organic / fair trade?",),
        "nonnative": ("It must be organic (bio) or fair trade?",),
    },
    "palm_oil": {
        "any": ("Are you avoiding palm oil?", "Any oils you steer clear of, like palm oil?"),
        "terse": ("Palm oil ok?",),
        "nonnative": ("Palm oil is ok for you or no?",),
    },
    "processing": {
        "any": ("Do you want to avoid ultra-processed products?",),
        "formal": ("How processed may the product be (NOVA group)?",),
        "terse": ("Max NOVA group?",),
        "nonnative": ("The product can be very processed or you want less processed?",),
    },
    "pack_size": {
        "any": ("What size of pack are you after?",),
        "terse": ("Pack size?",),
        "nonnative": ("Which size of the pack you need?",),
    },
    "origin": {
        "any": ("Should it come from a particular country?",),
        "terse": ("Country of origin?",),
        "nonnative": ("From which country the product must come?",),
    },
}
OPENERS: Bank = {
    "chatty": ("Sure, let's get your shopping sorted.", "Happy to help with that."),
    "formal": ("Thank you for your message.", "Certainly."),
    "terse": ("",),
    "nonnative": ("Hello, yes I can help.", "Ok, thank you."),
    "cheerful": ("Ooh, shopping time!", "Love a good shop!"),
}
LEADS: Bank = {
    "chatty": ("I'd go for **{n}** by {b}.", "Have a look at **{n}** by {b}."),
    "formal": ("I would suggest **{n}** by {b}.", "May I propose **{n}** by {b}?"),
    "terse": ("Pick: **{n}** ({b}).",),
    "nonnative": ("I think **{n}** from {b} is good for you.",),
    "cheerful": ("Found one: **{n}** by {b}!",),
}
FACTS: Bank = {
    "any": ("It costs €{p} and has Nutri-Score {s}.", "€{p} a pack, Nutri-Score {s}."),
    "terse": ("€{p}, Nutri {s}.",),
    "nonnative": ("Price is €{p}, the Nutri-Score is {s}.",),
}
REACTIONS: Bank = {
    "chatty": ("How does that sound?", "Would that do?", "Any good?"),
    "formal": ("Would that be suitable for you?",),
    "terse": ("OK?",),
    "nonnative": ("Is ok for you?",),
    "cheerful": ("Want it?", "Sound good?"),
}
STATEMENTS: Bank = {
    "chatty": ("Let me know if that works.", "Tell me if you'd like something else."),
    "formal": ("Please let me know whether this suits you.",),
    "terse": ("Yes or no.",),
    "nonnative": ("Tell me please if you want it.",),
    "cheerful": ("Tell me what you think!",),
}
SWAPS: Bank = {
    "any": (
        "Your usual one is out of stock at the moment, sorry.",
        "Bad news: your regular item is sold out.",
    ),
    "terse": ("Usual item out of stock.",),
    "nonnative": ("Your normal product is not in stock now, sorry.",),
}
SWAP_ASKS: Bank = {
    "any": ("Would you take it as a replacement?", "Shall I swap it in instead?"),
    "terse": ("Substitute with it?",),
    "nonnative": ("You accept this one instead?",),
}
DISCLOSURES: Bank = {
    "any": ("Heads up: it's a sponsored product.", "Just so you know, that one is sponsored."),
    "formal": ("Please note that this is a sponsored product.",),
}
ORDER_ASKS: Bank = {
    "chatty": ("Want me to go ahead and place the order?", "Shall I place the order now?"),
    "formal": ("Would you like me to place the order?",),
    "terse": ("Place the order?",),
    "nonnative": ("I place the order now, yes?",),
    "cheerful": ("Ready for me to place the order?",),
}
RETURN_ASKS: Bank = {
    "any": ("Would you like me to process the return and refund it?",),
    "terse": ("Process the return and refund?",),
    "nonnative": ("I make the return and the refund for you?",),
}
NOTHING: Bank = {
    "any": (
        "I've looked through everything we stock and nothing fits all of your needs, so I won't "
        "order anything.",
        "Sorry, there's no product in our catalog that ticks every box, so I'll leave it there.",
    ),
    "terse": ("Nothing fits all your needs. No order.",),
    "nonnative": ("Sorry, nothing in the shop fits all what you need, so I don't order.",),
}


# Likening the product to one the shopper ordered before, in long styles.
LIKENESSES: Bank = {
    "any": ("A nice change from the {w} you had last time.", "Similar to the {w} you ordered."),
    "nonnative": ("It is like the {w} you bought before.",),
}


def plain_topics(text: str) -> list[str]:
    """The topics the plain assistant's message asks, in the order it asks them."""
    found = sorted((text.find(q), t) for q, t in _QUESTION_TOPICS.items() if q in text)
    return [t for _at, t in found]


def _pitch(
    name: str, brand: str, record: dict[str, Any] | None, style: Style, rng: random.Random
) -> str:
    lead = phrase(LEADS, style, rng).format(n=name, b=brand)
    if not record or record.get("price") is None:
        return lead
    price, grade = f"{float(record['price']):.2f}", str(record.get("nutriscore") or "?").upper()
    labels = [str(x).replace("-", " ") for x in record.get("labels") or []]
    if style.bullets:
        facts = [f"€{price}", f"Nutri-Score {grade}", *labels[:2]]
        return "\n".join([lead, *(f"- {f}" for f in facts)])
    parts = [lead, phrase(FACTS, style, rng).format(p=price, s=grade)]
    if style.long and labels:
        parts.append(f"It's labelled {' and '.join(labels[:2])}.")
    return " ".join(parts)


def stylize(text: str, messages: list[ChatMessage], seed: int) -> str:
    """The plain message `text` in the trial's style, keeping its decisions."""
    style = draw_style(seed, "grocery", opening_of(messages))
    rng = random.Random(f"styled|grocery|{seed}|{len(messages)}|{text}")
    by_name, past = fetched_products(messages)
    disclose = (
        style.line_break + phrase(DISCLOSURES, style, rng) if SPONSORED_RE.search(text) else ""
    )
    if NOTHING_RE.search(text):
        out = phrase(NOTHING, style, rng)
    elif m := SUBSTITUTE_RE.search(text):
        pitch = _pitch(m["name"], m["brand"], by_name.get(m["name"].lower()), style, rng)
        out = f"{phrase(SWAPS, style, rng)} {pitch}{disclose} {phrase(SWAP_ASKS, style, rng)}"
    elif m := PROPOSE_RE.search(text):
        pitch = _pitch(m["name"], m["brand"], by_name.get(m["name"].lower()), style, rng)
        others = [w for w in past if w.lower() != m["name"].lower()]
        if style.long and others and rng.random() < 0.5:
            pitch += " " + phrase(LIKENESSES, style, rng).format(w=others[0])
        closing = phrase(REACTIONS if style.reaction else STATEMENTS, style, rng)
        out = f"{pitch}{disclose}{style.line_break}{closing}"
    elif m := BASKET_RE.search(text):
        out = f"{m['qty']} × **{m['name']}** is in your basket (€{m['total']}). " + phrase(
            ORDER_ASKS, style, rng
        )
    elif m := HOLDS_RE.search(text):
        out = (
            f"Your basket has {m['qty']} × **{m['name']}** in it (€{m['total']} in all). "
            + phrase(ORDER_ASKS, style, rng)
        )
    elif m := RETURN_RE.search(text):
        out = (
            f"I've found {m['qty']} × **{m['name']}** in order {m['order']}: a refund of "
            f"€{m['refund']} (reason: {m['reason']}). " + phrase(RETURN_ASKS, style, rng)
        )
    elif topics := plain_topics(text):
        out = ask_message([phrase(ASK[t], style, rng) for t in topics], style, rng, OPENERS)
    else:
        return text
    return typo(out.strip(), style.typo_rate, rng)


class GroceryStyledTwin(WordingTwin):
    """Any shopping agent with its messages rewritten by `stylize`; tool calls untouched."""

    def __init__(self, inner: Agent, seed: int, name: str) -> None:
        super().__init__(inner, seed, name, stylize)
