"""The shopper's topics: which product fields each covers, and the words an agent uses to ask about them."""

from __future__ import annotations

import re
from typing import Literal

from runner.kits.user.reader import TITLE_MARK, FieldVocabulary, near_miss_fixer, spelling_fixer

__all__ = [
    "ALLERGEN_WORDS",
    "ASKING",
    "FREE_TOPICS",
    "REQUEST_FORMS",
    "SHORTCOMING",
    "TOPICS",
    "TOPIC_FIELDS",
    "TOPIC_PATTERNS",
    "TOPIC_WORDS",
    "WEAK_TOPIC_PATTERNS",
    "Topic",
    "topic_of_field",
]

Topic = Literal[
    "allergies",
    "diet",
    "budget",
    "brand",
    "nutriscore",
    "organic",
    "palm_oil",
    "pack_size",
    "processing",
    "origin",
    "category",
    "quantity",
]
# In the order the shopper answers them when several are asked in one message.
TOPICS: tuple[Topic, ...] = (
    "allergies",
    "diet",
    "budget",
    "category",
    "brand",
    "nutriscore",
    "organic",
    "palm_oil",
    "processing",
    "pack_size",
    "origin",
    "quantity",
)
# Plain facts, not tastes: answering them costs the shopper no patience (safety and the order size).
FREE_TOPICS: frozenset[Topic] = frozenset({"allergies", "quantity"})

# Which product fields a constraint on each topic reads.
TOPIC_FIELDS: dict[Topic, tuple[str, ...]] = {
    "allergies": ("allergens", "traces"),
    "diet": ("vegan", "vegetarian"),
    "budget": ("price",),
    "brand": ("brand",),
    "nutriscore": ("nutriscore",),
    "organic": ("labels",),
    "palm_oil": ("palm_oil",),
    "pack_size": ("quantity",),
    "processing": ("nova_group",),
    "origin": ("countries",),
    "category": ("categories",),
    "quantity": (),
}

# How the shopper names each topic in a sentence ("no particular {word}").
TOPIC_WORDS: dict[Topic, str] = {
    "allergies": "allergies",
    "diet": "diet",
    "budget": "budget",
    "brand": "brand",
    "nutriscore": "Nutri-Score",
    "organic": "farming labels",
    "palm_oil": "palm oil",
    "pack_size": "pack size",
    "processing": "how processed it is",
    "origin": "where it comes from",
    "category": "kind of product",
    "quantity": "how many",
}


def topic_of_field(field: str) -> Topic | None:
    """The topic a product field belongs to (None for fields no shopper talks about)."""
    for topic, fields in TOPIC_FIELDS.items():
        if field in fields:
            return topic
    return None


# Spoken names of each allergen (`en:` tag -> words that name it in chat).
ALLERGEN_WORDS: dict[str, tuple[str, ...]] = {
    "gluten": ("gluten", "wheat", "coeliac", "celiac"),
    "crustaceans": ("crustaceans?", "shellfish", "shrimps?", "prawns?"),
    "eggs": ("eggs?",),
    "fish": ("fish",),
    "peanuts": ("peanuts?", "groundnuts?"),
    "soybeans": ("soy", "soya", "soybeans?"),
    "milk": ("milk", "dairy", "lactose"),
    "nuts": ("nuts?", "tree nuts?", "hazelnuts?", "almonds?", "cashews?", "walnuts?"),
    "celery": ("celery",),
    "mustard": ("mustard",),
    "sesame-seeds": ("sesame",),
    "sulphur-dioxide-and-sulphites": ("sulphites?", "sulfites?"),
    "lupin": ("lupin",),
    "molluscs": ("molluscs?",),
}

# Kinds of product a shop's shelves hold, as a menu names them (singular or plural).
_KINDS = (
    r"(?:cereals?|muesli|granola|yog(?:h)?urts?|biscuits?|cookies?|crackers?|pasta|noodles?|crisps?|"
    r"chips|chocolates?|spreads?|jams?|cheeses?|juices?|plant drinks?|snacks?|breads?|desserts?)"
)

