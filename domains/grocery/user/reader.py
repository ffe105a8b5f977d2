"""The shopper's reader: one agent message in, the acts it holds out (topics asked, products put forward, a request to confirm).

It is the only part of the shopper that interprets words; the decision engine sees only its
`Reading`. Rule-based, and written for how assistants really talk:
- a question is a sentence ending in "?", one opening like a question without the mark ("any
  allergies I should know about"), an indirect request ("let me know your budget", "I'd love to
  hear whether you eat meat"), or an item of a bullet-list questionnaire; greetings, recaps and
  pitches around it change nothing;
- a question asks about a topic when it names it in any common form ("anything you can't eat",
  "how much were you hoping to spend", "do you care about how processed it is"); words that
  describe a product named in the same question are a pitch, not a question;
- a product counts as put forward when the message names it (by its name, in any case, inside
  bold or quotes, or by its id) and not as a comparison ("cheaper than X", "like your usual X"),
  a past order, an item to return, or one ruled out ("X is out of stock", "instead of X");
- a request to confirm is a question asking to place the order, process the return, or take a
  substitute; announcing "I'll place the order now" asks nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from domains.grocery.user.vocabulary import ALLERGEN_WORDS, ASKING, TOPICS, Topic
from runner.kits.user.proposals import ProposalReader
from runner.kits.user.reader import TITLE_MARK, FieldReader, nothing_fits_pattern

__all__ = [
    "ConfirmKind",
    "NamedProduct",
    "ProductIndex",
    "Reading",
    "ShopperReader",
    "is_question",
    "segments",
    "topics_asked",
]

ConfirmKind = Literal["order", "return", "substitution"]


@dataclass(frozen=True)
class NamedProduct:
    """One product an index can find by name: its id, name and brand."""

    id: str
    name: str
    brand: str


@dataclass(frozen=True)
class Reading:
    """What one agent message does, as the shopper understands it."""

    asked: tuple[Topic, ...]
    """Topics the message asks the shopper about, in the order it asks them."""
    proposed: tuple[str, ...]
    """Product ids the message puts forward, in order (each once)."""
    named: tuple[str, ...]
    """Every product id the message names (proposed, compared, ruled out, returned)."""
    confirm: ConfirmKind | None
    """The message asks the shopper to confirm an order, a return or a substitution."""
    nothing_fits: bool
    """The message says nothing suitable was found (words only; it decides nothing)."""


# -- segments and questions ------------------------------------------------------------------

_FIELDS = FieldReader(ASKING)


def segments(text: str) -> list[tuple[str, bool]]:
    """The message's sentences and list items, each with whether it is a question."""
    return _FIELDS.segments(text)


def is_question(sentence: str) -> bool:
    """Whether one sentence asks something (a mark, a question opening, or an indirect request)."""
    return all(asks for _s, asks in _FIELDS.segments(sentence)) and bool(sentence.strip())


def topics_asked(text: str) -> tuple[Topic, ...]:
    """The topics one message asks about, in order (products should be blanked first)."""
    return _topics(_FIELDS.read_fields(text))


_TOPIC_OF: dict[str, Topic] = {topic: topic for topic in TOPICS}


def _topics(fields: tuple[str, ...]) -> tuple[Topic, ...]:
    return tuple(_TOPIC_OF[f] for f in fields if f in _TOPIC_OF)


# -- products --------------------------------------------------------------------------------

_TOKEN = re.compile(r"[0-9a-zà-ÿ]+(?:%)?")
_ID = re.compile(r"\boff_\d{8,14}\b")


def _tokens(text: str) -> list[re.Match[str]]:
    return list(_TOKEN.finditer(text.lower()))


class ProductIndex:
    """Finds product names (whole, any case, any punctuation between words) and ids in a text."""

    def __init__(self, products: Iterable[NamedProduct]) -> None:
        self._by_first: dict[str, list[tuple[tuple[str, ...], str]]] = {}
        self._brand: dict[str, str] = {}
        self._ids: set[str] = set()
        self._names: dict[tuple[str, ...], list[str]] = {}
        for p in products:
            toks = tuple(m.group(0) for m in _tokens(p.name))
            if not toks:
                continue
            self._ids.add(p.id)
            self._brand[p.id] = p.brand.lower()
            self._names.setdefault(toks, []).append(p.id)
        for toks, ids in self._names.items():
            self._by_first.setdefault(toks[0], []).append((toks, ids[0]))
        for entries in self._by_first.values():
            entries.sort(key=lambda e: -len(e[0]))

    def spans(self, text: str) -> list[tuple[int, int, str]]:
        """(start, end, product id) of every product named in `text`, in order, longest first."""
        toks = _tokens(text)
        words = [m.group(0) for m in toks]
        out: list[tuple[int, int, str]] = []
        i = 0
        while i < len(words):
            hit = None
            for name, pid in self._by_first.get(words[i], ()):
                if tuple(words[i : i + len(name)]) == name:
                    hit = (name, pid)
                    break
            if hit is None:
                i += 1
                continue
            name, pid = hit
            start, end = toks[i].start(), toks[i + len(name) - 1].end()
            ids = self._names[name]
            if len(ids) > 1:  # the same name from several brands: the brand said nearby decides
                near = text[max(0, start - 40) : end + 40].lower()
                pid = next((c for c in ids if self._brand[c] in near), ids[0])
            out.append((start, end, pid))
            i += len(name)
        for m in _ID.finditer(text):
            if m.group(0) in self._ids and not any(a <= m.start() < b for a, b, _ in out):
                out.append((m.start(), m.end(), m.group(0)))
        return sorted(out)


