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
- a product counts as put forward when the message names it so that one product fits (name,
  brand, size or id: `domains.grocery.mentions`, the scorer's own resolver) and not as a
  comparison ("cheaper than X", "like your usual X"), a past order, an item to return, or one
  ruled out ("X is out of stock", "instead of X"); a name several products share, said with
  nothing that tells them apart, is `unclear` (the shopper asks which one);
- a request to confirm is a question asking to place the order, process the return, or take a
  substitute; announcing "I'll place the order now" asks nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

from domains.grocery.mentions import Resolver
from domains.grocery.user.vocabulary import ASKING, REQUEST_FORMS, SHORTCOMING, TOPICS, Topic
from runner.kits.user.reader import (
    CODE_UNDERSCORE,
    TITLE_MARK,
    FieldReader,
    nothing_fits_pattern,
    readable,
)

__all__ = [
    "ConfirmKind",
    "NamedProduct",
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
    unclear: tuple[str, ...] = ()
    """Product names put forward that fit several products (the shopper asks which one)."""


# -- segments and questions ------------------------------------------------------------------

_FIELDS = FieldReader(ASKING)


def segments(text: str) -> list[tuple[str, bool]]:
    """The message's sentences and list items, each with whether it is a question."""
    return _FIELDS.segments(text)


def is_question(sentence: str) -> bool:
    """Whether one sentence asks something (a mark, a question opening, or an indirect request)."""
    return all(asks for _s, asks in _FIELDS.segments(sentence)) and bool(sentence.strip())


def topics_asked(text: str) -> tuple[Topic, ...]:
    """The topics one message asks about, in order (products should be blanked first); as
    `ShopperReader.read` hears them, so that the audit and the shopper agree on what was asked."""
    usual = _usual_forms(text)
    asked = _topics(_FIELDS.read_fields(usual))
    return asked + tuple(t for t in _topics(_pointed_back(usual)) if t not in asked)


_BLANK_RUN = re.compile(r"\n\s*\n\s*\n(?:\s*\n)*")


def _usual_forms(text: str) -> str:
    """The message with its general-English requests in the forms the kit reads
    (`vocabulary.REQUEST_FORMS`); a decimal point is no sentence mark."""
    # a run of blank lines is one paragraph break (each line start would otherwise restart every
    # form's leading run: quadratic on a message of bare newlines)
    text = _DECIMAL_POINT.sub("\u00b7", _BLANK_RUN.sub("\n\n", text))
    for pattern, replacement in REQUEST_FORMS:
        text = pattern.sub(replacement, text)
    return text


_TOPIC_OF: dict[str, Topic] = {topic: topic for topic in TOPICS}


def _topics(fields: tuple[str, ...]) -> tuple[Topic, ...]:
    return tuple(_TOPIC_OF[f] for f in fields if f in _TOPIC_OF)


# -- confirm requests and saying nothing fits --------------------------------------------

_CONFIRM_ORDER = re.compile(
    r"(?im)\b(?:(?:place|put through|submit|finali[sz]e|complete|go ahead with|proceed with|"
    r"confirm|process|make|send|hit|fire|put|pop|lock|seal|pay for) (?:off |in |through )?(?:the |"
    r"your |this |that |an |my )?(?:order|purchase|checkout)|check ?out|"
    r"order (?:it|them|this|these|that|those|everything|all|now)|"
    r"(?:shall|should|can|may) i (?:submit|finali[sz]e)(?: (?:it|this|that|the basket|everything))?"
    r"(?=\W*$)|"
    r"(?:shall|should|can|may) i (?:go ahead and |now )?(?:order|buy|purchase|place)|"
    r"(?:ready|happy|okay|ok|good) (?:for me )?to (?:order|check ?out|place|buy|go ahead)|"
    r"want me to (?:go ahead and )?(?:order|place|buy|purchase|check ?out|proceed|finali[sz]e)|"
    r"(?:you'?d like|you want) me to (?:order|buy|purchase)|(?:you'?d like) to (?:order|buy|purchase)|"
    r"go ahead and (?:order|place|buy|purchase)|confirm (?:the|your|this) basket|"
    r"ring (?:it|them|this|these|that) (?:up|through)|^\W*order(?=\W*$)|"
    r"(?:hit|press|click|tap|push|smash) (?:the )?(?:order|buy(?: now)?|check ?out|confirm|place order|"
    r"pay(?: now)?|submit|purchase)|"
    r"^\W*(?:place|submit|send) (?:it|them|this|that|everything)(?=\W*$)|"
    r"(?:i'?ll|i will|i'?m going to|let me) (?:go ahead and )?(?:order|buy|purchase|check out)|"  # "Basket: A x1. Order?"
    r"(?:order|buy|purchase) (?:it|them|this|these) (?:for you|now))\b"
)
_CONFIRM_RETURN = re.compile(
    r"(?i)\b(?:(?:process|proceed with|go ahead with|confirm|start|submit|file|issue|raise|make|"
    r"arrange|set up|log|open) (?:the |a |your |this |that |its |their )?(?:return|refund)|"
    r"send (?:it|them|this|that|these|those|(?:[\w&'%-]+ ){1,6}?)back|return\b[^?\n]{0,60}?(?:\+|&|\band\b) refund|"
    r"(?:shall|should|can|may) i (?:go ahead and |now )?(?:return|refund)|"
    r"(?:ok|okay|alright|all right|happy|ready|good|fine)(?: for me)? to (?:return|refund|send (?:it|"
    r"them|this|that) back|process (?:it|this|that|the return|the refund))|"
    r"want me to (?:go ahead and )?(?:return|refund|process)|(?:return|refund) (?:it|this|that) "
    r"(?:for you|now))\b"
)
_CONFIRM_SUBSTITUTION = re.compile(
    r"(?i)\b(?:substitu\w*|replacement|replace|instead|swap\w*|switch\w*|alternative|in its place|"
    r"in place of|in the place|subs?|exchange|trade (?:it |that |this )?for|change (?:it |that |this "
    r"|them )?(?:to|for|over to|with))\b"
)
# A bare go-ahead ("I do it?", "You accept?", "Shall I proceed?"): it asks leave for what the
# sentence before it offers to do.
_GO_AHEAD = re.compile(
    r"(?i)^\W*(?:(?:shall|should|can|may) )?i (?:do|proceed with|go ahead with|make) (?:it|that|this)"
    r"\W*$|^\W*(?:(?:do |would |will )?(?:you|u) (?:accept|agree|approve|consent|confirm)(?: (?:to )?(?:it|"
    r"that|this))?|(?:shall i )?(?:go ahead|proceed)|ok(?:ay)?(?: (?:with|for) (?:you|u|that|it))?|"
    r"agreed|deal|accept|approve|agree|alright|all right|fine(?: (?:by|with) (?:you|u))?|good|yes|"
    r"confirm|sounds? good|(?:is |it'?s |is it |it is )(?:ok(?:ay)?|good(?: for (?:you|u))?)|(?:is (?:that|this|it|everything|"
    r"all) )?(?:all )?(?:correct|right))\W*$"
)
# A request for leave that names no act of its own ("Execute?", "Could you confirm that you
# would like me to proceed?", "OK to go ahead?"): it asks leave for what the statements since
# the last question describe.
_LEAVE = re.compile(
    r"(?i)(?:\b(?:proceed|go ahead|execute|carry on|carry it out|action (?:it|this|that)|process (?:it|"
    r"this|that|them)|do (?:it|that|"
    r"this|so)|make it so|green light|go-ahead|thumbs up|"
    # leave asked as consent ("Do I have your consent?", "May I have your approval?")
    r"(?:your|ur) (?:consent|permission|approval|authori[sz]ation|blessing|say-so|sign-off|nod|"
    r"agreement)|^\W*(?:shall|should|can|may) i process)|^\W*(?:confirm|go|good to go|ok to go|"
    r"all good|all set|(?:shall|should|can|may) i|(?:do |will |would )?(?:you|u) (?:confirm|agree|"
    r"accept|approve)(?: (?:it|this|that))?))\W*$"
)
# What the statements before such a request describe, by kind, tried in order: a return or
# refund, else the order as a whole (not a product added to the basket: "I can add X to your
# basket. Want me to do that?" asks for a reaction to X).
_LEAVE_FOR: tuple[tuple[ConfirmKind, re.Pattern[str]], ...] = (
    (
        "return",
        re.compile(
            r"(?i)\b(?:return(?:s|ed|ing)?|refund(?:s|ed|ing)?|sen(?:d|t|ding) (?:it|them|this|"
            r"that )?back|money back)\b"
        ),
    ),
    ("order", re.compile(r"(?i)\b(?:order|check ?out|total)\b")),
)
# A decimal point ("€7.77") is no sentence mark: a voice-typed message keeps its run-on
# questions; a field or key named in code ("confirm_order", "return_request") is its words
# (the kit's CODE_UNDERSCORE).
_DECIMAL_POINT = re.compile(r"(?<=\d)\.(?=\d)")
_NOTHING_FITS = nothing_fits_pattern(("product", "item"))
# An offer to act ("I can give", "we could send").
_OFFERS_TO = re.compile(
    r"(?i)\b(?:(?:i|we)(?: can| could| may| might| would|'d| will|'ll) (?:give|offer|send|put|get|add|"
    r"bring|use|ship|deliver|provide)|(?:i|we) (?:propose|suggest|offer|recommend))\b"
)
# The writer's own setting aside of a product ("I have set aside X, which is not available. May I
# instead suggest Y?", "skipped X (sold out). Y instead?"): what it offers next is a suggestion
# among the finds, not a substitute for a product the shopper ordered.
_SET_ASIDE = re.compile(
    r"(?i)(?:\b(?:i|we)(?:'ve| have)? |^\W*)(?:set aside|put aside|left aside|skipped|passed over|"
    r"left out|dropped|excluded|ruled out)\b"
)
# A product said to be gone from the shelf, in the usual ways.
_GONE = re.compile(
    r"(?i)\b(?:out of stock|sold out|unavailable|not available|no longer (?:available|stocked|in "
    r"stock)|not in stock|finished|gone|none left|(?:has |have )?(?:run|ran) out|no more|"
    r"discontinued|oos|not (?:more|any ?more|longer) (?:available|in stock))\b"
)


_GOES_ON = re.compile(r"\s+(?:is|are|has|comes|costs|was)\b")
_SIZE_AFTER = re.compile(r"(?i)\W{1,3}(?:\d+\s*x\s*)?\d+(?:[.,]\d+)?\s*(?:g|kg|ml|cl|l)\b")


def _said_after_name(surface: str, name: str) -> str:
    """What a mention's words say of the product after its name, when the mention runs on into a
    pitch ("X is vegan and Nutri-Score B, 400 g": its facts, kept so that a check after them is
    read against all of them); a name with its brand or size keeps nothing."""
    at = surface.lower().find(name.lower()) if name else -1
    rest = surface[at + len(name) :] if at >= 0 else ""
    # its size said after its name ("X, 4 x 125 g, €1.89") is one of the facts the sentence states
    return rest if _GOES_ON.match(rest) or _SIZE_AFTER.match(rest) else ""


# A question that names no topic but asks whether to act on what was just said, as a preference
# ("Do you want me to leave those out?", "Is that something you'd like me to prioritise?",
# "Which group are you in?", "... - would you?").
_PREFER_VERB = (
    r"(?:prioriti[sz]e|filter|leave (?:out|\w+ out)|exclude|avoid|skip|steer clear|look (?:out )?for|"
    r"stick to|keep to|care about|matter|important|bother|focus on|include|limit (?:it|the search|"
    r"myself) to|consider|accept|settle for|be open to)"
)
_ACTS_ON_IT = re.compile(
    r"(?i)\b(?:(?:that|this|those|these|them|it)\b[^?]*\b"
    + _PREFER_VERB
    + r"|"
    + _PREFER_VERB
    + r"\b[^?]*\b(?:that|this|those|these|them|it)\b|"
    r"(?:leave|filter|cut|keep|rule) (?:those|them|these|that|it) out|"
    r"(?:which|what) (?:group|camp|side|team) (?:are|r) (?:you|u)|are (?:you|u) in|^\W*(?:would|do|"
    r"will|shall|should) (?:you|u|i)\W*$|what (?:works|suits|fits)(?: (?:best|you|u))?)"
)
# A statement about shoppers or food in general ("Some people look at ...", "Most spreads ..."):
# its figures explain a scale, they report no find.
_GENERAL = re.compile(
    r"(?i)^\W*(?:some|many|most|lots of|a lot of|plenty of|certain|people|shoppers|customers|"
    r"folks|everyone|anyone)\b"
)
# A statement that reports what the writer did or found, not what shoppers care about.
_REPORT = re.compile(r"(?i)^\W*(?:i|we|i'?ve|we'?ve|i'?m|we'?re|here|there(?:'s| is| are))\b")


def _pointed_back(text: str) -> tuple[str, ...]:
    """The topics of questions that act on what was just said ("Palm oil shows up in many
    spreads. Do you want me to leave those out?"): each asks the first topic the general
    statement before it is about (not a report of the writer's own, nor one with figures)."""
    parts = segments(text)
    found: list[str] = []
    for n, (question, asks) in enumerate(parts):
        if not asks or not _ACTS_ON_IT.search(question) or _FIELDS.read_fields(question):
            continue
        for back in (1, 2):
            if n - back < 0 or parts[n - back][1]:
                break
            statement = parts[n - back][0]
            stated = _FIELDS.fields_in(statement, described=False, strong_only=True)
            # a statement split at a dash starts where its sentence starts
            before = parts[n - back - 1][0] if n - back >= 1 else ""
            start = (
                before
                if before and not parts[n - back - 1][1] and not re.search(r"[.!?:;]$", before)
                else statement
            )
            if TITLE_MARK in statement or (
                stated
                and (
                    _REPORT.match(statement)
                    or (re.search(r"\d", statement) and not _GENERAL.match(start))
                )
            ):
                break
            if stated:
                found.append(min(stated)[1])
                break
    return tuple(found)


# A question about the product itself, not the shopper ("Where is it from?"), and a statement
# about it that may answer one ("It is from Italy.").
_ABOUT_SHOPPER = re.compile(r"(?i)\b(?:you|u|your|ur|yours|we|us|our|i|me|my)\b")
_ABOUT_PRODUCT = re.compile(
    r"(?i)^\W*(?:(?:yes|yep|yeah|no|nope|sure)\b\W*)?(?:it|they|this|that|these|those|the \w+|"
    + TITLE_MARK
    + r")(?:'s|'re)?\b"
)
# What flags the last sentence of a pitch as a warning: a shortcoming, a contrast, a warning word,
# an ingredient or allergen named.
_FLAGGED = re.compile(
    r"(?i)(?:" + SHORTCOMING + r"|\b(?:but|however|though|although|only|not|unfortunately|sadly)\b|"
    r"n't\b|heads[- ]up|warn|caution|careful|point out|be aware|\bnote\b|mention|\bflag|\bfyi\b|"
    r"allerg|ingredients?|traces?)"
)


_WORD = re.compile(r"[a-z][a-z'-]*")
_FUNCTION_WORDS = frozenset(
    [
        "what",
        "which",
        "where",
        "how",
        "who",
        "when",
        "why",
        "is",
        "are",
        "was",
        "were",
        "do",
        "does",
        "did",
        "it",
        "its",
        "it's",
        "they",
        "them",
        "this",
        "that",
        "these",
        "those",
        "the",
        "a",
        "an",
        "any",
        "of",
        "to",
        "in",
        "on",
        "for",
        "by",
        "with",
        "be",
        "there",
    ]
)


def _answers(question: str, statement: str, topics: set[str]) -> bool:
    """Does this statement answer the question about the product just asked ("Where is it
    from? It is from Italy."): it speaks of the product, and states the question's topic or
    repeats every word the question asks with?"""
    if _ABOUT_SHOPPER.search(question) or not _ABOUT_PRODUCT.match(statement):
        return False
    if topics & set(_FIELDS.statement_fields(statement)):
        return True
    asked = set(_WORD.findall(question.lower())) - _FUNCTION_WORDS
    return bool(asked) and asked <= set(_WORD.findall(statement.lower()))


def _settled_questions(text: str, *, proposes: bool) -> str:
    """The message without the questions that ask the shopper nothing, by their place:

    - a question about the product that the next sentence answers at once ("Where is it from?
      It is from Italy.", "Is it organic? Yes, certified."): the writer tells, it does not ask;
    - in a message that puts a product forward, a general check naming no topic after a pitch of
      two or more sentences that state facts on two or more topics, the last flagging no
      shortcoming ("Try X. It's vegan and palm-oil free. It costs €2.45. Does that sound
      good?"): a reaction to the pitch as a whole, as after one sentence of several facts.
    """
    parts = segments(text)
    for n, (question, asks) in enumerate(parts):
        if not asks:
            continue
        own = {f for _p, f in _FIELDS.fields_in(question, described=False, strong_only=True)}
        after, after_asks = parts[n + 1] if n + 1 < len(parts) else ("", True)
        if own and not after_asks and _answers(question, after, own):
            text = text.replace(question, "", 1)
            continue
        if not proposes or own or len(question.split()) > 8:
            continue
        pitch: list[str] = []
        for back in range(n - 1, -1, -1):
            if parts[back][1]:
                break
            pitch.insert(0, parts[back][0])
        if (
            len(pitch) >= 2
            and any(TITLE_MARK in sentence for sentence in pitch)
            and not _FLAGGED.search(pitch[-1])
            and len({f for sentence in pitch for f in _FIELDS.statement_fields(sentence)}) >= 2
        ):
            text = text.replace(question, "", 1)
    return text


def _asks_leave(question: str, proposes: bool) -> bool:
    """Does this question ask leave to order, return or substitute (in any of the forms
    `ShopperReader._confirm` reads), or give a bare go-ahead?"""
    return bool(
        _CONFIRM_RETURN.search(question)
        or _CONFIRM_ORDER.search(question)
        or (proposes and _CONFIRM_SUBSTITUTION.search(question))
        or _GO_AHEAD.match(question)
        or _LEAVE.search(question)
    )


def _without_leave_requests(text: str, proposes: bool) -> str:
    """The message without the questions that only ask leave for an order, a return or a
    substitution: such a question asks for a yes to the act, not about the facts of the recap
    before it ("Return: X, 1, money back €1.95. OK to return?" asks no budget). A question whose
    own words ask a topic ("Shall I order two, or more?") stays."""
    for question, asks in segments(text):
        if (
            asks
            and _asks_leave(question, proposes)
            and not _FIELDS.read_fields(_usual_forms(question))
        ):
            text = text.replace(question, "", 1)
    return text


class ShopperReader:
    """Reads agent messages for one catalog (its product names and ids)."""

    def __init__(self, products: Iterable[Any]) -> None:
        self.resolver = Resolver(products)

    def read(self, text: str) -> Reading:
        """The acts of one agent message."""
        # What is put forward, named and unclear is the scorer's own decision
        # (domains.grocery.mentions), taken whole: the shopper never weighs it a second way.
        text = readable(text)
        resolved = self.resolver.resolve(text)
        proposed = resolved.proposed
        blanked = text
        for mention in sorted(resolved.mentions, key=lambda m: m.start, reverse=True):
            said = _said_after_name(text[mention.start : mention.end], mention.name)
            blanked = blanked[: mention.start] + TITLE_MARK + said + blanked[mention.end :]
        confirm = self._confirm(
            text, bool(proposed), replaces=bool(set(resolved.named) - set(proposed))
        )
        if confirm:
            blanked = _without_leave_requests(blanked, bool(proposed))
        usual = _settled_questions(_usual_forms(blanked), proposes=bool(proposed))
        # In a message that puts a product forward, a request for a reaction asks no topic.
        asked = _topics(_FIELDS.read_fields(usual, reacting=bool(proposed)))
        if not proposed:
            asked += tuple(t for t in _topics(_pointed_back(usual)) if t not in asked)
        return Reading(
            asked=asked,
            proposed=proposed,
            named=resolved.named,
            unclear=resolved.unclear,
            confirm=confirm,
            nothing_fits=bool(_NOTHING_FITS.search(text)) and not proposed,
        )

    @staticmethod
    def _confirm(text: str, proposes: bool, *, replaces: bool = False) -> ConfirmKind | None:
        """The confirm request of a message; `replaces`: it names a product it does not put
        forward (one a substitute may stand in for)."""
        parts = segments(_usual_forms(CODE_UNDERSCORE.sub(" ", text)))
        questions = [s for s, asks in parts if asks]
        questions += [
            parts[n - 1][0]
            for n, (s, asks) in enumerate(parts)
            if asks and n and not parts[n - 1][1] and _GO_AHEAD.match(s)
        ]
        joined = "\n".join(questions)
        if _CONFIRM_RETURN.search(joined):
            return "return"
        if _CONFIRM_ORDER.search(joined):
            return "order"
        if proposes and _CONFIRM_SUBSTITUTION.search(joined) and not _SET_ASIDE.search(text):
            return "substitution"
        if (
            proposes
            and replaces
            and _GONE.search(text)
            and any(
                asks and n and _GO_AHEAD.match(s) and _OFFERS_TO.search(parts[n - 1][0])
                for n, (s, asks) in enumerate(parts)
            )
        ):
            # "A is finished. I can give B, same size. Is ok?": a bare go-ahead after an offer to
            # give another product for one said to be gone asks leave to substitute ("A has sold
            # out, so I've picked B. Okay?" reports a pick: the go-ahead is a reaction to it).
            return "substitution"
        for n, (s, asks) in enumerate(parts):
            if not (asks and _LEAVE.search(s)):
                continue
            start = n
            while start and not parts[start - 1][1]:
                start -= 1
            said = "\n".join(part for part, _asks in parts[start:n])
            for kind, words in _LEAVE_FOR:
                if words.search(said):
                    return kind
        return None