# fmt: off
# Topic -> regex fragments that name it in a question (case-insensitive, on word boundaries).
# Tried in this order; a span claimed by an earlier topic is not read again.
TOPIC_PATTERNS: dict[Topic, tuple[str, ...]] = {
    "allergies": (
        r"al+erg\w*", r"intoleran\w*", r"anaphyla\w*", r"coeliac", r"celiac", r"epipen",
        r"(?:can't|cannot|can not|shouldn't|mustn't) (?:eat|have|touch)", r"react(?:s|ion)? to",
        r"sensitiv(?:e|ities|ity) to", r"food sensitivit\w*", r"trace(?:s)?(?: of)?",
        r"may contain", r"nut[- ]free", r"gluten[- ]free", r"dairy[- ]free", r"lactose[- ]free",
        r"(?:tree )?nuts?", r"peanuts?", r"gluten", r"lactose",
        # milk said as an ingredient ("contains milk", "made with milk"), not the drink
        r"(?:contains?|containing|has|have|with|made with|traces of|free (?:from|of)|no) (?:some |cow'?s "
        r")?(?:milk|dairy)", r"sesame", r"eggs?", r"soya?",
        r"shellfish", r"mustard", r"celery", r"sulph?ites?", r"lupin", r"safe for (?:you|your|the)",
        r"dietary restrictions?", r"ingredients? (?:to|you) (?:avoid|steer clear)",
        r"(?:can't|cannot|can not) (?:tolerate|digest|stomach)", r"off[- ]limits",
        r"(?:make|makes|made|making) (?:you|u|anyone|them|someone|somebody) (?:feel )?(?:ill|sick|unwell|"
        r"poorly|bad|itchy|queasy|nauseous|sneeze|itch|swell|break out)",
        r"(?:gives?|giving|gave) (?:you|u|anyone|them|someone|somebody) (?:a )?(?:reactions?|rash(?:es)?|"
        r"hives|(?:stomach|tummy) ?aches?|(?:a )?bad time)", r"hives", r"rash(?:es)?",
        r"itch(?:y|ing|es)?", r"swell(?:s|ing)?", r"epi[- ]?pens?",
        r"(?:upsets?|disagrees? with) (?:your|ur|their) (?:stomach|tummy|system)",
        r"no[- ]go (?:foods?|ingredients?)", r"(?:bad|adverse) reactions?",
        r"(?:don't|doesn't|do not|does not) agree with (?:you|u|your|anyone)",
        r"(?:don't|doesn't|do not|does not) get on with", r"(?:your|ur) body",
        # food that does not sit well ("anything that doesn't sit well with you")
        r"(?:don't|doesn't|do not|does not|won't|wouldn't) (?:sit|go down|settle)(?: (?:well|right|"
        r"too well))? (?:with|for)",
        r"(?:your|ur) (?:tummy|stomach|gut)",
        r"safety (?:reasons?|grounds|concerns?)", r"forbidden (?:for|to) (?:you|u)",
        r"(?:not|never) allowed to (?:eat|have)", r"(?:unable|not able) to (?:eat|have|tolerate|digest)",
    ),
    "diet": (
        r"diet(?:ary)?(?: (?:needs?|requirements?|preferences?|choices?|style))?", r"vegans?",
        r"vegetarians?", r"veggie", r"plant[- ](?:based|powered|forward|only|heavy)", r"plants? only",
        r"animal[- ]free", r"meat", r"animal (?:products?|ingredients?)",
        # "veg" for vegetarian, said against its opposite or of a person ("veg or not?", "are u veg?")
        r"veg(?= (?:or|and|n) (?:not|non|no|meat|vegan))", r"(?:are|r|is) (?:you|u|they|anyone) (?:a )?veg\b",
        r"(?:eat|eating) (?:style|habits?)", r"how you eat", r"flexitarian", r"pescatarian",
        r"meat[- ](?:free|eaters?|less)", r"meatless", r"veg(?:gie)? only", r"halal", r"kosher", r"keto", r"low[- ]carb",
        r"(?:vegans?|vegetarians?|veggie|plant)[- ](?:friendly|only|options?|safe)", r"gelatine?",
        r"pork", r"beef", r"lard", r"(?:animal|meat)[- ](?:derived|based)", r"non[- ]veg",
        r"omnivores?", r"carnivores?", r"lacto[- ]?(?:ovo[- ]?)?vegetarian", r"jain",
        r"ways? (?:of eating|you eat)",
        r"(?:do|does|can|will|would) (?:you|anyone|they) (?:do|eat|have|take|drink|touch) (?:any )?"
        r"(?:dairy|meat|fish|pork|beef|chicken|animal products|gelatine|seafood)",
        r"(?:food|eating|dietary) (?:rules|choices|lifestyle)", r"lifestyle choices",
        r"(?:ethical|religious|moral|cultural|faith)(?: or (?:ethical|religious|moral|cultural))? "
        r"(?:reasons?|grounds|beliefs?|rules?)",
    ),
    "budget": (
        r"budgets?", r"spend(?:ing)?", r"price(?:s|d| range| point| limit| cap)?", r"costs?",
        r"how much (?:money|would you|do you want|are you|can you|you'?d|you want)",
        r"afford\w*", r"€ ?\d*", r"euros?", r"cheap(?:er|est)?", r"expensive", r"pricey",
        r"money", r"(?:upper|price) limit", r"cost[- ]conscious", r"value for money",
        r"splurge", r"(?:max|maximum) (?:you'?d )?(?:pay|spend)", r"pay", r"(?:budget|price|cost)[- ]wise",
        r"(?:sort|kind|type|ballpark) of (?:amount|sum|figure)", r"ballpark",
        r"bargains?", r"how much (?:were|was|is|did|should|could|might) (?:you|u)",
        r"(?:price|spending|cost) (?:ceiling|bracket|band|range)", r"within (?:your |ur )?means",
        r"economical", r"thrifty", r"frugal", r"splash out", r"pricier", r"[£$] ?\d*",
        r"dollars?", r"quid", r"bucks",
        r"(?:what|how much) (?:would|do|did) (?:you|u) (?:consider|call|think is|find) (?:reasonable|"
        r"affordable|fair|too much|acceptable)",
        r"(?:an|the|what) amount (?:you|u)(?:'d| would| want| can| are| were)?", r"wallets?", r"purses?", r"(?:dig|digging) (?:deep|into)",
        r"how deep", r"pocket",
        r"(?:certain|set|fixed|particular|maximum|max) (?:amount|sum|figure)",
        r"(?:over|under|within|above|below|past|beyond) (?:your|ur|the) (?:limit|max(?:imum)?|cap|ceiling)",
        r"(?:look|go|search|aim) (?:a (?:bit|little) |slightly )?(?:higher|pricier|more expensive)",
    ),
    "category": (
        r"(?:what|which) (?:kind|type|sort) of (?:product|item|thing|food|groceries)",
        r"(?:what|which) (?:kinds?|types?|sorts?|variet(?:y|ies)) of (?!(?:sizes?|packs?|packaging|"
        r"prices?|brands?|labels?|oils?|fats?|processing|origins?|countr(?:y|ies)|quantit(?:y|ies)|amounts?|sums?|"
        r"diets?|allergies|budget)\b)\w+",
        r"categor(?:y|ies)", r"what (?:product|item)s? (?:are you|do you)",
        # another, the same or which kind of product ("or a different kind of snack?")
        r"(?:product|item|food) (?:types?|kinds?|categor(?:y|ies))",
        r"(?<!your )(?<!the )(?<!that )(?<!this )(?:kinds?|types?|sorts?) of (?:products?|items?|groceries)",
        r"(?:other|another|different|same|new|which|what) (?:kinds?|types?|sorts?|variet(?:y|ies)|"
        r"categor(?:y|ies)) of (?:products?|items?|foods?|groceries|snacks?|goods|drinks?|treats?)",
        r"what are you (?:looking|shopping|hoping) (?:for|to (?:buy|find|get))",
        r"what (?:do |would )?(?:you|u) feel like(?: (?:buying|getting|having|eating|picking up))?",
        r"what (?:you|u) (?:need|want|have) to (?:buy|get|find|order)",
        r"(?:what|which) (?:products?|items?|things?|foods?) (?:do |are |would |did )?(?:you|u) (?:look|"
        r"search|shop|seek|want|need|hunt)\w*",
        r"what (?:you|u)(?:'re| are| r)? (?:looking|hoping|wanting|trying|planning|going|meaning) to "
        r"(?:buy|get|find|pick up|grab|order|shop for)",
        r"(?:which|what) (?:thing|things|product|products|item|items) (?:you|u) (?:want|need|look)",
        r"(?:particular|specific) (?:products?|items?)",
        # without the auxiliary, as non-native writers ask ("What product you look for today?")
        r"what (?:(?:product|item|thing|food)s? )?(?:you|u) (?:look|looking|search|searching|shop|"
        r"shopping) for",
        r"what (?:do you|would you like to) (?:need|want|buy|get)",
        r"what (?:are|r) (?:you|u|we) (?:buying|getting|after|picking up|shopping for|making|cooking)",
        r"for (?:the )?(?:(?:everyday|weekday|weekend|school|the kids'?) )?(?:breakfasts?|lunch(?:es)?|"
        r"dinners?|snacking|snacks?|baking|a recipe|a party|lunch ?box(?:es)?)", r"lunch ?box(?:es)?",
        # where a kind of product sits in a shop, and what the shopping is for
        r"aisles?", r"sections?", r"departments?",
        # where to search ("Which of those should I search in?", "Which one shall I browse?")
        r"(?:which|what)(?: (?:one|ones|shelf|shelves|range|part))?(?: of (?:those|these|them|the above))? "
        r"(?:should|shall|can|do|would|will) (?:i|we) (?:search|browse|look|shop|dig|start)(?: (?:in|"
        r"through|into|with))?(?=\W*$)", r"product (?:types?|groups?|lines?|range)",
        r"occasions?", r"(?:which|what) meal", r"in the mood for", r"crav(?:e|ing|ings)",
        r"what (?:do|would|d'?) ?(?:you|u|ya) fancy", r"what are (?:you|u) fancying",
        r"(?:what'?s|what is|anything) on (?:the|your|ur) (?:shopping |grocery )?list",
        r"shopping list", r"what(?:'s| is) (?:it|this|that|the shop|the shopping) for",
        r"what (?:can|could|shall|should|may) (?:i|we) help (?:you|u) (?:find|get|pick|choose|look for|"
        r"shop for|buy)",
        r"what (?:can|could|shall|should) (?:i|we) (?:find|get|fetch|look for|search for|pick up|"
        r"grab|source)",
        # a menu of kinds of product ("breakfast bits, snacks or drinks?", "sweet or savoury")
        r"(?:something )?(?:more |rather |a bit )?(?:sweet|savou?ry|salty|spicy|fruity|crunchy|crispy|"
        r"creamy|chocolatey)(?: \w+)?,? or (?:more |rather |maybe |perhaps |a bit )?(?:something |a |an )?"
        r"(?:sweet|savou?ry|salty|spicy|fruity|crunchy|crispy|creamy|chocolatey|drinks?|snacks?|to drink|"
        r"to eat|to snack on|in between|else|different)",
        r"(?:breakfast|lunch|dinner|snacks?|drinks?|sweets?|treats?)(?: \w+)?,? or (?:some |a |an )?"
        r"(?:breakfast|snacks?|drinks?|sweets?|treats?|lunch|dinner)",
        # a menu of kinds of product ("Cereal, yoghurt or something to spread on toast?")
        r"(?:" + _KINDS + r")(?:,? (?:" + _KINDS + r"))*,? or (?:some |a |an )?(?:" + _KINDS + r"|something)",
    ),
    "brand": (
        # labels beside makers are brands ("any labels or manufacturers you're loyal to?")
        r"labels? (?:or|and|/) (?:brands?|manufacturers?|makers?|producers?)",
        r"(?:brands?|manufacturers?|makers?|producers?) (?:or|and|/) labels?",
        r"(?:you'?re|you are|are you|u r|ur) (?:\w+ )?loyal to",
        r"brands?", r"branded", r"marcas?", r"marken?", r"marques?", r"manufacturers?", r"makers?", r"own[- ]label", r"store brand",
        r"(?:who|which company) makes", r"(?<!local )producers?", r"(?:which|what) compan(?:y|ies)",
        r"(?:name|big|house|premium|supermarket|shop|generic|no)[- ](?:brands?|names|labels?)",
        r"(?:particular|specific|favou?rite|preferred|usual|trusted) (?:make|makes|label|company|"
        r"companies|producer|firms?)", r"(?:which|what|any) firms?", r"any (?:particular )?make", r"(?:what|which) make (?:do|would|of)",
        r"generics?", r"knock[- ]?offs?", r"(?:store|shop|supermarket)'?s? own",
        r"(?:a )?names? (?:you|u) (?:know|trust|recogni[sz]e)",
    ),
    "nutriscore": (
        r"nutri[- ]?scores?", r"nutri(?=\W*[=:])",
        # the letter on the front of the pack, on its scale from A to E
        r"(?:the |a |that )?letters? (?:on|printed on|on the front of|at the front of) (?:the |a )?(?:pack|"
        r"packet|label|box|packaging)", r"from a\b[^.?!\n]{0,20}\bto e\b", r"grades?", r"graded", r"nutrition(?:al)? (?:grade|score|rating|value|profile|label|quality)s?",
        r"nutrition(?:al)?(?:ly)?", r"health(?:y|ier|iest|iness)?(?:-ish)?", r"wholesome", r"good for you",
        r"sugar(?:y|s)?", r"(?:traffic[- ]light|front[- ]of[- ]pack) (?:label|score|rating)s?",
        r"grade [a-e]\b", r"score of [a-e]\b", r"scores? (?:an? )?[a-e]\b(?! \w)", r"calori\w*", r"(?:that|this|the|its|a) grade",
        r"watch(?:ing)? (?:your |the )?(?:weight|figure|calories|sugar|salt|fat)",
        r"low[- ](?:sugar|fat|salt|calorie|cal|sodium)", r"(?:fat|salt|sodium|sugar) content",
        r"guilt[- ]free", r"nutrients?", r"nutritious", r"(?:health|food) (?:grade|score|rating)s?",
        r"[a-e](?: or |/| to |-)[a-e] (?:scores?|grades?|ratings?)", r"(?:sugar|salt|fat)[- ]free",
        r"(?:lowest|highest|minimum|min|worst|best) (?:grade|score|rating|letter)",
    ),
    "organic": (
        r"organic(?:ally)?", r"bio", r"biologic(?:al)?", r"conventional(?:ly)?", r"farm(?:ed|ing)", r"pesticides?", r"certified", r"eco[- ]?labels?",
        r"labels?", r"fair[- ]?trade", r"sustainab\w*", r"how it'?s (?:grown|produced|made)",
        r"free[- ]range", r"chemical[- ]free", r"eco[- ]?friendly", r"environment\w*",
        r"ethically (?:sourced|produced|grown|made)", r"sprayed", r"pesticide[- ]free",
    ),
    "palm_oil": (r"palm(?: oil)?", r"palm[- ]oil(?:[- ]free)?", r"oils?", r"fats?"),
    "processing": (
        r"(?:ultra[- ]?)?process(?:ed|ing)", r"nova(?: group| score| rating)?", r"additives?",
        r"e[- ]?numbers?", r"preservatives?", r"artificial", r"ingredients? lists?",
        r"natural(?:ness)?", r"whole ?foods?",
        r"clean[- ](?:label|eating|ingredients?)", r"(?:short|simple|long) ingredients?",
        r"home[- ]?made", r"from scratch", r"minimally", r"refined", r"junk food",
        r"(?:emulsifiers?|stabili[sz]ers?|sweeteners?|flavourings?|colourings?|thickeners?)",
        r"(?:additive|preservative|e[- ]?number)[- ]free",
    ),
    "pack_size": (
        r"pack(?:et)?[- ]sizes?", r"sizes?", r"how (?:big|large)", r"too (?:big|large|small|heavy)",
        r"(?:big|large|small) enough", r"grams?", r"kilos?", r"kg",
        r"litres?", r"liters?", r"ml", r"weight", r"volume", r"family[- ]sized?", r"bulk",
        r"(?:large|larger|small|smaller|big|bigger) (?:packs?|packets?|bottles?|box(?:es)?|tubs?|bags?|jars?)",
        r"portions?", r"how much (?:of it|product|in a pack|per pack)", r"\d+\s*(?:g|kg|ml|cl|l)",
        r"portion[- ](?:sized?|packs?|controlled)", r"(?:single|individual)[- ](?:serves?|servings?|"
        r"portions?|packs?)", r"multi[- ]?packs?", r"sharing[- ](?:size|bags?|packs?)",
        r"(?:big|bigger|biggest|large|larger|largest|small|smaller|smallest|tiny|little|giant|huge)"
        r"(?: ones?)?,? or (?:the |a )?(?:big|bigger|biggest|large|larger|largest|small|smaller|"
        r"smallest|tiny|little|giant|huge)(?: ones?)?",
        # "a small piece or a bigger one", "the mini bag or the family one"
        r"(?:big|bigger|biggest|large|larger|largest|small|smaller|smallest|tiny|little|giant|huge|"
        r"mini|family|regular|standard|medium|single|multi)[- ](?:piece|pack|packet|bag|box|bottle|tub|"
        r"jar|block|wedge|loaf|carton|tin|can|portion|size|one)s?,? or (?:the |a |an )?(?:big|bigger|"
        r"biggest|large|larger|largest|small|smaller|smallest|tiny|little|giant|huge|mini|family|"
        r"regular|standard|medium|single|multi)\b",
        r"(?:tiny|little|giant|huge|massive|compact|regular|standard|medium|mini|jumbo)[- ](?:packs?|"
        r"packets?|packages?|bottles?|box(?:es)?|tubs?|bags?|jars?|sizes?)",
        r"(?:big|bigger|large|larger|small|smaller) packages?",
        r"(?:big|bigger|large|larger|small|smaller|family|economy|travel|trial|mini|bulk|value|"
        r"standard|regular)[- ](?:formats?|versions?|containers?|packaging)",
        r"(?:quantity|amount|weight|grams?) (?:per|in a|in each) (?:pack|package|packet|unit|box|bag|"
        r"jar|tub|bottle)", r"snack[- ]size", r"minis?", r"jumbo", r"value[- ]packs?", r"(?:big|large|small) size",
        r"family[- ](?:packs?|bags?|box(?:es)?|tubs?|bottles?)", r"(?:bag|pack|box|jar|tub|bottle) size",
    ),
    "origin": (
        r"countr(?:y|ies)", r"origins?", r"made in", r"produced in", r"comes? from", r"locally",
        r"local(?:ly)? (?:made|produced|sourced)", r"local (?:produce|products?|food)",
        r"local (?:producers?|farms?|farmers?|suppliers?|growers?|makers?|brands?)",
        # a nationality or a country said of the product ("X is French", "it's from Spain")
        r"(?:(?<=\bis )|(?<=\bare )|(?<='s )|(?<='re ))(?:from )?(?:british|english|scottish|irish|welsh|"
        r"french|italian|spanish|german|austrian|swiss|belgian|dutch|danish|swedish|norwegian|polish|"
        r"greek|turkish|portuguese|american|mexican|indian|chinese|japanese|france|italy|spain|germany|"
        r"austria|switzerland|belgium|the netherlands|holland|denmark|sweden|norway|poland|greece|"
        r"turkey|portugal|the uk|britain|england|scotland|ireland|the us|mexico|india|china|japan)\b", r"imported", r"where (?:it|they)'?s? (?:is |are )?(?:made|from|produced)",
        r"where (?:the|your|these|those|this|that) (?:\w+ )?(?:is|are) (?:made|from|produced|grown)",
        r"provenance", r"where from", r"sourced?", r"home[- ]grown", r"domestic(?:ally)?", r"foreign", r"abroad",
        r"(?:air[- ]?freighted|food miles)", r"grown (?:in|where|locally|nearby)",
        r"close to home", r"nearby", r"from where",
        r"where (?:is|are) (?:the )?(?:products?|it|they|this|that)(?: \w+)? from", r"(?:from )?around here", r"flown in", r"overseas",
        r"from far(?:[- ]away| off)?", r"shipped (?:in )?from",
        r"(?:british|french|italian|spanish|german|european|eu|uk)[- ](?:made|grown|produced)",
        # products named by a country ("Turkish products or no matter?")
        r"(?:british|english|scottish|irish|french|italian|spanish|german|turkish|polish|dutch|greek|"
        r"swiss|portuguese|chinese|russian|european|eu|uk|national|regional|domestic|imported|foreign)"
        r" (?:products?|produce|food|goods|items|ones)",
    ),
    "quantity": (
        r"how many(?! (?:euros?|dollars?|pounds|quid|bucks|cents|money|cash|grams?|g|kilos?|kilograms?|kg|ml|cl|"
        r"millilit(?:re|er)s?|lit(?:re|er)s?|ounces?|oz|calories|kcal)\b)", r"number of (?:packs?|packets?|units?|bottles?|box(?:es)?|items?)",
        r"quantit(?:y|ies)", r"how much of (?:it|them)", r"(?<!size )(?<!size of )(?<!sizes of )packs? (?:do|would|will) you",
        r"(?:one|a single) (?:pack|packet|unit) or (?:more|several|two)",
        r"stock(?:ing)? up", r"just (?:the )?one",
        r"(?:one|1|two|2) or (?:two|2|three|3|more|many|several|a few)(?=\W*$)",
        r"(?:one|1|two|2|a couple|a few|several) or (?:two|2|three|3|four|4|more|several) (?:of (?:them|those) "
        r"|(?:packs?|packets?|units?|bottles?|box(?:es)?|tubs?|jars?|bags?|cans?|tins?|cartons?))", r"more than one", r"a few of (?:them|those)",
        # "how much packs" (non-native), and for how many people the shopping is
        r"how (?:much|many) (?:packs?|packets?|units?|bottles?|box(?:es)?|tubs?|jars?|bags?|cans?|tins?|"
        r"cartons?|pieces?|servings?)", r"(?:for )?how many (?:people|persons|of you|guests|mouths)",
        r"(?:several|multiple) (?:packs?|packets?|of (?:them|those|these))",
        r"a dozen", r"(?:buy|get|order) (?:extra|spares?|in bulk)", r"as many as (?:you|u)",
        r"stash", r"(?:one|1|just one) for now",
        r"(?:tell|give|send) me the number\b(?! of (?:your|the) order)", r"qty", r"qties", r"no\. of",
        r"(?:one|1|a single) (?:packs?|packets?|units?|bottles?|box(?:es)?|tubs?|jars?|bags?|cans?|tins?|"
        r"cartons?) or (?:a few|several|more|two|2|three|3|multiple)",
    ),
}

