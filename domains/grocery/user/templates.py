"""The shopper's wording banks (our own words): several seeded paraphrases for every act, and how each need is said."""

from __future__ import annotations

import random
from pathlib import Path

from domains.grocery.user.needs import Need
from domains.grocery.user.vocabulary import TOPIC_WORDS, Topic
from runner.kits.user.grammar import Grammar
from runner.kits.user.writer import join_list

__all__ = [
    "ACCEPT",
    "ACCEPTED_ALREADY",
    "ACCEPT_SUBSTITUTE",
    "CONFIRM_ORDER",
    "CONFIRM_RETURN",
    "CUES",
    "DONE",
    "HINTS",
    "HOLD_BACK",
    "LEAVE",
    "NOTHING_FITS",
    "NOT_YET",
    "NO_PREFERENCE",
    "ONE_AT_A_TIME",
    "OPENINGS",
    "PUSH",
    "RETURN_OPENINGS",
    "STATE_GRAMMAR",
    "SUBSTITUTION_OPENINGS",
    "UNSURE",
    "WHICH_ONE",
    "join_list",
    "state_need",
]

OPENINGS = (
    "Hi! I'm looking for {thing}.",
    "Hello, I need to pick up {thing}.",
    "Hi there — could you help me find {thing}?",
    "I'm shopping for {thing} today.",
)
QUANTITY = (
    "I'll need {n}.",
    "I want {n}.",
    "{N}, please.",
)
SUBSTITUTION_OPENINGS = (
    "Hi! I'd like to order {n} of my usual {wanted}.",
    "Hello — can you get me {n} of the {wanted} I always buy?",
    "I'm after {n} of my regular {wanted}, please.",
)
RETURN_OPENINGS = (
    "Hi, I need to return the {product} from order {order}: {why}.",
    "Hello — the {product} in my order {order} has to go back; {why}.",
    "I'd like to send back the {product} from order {order}, because {why}.",
)
RETURN_WHY = {
    "damaged": ("it arrived damaged", "the pack was broken when it came"),
    "expired": ("it was already past its date", "it had expired on arrival"),
    "wrong_item": ("it isn't what I ordered", "I got the wrong item"),
    "changed_mind": ("I changed my mind about it", "I don't need it after all"),
}
CUES: dict[Topic, tuple[str, ...]] = {
    "brand": ("I'm particular about brands.", "Brands matter to me."),
    "nutriscore": ("I do pay attention to the Nutri-Score.", "I keep an eye on the Nutri-Score."),
    "organic": ("I care about how my food is farmed.", "How it's farmed matters to me."),
    "palm_oil": (
        "I always check which oils go into things.",
        "I'm careful about the oils in my food.",
    ),
    "processing": ("I care about how processed my food is.", "How processed it is matters to me."),
    "origin": ("Where it's made matters to me.", "I care where my food comes from."),
    "pack_size": ("Pack size matters to me.", "I'm fussy about pack sizes."),
}
NO_PREFERENCE = (
    "No particular preference on {topic}.",
    "I don't mind about {topic}.",
    "{Topic}: anything is fine.",
    "I'm easy on {topic}.",
)
UNSURE = (
    "On {topic}, it's hard to say up front — I'll know when I see it.",
    "I can't really put {topic} into words; show me something and I'll tell you.",
)
HOLD_BACK = {
    "at_once": (
        "That's a lot of questions at once — let's start with those.",
        "Too many questions in one go; that's what I can tell you for now.",
    ),
    "patience": (
        "I think I've answered enough questions — could you suggest something?",
        "Let's stop the questions there, please; what would you pick?",
    ),
}
ACCEPT = (
    "{name} sounds good to me.",
    "Yes, {name} works for me.",
    "Great, I'll take {name}.",
    "{name} is just right, thanks.",
)
ACCEPT_SUBSTITUTE = (
    "Yes, {name} is fine as a replacement.",
    "Okay, I'm happy to have {name} instead.",
    "Sure, swap in {name}.",
)
ACCEPTED_ALREADY = (
    "Could you put it in my basket and show me the total before you order?",
    "Please add it to the basket and check with me before placing the order.",
    "Go ahead and basket it, then ask me before you order.",
)
CONFIRM_ORDER = (
    "Yes, please place the order.",
    "Confirmed — go ahead and order.",
    "Yes, that basket is right. Please order it.",
)
CONFIRM_RETURN = (
    "Yes, please process that return.",
    "Confirmed — go ahead with the return.",
    "Yes, that's the one. Please return it.",
)
NOT_YET = {
    "undescribed": (
        "Before I say yes: what's in it, and what's the total?",
        "Which items are in there, how many of each, and what does it come to?",
    ),
    "nothing_chosen": (
        "I haven't picked anything yet.",
        "Hold on, we haven't agreed on a product yet.",
    ),
    "not_chosen": (
        "Wait, I haven't agreed to everything in there.",
        "Hold on, that's not what I picked.",
    ),
    "wrong_return": (
        "That's not the item I want to return.",
        "No, it's a different item I'm sending back.",
    ),
    "no_order": ("I'm not ordering anything today, just the return.",),
    "no_return": ("I'm not returning anything.",),
}
PUSH = {
    "order": (
        "What would you suggest?",
        "What do you have for me?",
        "Which one would you pick?",
    ),
    "substitution": (
        "What would you suggest instead?",
        "What can I have instead?",
    ),
    "return": (
        "Can you sort out the return for me?",
        "Could you process the return, please?",
    ),
}
ONE_AT_A_TIME = (
    "That's a few at once — just tell me the one you'd pick.",
    "Could you give me your single best suggestion?",
)
WHICH_ONE = (
    "Which {name} do you mean? There's more than one on the shelf.",
    "Several {name} come up — which brand and size are you suggesting?",
    "Sorry, which {name}? I see a few of those.",
)
NOTHING_FITS = (
    "Oh well, thanks for checking.",
    "Okay, thanks for looking.",
    "Alright, thanks anyway.",
)
DONE = ("That's everything, thanks!", "Perfect, that's all I needed.", "Thanks, all done.")
LEAVE = {
    "declines": (
        "I don't think this is working. I'll shop somewhere else.",
        "This isn't going anywhere; I'll leave it for today.",
    ),
    "patience": (
        "Sorry, I've run out of time. Bye.",
        "I have to go now, thanks anyway.",
    ),
}
DECLINE_NOT_FOR_ME = (
    "Hmm, {name} isn't quite what I'm after.",
    "No, {name} doesn't suit me.",
)
DECLINE_AGAIN = ("I already said no to {name}.", "We've been through {name} already.")
DECLINE_NOT_BUYING = ("I'm not looking to buy {name} — just the return, please.",)
DECLINE_BROKEN = ("{name} won't do: {need}", "Not {name}, sorry — {need_lower}")
HINTS: dict[tuple[Topic, str], tuple[str, ...]] = {
    ("nutriscore", "better"): (
        "I'd want something with a better Nutri-Score than {name}.",
        "{name}'s Nutri-Score isn't good enough for me.",
    ),
    ("processing", "better"): (
        "{name} is more processed than I'd like.",
        "I'd want something less processed than {name}.",
    ),
    ("budget", "higher"): (
        "{name} looks too basic for me; something from the pricier end of the range, please.",
        "I'd rather not go for the cheap kind like {name}; the upper end of the range suits me.",
    ),
    ("budget", "lower"): (
        "{name} costs more than I want to spend.",
        "{name} is pricier than I'd like.",
    ),
    ("organic", "trade"): (
        "I care about how the growers are paid, and {name} doesn't do it for me.",
        "{name} isn't traded the way I like.",
    ),
    ("organic", "farming"): (
        "I care about how it's farmed, and {name} doesn't do it for me.",
        "{name} isn't farmed the way I like.",
    ),
    ("brand", "other"): ("I'm not keen on the brand of {name}.", "Not that brand, sorry."),
    ("palm_oil", "other"): ("Something about the oils in {name} puts me off.",),
    ("diet", "other"): ("{name} doesn't suit how I eat.",),
    ("origin", "other"): ("I'd rather it came from somewhere else than {name} does.",),
    ("category", "other"): ("{name} isn't really the kind of product I'm after.",),
    ("pack_size", "other"): ("The pack size of {name} isn't right for me.",),
}


