"""What a baseline assistant understands of the conversation: the shopper's stated needs and hints, its verdicts, and the tool results so far.

The baselines read the shopper's words with rules for plain shopping English (the scripted
shopper's sentences among them); nothing here reads the task.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from domains.grocery.items import ALLERGENS, Product
from runner.agents.exchanges import ToolExchange, exchanges
from runner.agents.twin import text_of
from runner.core.protocols import ChatMessage

__all__ = ["Heard", "ToolExchange", "exchanges", "fetched_products", "hear", "text_of"]

_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_ALLERGEN_SAID = {a.replace("-", " "): a for a in ALLERGENS}
_NUTRI = "abcde"


@dataclass
class Heard:
    """The shopper's needs as the assistant understood them, and the verdicts on its proposals."""

    kind: str = "order"
    product_type: str | None = None
    wanted_name: str | None = None
    quantity: int = 1
    return_product: str | None = None
    return_order: str | None = None
    return_reason: str = "damaged"
    allergies: set[str] = field(default_factory=set)
    vegan: bool = False
    vegetarian: bool = False
    budget: float | None = None
    max_price: float | None = None
    nutri: set[str] | None = None
    nutri_better_than: int | None = None
    labels: set[str] = field(default_factory=set)
    palm_free: bool = False
    nova_max: int | None = None
    brands_out: set[str] = field(default_factory=set)
    brands_only: set[str] = field(default_factory=set)
    country: str | None = None
    hint_max_price: float | None = None
    hint_min_price: float | None = None
    upper_half: bool = False  # "the pricier end": the dearer half of what fits
    hint_nova_max: int | None = None
    hint_labels: set[str] = field(default_factory=set)
    hint_brands_out: set[str] = field(default_factory=set)
    hint_palm_free: bool = False
    cues: set[str] = field(default_factory=set)
    known_topics: set[str] = field(default_factory=set)
    accepted: str | None = None
    declined: set[str] = field(default_factory=set)
    unclear: set[str] = field(default_factory=set)
    """Products the shopper asked 'which one?' about (their bare name is shared)."""
    confirmed_order: bool = False
    confirmed_return: bool = False
    last_reply: str = ""

    def fits(self, p: Product, *, allergies: bool = True, hints: bool = True) -> bool:
        """Whether a product meets everything heard so far (`hints`: and what declines hinted)."""
        if hints and not self._fits_hints(p):
            return False
        if allergies and (set(p.allergens) | set(p.traces)) & self.allergies:
            return False
        if self.vegan and p.vegan != "yes":
            return False
        if self.vegetarian and p.vegetarian != "yes":
            return False
        if self.budget is not None and p.price * self.quantity > self.budget + 1e-9:
            return False
        if self.max_price is not None and p.price > self.max_price + 1e-9:
            return False
        if self.nutri is not None and p.nutriscore not in self.nutri:
            return False
        if self.labels and not self.labels <= set(p.labels):
            return False
        if self.palm_free and p.palm_oil != "free":
            return False
        if self.nova_max is not None and p.nova_group > self.nova_max:
            return False
        if p.brand in self.brands_out or (self.brands_only and p.brand not in self.brands_only):
            return False
        if self.country is not None and self.country not in p.countries:
            return False
        return not (
            self.product_type and self.product_type.lower() not in [c.lower() for c in p.categories]
        )

    def _fits_hints(self, p: Product) -> bool:
        if self.nutri_better_than is not None and (
            p.nutriscore not in _NUTRI or _NUTRI.index(p.nutriscore) >= self.nutri_better_than
        ):
            return False
        if self.hint_min_price is not None and p.price < self.hint_min_price - 1e-9:
            return False
        if self.hint_max_price is not None and p.price > self.hint_max_price + 1e-9:
            return False
        if self.hint_nova_max is not None and p.nova_group > self.hint_nova_max:
            return False
        if self.hint_labels and not self.hint_labels <= set(p.labels):
            return False
        if p.brand in self.hint_brands_out:
            return False
        return not (self.hint_palm_free and p.palm_oil != "free")


