"""Which products an agent message puts forward: each mention resolved to one product by its name, brand, size and id, and put forward only on positive evidence; one rule for the scorer and the simulated shopper.

A mention is a product name said in the message (any case, any punctuation between its words,
one slip forgiven: a mistyped word, a slip inside a hyphenated word, two words run together, a
plural s; a name of three words or more also in another word order), a shortened name (the name without its last word and "one" or
"thing": "the Classic Beef one"; a brand and the kind it makes: "Greenpath hummus") or a product
id written out. Shelves hold the same name under several brands and sizes, so a name alone fits every
product that bears it; the brand, the size (compared by value: "500 g", "500g", "0.5 kg") and the
id said beside it (nearest on each side, within its clause) narrow it down. A mention that still
fits several products names none of them.

**A product is put forward only on positive evidence.** A resolved mention counts as a proposal
when something in the message proposes, offers or presents it, and nothing rules it out; a
product that is only named (a fact about it, where it is made, what it comes in) is named, not
put forward. The evidence, each kind documented vocabulary in `domains.grocery.mention_cues`
(`PROPOSING`, `OFFERING`, `FAVOURABLE`, `RELIEF`): a proposal or offer cue in its clause, before
it or after it in its own predicate ("I'd recommend A", "A fits your budget", "Shall I add A?");
a favourable verdict in its predicate ("A is in stock", "A is nut-free", "A is not too sweet");
a label, heading or record over its line or list ("Options:", "## Top pick", "Your basket:",
"action: propose"), a tick on its line, a line that gives its count or its size and price (a
basket or a product card); a closing offer or a question about it that points back ("Shall I
add it?" to the last product, "Want those two?" and "Shall I place the order?" to the run of
lines before); a product named after one the message sets aside ("A is sold out; B is here",
"A → B", "sorry, I meant B"), or set against one it sets aside ("B resembles A", "B, not A");
one branch of an alternative or a parallel ("A or, if you prefer, B", "A for breakfast and B
for coffee") shares what reaches the other; "the former" or "the latter" picked by a proposal
("I recommend the former") reaches the product it points to. **Proposals without a cue word**
are read from layout: a product set off alone on its own line (nothing but markup beside it)
under a line that ends with a colon ("I found one that fits:\n\n> **A**") is presented as the
answer, and "Pick one." after a list offers its lines. A name that fits several products is unclear (the
shopper asks which one) only when it is put forward. Which mention a cue reaches is decided by
the same scopes as ruling out (clause, list, heading, next sentence, "it").

**Ruling out stays on top.** A mention the message rules out ("X is out of stock", "X contains
nuts, so I skipped it", "not X", "instead of X", "your usual X") is never put forward, whatever
else reaches it ("I'd recommend avoiding X"). The cue words are documented vocabulary too; which
mention a cue reaches is decided here by scope: the mention's clause up to where a new subject
takes over, a list label, a list sharing what is said of all its members, the next sentence
when the mention ends its own, "the former / the latter", a correction ("sorry, I meant B"), two
products set side by side and one then chosen; a negated cue rules nothing out, nor does a
shortcoming put as a question ("A isn't organic, does that matter?").

**The message's act settles conflicting evidence.** A fresh author's rule-outs often carry
positive evidence of their own (a verdict such as "in stock", a line in a recap, a label), so
which side wins is read from what the whole message asks the shopper to do, not from which cue
stands nearer a name (`_settle_by_act`). A message that closes by offering one product ("Shall
I add it?", "Add?", "Want the winner?", "Add B?") puts that product forward, and any other
product it names only when a proposal of its own reaches it in its own clause ("I'd also
suggest A"): a basket recap beside the new item, the product replaced, a comparison's loser, an
exchange's returned item are named. The act is read for each kind of message:

- proposing one after others: a closing statement that chooses one product, by a proposal said
  before it ("Accordingly, I suggest B.", "Better is B.", "My money's on B.") or by naming it
  alone after a comparison ("A vs B? Honestly, B."), puts the winner forward and the others
  only by proposals of their own; a closing that adds one more ("I'd also suggest B") or points
  back ("It goes well with B") is no such choice;
- offering one by its place: "Add the second?" points to the second product named;
- confirming a basket or order: a basket stated with its total confirms every line said before
  the total ("basket = A (1), B (2), total 11.30. place it?");
- reporting: a message laid out as a record of a return, refund or cancellation that asks and
  offers nothing, a return or refund told as done that closes by offering other help ("Is there
  anything else?") or told in prose of one list of products before any other ("I have
  registered the return of A and B.") in a message that asks nothing, and a search that closes
  by offering to search on ("I can keep looking") put forward only what a proposal of their
  own reaches.

Structure also bounds a rule-out: a remark in brackets that names a product of its own ("A\n\n(I
left out B: it has egg.)") is about that product, not the one before it; a semicolon inside
brackets parts a product's attributes ("A (Brand; 150g)"), not two clauses.

So a way of ruling out the vocabulary has never seen leaves a product named, not proposed,
unless the same clause also proposes it: an unseen rule-out costs a proposal missed, not a
product the agent excluded counted as offered. In doubt a product is named, not put forward.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any

from domains.grocery import mention_cues as cues
from runner.core.memo import per_object
from runner.core.transcript import MessageEvent, Transcript
from runner.kits.user.reader import asks_reaction, readable

__all__ = [
    "ID_PATTERN",
    "AgentMessage",
    "Mention",
    "Resolution",
    "Resolver",
    "agent_messages",
    "mentions",
    "resolver",
]

ID_PATTERN = re.compile(r"(?<!\w)off_\d{8,14}(?!\w)")
_TOKEN = re.compile(r"[0-9a-zà-ÿ]+%?")
# Clause edges: a mention's brand and size are looked for inside its own clause only.
# A full stop after an abbreviation ("ref.", "No. 5") ends no sentence.
_NOT_AN_END = (
    "".join(
        rf"(?<!\b{a}\.)"
        for a in ("ref", "Ref", "REF", "vs", "approx", "incl", "prev", "Prev", "PREV")
    )
    + r"(?<!\be\.g\.)(?<!\bi\.e\.)(?!(?<=\b[Nn][Oo]\.)\s*\d)"
)
# (a semicolon inside brackets parts a product's attributes, not clauses: "A (Brand; 150g)")
_CLAUSE_EDGE = re.compile(r"\n|;(?![^()\n]*\))|(?<=[.!?])" + _NOT_AN_END + r"\s+")
# Where one list entry ends and the next begins: what follows belongs to the next mention.
_CONNECTOR_WORDS = ("and", "or", "vs", "versus", "than", "then", "plus", "nor", "but")
_CONNECTOR = re.compile(
    r"(?i),|\binstead of\b|\brather than\b|" + "|".join(rf"\b{w}\b" for w in _CONNECTOR_WORDS)
)
# Units of size, each with the base unit it is written in and its factor: "0.5 kg", "500g" and
# "500 grams" are one size.
_UNITS: dict[str, tuple[str, float]] = {
    r"g|gr|grams?|grammes?": ("g", 1),
    r"kg|kgs|kilos?|kilograms?|kilogrammes?": ("g", 1000),
    r"ml|millilit(?:re|er)s?": ("ml", 1),
    r"cl|centilit(?:re|er)s?": ("ml", 10),
    r"dl|decilit(?:re|er)s?": ("ml", 100),
    r"l|lit(?:re|er)s?|ltrs?": ("ml", 1000),
    r"bags?|tea ?bags?": ("bags", 1),
    r"capsules?|caps|pods?": ("capsules", 1),
    r"sachets?|sticks?": ("sachets", 1),
}
# An amount said in words, as a smart speaker or a careful writer says it: "five hundred",
# "seven hundred and fifty", "twenty-five", "5 hundred", "half a" (kilo), "a" (litre).
_DIGIT_WORDS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
_TEEN_WORDS: tuple[str, ...] = ("ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen")
_TEEN_WORDS += ("sixteen", "seventeen", "eighteen", "nineteen")
_TEN_WORDS = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
_WORD_VALUE = {
    **{w: n for n, w in enumerate(_DIGIT_WORDS, 1)},
    **{w: n for n, w in enumerate(_TEEN_WORDS, 10)},
    **{w: 10 * n for n, w in enumerate(_TEN_WORDS, 2)},
    "a": 1,
    "an": 1,
}
_BELOW_100 = (
    rf"(?:(?:{'|'.join(_TEN_WORDS)})(?:[- ](?:{'|'.join(_DIGIT_WORDS)}))?|"
    rf"{'|'.join(_TEEN_WORDS)}|{'|'.join(_DIGIT_WORDS)})"
)
_COUNT_WORDS = (
    rf"(?:(?:\d+|{'|'.join(_DIGIT_WORDS)}|a)\s+hundred(?:\s+(?:and\s+)?{_BELOW_100})?|{_BELOW_100})"
)
_AMOUNT_WORDS = (
    rf"(?:{_COUNT_WORDS}(?:\s+and\s+a\s+half)?|half\s+an?|"
    r"an?(?=\s+(?:kilo|kilogram|kilogramme|lit(?:re|er))s?\b))"
)
# "6 x 100 g", "six times one hundred grams": a pack count, then the size of one.
_SIZE = re.compile(
    r"(?i)(?<![\w.,])(?:(\d+|"
    + _COUNT_WORDS
    + r")\s*(?:[x×*]|times)\s*)?(\d+(?:[.,]\d+)?|"
    + _AMOUNT_WORDS
    + r")\s*-?\s*("
    + "|".join(_UNITS)
    + r")(?!\w)"
)
_Size = tuple[int, float, str]


def _amount(said: str) -> float:
    """The value of an amount said in digits ("0,5") or in words ("seven hundred and fifty")."""
    said = said.lower().replace(",", ".")
    if said[0].isdigit() and "hundred" not in said:
        return float(said)
    if said.startswith("half"):
        return 0.5
    whole, half = said.removesuffix(" and a half"), said.endswith(" and a half")
    total = 0.0
    for word in re.findall(r"\d+|[a-z]+", whole):
        if word == "hundred":
            total *= 100
        elif word != "and":
            total += float(word) if word.isdigit() else _WORD_VALUE[word]
    return total + (0.5 if half else 0.0)


def _size(count: str | None, amount: str, unit: str) -> _Size | None:
    """A size as (pack count, amount in its base unit, base unit)."""
    for pattern, (base, factor) in _UNITS.items():
        if re.fullmatch(pattern, unit, re.IGNORECASE):
            packs = int(_amount(count)) if count else 1
            return (packs, round(_amount(amount) * factor, 6), base)
    return None


def _quantity_size(quantity: str) -> _Size | None:
    m = _SIZE.fullmatch(quantity.strip())
    return _size(m.group(1), m.group(2), m.group(3)) if m else None


# -- rule-outs: words around a mention that say it is not being put forward ------------------
# The cue phrases are documented vocabulary (domains.grocery.mention_cues); here is their scope.

# Words that may close a mention without saying anything of it: "the 400 g size".
_TAIL = r"(?:\s*(?:size|pack|one|version|bottle|jar|tub|bag|box|carton|pot|packet|tin|can))?"
_FILLER = (
    r"(?:the|your|a|an|that|this|these|those|any|usual|regular|old|current|same|previous|"
    r"item|product|sku|id|barcode|ref|code|\w+ing|more|for|of|with|on|to|\d+|x|×|one|two|three|"
    r"packs?|even)"
)
_BEFORE = cues.compiled(
    # (a quote mark opens a cue, an apostrophe inside a word does not: "said 'no A'")
    r"(?<![\w’])(?<!\w')"
    + cues.alternation(cues.BEFORE)
    + rf"(?:[\s(\[\"'“‘]+{_FILLER}){{0,4}}:?\s*[\"'(“‘#\[*_~`]*\s*$"
)
_BEFORE_STATE = cues.compiled(
    r"(?<!\w)(?:the|your|an?) (?:out[- ]of[- ]stock|unavailable|sold[- ]out|discontinued|"
    r"pricier|dearer|more expensive)\s*[\"'(“‘*_`]*\s*$"
)
# (a state may open on a word's "'s" or "'re": "it's a no", "they're gone")
_STATE = cues.compiled(
    r"(?:(?<![\w-])|(?=['’](?:s|re)\b))" + cues.alternation(cues.STATES) + r"(?![\w-])"
)
_NEGATED = cues.compiled(
    r"(?<![\w'’])"
    + cues.NEGATION
    + r"\s+(?!only\b|just\b)(?:(?:(?!only\b)\w+ly|be|been|really|quite|any|at all|all|"
    r"too|very|something|currently|is|are|any ?more|more|longer|have|has)\s+){0,2}"
    + cues.alternation(cues.NEGATED)
)
_NEGATION_BEFORE = cues.compiled(
    r"(?:"
    + cues.NEGATION
    + r"|nothing|none|zero|free of|without|almost|nearly|hardly|not quite|close to being)"
    r"\s+(?:\w+\s+)?$"
)
_ALLERGEN = cues.alternation(cues.ALLERGEN_WORDS) + r"(?![\w-]|\s?free)"
_CONTAINS = cues.compiled(
    r"(?<![\w-])"
    + cues.CONTAINS
    + r"\s+(?:(?!no\b|zero\b|free\b|without\b|low\b|less\b|none\b)[\w'’]+\s+){0,3}?"
    + _ALLERGEN
)
# an amount of an allergen, whatever the verb ("is sneaking in some lactose")
_AMOUNT_OF = cues.compiled(r"(?<![\w-])(?<!\bwith )(?<!\bfor )" + cues.AMOUNTS + r"\s+" + _ALLERGEN)
_SELF_EXCLUDED = cues.compiled(r"(?<!\w)" + cues.SELF_EXCLUDED + r"(?!\w)")
# Where a new subject takes over the words after a mention ("because the other one is ...").
_NEW_SUBJECT = cues.compiled(
    # "A goes well with what you already have": what the "what" clause says is not said of A
    r"\b(?:with|to|alongside|beside|next to|like|complements?|complementing|matches|suits)\s+"
    r"(?=what\b)|(?:[—–]\s+(?=the\b)|(?:,|\b(?:because|since|as|while|whereas|although|though|when|so|and|but|if|unless|"
    r"plus))\s+|\(\s*)(?=(?:the|a|an|my|your|our|their|these|those|other|another|there|here|you|they|he|she|"
    r"every|each|both|some|most|all)\b)"
)
# "I'm leaving A out", "I've taken A off your list": a verb and its particle around a mention.
_PARTICLE_VERB = cues.compiled(
    rf"\b(?:leav(?:e|es|ing)|left|tak(?:e|es|ing|en)|took|cross(?:es|ed|ing)?|strik(?:e|es|ing)|"
    rf"struck|set(?:s|ting)?|knock(?:s|ed|ing)?|count(?:s|ed|ing)?|rul(?:e|es|ed|ing)|"
    rf"cut(?:s|ting)?|send(?:s|ing)?|sent|bring(?:s|ing)?|brought|giv(?:e|es|ing)|gave|"
    rf"hand(?:s|ed|ing)?)(?:\s+{_FILLER}){{0,2}}:?[\s\"'(“‘#\[*_~`]*$"
)
# "leave A out", "take A off", "send A back" (not "back in stock": that brings it)
_PARTICLE = cues.compiled(
    r"^[\W_]*(?:out|off|aside|to one side|behind|on the shel(?:f|ves)|a miss|the (?:chop|boot|push)|"
    r"back(?! in(?:to)? stock| on (?:the |our )?shel))\b"
)
# "Nothing else fits except B": the exception is what is put forward.
_EXCEPTION = cues.compiled(
    r"\b(?:nothing|none|neither|nor|no other|no one|not one|nobody|no|hard to|can['’]?t|"
    r"won['’]?t|never|couldn['’]?t|could not|cannot|did ?n['’]?t|didn['’]?t)\b[^.;!?\n]*"
    rf"\b(?:except|but|other than|apart from|besides|save|than|beats?|tops?|outdoes)(?: for)?(?:\s+{_FILLER}){{0,3}}"
    r"[\s\"'(“‘#\[*_~`]*$"
)
# "A is in stock; B isn't": a bare negated auxiliary says the opposite of the clause before.
_ELLIPSIS = cues.compiled(
    _TAIL
    + r"[\W_]*(?:(?:is|are|does|do|was|were|has|have|can|will|would)\s+)?"
    + cues.NEGATION
    + r"(?:\s+(?:either|really|quite|at all|any more|anymore))?[\W_]*"
)
# "A is sold out, and so is B", "B too": B shares what was said of the mention before it.
_SAME_BEFORE = cues.compiled(
    r"(?:,|\band|\bbut)\s*(?:so|as|nor|neither) (?:is|are|was|were|does|do|did|has)[\W_]*$"
)
_SAME_AFTER = cues.compiled(_TAIL + r"[\W_]*(?:too|as well|also|either)[\W_]*")
_IN_AN_ORDER = cues.compiled(
    "^"
    + _TAIL
    + r"[\W_]*(?:(?:which|that) (?:is|was) |is |was )?(?:in|from|on) (?:your |ur |the |that |this )?"
    r"(?:(?:last|previous|past|earlier|recent) )?orders?\b"
)
_PUTTING = cues.compiled(r"\b(?:add|put|swap|replac|includ|plac|switch|chang|pop|mov)\w*")
_BARE_VERDICT = cues.compiled(
    "^"
    + _TAIL
    + r"[\s()\[\]–—:|=~·/*_-]*(?:skip(?:ped)?(?: it)?|avoid(?:ed)?|removed|dropped|rejected|declined|"
    r"no(?!\s+\w)|nope|nah|pass|not this one|not that one|excluded)"
    r"(?:[\s)\].,;!–—|-]|$)"
    # a state said with no verb, as a note does: "A gone, can swap to B"
    r"|^"
    + _TAIL
    + r"[\s()\[\]–—:|=~·/*_-]*(?:all |now |already )?(?:gone|finished|sold out|none left|"
    r"empty|unavailable|oos|back|refunded|returned)(?=\s*(?:[.,;:!?)\]–—|-]|$))"
)
# Words that make an otherwise plant-based drink's "milk" not the allergen.
_PLANT_MILK = cues.compiled(cues.alternation(cues.PLANT_MILKS) + r"[- ]milk\b")
# A tick or a cross beside each product of a line: before them when the line opens with one
# ("✅ B ❌ A"), else after them ("A ✘ B ✔").
_MARKS = "✔✓✅☑👍❌✗✘🚫⛔"
_MARK_LEAD = re.compile(rf"[\s*_>•·\-\d.)\[\]]*[{_MARKS}]")
_MARK_BEFORE = re.compile(rf"([{_MARKS}])[\s*_]*$")
_MARK_AFTER = re.compile(rf"{_TAIL}[\s*_:—–)\]~=>→⇒-]*([{_MARKS}])")


def _mark_of(text: str, lo: int, start: int, end: int, hi: int) -> str | None:
    """The tick ("in") or cross ("out") a line sets beside the mention text[start:end] (None:
    none), looked for between `lo` and `hi`, the ends of what the mention may own."""
    line = text.rfind("\n", 0, start) + 1
    stop = text.find("\n", end)
    if _MARK_LEAD.match(text, line, stop if stop >= 0 else len(text)):
        m = _MARK_BEFORE.search(text, max(lo, line), start)
    else:
        m = _MARK_AFTER.match(text, end, hi)
    if m is None:
        return None
    return "in" if m.group(1) in "✔✓✅☑👍" else "out"


# A substitution that names the new product first ("substitute B for A", "sub in B for A": B
# before "for", A after it), or the old one first ("substitute A with B").
_SUBSTITUTING = (
    r"(?:substitut(?:e|es|ed|ing)|(?:sub(?:s|bed|bing)?|swap(?:s|ped|ping)?|put(?:s|ting)?|"
    r"switch(?:es|ed|ing)?) in)"
)
_NEW_FIRST, _OLD_AFTER_FOR, _OLD_FIRST, _FOR_NEXT, _WITH_NEXT = map(
    cues.compiled,
    (
        rf"\b{_SUBSTITUTING}\s*(?:the\s+)?$",
        rf"\b{_SUBSTITUTING}\b[^.;!?\n]*\bfor[\s\"'(“‘*_`]*(?:the\s+)?$",
        r"\b(?:substitut(?:e|es|ed|ing)|sub(?:s|bed|bing)?)\s*(?:the\s+)?$",
        r"^[\s\"'”’)*_`]*for\b",
        r"^[\s\"'”’)*_`]*(?:with\b|by\b|w/)",
    ),
)
# The agent's own first thought, said as past or unrealised ("I was going to suggest A", "my
# first pick was A", "I had A in mind"), taken back by a contrast that follows it.
_FIRST_THOUGHT = cues.compiled(
    r"(?:\b(?:i|we)(?:['’]d| had| was| were)? (?:first |initially |originally )?(?:was going to|were going to|"
    r"was about to|wanted to|meant to|thought (?:about|of)|considered|had in mind|"
    r"(?:nearly|almost) (?:suggested|picked|chose|added|recommended|went for|offered)|"
    r"(?:first|initially|originally) (?:picked|chose|suggested|went for|looked at|checked|tried|"
    r"reached for|found|shortlisted|earmarked|lined up|picked out|pencilled in|penciled in))(?: \w+)?|"
    r"\b(?:i|we) tried to (?:add|get|order|find|source|book)|"
    r"\b(?:i|we) (?:looked|searched|checked|hunted|went looking) (?:around )?for|"
    r"\b(?:i|we) (?:did |also )?(?:look(?:ed)? at|(?:had|took) a look at)|"
    r"\bmy (?:first|initial|original|earlier|old) (?:pick|choice|thought|idea|instinct|suggestion|plan)"
    r"(?: was| had been)?|\b(?:initially|originally|at first)(?:,)? (?:i|we) (?:thought of|picked|chose|"
    r"considered|suggested|went for|had)|\b(?:i|we) had)(?:\s+(?:the|a|an))?[\s\"'“‘*_(`:]*$"
)
_YOU_HAVE = cues.compiled(r"\byou(?:['’]ve| have) got\s*(?:the\s+)?$")
_CONTRAST = cues.compiled(
    r"\b(?:but|however|though|although|yet|on (?:second thought|reflection)|actually|then i|instead|"
    r"changed my mind|scratch that|(?:i['’]ve |i have |i )?(?:changed|switched|swapped|replaced) it|"
    r"then (?:i )?(?:remembered|reali[sz]ed|noticed|saw|checked))\b"
)
# The first thought said after the product: "A crossed my mind, but ..."
_FIRST_THOUGHT_AFTER = cues.compiled(
    "^"
    + _TAIL
    + r"[\W_]*(?:(?:briefly |first |initially )?(?:crossed|came to|sprang to) (?:my )?mind|"
    r"was on my (?:radar|list|shortlist)|was (?:in the running|a contender))\b"
)
# "I can't recommend A enough": praise, not a negation.
_ENOUGH = cues.compiled("^" + _TAIL + r"[\W_]*(?:highly |strongly )?enough\b")
_CONDITION = cues.compiled(r"\b(?:if|in case|should|whether|unless)\b")
_ARTICLE_AND_MARKUP = r"(?:\s+(?:the|your|a|an))?[\s\"'(“‘#\[*_~`]*$"
# "I'd pick A over B": B is passed over; "A is the better deal next to B": B is what A is
# measured against (a decimal point, "the 1.5 l one", ends no clause).
_PREFERRED_OVER, _COMPARED_WITH = (
    cues.compiled(
        r"\b"
        + cues.alternation(verbs)
        + rf"\b(?:[^.;!?\n]|(?<=\d)\.(?=\d)){{0,{reach}}}?\b{link}"
        + _ARTICLE_AND_MARKUP
    )
    for verbs, reach, link in (
        (cues.PREFERRING, 160, "over"),
        (cues.COMPARATIVES, 40, r"(?:next to|against|versus|vs\.?|beside|alongside)"),
    )
)
# "B over A any day": a preference said with no verb, by its idiom after the second.
_BARE_OVER = re.compile(r"[\W_]*over[\W_]*")
_ANY_DAY = cues.compiled(
    "^" + _TAIL + r"[\W_]*(?:any day|every time|hands down|all day|for me|in my book|for sure)\b"
)
_ANAPHOR = cues.compiled(
    # ("the first two" counts, it picks no one)
    r"\bthe (former|latter|first|second|last)\b(?!\s+(?:two|three|four|few|couple|\d))"
    r"(?: one| option| product)?"
)
_CLAUSE_STOP = re.compile(r"[,;.!?\n]")
_ARROW = re.compile("^" + _TAIL + r"[\W_]*(?:→|->|=>|⇒|➜|➔|⟶)")
_ONLY_PUNCTUATION = cues.compiled("^" + _TAIL + r"[\s.?!:;—–\-*_)\"'”`]*$")
# A short question about the product, answered by the next sentence: "Is A an option? Sadly no."
_SHORT_STATE_QUESTION = cues.compiled(r"(?:\s+[\w'’-]+){1,4}\s*\?[\s\"'”`*_)]*")
# A list label that rules out what follows it: "Out of stock: A, B", "**Dropped:** C".
_LABEL = cues.compiled(
    # a few words may name what is listed: "alternatives rejected", "options ruled out"
    r"[\W_]*(?:(?:these|those|the following|items?|products?)\s+|"
    r"(?:(?!not\b|no\b|never\b|why\b|if\b)[a-z]+\s+){1,2}(?=\w+$|\w+\W*$))?(?:"
    + cues.alternation(cues.STATES)
    + "|"
    + cues.NEGATION
    + r"\s+"
    + cues.alternation(cues.NEGATED)
    + r"|avoid|skip(?:ped)?|left out|ruled out|not for you|no|out|gone|n/a"
    + r"|not on (?:it|there|the list|your list|the menu)"
    # what goes back: "### Return summary", "Returning:" (a return names, never suggests)
    + r"|(?:return(?:s|ed|ing)?|refund(?:s|ed)?|to (?:return|refund))(?: summary| request| details)?"
    # what the shopper asked for: "Your request:", "Requested:"
    + r"|(?:your |original |the shopper['’]?s? )?request(?:ed)?(?: items?| products?)?|you asked for"
    # what was bought before: "Prev. order:", "Last time:", "Order history:"
    + r"|(?:(?:prev(?:ious)?\.?|last|past|earlier|old|usual|regular)\s+(?:orders?|purchases?|buys?|"
    r"basket|time|items?|pick)|(?:order|purchase|buying) history|bought before|you (?:usually )?buy"
    # "Previously purchased:", "Ordered before:"
    r"|(?:previously|already|formerly|recently) (?:purchased|bought|ordered|had)"
    r"|(?:purchased|bought|ordered) (?:before|previously|last time|recently))"
    # the old side of a substitution record: "was:", "old:", "before:", "original item:"
     + r"|(?:was|old|before|original|previous|replacing|replaced|swapped(?: out)?|outgoing)"
    r"(?:\s+(?:items?|products?|pick|one|line))?"
    + r"|(?:dropped|removed|excluded|rejected|blocked|flagged|filtered out|failed"
    # the same, cut short in a terse record: "excl:", "rej.", "unavail:"
    + r"|excl\.?|rej\.?|unavail\.?)"
    + r"(?:\s+(?:by|for|due to|because of|on|in)\s+[\w -]{1,30})?"
    + r"|contains? "
    + cues.alternation(cues.ALLERGEN_WORDS)
    + r")(?:\s+(?:items?|products?|for you|right now|today|now|this week))?"
    + r"(?:,?\s*(?:i['’]m afraid|sadly|sorry|unfortunately|for now|at the moment))?[\W_]*"
)
# What the shopper already holds, recalled by a label over its lines, before it or after it.
_HELD_LABEL = cues.compiled(r"[\W_]*" + cues.alternation(cues.HELD_LABELS) + r"[\W_]*")
_HELD_HEADING = cues.compiled(r"[\W_]*" + cues.alternation(cues.HELD_HEADINGS) + r"[\W_]*")
_HELD_BEFORE = cues.compiled(
    r"(?<![\w'’])"
    + cues.alternation(cues.HELD_BEFORE)
    + rf"(?:[\s(\[\"'“‘]+{_FILLER}){{0,4}}:?\s*[\"'(“‘#\[*_~`]*\s*$"
)
_HELD_AFTER = cues.compiled(
    "^" + _TAIL + r"[\W_]*(?:\([\w'’ ,.-]{1,30}\)[\W_]*)?" + cues.alternation(cues.HELD_AFTER)
)
# What closes a label: a colon or an arrow ("Excluded → A").
_LABEL_SEPARATOR = re.compile(r":|→|->|=>|⇒|➜|➔")
_ENTRY_SEPARATORS = 3
# A basket's label may also close with a spaced dash ("Basket so far — A"); a verdict's may not
# ("It's out today — B?" offers B).
_HELD_SEPARATOR = re.compile(_LABEL_SEPARATOR.pattern + r"|(?<=\s)[—–](?=\s)")
_EMOTICON = re.compile(r":-?[()\[\]/|DPp](?!\w)")
_LABEL_START = re.compile(r"[^:\n]{0,40}:")
# A markdown heading or a line in bold: it labels the lines under it, up to the next heading.
_HEADING = re.compile(
    r"(?m)^[ \t]*(?:#{1,6}[ \t]+(?P<h>[^\n]+?)[ \t#]*|\*\*(?P<b>[^\n*]+)\*\*[ \t]*:?"
    # a short plain line over a bulleted or numbered list is its heading ("In your cart\n- A")
    r"|(?P<p>[^\W\d_][^\n:.!?*#|]{0,40}?)(?=[ \t]*\n[ \t]*(?:[-*•·]|\d+[.)])[ \t]))[ \t]*$"
)
# Where one key of a record ends: '{"suggest": "A", "excluded": "B"}'.
_KEY_EDGE = re.compile(r"[,{]")
# A flag on the line after a product's: "in_stock: false", "available = no".
_FLAG = (
    r"(?:in[ _-]?stock|instock|available|availability|stocked|stock|suitable|allowed|ok|safe)"
    r"[\"'`]?\s*[:=]\s*[\"'`]?(?:false|no|none|0|n|❌|✗|✘)(?!\w|[.,]\d)"
)
_FLAG_FALSE = cues.compiled(r"[\W_]*" + _FLAG + r"[\W_]*")
# The same flag later in the product's own record: '{"product": "A", "in_stock": false}'.
_OWN_FLAG = cues.compiled(r"^[^\n{}]*?(?<![\w-])" + _FLAG)
_BARE_NO = cues.compiled(
    r"[\W_]*(?:(?:sadly|unfortunately|sorry|alas|oh|i['’]m afraid)[\W_]+)*"
    r"(?:no|nope|nah|not really|not this time|not today)[\W_]*"
)
# ... or opening the sentence before what it says: "Not today — it's sold out."
_BARE_NO_LEAD = cues.compiled(
    r"[\W_]*(?:(?:sadly|unfortunately|sorry|alas|oh|i['’]m afraid)[\W_]+)*"
    r"(?:no|nope|nah|not really|not this time|not today|not now)\s*[,;:—–-]"
)
_LABEL_EDGE = re.compile(r"[\n;!?]|(?<=\.)" + _NOT_AN_END + r"(?=\s|$)")
# A list link between two mentions ("A, B and C", "A or B").
_LIST_LINK = cues.compiled(
    # a short aside in brackets may follow a member: "A (soy) and B (nuts) are both ..."
    r"^[\W_]*(?:\([\w'’ -]{1,30}\)[\W_]*)?(?:,|&|and|or|nor|as well as|plus)?[\W_]*"
    r"(?:(?:the|a|an|id|sku|item|product|ref|barcode|code)[\W_]*)?$"
)
# What may stand between two lines of a basket said in one sentence besides a list link: each
# line's quantity, price and size ("A x 3 and B x 1", "one A at €1.49, and two packs of B").
_BASKET_WORDS = cues.compiled(
    r"(?<!\w)(?:[€$£]\s*\d+(?:[.,]\d+)?|\d+(?:[.,]\d+)?\s*(?:[€$£]|eur(?:os?)?)?|[x×]\d*|\d+[x×]|"
    + "|".join(_DIGIT_WORDS)
    + r"|at|of|each|packs?|pieces?|units?|quantity|qty|the|a|an|and|or|plus|as well as)(?!\w)"
)
_BASKET_LINK = re.compile(r"[\W_]*")


def _basket_link(link: str) -> bool:
    """Whether a link between two mentions holds nothing but a list link and each line's
    quantity, price and size: the two are lines of one basket."""
    return bool(_BASKET_LINK.fullmatch(_BASKET_WORDS.sub(" ", _SIZE.sub(" ", link))))


# A link that ends a sentence or a clause joins no list ("A plus B; C would ..."): a line
# break does (a bulleted list).
_SENTENCE_LINK = re.compile(r"[;!?]|\.(?=\s)")
_LIST_WORD = cues.compiled(r"\b(?:and|or|nor|as well as|plus)\b|&")
# A predicate said of every member of a list before it: "A and B are both sold out".
_PLURAL = cues.compiled(
    "^"
    + _TAIL
    + r"[\W_]*(?:\([\w'’ -]{1,30}\)[\W_]*)?(?:(?:are|were|have|both|all|each|neither|none|contain|include|list|both contain|do|don['’]?t|"
    r"aren['’]?t|weren['’]?t|won['’]?t|would|will|can['’]?t|should)\b)"
)
_ALL_OF_THEM = cues.compiled(r"^[\W_]*(?:both|all|each|neither|none)\b")
# A member of a list that has its own verb is not a bare member: "Skip A, B is fine".
_VERB_FIRST = cues.compiled(r"^[\W_]*" + cues.alternation(cues.OWN_VERBS) + r"\b")
# What the next sentence says of a mention that ends its own: "X? Unavailable, I'm afraid."
_NEXT_SAYS = cues.compiled(
    r"^[\W_]*(?:(?:sadly|unfortunately|sorry|alas|oh|but|however|no|nope|i['’]m afraid|"
    r"afraid so)[\W_]+)*(?P<subject>(?P<several>(?P<none>neither(?: one)?|none(?: of them)?)|both|"
    r"all|they|they['’]re|both of them|all of them)\b|(?:it|it['’]s|its|that|that['’]s|this|"
    r"this one|that one)\b)?"
)


_QUESTIONED = cues.compiled(cues.QUESTIONED)
_QUESTIONED_NEXT = cues.compiled(
    r"\s*(?:(?:but|so|and|please|then|just|could you|can you|would you|will you|pls|plz)\W+){0,3}(?:"
    + cues.QUESTIONED
    + ")"
)
_BARE_STATE = cues.compiled(r"\s*" + cues.BARE_STATES + r"[\W_]*")
_CORRECTION = cues.compiled(r"(?<!\w)" + cues.CORRECTIONS + r"(?!\w)")
# Two products set side by side, and the words that then choose one of them.
_DETERMINER = r"(?:(?:the|that|this|a|an)\b[\W_]*)?"
_VERSUS = cues.compiled(
    # a price or size in brackets may close the first: "A (€4.20) vs B"
    r"[\W_]*(?:\([^()\n]{1,30}\)[\W_]*)?(?:vs\.?|versus|or|takes? on|(?:up )?against|faces|"
    r"(?:goes |going )?head[- ]to[- ]head (?:with|against))[\W_]*"
    + _DETERMINER
    + r"|[^.;!?\n]{0,40}\bthan[\W_]*"
)
# "between A and B", "comparing A with B", "A compared to B": the two set side by side
_BETWEEN = cues.compiled(
    r"\b(?:between|compar(?:e|es|ed|ing)|weigh(?:s|ed|ing)?(?:\s+up)?|look(?:s|ed|ing)? at|"
    r"consider(?:s|ed|ing)?|review(?:s|ed|ing)?|check(?:s|ed|ing)?(?: out)?|pit(?:s|ted|ting)?)\b"
    r"[\W_]*(?:the\s+)?$"
)
_AND_LINK = cues.compiled(
    r"[\W_]*(?:and|with|to|against|versus|vs\.?|(?:as )?compared (?:to|with))[\W_]*" + _DETERMINER
)
_CHOSEN_BEFORE = cues.compiled(
    r"\b(?:go|going|stick|stay|went) with|\b(?:pick|choose|take|go for|opt for|choice|vote|grab|"
    r"get|buy|settle on|land on|plump(?:ing)? for|side with|vote for|put my money on|bet on|"
    # backing one: "Personally I'd back B", "I'd root for B", "I vouch for B"
    r"back|root for|vouch for|endorse|"
    # leaning one way: "I lean towards B", "I'm leaning to B", "I gravitate to B"
    r"lean(?:s|ing)? (?:more )?towards?|lean(?:s|ing)? to|gravitate(?:s)? (?:towards?|to)|"
    # a contest's result: "the winner is B", "and the champion... B"
    r"(?:winner|champion|victor)(?:\s+by\s+[\w ]{1,20}?)?|"
    # the closing offer that names one of the two: "Shall I add A?"
    r"(?:shall|should|can|may) (?:i|we) (?:add|order|get you|put in)|"
    r"recommend(?:ation)?|suggest(?:ion)?|advise|prefer|favou?r)"
    r"(?:\s+(?:is|would be|goes to))?(?:[\W_]+(?:the|that|this|a|an))?\b[\W_]*$"
)
_CHOSEN_AFTER = cues.compiled(
    _TAIL
    + r"[\W_]*(?:"
    + "|".join(cues.WINNING)
    + r"|wins|it is|(?:easily|definitely|for sure|hands down|clearly|obviously|no contest|"
    r"every time|all the way)(?=[\W_]*$)|(?:is|['’]s) (?:the |a )?(?:clear |obvious |better |best |"
    r"sensible |smart |wise |safe |right |logical |natural |ideal |perfect |stronger |winning )?(?:one|winner|"
    r"pick|choice|deal|buy|option)|(?:is|['’]s) (?:the |much |far )?(?:clear |obvious )?(?:better|best))\b"
)

_CHOSEN_LATER = cues.compiled(r"\b" + cues.alternation(cues.CHOSEN_LATER))


def _chosen_in_its_sentence(text: str, end: int, stop: int) -> bool:
    """Whether the rest of the sentence after a mention (up to `stop`, the next mention) chooses
    it by a word that stands for it ("B has the better score, so that's my pick")."""
    edge = _CLAUSE_EDGE.search(text, end, stop)
    return bool(_CHOSEN_LATER.search(text, end, edge.start() if edge else stop))


def _cue_at(words: str) -> int | None:
    """Where the first words that rule a product out start in `words` (None: nowhere)."""
    found: list[int] = []
    for m in _STATE.finditer(words):
        if not _NEGATION_BEFORE.search(words[max(0, m.start() - 30) : m.start()]):
            found.append(m.start())
            break
    for m in itertools.chain(_CONTAINS.finditer(words), _AMOUNT_OF.finditer(words)):
        if _PLANT_MILK.search(m.group(0)):
            continue
        if not _NEGATION_BEFORE.search(words[max(0, m.start() - 30) : m.start()]):
            found.append(m.start())
            break
    found += [m.start() for m in (_NEGATED.search(words), _SELF_EXCLUDED.search(words)) if m]
    return min(found, default=None)


def _states_against(words: str) -> bool:
    """Whether the words say something about a product that rules it out."""
    return _cue_at(words) is not None


# The next key of a record ('", "excluded": '): what follows is another field's value.
_NEXT_KEY = re.compile(r"[\"'`]?\s*[,;{]\s*[\"']?[\w -]{1,30}[\"']?\s*[:=]")


_ASIDE = re.compile(r"[\s)\]]*\((?:[\w'’ -]{1,30})\)")


def _own_words(words: str) -> str:
    """The words after a mention that are still about it (up to where a new subject or the
    next key of a record starts)."""
    # a short aside in brackets right after the name says nothing new: "A (your usual) is out"
    aside = _ASIDE.match(words)
    seen = " " * aside.end() + words[aside.end() :] if aside else words
    cuts = [m.start() for m in (_NEW_SUBJECT.search(seen), _NEXT_KEY.search(seen)) if m]
    return words[: min(cuts)] if cuts else words


def _labelled_out(
    text: str,
    start: int,
    label: re.Pattern[str] = _LABEL,
    separator: re.Pattern[str] = _LABEL_SEPARATOR,
) -> bool:
    """Whether a list label ruling products out (`label`: what it says) governs text[start]: "Out
    of stock:", a key ("excluded": ...), or a heading over the list ("### Not available")."""
    if _under_heading(text, start, label):
        return True
    seps = [
        m
        for m in separator.finditer(text, 0, start)
        if not (m.start() and text[m.start() - 1].isspace() and _EMOTICON.match(text, m.start()))
    ]  # ":(" is a face, not a label
    # A colon inside a line's entry ("A: Sunny Acre, 100 g", "(SKU: ...") ends no label: the one
    # before it still governs, unless a link or a line break stands between them (looked for
    # over the last few separators only: an entry holds one or two).
    for k in range(len(seps) - 1, max(-1, len(seps) - 1 - _ENTRY_SEPARATORS), -1):
        colon, after = seps[k].start(), seps[k].end()
        between = text[after:start]
        if _LABEL_EDGE.search(between.replace("\n", " ")) or "\n\n" in between:
            break
        edge = max((m.end() for m in _LABEL_EDGE.finditer(text, 0, colon)), default=0)
        key = max((m.end() for m in _KEY_EDGE.finditer(text, edge, colon)), default=edge)
        # a bot's keys write their words with underscores: "not_available: A"
        said = (text[edge:colon].replace("_", " "), text[key:colon].replace("_", " "))
        if any(label.fullmatch(words) for words in said):
            return True
        entry = text[seps[k - 1].end() : colon] if k else ""
        if not entry.strip() or "\n" in entry or "|" in entry or _CONNECTOR.search(entry):
            break
        # an arrow after an entry is a substitution ("Sub request: A unavailable → B"): what
        # a label ruling out says of the old side does not reach the new one (a label that
        # presents the record, "Cheaper swap:", still does)
        if label is _LABEL and seps[k].group() != ":":
            break
    return _nested_under_label(text, start, label)