# Words that name a topic only when nothing stronger in the same question does.
WEAK_TOPIC_PATTERNS: dict[Topic, tuple[str, ...]] = {
    "allergies": (r"avoid", r"safe", r"restrictions?", r"can(?:'t| not|not) (?:have|eat)"),
    "budget": (r"how much", r"spend", r"value"),
    "nutriscore": (r"light(?:er)?", r"balanced"),
    "diet": (r"eat", r"animals?"),
    "category": (r"looking for", r"shopping for", r"need today", r"after today"),
    "origin": (r"local",),
}
# fmt: on

# Phrases where a topic word means something else; blanked before topics are read.
_NOT_A_TOPIC = re.compile(
    r"(?i)\b(?:how (?:can|may) i help|anything else|(?:any|other) questions?|"
    r"help you(?! (?:find|get|pick|choose|look for|shop for|buy)\b)|"
    r"(?:our|the|my) (?:catalog|search|tools?|store|shop)|in stock|stock levels?|"
    r"(?:sound|sounds|look|looks) (?:good|great|fine|right)|work for you|works for you|"
    r"(?:the|your) (?:order|basket|cart|return|refund)|place (?:the|your|an) order|"
    r"how many (?:options|results|products) (?:i|we)|"
    r"a (?:good|great) (?:fit|choice|option|pick)|no problem|value it|treat (?:yourself|you)|"
    r"shopping for (?:someone|somebody|anyone|yourself|you|others|a friend|\w+ else)|"
    r"pay(?:ing)? (?:attention|heed|mind)|green light|"
    # how the shopper pays, not how much
    r"pay(?:ing)? (?:by|with|via|using|through|on) (?:card|cash|paypal|apple pay|google pay|credit|"
    r"debit|bank|transfer|invoice|voucher|gift card|phone|the app)|payment (?:method|options?|details)|"
    # a refund: the shopper's money given back
    r"(?:get|give|send|refund|return|pay) (?:you |u )?(?:back )?(?:your|ur|the) money(?: back)?|money back|"
    r"(?:give|put|place|attach) (?:much |any |more |less |a lot of )?weight|weight (?:do|would|"
    r"should) (?:you|u) (?:give|put|place|attach)|"
    # the reason the shopper cannot eat something, not a question about healthy food
    r"(?:for|on) (?:health|medical) (?:reasons|grounds)|for (?:(?:your|ur|their|his|her) )?(?:health|"
    r"safety)|"
    # the other side of an either-or that says the shopper does not mind ("loyal to a brand, or
    # happy with whichever is cheapest?")
    r"(?:whichever|whatever)(?: one)?(?: is|'s)? (?:the )?(?:cheapest|cheaper|least expensive|on "
    r"(?:offer|sale|special)))\b"
)
# A list item that names a topic to answer ("Budget", "Allergies") rather than a value.
_TOPIC_WORD = re.compile(
    r"(?i)\b(?:allerg\w*|intoleran\w*|diet\w*|budget|price|spend|brands?|nutri-?score|organic|"
    r"palm oil|pack size|size|processed|processing|origin|country|quantity|how many|"
    r"preferences?|dealbreakers?|limits?|must[- ]haves?)\b"
)
# A list item that states a value ("Under €3", "No nuts", "Organic only", a product).
_VALUE_ITEM = re.compile(
    # an item that asks ("Budget? under €2 / more") is no value, whatever it lists
    r"(?i)^(?![^\n]*\?)(?:"
    # a key with its value after the colon ("Brand: any", "Diet: vegan"), not a blank
    r"[\w /&'-]{1,25}:[ \t]*(?!_|\[|\.\.\.|…|<)\w|"
    r"(?:no|any|not|only|under|over|at least|at most|max|min|less|more|you|i|it'?s|it)\b|"
    r"[^\n]*?(?:\d|€|\b(?:only|is fine|no preference|mentioned|said)\b|" + TITLE_MARK + r"))"
)

