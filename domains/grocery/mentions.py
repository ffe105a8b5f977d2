"""Which products an agent message puts forward: each mention resolved to one product by its name, brand, size and id; one rule for the scorer and the simulated shopper.

A mention is a product name said in the message (any case, any punctuation between its words,
one typo in a long word forgiven) or a product id written out. Shelves hold the same name under
several brands and sizes, so a name alone fits every product that bears it; the brand, the size
and the id said beside it (nearest on each side, within its clause) narrow it down. A mention
that still fits several products names none of them: the shopper asks which one is meant. A
mention the message rules out ("X is out of stock", "X contains nuts, so I skipped it", "not X",
"instead of X", "your usual X") names a product without putting it forward.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from domains.grocery.items import ALLERGENS
from runner.core.memo import per_object
from runner.core.transcript import MessageEvent, Transcript

__all__ = [
    "ID_PATTERN",
    "AgentMessage",
    "Mention",
    "Resolver",
    "agent_messages",
    "mentions",
    "resolver",
]

ID_PATTERN = re.compile(r"(?<!\w)off_\d{8,14}(?!\w)")
_TOKEN = re.compile(r"[0-9a-zà-ÿ]+%?")
# Clause edges: a mention's brand and size are looked for inside its own clause only.
_CLAUSE_EDGE = re.compile(r"\n|;|(?<=[.!?])\s+")
# Where one list entry ends and the next begins: what follows belongs to the next mention.
_CONNECTOR_WORDS = ("and", "or", "vs", "versus", "than", "then", "plus", "nor", "but")
_CONNECTOR = re.compile(
    r"(?i),|\binstead of\b|\brather than\b|" + "|".join(rf"\b{w}\b" for w in _CONNECTOR_WORDS)
)
_UNITS: dict[str, str] = {
    "g": r"g|gr|grams?|gramm?es?",
    "kg": r"kg|kilos?|kilograms?",
    "ml": r"ml|millilit(?:re|er)s?",
    "cl": r"cl|centilit(?:re|er)s?",
    "l": r"l|lit(?:re|er)s?|ltr",
    "bags": r"bags?|tea ?bags?",
    "capsules": r"capsules?|caps|pods?",
    "sachets": r"sachets?",
}
_QUANTITY = re.compile(r"^\s*(?:(\d+)\s*x\s*)?(\d+(?:[.,]\d+)?)\s*([a-z]+)\s*$", re.IGNORECASE)

# -- rule-outs: words around a mention that say it is not being put forward ------------------

# The declared allergens' names and the everyday words for them ("contains nuts").
_ALLERGEN_WORDS = "|".join(
    [a.replace("-", " ") for a in ALLERGENS]
    + ["wheat", "shellfish", "eggs?", "peanuts?", "soy|soya", "dairy", "lactose", "nuts?"]
    + ["hazelnuts?", "almonds?", "sesame", "sulphites?", "sulfites?", "traces?", "allergens?"]
)
_BEFORE_NOT_PROPOSED = re.compile(
    r"(?i)(?:instead of|rather than|unlike|compared (?:to|with)|similar to|than|"
    r"(?:a )?replacement for|(?:a )?substitute for|swap(?:ping)?(?: out)?|in place of|"
    r"alternative to|(?:your|the) usual|you (?:usually|normally|previously|last|already|often)"
    r" (?:order|bought|buy|had|get|got|ordered)\w*(?: the)?|return(?:ing)?(?: of)?(?: the| your)?|"
    r"refund(?:ing)?(?: for)?(?: the| your)?|(?:the|your) (?:original|previous|last)|"
    r"avoid(?:ing)?(?: the)?|skip(?:ping|ped)?(?: the)?|ruled out(?: the)?|excluded?(?: the)?|"
    r"left out(?: the)?|dropped(?: the)?|not(?: the)?|no(?: to)?|except(?: the)?|besides(?: the)?|"
    r"wanted(?: the)?|asked for(?: the)?|won'?t (?:suggest|recommend|offer)(?: the)?|"
    r"(?:can'?t|cannot|couldn'?t) (?:offer|suggest|recommend)(?: the)?|"
    r"like your|such as(?: the)?|same as(?: the)?|bought(?: the)?|ordered(?: the)?|"
    r"(?:the|your) (?:out[- ]of[- ]stock|unavailable|sold[- ]out)|"
    r"(?:out of stock|sold out|unavailable|unsuitable|not suitable|over budget)\s*:|"
    r"excluding(?: the)?|steer(?:ing)? clear of(?: the)?|(?:other|apart) (?:than|from)(?: the)?|"
    r"no luck with|(?:would ?n[o']t|won'?t|do ?n[o']t|wouldn’t) (?:go for|pick|choose|take|buy)|"
    r"(?:beats|beat|outdoes)(?: the)?)"
    r"(?:\s+(?:the|your|a|an|that|this))?(?:\s+(?:item|product|sku|id|barcode|ref|code))?"
    r"(?:\s*(?:\d+|one|two|three)\s*(?:[x×*]|packs? of))?\s*[\"'(“#]?\s*[*_]*$"
)
_AFTER_NOT_PROPOSED = re.compile(
    r"(?i)^[*_]*\s*[\"')”]?(?:\s+(?:pack|size|one|version|bottle|jar|tub|bag|box|carton))?"
    r"\s*(?:\(\s*(?:unavailable|out of stock|sold out|not in stock|"
    r"discontinued|over budget|excluded|ruled out)\s*\)|(?:\([^)]*\)\s*)?[,:]?\s*"
    r"(?:\s+(?:today|now|right now|at the moment|this week|currently))?"
    r"(?:(?:[—–-]\s*|,\s*)?(?:but |and |as |since |because )?(?:it|that|this one|which)(?=[\s'’])"
    r"\s*)?"
    r"(?:(?:is|are|was|were|'s|’s|has been|"
    r"is currently|is sadly|is unfortunately|unfortunately is|would be|will be)\s+)?"
    r"(?:currently |sadly |unfortunately |now |also |too |a bit |slightly |well )?"
    r"(?:out of stock|sold out|unavailable|not available|not in stock|no longer (?:available|"
    r"stocked)|(?:over|above|beyond|outside) (?:your |the )?budget|too (?:expensive|pricey|dear)|"
    r"(?:costs?|is|are) (?:more|pricier|dearer) than you|(?:would |will )?break(?:s)? (?:your |the )"
    r"budget|(?:is|are) out\b(?!\s+of\s+(?!stock))|"
    r"ruled out|off the list|excluded|not (?:suitable|an option|safe|vegan|vegetarian|organic)|"
    r"(?:isn'?t|is not|aren'?t|are not)\s+(?:suitable|an option|safe|vegan|vegetarian|organic|"
    r"(?:\w+[- ])?free|in stock|available|right)|"
    r"unsuitable|(?:which|that) you (?:ordered|bought|had|returned|wanted|asked for|usually|"
    r"normally|got|mentioned)|you (?:ordered|bought|had|returned)|from (?:your |the )?(?:last |"
    r"previous |past |earlier |recent |latest )?orders?\b|in (?:your |the )?order\b|"
    r"(?:won'?t|doesn'?t|does not|wouldn'?t|would not|can'?t) (?:work|fit|suit|meet|do)|"
    r"(?:contains|has|includes|lists|declares|may contain|can contain)\s+(?:traces of |some |a )?"
    r"(?:" + _ALLERGEN_WORDS + r")\b|is (?:not|no) (?:vegan|vegetarian|an option)|"
    r"(?:—|-|,)?\s*(?:so |which is why |and )?(?:i|we)(?:'ve| have)? (?:skipped|left out|"
    r"excluded|ruled out|dropped|avoided|passed on|set aside)|discontinued|"
    r"(?:did not|didn'?t|does not|doesn'?t) make the cut|\?\s*no\b))"
)


# "I looked at A, B and C; only C fits": what a sentence names before its "only ... fits" is not
# put forward.
_ONLY_FITS = re.compile(
    r"(?i)\bonly\b[^.;!?\n]{0,160}?\b(?:fits|works|suits|meets|qualifies|passes|is suitable|"
    r"is safe|is left|remains)\b"
)
_SENTENCE = re.compile(r"[^.!?\n]+(?:[.!?\n]|$)")


def _ruled_out(text: str, start: int, end: int) -> bool:
    """Whether the words right around text[start:end] rule the mention out."""
    return bool(_BEFORE_NOT_PROPOSED.search(text[max(0, start - 60) : start])) or bool(
        _AFTER_NOT_PROPOSED.match(text[end : end + 90])
    )


def _only_the_last(text: str, found: list[Mention]) -> list[Mention]:
    """Mentions before a sentence's "only ... fits", marked ruled out."""
    cuts: list[tuple[int, int]] = []
    for sentence in _SENTENCE.finditer(text):
        only = _ONLY_FITS.search(sentence.group(0))
        if only is not None:
            cuts.append((sentence.start(), sentence.start() + only.start()))
    return [
        replace(m, ruled_out=True) if any(a <= m.start < b for a, b in cuts) else m for m in found
    ]