def _under_heading(text: str, start: int, label: re.Pattern[str]) -> bool:
    """Whether the last heading before text[start] (markdown, bold, or a short plain line over a
    list) says `label`."""
    headings = list(_HEADING.finditer(text, 0, start))
    last = headings[-1] if headings else None
    return bool(last and label.fullmatch(last.group("h") or last.group("b") or last.group("p")))


# A key of a return's record: "Refund: €3.99", "Return reason: damaged" (a bare "Reason:" also
# explains a pick).
_RETURN_KEY = cues.compiled(
    r"^[\s\-*•·>\d.)]*[*_`]*(?:refund(?: amount| method| to)?|reason for (?:the )?return|"
    r"return(?: reason| window| method| id)?|money back|credit(?: to)?)[*_`]*\s*:"
)


_NEW_SIDE_KEY = cues.compiled(
    r"^[\s\-*•·>\d.)]*[*_`]*(?:" + cues.alternation(cues.NEW_SIDE_KEYS) + r")[*_`]*\s*:"
)


def _in_a_return_record(text: str, start: int) -> bool:
    """Whether text[start] stands on a line of a record (lines with no blank line between) that
    has a key of a return ("Refund:", "Reason:"): what a return's record names goes back."""
    top = text.rfind("\n\n", 0, start)
    bottom = text.find("\n\n", start)
    block = text[top + 2 if top >= 0 else 0 : bottom if bottom >= 0 else len(text)]
    if _NEW_SIDE_KEY.match(_line_of(text, start)):
        return False  # "- Replace with: B": the new side of an exchange
    return "\n" in block and any(_RETURN_KEY.match(line) for line in block.split("\n"))