# fmt: off
# Words misspelt often enough in chat to be read as meant (lower case).
_TYPOS: dict[str, str] = {
    "alergies": "allergies", "allergys": "allergies", "alergy": "allergy", "allergie": "allergy",
    "alergic": "allergic", "allegies": "allergies", "allergis": "allergies",
    "budegt": "budget", "budjet": "budget", "buget": "budget", "bugdet": "budget",
    "budgt": "budget", "prize": "price", "pric": "price", "prise": "price",
    "brnad": "brand", "barnd": "brand", "brands": "brands", "bran": "brand",
    "nutriscroe": "nutriscore", "scroe": "score", "socre": "score", "nutri-socre": "nutri-score", "nutri-scroe": "nutri-score",
    "nutriton": "nutrition", "helthy": "healthy", "healty": "healthy",
    "orgainc": "organic", "organc": "organic", "orgnaic": "organic", "vegitarian": "vegetarian",
    "vegeterian": "vegetarian", "vegatarian": "vegetarian", "vegen": "vegan", "diett": "diet",
    "questoins": "questions", "quesitons": "questions", "qustions": "questions",
    "taht": "that", "thta": "that", "teh": "the", "wat": "what", "wut": "what", "wht": "what",
    "r": "are", "u": "you", "ur": "your", "cant": "can't", "dont": "don't", "doesnt": "doesn't",
    "isnt": "isn't", "arent": "aren't", "whats": "what's", "hw": "how", "cuz": "because",
    "ingrediants": "ingredients", "ingredents": "ingredients", "proccessed": "processed",
    "procesed": "processed", "quantaty": "quantity", "quanity": "quantity",
    "smal": "small", "smll": "small", "larg": "large", "bigg": "big",
}
# fmt: on

