"""The words that rule a product mention out, as documented vocabulary: what a shop assistant says
before or after a product it names without putting it forward.

Five kinds of cue, each a short list of phrases (regular-expression fragments, matched case-blind):

- `STATES`: a state of the product that rules it out, said after it ("is sold out", "over your
  budget", "already in your basket") or as a list label before it ("Out of stock: ..."). Said
  under a negation ("isn't too pricey", "not out of stock") it rules nothing out.
- `NEGATED`: a good state or a choosing verb under a negation ("isn't available", "doesn't fit",
  "not vegan", "no longer stocked", "couldn't find").
- `CONTAINS`: a verb of content before an allergen ("contains milk", "may contain traces of
  nuts"); under a negation, or with "no"/"free" between, it rules nothing out.
- `BEFORE`: words that rule out the product right after them, a few words of filler allowed
  ("instead of", "rather than", "skip", "swap out", "avoid", "than", "your usual", "not the").
- `SELF_EXCLUDED`: the assistant saying it set the product aside ("so I skipped it").
- `CORRECTIONS` ("sorry, I meant B") rule out the mention before them; `QUESTIONED` ("A isn't
  organic, does that matter?") leaves a shortcoming put as a question ruling nothing out.
- `BARE_STATES`: a sentence that is nothing but a state ("A?? out.") rules out what ends the
  sentence before it.
- `HELD_LABELS`, `HELD_BEFORE`, `HELD_AFTER`: what the shopper already holds (a basket recap:
  "So far in your basket:", "you've already got A", "A is already sitting in your cart"). Recalled
  beside a new proposal it is named, not put forward; a recap that is the whole message (a basket
  to confirm) still puts every line forward.
- `WINNING`, `CHOSEN_LATER`: the words that choose one of two products set side by side ("B takes
  the crown", "B edges it", "..., so that's the one I'd pick").
- `FAVOURED`, `CHOSEN_IT`: a favourable verdict or the speaker's choice of "it" after "the
  former / the latter", which picks that one and passes the other over ("the latter offers the
  better value; I recommend it").
- `PICK_MARKS`: a choice marked at the end of one line of a list of alternatives ("B: low sugar ←
  my pick"): the other lines are passed over.
- `HISTORY_PLACES`: where the shopper's past orders are kept ("in your past three orders"): a
  product found there was bought, not put forward.
- `CONTENT_VERBS`, `AMOUNTS`: content said in more of the usual ways than `CONTAINS` ("hides a
  bit of soya", "is loaded with dairy", "there's milk in A").

The words that put a product forward (positive evidence: a product named with none of them
reaching it is named, not put forward):

- `PROPOSING`: a proposal in the policy's sense: recommending, suggesting, picking, a choice or
  an option, trying, "how about", a product that suits, fits or matches what the shopper asked,
  a best match, "here is", a replacement offered in place of another; with `WINNING`,
  `FAVOURED` and `PICK_MARKS` (a choice is a proposal).
- `OFFERING`: an offer or a confirmation about the product: adding, ordering, the basket,
  confirming, "shall I", "would you like", wanting, a question whether it will do.
- `FAVOURABLE`: a favourable verdict on the product, said after it: it is in stock, safe for
  the shopper, free of an allergen, within the budget, cheaper, a close equivalent, "a yes"
  (the good side of the states `STATES` and `NEGATED` speak of).
- `RELIEF`: a shortcoming denied ("not too sweet", "no nuts", "never out of stock", "nothing to
  worry about", "you can't go wrong with"): favourable, before or after the product.
- `ASKED_ABOUT`: the words of a short question about the product just named ("OK for you?",
  "Too big?", "Still within budget?"): it points back to that product.
- `SET_AGAINST`: likeness, comparison or a win between two products ("A resembles B", "A
  outshines B"): set against one the message sets aside, the other is the one pitched.
- `OWN_NOUNS`: cue nouns that, right after a name, head the product's own phrase ("the A option
  fell through"): no evidence. `PASSING`: a passing verdict opening a checklist line ("OK A").
- `POINTING_BACK`: the words of a closing offer that point back to products named before it
  ("Shall I add it?", "Want those two?"); `POINTING_BACK_ONE` the ones that point to one.

The words that tell the whole message's act, which settles conflicting evidence
(`domains.grocery.mentions` reads the act from the message's closing and layout):

- `BARE_OFFERS`: a closing offer said with a verb alone ("Add?", "Accept?", "Yes?"): an offer of
  one product, the last one named, like "Shall I add it?".
- `NEW_SIDE_KEYS`: the key of an exchange record's line naming what the shopper gets
  ("Replace with:"): that line is offered, though the record also names what goes back.
- `SEARCHING_ON`: a closing that offers to search on ("I can keep looking"): a report of a
  search, which puts forward only what a proposal of its own reaches.
- `ADDING_TOO`: a closing proposal that adds one more ("I'd also suggest B"): not a choice
  among what came before, which keeps its own evidence.
- `HELPING_ON`: a closing that offers help with something else ("Anything else?"): after a
  return, refund or cancellation told as done ("Your return of A has been registered"), a report.
- `ORDINAL_PLACES`: a closing offer pointing to one product by its place ("Add the second?").
- `REPORTED`: the words of a return's, refund's or cancellation's record label ("Return
  logged:"): a message laid out as such a record, asking and offering nothing, is a report and
  puts nothing forward.

Everything here is about the product the cue stands next to: which mention that is (clause,
list and negation scope) is decided by `domains.grocery.mentions`.
"""

from __future__ import annotations

import re

from domains.grocery.items import ALLERGENS

__all__ = [
    "ADDING_TOO",
    "ALLERGEN_WORDS",
    "AMOUNTS",
    "ASKED_ABOUT",
    "BARE_OFFERS",
    "BARE_STATES",
    "BEFORE",
    "CHOSEN_IT",
    "CHOSEN_LATER",
    "COMPARATIVES",
    "CONTAINS",
    "CONTENT_VERBS",
    "CORRECTIONS",
    "FAVOURABLE",
    "FAVOURED",
    "HELD_AFTER",
    "HELD_BEFORE",
    "HELD_HEADINGS",
    "HELD_LABELS",
    "HELPING_ON",
    "HISTORY_PLACES",
    "NEGATED",
    "NEGATION",
    "NEW_SIDE_KEYS",
    "OFFERING",
    "ORDINAL_PLACES",
    "OWN_NOUNS",
    "OWN_VERBS",
    "PASSING",
    "PICK_MARKS",
    "PLANT_MILKS",
    "POINTING_BACK",
    "POINTING_BACK_ONE",
    "PREFERRING",
    "PROPOSING",
    "QUESTIONED",
    "RELIEF",
    "REPORTED",
    "SEARCHING_ON",
    "SELF_EXCLUDED",
    "SET_AGAINST",
    "STATES",
    "WINNING",
    "alternation",
    "compiled",
]

# The declared allergens' names and the everyday words for them ("contains nuts").
ALLERGEN_WORDS = sorted(
    {a.replace("-", " ") for a in ALLERGENS}
    | {"wheat", "shellfish", "eggs?", "peanuts?", "soy", "soya", "dairy", "lactose", "nuts?"}
    | {"hazelnuts?", "almonds?", "sesame", "sulphites?", "sulfites?", "traces?", "allergens?"}
    | {"milk", "gluten", "mustard", "celery", "fish", "crustaceans?", "lupin", "molluscs?"}
    | {"cashews?", "walnuts?", "pecans?", "pistachios?", "tree nuts?", "cream", "butter"}
)

# A negation in front of a word: "not", "isn't", "never", "no longer".
NEGATION = (
    r"(?:not|never|neither|nor|no longer|no|n[o']t|isn'?t|aren'?t|wasn'?t|weren'?t|doesn'?t|don'?t|didn'?t|"
    r"won'?t|wouldn'?t|can'?t|cannot|couldn'?t|shouldn'?t|hasn'?t|haven'?t|ain'?t|non(?= ))"
).replace("'", "['’]")

# Words after "too" that say no excess: "too good to miss", "vegan too and cheap", "too bad".
_NOT_EXCESS = (
    r"(?:good|great|nice|tasty|delicious|lovely|perfect|tempting|yummy|cute|fun|cool|handy|bad|"
    r"and|or|but|so|if|as|is|are|was|were|be|for|with|to|in|on|at|by|the|a|an|you|we|it|they|"
    r"that|this|these|btw|tbh|lol|haha|though|tho|then|now|here|there|please|pls|thanks|because|"
    r"since|which|when|while|many|imo)"
)

