"""The shopper's wording banks (our own words): several seeded paraphrases for every act, and how each need is said."""

from __future__ import annotations

import random

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
STATE_GRAMMAR = Grammar(
    {
        # ---- shared pieces ----
        "opener": (
            "", "", "", "", "oh, and", "also,", "honestly,", "one thing:", "just so you know,",
            "to be clear,", "right,", "well,", "so,", "plus,", "actually,", "by the way,",
            "and", "okay, so", "as for me,", "for the record,",
        ),
        "end": (
            ".", ".", ".", ", please.", " please.", " if possible.", " if you can.", ", thanks.",
            ", if that's doable.", " for this one.", " this time.",
        ),
        "should": (
            "it has to", "it must", "it needs to", "it should", "it's got to", "it ought to",
            "it would have to", "I need it to",
        ),
        "adv": ("", "", "really", "definitely", "absolutely", "just", "honestly", "strictly"),
        "product": ("product", "item", "one", "thing", "option", "pick"),
        "want": (
            "I want", "I'd like", "I'm after", "I'm looking for", "I need", "I'd prefer",
            "give me", "I'll take", "I'd go for",
        ),
        # ---- allergies ----
        "allergies": (
            "{opener} {al_who} {al_adv} allergic to {names}{al_trace}{end}",
            "{opener} {al_have} {al_adj} allergy to {names}{al_trace}{end}",
            "{opener} allergy alert: {names}{al_trace}{end}",
        ),
        "al_who": (
            "I'm", "I am", "someone at home is", "my partner is", "my son is", "my daughter is",
            "one of us is", "my flatmate is", "my husband is", "my wife is",
        ),
        "al_adv": ("", "", "really", "seriously", "badly", "severely", "very", "quite", "properly"),
        "al_have": (
            "I have", "I've got", "we have", "we've got", "my partner has", "there's",
            "someone here has", "I live with",
        ),
        "al_adj": ("an", "a serious", "a bad", "a severe", "a strong", "a real", "a nasty"),
        "al_trace": (
            "", " and traces count too", " and that includes traces", " including traces",
            " even in traces", " traces included", " down to the traces",
            " and may-contain warnings count", " so nothing that contains it or may contain traces",
            ", no traces either", ", so not even a may-contain warning",
        ),
        # ---- money ----
        "budget": (
            "{opener} {bu_lead} {euros} {bu_total}{end}",
            "{opener} {euros} {bu_total} is {bu_limit}{end}",
        ),
        "bu_lead": (
            "my budget is", "I can spend", "I don't want to spend more than", "I've got",
            "I can go up to", "the most I'll pay is", "I'm capped at", "I can manage",
            "I'd stop at", "I'm working with",
        ),
        "bu_total": (
            "in total for the {packs}", "altogether", "in total", "in all", "for the lot",
            "all told", "overall", "total", "for everything", "for the whole order",
        ),
        "bu_limit": ("my limit", "my budget", "the most I'll spend", "my ceiling", "the cap"),
        "price": (
            "{opener} {pr_lead} {euros} {pr_pack}{end}",
            "{opener} {euros} {pr_pack} {pr_limit}{end}",
        ),
        "pr_lead": (
            "nothing over", "at most", "no more than", "up to", "I'll pay at most",
            "I won't pay more than", "keep it under", "a maximum of",
        ),
        "pr_pack": ("a pack", "per pack", "each", "apiece", "for a single pack", "a packet"),
        "pr_limit": ("is my limit", "at most", "tops", "is the ceiling", "is as far as I go"),
        # ---- diet ----
        "diet": (
            "{opener} {should} {adv} be {d}{end}",
            "{opener} I eat {d}, so {should} be {d}{end}",
            "{opener} I'm {d}, so {d_only}{end}",
            "{opener} {d_only}{end}",
            "{opener} I {adv} only eat {d} {food}{end}",
        ),
        "d_only": (
            "{d} only", "only {d} {food}", "{d} is a must", "strictly {d}", "it's got to be {d}",
            "{d} {food} only", "{d} or nothing",
        ),
        "food": ("food", "products", "stuff", "things", "options"),
        # ---- Nutri-Score ----
        "nutri_in": (
            "{opener} only Nutri-Score {letters}{nu_tail}{end}",
            "{opener} {should} {adv} have a Nutri-Score of {letters}{nu_tail}{end}",
            "{opener} it needs a Nutri-Score of {letters}{nu_tail}{end}",
            "{opener} {nu_lead} Nutri-Score {letters}{nu_tail}{end}",
            "{opener} {want} a {product} with Nutri-Score {letters}{nu_tail}{end}",
        ),
        "nu_lead": (
            "I stick to", "I only buy", "I go for", "I only pick", "I'm after", "I keep to",
            "I want", "I look for",
        ),
        "nu_tail": (
            "", "", " on the label", " on the front", " on the pack", " as my rule",
            " as a rule", " for my household", " and nothing lower",
        ),
        "nutri_out": ("{opener} not Nutri-Score {letters}{end}",),
        # ---- labels ----
        "label_in": (
            "{opener} {should} {adv} be {label}{end}",
            "{opener} I only buy {label} {la_for}{end}",
            "{opener} {label} only{end}",
            "{opener} {label} is a must {la_for}{end}",
            "{opener} I {la_need} it {label}{end}",
            "{opener} I {la_stick} {label} {food} {la_for}{end}",
        ),
        "la_for": ("", "for this", "for this kind of thing", "in this aisle", "for my kitchen",
                   "when I can", "as a habit", "these days", "at home", "on principle",
                   "for everything I eat"),
        "la_need": ("need", "want", "prefer", "insist on having", "like"),
        "la_stick": ("stick to", "only go for", "keep to", "always pick", "look for"),
        "label_out": ("{opener} I'd rather it wasn't labelled {label}{end}",),
        # ---- palm oil ----
        "palm": (
            "{opener} {pa_no} palm oil{pa_tail}{end}",
            "{opener} {should} {adv} be free of palm oil{pa_tail}{end}",
            "{opener} {want} something {pa_without} palm oil{pa_tail}{end}",
        ),
        "pa_no": ("no", "zero", "please, no", "absolutely no", "nothing with", "I avoid",
                  "I skip anything with", "I won't buy anything with"),
        "pa_without": ("without", "free of", "made without", "with no"),
        "pa_tail": ("", "", " in it", " at all", " whatsoever", " in the recipe",
                    " on the ingredients list", " anywhere in it"),
        # ---- processing ----
        "nova": (
            "{opener} NOVA {group}{n} {nv_or_lower}{nv_tail}{end}",
            "{opener} {should} {adv} be NOVA {group}{n} {nv_or_lower}{nv_tail}{end}",
            "{opener} {nv_lead} NOVA {group}{n}{nv_tail}{end}",
            "{opener} {want} a {product} at NOVA {group}{n} {nv_or_lower}{end}",
        ),
        "group": ("", "group "),
        "nv_or_lower": ("or lower", "at most", "or below", "or less", "max", "tops", "or better"),
        "nv_lead": ("nothing above", "at most", "no higher than", "nothing past", "up to",
                    "I stop at", "my limit is"),
        "nv_tail": ("", "", " — nothing more processed than that", " on the processing scale",
                    " for processing", " as my line", " by the NOVA count"),
        # ---- brand ----
        "brand_not": (
            "{opener} {br_no} {br_mid}{b}{br_tail}{end}",
        ),
        "br_no": ("not", "anything but", "nothing from", "anything except", "no",
                  "I'd rather avoid", "please skip", "I won't buy", "I don't buy", "never"),
        "br_mid": ("", "", "any ", "anything by ", "products from ", "the "),
        "br_tail": ("", "", " products", " stuff", " goods", " this time", " for me",
                    " if there's a choice", " on my list", " again"),
        "brand_only": (
            "{opener} {should} {adv} be {b}{br_tail}{end}",
            "{opener} I only buy {b}{br_tail}{end}",
            "{opener} I {br_stick} {b}{br_tail}{end}",
        ),
        "br_stick": ("stick to", "only go for", "always buy", "only ever buy", "insist on"),
        # ---- origin ----
        "country_in": (
            "{opener} {should} {adv} come from {c}{co_tail}{end}",
            "{opener} I'd like it {co_made} in {c}{co_tail}{end}",
            "{opener} {want} something {co_made} in {c}{co_tail}{end}",
            "{opener} only {food} {co_made} in {c}{co_tail}{end}",
            "{opener} {should} {adv} be {co_made} in {c}{co_tail}{end}",
        ),
        "co_made": ("made", "produced", "packed", "grown", "sourced"),
        "co_tail": ("", "", " if there's a choice", " where possible", " as usual",
                    " for this one", " like I always do", " to support them"),
        "country_out": ("{opener} nothing made in {c}{end}",),
        # ---- kind of product ----
        "category": (
            "{opener} {want} {ca_det} {cat}{ca_when}{ca_why}{end}",
            "{opener} {ca_det} {cat} {ca_is}{ca_when}{end}",
            "{opener} {ca_lead} {ca_det} {cat}{ca_when}{ca_why}{end}",
        ),
        "ca_det": (
            "", "", "some", "a pack of", "a box of", "a bag of", "good", "nice", "decent",
            "a packet of", "one of your", "the usual",
        ),
        "ca_is": ("is what I need", "is what I'm after", "is the thing", "is on my list",
                  "is what I came for", "is the plan"),
        "ca_lead": ("it's", "it's for", "the kind I want is", "I'm shopping for", "it's about",
                    "what I need is"),
        "ca_when": ("", "", " today", " this week", " for the weekend", " for later",
                    " for the week ahead", " tonight"),
        "ca_why": ("", "", " for the cupboard", " for home", " to stock up", " for a recipe",
                   " for the pantry", " for guests", " for my lunches", " for the office"),
        "other": ("{opener} on {topic}: {f} {op} {v}{end}",),
    }
)  # fmt: skip


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