def _nested_under_label(text: str, start: int, label: re.Pattern[str]) -> bool:
    """Whether the indented record line holding text[start] sits under a key that rules out
    what it holds ("return_request:" over "  item: A")."""
    line_start = text.rfind("\n", 0, start) + 1
    lead = text[line_start:start]
    indent = len(lead) - len(lead.lstrip(" \t"))
    pos = line_start - 1
    while indent and pos > 0:
        above = text.rfind("\n", 0, pos) + 1
        line = text[above:pos]
        words = line.strip()
        if words and len(line) - len(line.lstrip(" \t")) < indent:
            return words.endswith(":") and bool(label.fullmatch(words[:-1].replace("_", " ")))
        pos = above - 1
    return False


def _cells(line: str) -> list[str]:
    cells = [c.strip() for c in line.split("|")]
    return cells[1:-1] if line.strip().startswith("|") and len(cells) > 2 else cells


def _table_says_against(text: str, start: int, others: list[int]) -> bool:
    """Whether the table row that holds text[start] (under a header row) says, in another
    column that names no other product (`others`: where the other mentions start), something
    that rules its product out: a flag under its header ("Item | Stock" over "A | 0"), or a
    state ("A | out of stock")."""
    lines = text.split("\n")
    at = text.count("\n", 0, start)
    if "|" not in lines[at]:
        return False
    top = at
    while top > 0 and "|" in lines[top - 1]:
        top -= 1
    line_start = text.rfind("\n", 0, start) + 1
    line_end = line_start + len(lines[at])
    if top == at or any(line_start <= o < line_end for o in others):
        return False
    row = _cells(lines[at])
    here = lines[at].count("|", 0, start - (text.rfind("\n", 0, start) + 1))
    here -= 1 if lines[at].strip().startswith("|") else 0
    header = _cells(lines[top]) if top < at else []
    for j, cell in enumerate(row):
        if j == here or not cell:
            continue
        head = header[j] if len(header) == len(row) else ""
        if (head and _FLAG_FALSE.fullmatch(f"{head}: {cell}")) or _states_against(cell):
            return True
    return False


_EMPHASIS = re.compile(r"\*+|(?<!\w)__?|__?(?!\w)")