_PRICE = r"€\s?(\d+(?:\.\d+)?)"


def _opening(h: Heard, text: str) -> None:
    low = text.lower()
    m = re.search(
        r"return the (.+?) from order (\S+?)[:,.;]|the (.+?) in my order (\S+?) has to go back|send back the (.+?) from order (\S+?),",
        text,
    )
    if m:
        h.kind = "return"
        groups = [g for g in m.groups() if g]
        h.return_product, h.return_order = groups[0], groups[1]
        if "damaged" in low or "broken" in low:
            h.return_reason = "damaged"
        elif "past its date" in low or "expired" in low:
            h.return_reason = "expired"
        elif "isn't what i ordered" in low or "wrong item" in low:
            h.return_reason = "wrong_item"
        else:
            h.return_reason = "changed_mind"
        return
    m = re.search(
        r"(\w+) packs? of (?:my usual|the|my regular) (.+?)(?: I always buy)?(?:, please)?[.?!]",
        text,
    )
    if m and ("usual" in low or "always buy" in low or "regular" in low):
        h.kind = "substitution"
        h.quantity = _NUMBERS.get(m.group(1).lower(), 1)
        h.wanted_name = m.group(2)
    m = re.search(r"(?:looking for|help me find|pick up|shopping for) (.+?)(?: today)?[.?!]", text)
    if m and h.kind == "order":
        h.product_type = m.group(1).strip()
    m = re.search(r"\b(one|two|three|four|five|six) packs?\b", low)
    if m:
        h.quantity = _NUMBERS[m.group(1)]
    cue_words = {
        "brand": "brand",
        "nutri-score": "nutriscore",
        "farmed": "organic",
        "oils": "palm_oil",
        "processed": "processing",
        "where it's made": "origin",
        "where my food comes from": "origin",
        "pack size": "pack_size",
    }
    for word, topic in cue_words.items():
        if word in low:
            h.cues.add(topic)


# Plain shopping English for each need, in whatever words the sentence wraps it: phrase lists,
# each heard case-insensitively as whole words.
_PHRASES: dict[str, tuple[str, ...]] = {
    # a sentence that says a topic does not matter (or cannot be put into words)
    "says_nothing": ("no particular preference on", "don't mind about", "easy on",
                     "hard to say up front", "can't really put"),
    "total": ("in total", "altogether", "in all", "for the lot", "all told", "overall", "total",
              "for everything", "whole order"),
    "per_pack": ("a pack", "per pack", "each", "apiece", "single pack", "a packet"),
    "not_wanted": ("no", "zero", "nothing with", "without", "free of", "avoid",
                   "skip anything with", "won't buy"),
    # what may stand before a brand the shopper rules out, or insists on
    "brand_out": ("not", "anything but", "nothing from", "anything except", "no",
                  "i'd rather avoid", "please skip", "i won't buy", "i don't buy", "never"),
    "brand_only": ("only buy", "stick to", "only go for", "always buy", "only ever buy",
                   "insist on"),
    "origin": ("come from", "comes from", "made in", "produced in", "packed in", "grown in",
               "sourced in"),
}  # fmt: skip
_HEARD = {
    name: r"(?i:\b(?:" + "|".join(re.escape(p) for p in phrases) + r")\b)"
    for name, phrases in _PHRASES.items()
}
_SAYS_NOTHING = re.compile(_HEARD["says_nothing"])
_AMOUNT = re.compile(r"€\s?(\d+(?:\.\d+)?)|(\d+(?:\.\d+)?) euros?\b")
_SENTENCE_START = r"(?:^|[.!?:,]\s+|\b(?i:and|so)\s+)"
_BRAND_MID = r"(?i:any\s+|anything by\s+|products from\s+|the\s+)?"
_MUST_BE = (
    r"(?i:(?:has to|must|needs to|should|ought to|got to|have to|need it to)\s+(?:\w+\s+)?be)"
)