# What went wrong with a product the shopper received: "arrived damaged", "was leaking".
_FAULTS = (
    r"(?:damaged|broken|crushed|dented|leaking|leaky|spoiled|spoilt|squashed|smashed|torn|mouldy|"
    r"moldy|expired|cracked|faulty|defective|melted|stale|rotten|contaminated|out of date|"
    r"past (?:its|the) (?:best[- ]before|use[- ]by|sell[- ]by|expiry)(?: date)?|"
    r"the wrong (?:item|product|one|size|flavou?r))"
)

# What a budget is called: "your budget", "the €5 cap", "your ceiling".
# Words for "before now" and for a count of orders: "your recent deliveries", "past three orders".
_EARLIER = r"(?:last|previous|past|earlier|recent|prior|former|older)"
_SEVERAL = r"(?:two|three|four|five|six|few|couple(?: of)?|several|many|\d+)"
# Where the shopper's purchase history is kept: "in your past three orders", "in your order history".
HISTORY_PLACES = (
    rf"(?:order|purchase|buying|shopping) history|{_EARLIER}(?: {_SEVERAL})? (?:orders?|purchases?|"
    r"deliver(?:y|ies)|baskets?|shops?|trolleys?|carts?)"
)
_BUDGET = r"(?:budget|limit|price range|spending limit|cap|ceiling|maximum|max|spend)"

STATES: tuple[str, ...] = (
    r"out[- ]of[- ](?:the )?stock",
    # a shelf or stock with nothing on it: "A empty", "A: nil"
    r"(?:(?:is|are|was|were|['’]s) )?(?:now |all )?(?:empty|nil)\b",
    r"sold[- ](?:out|off)",
    # stock words in other registers: "missing from the shelf", "in shortage", "depleted"
    r"missing from (?:the |our )?(?:shel(?:f|ves)|stock|store|shop|range|catalog(?:ue)?)",
    r"(?:in|on) (?:shortage|short supply)|(?:stock|shelf|shelves)(?: is| are)? (?:empty|bare)",
    r"(?:exhausted|depleted|lacking)\b",
    # gone from the shelf in livelier words: "has vanished", "got snapped up", "flew off the shelf"
    # withdrawn by the maker or the shop: "was recalled"
    r"(?:was|were|has been|have been|got|is being) (?:recalled|withdrawn|banned|blocked|suspended)",
    # what disagreed with the shopper: "gave you trouble", "upset your stomach"
    r"gave you (?:trouble|problems|grief|a (?:reaction|rash|headache|stomach ?ache))|"
    r"upset your (?:stomach|tummy)|disagreed with you",
    r"(?:vanished|disappeared|gone missing|snapped up|cleared out|wiped out|nowhere to be (?:found|seen)|"
    r"(?:flew|flown) off (?:the |our )?shel(?:f|ves))",
    # a fault in what the shopper received
    rf"(?:arrived|came|turned up|was delivered|got delivered|showed up|reached you)\s+(?:\w+\s+)?{_FAULTS}",
    rf"(?:is|was|were|are|got|has been|had been)\s+(?:\w+\s+)?{_FAULTS}",
    r"(?:there is|there['’]s|there are|is|are) no more(?=\s*(?:[.,;:!?)\]—–-]|$))",
    r"unavailable",
    r"discontinued",
    r"delisted",
    r"(?:pulled|withdrawn|removed|dropped|taken|gone) (?:from|off|out of) (?:the|our|its|your) "
    r"(?:range|shelves|shelf|catalog(?:ue)?|store|shop|assortment|list|basket|cart|order)",
    r"(?:on|in) (?:your|the) (?:avoid|no|do[- ]not[- ]buy|exclusion|blocked|banned|no[- ]go) list",
    r"withdrawn",
    r"back[- ]?ordered|on back[- ]?order",
    # not yet on the shelf: "shows as 'coming soon'", "awaiting stock", "due back"
    r"coming soon|not (?:yet )?(?:released|launched)|(?:due|expected) (?:back|in)\b|"
    r"awaiting (?:stock|delivery|restock)|pre-?order only",
    r"off (?:the|your) (?:list|menu|shelf|shelves|table)",
    r"off[- ]limits",
    # "A is off" (not stocked, or not for you); "off to", "off for" go somewhere
    r"(?:is|are|['’]s|['’]re) off\b(?!\s+(?:to|for|on|the charts|the scale)\b|-\w)",
    r"ruled out",
    r"rul(?:e|es|ed|ing) (?:it|them|that|this)(?: one)? out",
    # the runner-up: "A came close, but ..."
    r"(?:came|comes|coming) (?:a )?close(?: second)?\b|(?:was|is|['’]s) (?:a )?close second|runner[- ]up",
    r"excluded",
    r"rejected",
    r"crossed (?:it )?off",
    r"unsuitable",
    r"unsafe",
    r"a no[- ]go",
    r"(?:is|['’]s) a (?:no|nope)\b(?:(?=\s+(?:on|for|from)\b)|(?![- ]\w))",
    # a verdict with a word of degree: "a definite no", "a hard pass", "a firm no-go"
    r"(?:is|['’]s) (?:a |an )?(?:definite|firm|hard|clear|big|straight|total|flat) "
    r"(?:no|nope|no-go|pass)\b(?:(?=\s+(?:for|from)\b)|(?![- ]\w))",
    r"(?:is|['’]s) a (?:no|nope|pass|hard no) (?:from (?:me|us)|for (?:me|you|us))\b",
    r"no good",
    # over the budget, as English says it: a preposition or a price comparative ("than" often
    # misspelt "that" or "then") before the budget, limit, cap or price range
    r"(?:over|above|beyond|outside|exceeds?|exceeding|out of|past|(?:more|higher|pricier|dearer|"
    r"costlier|more expensive|more costly) th[ae][nt]) (?:your |ur |the |our )?"
    rf"(?:€\s?\d+(?:[.,]\d+)?\s*)?{_BUDGET}",
    r"over budget",
    # the budget exceeded, said with a sign: "A: €6.90 > budget"
    rf">\s*(?:the |your |ur )?{_BUDGET}\b",
    r"(?:over|above|beyond|past) (?:the |your )?€\s?\d+(?:[.,]\d+)? (?:you|limit|budget|cap|max)",
    r"(?:too|2) (?:expensive|pricey|pricy|dear|costly|much|high|steep|sugary|sweet|salty|fatty|"
    r"processed|rich|heavy)",  # "2": texting
    # too much of any quality ("too bland", "a little too spicy for you"): an adjective after
    # "too" ends its clause or is said "for" someone ("too popular to stay long" praises);
    # "too" meaning "also" precedes no adjective
    rf"too (?!{_NOT_EXCESS}\b)[a-z]{{3,}}(?=\s*(?:[.,;:!?)\]—–-]|$)|\s+(?:for|imo|tbh|though|"
    r"tho|and|but|so|compared|in|on)\b)",
    r"overpriced|(?:poor|bad) value|a rip-?off",
    r"(?:below|under|beneath|short of) (?:your|the) (?:minimum|min|target|standard|threshold|bar)",
    r"(?:i|we)['’]?d (?:leave|give) (?:it|that|this|them)(?: one)?"
    r"(?=\s*(?:[.,;!?—–-]|$)|\s+(?:out|aside|a miss|on the shelf|behind)\b)",
    r"oos\b",  # out of stock, in shop shorthand
    r"(?:0|zero|none|nothing) (?:left|in stock|available|on the shel(?:f|ves)|there|here)\b",
    # dear for the budget said with any word of price: "a bit steep for your budget"
    r"(?:steep|pricey|pricy|expensive|dear|costly|much|high|rich|a stretch|pushing it) for "
    r"(?:your|the|ur) (?:budget|limit|wallet|price range|spend)",
    r"(?:no|zero|nil)(?: more| further)? stock\b",
    # losing a comparison or missing a bar: "A lost out on sugar", "fell short on your minimum"
    r"(?:lost|loses|lose|losing) (?:out\b|on (?:price|taste|sugar|salt|value|quality|points))|"
    r"(?:fell|falls|fall|falling) short\b|(?:didn['’]t|doesn['’]t|did not|does not) make the cut",
    # a poor verdict on it in everyday words: "A is overrated", "a letdown"
    r"over-?rated|over-?hyped|a (?:let-?down|disappointment)\b|disappointing|"
    r"not (?:all )?(?:that|it['’]s) cracked up to be",
    # likened by kinship, said after the product's name: "B's cooler cousin", "B's younger sibling"
    r"['’]s (?:[\w-]+ )?(?:cousin|sibling|twin|relative|counterpart|look-?alike|double|sister|brother)\b",
    r"a (?:miss|wide berth)\b",
    # naming it was the error: "A was a mistake", "A was included by mistake", "... was wrong"
    r"(?:was|is|were) (?:an? |my )?(?:error|mistake|typo|slip|oversight|mix-?up)\b",
    r"(?:was|were) (?:\w+ )?(?:listed|named|mentioned|included|added|suggested|sent|written|put) "
    r"(?:by mistake|in error|by accident|accidentally|wrongly|mistakenly)",
    r"(?:was|were) (?:wrong|incorrect|a wrong (?:one|pick|item|product))\b",
    # stock said to be lacking in any register: "without stock", "unstocked", "stock is zero"
    r"without (?:any )?stock\b(?! (?:issues?|problems?|worries|concerns?|troubles?))",
    r"(?:un|de)stocked|delisted",
    r"stock(?: level| count)?(?: is| are| at| =|:)?\s*(?:zero|0|nil|empty|none|finished|over|exhausted|"
    r"depleted|gone|used up)\b",
    # found in the shopper's history after it: "I see A in your past three orders"
    r"in (?:your|the shopper['’]s|the) (?:" + HISTORY_PLACES + r")",
    r"was (?:my|our|the) (?:first|initial|original|earlier|old) (?:thought|idea|pick|choice|instinct|plan)",
    r"(?:in )?rupture of stock",  # the French "en rupture de stock"
    r"(?:more|above|over|beyond) (?:than )?what you (?:wanted|want|hoped|planned|asked|said|"
    r"set|had in mind)",
    # a diet it breaks, said as what it is: "it's dairy", "is meat"
    r"(?:is|are|(?:it|that|this)['’]s|they['’]re) (?:a |pure |all |real )?(?:dairy|meat|pork|beef|"
    r"animal[- ](?:based|derived)|"
    r"non[- ]vegan|non[- ]vegetarian)\b(?![- ]free)",
    r"(?:costs?|is|are|comes? in) (?:you )?(?:a bit |slightly |much |well )?(?:more|pricier|dearer|"
    r"higher) than (?:you|your|what you)",
    r"pricier than (?:you|your|what you)",
    rf"(?:break|breaks|blow|blows|bust|busts|exceeds?|tops?) (?:your|the|ur) (?:€\s?\d+(?:[.,]\d+)? ?)?{_BUDGET}",
    # most of the budget used up: "would eat up most of your budget"
    rf"(?:eat|eats|eating|use|uses|using|take|takes|taking|swallow|swallows) up (?:most|all|much|a lot|"
    rf"half|the bulk) of (?:your|the|ur) {_BUDGET}",
    r"(?:is|are|r|was|were|went|'s|’s) (?:\w+ly )?out\b(?! of (?!stock))",
    r"[—–?:]+\s*(?:\w+ly |all |now )?(?:out|gone|finish(?:ed)?|sold out|none left)\b(?! of (?!stock))",
    r"all gone\b",
    r"(?:is|are|['’]s) (?:now |all )?finish(?:ed)?\b",
    r"(?:we|i) (?:have|got) (?:no more|none left)",
    r"we(?: are|['’]re) (?:all )?out\b(?! of)",
    r"(?:we|i) (?:don['’]?t|do not) have (?:it |them |this |that )?(?:now|any ?more|at the moment|"
    r"today|right now)",
    # the product first, then what the shop lacks: "A we do not have", "A we don't stock"
    r"(?:we|i|the shop|the store) (?:don['’]?t|do not|not|no longer|cannot|can['’]?t) (?:have|stock|"
    r"carry|sell|get|offer)(?: (?:it|them|that|this))?(?: (?:today|now|right now|at the moment|any ?more|"
    r"this week))?(?=\s*(?:[.,;!?)]|$))",
    r"(?:was|is) a (?:typo|mistake|slip)",
    r"(?:that|this|which|it)(?: one)?['’]s (?:all |now |completely |sadly )?(?:gone|out|finished)"
    r"\b(?! of (?!stock))",
    r"(?:have|has|we've|we have|shop has|store has)? ?(?:run|ran) out",
    r"(?:run|ran|running|runs|gone|went) (?:dry|empty)",
    r"(?:is|are|was|were|['’]s) (?:all |now |completely )?gone\b",
    r"(?:goes|go|going|went|will go|comes|coming) back\b(?! in(?:to)? stock| on (?:the |our )?shel)",
    r"no (?:more|longer) (?:in|at|on) (?:the |our )?(?:store|shop|stock|shel(?:f|ves)|range)",
    r"(?:was|were|is|are|has been|have been|got|been|will be|is to be|is being) (?:now |being )?(?:removed|dropped|deleted|"
    r"cancell?ed|taken (?:off|out)|swapped out|replaced|struck off|crossed off|returned|refunded|"
    r"sent back|taken back|exchanged|collected)",
    r"already (?:in|on) (?:your |the )?(?:basket|cart|trolley|order|list)",
    r"already there",
    r"(?:which|that|what) you (?:don['’]?t|didn['’]?t|do not|did not) (?:like|want|enjoy|eat)",
    r"what you (?:bought|ordered|had|returned|got)",
    r"(?:was|is) your (?:previous|last|old|usual|original)",
    r"(?:you['’]re|you are|being|we['’]re) (?:swapping|replacing|returning|exchanging)",
    r"(?:replaced|swapped|exchanged|traded) (?:by|with|for|out)",
    r"(?:gets|get|got) (?:swapped|replaced|exchanged|dropped|removed)",
    r"makes? way for",
    r"(?:a )?(?:bad|poor|wrong) (?:fit|choice|match|pick|option|idea)",
    r"lacks?\b",
    r"n/a\b",
    r"[❌✗✘🚫⛔]",
    r"already (?:added|ordered|bought|have)",
    r"you (?:already )?(?:ordered|bought|had|returned|got|purchased)",
    r"(?:which|that) you (?:ordered|bought|had|returned|wanted|asked for|usually|normally|got|"
    r"mentioned|purchased|received)",
    r"you (?:received|were sent)",
    r"from (?:your |the )?(?:last |previous |past |earlier |recent |latest )?orders?\b",
    r"(?:did not|didn['’]?t|does not|doesn['’]?t) make the cut",
    r"fails? (?:your|the)",
    r"(?:i|we)['’]?d (?:avoid|skip|pass on)",
    # the agent is still to search: what it praised is the shopper's own ("A is so good, ok
    # searching")
    r"(?:ok(?:ay)?|now|let me|i['’]ll|i will)[ ,]+(?:go )?search(?:ing)?\b",
)