def _ruled_out(text: str, found: list[Mention]) -> list[Mention]:
    """The mentions with `ruled_out` set from the words around each (clause, list and negation
    scope)."""
    edges = [0, *(m.end() for m in _CLAUSE_EDGE.finditer(text)), len(text)]
    n = len(found)
    own: list[bool] = []
    by_prefix: list[bool] = []
    after: list[str] = []
    links: list[str] = []
    held: list[str | None] = []
    for k, m in enumerate(found):
        clause_lo = max(e for e in edges if e <= m.start)
        clause_hi = min((e for e in edges if e > m.end - 1 and e >= m.end), default=len(text))
        lo = max(clause_lo, found[k - 1].end if k else 0)
        nxt = found[k + 1].start if k + 1 < n else len(text)
        hi = min(clause_hi, nxt) if nxt >= m.end else clause_hi
        prefix, suffix = text[lo : m.start], text[m.end : hi]
        links.append(text[m.end : nxt] if nxt >= m.end else "")
        # (emphasis inside a cue says nothing: "**Return started** for A")
        plain = _EMPHASIS.sub("", prefix)
        before = bool(
            _BEFORE.search(plain)
            or _BEFORE_STATE.search(plain)
            or _labelled_out(text, m.start)
            or _in_a_return_record(text, m.start)
            or text.count("~~", 0, m.start) % 2  # struck through: "~~A~~"
        )
        words = _own_words(suffix)
        held.append(
            "before"
            if _HELD_BEFORE.search(prefix)
            else "after"
            if _HELD_AFTER.match(suffix)
            else "label"
            if _labelled_out(text, m.start, _HELD_LABEL, _HELD_SEPARATOR)
            or _under_heading(text, m.start, _HELD_HEADING)
            else None
        )
        conditional = bool(_CONDITION.search(text[clause_lo : m.start]))
        said = not conditional and (
            _states_against(words)
            or bool(_SELF_EXCLUDED.search(suffix))
            or bool(_OWN_FLAG.search(suffix))
            or _table_says_against(text, m.start, [x.start for x in found if x is not m])
        )
        if (
            not said
            and not conditional
            and hi == clause_hi
            and (_ONLY_PUNCTUATION.match(suffix) or _SHORT_STATE_QUESTION.fullmatch(suffix))
        ):
            said, plural = _next_sentence_against(text, hi, nxt)
            if plural:
                suffix = " are"  # "A or B? Neither is in stock.": said of both
        if not said and _ARROW.match(suffix):
            said = True  # "A → B": A is swapped for B
        if _PREFERRED_OVER.search(text[clause_lo : m.start]) or _COMPARED_WITH.search(
            text[clause_lo : m.start]
        ):
            before = True  # "I'd pick A over B": B is passed over
        if k and _BARE_OVER.fullmatch(text, found[k - 1].end, m.start) and _ANY_DAY.match(suffix):
            before = True  # "B over A any day": A is passed over
        if _PARTICLE_VERB.search(prefix) and _PARTICLE.match(suffix):
            before = True
        if _NEW_FIRST.search(text[lo : m.start]) and _FOR_NEXT.match(links[-1]):
            before = False  # "substitute B for A", "sub in B for A": B is the new one
        if _OLD_FIRST.search(text[lo : m.start]) and _WITH_NEXT.match(links[-1]):
            before = (
                True  # "substitute A with B": A is the old one (alone, "substitute B?" offers B)
            )
        if _OLD_AFTER_FOR.search(text[clause_lo : m.start]):
            before = True  # ... and A the old one
        if before and _YOU_HAVE.search(prefix):
            before = False  # "you've got A (in your basket)": what the shopper has now
        if (
            _FIRST_THOUGHT.search(prefix) or _FIRST_THOUGHT_AFTER.match(suffix)
        ) and _CONTRAST.search(text[m.end : nxt]):
            before = True  # "I was going to suggest A, but B fits better"
        if _ENOUGH.match(suffix):
            before = False  # "I can't recommend A enough"
        if _EXCEPTION.search(text[clause_lo : m.start]):
            before = False
        if _BARE_VERDICT.match(suffix) or (not conditional and _BARE_STATE.fullmatch(words)):
            said = True  # "A: skip", "A all gone :/", "A finish."
        mark = _mark_of(text, lo, m.start, m.end, hi)
        if mark is not None:
            before, said = False, mark == "out"  # "A ✘ B ✔", "✅ B ❌ A": each its own mark
        if _IN_AN_ORDER.match(suffix) and not _PUTTING.search(text[clause_lo : m.start]):
            said = True  # "I see X in your order": what was bought, not what is put forward
        if k and _ELLIPSIS.fullmatch(suffix):
            # The clause before said something of another product; this one is the opposite.
            before_clause = [i for i in range(k) if found[i].start < clause_lo]
            said = not own[before_clause[-1] if before_clause else k - 1]
        if k and (
            _SAME_BEFORE.search(prefix)
            or (_SAME_AFTER.fullmatch(suffix) and _LIST_LINK.match(prefix))
        ):
            before, said = own[k - 1], False
        if said and (
            _QUESTIONED.search(suffix) or (hi == clause_hi and _QUESTIONED_NEXT.match(text, hi))
        ):
            # "A isn't organic, does that matter?", "A is not vegan. Does that fit your diet?":
            # the shortcoming is put to the shopper, A is still put forward
            said = False
        if k and _CORRECTION.search(text[found[k - 1].end : m.start]):
            own[k - 1] = by_prefix[k - 1] = True  # "I'd add A — sorry, I meant B"
        by_prefix.append(before)
        own.append(before or said)
        after.append(suffix)
    ruled = list(own)
    # A list takes the cue said before its first member or after its last one.
    k = 0
    while k < n:
        j = k
        while j + 1 < n and _LIST_LINK.match(links[j]) and not _SENTENCE_LINK.search(links[j]):
            j += 1
        listed = any(_LIST_WORD.search(links[i]) for i in range(k, j))
        if j > k and (listed or _ALL_OF_THEM.match(after[j])):
            if by_prefix[k] and not any(_VERB_FIRST.match(after[i]) for i in range(k, j)):
                ruled[k : j + 1] = [True] * (j + 1 - k)
            if own[j] and not by_prefix[j] and _PLURAL.match(after[j]):
                ruled[k : j + 1] = [True] * (j + 1 - k)
        k = j + 1
    for target in _anaphora(text, found):
        ruled[target] = True
    _settle_choices(text, found, ruled)
    _marked_choice(text, found, ruled)
    _conceded(text, found, ruled)
    _chosen_again(text, found, ruled)
    _held_beside_new(found, ruled, held, links)
    return [replace(m, ruled_out=r) for m, r in zip(found, ruled, strict=True)]


def _held_beside_new(
    found: list[Mention], ruled: list[bool], held: list[str | None], links: list[str]
) -> None:
    """Products the shopper already holds (`held`: how the message says so, per mention),
    recalled beside a product it puts forward anew ("You've got A in your basket. How about B?"),
    are named, not put forward. A recap that is the whole proposal (a basket to confirm) leaves
    every line put forward. A list shares what is said before its first member or after its
    last."""
    kinds = list(held)
    linked = [_basket_link(x) and not _SENTENCE_LINK.search(x) for x in links]
    for k in range(len(found) - 1):
        if linked[k] and kinds[k] == "before" and kinds[k + 1] is None:
            kinds[k + 1] = "before"
    for k in range(len(found) - 1, 0, -1):
        if linked[k - 1] and kinds[k] == "after" and kinds[k - 1] is None:
            kinds[k - 1] = "after"
    kept = {m.candidates for m, kind in zip(found, kinds, strict=True) if kind}
    new = any(
        kind is None and not r and m.candidates not in kept
        for m, r, kind in zip(found, ruled, kinds, strict=True)
    )
    if new:
        for k, kind in enumerate(kinds):
            ruled[k] = ruled[k] or kind is not None


# A sentence that opens by granting something of a product, then turns to another: "I know A is
# the famous name, but B ...", "Sure, A is the classic; still, ...".
_CONCEDING = cues.compiled(
    r"(?:^|[.!?\n])[\s*_]*(?:(?:ok(?:ay)?|yes|yeah|sure|true|granted|admittedly|of course|fair enough|"
    r"i know|i get (?:it|that)|i reali[sz]e|i understand|i hear you|i appreciate)[,:;—–-]?\s+)+"
    r"(?:that\s+)?(?:the\s+)?$"
)
_TURNING = cues.compiled(r"\b(?:but|still|yet|however|though|nonetheless|that said|even so)\b")


def _conceded(text: str, found: list[Mention], ruled: list[bool]) -> None:
    """A product granted something at the opening of a sentence, then passed over for another
    named after a turn ("but", "still", "however") is ruled out: the granting is a concession,
    not a proposal."""
    for k in range(len(found) - 1):
        m, nxt = found[k], found[k + 1]
        if m.candidates == nxt.candidates or "\n\n" in text[m.end : nxt.start]:
            continue
        top = max(text.rfind(c, 0, m.start) for c in ".!?\n")
        if _CONCEDING.search(text, max(top, 0), m.start) and _TURNING.search(
            text, m.end, nxt.start
        ):
            ruled[k] = True


_PICK_MARK = cues.compiled(
    r"(?:[←⬅👈]|<-+|[(\[,:—–]|\s-\s|\*\*)[\s*_]*(?:"
    + cues.alternation(cues.PICK_MARKS)
    + r")\b[\W_]*$"
)
_BLOCK = re.compile(r"(?:[^\n]*\S[^\n]*(?:\n|$))+")


def _marked_choice(text: str, found: list[Mention], ruled: list[bool]) -> None:
    """Lines of one block, each naming products, one of them marked at its end as the choice
    ("Pros/cons:" over "A: cheaper", "B: low sugar ← my pick"): the other lines' products are
    ruled out, as when two set side by side are followed by the choice of one."""
    for block in _BLOCK.finditer(text):
        lines: dict[int, list[int]] = {}
        for k, m in enumerate(found):
            if block.start() <= m.start < block.end():
                lines.setdefault(text.count("\n", block.start(), m.start), []).append(k)
        if len(lines) < 2:
            continue
        marked = []
        for members in lines.values():
            last = found[members[-1]]
            end = text.find("\n", last.end)
            if _PICK_MARK.search(text, last.end, len(text) if end < 0 else end):
                marked.append(members)
        if len(marked) != 1:
            continue
        for members in lines.values():
            if members is not marked[0]:
                for k in members:
                    ruled[k] = True


# The result of a contest said before the product named again: "the winner is", "champion".
_WINNER = cues.compiled(r"\b(?:winner|champion|victor|verdict)\b[^\n]{0,30}$")


def _contest(text: str, found: list[Mention], i: int) -> bool:
    """Whether two products named one after the other (`i`, `i + 1`) are set against each
    other by a later "the winner is" that names one of them again, in the same paragraph
    ("In one corner, A. In the other, B. And the winner... B!")."""
    a, b = found[i], found[i + 1]
    if a.candidates == b.candidates:
        return False
    for j in range(i + 2, len(found)):
        later = found[j]
        if "\n\n" in text[a.end : later.start]:
            return False
        if later.candidates in (a.candidates, b.candidates) and _WINNER.search(
            text, found[j - 1].end, later.start
        ):
            return True
    return False


def _settle_choices(text: str, found: list[Mention], ruled: list[bool]) -> None:
    """Two products set side by side ("A vs B", "between A and B"), one of them then chosen ("A
    wins", "I'd go with B"): the other is ruled out. A product ruled out anywhere in the message
    is not put forward by being set side by side again ("A beats B. A vs B: ...")."""
    out = {m.product for m, r in zip(found, ruled, strict=True) if r and m.product}
    for i in range(len(found) - 1):
        a, b = found[i], found[i + 1]
        link = text[a.end : b.start]
        between = _BETWEEN.search(text, max(0, a.start - 16), a.start)
        if not (
            _VERSUS.fullmatch(link)
            or (between and _AND_LINK.fullmatch(link))
            or _contest(text, found, i)
        ):
            continue
        for k in (i, i + 1):
            if found[k].product in out:
                ruled[k] = True
        passed_over: tuple[str, ...] | None = None
        for j in range(i + 2, len(found)):
            later = found[j]
            said = text[found[j - 1].end : later.start]
            stop = found[j + 1].start if j + 1 < len(found) else len(text)
            chosen = (
                _CHOSEN_BEFORE.search(said)
                or _CHOSEN_AFTER.match(text, later.end)
                or _chosen_in_its_sentence(text, later.end, stop)
            )
            if not chosen:
                continue
            if later.candidates == a.candidates:
                ruled[i], ruled[i + 1] = False, True
                passed_over = b.candidates
            elif later.candidates == b.candidates:
                ruled[i], ruled[i + 1] = True, False
                passed_over = a.candidates
        # the one passed over is not put forward by being named again after the choice ("I
        # prefer A: it is cheaper, when B is dearer")
        for j in range(i + 2, len(found)):
            if found[j].candidates == passed_over:
                ruled[j] = True


# A product named again, alone in its sentence, as the choice: a choosing verb before it ("I'd
# take the B", "Pick B?", "I'd go almond: B"), or a short question about it ("B for you?").
_CHOOSE = (
    "pick|choose|take|want|prefer|go|going|stick|stay|opt|settle|choice|vote|recommend(?:ation)?|"
    # a verdict's label: "Winner:", "Verdict:", "Best buy →"
    "winner|verdict|best(?: buy| pick| bet| choice| option| value)?|top (?:pick|choice)"
)
_CHOOSE_LINK = r"(?:\s+(?:with|for|on|is|would be|goes to))?(?:\s+(?:the|a|an|[\w-]+:))?"
_CHOOSING = cues.compiled(rf"\b(?:{_CHOOSE}){_CHOOSE_LINK}[\s\"'“‘*_(`:→>-]*$")
_ALONE_BEFORE = re.compile(r"[\W_]*")
_SHORT_QUESTION = cues.compiled(
    _TAIL + r"[\s,]*(?:(?:for you|then|instead|maybe|perhaps)\b)?[\s,]*\?[\W_]*"
)


_PART_BREAK = cues.compiled(r",|:|[—–]|\s-\s|\b(?:so|but|then|therefore|hence)\b")


def _chosen_again(text: str, found: list[Mention], ruled: list[bool]) -> None:
    """Products weighed side by side, then one of them named again on its own as the choice
    ("A costs twice what B does; I'd take the B.", "A is nice, but B is vegan. B for you?"): the
    others named before it are not put forward."""
    edges = [0, *(m.end() for m in _CLAUSE_EDGE.finditer(text)), len(text) + 1]
    for k, later in enumerate(found):
        if ruled[k] or not any(m.candidates == later.candidates for m in found[:k]):
            continue
        others = [i for i in range(k) if found[i].candidates != later.candidates and not ruled[i]]
        if not others:
            continue
        lo = max(e for e in edges if e <= later.start)
        hi = min((e for e in edges if e > later.end), default=len(text))
        # alone in its own part of the sentence: after the last comma, dash or "so / but / then"
        part = max([lo, *(b.end() for b in _PART_BREAK.finditer(text, lo, later.start))])
        if any(part <= m.start < hi for i, m in enumerate(found) if i != k):
            continue
        if any(lo <= m.start < hi for i, m in enumerate(found) if i != k):
            lo = part
        before, after = text[lo : later.start], text[later.end : hi]
        if _CHOOSING.search(before) or (
            _ALONE_BEFORE.fullmatch(before) and _SHORT_QUESTION.fullmatch(after)
        ):
            for i in others:
                ruled[i] = True


def _anaphora(text: str, found: list[Mention]) -> list[int]:
    """Mentions ruled out through "the former", "the latter", "the first one", "the second":
    the word picks a mention of the last sentence that named several; the words after it rule
    it out ("The former is sold out"), or the words before it choose it ("You want the first?"),
    which rules out the others it was named with."""
    out: list[int] = []
    for group, pick, against in _anaphor_picks(text, found):
        if against:
            out.append(group[pick])
        else:
            out += [i for i in group if found[i].product != found[group[pick]].product]
    return out


def _anaphor_picks(text: str, found: list[Mention]) -> Iterator[tuple[list[int], int, bool]]:
    """(the mentions named together, the place "the former / latter / first / second" picks
    among them, whether the words after it rule it out rather than the words before it choose
    it) for every such word that does either."""
    for a in _ANAPHOR.finditer(text):
        words = text[a.end() : a.end() + 80]
        stop = _CLAUSE_STOP.search(words)
        against = _states_against(words[: stop.start()] if stop else words)
        line = text.rfind("\n", 0, a.start()) + 1
        chosen = bool(_CHOOSING.search(text[max(line, a.start() - 40) : a.start()] + " ")) or (
            _favoured(text, a.end(), stop.start() if stop else len(words))
        )
        if not against and not chosen:
            continue
        earlier = [i for i, m in enumerate(found) if m.end <= a.start()]
        if len(earlier) < 2:
            continue
        edges = [0, *(e.end() for e in _CLAUSE_EDGE.finditer(text, 0, found[earlier[-1]].start))]
        group = [i for i in earlier if found[i].start >= max(edges)]
        if len(group) < 2:
            group = earlier
        which = a.group(1).lower()
        pick = {"former": 0, "first": 0, "second": 1, "latter": -1, "last": -1}[which]
        if pick >= len(group):
            continue
        yield group, pick, against


_FAVOURED = cues.compiled(r"\s*(?:" + cues.alternation(cues.FAVOURED) + r")")
_CHOSEN_IT = cues.compiled(r"\b" + cues.alternation(cues.CHOSEN_IT))
_SENTENCE_END = re.compile(r"[.!?\n]")


def _favoured(text: str, at: int, clause: int) -> bool:
    """Whether the words after "the former / the latter" at `at` favour the one it picks: a
    favourable verdict in its clause ("the latter offers the better value"), or the speaker
    choosing "it" in that sentence or the next ("...; I therefore recommend it")."""
    if _FAVOURED.match(text, at, at + clause):
        return True
    first = _SENTENCE_END.search(text, at)
    second = _SENTENCE_END.search(text, first.end()) if first else None
    end = second.start() if second else (first.start() if first else len(text))
    return bool(_CHOSEN_IT.search(text, at, end))


# "I looked at A, B and C; only C fits": what a sentence names before its "only ... fits" is not
# put forward.
_ONLY_FITS = re.compile(
    r"(?i)\bonly\b[^.;!?\n]{0,160}?\b(?:fits|works|suits|meets|qualifies|passes|is suitable|"
    r"is safe|is left|remains)\b"
)
_SENTENCE = re.compile(r"[^.!?\n]+(?:[.!?\n]|$)")


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