@dataclass(frozen=True)
class Mention:
    """One product mention: where it stands, the products its words fit, whether it is ruled out."""

    @property
    def product(self) -> str | None:
        """The one product meant, or None when the words fit several."""
        return self.candidates[0] if len(self.candidates) == 1 else None

    start: int
    """Where it starts: a brand or size said before the name is part of it."""
    end: int
    candidates: tuple[str, ...]
    """Every product the name, brand, size and id said fit (one: resolved)."""
    ruled_out: bool
    name: str
    """The product name as the catalog spells it ('' for a bare id)."""


def _deletes(word: str) -> set[str]:
    return {word[:i] + word[i + 1 :] for i in range(len(word))}


def _close(said: str, name: str) -> bool:
    """Equal, or (both five letters or more) one letter dropped, added, changed or swapped."""
    if said == name:
        return True
    if min(len(said), len(name)) < 5 or abs(len(said) - len(name)) > 1:
        return False
    if len(said) == len(name):
        diff = [i for i, (a, b) in enumerate(zip(said, name, strict=True)) if a != b]
        return len(diff) == 1 or (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and said[diff[0]] == name[diff[1]]
            and said[diff[1]] == name[diff[0]]
        )
    longer, shorter = (said, name) if len(said) > len(name) else (name, said)
    return shorter in _deletes(longer)