NEGATED: tuple[str, ...] = (
    r"(?:be )?(?:available|disponible|disponibile|obtainable|on hand|in (?:the )?stock|stocked|sold here|"
    r"here|there(?: any ?more)?|carried|on sale|an option|"
    r"on (?:our|the) shel(?:f|ves)|in (?:our|the) (?:range|assortment|selection|catalog(?:ue)?|"
    r"inventory|store|shop)|(?:buy|order|get|deliver|supply)(?=\s*(?:[.,;!?]|$))|on (?:our|the) (?:list|menu)|"
    r"(?:suitable|safe|right|allowed|permitted)(?: for (?:you|vegans|vegetarians|coeliacs))?|"
    r"vegan|vegetarian|organic|halal|kosher|(?:\w+[- ])?free|gluten[- ]free|dairy[- ]free|"
    r"nut[- ]free|within (?:your |the )?budget|affordable|recommended|possible|for you|"
    r"(?:something|one|an item|a product|a thing)(?: that)? (?:i|we)(?: can| could|['’]d| would)? "
    r"(?:recommend|suggest|offer|advise|carry|stock|sell|have|keep|get|source|order|supply|find)|"
    r"comes? in\b|"
    r"(?:made|produced|sold|offered|back)\b(?![- ]out)|"
    r"(?:an? |the )?(?:good |great |suitable |safe |viable |right |real )?(?:option|choice|fit|"
    r"match|pick|idea|alternative))",
    # ("not like the others" compares, it does not dislike)
    r"(?:work|fit|suit|meet|match|qualify|pass|do|tick|"
    r"like(?! (?:the|a|an|any|other|others|most|many|some|those|these)\b)|want|enjoy|agree)\b",
    r"(?:be )?worth (?:it|the (?:money|price|extra|cost))",
    # a verb of advice with nothing after it: "A — sadly can't recommend, nut allergy"
    r"(?:recommend|suggest|advise|endorse)(?=\s*(?:[.,;:!?—–-]|$))",
    r"(?:find|get|source|offer|suggest|recommend|include|add|order|stock|carry) (?:it|them|that|"
    r"this)",
    r"(?:be )?(?:found|delivered|ordered|bought|supplied|sourced|provided|shipped|fulfilled)",
)