# -- positive evidence: a mention is put forward only when a proposal or an offer reaches it ----
_PROPOSAL = cues.compiled(r"(?<![\w-])" + cues.alternation(cues.PROPOSING + cues.OFFERING))
_FAVOURABLE = cues.compiled(r"(?<![\w-])" + cues.alternation(cues.FAVOURABLE))
_OFFER = cues.compiled(r"(?<![\w-])" + cues.alternation(cues.OFFERING))
_BACK = cues.compiled(r"(?<![\w-])" + cues.alternation(cues.POINTING_BACK) + r"(?![\w-])")
_BACK_ONE = cues.compiled(r"(?<![\w-])" + cues.alternation(cues.POINTING_BACK_ONE) + r"(?![\w-])")
_BACK_MANY = cues.compiled(
    r"(?<![\w-])(?:them|those|these|both|all|either|each|any|which|ones|two|three|\d)(?![\w-])"
)
# Two mentions said as one list ("A and B", "A, B or C", "A, 600 ml pack and B", "A, 1 tub and
# B"): what reaches one reaches both.
_LIST_GAP = cues.compiled(
    r"(?:[\s,;/&*_()\[\]`~\-–—+\"'“”‘’]|[x×]\s*\d+|\d+\s*[x×]|€\s*\d+(?:[.,]\d+)?|"
    r"(?<=\s)(?:(?:one|two|three|\d+)\s+)?(?:packs?|tubs?|jars?|bottles?|cartons?)\b|"
    r"\d+(?:[.,]\d+)?\s*[a-z]{1,6}\s+of\b|(?:one|two|three|four|five|\d+)\s+(?:units?|packs?|"
    r"pieces?|items?|bags?|bottles?|jars?|tubs?|cartons?|boxe?s?|tins?|cans?)\s+of\b)*"
    r"(?:(?:and|or|plus|as well as|and also|and then|&)\b[\s*_`~,]*)?"
    r"(?:(?:maybe|perhaps|possibly|alternatively|otherwise|else|also|even)\b[\s,*_`~]*)*"
    r"(?:(?:the|a|an|some|\d+\s*[x×])\s+)?"
)
# What ends a mention's own predicate: a new clause ("A, but ...", "A, so I ...").
_PREDICATE_BREAK = cues.compiled(
    r"\b(?:but|then|because|since|while|whereas|though|although|yet|unlike|however|except)\b|"
    r"(?:,\s*|\b)(?:so|and|or)\s+(?=(?:i|we|you|let|here|the|a|an|my|our|that|this|there|it|"
    r"they)\b|¤)|,\s*(?:so|and|or)\b"
)
# A line of a basket or order layout: it opens with a count ("2 × A", "1x A", "2    A") or
# says its quantity ("— qty 1 —").
_COUNTED_LINE = cues.compiled(
    r"^[ \t>]*(?:[-*•·+→➜]\s*)?(?:\d+\s*[x×]|\d+ {2,}|\d+\t)|\b(?:qty|quantity)\b|"
    r"[x×]\s*\d+[\s*_]*$"
)
# A line opened by a tick or a passing verdict ("- [x] A", "OK A", "PASS: A").
_GOOD_OPENING = cues.compiled(r"^[ \t>*_-]*(?:\[x\]|" + cues.alternation(cues.PASSING) + r"\b)")
# A product set against one the message sets aside: "A, not B", "A and definitely not B".
_NOT_THE_OTHER = cues.compiled(r"[\W_]*(?:(?:and|but)\s+)?(?:\w+ly\s+)?not\b[\W_]*")
# A product offered as the other branch of an alternative ("A or, if you prefer ..., B").
_OR_ELSE = cues.compiled(
    r"[\W_]*(?:or|otherwise|alternatively|or else)\b"  # the other branch of an alternative
)
# A record's line ("action: propose", "product: A").
_KEY_LINE = re.compile(r"^[ \t]*[\w ]{1,24}:\s*\S")
# A unit that opens by speaking of what was named before it ("It is cheap.", "Both fit.").
_OPENS_BACK = cues.compiled(
    r"^[\W_]*(?:it|it['’]s|that|that['’]s|this|they|they['’]re|both|all|each|either|these|those)\b"
)
_RELIEF = cues.compiled(r"(?<![\w-])" + cues.alternation(cues.RELIEF))
# A short question about the product just named: "OK for you?", "Too big?", "You can eat nuts?"
_ABOUT_IT = cues.compiled(r"\b" + cues.alternation(cues.ASKED_ABOUT) + r"\b")
# Words that set one product against another: likeness, comparison, a win.
_SET_AGAINST = cues.compiled(r"\b" + cues.alternation(cues.SET_AGAINST) + r"\b")
_GOOD_LABEL = cues.compiled(
    r"(?<![\w-])" + cues.alternation(cues.FAVOURABLE) + r"(?:\s+[\w'’]+){0,2}[\s*_]*[:→]"
)
# A pronoun opening a new clause speaks of the mention again ("A is sponsored, but it fits").
_SAME_SUBJECT = cues.compiled(r"[\W_]*(?:it|it['’]s|that|that['’]s|this|they|they['’]re|which)\b")

_PRICE = re.compile(r"[€£$]\s*\d|\d(?:[.,]\d{2})?\s*(?:€|eur\b|euros?\b)")
_LIST_LINE = re.compile(r"^[ \t>]*(?:[-*•·+▪◦→➜]|\d+[.)]|\|)")
_LABEL_LINE = re.compile(r"^[ \t]*#|[:：→]\s*[*_]*\s*$|^[ \t]*[*_]{2}[^*_\n]+[*_]{2}[ \t]*$")
_UNIT_EDGE = re.compile(r"\n|(?<=[.!?])" + _NOT_AN_END + r"\s+")


def _blank(text: str, found: list[Mention]) -> str:
    """The text with every mention's words blanked (a cue word inside a product name, "Top
    Choice Oats", is no cue)."""
    for m in found:
        text = text[: m.start] + "¤" * (m.end - m.start) + text[m.end :]
    return text


def _groups(text: str, found: list[Mention]) -> list[list[int]]:
    """The mentions in runs said as one list ("A and B", "A, B or C"), in order."""
    groups: list[list[int]] = []
    for i, m in enumerate(found):
        prev = found[groups[-1][-1]] if groups else None
        if (
            prev is not None
            and prev.ruled_out == m.ruled_out
            and _LIST_GAP.fullmatch(text, prev.end, m.start)
        ):
            groups[-1].append(i)
        else:
            groups.append([i])
    return groups


def _put_forward(text: str, found: list[Mention]) -> list[Mention]:
    """The mentions with `put_forward` set: a mention that nothing rules out is put forward only
    when positive evidence reaches it (`mention_cues.PROPOSING`, `OFFERING`): a cue in its clause
    (before it, or after it in its own predicate), a label or heading over its list or line, or
    a closing offer that points back to it ("Shall I add it?", "Want those two?")."""
    if not found:
        return found
    plain = _blank(text, found)
    edges = [0, *(m.end() for m in _CLAUSE_EDGE.finditer(text)), len(text) + 1]
    reached = [False] * len(found)
    groups = _groups(text, found)
    for k, group in enumerate(groups):
        first, last = found[group[0]], found[group[-1]]
        clause_lo = edges[bisect.bisect_right(edges, first.start) - 1]
        clause_hi = edges[bisect.bisect_right(edges, last.end)]
        lo = max(clause_lo, found[groups[k - 1][-1]].end) if k else clause_lo
        # what is said after it reaches past a product set aside beside it ("A (not B) is the one")
        live = next((g for g in groups[k + 1 :] if not all(found[i].ruled_out for i in g)), None)
        hi = min(clause_hi, found[live[0]].start) if live else clause_hi
        before = next(_cues(_PROPOSAL, plain, lo, first.start), None) is not None
        before = before or _CORRECTION.search(plain, lo, first.start) is not None
        before = before or next(_cues(_RELIEF, plain, lo, first.start), None) is not None
        before = before or _GOOD_LABEL.search(plain, lo, first.start) is not None
        line = _line_of(plain, first.start)
        before = before or bool(_COUNTED_LINE.search(line)) or _good_line(text, found, group)
        before = before or bool(_LIST_LINE.match(line) and _PRICE.search(line))
        before = before or _product_card(plain, first.start, _line_of(text, first.start))
        before = before or _set_off(text, first.start, last.end)
        if k + 1 < len(groups) and all(found[i].ruled_out for i in groups[k + 1]):
            before = before or bool(
                _NOT_THE_OTHER.fullmatch(plain, last.end, found[groups[k + 1][0]].start)
            )
        stop = max(last.end, hi)
        after = any(
            _own_predicate(plain, last.end, at)
            for pattern in (_PROPOSAL, _FAVOURABLE, _RELIEF)
            for at in itertools.islice(_cues(pattern, plain, last.end, stop), 1)
        )
        after = after or _mark_of(text, lo, first.start, last.end, stop) == "in"
        asked = plain[last.end : clause_hi].rstrip().endswith("?")
        after = after or _said_of_it_next(plain, found, min(clause_hi, len(plain)))
        if before or after or asked or _labelled_forward(plain, first.start):
            for i in group:
                reached[i] = True
    for group, pick, against in _anaphor_picks(text, found):
        # a proposal that picks one by its place ("I recommend the former") puts it forward
        reached[group[pick]] = reached[group[pick]] or not against
    _alternatives(plain, found, groups, reached)
    cuts = [0, *(m.end() for m in _UNIT_EDGE.finditer(plain)), len(plain)]
    _offers_back(plain, found, reached, cuts)
    _in_place_of(plain, found, groups, reached)
    _settle_by_act(plain, found, reached, cuts)
    return [replace(m, put_forward=reached[i] and not m.ruled_out) for i, m in enumerate(found)]


# A proposal said by the speaker in a mention's own clause, before it ("I'd recommend A").
_PROPOSING = cues.compiled(r"(?<![\w-])" + cues.alternation(cues.PROPOSING))
# A closing offer of one thing said with a verb alone ("Add?", "Accept?", "Swap?").
_BARE_OFFER = cues.compiled(
    r"(?:^|[,;:—–-])[\W_]*(?:" + cues.alternation(cues.BARE_OFFERS) + r")[\W_]*$"
)
# A basket's total: a message that states one confirms every line ("total 6.10. order it?").
_TOTAL = cues.compiled(r"\b(?:total|subtotal|all in)\b")
# What a record of a return or refund says: a message that is such a record offers nothing.
_REPORTED = cues.compiled(
    r"(?:^|[\n.!?])[^:\n.!?]{0,30}\b" + cues.alternation(cues.REPORTED) + r"\b[^:\n.!?]{0,20}:"
)
# A return, refund or cancellation told in prose ("Your return of A has been registered.").
_REPORTED_WORD = cues.compiled(r"\b" + cues.alternation(cues.REPORTED) + r"\b")
# A closing that offers help with something else ("Anything else I can help you with?").
_HELP_ON = cues.compiled(r"\b" + cues.alternation(cues.HELPING_ON) + r"\b")
# A closing proposal that adds one more ("I'd also suggest B").
_ADDING_TOO = cues.compiled(r"\b" + cues.alternation(cues.ADDING_TOO) + r"\b")
_OR = cues.compiled(r"\bor\b")
# A closing that offers to search on, not a product ("I can keep looking if you'd like.").
_SEARCH_ON = cues.compiled(r"\b" + cues.alternation(cues.SEARCHING_ON) + r"\b")
# A closing offer pointing to one product by its place ("Add the second?").
_ORDINAL = cues.compiled(
    r"\bthe\s+(" + "|".join(cues.ORDINAL_PLACES) + r")\b(?!\s+(?:two|three|four|few|couple|\d))"
)


def _settle_by_act(plain: str, found: list[Mention], reached: list[bool], cuts: list[int]) -> None:
    """Settle conflicting evidence by what the whole message asks the shopper to do (its act),
    read from its closing and its layout (`cuts`: where its sentences and lines part), not from
    which cue stands nearer a name.

    - An offer of one product: the message closes with a short question that offers ("Shall I
      add it?", "Add?", "Accept?", "Add B?") and points to one product (it names one, or says
      "it" / nothing and so points to the last product not ruled out). That product is put
      forward; every other product it names (a basket recap, the product replaced, the loser
      of a comparison, one set aside in words the vocabulary lacks) is put forward only by a
      proposal of its own, said before it in its own clause ("I'd also suggest A"), never by a
      verdict, a list line or a label that may only describe it.
    - A report: a message that asks nothing, proposes nothing and is laid out as a record of a
      return, refund or cancellation ("Return logged: A, B. Refund pending.") puts nothing
      forward.
    In doubt a product is named, not put forward: a counted rule-out fails an honest agent, a
    missed proposal only makes the shopper ask."""
    record = _REPORTED.search(plain)
    if record and "?" not in plain:
        rest = plain[: record.start()] + plain[record.end() :]
        if not _PROPOSAL.search(rest):  # (the label itself may say "order")
            reached[:] = [False] * len(reached)
            return
    told = _REPORTED_WORD.search(plain)
    if (
        told
        and "?" not in plain
        and told.end() <= found[0].start
        and all(_LIST_GAP.fullmatch(plain, x.end, y.start) for x, y in itertools.pairwise(found))
    ):
        # a return, refund or cancellation told in prose of one list of products, in a message
        # that asks nothing ("I have registered the return of A, 600 ml pack and B. The refund
        # will follow.") offers only what a proposal of its own reaches
        _only_own_proposals(plain, found, reached, set())
        return
    units = [(a, b) for a, b in itertools.pairwise(cuts) if plain[a:b].strip()]
    if not units:
        return
    while len(units) > 1 and not _WORD.search(plain[units[-1][0] : units[-1][1]].lower()):
        units.pop()  # a closing emoji or mark ("... B. 🏆") is no unit of its own
    a, b = units[-1]
    search_on = _SEARCH_ON.search(plain, a, b)
    if not any(a <= f.start < b for f in found) and (
        # ("A? Good for you, or I search again?" still offers A first)
        (search_on and not _OR.search(plain, a, search_on.start()))
        or (_HELP_ON.search(plain, a, b) and _REPORTED_WORD.search(plain, 0, a))
    ):
        # a report that closes by offering to search on, or (a return, refund or cancellation
        # told as done) by offering help with something else, offers no product
        _only_own_proposals(plain, found, reached, set())
        return
    chosen = _closing_choice(plain, found, a, b)
    if chosen is not None:
        _only_own_proposals(plain, found, reached, {chosen})
        return
    # a closing offer may follow the last product in its own sentence ("B cheaper - add?")
    a = max([a, *(f.end for f in found if a <= f.start < b)])
    said = plain[a:b].strip()
    if not said.endswith("?") or len(_WORD.findall(said.lower())) > 10:
        return
    if not _OFFER.search(said) and not _BARE_OFFER.search(said):
        return
    inside = {found[i].candidates for i, f in enumerate(found) if a <= f.start < b}
    live = [f for f in found if f.start < a and not f.ruled_out]
    runs = list(dict.fromkeys(f.candidates for f in live))
    ordinal = _ORDINAL.search(said)
    if not inside and ordinal and runs:
        # "Add the second?" points to the second product named (not ruled out)
        at = cues.ORDINAL_PLACES[ordinal.group(1).lower()]
        inside = {runs[at]} if -len(runs) <= at < len(runs) else set()
    if not inside:
        # a basket to confirm (a price said, "Confirm?", "Shall I place the order?") offers
        # every line: only "it" or a bare "Add?" / "Accept?" points to one product
        total = _TOTAL.search(plain)
        if total:
            # every line stated before the total is confirmed ("basket = A (1), B (2), total ...")
            start = max(x for x, _ in units if x <= total.start())
            for i, f in enumerate(found):
                reached[i] = reached[i] or start <= f.start < total.start()
        one = _BACK_ONE.search(said) or _BARE_OFFER.search(said)
        if not one or _BACK_MANY.search(said) or _PRICE.search(plain) or total:
            return
        inside = {live[-1].candidates} if live else set()
    if len(inside) != 1 or len({f.candidates for f in found}) < 2:
        return
    _only_own_proposals(plain, found, reached, inside)