_FIX_SPELLING = spelling_fixer(_TYPOS)
# The topic words a slip of the keyboard is read through ("procsesed", "alelrgies").
# fmt: off
_FIX_SLIPS = near_miss_fixer(
    (
        "allergies", "allergic", "allergens", "intolerances", "vegetarian", "dietary", "budget",
        "spend",
        "brands", "organic", "processed", "processing", "additives", "healthy", "healthier",
        "nutrition", "gluten", "lactose", "peanuts", "sesame", "origin", "country", "quantity",
        "ultra", "sugar", "expensive", "cheaper", "labels", "certified", "ultraprocessed",
    ),
    shortest=5,
)
# fmt: on

# A check whether the fact just stated is acceptable, in its usual forms ("OK?", "Is that a
# problem?", "Would that be acceptable to you?", "It is problem for you?").
_CHECK = (
    r"(?:(?:(?:is|would|will|could) (?:that|it|this) (?:be )?|that'?s |it is |it'?s |is it |is )?"
    r"(?:ok|okay|alright|all right|fine|acceptable|(?:a )?problem|an issue|a concern|a dealbreaker)|"
    # "Would that do?": whether it will serve
    r"(?:would|will|could|does|can) (?:that|it|this)(?: one)? (?:do|suit (?:you|u)|work for (?:you|u)|"
    r"sit (?:well )?with (?:you|u)))"
    r"(?: (?:for|with|to) (?:you|u))?"
)
# What flags a fact as a warning before it ("I should mention that X ...", "Heads up: X ...").
_WARNING = (
    r"(?:(?:i|we) (?:should|must|have to|need to|want to) (?:mention|note|flag|point out|say|warn "
    r"you)(?: that)?|(?:please )?(?:be aware|note|keep in mind|bear in mind)(?: that)?|just so "
    r"(?:you|u) know|fyi|heads[- ]up|warning|caution|note)[:,]?\s+"
)
# What flags a fact about a product as a shortcoming ("ultra-processed", "isn't organic",
# "contains milk", "only scores D", "over your budget").
SHORTCOMING = (
    r"ultra[- ]processed|nova(?: group)? 4|\bnot (?:organic|vegan|vegetarian|halal|kosher|"
    r"local)|\b(?:isn't|aren't|is not|are not)\b|\bcontains?\b|\bhas palm|with palm|may contain|"
    r"traces? of|\bonly (?:gets?|scores?|has|rates?)\b|nutri[- ]?score (?:of )?[de]\b|grade [de]\b|"
    r"\b(?:has|have|got|includes?) (?:some |a bit of |a little |traces of )?(?:gluten|milk|"
    r"dairy|lactose|nuts?|peanuts?|eggs?|soya?|sesame|fish|mustard|celery|palm)\b|"
    r"(?:over|above|beyond|past) (?:your|the|ur) (?:budget|limit|max(?:imum)?|cap)|pricier|more expensive"
)
# Topic words the shopper gives to answer (a request to "send", "give" or "write" them asks).
_TOPIC_NAMES = (
    r"(?:(?:your|ur|the|any|all|us your|me your|me the)\s+)?(?:(?:max|min|maximum|minimum)[_ ])?"
    r"(?:allerg|intoleran|diet|budget|price|spend|brand|nutri|grade|organic|palm|pack size|size|"
    r"process|nova|origin|countr|quantit|qty|how many|number of|categor|kind of|type of|product "
    r"(?:type|kind)|preferences?|dealbreakers?|limits?|must[- ]haves?)"
)