# Content said in general English: hiding, sneaking in, packing, being loaded with or based on.
CONTENT_VERBS = (
    r"hides?|hiding|sneaks?(?: in)?|sneaking(?: in)?|packs|packing",
    r"(?:loaded|packed|filled|stuffed|topped|coated|dusted|laced|enriched|brimming|bursting) with",
    r"full of|(?:baked|cooked|blended|produced|prepared) (?:with|from|using)|made using",
    r"(?:based|built) on|(?:rich|high) in|relies on|features|carrying|using",
)
CONTAINS = (
    r"(?:contains?|containing|has|have|having|includes?|including|lists?|listing|declares?|allergens?:?|"
    r"made (?:with|from)|uses|carries|comes with|may contain|can contain|traces of|"
    + "|".join(CONTENT_VERBS)
    + ")"
)
# An amount of an allergen is its content whatever the verb ("is sneaking in some lactose", "a
# little milk in it"); after "with" or "for" it is what the product is served with.
AMOUNTS = (
    r"(?:some|a (?:little|bit|touch|hint|trace|dash|splash|spot|smidge)(?: of)?|traces? of|"
    r"bits of|(?:lots|loads|plenty|a lot|tons) of|hidden|sneaky)"
)

# "you had / tried X" tells of the shopper's past; with the auxiliary before "you" ("have you
# tried X?", "have you had X before?") it is a question that offers X.
_NOT_ASKED = r"(?<!\bhave )(?<!\bhad )(?<!\bdid )(?<!\bdo )"

_NEW_ONE_AFTER = (
    r"(?!\s+(?:(?:it|them|that|this|that one|this one|those|these)\s+)?(?:(?:for|with|by|to|into|4|"
    r"2|in)\b|w/))"
)

