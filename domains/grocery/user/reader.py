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
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal

from domains.grocery.user.vocabulary import (
    ALLERGEN_WORDS,
    TOPIC_PATTERNS,
    WEAK_TOPIC_PATTERNS,
    Topic,
)

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

_MARKDOWN = re.compile(r"\*\*|__|`|~~|^#+\s*|(?<!\w)_(?!\w)", re.MULTILINE)
_SPLIT = re.compile(r"(?<=[?!])\s+|(?<=[.;])\s+(?=[A-Z\"'(*])|\s+(?:—|--|–)\s+|\n+")
_PAREN = re.compile(r"\([^()\n]*\)")
_BULLET = re.compile(r"^\s*(?:[-*•·–]|\d+[.)]|[a-z][.)])\s+")
_ASKING_CUE = re.compile(
    r"(?i)\b(?:let me know|let us know|tell me|i'?d (?:love|like|want) to (?:know|hear)|"
    r"i would (?:love|like) to (?:know|hear)|(?:i'?m|i am) (?:wondering|curious)|i wonder|"
    r"(?:could|can|would) you (?:share|say|tell|let|give|describe|list|mention|clarify|confirm)|"
    r"please (?:share|tell|let|list|describe|say|mention|confirm)|mind sharing|"
    r"it(?:'d| would) help (?:me )?(?:to (?:know|hear)|if|a lot to)|(?:helpful|useful) to know|"
    r"help me (?:understand|narrow)|(?:want|need) to (?:know|check)|fill me in|"
    r"any preferences? (?:on|for|about|regarding)|your preferences? (?:on|for|about|regarding)|"
    r"what about|how about (?:the|your)|feel free to (?:say|tell|share|mention)|"
    r"before i (?:search|look|start|suggest)[^.]*,\s*(?:what|which|how|any|do|are|is))"
)
_QUESTION_START = re.compile(
    r"(?i)^\W*(?:(?:so|and|also|okay|ok|great|cool|alright|then|first|next|lastly|finally|now|"
    r"perfect|thanks|got it|one more thing|quick question)\b[\s,:!-]*)*"
    r"(?:whether|what|what's|which|how|do|does|did|are|is|would|could|should|will|can|any|"
    r"anything|have|has|shall|may|when|who|where|prefer|care)\b"
)
_GIVEN_CLAUSE = re.compile(
    r"(?i)^\W*(?:since|given(?: that)?|as|because|now that|seeing as|with|you (?:said|mentioned|"
    r"told me)|noted)\b[^,?]{0,80},\s*"
)
_LABEL_ONLY = re.compile(r"(?i)^[\w][\w /&-]{0,30}:\s*\??\s*$")
_QUESTION_HEADER = re.compile(
    r"(?i)\b(?:questions?|tell me|let me know|a (?:few|couple of) (?:things|details)|"
    r"before i (?:start|search|look|suggest)|to narrow (?:it|things) down|help me narrow)\b|[?:]\s*$"
)


def segments(text: str) -> list[tuple[str, bool]]:
    """The message's sentences and list items, each with whether it is a question."""
    # A parenthesis is one aside (a pitch's "(€1.84; Nutri-Score B; organic)"): never split.
    clean = _PAREN.sub(lambda m: m.group(0).replace(";", ","), _MARKDOWN.sub("", text))
    out: list[tuple[str, bool]] = []
    lines = clean.splitlines() or [clean]
    questionnaire = False
    for line in lines:
        if not line.strip():
            continue
        bullet = bool(_BULLET.match(line))
        body = _BULLET.sub("", line).strip()
        if not bullet:
            questionnaire = bool(_QUESTION_HEADER.search(body)) and body.rstrip().endswith(
                (":", "?")
            )
        for part in _SPLIT.split(body):
            part = part.strip()
            if not part:
                continue
            asks = is_question(part) or (bullet and questionnaire) or bool(_LABEL_ONLY.match(part))
            out.append((part, asks))
    return out


def is_question(sentence: str) -> bool:
    """Whether one sentence asks something (a mark, a question opening, or an indirect request)."""
    s = _GIVEN_CLAUSE.sub("", sentence.strip())
    return s.endswith("?") or bool(_QUESTION_START.match(s)) or bool(_ASKING_CUE.search(s))