def _statements(h: Heard, text: str, brands: set[str], countries: set[str]) -> None:
    for sentence in re.split(r"(?<=[.!?])\s+", text):
        if sentence and not _SAYS_NOTHING.search(sentence):
            _sentence(h, sentence, brands, countries)
    _nothing_to_say(h, text.lower())


def _sentence(h: Heard, text: str, brands: set[str], countries: set[str]) -> None:
    low = text.lower()
    # Each word is looked for as a plain substring first: a word-bounded match needs it, and most
    # sentences name no allergen, brand or country (a search per name cost more than the rest).
    if "allerg" in low:
        said = {
            a
            for words, a in _ALLERGEN_SAID.items()
            if words in low and re.search(rf"\b{words}\b", low)
        }
        if said:
            h.allergies |= said
            h.known_topics.add("allergies")
    for diet in ("vegan", "vegetarian"):
        if diet in low and re.search(rf"\b{diet}\b", low):
            setattr(h, diet, True)
            h.known_topics.add("diet")
    for stated in _AMOUNT.finditer(text):
        amount = float(stated.group(1) or stated.group(2))
        if re.search(_HEARD["total"], text):
            h.budget = amount
            h.known_topics.add("budget")
        elif re.search(_HEARD["per_pack"], text):
            h.max_price = amount
            h.known_topics.add("budget")
    m = re.search(r"nutri-score (?:of )?([a-e](?: or [a-e])*)\b(?!\w)", low)
    if m and "better nutri-score" not in low and not re.search(r"\bnot nutri", low):
        h.nutri = set(re.findall(r"[a-e]", m.group(1)))
        h.known_topics.add("nutriscore")
    if not re.search(r"wasn't labelled|farmed the way|how it's farmed|traded the way", low):
        for label, pattern in (("organic", r"\borganic\b"), ("fair-trade", r"\bfair[- ]trade\b")):
            if re.search(pattern, low):
                h.labels.add(label)
                h.known_topics.add("organic")
    if "palm oil" in low and re.search(_HEARD["not_wanted"], low):
        h.palm_free = True
        h.known_topics.add("palm_oil")
    m = re.search(r"nova (?:group )?([1-4])", low)
    if m:
        h.nova_max = int(m.group(1))
        h.known_topics.add("processing")
    for brand in brands:
        if brand not in text:  # both patterns match the name as it is written
            continue
        b = re.escape(brand)
        out = rf"{_SENTENCE_START}(?:please,\s+)?{_HEARD['brand_out']}\s+{_BRAND_MID}{b}\b"
        if re.search(out, text):
            h.brands_out.add(brand)
            h.known_topics.add("brand")
        if re.search(rf"(?:{_MUST_BE}|{_HEARD['brand_only']})\s+{b}\b", text):
            h.brands_only.add(brand)
            h.known_topics.add("brand")
    for country in countries:
        if country not in text:
            continue
        said_where = rf"{_HEARD['origin']}\s+{re.escape(country)}\b"
        if re.search(said_where, text) and "nothing made in" not in low:
            h.country = country
            h.known_topics.add("origin")


def _nothing_to_say(h: Heard, low: str) -> None:
    for topic, word in (
        ("brand", "brand"),
        ("nutriscore", "nutri-score"),
        ("organic", "farming"),
        ("palm_oil", "palm oil"),
        ("processing", "processed"),
        ("origin", "where it comes from"),
        ("diet", "diet"),
        ("budget", "budget"),
        ("allergies", "allergies"),
    ):
        if re.search(
            rf"(?:no particular preference on|don't mind about|easy on|hard to say up front|can't really put)[^.]*{word}",
            low,
        ):
            h.known_topics.add(topic)


_ACCEPT = re.compile(
    r"(?i)sounds good to me|works for me|i'll take|is just right|fine as a replacement|"
    r"happy to have .+ instead|swap in"
)