BEFORE: tuple[str, ...] = (
    r"instead of",
    r"rather than",
    r"in place of",
    r"as opposed to",
    r"unlike",
    r"compared (?:to|with)",
    r"than",
    r"(?:beats?|outdoes|outperforms|trumps|outshines|outclasses|edges out|wins (?:over|against)|"
    r"(?:is )?preferable to)",
    r"(?:anything|everything) but",
    # disliking, in the usual words: "hate", "can't stand", "sick of", "went off"
    r"(?:dislike[sd]?|hate[sd]?|not (?:a fan of|keen on)|said no to|turned down|declined|vetoed|"
    r"(?:can['’]?t|cannot|could ?n['’]?t) (?:stand|bear|stomach|abide)|detest(?:s|ed)?|loathe[sd]?|"
    r"(?:sick|tired|bored) of|bored with|fed up with|had enough of|(?:went|gone|go|goes) off)",
    # advising against: "I must advise against A"
    r"(?:advis|recommend|warn|caution)(?:e|es|ed|ing|s)? (?:you )?against",
    # taking back what was said: "forget A", "please disregard my earlier mention of A"
    r"(?:forget|disregard|ignore)(?: about)?(?: my| the)?(?: (?:previous|earlier|last|first|"
    r"original))?(?: (?:mention|suggestion|message|recommendation|pick|note)(?: of| about)?)?",
    r"(?:swapped|subbed|switched|stands?|stood|steps?|stepped|fill(?:s|ed|ing)?) in for",
    r"(?:switch(?:ed|ing)?|chang(?:e|ed|ing)|mov(?:e|ed|ing)) from",
    # (the noun "a change" governs nothing: "let me suggest a change: B")
    r"(?<!\ba )(?<!\bany )(?<!\bsome )chang(?:e|es|ed|ing)(?!\s+(?:(?:it|them|that|this|that one|this one)\s+)?(?:to|for|with|into)\b)",
    # said of the shopper's past, not asked: "Have you tried X?" puts X forward
    _NOT_ASKED
    + r"you(?:['’]ve| have)? (?:already )?(?:had|bought|ordered|tried|got|purchased|picked|"
    r"chose|took|grabbed|went (?:with|for))(?: up| out)?(?: before)?",
    # the shopper's past said by when, in any tense: "Last time you buy A", "last week you got A"
    rf"{_EARLIER} (?:time|order|week|month|visit),? you (?:\w+ )?(?:buy|bought|get|got|have|had|"
    r"order|ordered|take|took|choose|chose|pick|picked)\b",
    # the shopper's history: "based on your history (A)"
    r"your (?:order |purchase |shopping |buying )?history(?: of| with| shows| says)?",
    # the old product of a substitution: "B in lieu of A", "B can take the place of A"
    r"in lieu of|(?:take|takes|took|taking) the place of|(?<![:;=8])\(\s*(?:as a )?(?:replacement |substitute |"
    r"swap |sub )?for",
    # the noun ("a swap for X": X goes), not the verb ("swap for X?": X comes)
    r"(?:a |the )?(?:replacement|substitute|stand-in|alternative) (?:for|to)|(?:a|the) swap (?:for|to)",
    # "swap it for X", "replace it with X": X is the new one
    r"swap(?:s|ped|ping)?(?: out|(?!\s*:))" + _NEW_ONE_AFTER,  # "Cheaper swap: B" brings B
    r"replac(?:e|es|ed|ing)" + _NEW_ONE_AFTER,
    r"avoid(?:s|ed|ing)?",
    r"skip(?:s|ped|ping)?",
    # a verdict that opens a checklist line: "FAIL A", "rejected A"
    r"fail(?:s|ed)?|rejected|vetoed",
    # declining a product: "I'd pass on A", "give A a miss"
    r"pass(?:ed|es|ing)? on|giv(?:e|ing) (?:it )?a miss|(?:say|said|saying) no to",
    r"(?:steer|steering|stay|staying|keep|keeping|move|moving)(?: you)? (?:clear of|away from)",
    r"exclud(?:e|es|ed|ing)",
    r"except(?: for)?",
    r"besides",
    r"(?:other|apart) (?:than|from)",
    r"(?:left|leave|leaving|leaves) out",
    # taking a product off a list, in the everyday verbs for it
    r"(?:drop|dropped|dropping|remove|removed|removing|took out|take out|taking out|scratch(?:ed|ing)?|"
    r"scrap(?:ped|ping|s)?|ax(?:e|ed|ing)|dump(?:ed|ing)?|toss(?:ed|ing)?|"
    r"ditch(?:ed|ing)?|nix(?:ed|ing)?|delet(?:e|ed|ing)|bin(?:ned)?|cancel(?:l?ed|l?ing)?|"
    r"get(?:ting)? rid of|got rid of|cross(?:ed|ing)? (?:out|off)|strike|struck|untick(?:ed)?|"
    r"uncheck(?:ed)?|knock(?:ed)? off)",
    # spending over the budget on a product: "you'd blow the budget with A"
    r"(?:blow|blew|blows|break|breaks|broke|bust|busts|exceed|exceeds|go over|goes over|went over|"
    r"be over|overshoot|overrun|stretch|push(?: you)? over) (?:the|your) (?:budget|limit|cap|"
    r"spending limit|price range)(?: a bit| slightly| easily)? (?:with|on|by (?:buying|getting|"
    r"adding|taking|choosing|picking))",
    r"waste (?:your |the )?money on",
    r"ruled? out",
    r"(?:(?:we|we've|we have|we're|we are|i'm|i am|they're|store is|shop is|shop's|store's)"
    r" )?(?:run|ran|running|sold|all|clean) out of",
    r"(?:we|they|i|the shop|the store|shop|store)(?:['’]re|['’]m| are| am| is|['’]s) (?:all |completely |"
    r"currently |temporarily |now )?out of",
    r"no (?:luck|joy|dice) (?:with|on)",
    # a note's "Out of A." (we are out of it), at the start of its clause
    r"(?:^|(?<=[,:;—–(]))\s*(?:(?:sorry|sadly|unfortunately|alas)[,!]?\s+)?(?:all |completely |"
    r"currently |temporarily |now )?out of",
    r"(?:out of stock|sold out|rupture of stock|oos) (?:for|of|on|with)",
    r"(?:the|your) usual",
    # none of it found, said the casual ways: "nada on A", "zilch on A", "no sign of A"
    r"(?:nada|zilch|zip|no sign|no trace)(?: at all| whatsoever)? (?:on|of|for)",
    # a name taken back: "I didn't mean A", "I never meant to suggest A", "I did not intend A"
    NEGATION + r" (?:\w+ly )?(?:mean|meant|intend|intended|plan|planned)(?: to (?:suggest|send|"
    r"recommend|write|say|add|offer|include|put|list|mention))?",
    # kept away from: "I steered clear of A", "stayed away from A", "gave A a miss"
    r"(?:steer(?:ed|ing|s)?|stay(?:ed|ing|s)?|keep(?:ing|s)?|kept) (?:well |right )?(?:clear of|"
    r"away from)|(?:bypass|sidestep|shun)\w*",
    r"(?:my |the |your )?(?:earlier |previous |first )?(?:mention|reference|naming|listing) (?:of|to)",
    # the shop lacking it: "we are without A", "we're short of A"
    r"(?:we|the shop|the store|the warehouse)(?:['’]re| are| is)? (?:currently |temporarily |now |still )?"
    r"(?:without|lacking|short of)",
    _NOT_ASKED
    + r"you(?:['’]ve| have)? (?:usually|normally|previously|last|already|often|always|used to|regularly|typically|once) (?:order|bought|buy|had|purchas|"
    r"get|got|ordered|have|go for|go with|went for|went with|pick|choose|chose|grab)\w*",
    # the shopper's words, by their message: "per your message, A ..."
    r"(?:per|from|in|according to|as in) your (?:last |earlier |previous )?(?:message|note|request|words|"
    r"list|reply),?",
    # the other side of a swap, said first: "out goes A, in comes B"
    r"out (?:goes|go|went)",
    r"(?:the|your) (?:original|previous|last|old)",
    # what goes back: a return, a refund, an exchange, a product taken or sent back
    r"(?:take|takes|taking|took|send|sends|sending|sent|bring|bringing|brought|collect|collecting|"
    r"pick(?:ing)? up|picked up) back|(?:send|sending|sent) (?:it |them )?back|collect(?:ing|ed)?",
    r"(?:return|returning|returned|refund|refunding|refunded|exchange|exchanging|exchanged|credit)"
    r"(?: (?:issued|processed|given|made|requested|request|started|booked|logged))?(?: of| for| on)?",
    # what an earlier order held: "your last order had A", "last week's delivery included A"
    # (with any word for "earlier" and a count: "your last two orders included A and B")
    r"(?:your )?(?:most )?" + _EARLIER + r"(?: \w+['’]s)?(?: " + _SEVERAL + r")? "
    r"(?:orders?|deliver(?:y|ies)|baskets?|shops?|purchases?|trolleys?|carts?) "
    r"(?:had|has|have|included|includes|include|contained|contains|featured|features|showed|"
    r"shows|was|were)",
    # the shopper's habit or favourite: "you're a regular buyer of A", "your favourite used to be A"
    r"(?:you['’]re|you are) an? (?:regular|frequent|loyal|big|keen) (?:buyer|fan|customer|drinker|eater) of",
    r"(?:favou?rite|usual|go-to|regular|staple)(?: one| pick| choice| brand)? (?:used to be|was|has always "
    r"been|has been)",
    # the shopper's own note: "your note said A"
    r"(?:your|the shopper['’]s) (?:note|message|list|request|comment|reply) (?:said|says|read|reads|"
    r"mentioned|asked for)",
    r"asked for",
    r"you (?:\w+ )?(?:mentioned|wrote|requested|named|typed|were after|were looking for|had in mind|said|"
    r"told (?:me|us)|let (?:me|us) know|complained|noted|(?:really )?(?:liked|loved|enjoyed|preferred))"
    r"(?: earlier| before| previously| last time)?(?: that| about| of)?",
    # content said before the product: "there's soy in A"
    r"there(?:['’]s| is| are)(?: (?!no\b|zero\b|not\b|never\b)\w+){0,3} (?:"
    + "|".join(ALLERGEN_WORDS)
    + r") in",
    # the shopper's question echoed at the start of a sentence: "Looking for A? We carry B."
    r"(?:are you |you['’]re |you are )looking for|^\s*looking for",
    # the shopper's own words: "you said you liked X"
    r"you (?:said|told me|mentioned)(?: that)? you(?:['’]d| had| have)? (?:like|liked|love|loved|"
    r"enjoy|enjoyed|had|bought|tried|usually (?:buy|get|have))",
    r"wanted",
    r"bought",
    r"ordered",
    r"like your",
    r"such as",
    # likened by what it shares: "the same family as B", "same style as B", "in the same range as B"
    r"same(?: [\w-]+){0,2} as",
    # the measure a product is likened to: "A is similar to B" (B is not offered), "A is a bit
    # like B", "A resembles B", "a twist on B", "B's close cousin"
    r"(?:similar|comparable|close) (?:like|to)",
    r"(?:a (?:bit|little|lot)|rather|much|just|quite|kind of|sort of|very much) like|"
    r"resembl(?:e|es|ing)|reminiscent of|remind(?:s|ing)? (?:me |you )?of|akin to|"
    r"along the lines of|in the (?:style|vein|spirit) of|a (?:twist|take|riff|spin) on|inspired by|"
    r"modell?ed on|(?:cousin|sibling|twin|relative) (?:of|to)",
    # what the shopper knows or already owns: "you might know B", "enjoy your B", "from your
    # order last week, B"
    _NOT_ASKED + r"you(?: might| may| probably| likely| surely| already)? (?:know|remember|recall|"
    r"be familiar with)",
    r"(?:enjoy(?:ing)?|savou?r(?:ing)?) your|hope you (?:enjoy|like|love)d? (?:your|the)",
    r"from your (?:\w+ )?(?:orders?|purchases?|deliver(?:y|ies)|basket)(?: (?:last|this|of|on) \w+)?,?",
    # the shopper's past liking: "If you liked B, you might enjoy A"
    r"(?:if|since|as|because) you (?:liked|loved|enjoyed)",
    r"no",
    r"(?<!\bwhy )not",  # "why not B?" offers B
    r"nor",
    r"neither",
    r"never",
    NEGATION
    + r" (?:\w+ly )?(?:get hold of|got hold of|pay(?: extra| more)? for|spend(?: extra| more)? on|"
    r"(?:be |been )?(?:keen on|fond of|a fan of|into|crazy about|wild about|big on|happy with)|"
    r"bother with|settle for|like|want|enjoy|eat|drink|fancy|suggest|recommend|offer|propose|pick|choose|go for|go with|take|"
    r"buy|get|add|include|order|put|use|find|stock|carry|have|pick out|advise)\w*",
    r"(?:" + "|".join(s for s in STATES if "(?:which|that)" not in s) + r")\s*:",
    r"(?:can['’]?t|cannot|couldn['’]?t|could not) (?:find|get|source|offer|deliver|supply|provide|"
    r"ship|stock|obtain|order)",
    r"no (?:more|stock of)",
    r"❌|✗|✘|🚫|⛔",
    r"(?<=\s)>(?=\s)",  # "A > B" (not a quote opening its line)
)

