"""The account shopper's reader: one agent message in, what it does at the account desk out.

The only part of the account shopper that interprets words; its decision engine sees only the
`AccountReading`. Rule-based, one reader per account (it finds the account's order ids and
streets by name, as the shopping reader finds products). The rules are over the desk's own
vocabulary, not over phrasings:
- the words are first made plain: markdown marks dropped, texting forms ("ur", "pls", "wich")
  written out, and a misspelt field word ("emial", "adres", "refnd") read as the field word it
  is one or two letters from;
- the message is cut into sentences and list lines; a sentence is a *request* when it is a
  question or asks for something ("please provide", "could you", "I need", "tell me", ...), and a
  request that ends in a colon takes the list under it. Only requests ask: a field named in a
  statement ("the refund goes to your card") is not asked;
- a request is cut into its parts (commas, "and", "or", "+", dashes), and each part asks the
  topic whose field it names first: who the shopper is (email, name, zip - unless the request is
  about an address), which order (an order id, number or reference; "which order"; a choice
  between listed order ids), which items (item, product, size, variant, quantity), which address
  (street, city, a delivery address, where to send it), the reason (why, reason, cause), the
  payment (card, PayPal, gift card, payment method, refund, where the money goes). "Which of
  these?" asks for what the message listed just before (order ids, or lines with quantities);
- it asks for a yes when a request asks to go ahead with something ("shall I", "go ahead",
  "proceed", "is that right?", "OK?", "reply yes", ...); the fields such a request names are
  stated for confirmation, not asked;
- it reports a result when a statement says a change was made ("has been cancelled", "I've
  updated", "Done", "now ships to") and nothing in that clause makes it future, conditional or
  negated ("will be refunded", "once cancelled", "nothing is changed until ...");
- it offers a transfer when it hands the shopper to a person (a human, colleague, supervisor,
  specialist or someone from the team), or says one can look into it;
- it refuses on a policy ground when it says a thing cannot be done (cannot, can't, can no
  longer, not possible, unable, only) and names the policy's reason (`PolicyReason`): the order
  is processed (on its way), past the 30-day window, its items already changed once, a refund
  only to the payment that paid the order, or an exchange only for the same product (a variant)
  with the return offered instead. Which reason matters is the engine's to say;
- the order ids and streets it names, and every amount of money it writes (`12.50`, also each
  shorter amount inside a longer one, as "the words contain the sum" has always been read).
The engine decides what each of these is worth; the reader decides nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import Literal, get_args

__all__ = [
    "ACCOUNT_TOPICS",
    "POLICY_REASONS",
    "AccountReader",
    "AccountReading",
    "AccountTopic",
    "PolicyReason",
    "amounts_in",
    "refusals",
]

AccountTopic = Literal["who", "order", "items", "address", "reason", "payment"]
ACCOUNT_TOPICS: tuple[AccountTopic, ...] = get_args(AccountTopic)
# The policy grounds a refusal can name (the traps of `domains.grocery.accounts`).
PolicyReason = Literal[
    "processed", "past_window", "modified_once", "refund_elsewhere", "other_product"
]
POLICY_REASONS: tuple[PolicyReason, ...] = get_args(PolicyReason)

# Texting forms written out (whole words only).
_TEXTING = {
    "u": "you", "ur": "your", "r": "are", "y": "why", "n": "and", "w": "with", "pls": "please",
    "plz": "please", "wich": "which", "wat": "what", "whre": "where", "shud": "should",
    "cud": "could", "cn": "can", "teh": "the", "k": "ok", "np": "no problem", "dun": "done",
    "whats": "what's", "thats": "that's", "cant": "can't", "ill": "i'll", "im": "i'm",
    "ive": "i've", "wanna": "want to", "gonna": "going to", "thx": "thanks",
}  # fmt: skip
# The field words of the desk: a word one letter off one of these (two, for long words) is it.
_FIELD_WORDS = (
    "email", "order", "orders", "ordered", "address", "street", "reason", "refund", "refunded",
    "payment", "method", "product", "products", "items", "quantity", "variant", "delivery",
    "shipping", "postcode", "cancel", "cancellation", "cancelled", "canceled", "account",
    "confirm", "proceed", "transfer", "updated", "changed", "different", "instead", "size",
    "city",
)  # fmt: skip
_WORD = re.compile(r"[a-z][a-z'-]*")


def _near(word: str, target: str) -> bool:
    """Whether `word` is `target` with one letter added, dropped, changed or two swapped (or,
    shorter than a target of seven letters or more, two such slips); same first letter."""
    if word[0] != target[0] or abs(len(word) - len(target)) > 2:
        return False
    if len(target) <= 4 and len(word) <= len(target):
        return False  # a short word is only read through an added letter ("sizee")
    limit = 2 if len(target) >= 7 and 5 <= len(word) < len(target) else 1
    # Damerau-Levenshtein (optimal string alignment), bounded by `limit`.
    prev2: list[int] = []
    prev = list(range(len(target) + 1))
    for i, a in enumerate(word, 1):
        row = [i] + [0] * len(target)
        for j, b in enumerate(target, 1):
            row[j] = min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a != b))
            if i > 1 and j > 1 and a == target[j - 2] and word[i - 2] == b:
                row[j] = min(row[j], prev2[j - 2] + 1)
        if min(row) > limit:
            return False
        prev2, prev = prev, row
    return prev[-1] <= limit


@cache
def _plain_word(word: str) -> str:
    if word in _TEXTING:
        return _TEXTING[word]
    if len(word) < 4 or word in _FIELD_WORDS:
        return word
    return next((t for t in _FIELD_WORDS if _near(word, t)), word)


def plain(text: str) -> str:
    """The message in plain lower case: markdown marks dropped, texting forms written out,
    misspelt field words mended; lines kept."""
    text = text.lower().replace("’", "'")
    text = re.sub(r"\*\*|__|`|^#+\s*|^\s*\|?[-:| ]+\|\s*$", "", text, flags=re.M)
    text = re.sub(r"\|", " , ", text)
    return _WORD.sub(lambda m: _plain_word(m.group(0)), text)


_ZIP = r"\b(?:zip|post ?code|postal code)\b"
_ORDER_ID = r"\bo(?:rd)?_[0-9a-z_]+"
_TOPICS: dict[AccountTopic, re.Pattern[str]] = {
    "who": re.compile(
        r"(?<!confirmation )(?<!order )\b(?:e-?mail|mail address)\b|\bname\b|\bwho you are\b"
        r"|\bidentity\b|\bverify (?:your|the) account\b"
        r"|\bwho'?s the account\b|\baccount (?:is )?under\b|" + _ZIP
    ),
    "order": re.compile(
        r"\b(?:which|what) (?:one )?(?:of (?:your|the|these) )?orders?\b"
        r"|\borders? ?(?:id|number|no\b|ref|reference|code|#)|\b(?:id|number|ref(?:erence)?) of "
        r"(?:the|your|this) order\b|\bthe order in question\b|^\W*order\W*$"
    ),
    "items": re.compile(
        r"\b(?:items?|products?|sizes?|variants?|quantit(?:y|ies)|how many)\b"
        r"|\b(?:which|what) things\b|\b(?:swap|exchange|replace)\b[^?]*\bfor\?|\blike instead\b"
        r"|\b(?:which|what)(?: \w+)? (?:would you like|do you want|you want|you'd like|to) (?:to )?"
        r"(?:return|exchange|swap|send back|give back|replace)\b"
    ),
    "address": re.compile(
        r"(?<!mail )\baddress(?:es)?\b(?! change| update)|\b(?:street|city|town)\b"
        r"|\bwhere\b(?![^?]*\b(?:refund|money|payment|charge))[^?]*\b(?:send|deliver|ship|go)"
    ),
    "reason": re.compile(r"\b(?:reason|why|cause|prompting|what made you)\b"),
    "payment": re.compile(r"\b(?:payment|pay|paypal|card|refund|refunded|money|charge|method)\b"),
}
_REQUEST = re.compile(
    r"\b(?:please (?:\w+ )?(?:provide|send|tell|give|share|write|reply|confirm|let|say|pick"
    r"|choose|select|enter|type|specify|include|check|verify)|kindly|(?:could|can|would|will) you"
    r"|(?:i|we)(?:'ll| will)? (?:just )?need|need your|tell me|let me know|send me|give me"
    r"|say me|may i (?:ask|have|get)"
    r"|mind telling|reply with|provide|providing|share)\b|\bplease\W*$"
)
_YES = re.compile(
    r"\b(?:shall i|should i|go ahead|go-ahead|proceed|is (?:that|this|it) (?:correct|right|ok"
    r"|okay|alright|fine)|sounds? good|(?:you|u) agree|that'?s ok|want me to|like me to "
    r"(?:go|proceed|do|make|submit|cancel|update|change|apply|put|move|swap|exchange|charge|"
    r"refund|process)|yes or no|(?:reply|answer|confirm)(?: me)?(?: with)? '?yes\b|submit this"
    r"|i do it|can i do|ok to|okay to)\b|\b(?:ok|okay|confirm|correct|right)\W*\?|\byes ?/ ?no\b"
)
_WH_QUESTION = re.compile(
    r"^\W*(?:(?:and|so|now|ok|okay|then|also|great|thanks|sure)\W+)*"
    r"(?:which|what|what's|where|why|how|who|when)\b"
)
_NOT_DONE = re.compile(
    r"\b(?:will|would|'ll|shall|can|could|can't|cannot|once|until|if|before|going to|not|n't"
    r"|nothing)\b"
)
_DONE_VERB = (
    r"(?:cancell?ed|canceled|updated|changed|submitted|processed|registered|requested|filed"
    r"|moved|switched|swapped|charged|refunded|issued|sent|completed?|done|sorted|paid|set)"
)
_REPORTS = re.compile(
    r"\b(?:has|have|was|were|is|are|'s)(?: been)?(?: now| already| just| successfully)* "
    + _DONE_VERB
    + r"\b|\bi(?:'ve| have)?(?: just| now| already)* (?:cancell?ed|canceled|updated|changed|did"
    r"|made|submitted|processed|registered|requested|filed|moved|switched|swapped|issued|sent"
    r"|put)\b|^\W*(?:done|all done|all set|cancell?ed|canceled|updated|complete|sorted"
    r"|finished)\b|\b(?:address|order|payment|method|exchange|return|refund|cancellation"
    r"|change|o(?:rd)?_[0-9a-z_]+) " + _DONE_VERB + r"\b|\bnow (?:ships|goes|going|is)\b"
    r"|\b(?:went|gone|go) through\b|\btaken care of\b|\bon (?:its|the) way\b|\bis processing\b"
    r"|\breturn requested\b"
)
_PERSON = (
    r"(?:human|person|colleague|supervisor|specialist|manager|representative|someone from|"
    r"member of our|our (?:support|customer care|care) team)"
)
_TRANSFER = re.compile(
    r"\btransfer(?:ring)? you\b|\bput you through\b|\b(?:hand|pass|connect|send|get|bring|"
    r"escalat|forward|transfer)\w*\b[^.?!]*\b" + _PERSON + r"|\b" + _PERSON + r"\b[^.?!]*\b(?:take"
    r" over|look into)\b"
)
# A refusal: a thing said not to be possible; and the policy ground it names.
_REFUSAL = re.compile(
    r"\b(?:cannot|can ?not|can't|can no longer|couldn't|could not|not possible|unable|only)\b"
)
_GROUNDS: dict[PolicyReason, re.Pattern[str]] = {
    "processed": re.compile(r"\bprocessed\b|\bon its way\b"),
    "past_window": re.compile(r"\b30[- ]?days?\b|\bwindow\b"),
    # changed once already ("already delivered" is another ground)
    "modified_once": re.compile(r"\bonce\b|\balready (?:been )?(?:changed|modified|edited)\b"),
    "refund_elsewhere": re.compile(r"\boriginal\b|\bpaid (?:the|that|this) order\b"),
    # not a variant, and the return offered instead
    "other_product": re.compile(r"(?=.*\b(?:same product|variant))(?=.*\breturn)", re.S),
}
_AMOUNT = re.compile(r"\d+\.\d{2}")
_COMMA_AMOUNT = re.compile(r"(?:€|eur\s?)\s?(\d+),(\d{2})\b|\b(\d+),(\d{2})\s?(?:€|eur)", re.I)
_LIST_LINE = re.compile(r"^\s*(?:[-*•]|\d+[.)]|[a-z][.)]\s)")
# What a message lists, for "which of these?" to point back to.
_LISTED: dict[AccountTopic, str] = {
    "order": _ORDER_ID,
    "items": r"[×x] ?\d+\b|\b\d+ ?[×x]\b",
    "payment": r"\b(?:card ending \d+|gift card|paypal)\b",
}
_THESE = re.compile(r"\bwhich (?:one|of (?:them|these|those))\b|\bwhich is it\b")


@dataclass(frozen=True)
class AccountReading:
    """What one agent message does at the account desk, as the shopper understands it."""

    asked: tuple[AccountTopic, ...]
    """Topics the message asks the shopper about, in the order it asks them."""
    orders: tuple[str, ...] = ()
    """The account's order ids the message names."""
    streets: tuple[str, ...] = ()
    """The account's streets (current or requested) the message names."""
    amounts: frozenset[str] = frozenset()
    """Every sum of money written in the message, as `12.50`."""
    asks_yes: bool = False
    """The message asks the shopper for a yes (to a change, stated in full or not)."""
    reports: bool = False
    """The message reports a result (a change made, a request filed)."""
    transfer: bool = False
    """The message offers or announces a transfer to a person."""
    refuses: frozenset[PolicyReason] = frozenset()
    """The policy grounds the message names in turning something down."""

    @property
    def chats(self) -> bool:
        """Nothing but talk: no question, no yes asked for, no result, no transfer."""
        return not (self.asked or self.asks_yes or self.reports or self.transfer)