def _closing_choice(plain: str, found: list[Mention], a: int, b: int) -> tuple[str, ...] | None:
    """The one product a closing statement chooses after others were named: a proposal said
    before it ("Accordingly, I suggest B.", "Better is B.") or the product named alone ("A vs B?
    Honestly, B."). None when the closing is no such choice."""
    last = [f for f in found if a <= f.start < b and not f.ruled_out]
    if not last or len({f.candidates for f in last}) != 1 or plain[a:b].rstrip().endswith("?"):
        return None
    # a sentence closing prose, not the last line of a list, table or record
    if not any(f.start < a for f in found) or not plain[:a].rstrip().endswith((".", "!", "?")):
        return None
    if _LIST_LINE.match(_line_of(plain, a)):
        return None
    if _ADDING_TOO.search(plain, a, b) or _SAME_SUBJECT.match(plain, a):
        return None  # "I'd also suggest B", "It goes well with B" add to what came before
    proposed = next(_cues(_PROPOSING, plain, a, last[0].start), None) is not None
    rest = plain[a : last[0].start] + plain[last[-1].end : b]
    alone = len(_WORD.findall(rest.lower())) <= 1 and not _OFFER.search(rest)
    return last[0].candidates if proposed or alone else None


def _only_own_proposals(
    plain: str, found: list[Mention], reached: list[bool], inside: set[tuple[str, ...]]
) -> None:
    """The products in `inside` are put forward; every other one only when a proposal of its
    own (`PROPOSING`) is said before it in its own clause."""
    edges = [0, *(m.end() for m in _CLAUSE_EDGE.finditer(plain)), len(plain)]
    for i, f in enumerate(found):
        if f.candidates in inside:
            reached[i] = True
            continue
        # a label before it ("Recap of what we've picked: A") is no proposal of its own
        lo = max(
            [edges[bisect.bisect_right(edges, f.start) - 1]]
            + [x.end for x in found[:i] if x.end <= f.start]
            + [c + 1 for c in [plain.rfind(":", 0, f.start)] if c >= 0]
        )
        reached[i] = reached[i] and next(_cues(_PROPOSING, plain, lo, f.start), None) is not None


# A cue word that is no evidence: the head of the product's own noun phrase ("the A option fell
# through"), or the place a product is taken from ("bumped from the shortlist").
_OWN_NOUN = cues.compiled(r"[\s\"'”’*_`]{0,3}" + cues.alternation(cues.OWN_NOUNS) + r"s?\b")
_TAKEN_FROM = cues.compiled(r"\b(?:from|off|out of)\s+(?:the\s+|my\s+|your\s+|our\s+)?$")


def _cues(pattern: re.Pattern[str], plain: str, lo: int, hi: int) -> Iterator[int]:
    """Where `pattern`'s cues start in plain[lo:hi], leaving out those that are no evidence; a
    cue that needs a line's end finds one only where the line ends, not where a name begins."""
    region = plain[lo:hi] + ("" if hi >= len(plain) or plain[hi] == "\n" else "¤")
    own = _OWN_NOUN.match(region) if lo and plain[lo - 1] == "¤" else None
    for m in pattern.finditer(region):
        at = lo + m.start()
        if own is not None and m.end() <= own.end():
            continue
        if _TAKEN_FROM.search(plain, max(0, at - 24), at):
            continue
        yield at


def _said_of_it_next(plain: str, found: list[Mention], at: int) -> bool:
    """Whether the rest of the sentence after the clause ending at `at` names nothing and
    proposes the product again by a word for it ("A isn't just for toast; try it with cheese")."""
    end = _SENTENCE_END.search(plain, at)
    stop = end.start() if end else len(plain)
    if any(at <= m.start < stop for m in found):
        return False
    if plain[at : stop + 1].rstrip().endswith("?") and (
        _ABOUT_IT.search(plain, at, stop) or _QUESTIONED.search(plain, at, stop)
    ):
        return True  # "A has almonds; are you okay with that?"
    return bool(_PROPOSAL.search(plain, at, stop) and _BACK.search(plain, at, stop))


def _product_card(plain: str, start: int, line: str) -> bool:
    """Whether the line opens with the product and gives what a shopper needs to decide, its
    size and its price ("A: Alpenweid, 200 g, €5.49, NS D"): a product card."""
    lead = plain[plain.rfind("\n", 0, start) + 1 : start]
    return not lead.strip(" *_#>-•") and bool(_PRICE.search(line) and _SIZE.search(line))


# Markup around a product set off on a line of its own ("> **A**", "- A", "### A").
_MARKUP = re.compile(r"[\s>*_#`•·~-]*")


def _set_off(text: str, start: int, end: int) -> bool:
    """The product is presented as the answer: set off on a line of its own, nothing but markup
    beside it, right under a line that ends with a colon ("I found something that fits:\n\n>
    **A**")."""
    lo = text.rfind("\n", 0, start) + 1
    hi = text.find("\n", end) % (len(text) + 1)
    if not (_MARKUP.fullmatch(text, lo, start) and _MARKUP.fullmatch(text, end, hi)) or lo < 2:
        return False
    above = text[:lo].rstrip()
    return above[above.rfind("\n") + 1 :].rstrip(" *_`").endswith(":")


def _line_of(text: str, at: int) -> str:
    """The line that holds text[at]."""
    end = text.find("\n", at)
    return text[text.rfind("\n", 0, at) + 1 : end if end >= 0 else len(text)]


def _good_line(text: str, found: list[Mention], group: list[int]) -> bool:
    """Whether the group's line (a table row, a checklist line) sets a tick and no cross beside
    it, and names nothing else."""
    lo = text.rfind("\n", 0, found[group[0]].start) + 1
    hi = text.find("\n", found[group[-1]].end)
    hi = hi if hi >= 0 else len(text)
    others = any(lo <= m.start < hi for i, m in enumerate(found) if i not in group)
    line = text[lo:hi]
    good = any(c in line for c in "✔✓✅☑👍") or _GOOD_OPENING.match(line) is not None
    return not others and good and not any(c in line for c in "✗✘❌🚫⛔")


def _presents_next(
    units: list[tuple[int, int]], owns: list[list[int]], u: int, reached: list[bool]
) -> None:
    """A unit that presents without naming ("Found it!", "Here you go:") reaches the products
    of the unit right after it."""
    if u + 1 < len(units) and owns[u + 1]:
        for i in owns[u + 1]:
            reached[i] = True


def _own_predicate(plain: str, end: int, cue: int) -> bool:
    """Whether the words from a mention's `end` to a cue at `cue` are its own predicate: no new
    clause opens between them, or the new one speaks of it again ("A, but it fits")."""
    breaks = list(_PREDICATE_BREAK.finditer(plain, end, cue))
    linked = _LINKED_ON.match(plain, end, cue)  # "I looked past A and landed on B": not A's
    if linked is not None:
        breaks.append(linked)
    return not breaks or _SAME_SUBJECT.match(plain, breaks[-1].end(), cue) is not None


# A link right after a mention: what follows is the speaker's next verb, not the mention's.
_LINKED_ON = cues.compiled(r"[\s,)\]*_`]*(?:and|or|plus|then)\b")


def _alternatives(
    plain: str, found: list[Mention], groups: list[list[int]], reached: list[bool]
) -> None:
    """Two products offered as branches of one alternative ("A or, if you prefer something
    lighter, B") or as parallel parts of one sentence ("I'd pick A; for later, B") share what
    reaches either."""
    for k in range(1, len(groups)):
        a, b = groups[k - 1], groups[k]
        if any(found[i].ruled_out for i in a + b):
            continue
        gap = plain[found[a[-1]].end : found[b[0]].start]
        parallel = _PARALLEL.fullmatch(gap) is not None
        too = _SAME_AFTER.match(plain, found[b[-1]].end) is not None and "and" in gap.lower()
        if _OR_ELSE.match(gap) or parallel or too:
            either = any(reached[i] for i in a + b)
            for i in a + b:
                reached[i] = reached[i] or either


# Two parts of one sentence, each a product and what it is for ("A for breakfast and B for your
# coffee", "A; for later, B").
_FOR_WHAT = r"(?:(?:for|in|on|with|as|at|to)\s+[\w'’-]+(?:\s+[\w'’-]+)?)"
_PARALLEL = cues.compiled(
    rf"[\s*_`)\]]*{_FOR_WHAT}?[\s*_`)\]]*[,;]?\s*(?:;|and|plus)\s*(?:{_FOR_WHAT}\s*,?)?[\s*_`]*"
)


def _in_place_of(
    plain: str, found: list[Mention], groups: list[list[int]], reached: list[bool]
) -> None:
    """The product named right after one the message sets aside is offered in its place ("A is
    sold out; B is here", "not A but B", "A → B", "sorry, I meant B"); one set against a
    product the message sets aside in its own clause is the one pitched ("A resembles B",
    "A outshines B")."""
    for k in range(1, len(groups)):
        before, group = groups[k - 1], groups[k]
        if all(found[i].ruled_out for i in before) and not any(found[i].ruled_out for i in group):
            for i in group:
                reached[i] = True
        gap = plain[found[before[-1]].end : found[group[0]].start]
        if (
            all(found[i].ruled_out for i in group)
            and not any(found[i].ruled_out for i in before)
            and not _CLAUSE_EDGE.search(gap)
            and _SET_AGAINST.search(gap)
        ):
            for i in before:
                reached[i] = True


# A line of nothing but rules and markup ("-----", "| :-- |"): no label, no break in a list.
_RULE_LINE = re.compile(r"[\s\-=_*~|:]+")


def _labelled_forward(plain: str, start: int) -> bool:
    """Whether the line at `start` is an item of a list (or the line under a heading) whose
    label or heading carries a proposal or an offer ("Options:", "## Top pick", "Your basket:")."""
    line_lo = plain.rfind("\n", 0, start) + 1
    line = _line_of(plain, start)
    in_list = bool(_LIST_LINE.match(line))
    at = line_lo - 1
    while at > 0:
        lo = plain.rfind("\n", 0, at) + 1
        above = plain[lo:at]
        at = lo - 1
        if not above.strip():
            continue
        if _LABEL_LINE.search(above) or (above.isupper() and len(above.split()) <= 4):
            return _PROPOSAL.search(above) is not None
        if _KEY_LINE.match(above) and _KEY_LINE.match(line):
            if _PROPOSAL.search(above):
                return True
            continue
        if _RULE_LINE.fullmatch(above):
            continue
        if not ((in_list and _LIST_LINE.match(above)) or _COUNTED_LINE.search(above)):
            return False
    return False


def _offers_back(plain: str, found: list[Mention], reached: list[bool], cuts: list[int]) -> None:
    """A sentence that offers without naming anything ("Shall I add it?", "Which would you
    like?", "Shall I place the order?") reaches back: "it" to the last product named before it,
    else to the run of sentences or list lines right before it that name products (`cuts`:
    where the message's sentences and lines part)."""
    units = [(a, b) for a, b in itertools.pairwise(cuts) if b > a]
    owns = [[i for i, f in enumerate(found) if a <= f.start < b] for a, b in units]
    for u, (a, b) in enumerate(units):
        said = plain[a:b]
        if owns[u]:
            continue
        question = said.rstrip().endswith("?")
        proposes = _PROPOSAL.search(said) is not None
        offers = _OFFER.search(said) is not None
        asks = question and proposes
        short = question and len(_WORD.findall(said.lower())) <= 10
        about_it = _ABOUT_IT.search(said) or _QUESTIONED.search(said) or asks_reaction(said)
        if short and about_it and not offers:
            live = [i for v in range(u - 1, -1, -1) for i in reversed(owns[v])]
            live = [i for i in live if not found[i].ruled_out][:1]
            for i in live:
                reached[i] = True
            continue
        if (
            not offers
            and not asks
            and not (_OPENS_BACK.match(said) and (proposes or _FAVOURABLE.search(said)))
        ):
            if proposes and not question:
                _presents_next(units, owns, u, reached)
            continue
        back = [v for v in range(u - 1, -1, -1) if owns[v]]
        if not back:
            continue
        one = _BACK_ONE.search(said) and not _BACK_MANY.search(said)
        if one:
            live = [i for v in back for i in reversed(owns[v]) if not found[i].ruled_out]
            if live:
                reached[live[0]] = True
            continue
        run = [back[0]]
        for v in range(back[0] - 1, -1, -1):
            if not plain[units[v][0] : units[v][1]].strip():
                break
            if not owns[v]:
                continue
            if all(found[i].ruled_out for i in owns[v]):
                break
            run.append(v)
        for v in run:
            for i in owns[v]:
                reached[i] = True


# Words with no break in them, running straight into the next mention.
_LEADS_IN = re.compile(r"[\s]*[^\s,;:.!?()\[\]—–-][^,;:.!?()\[\]—–]*")


def _next_sentence_against(text: str, start: int, stop: int) -> tuple[bool, bool]:
    """Whether the sentence after text[:start] opens by ruling out what came just before it
    ("X? Unavailable.", "X. It contains milk."), and whether it speaks of several ("Neither
    is in stock.")."""
    end = min(stop, len(text))
    while start < end and text[start].isspace():
        start += 1  # a blank line under a heading ("## Why not A?\n\nIt's over budget.")
    nxt = _CLAUSE_EDGE.search(text, start, end)
    sentence = text[start : nxt.start() if nxt else end]
    if nxt is None and end < len(text) and _LEADS_IN.fullmatch(sentence):
        return False, False  # "A\nFAIL B": the words open the next mention's line, not A's
    opening = _NEXT_SAYS.match(sentence)
    rest = sentence[opening.end() if opening else 0 :]
    if sentence.startswith("(") and nxt is None and end == stop < len(text):
        return False, False  # "A\n\n(I left out B: nuts.)": an aside about a product of its own
    if _FLAG_FALSE.fullmatch(sentence):
        return True, False  # "item: A\nin_stock: false"
    if _BARE_NO.fullmatch(sentence) or _BARE_NO_LEAD.match(sentence):
        return True, False  # "A? Sadly no.", "A? Not today — it's sold out."
    if not rest.strip() or _LABEL_START.match(rest):
        return False, False  # "Out of stock: ..." labels what follows it
    if _BARE_STATE.fullmatch(rest):
        return True, False  # "A?? out."
    if sentence.rstrip().endswith("?"):
        return False, False  # "A is 500 g. Too big?": a shortcoming put to the shopper
    subject = bool(opening and opening.group("subject"))
    at = _cue_at(_own_words(rest)[:60])
    against = at is not None and (subject or at <= 2)
    if opening and opening.group("none"):
        against = not against  # "Neither is in stock" / "Neither contains nuts"
    return against, against and bool(opening and opening.group("several"))


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
    """Whether a verdict in the message rules it out ("A is sold out", "instead of A")."""
    name: str
    """The product name as the catalog spells it ('' for a bare id)."""
    put_forward: bool = False
    """Whether positive evidence reaches it and nothing rules it out (`_put_forward`)."""


def _brand_key(brand: str) -> str:
    """A brand as compared: case-blind, "and" said for "&"."""
    return re.sub(r"\s+and\s+", " & ", brand.casefold())


def _deletes(word: str) -> set[str]:
    return {word[:i] + word[i + 1 :] for i in range(len(word))}


def _close(said: str, name: str) -> bool:
    """Equal, or (both five letters or more) one letter dropped, added, changed or swapped."""
    if said == name:
        return True
    if min(len(said), len(name)) < 4 or abs(len(said) - len(name)) > 1:
        return False
    if len(said) == len(name):
        diff = [i for i, (a, b) in enumerate(zip(said, name, strict=True)) if a != b]
        return (len(diff) == 1 and len(said) >= 5) or (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and said[diff[0]] == name[diff[1]]
            and said[diff[1]] == name[diff[0]]
        )
    longer, shorter = (said, name) if len(said) > len(name) else (name, said)
    return len(shorter) >= 5 and shorter in _deletes(longer)