# Said after a mention, turn it back into the previous one: "I'd add A — sorry, I meant B".
CORRECTIONS = (
    r"(?:i (?:actually |really )?meant|i mean|(?:but|and|,)\s*meant(?! for| to be)|should (?:have )?(?:said|read)|"
    r"i (?:intended|meant) to (?:say|write|recommend|suggest|put)|"
    r"scratch that|correction:|make that|(?:please )?read(?: it| that| this)?(?: as)?(?: the)?\s*[:\"'“‘]?\s*$|"
    r"(?:(?:it|that|this) should (?:be|read|have been|say)|should (?:have been|have read|read|say))(?: the)?\s*"
    r"[:\"'“‘]?\s*$|read (?:that|it|this) as(?: the)?\s*$)"
)
BARE_STATES = r"(?:all |now )?(?:out|gone|finish(?:ed)?|sold out|none left|n/a)\b(?! of (?!stock))"
# A shortcoming put to the shopper as a question: the product is still put forward ("A isn't
# organic, does that matter?").
# The shopper is asked to accept it, the usual ways: "does that matter?", "is that OK?", "it is
# okay?", "okay with your allergy?", "could you confirm this is not a concern?", "do you mind?".
_ACCEPTABLE = (
    r"(?:ok|okay|alright|all right|fine|acceptable|a problem|an issue|a concern|a deal[- ]?breaker)"
)
QUESTIONED = (
    r"(?:does|do|would|will) (?:that|this|it|taht|tht|thta) (?:matter|bother you)|"
    rf"(?:is|would|will) (?:that|this|it)(?: be)? {_ACCEPTABLE}\b|"
    r"(?:it|that|this) (?:is|['’]s) (?:ok|okay|alright|all right|fine|acceptable)\s*(?:for you\s*)?\?|"
    r"(?:(?:are|r) (?:you|u) |you['’]re )?(?:ok|okay|fine|alright|all right|happy|comfortable|good) "
    r"with (?:that|this|it|your)\b|"
    r"(?:does|do|would|will|can) (?:that|this|it) (?:fit|suit|work (?:for|with)) (?:you|your)\b|"
    # whether it will do or go with the shopper's way, any verb of fitting, asked: "Would that
    # do?", "Could that still work for you?", "Does it go with how you eat?", "Will it do for you?"
    r"(?:does|do|would|will|can|could|might) (?:that|this|it) (?:still |maybe |perhaps )?(?:do|work|"
    r"fit|suit|go|sit (?:well|right)|be enough)\b[^.!?\n]{0,40}\?|"
    # acceptable for the shopper's diet, wallet or needs: "This is okay for your diet?"
    rf"(?:it|that|this) (?:is|['’]s) {_ACCEPTABLE} for (?:you|u|your(?: [\w-]+){{1,2}})\s*\?|"
    # the shortcoming itself asked: "A - €2.55, too pricey?", "too expensive for you?"
    r"(?<![\w'’])too [a-z]+(?: for (?:you|u|your [\w-]+))?\s*\?|"
    r"(?:hope|if) (?:that['’]?s|it['’]?s|that is) (?:ok|okay|fine|alright)|"
    r"(?:confirm|check|tell me)(?: that)? (?:this|that|it) (?:is|['’]s|isn['’]t|is not) (?:not )?"
    rf"{_ACCEPTABLE}|"
    r"(?:do|would) you mind|(?:can|could) you live with (?:that|this|it)|"
    # ... and as a non-native writer or a hurried one asks it: "OK for you?", "It is problem for
    # you?", "You can eat gluten?"
    # the product offered all the same, by a word standing for it: "Shall I add it?", "Still want
    # it?" (an offer of another product names that product instead)
    r"(?:shall|should|can|may) (?:i|we) (?:still )?(?:add|order|get|put in|pop in) (?:it|this one|that one)\b"
    r"(?: anyway| all the same| regardless)?\s*\?|"
    r"(?:do you |would you )?still (?:want|like|fancy) (?:it|this one|that one)\b[^.!?\n]{0,20}\?|"
    # (asked: the question mark closes them, else "not good for you" would be one)
    r"(?:(?:ok|okay|alright|all right|fine|acceptable|good)\s+for\s+(?:you|u|your)\b|"
    r"(?:it|that|this) (?:is|['’]s|would be|will be) (?:a |an )?(?:problem|issue|concern)\b|"
    r"(?:you|u) can (?:eat|have|take|drink|use)\b|can (?:you|u) (?:eat|have|take|drink|use)\b)"
    r"[^.!?\n]{0,30}\?"
)

# What the shopper already holds. A label over the lines it holds ("So far in your basket:",
# "Have:", "Already added:", "Current cart:"), matched whole.
_BASKET = r"(?:basket|cart|trolley|shopping bag|order|list)"
HELD_LABELS = (
    rf"(?:(?:so far|already|currently|now|still)\s+)?(?:in|on)\s+(?:your\s+|ur\s+|the\s+)?{_BASKET}"
    r"(?:\s+(?:so far|already|now|currently|at the moment))?",
    rf"(?:(?:your|ur|the|current|my)\s+)?{_BASKET}\s+(?:so far|now|currently|contents|already|"
    r"at the moment)",
    r"(?:(?:you|you['’]ve|you have)\s+)?(?:already\s+)?(?:have|got|holding|added|picked|chosen|"
    r"in (?:the )?basket)(?:\s+so far)?",
    r"(?:what you (?:have|['’]ve got)|so far|items? so far|picked so far)",
)
# The basket itself named by a heading over its lines ("**Your basket**", "## Current cart"); said
# inline ("Your basket: A; B. Place order?") it heads a basket to confirm, read by the list's
# own rules. Not "order" or "list": "Order summary" heads a basket to confirm.
HELD_HEADINGS = (
    r"(?:(?:your|ur|current|my|existing)\s+)?(?:basket|cart|trolley|shopping bag)"
    r"(?:\s+(?:contents|items|as it stands))?",
)
# Before the product, in its clause ("you've already got A", "your cart holds A").
HELD_BEFORE = (
    r"you(?:['’]ve| have)?(?: already)? got",
    r"you(?: already)? have(?= )",
    r"you(?:['’]ve| have) already (?:picked(?: up)?|chosen|added|grabbed|selected|bought)",
    r"you already (?:picked|chose|took|grabbed|added|selected|bought)(?: up)?",
    r"you(?:['’]re| are) already (?:getting|buying|taking|having)",
    rf"{_BASKET}(?: (?:so far|currently|now|already))? (?:has|holds|contains|includes|shows|is holding)"
    r"(?: (?:so far|currently|already))?",
    r"so far,? (?:you(?:['’]ve| have)(?: got)?|there['’]s|we have|we['’]ve got)",
)
# After the product ("A is already sitting in your basket", "A in the cart already").
HELD_AFTER = (
    r"(?:is|are|['’]s|['’]re|sits?|remains?)\s+(?:already|still)\s+(?:sitting\s+|waiting\s+)?"
    rf"(?:in|on)\s+(?:your|the|ur)\s+{_BASKET}",
    rf"(?:is|are|['’]s)\s+(?:already\s+)?(?:sitting|waiting)\s+in\s+(?:your|the|ur)\s+{_BASKET}",
    rf"(?:in|on)\s+(?:your|the|ur)\s+{_BASKET}\s+(?:already|so far)",
    # under a basket's label, the basket said as "there": "Basket check: A is already in there"
    r"(?:is|are|['’]s)\s+already\s+in\s+there\b",
)
# Winning, as English says it of one of two: "B takes the crown", "B edges it", "B gets my vote".
WINNING = (
    r"takes? (?:the )?(?:crown|trophy|prize|cake|win|title|top spot|lead|gold|medal|it)",
    r"edges? (?:it|ahead|out|the others?)|nudges? (?:it|ahead)|pulls? ahead|wins? out|"
    r"wins? (?:it|hands down|this one)",
    r"(?:comes?|came) (?:out )?(?:on top|ahead|first|out best)|gets? (?:my|the) (?:vote|nod)|"
    r"has the edge",
    r"(?:is|['’]s) (?:my|the) (?:winner|pick|choice|favou?rite|top pick|go-to)",
)
# A choice said of the product just named, by a word that stands for it: "..., so that's the
# one I'd choose", "so it's my pick", "I'd go for that one".
CHOSEN_LATER = (
    r"(?:that|it|this)(?:['’]s| is| would be) (?:the one|my (?:pick|choice|recommendation|vote|"
    r"favou?rite)|what (?:i|we)(?:['’]d| would) (?:choose|pick|go for|recommend|take))",
    r"(?:i|we)(?:['’]d| would|['’]ll| will) (?:choose|pick|take|go for|go with|recommend) "
    r"(?:it|that one|this one|that|this)\b",
)