def amounts_in(text: str) -> frozenset[str]:
    """Every sum written as digits with two decimals ('12.50', also '€12,50'), and each shorter
    one inside it ('112.50' holds '12.50' and '2.50')."""
    out: set[str] = set()
    wholes = [m.group(0) for m in _AMOUNT.finditer(text)]
    for m in _COMMA_AMOUNT.finditer(text):
        units, cents = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        wholes.append(f"{units}.{cents}")
    for whole in wholes:
        out.update(whole[i:] for i in range(whole.index(".")))
    return frozenset(out)


@dataclass(frozen=True)
class _Sentence:
    text: str
    request: bool
    start: int  # where it starts in the message: topics are ordered by it


def _ends(text: str, mark: str) -> bool:
    """Whether `text` ends with `mark`, past closing marks and emoji."""
    return re.sub(r"[^\w?.!:]+$", "", text).endswith(mark)


def _sentences(text: str) -> list[_Sentence]:
    """The message's sentences and list lines; a list under a request ending in ':' is part of
    that request."""
    out: list[_Sentence] = []
    under_request = False
    position = 0
    for line in text.split("\n"):
        listed = bool(_LIST_LINE.match(line))
        if not line.strip():
            position += 1
            continue
        if not listed and under_request and out and _ends(out[-1].text, ":"):
            listed = True  # a block (a code block, an address form) under "in this format:"
        for part in re.split(r"(?<=[.!?])\s+", line):
            if not part.strip():
                continue
            request = _ends(part, "?") or bool(_REQUEST.search(part))
            if listed and under_request:
                request = True
            out.append(_Sentence(part, request, position + line.find(part)))
            if request and _ends(part, ":"):
                under_request = True
            elif not listed:
                under_request = False
        position += len(line) + 1
    return out