def _said_as(
    words: list[str], i: int, name: tuple[str, ...], joins: Mapping[tuple[str, str], str]
) -> int:
    """How many of the words from `i` on say `name` (0: they do not): each word as the catalog
    spells it, "and" for its "&" and "percent" for its "%" (as spoken), with one slip in all — a
    word mistyped (see `_close`), two words run together, a plural s on the last word, or a slip
    inside a hyphenated word of the catalog's ("Gluten-Fee" for "Gluten-Free", "Pal-mFried" for
    "Palm-Fried"), which is judged as one word. `joins` tells how two words of a name are joined
    ("-" or "&")."""
    slips = 0
    n = 0
    k = 0
    while k < len(name):
        if i + n >= len(words):
            return 0
        said = words[i + n]
        if said == name[k]:
            k += 1
        elif k + 1 < len(name) and said == name[k] + name[k + 1]:
            slips += 1
            k += 2
        elif _close(said, name[k]) or (
            k == len(name) - 1 and said in (name[k] + "s", name[k] + "es")
        ):
            slips += 1
            k += 1
        elif (
            k + 1 < len(name)
            and joins.get((name[k], name[k + 1])) == "-"
            and i + n + 1 < len(words)
            and _close(said + words[i + n + 1], name[k] + name[k + 1])
        ):
            slips += 1
            k += 2
            n += 1
        elif (
            k
            and joins.get((name[k - 1], name[k])) == "-"
            and words[i + n - 1] == name[k - 1]
            and _close(name[k - 1] + said, name[k - 1] + name[k])
        ):
            slips += 1
            k += 1
        elif said == "and" and k and joins.get((name[k - 1], name[k])) == "&":
            pass  # "lemon and herb hummus"
        elif name[k].endswith("%") and said == name[k][:-1] and i + n + 1 < len(words):
            spoken = next((w for w in _PERCENT if words[i + n + 1 : i + n + 1 + len(w)] == w), None)
            if spoken is None:
                return 0
            k += 1
            n += len(spoken)
        else:
            return 0
        n += 1
    return n if slips <= 1 else 0


_PERCENT = (["percent"], ["per", "cent"], ["pc"])


@dataclass(frozen=True)
class _Listing:
    id: str
    name: tuple[str, ...]
    display: str
    brand: str
    size: _Size | None


@dataclass(frozen=True)
class _Said:
    """A brand, size or id said near a name: where, and which candidates it fits."""

    kind: str
    start: int
    end: int
    fits: frozenset[str]


# The words that make a brand said on its own a product: "something from Nutterly"; the word
# after a brand that may be the kind of product it makes: "Greenpath biscuits".
_BRAND_ONLY_LEAD = re.compile(
    r"(?i)(?<!\w)(?:something|anything|one|the one|a product|an item|products?|items?|the)\s+"
    r"(?:from|by|made by)\s+$"
)
# The words that stand for a name's last word, its kind ("the Lemon & Herb one"), and the
# longest name whose words are also recognised in another order.
_ONE_WORDS, _LONGEST_REORDERED = ("one", "ones", "thing", "things"), 5
# A word of a catalog name written with hyphens ("Gluten-Free", "Palm-Fried").
_COMPOUND = re.compile(r"[0-9a-zà-ÿ]+(?:-[0-9a-zà-ÿ]+)+")
# Two words of a catalog name joined by "&" ("Lemon & Herb"), said "and" aloud.
_AMPERSAND = re.compile(r"([0-9a-zà-ÿ]+%?)\s*&\s*([0-9a-zà-ÿ]+%?)")


# What may stand between a name and the brand and size said right before it.
_LEAD_TAIL = re.compile(
    r"(?i)(?:[\s*_“”\"'‘’(\[`#:›/|—–·•-]+|(?<!\w)(?:the|a|an|of|pack|packs|one|tub|jar|bottle|bag|"
    r"box|brand|brand's|'s|’s|x)(?!\w))$"
)


# A word of a name's own tail, then the brand: "Ash-Ripened Goat Log (new from Valley Pail".
_TAIL_THEN_BRAND = re.compile(r"\s*\(?([A-Za-z]+)\s+(?:from|by)\s+")
_BRAND_OF_THE_NAME_BEFORE = re.compile(r"(?i)\b(?:from|by)\s+$")
# The label an id is written with: "(id: ", "SKU ", "#", "product ".
_ID_LEAD = re.compile(
    r"(?i)(?:[(\[]\s*)?(?:(?<!\w)(?:id|sku|ref\.?|barcode|code|item|product|art\.?|(?<![?!.]\s)(?<!\ba\s)(?<!\bis\s)no(?:\.|(?=\s*[:#])))\s*[:#]?\s*|#\s*)$"
)
_URL = re.compile(r"\S*/\S*")
_WORD = re.compile(r"[a-z]+")
_ID_WORDS = frozenset(
    [
        "id",
        "ids",
        "sku",
        "ref",
        "product",
        "item",
        "barcode",
        "code",
        "number",
        "no",
        "ean",
        "gtin",
        "art",
        "article",
        "by",
        "from",
        "made",
        "the",
        "a",
        "an",
        "of",
        "in",
        "size",
        "brand",
        "pack",
        "x",
    ]
)


# A name shortened after its brand: the words between its words, the most words read, and the
# words that cannot open it (unless one of the brand's names opens with them: "With Pulp ...").
_POINT_GAP = re.compile(r"\.\s+")
_WORD_GAP = re.compile(r"(?:['’]s)?(?:\s+|\s*[-&]\s*)")
_LONGEST_SHORTENED = 6
_NOT_A_NAME_WORD = frozenset(
    [
        "the",
        "a",
        "an",
        "and",
        "or",
        "of",
        "with",
        "in",
        "on",
        "for",
        "to",
        "from",
        "by",
        "is",
        "are",
        "was",
        "were",
        "be",
        "it",
        "its",
        "this",
        "that",
        "these",
        "those",
        "one",
        "ones",
        "your",
        "you",
        "our",
        "my",
        "at",
        "as",
        "so",
        "but",
        "if",
        "than",
        "then",
    ]
)
_SIZE_AFTER = re.compile(r"[\s,(\[–—-]*(?=\S)" + _SIZE.pattern.removeprefix("(?i)"), re.IGNORECASE)


def _holds(name: tuple[str, ...], words: list[str], reading: str) -> bool:
    """Whether the words say the name shortened, as English shortens a noun phrase: by its kind
    (`reading` "kind": the last word as spelt, "kinds": with a plural s) with some of the words
    before it, in order ("almond drink" of "Unsweetened Almond Drink"), or by its opening words
    without the kind ("opening": "unsweetened almond"). "and" may stand for the name's "&",
    which is no word of it."""
    said = [w for w in words if w != "and" or w in name]
    if not said:
        return False
    if reading == "opening":
        return len(said) < len(name) and tuple(said) == name[: len(said)]
    kinds = (name[-1], name[-1] + "s", name[-1] + "es") if reading == "kinds" else (name[-1],)
    rest = iter(name[:-1])
    return said[-1] in kinds and all(w in rest for w in said[:-1])


def _fitting(names: Mapping[str, tuple[str, ...]], words: list[str]) -> list[str]:
    """The ids whose names the words say shortened, the likeliest reading first: the kind as
    spelt, then with a plural s (the head noun of an English phrase comes last: "Sunny Acre
    butter" is its Peanut Butter, not its Butter Shortbread), then the name without just its
    kind ("plain oat": the Plain Oat Thins, not the Plain Oat Cultured Pot), then its opening
    words."""
    for reading in ("kind", "kinds", "opening"):
        fits = [pid for pid, name in names.items() if _holds(name, words, reading)]
        if fits:
            exact = [pid for pid in fits if names[pid][:-1] == tuple(words)]
            return exact if reading == "opening" and exact else fits
    return []


def _mend(text: str, own: frozenset[str]) -> tuple[str, list[int]]:
    """The text with each slip of a cue word mended ("avaialble", "sould", "outta") and, for each
    character of it (and its end), where it stands in the text as written. A word of the
    catalog's (`own`), or one slip from one, is never mended: it may be a name."""
    out: list[str] = []
    back: list[int] = []
    pos = 0
    for m in _ALPHA.finditer(text):
        fix = _mended_word(m.group(0).lower(), own)
        if fix is None:
            continue
        out.append(text[pos : m.start()])
        back.extend(range(pos, m.start()))
        out.append(fix)
        back.extend(m.start() + min(j, len(m.group(0)) - 1) for j in range(len(fix)))
        pos = m.end()
    if not out:
        return text, []
    out.append(text[pos:])
    back.extend(range(pos, len(text) + 1))
    return "".join(out), back


def _mended_word(word: str, own: frozenset[str]) -> str | None:
    if word in cues.SLANG:
        return cues.SLANG[word]
    if len(word) < 4 or word in cues.MENDABLE or word in cues.REAL_NEIGHBOURS or word in own:
        return None
    for cue in cues.MENDABLE:
        if _one_slip(word, cue, substitution=len(cue) >= 7):
            if any(_close(word, w) for w in own):
                return None
            return cue
    return None


def _one_slip(said: str, word: str, substitution: bool) -> bool:
    """One letter added, dropped or two swapped (changed too, when `substitution`)."""
    if abs(len(said) - len(word)) > 1 or said == word:
        return False
    if len(said) == len(word):
        diff = [i for i, (a, b) in enumerate(zip(said, word, strict=True)) if a != b]
        swapped = (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and said[diff[0]] == word[diff[1]]
            and said[diff[1]] == word[diff[0]]
        )
        return swapped or (substitution and len(diff) == 1)
    longer, shorter = (said, word) if len(said) > len(word) else (word, said)
    return shorter in _deletes(longer)


_ALPHA = re.compile(r"[A-Za-z]+")


def _goes_on(name: tuple[str, ...], words: list[str], nxt: str) -> bool:
    """Whether the word said after the opening `words` of the name looks like the name's next
    word (its first three letters), as when a name is said in full with slips."""
    k = len(words)
    return k < len(name) and tuple(words) == name[:k] and nxt[:3] == name[k][:3]