def _compile(fragments: Iterable[str]) -> re.Pattern[str]:
    ordered = sorted(set(fragments), key=len, reverse=True)
    return re.compile(r"(?i)(?<![\w-])(?:" + "|".join(ordered) + r")(?![\w-])")


_TOPIC_RES: tuple[tuple[Topic, re.Pattern[str]], ...] = tuple(
    (topic, _compile(frags)) for topic, frags in TOPIC_PATTERNS.items()
)
_WEAK_RES: tuple[tuple[Topic, re.Pattern[str]], ...] = tuple(
    (topic, _compile(frags)) for topic, frags in WEAK_TOPIC_PATTERNS.items()
)
# Phrases where a topic word means something else; blanked before topics are read.
_NOT_A_TOPIC = re.compile(
    r"(?i)\b(?:how (?:can|may) i help|anything else|(?:any|other) questions?|help you|"
    r"(?:our|the|my) (?:catalog|search|tools?|store|shop)|in stock|stock levels?|"
    r"(?:sound|sounds|look|looks) (?:good|great|fine|right)|work for you|works for you|"
    r"(?:the|your) (?:order|basket|cart|return|refund)|place (?:the|your|an) order|"
    r"how many (?:options|results|products) (?:i|we)|"
    r"a (?:good|great) (?:fit|choice|option|pick)|no problem|value it)\b"
)


def topics_asked(text: str) -> tuple[Topic, ...]:
    """The topics one message asks about, in order (questions that name a product excluded)."""
    return _topics(text, lambda s: False)


def _topics_in(segment: str) -> list[tuple[int, Topic]]:
    s = _NOT_A_TOPIC.sub(lambda m: " " * len(m.group(0)), segment)
    claimed: list[tuple[int, int]] = []
    found: list[tuple[int, Topic]] = []
    for topic, pattern in _TOPIC_RES:
        for m in pattern.finditer(s):
            if any(a < m.end() and m.start() < b for a, b in claimed):
                continue
            claimed.append((m.start(), m.end()))
            found.append((m.start(), topic))
    if not found:
        for topic, pattern in _WEAK_RES:
            weak = pattern.search(s)
            if weak:
                found.append((weak.start(), topic))
    return sorted(found)


def _topics(text: str, names_product: Callable[[str], bool]) -> tuple[Topic, ...]:
    out: list[Topic] = []
    for segment, asks in segments(text):
        if not asks or names_product(segment):
            continue
        body = _GIVEN_CLAUSE.sub("", segment)
        for _, topic in _topics_in(body):
            if topic not in out:
                out.append(topic)
    return tuple(out)


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
_NOTHING_FITS = re.compile(
    r"(?i)\b(?:nothing (?:in (?:the|our) (?:catalog|store|range)|we (?:have|carry|stock)|(?:i )?"
    r"(?:could|can) find|available|suitable)?\s*(?:fits|meets|matches|works|suits|ticks)|"
    r"(?:couldn'?t|could not|can'?t|cannot|wasn'?t able to|was not able to|am unable to|unable to)"
    r" (?:find|locate|see) (?:any|a single|anything|a product|something|an option)|"
    r"no (?:product|item|option)s? (?:in (?:the|our) catalog )?(?:that )?(?:fits|meets|matches|"
    r"ticks|satisf)|none of (?:the|our) (?:products|items|options)|there(?:'s| is) nothing (?:that|"
    r"which|i can)|no suitable|nothing suitable|doesn'?t exist in (?:our|the) catalog)"
)


class ShopperReader:
    """Reads agent messages for one catalog (its product names and ids)."""

    def __init__(self, products: Iterable[NamedProduct]) -> None:
        self.index = ProductIndex(products)

    def read(self, text: str) -> Reading:
        """The acts of one agent message."""
        spans = self.index.spans(text)
        named = tuple(dict.fromkeys(pid for _, _, pid in spans))
        proposed: list[str] = []
        for start, end, pid in spans:
            before = text[max(0, start - 60) : start]
            after = text[end : end + 90]
            if _BEFORE_NOT_PROPOSED.search(before) or _AFTER_NOT_PROPOSED.match(after):
                continue
            if pid not in proposed:
                proposed.append(pid)
        asked = _topics(text, lambda s: bool(self.index.spans(s)))
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