def _parts(sentence: str) -> list[tuple[int, str]]:
    """A request's parts, each with its offset: cut at commas, semicolons, dashes, '+', and the
    words 'and', 'or', 'also', 'then'."""
    out = []
    offset = 0
    for piece in re.split(r"(,|;|\s[-–—]\s|\+|\band\b|\bor\b|\balso\b|\bthen\b)", sentence):
        if piece and not re.fullmatch(r",|;|\s[-–—]\s|\+|and|or|also|then", piece):
            out.append((offset, re.sub(r"\([^)]*\)", "", piece)))
        offset += len(piece)
    return out


def _listed_topic(before: str) -> AccountTopic | None:
    """What "which of these?" points back to: whichever was listed last before it, order ids,
    lines with quantities or payment methods (a refund "to your card or to a gift card"), else
    the last field word named."""
    last: dict[AccountTopic, int] = {}
    for topic, rx in _LISTED.items():
        found = [m.start() for m in re.finditer(rx, before)]
        if found:
            last[topic] = found[-1]
    if last.keys() & {"order", "items"}:
        return max(last, key=last.__getitem__)
    nouns = [
        (m.start(), m.group(0)) for m in re.finditer(r"\b(?:orders?|items?|products?)\b", before)
    ]
    if nouns:
        return "order" if nouns[-1][1].startswith("order") else "items"
    return None