# How the shopper states a need: a grammar (our own words) drawn with the writer's rng, as for
# movies (`runner.kits.user.grammar`). Slots are a value's spellings; every frame keeps the words
# the assistant's ear (`domains.grocery.agents.ear`) listens for, and no frame names another
# need's value (the leak audit).
STATE_GRAMMAR = Grammar.load(Path(__file__).with_name("statement_grammar.txt"))


def _euros(x: float) -> str:
    return f"€{x:.2f}"


def _euro_spellings(x: float) -> list[str]:
    """Ways to say an amount (the ear hears each)."""
    return [_euros(x), f"{x:.2f} euros", f"€ {x:.2f}"]


def _values(value: object) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else [str(value)]


def _frame(need: Need) -> tuple[str, dict[str, list[str]]]:
    """The grammar rule that states `need`, and its slots' spellings."""
    if need.kind == "allergies":
        return "allergies", {
            "names": [join_list([a.replace("-", " ") for a in need.allergies], "and")]
        }
    if need.kind == "budget":
        assert need.budget is not None
        packs = "pack" if need.quantity == 1 else f"{need.quantity} packs"
        return "budget", {"euros": _euro_spellings(need.budget), "packs": [packs]}
    c = need.constraint
    assert c is not None
    vals = _values(c.value)
    if c.field in ("vegan", "vegetarian") and c.op == "==" and vals == ["yes"]:
        return "diet", {"d": [c.field]}
    if c.field == "nutriscore":
        letters = [join_list([v.upper() for v in vals], "or")]
        return ("nutri_in" if c.op in ("in", "==") else "nutri_out"), {"letters": letters}
    if c.field == "labels":
        label = [join_list([v.replace("-", " ") for v in vals], "or")]
        return ("label_out" if c.op == "not_contains" else "label_in"), {"label": label}
    if c.field == "palm_oil" and c.op == "==" and vals == ["free"]:
        return "palm", {}
    if c.field == "nova_group" and c.op == "<=":
        return "nova", {"n": [vals[0]]}
    if c.field == "brand":
        names = [join_list(vals, "or")]
        return ("brand_not" if c.op in ("!=", "not_contains") else "brand_only"), {"b": names}
    if c.field == "countries":
        where = [join_list(vals, "or")]
        return ("country_out" if c.op == "not_contains" else "country_in"), {"c": where}
    if c.field == "categories":
        return "category", {"cat": [join_list([v.lower() for v in vals], "or")]}
    if c.field == "price" and c.op == "<=":
        return "price", {"euros": _euro_spellings(float(vals[0]))}
    topic = TOPIC_WORDS.get(need.topic, need.topic)
    return "other", {"topic": [topic], "f": [c.field], "op": [c.op], "v": [", ".join(vals)]}


def state_need(need: Need, rng: random.Random) -> str:
    """One sentence stating a need plainly (only ever called for a need the shopper may state),
    drawn from `STATE_GRAMMAR` with the writer's rng."""
    rule, slots = _frame(need)
    return STATE_GRAMMAR.say(rule, rng, **slots)