def _size_pattern(quantity: str) -> re.Pattern[str] | None:
    m = _QUANTITY.match(quantity)
    if m is None:
        return None
    count, amount, unit = m.group(1), m.group(2), m.group(3).lower()
    units = _UNITS.get(unit, re.escape(unit))
    number = re.escape(amount).replace(r"\.", r"[.,]")
    body = rf"{number}\s*-?\s*(?:{units})"
    if count:
        body = rf"{count}\s*[x×]\s*" + body
    return re.compile(rf"(?i)(?<![\w.,]){body}(?!\w)")


@dataclass(frozen=True)
class _Listing:
    id: str
    name: tuple[str, ...]
    display: str
    brand: str
    size: re.Pattern[str] | None


@dataclass(frozen=True)
class _Said:
    """A brand, size or id said near a name: where, and which candidates it fits."""

    kind: str
    start: int
    end: int
    fits: frozenset[str]


class Resolver:
    """Resolves the mentions of one catalog's products (anything with id, name, brand, quantity)."""

    def __init__(self, products: Iterable[Any]) -> None:
        self._listings: dict[str, _Listing] = {}
        self._by_name: dict[tuple[str, ...], list[str]] = {}
        for p in products:
            toks = tuple(_TOKEN.findall(p.name.lower()))
            if not toks:
                continue
            quantity = str(getattr(p, "quantity", "") or "")
            self._listings[p.id] = _Listing(
                p.id, toks, p.name, p.brand, _size_pattern(quantity) if quantity else None
            )
            self._by_name.setdefault(toks, []).append(p.id)
        self._by_first: dict[str, list[tuple[str, ...]]] = {}
        self._fuzzy_first: dict[str, set[str]] = {}
        for toks in self._by_name:
            self._by_first.setdefault(toks[0], []).append(toks)
            if len(toks[0]) >= 5:
                for variant in _deletes(toks[0]) | {toks[0]}:
                    self._fuzzy_first.setdefault(variant, set()).add(toks[0])
        for names in self._by_first.values():
            names.sort(key=lambda n: -len(n))
        brands = sorted({x.brand for x in self._listings.values()}, key=len, reverse=True)
        self._brand_re = (
            re.compile(
                r"(?i)(?<!\w)(" + "|".join(re.escape(b) for b in brands) + r")(?:'s|’s)?(?!\w)"
            )
            if brands
            else None
        )

    # -- finding names ---------------------------------------------------------------------

    def _firsts(self, word: str) -> list[str]:
        found = [word] if word in self._by_first else []
        if len(word) >= 4:
            for variant in _deletes(word) | {word}:
                found += [f for f in self._fuzzy_first.get(variant, ()) if f not in found]
        return [f for f in found if _close(word, f)]

    def _names(self, text: str) -> list[tuple[int, int, tuple[str, ...]]]:
        """(start, end, name tokens) of every product name said, longest first at each word."""
        toks = list(_TOKEN.finditer(text.lower()))
        words = [m.group(0) for m in toks]
        out: list[tuple[int, int, tuple[str, ...]]] = []
        i = 0
        while i < len(words):
            best: tuple[str, ...] | None = None
            for first in self._firsts(words[i]):
                for name in self._by_first[first]:
                    said = words[i : i + len(name)]
                    if len(said) < len(name) or len(best or ()) >= len(name):
                        continue
                    typos = sum(a != b for a, b in zip(said, name, strict=True))
                    if typos <= 1 and all(_close(a, b) for a, b in zip(said, name, strict=True)):
                        best = name
            if best is None:
                i += 1
                continue
            out.append((toks[i].start(), toks[i + len(best) - 1].end(), best))
            i += len(best)
        return out

    # -- what is said beside a name --------------------------------------------------------

    def _beside(self, text: str, lo: int, hi: int, ids: set[str]) -> list[_Said]:
        """Brands, sizes and ids said in text[lo:hi] that fit any of `ids`."""
        region = text[lo:hi]
        said: list[_Said] = []
        if self._brand_re is not None:
            for m in self._brand_re.finditer(region):
                brand = m.group(1).casefold()
                fits = frozenset(i for i in ids if self._listings[i].brand.casefold() == brand)
                if fits:
                    said.append(_Said("brand", lo + m.start(), lo + m.end(), fits))
        sizes: list[_Said] = []
        for pid in ids:
            pattern = self._listings[pid].size
            if pattern is None:
                continue
            for m in pattern.finditer(region):
                sizes.append(_Said("size", lo + m.start(), lo + m.end(), frozenset({pid})))
        # "6 x 150 g" fits the six-pack, not the single 150 g one said inside it; products of
        # one size said once share the mention.
        spans: dict[tuple[int, int], frozenset[str]] = {}
        for s in sizes:
            spans[(s.start, s.end)] = spans.get((s.start, s.end), frozenset()) | s.fits
        for (a, b), fits in spans.items():
            if not any(c <= a and b <= d and (c, d) != (a, b) for c, d in spans):
                said.append(_Said("size", a, b, fits))
        for m in ID_PATTERN.finditer(region):
            if m.group(0) in ids:
                said.append(_Said("id", lo + m.start(), lo + m.end(), frozenset({m.group(0)})))
        return said

    @staticmethod
    def _nearest(said: list[_Said], before: bool) -> list[_Said]:
        """The nearest brand, the nearest size and the nearest id on one side of a name."""
        kinds: dict[str, _Said] = {}
        for s in sorted(said, key=lambda s: s.start, reverse=before):
            kinds.setdefault(s.kind, s)
        return list(kinds.values())

    # -- the whole message -----------------------------------------------------------------

    def find(self, text: str) -> list[Mention]:
        """Every mention in the text, in order."""
        out: list[Mention] = []
        names = self._names(text)
        edges = [0, *(m.end() for m in _CLAUSE_EDGE.finditer(text)), len(text) + 1]
        used_ids: list[tuple[int, int]] = []
        for k, (start, end, toks) in enumerate(names):
            clause_lo = max(e for e in edges if e <= start)
            clause_hi = min((e for e in edges if e > end), default=len(text))
            clause_hi = min(clause_hi, len(text))
            prev_end = names[k - 1][1] if k else 0
            lo = max(clause_lo, prev_end)
            # What stands before a name belongs to it only after the last connector.
            cut = [m.end() for m in _CONNECTOR.finditer(text, lo, start)]
            lo = max([lo, *cut])
            hi = clause_hi
            if k + 1 < len(names):
                nxt = names[k + 1][0]
                if nxt < hi:
                    cuts = [m.start() for m in _CONNECTOR.finditer(text, end, nxt)]
                    hi = cuts[-1] if cuts else nxt
            ids = set(self._by_name[toks])
            said = self._nearest(self._beside(text, lo, start, ids), True) + self._nearest(
                self._beside(text, end, hi, ids), False
            )
            candidates = ids
            for s in sorted(said, key=lambda s: len(s.fits)):
                narrower = candidates & s.fits
                if narrower:
                    candidates = narrower
            first = min([start, *(s.start for s in said)])
            last = max([end, *(s.end for s in said)])
            used_ids += [(s.start, s.end) for s in said]
            ruled = _ruled_out(text, first, last)
            ordered = tuple(sorted(candidates))
            out.append(Mention(first, last, ordered, ruled, self._listings[ordered[0]].display))
        for m in ID_PATTERN.finditer(text):
            pid = m.group(0)
            if pid not in self._listings or any(a <= m.start() < b for a, b in used_ids):
                continue
            out.append(
                Mention(m.start(), m.end(), (pid,), _ruled_out(text, m.start(), m.end()), "")
            )
        return _only_the_last(text, sorted(out, key=lambda m: m.start))

    def named(self, text: str) -> list[str]:
        """Ids of the products the text names unambiguously (proposed or not), in order, once."""
        return list(dict.fromkeys(m.product for m in self.find(text) if m.product is not None))

    def proposed(self, text: str) -> list[str]:
        """Ids of the products the text puts forward: resolved and not ruled out, in order."""
        return list(
            dict.fromkeys(
                m.product for m in self.find(text) if m.product is not None and not m.ruled_out
            )
        )

    def unclear(self, text: str) -> list[str]:
        """Names said, not ruled out, that fit several products (the shopper asks which one)."""
        return list(
            dict.fromkeys(m.name for m in self.find(text) if m.product is None and not m.ruled_out)
        )