def topics_in(text: str) -> tuple[AccountTopic, ...]:
    """The account topics one message asks about, in the order the message asks them."""
    text = plain(text)
    found: dict[AccountTopic, int] = {}
    for sentence in _sentences(text):
        if not sentence.request or _asks_yes(sentence):
            continue
        about_address = bool(_TOPICS["address"].search(sentence.text))
        asked = []
        for offset, part in _parts(sentence.text):
            hits = [
                (m.start(), topic)
                for topic, rx in _TOPICS.items()
                if (m := rx.search(part)) is not None
                # a zip code alone, in a request for an address, is the address's
                and not (topic == "who" and about_address and re.fullmatch(_ZIP, m.group(0)))
            ]
            if hits:
                asked.append((offset + min(hits)[0], min(hits)[1]))
        choice = re.search(_ORDER_ID + r"\W+or\W+" + _ORDER_ID, sentence.text)
        if choice and _ends(sentence.text, "?"):
            asked.append((choice.start(), "order"))
        if not asked and (these := _THESE.search(sentence.text)):
            topic = _listed_topic(text[: sentence.start] + sentence.text[: these.start()])
            if topic is not None:
                asked.append((these.start(), topic))
        for at, topic in asked:
            found.setdefault(topic, sentence.start + at)
    return tuple(sorted(found, key=found.__getitem__))