# A favourable verdict said of one of two products picked by "the former / the latter": "the
# latter offers the better value", "the first one wins on price", "the second is the better buy".
FAVOURED = (
    *WINNING,
    r"wins?\b|won\b|is the winner|comes? out (?:on top|ahead|best)",
    r"(?:is|['’]s|would be|seems|looks like|makes) (?:the |a )?(?:clear |obvious |much |far )?"
    r"(?:better|best|smarter|wiser|healthier|safer|stronger|cheaper|tastier|superior) "
    r"(?:buy|choice|option|pick|bet|fit|match|deal|value|one|way to go)",
    r"(?:offers?|gives?|provides?|represents?|delivers?|has) (?:you )?(?:the |much )?(?:better|best|"
    r"more|greater|superior|stronger) (?:value|deal|bang for (?:the|your) buck|quality)",
    r"gives? (?:you )?more for (?:the|your) money",
)
# The speaker choosing the product just picked out, said by a word for it: "I recommend it",
# "I therefore suggest that one".
CHOSEN_IT = (
    r"(?:i|we)(?:['’]d| would|['’]ll| will)?(?: \w+(?:ly)?| therefore| thus| so| then)? "
    r"(?:recommend|suggest|choose|pick|prefer|go with|go for|vote for) "
    r"(?:it|that one|this one|that|this|the (?:former|latter))\b",
)

# A choice marked at the end of one line of a list of alternatives: "B: dearer ← my pick",
# "A — winner", "A (top choice)", "B ✓ I'd go with this one".
PICK_MARKS = (
    r"(?:my|our|the) (?:(?:top |personal |own )?(?:pick|choice|vote|recommendation|favou?rite|go-to))",
    r"(?:top|best|first) (?:pick|choice|bet|buy|option)|(?:the )?winner|recommended|chosen|"
    r"pick of the (?:bunch|lot)",
    r"(?:i|we)(?:['’]d| would) (?:go with|go for|pick|choose|take) (?:this|that|it)(?: one)?",
)

# Plant drinks whose "milk" is not the allergen ("made with oat milk").
PLANT_MILKS = (
    "oat",
    "almond",
    "coconut",
    "soy",
    "soya",
    "rice",
    "pea",
    "plant",
    "cashew",
    "hazelnut",
    r"(?:oat|plant)-based",
)
# Verbs of preferring before "A over B", and comparatives before "A next to B".
PREFERRING = (
    r"(?:recommend|prefer|pick|choose|take|go for|go with|suggest|favou?r|rate|want|wins?|won|"
    r"beats?|better|preferable|opt|like|edges?|comes? out ahead|scores?)\w*",
)
COMPARATIVES = (
    "better",
    "cheaper",
    "nicer",
    "healthier",
    "tastier",
    "fresher",
    "bigger",
    "greener",
    "smarter",
    "wiser",
    "safer",
    "best",
)
# Verbs that open what a list member says of itself.
OWN_VERBS = (
    r"is|are|has|have|fits?|works?|would|will|looks?|seems?|costs?|comes?|does|did|was|were|"
    r"should|could|can|might|may|suits?|meets?",
)

SELF_EXCLUDED = (
    r"(?:i|we)(?:['’]ve| have)? (?:skipped|left out|excluded|ruled out|dropped|avoided|passed on|"
    r"set aside|removed|crossed off|struck|taken out|took out)(?: it| that one| this one| them)?"
)


# Positive evidence (the eighth round): a product is put forward only when one of these reaches
# it. A proposal: recommending, suggesting, choosing, an option, a fit to what was asked.
PROPOSING = (
    r"recomm?end\w*|suggest\w*|propos\w*|advis\w*|best (?:i|we) (?:can|could) (?:do|offer|find)|"
    r"(?:i|we) (?:can|could) (?:do|offer|get you)|(?:is|are|r|['’]s) the (?:move|play)|ta-?da",
    r"pick(?:s|ed)?\b|choice|choos\w*|chose\w*|opt(?:s|ed|ing)? for|go(?:es|ing)? (?:with|for)|"
    r"went (?:with|for)|settl\w* on|land(?:s|ed|ing)? on|stick with|start(?:s|ed|ing)? with|begin with|"
    r"beats?\b|outdoes|outperforms|outshin\w*|outclass\w*|trumps|(?<=\s)>(?=\s)",
    r"options?\b|alternatives?\b|possibilit\w*|candidates?\b|contenders?\b|shortlist\w*",
    r"try(?:ing)?\b(?! to\b)|give \w+ a (?:go|try|whirl)|how about|what about|why not|consider\w*",
    r"(?:would |will |should |could |might )?(?:suit|fit|match|meet|tick|satisf|work|do)\w* (?:for |with )?"
    r"(?:you|your|the bill|what|all|every|both|nicely|well|perfectly)",
    r"fits?\b|suits?\b|matches\b|ticks?\b|meets?\b|good (?:fit|match|choice|option|bet|pick|call)",
    r"(?:best|top|great|perfect|ideal|safe|solid|strong|closest|nearest) (?:match|fit|bet|buy|"
    r"option|choice|pick|candidate|call|value)",
    r"here(?:['’]s| is| are| you go| goes)|there(?:['’]s| is) |you(?:['’]ll| will| might| may| could|"
    r" would)? (?:love|like|enjoy)\b|(?:what|all|just what) you(?:['’]re| are)? (?:need|want|after|looking "
    r"for)|just the thing|match\b|gone (?:with|for)|"
    r"(?:i|we)(?:['’]ve| have)? (?:found|got|spotted|dug up|located)|top (?:\d+|two|three|"
    r"four|five)\b|found (?:it|them|one|you|a match)\b|nothing (?:else )?(?:compares|beats|comes close)|"
    r"(?:anything|nothing|none) (?:\w+ )?(?:better|cheaper|nicer) than",
    r"instead\b|in place of|in lieu of|replac\w*|substitut\w*|swap\w*|switch\w*|stand-?in|"
    r"alternative|sub(?:s|bed|bing)? in\b|subbed|your (?:shopping )?(?:list|bag)\b",
    r"goe?s? (?:well|nicely|great|perfectly) with|pairs? (?:well|nicely)|cover\w* (?:both|all|every|"
    r"you|your)|you (?:could|can|might)(?: \w+ly)? (?:use|have|get|try|grab)|\brec\b|"
    r"(?:much |a lot |just )?like what you|resembl\w*|akin to|a twist on|much like|"
    r"(?:you )?(?:asked|wanted|looking) for [^.:;!?\n]{0,40}:",
    r"i(?:['’]d| would)(?: \w+ly)? (?:take|get|grab|buy|use|pick|go|lean|choose)|take\b|"
    r"in (?:its|their) place|(?:should|would|will|could) (?:work|do)\b|(?:be|is|['’]s) the one|top of (?:my|the|our) list|"
    r"closest|nearest|(?:let me |i(?:['’]d| would| can| could)? )offer|offer(?:ing)? you|"
    r"lean\w* (?:towards?|to)|favou?rite|go-to|winner|wins?\b|verdict|ideal|perfect",
    r"better (?:is|are|would be|still)\b|(?:my )?money(?:['’]s| is) on|(?<!not )(?<!no longer )(?:on the table|in the running)",
    *WINNING,
    *FAVOURED,
    *PICK_MARKS,
)
# An offer or a confirmation about it.
OFFERING = (
    r"add(?:s|ed|ing)?\b|order\w*|basket|cart\b|trolley|checkout|purchas\w*|buy\w*|get you|"
    r"grab\w*|put (?:it|them|that|those|one|\w+ in)|pop (?:it|them|one|\w+ in)|reserv\w*|"
    r"includ\w*|proceed|go ahead|offer(?:s|ed|ing)?\b|if you need|summary|recap|receipt|"
    r"ring (?:it|them|that|those) up|check ?out|place (?:it|them|this|that)\b|hit (?:the )?(?:button|buy)\b|(?:choose|pick) (?:one|any)\b",
    r"if you (?:don['’]t|do not) mind|if you(?:['’]re| are) (?:ok|okay|happy|fine)",
    r"confirm\w*|shall (?:i|we)|should (?:i|we)|can i|may i|all set|good to go|"
    r"which (?:\w+ )?(?:one|do|would|of|are|is|way|appeals?|suits?|sounds?)\b|do you want|want\b|wanna|would you like|"
    r"like me to|you(?:['’]d)? like|fancy|keen|interested|happy with|ok(?:ay)?\s*\?|sound\w* "
    r"(?:good|ok|okay|right|fine)|work for you|works for you|does (?:that|it|this) work|"
    r"will (?:that|it|this) do|would (?:that|it|this) do|(?:is|are) (?:that|it|this|they|those) "
    r"(?:ok|okay|alright|fine|good)|which (?:one|do you|would you|of)|prefer\w*|deal\b|"
    r"(?:yes|no)\s*(?:or|/)\s*no|y/n|accept\w*|which\s*\?|reply|lmk|let me know",
)
# A favourable verdict said after the product: stock, safety, budget, likeness, a yes.
FAVOURABLE = (
    r"(?:in|back in|still in) stock|(?:still |now |currently )?(?:available|stocked|obtainable)|"
    r"on (?:the )?shel\w+|ready(?: to \w+)?|(?:still )?(?:left|there|here|in|on)\s*(?:[.!;,)]|tho|$)|"
    r"(?:a few|some|plenty) left|found\s*(?:[.!]|$)|in (?:our|the) (?:[\w-]+ ){0,3}range|a steal|works?\b|sorted\b|did(?: not|n['’]?t)|does(?: not|n['’]?t)|has(?:n['’]?t)? none|"
    r"has (?:it|them)\b|is(?: not|n['’]?t)?\s*(?:[.!;,]|$)|are\s*(?:[.!;,]|$)",
    r"safe|fine|ok(?:ay)?\b|clear of|free (?:of|from)|[\w]+[- ]free|no \w+ (?:at all|in it)|"
    r"(?:has|contains) no|without|(?:is |['’]s )?(?:vegan|vegetarian|organic|halal|kosher)\b",
    r"(?:within|under|below|inside|in) (?:\w+ )?(?:budget|limit|price range|it)|stays? under|"
    r"cheaper|affordable|(?:good|great|better) value|bargain|costs? the same|same price|"
    r"(?:comes?|came) in (?:cheaper|under|lower)",
    r"excellent|superb|brilliant|outstanding|wonderful|fantastic|reliable|dependable|fresh\b|"
    r"crunchy|creamy|(?:on|at) (?:offer|sale|special)|\d+\s*% off|discount\w*|"
    r"does the (?:job|trick)|under [€£$]?\s*\d|plenty|milder|lighter|smoother|richer|"
    + "|".join(COMPARATIVES)
    + "|"
    r"similar|equivalent|(?:next|second) best|(?:close|good|solid) (?:second|alternative|"
    r"substitute)|fall-?back|backup|a spare|lovely|great|good\b|nice|tasty|delicious|popular",
    r"(?:is|['’]s) (?:it|the one)\s*(?:[.!]|$)|(?:is |['’]s )?(?:a )?yes\b|does\s*(?:[.!;,]|$)|"
    r":\s*(?:a )?(?:go|yes|ok|okay|fine|good|thumbs up)\b|(?:is |['’]s )?on\b\s*(?:[.!;,]|$)|it is\b",
)


