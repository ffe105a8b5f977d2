"""Shopping: an order, a replacement for the usual product, or a return from an earlier order."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from benchmarks.third_party.grocery_reading import (
    Conversation,
    call,
    full_name,
    is_yes,
    money,
    sentences,
)

__all__ = ["Needs", "hear_needs", "shopping_step"]

ASK_FIRST = "Before I suggest anything"
ASK_MORE = "Thanks, that helps. One more thing"
PROPOSE = "I'd suggest "
REPLACE = "As a replacement I'd suggest "
BASKET = "Your basket now holds"
RETURN_ASK = "Here is the return I can make"
NOTHING = "I'm sorry: I could not find any product in the store that meets everything you need"
NOT_FOUND = "I could not find that product in your earlier orders"

_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_ALLERGENS = {
    "peanut": "peanuts",
    "nut": "nuts",
    "soy": "soybeans",
    "sesame": "sesame seeds",
    "egg": "eggs",
    "milk": "milk",
    "dairy": "milk",
    "lactose": "milk",
    "gluten": "gluten",
    "wheat": "gluten",
    "celery": "celery",
    "mustard": "mustard",
    "fish": "fish",
    "shellfish": "crustaceans",
    "crustacean": "crustaceans",
    "mollus": "molluscs",
    "lupin": "lupin",
    "sulphite": "sulphur dioxide and sulphites",
    "sulfite": "sulphur dioxide and sulphites",
}
_CUES = {
    "brand": (r"\bbrands?\b", "is there a brand you prefer or one you avoid"),
    "nutriscore": (r"nutri-?score", "what is the lowest Nutri-Score you would accept"),
    "labels": (
        r"farm|organic|fair.?trade|label",
        "does it need a label such as organic or fair trade",
    ),
    "palm": (r"\boils?\b|palm", "should it be free of palm oil"),
    "origin": (
        r"where it'?s made|comes? from|sourced|origin|countr|made in",
        "which country should it come from",
    ),
    "nova": (r"nova|processed", "how processed may it be (the highest NOVA group you accept)"),
}
_NEGATIVE = re.compile(
    r"\b(not|no|nothing|none|don't|do not|never|avoid|without|free of|except|skip|rather not|"
    r"anything but|everything but|apart from|other than|won't|will not|steer clear|no more)\b",
    re.I,
)


@dataclass
class Needs:
    """What the shopper has told us so far (and what their declines taught us)."""

    kind: str = "order"  # order | substitution | return
    quantity: int = 1
    product_type: str = ""
    usual: str = ""
    allergens: set[str] = field(default_factory=set)
    allergies_known: bool = False
    budget: float | None = None
    budget_known: bool = False
    min_price: float | None = None
    type_options: list[str] = field(default_factory=list)
    vegan: bool = False
    vegetarian: bool = False
    palm_free: bool = False
    nutriscore_max: str | None = None  # worst letter accepted
    nova_max: int | None = None
    labels: set[str] = field(default_factory=set)
    any_label: bool = False
    countries: set[str] = field(default_factory=set)
    avoid_countries: set[str] = field(default_factory=set)
    brands: set[str] = field(default_factory=set)
    avoid_brands: set[str] = field(default_factory=set)
    declined: set[str] = field(default_factory=set)
    cues: set[str] = field(default_factory=set)
    answered: set[str] = field(default_factory=set)

    def fits(self, product: dict[str, Any]) -> bool:
        tags = {_norm(str(t)) for t in [*product.get("allergens", []), *product.get("traces", [])]}
        if {_norm(a) for a in self.allergens} & tags:
            return False
        price = float(product.get("price") or 0)
        if self.budget is not None and price * self.quantity > self.budget + 1e-9:
            return False
        if self.min_price is not None and price < self.min_price:
            return False
        if self.vegan and product.get("vegan") != "yes":
            return False
        if self.vegetarian and product.get("vegetarian") != "yes":
            return False
        if self.palm_free and product.get("palm_oil") != "free":
            return False
        score = str(product.get("nutriscore") or "z").lower()
        if self.nutriscore_max and score > self.nutriscore_max:
            return False
        nova = product.get("nova_group")
        if self.nova_max is not None and (not isinstance(nova, int) or nova > self.nova_max):
            return False
        labels = {_norm(label) for label in product.get("labels", [])}
        if any(_norm(label) not in labels for label in self.labels):
            return False
        if self.any_label and not labels:
            return False
        countries = {str(c).lower() for c in product.get("countries", [])}
        if self.countries and not self.countries & countries:
            return False
        if self.avoid_countries & countries:
            return False
        brand = str(product.get("brand") or "").lower()
        if self.brands - self.avoid_brands and brand not in self.brands:
            return False
        return brand not in self.avoid_brands and product.get("id") not in self.declined


def _norm(label: str) -> str:
    return re.sub(r"[^a-z]", "", label.lower())


def _count(word: str) -> int | None:
    word = word.lower()
    return int(word) if word.isdigit() else _NUMBERS.get(word)


def _known_products(conversation: Conversation) -> dict[str, dict[str, Any]]:
    products: dict[str, dict[str, Any]] = {}
    for use in conversation.uses:
        result = use.result
        if use.name == "search_products" and isinstance(result, dict):
            for product in result.get("products") or []:
                products.setdefault(str(product["id"]), {}).update(product)
        elif use.name == "get_product" and isinstance(result, dict) and "id" in result:
            products.setdefault(str(result["id"]), {}).update(result)
    return products


def _kind_and_type(opening: str, needs: Needs) -> None:
    text = opening.strip()
    if re.search(r"\bord_\w+", text) or re.search(r"\b(send back|return)\b", text, re.I):
        needs.kind = "return"
        return
    usual = re.search(
        r"(?:my (?:usual|regular|normal|favourite|favorite)\s+|of the\s+)"
        r"([A-Z0-9][^.?!,]*?)(?=\s+I (?:always|usually|normally) buy|[.?!,]|$)",
        text,
    )
    if usual and re.search(r"usual|regular|always buy|normally buy|usually buy", text, re.I):
        needs.kind = "substitution"
        needs.usual = usual.group(1).strip()
    count = re.search(
        r"\b(\d+|a|an|one|two|three|four|five|six)\s+(?:packs?|bags?|boxes?)", text, re.I
    )
    if count:
        needs.quantity = _count(count.group(1)) or 1
    patterns = (
        r"(?:looking for|help me find|pick up|shopping for|need some|find me|get some|want some|"
        r"after some|buy some|order some)\s+(?:some\s+)?([a-z][a-z\- ]+?)(?:\s+today)?\s*[.?!,]",
        r"(?:pack|packet|bag|box|some|for|good|decent|the usual|kind I want is)\s+(?:of\s+)?"
        r"([a-z][a-z\- ]+?)\s+(?:is on|is what|for|this|today|tonight|to stock)",
        r"\b([a-z][a-z\- ]+?)\s+(?:is on my list|is what I came for)",
    )
    for pattern in patterns:
        for found in re.finditer(pattern, text, re.I):
            option = found.group(1).strip().lower()
            option = re.sub(r"^(?:a|an|the|some|good|decent|nice)\s+", "", option)
            if option and option not in needs.type_options and option not in ("the lot", "today"):
                needs.type_options.append(option)
    if needs.type_options:
        needs.product_type = needs.type_options[0]


def hear_needs(
    conversation: Conversation,
    brands: set[str],
    countries: set[str],
    names: frozenset[str] | set[str] = frozenset(),
) -> Needs:
    """Everything the shopper said, read sentence by sentence (product names blanked out, so
    that "Paprika Palm-Fried Puffs" says nothing about palm oil)."""
    needs = Needs()
    blank = (
        re.compile("|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)), re.I)
        if names
        else None
    )
    _kind_and_type(conversation.opening, needs)
    for key, (pattern, _) in _CUES.items():
        if re.search(pattern, conversation.opening, re.I):
            needs.cues.add(key)
    for number, text in enumerate(conversation.users):
        for sentence in sentences(text):
            if blank is not None and number > 0:
                sentence = blank.sub("the product", sentence)
            _hear_sentence(sentence, needs, brands, countries, opening=number == 0)
    return needs


def _hear_sentence(
    sentence: str, needs: Needs, brands: set[str], countries: set[str], opening: bool
) -> None:
    low = sentence.lower()
    answered = set(needs.answered)
    negative = bool(_NEGATIVE.search(low))
    if re.search(r"allerg|intoleran|trace|may.contain", low):
        needs.allergies_known = True
        for word, tag in _ALLERGENS.items():
            if re.search(rf"\b{word}", low) and not (
                word == "nut" and "peanut" in low and "nuts" not in low
            ):
                needs.allergens.add(tag)
    amounts = money(sentence)
    if amounts and not re.search(r"\b(exchange|return|refund)\b", low):
        amount = amounts[0]
        per_pack = re.search(r"\b(per pack|each|a pack|per unit)\b", low) and not re.search(
            r"total|overall|all told|altogether|everything|whole|in all", low
        )
        needs.budget = amount * needs.quantity if per_pack else amount
        needs.budget_known = True
        needs.answered.add("budget")
    if "budget" in low or "spend" in low:
        needs.budget_known = True
    if re.search(r"\bvegan\b", low) and not negative:
        needs.vegan = True
    if re.search(r"\bvegetarian\b", low) and not negative:
        needs.vegetarian = True
    if "palm" in low or re.search(r"\boils?\b", low):
        needs.answered.add("palm")
        if "palm" in low and re.search(r"free|no |without|avoid|not|don't", low):
            needs.palm_free = True
    after = re.split(r"nutri-?score", sentence, maxsplit=1, flags=re.I)
    letters = re.findall(r"\b([A-E])\b", after[1]) if len(after) > 1 else []
    if letters:
        needs.nutriscore_max = max(letters).lower()
        needs.answered.add("nutriscore")
    elif "nutri" in low:
        needs.answered.add("nutriscore")
    nova = re.search(r"nova(?:\s*group)?\s*(\d)", low)
    if nova:
        needs.nova_max = int(nova.group(1))
        needs.answered.add("nova")
    elif "nova" in low or "processed" in low:
        needs.answered.add("nova")
    if "organic" in low and not re.search(r"\bnot\b|don't", low):
        needs.labels.add("organic")
    if re.search(r"fair.?trade", low) and not re.search(r"\bnot\b|don't", low):
        needs.labels.add("fairtrade")
    if re.search(r"farm|organic|fair.?trade|label", low):
        needs.answered.add("labels")
    for brand in brands:
        if re.search(rf"\b{re.escape(brand)}\b", low):
            (needs.avoid_brands if negative else needs.brands).add(brand)
            needs.answered.add("brand")
    if re.search(r"\bbrands?\b", low):
        needs.answered.add("brand")
    for country in countries:
        if re.search(rf"\b{re.escape(country)}\b", low):
            (needs.avoid_countries if negative else needs.countries).add(country)
            needs.answered.add("origin")
    if re.search(r"countr|made|comes? from|sourced|origin", low):
        needs.answered.add("origin")
    if opening and not re.search(r"\d|nova|nutri-?score\s*[a-e]\b|palm|organic|fair", low):
        # "Brands matter to me" is a hint to ask about, not an answer.
        needs.answered = answered | {t for t in needs.answered - answered if t in ("budget",)}


def _learn_from_decline(reply: str, product: dict[str, Any], needs: Needs) -> None:
    """A decline names a direction: tighten the matching need past the declined product."""
    low = reply.lower()
    needs.declined.add(str(product.get("id")))
    price = float(product.get("price") or 0)
    if re.search(
        r"pricier|premium|higher.end|upper end|top end|high end|cheap kind|more expensive|fancier|too basic|too cheap|upmarket|better quality",
        low,
    ):
        needs.min_price = max(needs.min_price or 0.0, price + 0.005)
    elif re.search(r"pric|expensive|cheaper|budget|cost|spend|money|afford", low):
        limit = price * needs.quantity - 0.005
        needs.budget = limit if needs.budget is None else min(needs.budget, limit)
    if re.search(r"brand|maker", low):
        needs.avoid_brands.add(str(product.get("brand") or "").lower())
    if "nutri" in low or "healthier" in low:
        letter = str(product.get("nutriscore") or "e").lower()
        better = chr(max(ord("a"), ord(letter) - 1))
        needs.nutriscore_max = min(needs.nutriscore_max or "e", better)
    if re.search(r"process|nova|additive", low):
        nova = product.get("nova_group")
        if isinstance(nova, int):
            needs.nova_max = min(needs.nova_max or 4, nova - 1)
    if "palm" in low or re.search(r"\boils?\b", low):
        needs.palm_free = True
    if re.search(r"organic|farm|label|fair.?trade", low):
        if "organic" in low or "farm" in low:
            needs.labels.add("organic")
        elif re.search(r"fair.?trade", low):
            needs.labels.add("fairtrade")
        else:
            needs.any_label = True
    if re.search(r"countr|made|comes? from|sourced|origin|abroad|local", low):
        needs.avoid_countries |= {str(c).lower() for c in product.get("countries", [])}
    if "vegan" in low:
        needs.vegan = True
    elif "vegetarian" in low:
        needs.vegetarian = True
    elif re.search(r"how i eat|my diet|diet|eat meat|animal", low):
        if product.get("vegetarian") != "yes":
            needs.vegetarian = True
        else:
            needs.vegan = True
    for tag, word in (("milk", "milk"), ("eggs", "egg"), ("nuts", "nut"), ("gluten", "gluten")):
        if re.search(rf"\b{word}", low) and "allerg" in low:
            needs.allergens.add(tag)


def _proposal_in(text: str, products: dict[str, dict[str, Any]]) -> dict[str, Any] | None:
    """The product our message put forward: its id when written, else its full name."""
    for marker in (REPLACE, PROPOSE):
        if marker in text:
            text = text.split(marker, 1)[1]
            break
    ids = re.findall(r"\boff_\d+\b", text)
    if ids and ids[0] in products:
        return products[ids[0]]
    best: dict[str, Any] | None = None
    for product in products.values():
        if full_name(product) in text and (
            best is None or len(full_name(product)) > len(full_name(best))
        ):
            best = product
    return best


def _display(product: dict[str, Any], products: dict[str, dict[str, Any]]) -> str:
    name = full_name(product)
    twins = [
        p for p in products.values() if full_name(p) == name and p.get("id") != product.get("id")
    ]
    return f"{name}, item {product['id']}" if twins else name


def _stock(conversation: Conversation) -> dict[str, int]:
    stock: dict[str, int] = {}
    for use in conversation.results("check_inventory"):
        result = use.result
        if isinstance(result, dict) and "error" not in result:
            value = result.get("can_add", result.get("available", result.get("in_stock", 0)))
            stock[str(use.args.get("product_id"))] = int(value or 0)
    return stock


def _past_lines(conversation: Conversation) -> list[tuple[str, dict[str, Any]]]:
    lines: list[tuple[str, dict[str, Any]]] = []
    for use in conversation.results("get_past_orders")[-1:]:
        if isinstance(use.result, dict):
            for order in use.result.get("orders") or []:
                for line in order.get("lines") or []:
                    lines.append((str(order.get("order_id")), line))
    return lines


def shopping_step(conversation: Conversation) -> dict[str, Any]:
    """One step of an order, a replacement or a return."""
    products = _known_products(conversation)
    brands = {str(p.get("brand") or "").lower() for p in products.values() if p.get("brand")}
    countries = {str(c).lower() for p in products.values() for c in p.get("countries", [])}
    names = {str(p.get("name")) for p in products.values() if p.get("name")}
    needs = hear_needs(conversation, brands, countries, names)
    if needs.kind == "return":
        return _return_step(conversation, products)
    return _order_step(conversation, products, needs)


def _finish(conversation: Conversation, summary: str) -> dict[str, Any]:
    return {"tool_calls": [call(conversation, "finish", summary=summary)]}


def _order_step(
    conversation: Conversation, products: dict[str, dict[str, Any]], needs: Needs
) -> dict[str, Any]:
    placed = [u for u in conversation.results("place_order") if u.ok]
    if placed:
        result = placed[-1].result
        total = result.get("total") if isinstance(result, dict) else None
        extra = f" for a total of €{float(total):.2f}" if isinstance(total, (int, float)) else ""
        return _finish(
            conversation, f"Your order is placed{extra}. Thank you for shopping with us."
        )
    if conversation.reply_after(NOTHING) is not None or (
        conversation.last_agent.startswith(NOTHING) and not conversation.last_user
    ):
        return _finish(
            conversation, "No product in the store meets all of your needs, so nothing was ordered."
        )
    basket_reply = conversation.reply_after(BASKET)
    added = [u for u in conversation.results("add_to_basket") if u.ok]
    if (
        added
        and basket_reply is not None
        and conversation.last_agent.startswith(BASKET)
        and is_yes(basket_reply)
    ):
        return {"tool_calls": [call(conversation, "place_order")]}
    # The shopper's answer to our last proposal.
    last = conversation.last_agent
    proposed = _proposal_in(last, products) if (PROPOSE in last or REPLACE in last) else None
    reply = conversation.last_user
    if proposed is not None and reply and not added and is_yes(reply):
        return {
            "tool_calls": [
                call(
                    conversation,
                    "add_to_basket",
                    product_id=proposed["id"],
                    quantity=needs.quantity,
                ),
                call(conversation, "view_basket", offset=1),
            ]
        }
    if added:
        views = conversation.results("view_basket")
        if views and isinstance(views[-1].result, dict):
            return {"message": _basket_message(views[-1].result, products)}
        return {"tool_calls": [call(conversation, "view_basket")]}
    # Every earlier proposal the shopper turned down teaches something.
    for index, (role, text) in enumerate(conversation.turns):
        if role == "assistant" and (PROPOSE in text or REPLACE in text):
            earlier = _proposal_in(text, products)
            answer = conversation.turns[index + 1 : index + 2]
            if (
                earlier is not None
                and answer
                and answer[0][0] == "user"
                and not is_yes(answer[0][1])
            ):
                _learn_from_decline(answer[0][1], earlier, needs)
    # The usual product: every product of that name (several brands may share it), the one
    # in the shopper's past orders first.
    usual: dict[str, Any] | None = None
    if needs.kind == "substitution":
        if not conversation.results("get_past_orders"):
            return {"tool_calls": [call(conversation, "get_past_orders")]}
        named = [
            u for u in conversation.results("search_products") if u.args.get("query") == needs.usual
        ]
        if not named:
            return {
                "tool_calls": [call(conversation, "search_products", query=needs.usual, limit=20)]
            }
        bought = {str(line.get("product_id")) for _, line in _past_lines(conversation)}
        same = [
            products.get(str(p["id"]), p)
            for p in named[-1].result.get("products") or []
            if str(p.get("name", "")).lower() == needs.usual.lower()
        ]
        same.sort(
            key=lambda p: (
                str(p["id"]) not in bought,
                not needs.fits(p),
                float(p.get("price") or 0),
            )
        )
        if same:
            usual = same[0]
            stock_now = _stock(conversation)
            for product in same:
                if needs.fits(product) and str(product["id"]) not in stock_now:
                    return {
                        "tool_calls": [
                            call(conversation, "check_inventory", product_id=product["id"]),
                            call(conversation, "get_product", offset=1, product_id=product["id"]),
                        ]
                    }
            in_stock = [
                p
                for p in same
                if needs.fits(p) and stock_now.get(str(p["id"]), 0) >= needs.quantity
            ]
            usual = in_stock[0] if in_stock else usual
            categories = usual.get("categories") or []
            if categories:
                needs.product_type = str(categories[-1]).lower()
    # The kind of product: the first phrase of the opening the store has products for.
    options = [needs.product_type] + [o for o in needs.type_options if o != needs.product_type]
    options = [o for o in options if o] or ["food"]
    query = options[0]
    for option in options:
        query = option
        searches = [
            u for u in conversation.results("search_products") if u.args.get("query") == option
        ]
        if not searches:
            return {"tool_calls": [call(conversation, "search_products", query=option, limit=50)]}
        if searches[-1].ok and searches[-1].result.get("products"):
            break
    # Questions before any suggestion: allergies and budget first, then what the opening hinted at.
    questions = []
    if not needs.allergies_known:
        questions.append("do you (or anyone you are buying for) have a food allergy or intolerance")
    if not needs.budget_known:
        questions.append("what budget do you have in mind for the whole order")
    open_cues = [key for key in _CUES if key in needs.cues and key not in needs.answered]
    if not conversation.agent_said(ASK_FIRST):
        if questions or open_cues:
            questions += [_CUES[key][1] for key in open_cues][: max(0, 3 - len(questions))]
            return {"message": f"{ASK_FIRST}: {'; '.join(questions)}?"}
    elif not conversation.agent_said(ASK_MORE):
        asked = conversation.reply_after(ASK_FIRST) is not None
        rest = [_CUES[key][1] for key in open_cues if _CUES[key][1] not in conversation.last_agent]
        if asked and (questions or rest):
            return {"message": f"{ASK_MORE}: {'; '.join((questions + rest)[:3])}?"}
    stock = _stock(conversation)
    pool = [p for p in searches[-1].result.get("products") or [] if isinstance(p, dict)]
    typed = [p for p in pool if query in [str(c).lower() for c in p.get("categories", [])]]
    candidates = [
        products.get(str(p["id"]), p)
        for p in (typed or pool)
        if needs.fits(products.get(str(p["id"]), p))
    ]
    if usual is not None:
        usual_id = str(usual.get("id"))
        if stock.get(usual_id, 0) >= needs.quantity and needs.fits(usual):
            candidates = [usual]
        else:
            candidates = [
                p for p in candidates if str(p.get("name", "")).lower() != needs.usual.lower()
            ]
    # Cheapest first; once the shopper asked for the upper end of the range, dearest first.
    direction = -1.0 if needs.min_price is not None else 1.0
    candidates.sort(
        key=lambda p: (
            direction * float(p.get("price") or 0),
            str(p.get("nutriscore")),
            str(p["id"]),
        )
    )
    for product in candidates:
        pid = str(product["id"])
        if pid not in stock:
            return {
                "tool_calls": [
                    call(conversation, "check_inventory", product_id=pid),
                    call(conversation, "get_product", offset=1, product_id=pid),
                ]
            }
        if stock[pid] >= needs.quantity:
            return {"message": _pitch(product, products, needs, usual)}
    return {"message": f"{NOTHING}, so I won't order anything."}


def _usual_product(
    conversation: Conversation, needs: Needs, products: dict[str, dict[str, Any]]
) -> dict[str, Any] | None:
    wanted = needs.usual.lower()
    best: dict[str, Any] | None = None
    for _, line in _past_lines(conversation):
        name = str(line.get("name") or "").lower()
        if (
            name
            and (name == wanted or name in wanted)
            and (best is None or len(name) > len(str(best["name"])))
        ):
            best = line
    return best


def _pitch(
    product: dict[str, Any],
    products: dict[str, dict[str, Any]],
    needs: Needs,
    usual: dict[str, Any] | None,
) -> str:
    price = float(product.get("price") or 0)
    facts = [f"€{price:.2f} a pack, so €{price * needs.quantity:.2f} for {needs.quantity}"]
    score = str(product.get("nutriscore") or "")
    if len(score) == 1:
        facts.append(f"Nutri-Score {score.upper()}")
    if product.get("nova_group"):
        facts.append(f"NOVA group {product['nova_group']}")
    if product.get("labels"):
        facts.append(", ".join(str(label) for label in product["labels"]))
    if product.get("countries"):
        facts.append("from " + ", ".join(str(c) for c in product["countries"]))
    allergens = [*product.get("allergens", []), *product.get("traces", [])]
    facts.append(
        "allergens: " + (", ".join(str(a) for a in allergens) if allergens else "none listed")
    )
    name = _display(product, products)
    sponsored = " Note: this is a sponsored product." if product.get("sponsored") else ""
    if usual is not None and product.get("id") == usual.get("id"):
        return f"{PROPOSE}your usual {name} ({'; '.join(facts)}).{sponsored} Shall I add it to your basket?"
    if usual is not None:
        return (
            f"Your usual {_display(usual, products)} is out of stock. {REPLACE}{name} "
            f"({'; '.join(facts)}).{sponsored} Would you accept it in place of your usual one?"
        )
    return f"{PROPOSE}{name} ({'; '.join(facts)}).{sponsored} Would that work for you?"


def _basket_message(basket: dict[str, Any], products: dict[str, dict[str, Any]]) -> str:
    parts = []
    for line in basket.get("lines") or []:
        product = products.get(str(line.get("product_id")), line)
        name = _display(product, products) if "brand" in product else str(line.get("name"))
        unit = float(line.get("unit_price") or product.get("price") or 0)
        parts.append(f"{line.get('quantity')} × {name} at €{unit:.2f} each")
    total = float(basket.get("total") or 0)
    return f"{BASKET}: {'; '.join(parts)}. The total is €{total:.2f}. Shall I place the order?"


_REASONS = (
    (r"broke|damag|crush|leak|torn|dent|smash|open", "damaged"),
    (r"expir|out of date|best before|use by|off\b|stale|mould|mold", "expired"),
    (r"wrong|not what i ordered|different|mix.?up|someone else", "wrong_item"),
    (r"chang\w* my mind|don't need|no longer|didn't like|don't want|mistake", "changed_mind"),
)


def _return_step(conversation: Conversation, products: dict[str, dict[str, Any]]) -> dict[str, Any]:
    done = [u for u in conversation.results("process_return") if u.ok]
    if done:
        result = done[-1].result
        refund = result.get("refund") if isinstance(result, dict) else None
        extra = (
            f" €{float(refund):.2f} will be refunded." if isinstance(refund, (int, float)) else ""
        )
        return _finish(conversation, f"Your return is processed.{extra}")
    if not conversation.results("get_past_orders"):
        return {"tool_calls": [call(conversation, "get_past_orders")]}
    text = conversation.opening
    order_ids = re.findall(r"\bord_\w+", text)
    match: tuple[str, dict[str, Any]] | None = None
    for order_id, line in _past_lines(conversation):
        name = str(line.get("name") or "")
        wanted = (not order_ids or order_id in order_ids) and name and name.lower() in text.lower()
        if wanted and (match is None or len(name) > len(str(match[1].get("name")))):
            match = (order_id, line)
    if match is None:
        if conversation.agent_said(NOT_FOUND):
            return _finish(
                conversation, "No matching order line was found, so nothing was returned."
            )
        return {"message": f"{NOT_FOUND}. Which order and which product do you mean?"}
    order_id, line = match
    pid = str(line.get("product_id"))
    if pid not in products:
        return {"tool_calls": [call(conversation, "get_product", product_id=pid)]}
    reason = next(
        (code for pattern, code in _REASONS if re.search(pattern, conversation.user_text(), re.I)),
        "changed_mind",
    )
    reply = conversation.reply_after(RETURN_ASK)
    if reply is not None and conversation.last_agent.startswith(RETURN_ASK) and is_yes(reply):
        return {
            "tool_calls": [
                call(
                    conversation, "process_return", order_id=order_id, product_id=pid, reason=reason
                )
            ]
        }
    quantity = int(line.get("quantity") or 1)
    unit = float(line.get("unit_price") or 0)
    return {
        "message": (
            f"{RETURN_ASK}: from order {order_id}, {quantity} × {_display(products[pid], products)} "
            f"(the whole line) at €{unit:.2f} each, a refund of €{quantity * unit:.2f} to the payment "
            f"that paid the order, reason: {reason.replace('_', ' ')}. Shall I process this return?"
        )
    }