_WHICH_ONE = re.compile(
    r"(?i)\bwhich (?:one|brand|size|of them)\b|which .{1,80}? do you mean|"
    r"more than one on the shelf|i see (?:a few|several) of those"
)


def _verdict(h: Heard, text: str, proposed: Product | None) -> None:
    low = text.lower()
    if re.search(r"(?i)please place the order|go ahead and order|please order it", text):
        h.confirmed_order = True
    if re.search(r"(?i)please process that return|go ahead with the return|please return it", text):
        h.confirmed_return = True
    if proposed is None:
        return
    if _WHICH_ONE.search(text):
        h.unclear.add(proposed.id)
        return
    if _ACCEPT.search(text):
        h.accepted = proposed.id
        return
    named = proposed.name.lower() in low or "that brand" in low
    if not named:
        return
    h.declined.add(proposed.id)
    nutri_hint = "better nutri-score than" in low or "nutri-score isn't good enough" in low
    if nutri_hint and proposed.nutriscore in _NUTRI:
        idx = _NUTRI.index(proposed.nutriscore)
        h.nutri_better_than = min(
            idx, h.nutri_better_than if h.nutri_better_than is not None else 9
        )
    if "more processed than" in low or "less processed than" in low:
        h.hint_nova_max = min(proposed.nova_group - 1, h.hint_nova_max or 9)
    if "costs more than" in low or "pricier than" in low:
        cap = round(proposed.price - 0.01, 2)
        h.hint_max_price = min(cap, h.hint_max_price if h.hint_max_price is not None else 1e9)
    if "too basic for me" in low or "the cheap kind" in low:
        floor = round(proposed.price + 0.01, 2)
        h.hint_min_price = max(floor, h.hint_min_price or 0.0)
        h.upper_half = h.upper_half or "pricier end" in low or "upper end" in low
    if "how it's farmed" in low or "farmed the way" in low:
        h.hint_labels.add("organic")
    if "growers are paid" in low or "traded the way" in low:
        h.hint_labels.add("fair-trade")
    if "brand of" in low or "that brand" in low:
        h.hint_brands_out.add(proposed.brand)
    if "oils in" in low:
        h.hint_palm_free = True
    if "doesn't suit how i eat" in low:
        h.vegan = True


def hear(messages: list[ChatMessage], catalog: Any, proposals: list[str | None]) -> Heard:
    """Read the shopper's messages; `proposals[i]` is the product the assistant message before
    the i-th shopper reply put forward (None: none)."""
    h = Heard()
    brands = {p.brand for p in catalog.items}
    countries = {c for p in catalog.items for c in p.countries}
    users = [text_of(m) for m in messages if m.get("role") == "user"]
    if users:
        _opening(h, users[0])
        _statements(h, users[0], brands, countries)
    for i, text in enumerate(users[1:]):
        _statements(h, text, brands, countries)
        pid = proposals[i] if i < len(proposals) else None
        _verdict(h, text, catalog.get(pid) if pid else None)
    h.last_reply = users[-1] if users else ""
    return h


def fetched_products(messages: list[ChatMessage]) -> tuple[dict[str, dict[str, Any]], list[str]]:
    """Product names -> the record the agent fetched, and the names the shopper ordered before."""
    by_name: dict[str, dict[str, Any]] = {}
    past: list[str] = []
    for c in exchanges(messages):
        result = c.result if isinstance(c.result, dict) else {}
        if c.name == "get_product" and "name" in result:
            by_name[str(result["name"]).lower()] = result
        elif c.name == "search_products":
            for r in result.get("products") or []:
                if isinstance(r, dict) and "name" in r:
                    by_name.setdefault(str(r["name"]).lower(), r)
        elif c.name == "get_past_orders":
            for order in result.get("orders") or []:
                past += [str(line.get("name")) for line in order.get("lines") or [] if line]
    return by_name, past