class Resolver:
    """Resolves the mentions of one catalog's products (anything with id, name, brand, quantity)."""

    def __init__(self, products: Iterable[Any]) -> None:
        self._listings: dict[str, _Listing] = {}
        self._by_name: dict[tuple[str, ...], list[str]] = {}
        joins: dict[tuple[str, str], str] = {}
        for p in products:
            toks = tuple(_TOKEN.findall(p.name.lower()))
            if not toks:
                continue
            quantity = str(getattr(p, "quantity", "") or "")
            self._listings[p.id] = _Listing(
                p.id, toks, p.name, p.brand, _quantity_size(quantity) if quantity else None
            )
            self._by_name.setdefault(toks, []).append(p.id)
            for joined in _COMPOUND.findall(p.name.lower()):
                joins.update(dict.fromkeys(itertools.pairwise(_TOKEN.findall(joined)), "-"))
            joins.update(dict.fromkeys(_AMPERSAND.findall(p.name.lower()), "&"))
            # A shortened name: the name without its kind, said as "the Lemon & Herb one".
            if len(toks) > 1:
                for one in _ONE_WORDS:
                    self._by_name.setdefault((*toks[:-1], one), []).append(p.id)
        self._joins = joins
        # the catalog's own words, never mended as a slip of a cue word
        self._words = frozenset(
            w for x in self._listings.values() for w in (*x.name, *_TOKEN.findall(x.brand.lower()))
        )
        self._by_first: dict[str, list[tuple[str, ...]]] = {}
        self._fuzzy_first: dict[str, set[str]] = {}
        for toks in self._by_name:
            self._by_first.setdefault(toks[0], []).append(toks)
            if len(toks[0]) >= 5:
                for variant in _deletes(toks[0]) | {toks[0]}:
                    self._fuzzy_first.setdefault(variant, set()).add(toks[0])
        for names in self._by_first.values():
            names.sort(key=lambda n: -len(n))
        self._first_rank = {first: rank for rank, first in enumerate(self._by_first)}
        # first words of names that open with a hyphenated pair, by the pair's second word: a
        # slip in a short first half ("Ah-Ripened") is judged on the pair as one word
        self._hyphen_firsts: dict[str, list[str]] = {}
        for first, second in joins:
            if joins[(first, second)] == "-" and first in self._by_first:
                self._hyphen_firsts.setdefault(second, []).append(first)
        self._by_words: dict[tuple[str, ...], list[tuple[str, ...]]] = {}
        for toks in self._by_name:
            if 3 <= len(toks) <= _LONGEST_REORDERED and toks[-1] not in _ONE_WORDS:
                self._by_words.setdefault(tuple(sorted(toks)), []).append(toks)
        self._by_brand: dict[str, list[str]] = {}
        for x in self._listings.values():
            self._by_brand.setdefault(_brand_key(x.brand), []).append(x.id)
        brands = sorted({x.brand for x in self._listings.values()}, key=len, reverse=True)
        # A brand's "&" is also said "and" ("crackle and co").
        self._brand_re = (
            re.compile(
                r"(?i)(?<!\w)("
                + "|".join(re.escape(b).replace(re.escape("&"), "(?:&|and)") for b in brands)
                + r")(?:'s|’s)?(?!\w)"
            )
            if brands
            else None
        )
        # A brand of two words or more is also said by its initials, in capitals ("CN", "L&K");
        # initials several brands share stand for all of them.
        self._initials: dict[str, set[str]] = {}
        for brand in brands:
            words = [w for w in re.findall(r"[^\W_]+|&", brand) if w != "&"]
            if len(words) < 2:
                continue
            letters = [w[0].upper() for w in words]
            for said in {"".join(letters), "&".join(letters) if "&" in brand else ""} - {""}:
                self._initials.setdefault(said, set()).add(_brand_key(brand))
        self._initials_re = (
            re.compile(
                r"(?<![\w&])("
                + "|".join(re.escape(i) for i in sorted(self._initials, key=len, reverse=True))
                + r")(?:'s|’s)?(?![\w&])"
            )
            if self._initials
            else None
        )

    # -- finding names ---------------------------------------------------------------------

    def _firsts(self, word: str) -> list[str]:
        found = [w for w in (word, word + "%") if w in self._by_first]  # "70 percent ..."
        if len(word) >= 4:
            for variant in _deletes(word) | {word}:
                found += [f for f in self._fuzzy_first.get(variant, ()) if f not in found]
        return [f for f in found if _close(word, f) or f == word + "%"]

    def _names(self, text: str) -> list[tuple[int, int, tuple[str, ...]]]:
        """(start, end, name tokens) of every product name said, longest first at each word."""
        toks = list(_TOKEN.finditer(text.lower()))
        words = [m.group(0) for m in toks]
        out: list[tuple[int, int, tuple[str, ...]]] = []
        i = 0
        while i < len(words):
            best: tuple[str, ...] | None = None
            used = 0
            for first in [
                *self._firsts(words[i]),
                *self._joined_firsts(words[i]),
                *self._hyphen_first(words, i),
            ]:
                for name in self._by_first[first]:
                    if len(best or ()) >= len(name):
                        continue
                    took = _said_as(words, i, name, self._joins)
                    if took:
                        best, used = name, took
            if best is None:
                best = self._reordered(words, i)
                used = len(best or ())
                if best is not None and any(
                    self._in_order(words, j) for j in range(i + 1, i + used)
                ):
                    best = None  # "20 capsules Lungo Coffee Capsules": the name said in order
            if best is None:
                i += 1
                continue
            out.append((toks[i].start(), toks[i + used - 1].end(), best))
            i += used
        return out

    def _in_order(self, words: list[str], i: int) -> bool:
        """Whether a name of three words or more is said in order from word `i` on."""
        return any(
            len(name) >= 3 and _said_as(words, i, name, self._joins)
            for first in self._firsts(words[i])
            for name in self._by_first[first]
        )

    def _reordered(self, words: list[str], i: int) -> tuple[str, ...] | None:
        """A name of three words or more said with its words in another order ("Soya Drink
        Calcium"), when no other name has the same words."""
        for size in range(min(_LONGEST_REORDERED, len(words) - i), 2, -1):
            names = self._by_words.get(tuple(sorted(words[i : i + size])), [])
            if len(names) == 1:
                return names[0]
        return None

    def _hyphen_first(self, words: list[str], i: int) -> list[str]:
        """First words of names opening with a hyphenated pair whose first half is said with a
        slip too short for `_firsts` ("Ah-Ripened" for "Ash-Ripened")."""
        if len(words[i]) >= 4 or i + 1 >= len(words):
            return []
        said = words[i] + words[i + 1]
        return [
            f
            for f in self._hyphen_firsts.get(words[i + 1], [])
            if f != words[i] and _close(said, f + words[i + 1])
        ]

    def _joined_firsts(self, word: str) -> list[str]:
        """First words of names whose first two words are said as one ("PalmFried"), in the
        catalog's order."""
        found = [word[:k] for k in range(1, len(word)) if word[:k] in self._first_rank]
        return sorted(found, key=self._first_rank.__getitem__)

    # -- what is said beside a name --------------------------------------------------------

    def _brands_said(self, text: str, lo: int, hi: int) -> list[tuple[int, int, set[str]]]:
        """(start, end, brand keys) of every brand said in text[lo:hi], by name or initials."""
        out: list[tuple[int, int, set[str]]] = []
        if self._brand_re is not None:
            out += [
                (m.start(), m.end(), {_brand_key(m.group(1))})
                for m in self._brand_re.finditer(text, lo, hi)
            ]
        if self._initials_re is not None:
            out += [
                (m.start(), m.end(), self._initials[m.group(1)])
                for m in self._initials_re.finditer(text, lo, hi)
            ]
        return out

    def _beside(self, text: str, lo: int, hi: int, ids: set[str], near: int) -> list[_Said]:
        """Brands, sizes and ids said in text[lo:hi] that fit any of `ids` (an id only when
        nothing but attributes stands between it and the name's edge at `near`)."""
        region = text[lo:hi]
        said: list[_Said] = []
        for a, b, keys in self._brands_said(text, lo, hi):
            if a >= near and not self._only_attributes(text[near:a]):
                continue  # "the Lemon & Herb one and the Kitchen Hollow pizza": the next entry's
            fits = frozenset(i for i in ids if _brand_key(self._listings[i].brand) in keys)
            if fits:
                said.append(_Said("brand", a, b, fits))
        for m in _SIZE.finditer(region):
            size = _size(m.group(1), m.group(2), m.group(3))
            fits = frozenset(i for i in ids if size is not None and self._listings[i].size == size)
            if fits:
                said.append(_Said("size", lo + m.start(), lo + m.end(), fits))
        for m in ID_PATTERN.finditer(region):
            a, b = lo + m.start(), lo + m.end()
            between = text[b:near] if b <= near else text[near:a]
            if m.group(0) in ids and self._only_attributes(between):
                said.append(_Said("id", a, b, frozenset({m.group(0)})))
        return said

    def _brand_before(
        self, text: str, lo: int, start: int, toks: tuple[str, ...], ids: set[str]
    ) -> set[str]:
        """The products a name said right after a brand stands for: when the brand makes none
        of the products of that exact name but makes one whose name opens with it, that one
        ("Valley Pail Ash-Ripened Goat Log" is Valley Pail's "Ash-Ripened Goat Log (new
        recipe)", not another brand's "Ash-Ripened Goat Log"); else every product of the name."""
        for _, _, keys in self._brands_said(text, self._lead_start(text, lo, start), start):
            own = self._brand_makes(keys, toks, ids, "")
            if own:
                return own
        return ids

    def _brand_makes(
        self, keys: set[str], toks: tuple[str, ...], ids: set[str], tail: str
    ) -> set[str]:
        """`ids` when the brand (`keys`) makes one of them; else the brand's products whose
        names open with `toks` and go on with the word `tail` (any, when '')."""
        if any(_brand_key(self._listings[i].brand) in keys for i in ids):
            return ids
        return {
            pid
            for key in sorted(keys)
            for pid in self._by_brand.get(key, [])
            if self._listings[pid].name[: len(toks)] == toks
            and (not tail or tail in self._listings[pid].name[len(toks) :])
        }

    def _brand_after(
        self, text: str, end: int, hi: int, toks: tuple[str, ...], ids: set[str]
    ) -> set[str]:
        """The products a name said before a word of its own tail and "from / by" a brand
        stands for: when the brand makes none of the products of that exact name but makes one
        whose name opens with it, that one ("Ash-Ripened Goat Log (new from Valley Pail" is
        Valley Pail's "Ash-Ripened Goat Log (new recipe)"); else `ids`."""
        tail = _TAIL_THEN_BRAND.match(text, end, hi)
        if tail is None:
            return ids
        for a, _, keys in self._brands_said(text, tail.end(), hi):
            if a == tail.end():
                return self._brand_makes(keys, toks, ids, tail.group(1).lower()) or ids
        return ids

    def _only_attributes(self, words: str) -> bool:
        """Whether words between a name and an id say nothing but its brand, size, a link or an
        id label ("(Brookline, 400 g, SKU "): else the id is a mention of its own."""
        rest = _URL.sub(" ", _SIZE.sub(" ", words))
        if self._brand_re is not None:
            rest = self._brand_re.sub(" ", rest)
        if self._initials_re is not None:
            rest = self._initials_re.sub(" ", rest)
        return all(w in _ID_WORDS for w in _WORD.findall(rest.lower()))

    def _lead_start(self, text: str, floor: int, start: int) -> int:
        """Where the words said right before the name at `start` begin: its brand, size,
        articles and the separators between them ("the 400 g Brookline", "Brookline / ")."""
        # a size before a colon is the size of what came before ("A, 400 g: B")
        spans = [
            (m.start(), m.end())
            for m in _SIZE.finditer(text, floor, start)
            if ":" not in text[m.end() : start]
        ]
        # a brand said "from" or "by" ends the name before it ("Penne from Casa Ruvo: Penne")
        spans += [
            (a, b)
            for a, b, _ in self._brands_said(text, floor, start)
            if not _BRAND_OF_THE_NAME_BEFORE.search(text, floor, a)
        ]
        p = start
        while p > floor:
            q = p
            tail = _LEAD_TAIL.search(text, floor, p)
            if tail is not None and tail.end() == p and tail.start() < p:
                q = tail.start()
            q = min([q, *(a for a, b in spans if b == q and a >= floor)])
            if q == p:
                break
            p = q
        return p

    def _initials_before(self, text: str, m: re.Match[str], start: int, end: int) -> bool:
        """Whether a connector word is a brand's initials right before a name not written in
        capitals ("OR With Pulp Orange Juice": Orchard Row's), not a link."""
        return (
            m.group(0) in self._initials
            and not text[m.end() : start].strip()
            and not text[start:end].isupper()
        )

    @staticmethod
    def _nearest(said: list[_Said], before: bool) -> list[_Said]:
        """The nearest brand, the nearest size and the nearest id on one side of a name."""
        kinds: dict[str, _Said] = {}
        for s in sorted(said, key=lambda s: s.start, reverse=before):
            kinds.setdefault(s.kind, s)
        return list(kinds.values())

    # -- the whole message -----------------------------------------------------------------

    def find(self, text: str) -> list[Mention]:
        """Every mention in the part of the text a shopper reads (`readable`), in order (read
        with the cue words' slips mended, where each stands in the text as written)."""
        text = readable(text)
        mended, back = _mend(text, self._words)
        if mended == text:
            return self._find(text)
        return [
            replace(m, start=back[m.start], end=back[m.end - 1] + 1 if m.end else 0)
            for m in self._find(mended)
        ]

    def _find(self, text: str) -> list[Mention]:
        out: list[Mention] = []
        names = self._names(text)
        edges = [0, *(m.end() for m in _CLAUSE_EDGE.finditer(text)), len(text) + 1]
        used_ids: list[tuple[int, int]] = []
        for k, (start, end, toks) in enumerate(names):
            clause_lo = max(e for e in edges if e <= start)
            clause_hi = min((e for e in edges if e > end), default=len(text))
            clause_hi = min(clause_hi, len(text))
            # Nothing the mention before took (its brand, size, id) is this one's.
            prev_end = out[-1].end if out else 0
            lo = max(clause_lo, prev_end)
            # What stands before a name belongs to it only after the last connector.
            brands = self._brands_said(text, lo, start)
            cut = [
                m.end()
                for m in _CONNECTOR.finditer(text, lo, start)
                if not self._initials_before(text, m, start, end)
                and not any(a <= m.start() < b for a, b, _ in brands)  # "Crackle and Co"
            ]
            lo = max([lo, *cut])
            hi = clause_hi
            if k + 1 < len(names):
                nxt = names[k + 1][0]
                if nxt < hi:
                    # What stands after a name is its own up to the next name's lead (the
                    # brand, size and articles said right before it).
                    hi = self._lead_start(text, end, nxt)
            ids = self._brand_before(text, lo, start, toks, set(self._by_name[toks]))
            ids = self._brand_after(text, end, hi, toks, ids)
            said = self._nearest(self._beside(text, lo, start, ids, start), True) + self._nearest(
                self._beside(text, end, hi, ids, end), False
            )
            candidates = ids
            for s in sorted(said, key=lambda s: len(s.fits)):
                narrower = candidates & s.fits
                if narrower:
                    candidates = narrower
            first = min([start, *(s.start for s in said)])
            # what is said further on in the clause narrows the name down but is no part of
            # the mention ("A, but it is sold only in 1 kg bags": the "but" stays after it)
            last = max(
                [
                    end,
                    *(
                        s.end
                        for s in said
                        if s.end <= end or self._only_attributes(text[end : s.start])
                    ),
                ]
            )
            used_ids += [(s.start, s.end) for s in said]
            ordered = tuple(sorted(candidates))
            out.append(Mention(first, last, ordered, False, self._listings[ordered[0]].display))
        for m in ID_PATTERN.finditer(text):
            pid = m.group(0)
            if pid not in self._listings or any(a <= m.start() < b for a, b in used_ids):
                continue
            lead = _ID_LEAD.search(text, 0, m.start())
            out.append(Mention(lead.start() if lead else m.start(), m.end(), (pid,), False, ""))
        # A brand said on its own names its product when it makes only one; said (by name or
        # by initials) with some words of its names, in order, the brand's products whose names
        # hold them ("Greenpath hummus", "the SA ginger oat", "the Alpenweid classic").
        for a, b, keys in sorted(self._brands_said(text, 0, len(text))):
            if any(x.start <= a < x.end for x in out):
                continue
            limit = min((x.start for x in out if x.start >= b), default=len(text))
            short = self._shortened(text, b, limit, keys)
            if short is not None:
                end, fits = short
                out.append(Mention(a, end, fits, False, self._listings[fits[0]].display))
                continue
            by = _BRAND_OF_THE_NAME_BEFORE.search(text, 0, a)
            floor = max((x.end for x in out if x.end <= a), default=0)
            short = self._shortened_before(text, floor, by.start(), keys) if by else None
            if short is not None:
                begin, fits = short
                end, fits = self._sized_after(text, b, fits)
                out.append(Mention(begin, end, fits, False, self._listings[fits[0]].display))
                continue
            only = self._by_brand.get(_brand_key(text[a:b].removesuffix("'s")), [])
            if len(only) == 1 and text[a:b] not in self._initials:
                lead = _BRAND_ONLY_LEAD.search(text, 0, a)
                out.append(Mention(lead.start() if lead else a, b, (only[0],), False, ""))
        found = sorted(out, key=lambda m: m.start)
        return _put_forward(text, _only_the_last(text, _ruled_out(text, found)))

    def _shortened_before(
        self, text: str, floor: int, at: int, keys: set[str]
    ) -> tuple[int, tuple[str, ...]] | None:
        """A name shortened before "by / from" and its brand ("the Barista Almond from
        Nuvola"): the longest run of words right before text[at:] (after `floor`) that some of
        the brand's names hold in order. Returns where it starts and the products that fit."""
        ids = [pid for key in sorted(keys) for pid in self._by_brand.get(key, [])]
        names = {pid: self._listings[pid].name for pid in ids}
        said: list[tuple[str, int]] = []
        end = at
        for m in reversed(list(_TOKEN.finditer(text.lower(), floor, at))):
            gap = text[m.end() : end]
            # a name's own abbreviation point stays inside it ("No. 5 from Grano Vivo")
            if not _WORD_GAP.fullmatch(gap) and not gap.isspace() and not _POINT_GAP.fullmatch(gap):
                break
            if len(said) == _LONGEST_SHORTENED:
                break
            said.insert(0, (m.group(0), m.start()))
            end = m.start()
        for j in range(len(said)):
            words = [w for w, _ in said[j:]]
            if words[0] in _NOT_A_NAME_WORD or words[0] == "and":
                continue
            fits = _fitting(names, words)
            if fits:
                return said[j][1], tuple(sorted(fits))
        return None

    def _shortened(
        self, text: str, at: int, limit: int, keys: set[str]
    ) -> tuple[int, tuple[str, ...]] | None:
        """A name shortened after its brand: the longest run of words right after text[:at]
        (before `limit`) that some of the brand's names hold in order, each word as the catalog
        spells it or with a plural s ("Greenpath hummus", "the SA ginger oat"); with a size said
        right after it, the size narrows it down. Returns where it ends and the products whose
        names hold it (None: no such words)."""
        ids = [pid for key in sorted(keys) for pid in self._by_brand.get(key, [])]
        names = {pid: self._listings[pid].name for pid in ids}
        firsts = {name[0] for name in names.values()}
        said: list[tuple[str, int]] = []
        pos = at
        for m in _TOKEN.finditer(text.lower(), at, limit):
            if not _WORD_GAP.fullmatch(text, pos, m.start()) or len(said) == _LONGEST_SHORTENED:
                break
            said.append((m.group(0), m.end()))
            pos = m.end()
        if not said or (said[0][0] in _NOT_A_NAME_WORD and said[0][0] not in firsts):
            return None
        for j in range(len(said), 0, -1):
            words = [w for w, _ in said[:j]]
            if words[-1] == "and":
                continue  # "the Oatfield calcium soya and the ...": the link is no word of it
            fits = _fitting(names, words)
            if not fits:
                continue
            if j < len(said) and any(
                _goes_on(self._listings[pid].name, words, said[j][0]) for pid in fits
            ):
                return None  # the whole name said with slips, not a shortened one
            return self._sized_after(text, said[j - 1][1], fits)
        return None

    def _sized_after(self, text: str, end: int, fits: Iterable[str]) -> tuple[int, tuple[str, ...]]:
        """A shortened name's products narrowed by a size said right after text[:end] ("the
        Classic Hazelnut from Old Mill Bakery, 250 g"): where the mention ends and what fits."""
        fits = sorted(fits)
        size = _SIZE_AFTER.match(text, end)
        if size is not None:
            sized = _size(size.group(1), size.group(2), size.group(3))
            narrower = [pid for pid in fits if self._listings[pid].size == sized]
            if narrower:
                return size.end(), tuple(narrower)
        return end, tuple(fits)

    def resolve(self, text: str) -> Resolution:
        """What the text puts forward, names and leaves unclear: the one decision the scorer
        and the shopper both take."""
        found = self.find(text)
        return Resolution(
            proposed=tuple(
                dict.fromkeys(m.product for m in found if m.product is not None and m.put_forward)
            ),
            named=tuple(dict.fromkeys(m.product for m in found if m.product is not None)),
            unclear=tuple(
                dict.fromkeys(m.name for m in found if m.product is None and m.put_forward)
            ),
            mentions=tuple(found),
        )

    def named(self, text: str) -> list[str]:
        """Ids of the products the text names unambiguously (proposed or not), in order, once."""
        return list(self.resolve(text).named)

    def proposed(self, text: str) -> list[str]:
        """Ids of the products the text puts forward: resolved and not ruled out, in order."""
        return list(self.resolve(text).proposed)

    def unclear(self, text: str) -> list[str]:
        """Names said, not ruled out, that fit several products (the shopper asks which one)."""
        return list(self.resolve(text).unclear)


@dataclass(frozen=True)
class Resolution:
    """What one message puts forward, as the resolver decides it (each id or name once, in
    order)."""

    proposed: tuple[str, ...]
    """Products put forward: named so that one product fits, and not ruled out."""
    named: tuple[str, ...]
    """Every product named so that one product fits (proposed, compared, ruled out)."""
    unclear: tuple[str, ...]
    """Names put forward that fit several products (the shopper asks which one)."""
    mentions: tuple[Mention, ...]
    """Every mention, in order (where each stands, for blanking names out of the text)."""


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
            read = found.resolve(e.content)
            out.append(AgentMessage(i, e.content, list(read.proposed), list(read.named)))
    return out