_BEFORE_NOT_PROPOSED = re.compile(
    r"(?i)(?:instead of|rather than|unlike|compared (?:to|with)|similar to|than|"
    r"(?:a )?replacement for|(?:a )?substitute for|swap(?:ping)?(?: out)?|in place of|"
    r"alternative to|(?:your|the) usual|you (?:usually|normally|previously|last|already|often)"
    r" (?:order|bought|buy|had|get|got|ordered)\w*(?: the)?|return(?:ing)?(?: of)?(?: the| your)?|"
    r"refund(?:ing)?(?: for)?(?: the| your)?|(?:the|your) (?:original|previous|last)|"
    r"avoid(?:ing)?(?: the)?|skip(?:ping)?(?: the)?|ruled out(?: the)?|excluded?(?: the)?|"
    r"not(?: the)?|except(?: the)?|besides(?: the)?|wanted(?: the)?|asked for(?: the)?|"
    r"like your|such as(?: the)?|same as(?: the)?|bought(?: the)?|ordered(?: the)?|"
    r"(?:the|your) (?:out[- ]of[- ]stock|unavailable|sold[- ]out))\s*[\"'(]?\s*[*_]*$"
)
_AFTER_NOT_PROPOSED = re.compile(
    r"(?i)^[*_]*\s*[\"')]?\s*(?:\([^)]*\)\s*)?,?\s*(?:(?:is|are|was|were|'s|has been|is currently|"
    r"is sadly|is unfortunately|unfortunately is)\s+)?(?:currently |sadly |unfortunately |now |also )?"
    r"(?:out of stock|sold out|unavailable|not available|not in stock|no longer (?:available|stocked)|"
    r"(?:over|above|beyond|outside) (?:your |the )?budget|ruled out|off the list|excluded|"
    r"(?:which|that) you (?:ordered|bought|had|returned|wanted|asked for|usually|normally|"
    r"got|mentioned)|you (?:ordered|bought|had|returned)|from (?:your |the )?(?:last |previous |"
    r"past |earlier |recent |latest )?orders?\b|in (?:your |the )?order\b|in your (?:last|previous|past) orders?|"
    r"(?:won't|doesn't|does not|wouldn't|would not|can't) (?:work|fit|suit|meet|do)|"
    r"(?:contains|has|includes) (?:traces of |some )?(?:"
    + "|".join(w for words in ALLERGEN_WORDS.values() for w in words)
    + r")\b|is (?:not|no) (?:vegan|vegetarian|an option))"
)
_CONFIRM_ORDER = re.compile(
    r"(?i)\b(?:(?:place|put through|submit|finali[sz]e|complete|go ahead with|proceed with|"
    r"confirm|process) (?:the |your |this |that |an )?(?:order|purchase|checkout)|check ?out|"
    r"(?:shall|should|can|may) i (?:go ahead and |now )?(?:order|buy|purchase|place)|"
    r"(?:ready|happy|okay|ok|good) (?:for me )?to (?:order|check ?out|place|buy|go ahead)|"
    r"want me to (?:go ahead and )?(?:order|place|buy|purchase|check|proceed|finali[sz]e)|"
    r"(?:you'?d like|you want) (?:me )?to (?:order|buy|purchase)|"
    r"go ahead and (?:order|place|buy|purchase)|confirm (?:the|your|this) basket|"
    r"(?:order|buy|purchase) (?:it|them|this|these) (?:for you|now))\b"
)
_CONFIRM_RETURN = re.compile(
    r"(?i)\b(?:(?:process|proceed with|go ahead with|confirm|start|submit|file|issue|raise|"
    r"arrange|set up|log|open) (?:the |a |your |this |that )?(?:return|refund)|"
    r"(?:shall|should|can|may) i (?:go ahead and |now )?(?:return|refund)|"
    r"want me to (?:go ahead and )?(?:return|refund|process)|(?:return|refund) (?:it|this|that) "
    r"(?:for you|now))\b"
)
_CONFIRM_SUBSTITUTION = re.compile(
    r"(?i)\b(?:substitut\w*|replacement|instead|swap\w*|switch\w*|alternative|in its place|"
    r"in place of)\b"
)
_NOTHING_FITS = nothing_fits_pattern(("product", "item"))


_PROPOSALS = ProposalReader(
    segments=segments,
    nothing_fits=_NOTHING_FITS,
    passing_before=_BEFORE_NOT_PROPOSED,
    passing_after=_AFTER_NOT_PROPOSED,
)


class ShopperReader:
    """Reads agent messages for one catalog (its product names and ids)."""

    def __init__(self, products: Iterable[NamedProduct]) -> None:
        self.index = ProductIndex(products)

    def read(self, text: str) -> Reading:
        """The acts of one agent message."""
        spans = self.index.spans(text)
        named = tuple(dict.fromkeys(pid for _, _, pid in spans))
        proposed = _PROPOSALS.proposed(text, spans, frozenset(), None)
        blanked = text
        for start, end, _pid in reversed(spans):
            blanked = blanked[:start] + TITLE_MARK + blanked[end:]
        # In a message that puts a product forward, a request for a reaction asks no topic.
        asked = _topics(_FIELDS.read_fields(blanked, reacting=bool(proposed)))
        return Reading(
            asked=asked,
            proposed=tuple(proposed),
            named=named,
            confirm=self._confirm(text, bool(proposed)),
            nothing_fits=bool(_NOTHING_FITS.search(text)) and not proposed,
        )

    @staticmethod
    def _confirm(text: str, proposes: bool) -> ConfirmKind | None:
        questions = [s for s, asks in segments(text) if asks]
        joined = " ".join(questions)
        if _CONFIRM_RETURN.search(joined):
            return "return"
        if _CONFIRM_ORDER.search(joined):
            return "order"
        if proposes and _CONFIRM_SUBSTITUTION.search(joined):
            return "substitution"
        return None