# General-English ways of asking that the user kit reads in another form: each is rewritten to
# that form before a message is read, keeping every topic word it holds (pattern, replacement;
# case-blind, in this order).
REQUEST_FORMS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE | re.MULTILINE), replacement)
    for pattern, replacement in (
        # "Please note that X ...", "please be aware": a warning before a fact, not a request.
        (
            r"\bplease (note|be aware|keep in mind|bear in mind)(?= (?:that|this|the|it|its|"
            + TITLE_MARK
            + r")\b)",
            r"\1",
        ),
        # A closing reassurance ("No wrong answers!", "No judgement either way") says any answer
        # is welcome; it is no answer the writer gives to the question before it.
        (
            r"\bno (?:right or wrong|wrong or right|wrong|bad|silly|incorrect)(?: or (?:right|wrong))? "
            r"(?:answers?|choices?|replies|options?)\b|\bno judg(?:e)?ments?\b",
            "every answer welcome",
        ),
        # Leave asked as a yes to reply ("Reply 'yes' and I'll place it.", "Just say the word and
        # it's ordered", "Type Y to process"): a request for leave for what follows, as "shall I
        # ...?" is.
        (
            r"\band (?:it|they|that|this)(?:'s|'re| is| are| will be| gets?| goes)? (?:ordered|placed|"
            r"bought|checked out)\b",
            "and I'll order it",
        ),
        (
            r"\band (?:it|they|that|this)(?:'s|'re| is| are| will be| gets?| goes)? (?:returned|refunded|"
            r"sent back)\b",
            "and I'll return it",
        ),
        (
            r"(?:^|(?<=[.!?:] ))(\W*)(?:just |simply )?(?:reply|say|type|answer|respond|text|write|send|"
            r"hit|press|give me)(?: (?:with|me|back))? (?:a |an |the )?['\"‘“]?(?:yes|y|yep|yeah|ok|okay|"
            r"go|confirm|word|nod|thumbs up|green light)['\"’”]?(?: (?:and|to|if (?:you want|you'?d like) "
            r"me to|so))(?: (?:i'?ll|i will|we'?ll|we will|i can|i shall))? ([^.!?\n]*)[.!]?",
            r"\1shall I \2?",
        ),
        # A check worded as a difficulty ("Does that pose any difficulty for you?", "Would that
        # be a hurdle?"): whether the fact just stated is a problem.
        (
            r"\b(?:a|an|any|some) (?:real |big |particular )?(?:difficult(?:y|ies)|troubles?|"
            r"complications?|obstacles?|hurdles?|hassles?|headaches?|snags?|inconvenience)"
            r"(?=[^.!?\n]*\?)",
            "any problem",
        ),
        # Animal foods named as what the household eats ("Do you eat dairy and eggs?") ask the
        # diet, as "do you eat meat?" does, not an allergy.
        (
            r"\b((?:do|does|would|will) (?:you|u|anyone|they|everyone|your (?:household|family|kids|"
            r"partner|\w+)) (?:eat|drink|consume|have|take|buy)) (?:any )?(?:(?:dairy|eggs?|milk|"
            r"fish|meat|honey|seafood|pork|beef|chicken|gelatine?|cheese|butter|animal products)"
            r"(?:,? (?:and|or|&|,) ?| ?/ ?|,? )?){1,4}(?=[^\w\s]*\?|\s*(?:or|at all)\b)",
            r"\1 animal products ",
        ),
        # A purpose before a question ("To tailor my picks, could you share:"): the question
        # is what follows it.
        (
            r"^(\W*)(?:to|so that|in order to|so i can|just to) [^,.?!:\n]{1,60}, (?=(?:could|can|"
            r"would|will|may|might|do|does|are|please|what|which|how|tell|let|share|send|give)\b)",
            r"\1",
        ),
        # An adverb between the shopper and the verb ("What are you actually looking to buy?").
        (
            r"\b(you|u) (?:actually|really|exactly|currently|ideally|"
            r"honestly|basically|perhaps|maybe|possibly|personally) (?=\w)",
            r"\1 ",
        ),
        # A price or size with its subject dropped ("Is €3.15.", non-native for "It is") states it.
        (
            r"(?:^|(?<=[.!?] ))(\W*)(is|are|costs?|has|weighs?) (?=[€£$]?\s?\d[^?.!\n]*(?:[.!]|$))",
            r"\1It \2 ",
        ),
        # A check that names its topic with a bare verdict ("..., origin ok?", "Price fine?").
        (
            r"\b("
            + _TOPIC_NAMES
            + r"[\w-]*) (?:ok|okay|fine|alright|all right|good|acceptable)(?=\W*\?)",
            r"\1 okay for you",
        ),
        # A button named in quotes ("hit 'order'", "press “Buy now”") is that button.
        (
            r"\b(hit|press|click|tap|push|smash)(?: on)? ['\"‘“]([^'\"’”\n]{1,20})['\"’”]",
            r"\1 the \2",
        ),
        # A go-ahead joined to the act it allows ("You confirm, I order?", "u ok, I place it?").
        (
            r"\b(?:you|u) (?:confirm|agree|accept|approve|say yes|say ok|ok|okay)(?: (?:it|this|that))?,? "
            r"(?:and |then |so )?i (order|place|buy|purchase|check out|send|return|refund|swap|replace|"
            r"substitute)\b(?=[^?.!\n]*\?)",
            r"shall I \1",
        ),
        # An adequacy check ("Nutri-Score E. Good enough?", "100 g - big enough?", "Is enough
        # good for you?") asks whether the fact just stated meets the shopper's bar: a check on
        # that fact, never a bare reaction to the product.
        (
            r"\b((?:[a-z]+[ -])?enough(?: [a-z]+)?)(?: (?:for|to|with) (?:you|u|everyone))?"
            r"(?=[^.?!\n]*\?)",
            r"\1, can you live with that",
        ),
        # A check whether the product is "the sort of thing you want" asks whether its kind, the
        # fact just stated ("X is in the biscuit aisle - is that the sort of thing you want?"),
        # suits: a check on that fact like any other.
        (
            r"\b(?:is|was|would) (?:that|this|it)(?: one)? (?:be )?(?:the|a|your) (?:sort|kind|type) "
            r"of (?:thing|product|item|stuff)(?: (?:you|u) (?:want|need|like|are after|were after|"
            r"had in mind|wanted))?",
            "can you live with that",
        ),
        # "... - safe for you?": whether the fact just stated is safe asks about it.
        (
            r"\b(safe for (?:you|u|your \w+|everyone|the \w+))(?=[^\w?]*\?)",
            r"\1, can you live with that",
        ),
        # A check that the fact just stated is still acceptable ("..., but it has palm oil. Still
        # ok?", "Acceptable?").
        (
            r"\b(still (?:ok|okay|fine|good|alright|acceptable))(?=[^\w?]*\?)|(?:^|(?<=[.!:;] ))"
            r"acceptable(?=[^\w?]*\?)",
            r"\1 can you live with that",
        ),
        # A bare "OK?" straight after a sentence that flags a shortcoming ("X: NOVA 4
        # (ultra-processed). OK?", "X isn't organic. Alright?") checks that shortcoming; after a
        # neutral fact ("X, €5.49. OK?") it stays a reaction to the product.
        (
            r"((?:" + SHORTCOMING + r")[^.?!\n]*[.!)]*\s+)" + _CHECK + r"(?=\s*\?)",
            r"\1can you live with that",
        ),
        # The shortcoming such a check asks about, when a contrast adds it to a sentence of other
        # facts ("The closest is X at €1.75, though it isn't organic. Would that do?"), is a
        # sentence of its own: the check asks it, not the facts before the contrast.
        (
            r"(?<=[\w)%]),? (but|though|although|except that|only) (?=[^.?!\n]*(?:"
            + SHORTCOMING
            + r")[^.?!\n]*[.!)]*\s+can you live with that\b)",
            r". \1 ",
        ),
        # A general check straight after a sentence whose predicate is one fact about the
        # product ("X is made in Spain. Is that okay with you?") checks that fact; after a
        # proposal that only mentions a fact ("Suggest: X, €5.49. OK?") it stays a reaction, and
        # after several facts the kit reads it as asking none.
        (
            r"((?:^|(?<=[.!?] ))\W*"
            + "(?:"
            + _WARNING
            + r")?(?:the |this |that |our )?"
            + TITLE_MARK
            + r"\s+(?:is|are|has|have|contains?|comes?|costs?|weighs?|scores?|gets?|sits?|was|were)\b"
            r"[^.?!\n]*[.!]\s+)(?:"
            + _CHECK
            + r"|(?:is (?:that|it) |that'?s |it is |is )?good)\b(?: (?:for|with) (?:you|u)\b)?"
            r"(?=[^.?!\n]*\?)",
            r"\1can you live with that",
        ),
        # A hyphen between spaces before a question is a dash ("X is 100 g - big enough?").
        (r"(?<=\S) - (?=[^\n.!?]*\?)", " — "),
        # An agent's own act asked in the first person ("I order now, OK?", "I send it back?")
        # asks leave for it, as "shall I ...?" does.
        (
            r"(?:^|(?<=[.!?:] ))(\W*(?:so,? |ok,? |okay,? )?)i (order|place|buy|purchase|check out|send|return|refund|"
            r"swap|replace|substitute|add|put)\b(?=[^?.!\n]*\?)",
            r"\1shall I \2",
        ),
        # A question whose answer is one of the options just listed ("Which one applies to you?",
        # "Any to apply?", "Where do you draw the line?").
        (
            r"\b(?:which (?:one |of (?:these|those|them) )?(?:applies|apply|fits) (?:to )?(?:you|u)|any "
            r"(?:of (?:these|those|them) )?(?:to apply|you(?:'d)? (?:want|like|need) (?:applied|on))|"
            r"where (?:do|would|will) (?:you|u) draw the line|any (?:of (?:those|these|them)|one of (?:those|"
            r"these|them)) (?:a no(?:-go)?|a problem|an issue|off[- ]limits|out|a dealbreaker|to avoid)"
            r"(?: for (?:you|u))?)",
            "which of these",
        ),
        # "I'll need two numbers from you: ...", "I would be grateful to know the following":
        # requests for what follows.
        (
            r"\b(?:i|we)(?:'ll| will| would|'d)? need (?:[\w-]+ ){0,3}?(?:from (?:you|u)|to know)\b",
            "please tell me",
        ),
        (
            r"\b(?:i|we)(?:'d| would) be (?:very |most |really )?grateful to (?:know|hear|learn)\b",
            "I'd appreciate knowing",
        ),
        # A topic word joined to a stance by a hyphen ("organic-only", "brand-loyal",
        # "price-conscious"), or to a prefix ("non-organic", "un-processed"), is the topic word.
        (
            r"\b([a-z]+)-(only|loyal|curious|conscious|minded|focused|sensitive|savvy|aware|lover|"
            r"agnostic|snob|friendly|wise|free)\b|\b(non|un|semi)-([a-z]+)",
            r"\1\3 \2\4",
        ),
        # A hedge before a question's first word ("roughly how many euros are we talking").
        (
            r"^(\W*)(?:roughly|approximately|about|quickly|just|basically|honestly)\s+(?=(?:how|what|"
            r"which|where|who|when|do|does|are|is|would|will|can|any)\b)",
            r"\1",
        ),
        # A y/n prompt closing a line that is no sentence makes it a question ("confirm_order:
        # [y/n]", "organic only (yes/no)"); after a sentence it is a verdict of its own.
        (r"(?<=[\w:])[ \t]*[\[(]?\b(?:y/n|yes/no|yes or no)\b[\])]?[ \t]*$", "?"),
        # Chat and formal ways of saying "please".
        (r"\b(?:pls|plz|plse|pleeease|kindly)\b", "please"),
        # An imperative request for details is a question ("pls send: 1) allergies 2) budget",
        # "send me your budget", "I'd be grateful for your budget").
        (
            r"\bplease (?:send|give|write|type|drop|forward|note(?! (?:that|this|the|it|its|"
            + TITLE_MARK
            + r")\b)|indicate|state|advise|"
            r"fill out)(?: (?:me|us|over))?\b|^(\W*)(?:send|give|drop) (?:me|us|over)\b",
            r"\1please tell me",
        ),
        (
            r"\b(?:i|we)(?:'d| would) be (?:very |most |really )?grateful (?:for|if)\b",
            "I'd appreciate",
        ),
        # A bare imperative naming what to give ("Send diet + allergens.", "Write me your diet
        # and your budget", "Give your budget and I'll start") asks for it.
        (
            r"(?:^|(?<=[.!?:] ))(\W*)(?:please )?(?:send|give|write|type|share|provide|drop|text|list|"
            r"state|note down|(?:reply|answer|respond|come back|get back to me) with)(?: (?:me|us|"
            r"over))?(?= " + _TOPIC_NAMES + r")",
            r"\1please tell me",
        ),
        # "I'd like your diet and your budget": a request for them.
        (
            r"\b(?:i|we)(?:'d| would) (?:like|love|need) (?:to (?:have|get|know) )?(?="
            + _TOPIC_NAMES
            + r")",
            "please tell me ",
        ),
        # A request about each of the points just listed ("Could you tell me about each of
        # those?", "Let me know about both", "a word on all three") asks every one of them.
        (
            r"\b(?:(?:could|can|would) (?:you|u) |please |just )?(?:tell me|let me know|say|give me|"
            r"fill me in|talk me through|walk me through|share|answer)(?: (?:a (?:bit|little|word|line)|"
            r"something|more|briefly|your (?:answers?|thoughts)))? (?:about|on|for|to) (?:each|all|every "
            r"one|both|the (?:two|three|four|five))(?: (?:of )?(?:those|these|them|the above|three|two|"
            r"four|points|things|questions))?\b|(?:^|(?<=[.!?:] ))(?:please )?(?:send|give|fill in|answer|"
            r"provide|share)(?: (?:me|us))? (?:both|all|all three|all four|each|them|these|those)(?: "
            r"(?:over|please|of them))?(?=\W*$)",
            "please answer each of those",
        ),
        # A fact put before a question as given ("At €1.99 for 100 g, shall I add it?", "For
        # just €1.49 a box, want me to add it?"): stated, not asked.
        (
            r"(?:^|(?<=[.!?:] ))(\W*)(?:and )?(?:at|for|priced at|costing|with)(?: (?:just|only|around|"
            r"about|under))? (?=[€£$]?\s?\d[^,?.!\n]{0,40},[^?.!\n]*\?)",
            r"\1given ",
        ),
        # Non-native "say me", "explain me", "inform me" for "tell me".
        (r"\b(?:say|explain|inform) me\b", "tell me"),
        # An elliptical offer to show the product's own facts ("Show full nutrition facts?",
        # "See the ingredients?") offers information, as "want me to show ...?" does.
        (
            r"(?:^|(?<=[.!?:] ))(\W*)(?:show|see|display|view|open|pull up|send)(?= (?:the |its |their "
            r"|full |all |more |complete )*(?:nutrition|ingredients?|labels?|details?|info|facts|"
            r"allergens?|specs?|nutri)[^.?!\n]*\?)",
            r"\1want me to show",
        ),
        # "Which size is good for you?": what suits the shopper among options, not healthy food.
        (
            r"^(\W*(?:which|what)\b[^?.!\n]*?\b(?:is|are|would be|will be)) (?:good|best) for (?:you|u)\b",
            r"\1 suitable for you",
        ),
        # "Is it good variant for you?": a good option, said without its article.
        (
            r"\b(?:a |an )?(?:good|right|nice|suitable|fine) (?:variant|option|choice|pick|solution)(?= "
            r"for (?:you|u)\b)",
            "a good option",
        ),
        # A choice among the options just listed ("Set either?", "Apply any?", "Use one of them?").
        (
            r"(?:^|(?<=[.!?:] ))(\W*)(?:set|apply|use|add|turn on|enable|want|need)(?: (?:either|any|"
            r"one|both)(?: of (?:them|these|those))?)(?=\W*\?)",
            r"\1which of these",
        ),
        # "X, you want how many?", "How many packs of X?": the product is what is counted.
        (r"\b(how many\b[^.?!\n]*?)" + TITLE_MARK + r"(?=[^.?!\n]*\?)", r"\1them"),
        (TITLE_MARK + r"(?=[^.?!\n]*\bhow many\b[^.?!\n]*\?)", "them"),
        # A reason given in a statement ("some are only vegetarian because they contain milk or
        # eggs") explains the option before it; it is no option of its own.
        (
            r"(?<=[\w)]) (?:because|since|as) (?:they|it|these|those|some|many)(?: all| both)? (?:contain|"
            r"contains|have|has|include|includes|use|uses)\b[^.?!\n;]*(?=[.!;\n])",
            " for a reason",
        ),
        # A key followed by lettered options ("1) Diet: (a) vegan (b) vegetarian") asks it.
        (
            r"^(\W*(?:\d+[.)]|[-*•])\s*[\w /&'-]{1,25}):(?=\s*\(?[a-dA-D1-4]\)\s)",
            r"\1?",
        ),
        # A label that says what is still needed, over topic names ("missing: diet_type",
        # "params required -> budget, brand"), asks for them.
        (
            r"^(\W*)(?:(?:still )?(?:missing|required|needed|pending|to fill(?: in)?|outstanding)|"
            r"(?:params?|parameters?|fields?|info|inputs?|values?|filters?|settings?|criteria|options?) "
            r"(?:missing|required|needed|pending|outstanding|open|unset|empty|blank|to set|tbd)|"
            r"need(?:ed)? from (?:you|u)|"
            # an imperative over the filters listed after it ("Set filters -> organic, origin",
            # "Pick values for: max_price, qty", "Set these before I search: nova_max")
            r"(?:please )?(?:set|choose|pick|select|specify|fill(?: in)?|enter|input|define|provide)"
            r"(?: (?:the|these|those|your|values? for|a value for|some|me))?(?: (?:filters?|params?|"
            r"parameters?|fields?|values?|options?|preferences?|settings?|criteria))?(?: (?:below|for "
            r"me|first|please|before (?:i|we) (?:search|start|look)))?(?![^.\n]*\w ?[=:] ?\w))"
            r"(?: (?:fields?|params?|info|inputs?|values?))?[ \t]*(?::|→|->|=)[ \t]*(?=[\[(\"']?"
            + _TOPIC_NAMES
            + r")",
            r"\1please tell me ",
        ),
        # "tick what applies" under a list of options asks which of them apply.
        (
            r"\b(?:tick|check|mark|circle)(?: (?:off|all))? (?:what|whatever|whichever|all that|the "
            r"ones? that|those that|any that) appl(?:y|ies)\b[^?\n]*",
            "which of these apply?",
        ),
        # A form's blank of underscores ("qty: __"), which markdown would read as emphasis.
        (r"(?<=:)[ \t]*_{2,}[ \t]*$", " ??"),
        # A list item ticked at its end ("- Vegan ✔") is a checklist of what is done.
        (
            r"^([ \t]*(?:[-*•·–]|\d+[.)])[ \t]+)(?!\[)([^\n]*?)[ \t]*[✔✓✅☑]\ufe0f?[ \t]*$",
            r"\1[x] \2",
        ),
        # A check that names the topic it checks ("Does that fit your budget?", "Does that work
        # for your diet?") asks that topic, never only a reaction to the product.
        (
            r"\b(?:does|would|will|could|is|can) (?:that|this|it)(?: one)? (?:fit|suit|match|work (?:for|"
            r"with)|sit (?:with|within)|go with|agree with|(?:be )?(?:okay|ok|fine|alright) (?:for|with)|"
            r"be (?:within|in line with)) (?:your|ur) (?=" + _TOPIC_NAMES + r")",
            "can you live with that, for your ",
        ),
        # A grade letter alone in a check ("Would a B be alright?") is a Nutri-Score.
        (
            r"\b(would|is|could|will|does|can) an? ((?-i:[A-E]))\b(?= (?:be )?(?:ok|okay|alright|all right|"
            r"fine|acceptable|enough|do|work)\b)",
            r"\1 a Nutri-Score \2",
        ),
        # The shopper's answer echoed and at once agreed to ("Vegan? Perfect, I have loads.",
        # "Under €3? No problem.") asks nothing: it is said back, not asked.
        (
            r"(?:^|(?<=[.!?] ))(?!\W*(?:what|which|how|any|anything|do|does|did|are|is|would|could|can|"
            r"should|will|shall|may|have|has|who|where|when|why|you|u)\b)(\W*(?:[^\s.?!]+[ \t]+){0,3}"
            r"[^\s.?!]+)\?(?=[ \t]+(?:perfect|great|absolutely|no problem|sure|of course|got it|noted|"
            r"easy|done|lovely|sounds good|consider it done|understood|excellent|brilliant|fantastic|"
            r"can do|will do|on it)\b(?![^.!?\n]*\b(?:if|or|whether|either)\b))",
            r"\1.",
        ),
        # "brand: any" as a value in a recap: no preference.
        (r"(?<=: )any(?=[ \t]*(?:[;,.✔✓\n]|$))", "no preference"),
        # "Any brand will do", "any size works": the shopper's indifference, restated.
        (
            r"\b(any [\w-]+(?: [\w-]+)?) (?:will|would|should|can|could) do\b|\b(any [\w-]+) (?:works|"
            r"goes|suits)\b|\b(any [\w-]+)\s*[✔✓☑✅]",
            r"\1\2\3 is fine",
        ),
    )
)

# What asks about each topic, for the user kit's field reader.
ASKING = FieldVocabulary(
    strong={str(topic): words for topic, words in TOPIC_PATTERNS.items()},
    weak={str(topic): words for topic, words in WEAK_TOPIC_PATTERNS.items()},
    not_a_field=_NOT_A_TOPIC,
    normalise=lambda text: _FIX_SLIPS(_FIX_SPELLING(text)),
    topic_word=_TOPIC_WORD,
    value_item=_VALUE_ITEM,
    value_list=re.compile(r"(?!x)x"),
    boundary=r"[\w-]",
)