def _asks_yes(sentence: _Sentence) -> bool:
    """A request to go ahead with something: a yes-asking phrase not inside a wh-question ("which
    card should I use?" asks for a card)."""
    if not sentence.request:
        return False
    parts = _parts(sentence.text)
    for match in _YES.finditer(sentence.text):
        part = next((p for at, p in reversed(parts) if at <= match.start()), sentence.text)
        if not _WH_QUESTION.search(part) and not _WH_QUESTION.search(sentence.text):
            return True
    return False


def asks_yes(text: str) -> bool:
    """Whether the message asks for a yes: a request to go ahead with something."""
    return any(_asks_yes(s) for s in _sentences(plain(text)))


def reports(text: str) -> bool:
    """Whether a statement of the message says a change was made (in a clause that is not
    future, conditional or negated)."""
    for sentence in _sentences(plain(text)):
        if _ends(sentence.text, "?") and not re.search(r"[.!:]", sentence.text):
            continue
        for clause in re.split(r"[,;:]|\s[-–—]\s|\band\b|\bso\b|\bbut\b", sentence.text):
            if _REPORTS.search(clause) and not _NOT_DONE.search(clause):
                return True
    return False


def refusals(text: str) -> frozenset[PolicyReason]:
    """The policy grounds a message names while saying something cannot be done."""
    text = plain(text)
    if not _REFUSAL.search(text):
        return frozenset()
    return frozenset(reason for reason, rx in _GROUNDS.items() if rx.search(text))


class AccountReader:
    """Reads agent messages for one account: its order ids and streets are what it can name."""

    def __init__(self, orders: Iterable[str] = (), streets: Iterable[str] = ()) -> None:
        self.orders = tuple(dict.fromkeys(orders))
        self.streets = tuple(dict.fromkeys(streets))

    def read(self, text: str) -> AccountReading:
        """The acts of one agent message."""
        return AccountReading(
            asked=topics_in(text),
            orders=self.named_orders(text),
            streets=tuple(s for s in self.streets if s in text),
            amounts=amounts_in(text),
            asks_yes=asks_yes(text),
            reports=reports(text),
            transfer=bool(_TRANSFER.search(plain(text))),
            refuses=refusals(text),
        )

    def named_orders(self, text: str) -> tuple[str, ...]:
        """The account's order ids the text names."""
        return tuple(o for o in self.orders if o in text)