# A shortcoming denied: "not too sweet", "no soy", "far from pricey", "hasn't sold out", "nothing
# to worry about", "you can't go wrong with", "no beans needed".
_DENYING = r"(?:not|never|no|nothing|none|zero|far from|\w*n['’]t|without|hardly|neither)"
_SHORTCOMINGS = (
    r"(?:too\b|pricey|expensive|dear|costly|steep|sold out|out of stock|run(?:s|ning)? out|ran out|"
    r"over (?:budget|your|the)|allergen\w*|avoid|problem\w*|issues?|worr\w*|wrong|disappoint\w*|fuss|"
    r"hassle|hesitat\w*|risk\w*|concern\w*|needed|required|heavy|sweet|thin|bad\b|"
    + "|".join(ALLERGEN_WORDS)
    + ")"
)
RELIEF = (rf"{_DENYING}(?:[\s,]+[\w'’-]+){{0,3}}?[\s,]+{_SHORTCOMINGS}",)


# A short question about the product just named: "OK for you?", "Too big?", "Convinced?".
ASKED_ABOUT = (
    r"too|ok|okay|fine|alright|good|suit\w*|work\w*|do|for you|for your|you can|can you|matter|mind",
    r"problem|issue|want|like|within|budget|enough|last|content|convinced|go on|ready|show",
)
# Likeness, comparison or a win between two products.
SET_AGAINST = (
    r"resembl\w*|akin|like|twist|cousin|family|same|than|over|outshines?|beats?|versus|vs|compared",
    r"next to",
    *COMPARATIVES,
)
# Cue nouns heading the product's own phrase ("the A option fell through").
OWN_NOUNS = (r"option|choice|pick|alternative|suggestion|candidate|recommendation",)
# The key of a record's line naming what the shopper gets in an exchange ("Replace with:", "New
# item:", "Exchange for:"): that line is the offer, not what goes back.
NEW_SIDE_KEYS = (
    r"replace(?:d|ment)?(?: with| by)?|exchange(?:d)? (?:for|with|to)|new(?: item| product| one)?|"
    r"swap(?:ped)? (?:for|to|with)|sending|dispatch(?:ing)?|you(?:['’]ll)? get|instead",
)

# A closing offer of one product said with a verb alone ("Add?", "Accept?", "Swap?"): it points to
# the last product named, as "Shall I add it?" does.
BARE_OFFERS = (r"add|accept|swap|switch|take|ok|okay|deal|yes|go",)

# What the label of a record of a return, refund or cancellation says ("Return logged:", "Order
# cancelled:"): a message laid out as such a record, asking and offering nothing, puts nothing
# forward.
REPORTED = (r"returns?|returned|refund\w*|money back|cancell?(?:ed|ation)",)

# A closing that offers to go on searching rather than a product ("I can keep looking if you'd
# like"): the message reports a search, and what it names is put forward only by a proposal of
# its own.
SEARCHING_ON = (
    r"keep (?:looking|searching|digging|hunting|checking)|look (?:further|elsewhere|again)|"
    r"search (?:further|elsewhere|again|on)|(?:check|try) (?:other|another) (?:stores?|shops?|branch\w*)",
)

# A proposal said as one more beside the others ("I'd also suggest B"): a closing that says it adds
# to what came before, not a choice among it.
ADDING_TOO = (r"also|too|as well|in addition|additionally|another|besides",)

# A closing that offers help with something else, not a product ("Is there anything else I can
# help you with?"): after a return, refund or cancellation told as done, the message is a report.
HELPING_ON = (r"anything else|something else|any other (?:questions?|requests?|items?)",)

# The place a closing offer points to by order ("Add the second?"), as an index into the products
# named before it, not ruled out.
ORDINAL_PLACES: dict[str, int] = {
    "first": 0,
    "1st": 0,
    "second": 1,
    "2nd": 1,
    "third": 2,
    "3rd": 2,
    "last": -1,
}

# A passing verdict opening a checklist line ("OK A", "PASS: A").
PASSING = (r"ok|okay|pass(?:es|ed)?|yes|good",)


# The words of a closing offer that point back to what was named before it.
POINTING_BACK = (
    r"it|them|those|these|that|this|both|all|either|each|any|one|ones|which|the (?:lot|pair|two|"
    r"three)|\d|two|three|these|the (?:above|list)|everything",
)
POINTING_BACK_ONE = (r"it|that|this|that one|this one|the one|the winner|my pick|the pick",)


# Cue words a hurried writer misspells, mended before the cues are read ("avaialble", "sould
# out", "expnsive"): one letter added, dropped or two swapped; changed too in words of seven
# letters or more. `REAL_NEIGHBOURS` are English words one slip from them, never mended; `SLANG`
# says texting forms in full.
MENDABLE = frozenset(
    {"stock", "sold", "available", "unavailable", "allergy", "allergic", "allergen", "allergens"}
    | {"contains", "budget", "expensive", "instead", "rather", "replaced", "substitute"}
    | {"substituted", "discontinued", "finished", "removed", "dropped", "returned", "refunded"}
    | {"excluded", "recommend", "suggest", "cheaper", "pricier", "unfortunately", "sorry"}
    | {"suitable", "unsuitable", "anymore", "unavailable", "skipped", "avoid", "avoided"}
)
REAL_NEIGHBOURS = frozenset(
    {"stocks", "stocky", "stork", "solid", "soled", "solds", "budgets", "rathe", "sorty"}
    | {"expansive", "avoids", "suggests", "recommends", "removes", "remover", "excludes"}
    | {"finishes", "returner", "allergies", "container", "contain", "containers", "retuned"}
    | {"replace", "replaces", "replacer"}
)
SLANG = {
    "outta": "out of",
    "avail": "available",
    "unavail": "unavailable",
    "bc": "because",
    # "you" in texting, and contractions written without their apostrophe
    "u": "you",
    "ur": "your",
    "youve": "you've",
    "youre": "you're",
}


def alternation(words: tuple[str, ...] | list[str]) -> str:
    """One non-capturing group of the phrases."""
    return "(?:" + "|".join(words) + ")"


def compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)