@per_object
def resolver(catalog: Any) -> Resolver:
    """The resolver of a catalog object, built once and kept while the catalog lives."""
    return Resolver(catalog.items)


def mentions(text: str, catalog: Any) -> list[str]:
    """Sorted ids of the catalog's products a text puts forward (resolved, not ruled out)."""
    return sorted(resolver(catalog).proposed(text))


class AgentMessage:
    """One agent message of a transcript: its index in `events`, its text, the products it puts
    forward and every product it names unambiguously."""

    __slots__ = ("content", "index", "named", "products")

    def __init__(self, index: int, content: str, products: list[str], named: list[str]) -> None:
        self.index = index
        self.content = content
        self.products = products
        self.named = named


def agent_messages(transcript: Transcript, catalog: Any) -> list[AgentMessage]:
    """Every agent message of a transcript with the products it puts forward, in order."""
    found = resolver(catalog)
    out = []
    for i, e in enumerate(transcript.events):
        if isinstance(e, MessageEvent) and e.role == "agent":
            mentioned = found.find(e.content)
            out.append(
                AgentMessage(
                    i,
                    e.content,
                    list(
                        dict.fromkeys(m.product for m in mentioned if m.product and not m.ruled_out)
                    ),
                    list(dict.fromkeys(m.product for m in mentioned if m.product)),
                )
            )
    return out
