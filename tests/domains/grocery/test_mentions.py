"""The product resolver: a mention is one product by name, brand, size and id, a shared name alone is no proposal, a ruled-out mention is not one; and its labelled corpus."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from domains.grocery.catalog import load_catalog
from domains.grocery.mention_corpus import HELD_OUT, TUNING, load_examples, score_resolver
from domains.grocery.mentions import Resolver, resolver
from runner.core.errors import LoadError

ROOT = Path(__file__).resolve().parents[3]
CORPUS = ROOT / "corpora" / "grocery" / "mentions"
CATALOG = load_catalog(ROOT / "domains" / "grocery" / "snapshots" / "2026-11-01")
READ = resolver(CATALOG)

# Four products share the name Smooth Hazelnut Cocoa Spread: two brands, two sizes, and two of
# them the very same brand and size.
BROOKLINE_350 = "off_28968382"


def _offered(text: str) -> str:
    """A text put under a proposal heading: the tests of which product a name resolves to frame
    the name as a proposal, since a name with nothing proposing it is named, not put forward."""
    return f"My suggestion:\n{text}"


BROOKLINE_400 = "off_2010494145345"
SUNNY_400 = ("off_2403328313988", "off_2500425390413")


@pytest.mark.parametrize(
    ("text", "proposed"),
    [
        ("I suggest Smooth Hazelnut Cocoa Spread by Brookline, 350 g.", [BROOKLINE_350]),
        ("How about Brookline's Smooth Hazelnut Cocoa Spread (400 g)?", [BROOKLINE_400]),
        ("Try the 400g Brookline smooth hazelnut cocoa spread", [BROOKLINE_400]),
        ("Smooth Hazelnut Cocoa Spred — Brookline, 350 g", [BROOKLINE_350]),  # a typo
        (f"Sunny Acre Smooth Hazelnut Cocoa Spread, 400 g, id {SUNNY_400[1]}", [SUNNY_400[1]]),
        (f"Product {BROOKLINE_400} fits.", [BROOKLINE_400]),
    ],
)
def test_brand_size_and_id_pick_one_product_of_a_shared_name(
    text: str, proposed: list[str]
) -> None:
    assert READ.proposed(_offered(text)) == proposed
    assert READ.unclear(_offered(text)) == []


@pytest.mark.parametrize(
    "text",
    [
        "I suggest Smooth Hazelnut Cocoa Spread.",  # four products
        "I suggest Smooth Hazelnut Cocoa Spread by Brookline.",  # two sizes
        "How about Sunny Acre Smooth Hazelnut Cocoa Spread, 400 g?",  # two alike
    ],
)
def test_a_name_that_fits_several_products_proposes_none(text: str) -> None:
    assert READ.proposed(text) == []
    assert READ.unclear(text) == ["Smooth Hazelnut Cocoa Spread"]


@pytest.mark.parametrize(
    "text",
    [
        "Brookline Smooth Hazelnut Cocoa Spread 350 g is out of stock.",
        "Brookline Smooth Hazelnut Cocoa Spread 350 g contains nuts, so I skipped it.",
        "Not the Brookline Smooth Hazelnut Cocoa Spread, 350 g.",
        "Instead of Smooth Hazelnut Cocoa Spread by Brookline (350 g), shall we look further?",
        "Your usual Brookline Smooth Hazelnut Cocoa Spread 350 g is sold out.",
        # the cue reaches its mention by clause, label, particle, next sentence and markup
        "We're out of Brookline Smooth Hazelnut Cocoa Spread 350 g, sadly.",
        "I'm leaving Brookline Smooth Hazelnut Cocoa Spread 350 g out: it contains hazelnuts.",
        "Brookline Smooth Hazelnut Cocoa Spread 350 g? Unavailable, I'm afraid.",
        "Out of stock, I'm afraid: Brookline Smooth Hazelnut Cocoa Spread 350 g.",
        "~~Brookline Smooth Hazelnut Cocoa Spread 350 g~~ (sold out)",
        "| Brookline Smooth Hazelnut Cocoa Spread 350 g | over budget |",
    ],
)
def test_a_ruled_out_mention_names_without_proposing(text: str) -> None:
    assert READ.proposed(text) == []
    assert READ.named(text) == [BROOKLINE_350]
    assert READ.unclear(text) == []


def test_a_list_gives_each_entry_its_own_brand_and_size() -> None:
    text = (
        "Options: Smooth Hazelnut Cocoa Spread by Brookline, 350 g, and Sunny Acre "
        "Smooth Hazelnut Cocoa Spread 400 g; or Brookline's Smooth Hazelnut Cocoa Spread (400 g)."
    )
    assert READ.proposed(text) == [BROOKLINE_350, BROOKLINE_400]
    assert READ.unclear(text) == ["Smooth Hazelnut Cocoa Spread"]


def test_the_shopper_takes_the_resolvers_answer_on_every_corpus_message() -> None:
    # One decision of what was put forward: the shopper's reading is the resolver's, never a
    # second weighing of it (it once kept one of several products the scorer counted).
    from domains.grocery.corpus import GROCERY_CORPORA, SHARE_FILES, load_grocery_corpus
    from domains.grocery.testing import tiny_catalog
    from domains.grocery.user import shopper_reader

    shopper = shopper_reader(CATALOG)
    texts = [r.text for p in sorted(CORPUS.glob("tuning*.jsonl")) for r in load_examples(p)]
    assert len(texts) > 3000
    for text in texts:
        reading, resolved = shopper.read(text), READ.resolve(text)
        got = reading.proposed, reading.named, reading.unclear
        assert got == (resolved.proposed, resolved.named, resolved.unclear), text
    tiny = tiny_catalog()
    small = shopper_reader(tiny)
    for row in load_grocery_corpus(*(GROCERY_CORPORA / f for f in SHARE_FILES["tuning"])):
        assert small.read(row.text).proposed == resolver(tiny).resolve(row.text).proposed


def test_a_basket_of_several_is_several_proposals_for_the_shopper_too() -> None:
    from domains.grocery.user import shopper_reader

    text = f"I've put {X} and {Y} in your basket. Shall I place the order?"
    assert shopper_reader(CATALOG).read(text).proposed == (OAT_CALCIUM, NUVOLA_BARISTA)
    assert READ.proposed(text) == [OAT_CALCIUM, NUVOLA_BARISTA]


def test_the_shopper_reads_with_the_same_resolver() -> None:
    from domains.grocery.user import shopper_reader

    reading = shopper_reader(CATALOG).read(
        "I suggest Smooth Hazelnut Cocoa Spread. Or Brookline's, 350 g?"
    )
    assert reading.proposed == ()
    assert reading.unclear == ("Smooth Hazelnut Cocoa Spread",)


def test_a_resolver_of_products_without_sizes_still_reads_names_and_ids() -> None:
    from domains.grocery.user.reader import NamedProduct

    tiny = Resolver([NamedProduct("off_12345678", "Oat Bar", "Acme")])
    assert tiny.proposed("An Oat Bar? Or off_12345678.") == ["off_12345678"]


def test_the_shipped_world_keeps_names_that_collide_as_real_shelves_do() -> None:
    # Issue 38: a bare name must not be enough to win, so the shipped snapshot keeps many names
    # on several products, across brands and across sizes. A regenerated world that hides the
    # problem fails here.
    by_name: dict[str, list[tuple[str, str]]] = {}
    for p in CATALOG.items:
        by_name.setdefault(p.name.casefold(), []).append((p.brand, p.quantity))
    shared = [ps for ps in by_name.values() if len(ps) >= 2]
    assert len(shared) >= 100
    assert sum(len(ps) for ps in shared) >= 250
    assert sum(len({b for b, _ in ps}) >= 2 for ps in shared) >= 80
    assert sum(len({q for _, q in ps}) >= 2 for ps in shared) >= 40
    assert sum(len({b for b, _ in ps}) >= 2 and len({q for _, q in ps}) >= 2 for ps in shared) >= 30


def test_sizes_are_compared_by_value_and_pack_count() -> None:
    # Brookline's 350 g spread said in grams, kilograms and without a space; a 6-pack is not
    # its single.
    for said in ("350g", "0.35 kg", "0,35kg", "350 grams"):
        said = _offered(f"Brookline Smooth Hazelnut Cocoa Spread {said}")
        assert READ.proposed(said) == [BROOKLINE_350]
    assert READ.proposed(_offered("Brookline Smooth Hazelnut Cocoa Spread 6 x 350 g")) == []


@pytest.mark.parametrize(
    "text",
    [
        "Brookline Smooth Hazelnut Cocoa Spread 350 g isn't out of stock any more.",
        "Brookline Smooth Hazelnut Cocoa Spread 350 g isn't too pricey at all.",
        "Brookline Smooth Hazelnut Cocoa Spread 350 g has no milk and no gluten.",
        "Nothing beats Brookline Smooth Hazelnut Cocoa Spread 350 g.",
        "Brookline Smooth Hazelnut Cocoa Spread 350 g is not only vegan but also organic.",
        "Brookline Smooth Hazelnut Cocoa Spread 350 g: in stock, under budget.",
    ],
)
def test_negated_rule_outs_and_good_news_rule_nothing_out(text: str) -> None:
    assert READ.proposed(text) == [BROOKLINE_350]


# Oatfield makes the only Calcium Soya Drink of its brand; Nuvola the only Barista Almond Drink.
OAT_CALCIUM = "off_2425533916112"
NUVOLA_BARISTA = "off_2134286760629"
X, Y = "Oatfield Calcium Soya Drink", "Nuvola Barista Almond Drink"


@pytest.mark.parametrize(
    ("text", "proposed"),
    [
        (f"{X} r out, sry. {Y} is in tho", [NUVOLA_BARISTA]),
        (f"{X}?? out. {Y}?? in 👍", [NUVOLA_BARISTA]),
        (f"{X} is finish in stock, I propose you {Y} instead.", [NUVOLA_BARISTA]),
        (f"no more {X} :( try {Y}?", [NUVOLA_BARISTA]),
        (f"{Y} > {X} for ur budget tbh", [NUVOLA_BARISTA]),
        (f"{Y} beats {X} on price. {Y} vs {X}: cheaper too.", [NUVOLA_BARISTA]),
        (f"I'd add {X} — sorry, I meant {Y}.", [NUVOLA_BARISTA]),
        (f"Go for {X}. Actually scratch that, {Y} is better value.", [NUVOLA_BARISTA]),
        (f"{X} costs more than {Y}; I'd stick with {Y}.", [NUVOLA_BARISTA]),
        (f"Alternatively there's {Y}, a bit pricier than {X}.", [NUVOLA_BARISTA]),
        (f"Between {X} and {Y}, I'd go with {Y}.", [NUVOLA_BARISTA]),
        (f"{X} vs {Y}? {X} wins — cheaper.", [OAT_CALCIUM]),
        (f"~~{X}~~ {Y} — the first one just went out of stock", [NUVOLA_BARISTA]),
        (f"{X} — that one's gone, sorry. {Y} is in though.", [NUVOLA_BARISTA]),
        (f"Sadly {X} is not anymore available. {Y} is.", [NUVOLA_BARISTA]),
        (f"{X} is finished, we have no more. You can take {Y}, is similar.", [NUVOLA_BARISTA]),
        (f"{Y} isnt organic, does taht matter? if not its the cheapest", [NUVOLA_BARISTA]),
        (f"The Oatfield Soya Drink Calcium is gone, but {Y} is in.", [NUVOLA_BARISTA]),
        ("Oatfield Soya Drink Calcium is in stock.", [OAT_CALCIUM]),
        # weighed side by side, then one named again on its own as the choice
        (f"{X} costs twice what {Y} does; I'd take the {Y}. Agreed?", [NUVOLA_BARISTA]),
        (f"{X} is nice, but {Y} is vegan. {Y} for you?", [NUVOLA_BARISTA]),
        (f"{X} €1.29 vs {Y} €2.99. Pick {Y}?", [NUVOLA_BARISTA]),
        (f"I compare {X} and {Y}. The first is cheaper. You want the first?", [OAT_CALCIUM]),
        # a state said bare, after a colon or with "all"
        (f"{X}: gone. {Y}: in stock. Take?", [NUVOLA_BARISTA]),
        (f"{X} all gone :/ {Y} instead??", [NUVOLA_BARISTA]),
        (f"{X} finish. {Y} is okay?", [NUVOLA_BARISTA]),
        (f"{X} is not here today. I give you {Y}, okay?", [NUVOLA_BARISTA]),
        # the verb "swap for Y" brings Y in; "no" before a word is no verdict
        (f"No more {X}, sorry: swap for {Y}?", [NUVOLA_BARISTA]),
        (f"{Y}: no added sugar. OK?", [NUVOLA_BARISTA]),
        # no choice made: both stay put forward
        (f"{X} or {Y}? Both are in stock.", [OAT_CALCIUM, NUVOLA_BARISTA]),
        (
            f"{X} and {Y} are both fine. I'd take the {Y} if you want one, but {X} works too.",
            [OAT_CALCIUM, NUVOLA_BARISTA],
        ),
        # asked, not said of the shopper's past: the product is offered
        (f"Have you tried {X}? It's a good match.", [OAT_CALCIUM]),
        (f"You've had {X} before, so try {Y}.", [NUVOLA_BARISTA]),
        # a decimal point is no sentence end: the "over" still reaches its mention
        (f"I'd suggest {Y} (the 1.5 l size aside) over {X}.", [NUVOLA_BARISTA]),
    ],
)
def test_rule_outs_in_shorthand_symbols_corrections_and_choices(
    text: str, proposed: list[str]
) -> None:
    assert READ.proposed(text) == proposed


@pytest.mark.parametrize(
    ("text", "proposed", "unclear"),
    [
        ("Greenpath's Classic Beef one is cheapest per kg.", ["off_24548571"], []),
        ("Hearthfield spread fits your list.", ["off_2200906498231"], []),
        ("Nuvola drink is in stock.", [], ["Barista Almond Drink"]),
        ("I'd go for the Barista Almond one.", [], ["Barista Almond Drink"]),
        ("Nuvola's Barista Almond one is in stock.", [NUVOLA_BARISTA], []),
    ],
)
def test_a_shortened_name_is_resolved_like_a_full_one(
    text: str, proposed: list[str], unclear: list[str]
) -> None:
    assert READ.proposed(_offered(text)) == proposed
    assert bool(READ.unclear(_offered(text))) == bool(unclear)


def test_a_list_shares_the_cue_said_of_all_its_members() -> None:
    text = (
        "Brookline Smooth Hazelnut Cocoa Spread 350 g and Brookline's Smooth Hazelnut Cocoa "
        f"Spread (400 g) are both sold out, so I'd suggest product {SUNNY_400[0]}."
    )
    assert READ.proposed(text) == [SUNNY_400[0]]


GLUTEN_FREE_400 = "off_2419602894432"  # Old Mill Bakery White Gluten-Free Loaf, 400 g
PALM_FRIED = "off_24117999"  # Little Meadow Ketchup Palm-Fried Puffs, 125 g


@pytest.mark.parametrize(
    ("text", "proposed"),
    [
        ("Old Mill Bakery White Gluten-Fee Loaf, 400 g, is in stock.", [GLUTEN_FREE_400]),
        ("Old Mill Bakery White Gluten Fee Loaf 400 g?", [GLUTEN_FREE_400]),
        ("Little Meadow Ketchup Palm-Frid Puffs 125 g fit.", [PALM_FRIED]),
        ("Little Meadow Ketchup Pal-mFried Puffs 125 g fit.", [PALM_FRIED]),
        # one slip in all: a second one names nothing
        ("Little Meadow Ketchup Palm-Fried Pufffs 125 g fit.", [PALM_FRIED]),
        ("Little Meadow Ketchup Pal-mFried Pufffs 125 g fit.", []),
    ],
)
def test_a_slip_inside_a_hyphenated_word_is_judged_as_in_one_word(
    text: str, proposed: list[str]
) -> None:
    assert READ.proposed(text) == proposed


CN_LUNGO, LK_LUNGO = "off_2115935823506", "off_2508377045092"  # Lungo Coffee Capsules, 20
ORCHARD_PULP = "off_2492700851200"  # Orchard Row With Pulp Orange Juice, 1 l
GP_HUMMUS = "off_2156758343000"  # Greenpath Lemon & Herb Hummus
GP_SHORTBREAD = "off_2301420849353"  # Greenpath Butter Rice Flour Shortbread
GP_YOGHURT = "off_2284364856475"  # Greenpath Low Fat Natural Yoghurt (not its Yoghurt Pots)


@pytest.mark.parametrize(
    ("text", "proposed", "unclear"),
    [
        # sizes in words, as a smart speaker writes them
        (
            "Brookline Smooth Hazelnut Cocoa Spread, three hundred and fifty grams",
            [BROOKLINE_350],
            [],
        ),
        ("brookline smooth hazelnut cocoa spread four hundred grams", [BROOKLINE_400], []),
        # a brand by its initials (in capitals) or with "and" for its "&"
        ("CN Lungo Coffee Capsules, please", [CN_LUNGO], []),
        ("L&K Lungo Coffee Capsules, 20 capsules", [LK_LUNGO], []),
        ("Leaf and Kettle Lungo Coffee Capsules", [LK_LUNGO], []),
        ("OR With Pulp Orange Juice fits.", [ORCHARD_PULP], []),
        (
            "Brookline Smooth Hazelnut Cocoa Spread 350 g or With Pulp Orange Juice",
            [BROOKLINE_350],
            ["With Pulp Orange Juice"],
        ),
        # a brand after a name and a link belongs to the next entry; a size before a name
        # is not the start of the name said in another order
        (
            "the Smooth Hazelnut Cocoa one and the Brookline nectar",
            ["off_25395150"],
            ["Smooth Hazelnut Cocoa Spread"],
        ),
        ("Try the 20 capsules Lungo Coffee Capsules from Cacao Norte.", [CN_LUNGO], []),
        # spoken: "and" for a name's "&", "percent" for its "%", pack counts in words
        ("kitchen hollow lemon and herb hummus three hundred grams", ["off_2558633675082"], []),
        ("70 per cent dark chocolate", [], ["70% Dark Chocolate"]),
        ("Frostgate Classic Fish Fingers, fifteen times thirty grams", ["off_2118367140876"], []),
        ("Frostgate Classic Fish Fingers, 10 times 30 grams", ["off_2352923693981"], []),
        (
            "Nothing is missing: Nuvola Barista Almond Drink is in your basket.",
            [NUVOLA_BARISTA],
            [],
        ),
        # a name shortened after its brand, as English shortens a noun phrase (its kind with
        # words before it, or its opening words)
        ("Maybe the Greenpath lemon & herb would suit?", [GP_HUMMUS], []),
        ("How about the Oatfield calcium soya?", [OAT_CALCIUM], []),
        ("Greenpath shortbread is lovely with tea.", [GP_SHORTBREAD], []),
        ("Greenpath yoghurt, then?", [GP_YOGHURT], []),
        # the head noun comes last: Sunny Acre's Crunchy Peanut Butter, not its Butter Rice
        # Flour Shortbread; the name without just its kind before its longer namesakes
        ("Sunny Acre butter?", ["off_2866811088532"], []),
        ("the Greenpath plain oat, then", ["off_2128065549451"], []),
        # or before "by / from" and its brand
        ("I'd suggest the Barista Almond from Nuvola.", [NUVOLA_BARISTA], []),
        ("Lemon & Herb by Greenpath is lovely.", [GP_HUMMUS], []),
        # the brand's first words fit several of its products: ask which
        ("Try the Greenpath tofu.", [], ["Tofu Satay Noodles"]),
        # a brand followed by words that open none of its names names nothing
        ("Greenpath makes a lovely range.", [], []),
    ],
)
def test_sizes_in_words_brand_initials_shortened_names_and_where_a_brand_belongs(
    text: str, proposed: list[str], unclear: list[str]
) -> None:
    assert READ.proposed(_offered(text)) == proposed
    assert READ.unclear(_offered(text)) == unclear


# Rule-outs said in more of the usual ways (our own words, written to probe each cause of the
# fresh shares' misses rather than to echo them): X is ruled out, Y put forward.
RULED_OUT_THE_USUAL_WAYS = [
    # stock, budget, removal and discouragement said in more of the usual ways
    f"{X} empty on the shelf today, so {Y}.",
    f"You'd go over your budget with {X}, so {Y}.",
    f"{X} is pricier than your limit. {Y} fits.",
    f"Please ditch {X} from the basket and add {Y}.",
    f"Don't bother with {X}; {Y} is better value.",
    f"{X} is not in the stock now. {Y} is.",
    f"Oops, I put {X} but meant {Y}.",
    f"Please ignore my earlier mention of {X}; {Y} is the one.",
    f"I'd pass on {X}. {Y} is nicer.",
    f"You used to get {X}; today I'd go for {Y}.",
    f"Sorry, out of {X}. {Y} instead?",
    f"{X} gone. We can swap to {Y} - ok?",
    # records, tables and notes
    f"{X} (1 l) = no (soy). {Y} = yes",
    f'[{{"item": "{X}", "available": false}}, {{"item": "{Y}", "available": true}}]',
    f"Product | In stock\n{X} | no\n{Y} | yes",
    f"Last order: {X}. Today's pick: {Y}.",
    f"OK {Y}\nFAIL {X} (soy)",
    # two set side by side, one then chosen; the other stays passed over when named again
    f"Comparing {X} to {Y}, {Y} wins.",
    f"I weighed up {X} and {Y}; {Y} wins.",
    f"{X} or {Y}? I'd grab {Y}.",
    f"Between {X} and {Y} I prefer {Y}: it is cheaper, while {X} costs more.",
    f"Of the two, {X} and {Y}, I'd recommend {Y}.",
    f"{X} and {Y} are alike, but {Y} has less sugar, so I'd pick {Y}.",
    f"{X} vs {Y}: {Y} is the better deal.",
    # the agent's own first thought, taken back
    f"I was going to suggest {X}, but {Y} fits better.",
    f"My first pick was {X}; on reflection, {Y}.",
    f"I had {X} in mind, but {Y} is cheaper.",
    # corrections, stock and shelves said in other words
    f"My mistake: I typed {X} but it should be {Y}.",
    f"I said {X} before - please read that as {Y}.",
    f"Stock for {X} ran dry, so here is {Y}.",
    f"Take {Y} and leave {X} on the shelf.",
    # non-native and hurried writing, slips in the cue words mended
    f"{X} is not disponible. I can offer {Y}.",
    f"Unfortunately, {X} we do not have. Please take {Y}.",
    f"{X} is sould out, try {Y}",
    f"sry {X} outta stock. {Y}?",
    f"{X} is unavialable; {Y} is fine.",
    f"{X} is too expnsive, {Y} is chepaer.",
    # dislike, advice against, history and verdicts in other words
    f"I must advise against {X} given your allergy. {Y} would be suitable.",
    f"{X} was returned; {Y} is on its way.",
    f"You weren't keen on {X}, so here's {Y}.",
    f"You've told me you can't stand {X}; {Y} is milder.",
    f"{X} is a no from me. {Y} is a yes.",
    f"{X} vs {Y}? {Y}, easily.",
    f"{X} (1 l) 🚫 soy | {Y} (1 l) 👍",
    # the old product of a substitution, whichever comes first
    f"I can substitute {Y} for {X}.",
    f"I substituted {X} with {Y}.",
    f"I've subbed in {Y} for {X}.",
    f"{Y} in lieu of {X}.",
    f"{Y} can take the place of {X}.",
    f"Replacement: {Y} (for {X}).",
    # history, stock and returns in more words
    f"You previously purchased {X}. For today, {Y} is a good pick.",
    f"Last time you went with {X}; today I'd say {Y}.",
    f"Unfortunately {X} is not in our assortment anymore, so I recommend {Y}.",
    f"About {X}: sadly no more in store. {Y} is a good choice.",
    f"{X} currently cannot buy. {Y} can buy.",
    f"Per your return, {X} is being refunded. Can I suggest {Y}?",
    f"The exchange is set: {X} goes back, {Y} comes to you.",
    # a list does not run on across the end of a clause
    f"I'd go with {Y}; {X} would blow your budget.",
    # a label of a few words, or closed by an arrow
    f'{{"suggestion": "{Y}", "alternatives_rejected": ["{X}"]}}',
    f"Recommendation → {Y}\nExcluded → {X}",
    # the shopper's own words and requests
    f"In your message you said {X} — I found {Y} instead.",
    f"Your request: {X}. My suggestion: {Y}.",
    f"Looking for {X}? We only carry {Y}.",
    f"You liked {X} before, so you may like {Y}.",
    f"{X} (your regular) is out — {Y} is in.",
    f"Since {X} didn't agree with you, let's try {Y}.",
    # a clause after a semicolon speaks of what ends the clause before
    f"{X}; sadly none left. {Y} is here.",
    # the runner-up, and a product the agent tried and failed to add
    f"I think {Y} is the one; {X} came close, but the soy rules it out.",
    f"You've got {Y} in the basket. I tried to add {X} but it's out.",
    # an id alone: "no" before it, or "no." after a verdict, is no id label
    f"There's no {OAT_CALCIUM} left. Shall I add {Y}?",
    f"With your allergy, {OAT_CALCIUM} is a no. {NUVOLA_BARISTA} is safe.",
    f"{OAT_CALCIUM}? No. {NUVOLA_BARISTA}? Yes.",
    # a size before a colon belongs to what came before it; two asides after a name
    f"{X} vs {Y}, 1 l: {Y}, 1 l is the better deal.",
    f"{X} (1 l) (your regular) is out — {Y} is in.",
    f"Based on your history (the Oatfield calcium soya), I'd suggest {Y}.",
    # a hurried writer's slips and texting
    f"{X} is out of stok, try {Y}",
    f"sry {X} has soy n ur alergic, {Y} is fine",
    f"{X} is over ur bugdet, {Y} is cheeper",
    f"i'd reccomend {Y} insted of {X}",
    # a basket recap, a checklist line, a label of what is not on the list
    f"Recap — you've got {Y}. I left {X} out since it's pricey.",
    f"1. {Y} — added\n2. {X} — skipped (soy)",
    f"Your list: {Y}. Not on it: {X}.",
]


@pytest.mark.parametrize(
    "text",
    [
        f"{X} oos, sorry. {Y}?",
        f"{X} 2 pricey. {Y} is cheaper.",
        f"We are in rupture of stock for {X}. I can offer {Y}.",
        f"### Not available\n- {X}\n\n### Instead\n- {Y}",
        f'{{"pick": "{Y}", "excluded": "{X}"}}',
        f'{{"excluded": "{X}", "pick": "{Y}"}}',
        f"item: {X}\nin_stock: false\nalternative: {Y}\nin_stock: true",
        f"proposed: {Y}. blocked by allergen check: {X}.",
        f"{X} vs {Y}: the second is cheaper, so my pick is {Y}.",
        f"Between {X} and that {Y}, I'd choose that {Y}.",
        f"{X} was my first thought, but {Y} is cheaper.",
        f"you said you liked {X}, so here's {Y}",
        f"{X}: 0 left. {Y}: 12 left.",
        f"{X} is not more available, please take {Y}.",
        f"{X} is missing from the shelf, {Y} is here.",
        f"{X} — temporarily out. {Y} — available now.",
        f"Out: {X}. In: {Y}.",
        f"Forget about {X}; take {Y}.",
        # a tick or a cross beside each product: after them, or before them when the line
        # opens with one
        f"{X} ✘ {Y} ✔",
        f"✅ {Y} ❌ {X}",
        f"- {Y} ✓\n- {X} ✗",
        # a flag in the product's own record; old and new in a swap; a bare "no"
        f'{{"product": "{X}", "in_stock": false}}\n{{"product": "{Y}", "in_stock": true}}',
        f"item={X} stock=0\nitem={Y} stock=14",
        f"{Y} swapped in for {X}.",
        f"Change: {X} to {Y}.",
        f"{X}? Sadly no. {Y}? Yes!",
        f"Unfortunately, {X} cannot be supplied. {Y} is available.",
        f"I'd steer you away from {X} (soy) toward {Y}.",
        f"You mentioned {X}. We've got {Y} instead.",
        f"{X} is too sugary for your plan; {Y} is better.",
        f"{X} is high in sugar, so I'd leave it. {Y} is a better fit.",
        f"{X} has a Nutri-Score of E, which is below your minimum. {Y} scores B.",
        f"Cheaper swap: {Y} (not {X}).",
        f"{X} isn't worth it. {Y} is.",
        f"{X} is overpriced; {Y} is fair.",
        # the measure a product is likened to, and the shopper's past liking
        f"{Y} is quite similar to {X}, and it is in stock.",
        f"Since you enjoyed {X}, {Y} might suit you as well.",
        # a comparison table settled by a recommendation under it
        f"| | {X} | {Y} |\n|---|---|---|\n| Price | €1.29 | €2.99 |\n\n**Recommendation:** {Y}.",
        *RULED_OUT_THE_USUAL_WAYS,
    ],
)
def test_shorthand_records_headings_and_picks_rule_the_other_out(text: str) -> None:
    assert READ.proposed(text) == [NUVOLA_BARISTA]
    assert OAT_CALCIUM in READ.named(text)


# -- the labelled corpus ----------------------------------------------------------------------

SHARES = {p.stem: load_examples(p) for p in sorted(CORPUS.glob("*.jsonl"))}


def test_every_corpus_file_is_in_exactly_one_share() -> None:
    assert set(TUNING).isdisjoint(HELD_OUT)
    assert set(SHARES) == {*TUNING, *HELD_OUT}


def test_the_corpus_is_large_and_names_products_every_way() -> None:
    total = sum(len(rows) for rows in SHARES.values())
    assert total >= 200
    # Both earlier held-out shares were measured twice and then tuned on: `heldout` (500
    # messages) is `tuning-m` now and `heldout2` (640) is `tuning-n2`; no file keeps an old name.
    assert not {"heldout", "heldout2"} & set(SHARES)
    assert len(SHARES["tuning-m"]) == 500
    assert len(SHARES["tuning-n2"]) == 640
    styles = {s for rows in SHARES.values() for r in rows for s in r.style.split(", ")}
    assert {"full", "brand+name", "name+size", "id", "bare", "full+typo"} <= styles


def test_the_corpus_files_are_what_the_script_writes() -> None:
    script = ROOT / "scripts" / "grocery_mentions_corpus.py"
    done = subprocess.run(
        [sys.executable, str(script), "--check"], capture_output=True, text=True, cwd=ROOT
    )
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("share", TUNING)
def test_the_tuning_shares_read_exactly(share: str) -> None:
    result = score_resolver(READ, SHARES[share])
    assert result.exact_rate >= 0.98, result.misses[:5]
    assert result.ruled_out_counted == 0


def test_a_registered_held_out_share_keeps_a_tenth_of_the_corpus() -> None:
    # The held-out share (`heldout3`, 91 templates of its own) must stay a real share of the
    # corpus: at least a tenth of its messages. Every retired held-out share joined the tuning
    # share, so the fraction falls with each round; the share's worth is its own templates.
    if not HELD_OUT:
        pytest.skip("no held-out mention share is registered")
    total = sum(len(rows) for rows in SHARES.values())
    assert sum(len(SHARES[s]) for s in HELD_OUT) / total >= 0.10


def test_a_bad_corpus_row_names_the_line_and_field(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"text": "hi", "proposed": [], "style": "x"}\n{"text": "", "proposed": []}\n')
    with pytest.raises(LoadError, match=r"line 2: text"):
        load_examples(bad)


@pytest.mark.parametrize(
    "text",
    [
        # what goes back is named, never suggested: a return heading, a past order said in texting
        f"## Returns\n- {X} × 2, refund €2.58\n\nOK to go ahead?",
        f"found {X} from ur order, send it back?",
        # praise of the shopper's own product while the agent is still to search
        f"ooh {X} is lovely, ok searching",
        # a record nested under a return, a note, a verb with its particle
        f"refund_request:\n  product: {X}\n  amount: €1.99\nproceed? y/n",
        f"{X} back, €1.99 refunded to your card. OK?",
        f"I'll take {X} back and credit your card.",
    ],
)
def test_a_return_or_the_shoppers_own_product_is_named_not_put_forward(text: str) -> None:
    assert READ.proposed(text) == []
    assert READ.named(text) == [OAT_CALCIUM]


def test_a_shortcoming_put_as_a_check_in_the_next_sentence_still_puts_forward() -> None:
    text = f"{Y} is not vegan. Does that suit you?"
    assert READ.proposed(text) == [NUVOLA_BARISTA]


# -- ruling out, said the usual ways, and what still puts forward -----------------------------


@pytest.mark.parametrize(
    "text",
    [
        f"Here's {Y} — it's not too pricey and has no nuts.",
        f"I found {Y}. It isn't out of stock, good news!",
        f"{Y} isn't the cheapest, but it's the best value.",
        f"| Product | Price | In stock |\n|---|---|---|\n| {Y} | €1.80 | yes |",
        f"I would not hesitate to recommend {Y}.",
        f"Stock check: {Y} is there.",  # a word of a cue, mended or not, rules nothing out
        f"{Y}? Can I substitute it for you?",
        f"out of stock :( swap for {Y}?",  # an emoticon's bracket opens nothing
        f"Out of stock items: none. Suggested: {Y}.",
        f"| Product | Contains |\n|---|---|\n| {Y} | no soy |",
        f"Instead of searching more, just take {Y}.",
        f"You said you wanted something creamy: {Y} is perfect.",
        f"Looking for a creamy drink? {Y} is it.",
        f"You'll love {Y}; it's not like the others.",  # "not like" compares
        f"You've got {Y} in your basket already. Shall I order?",
        # a shortcoming put to the shopper as a check: still put forward
        f"{Y} isn't organic. It is fine?",
        f"{Y} contains almonds; are you okay with that?",
        f"{Y} has nuts in it. Fine with your allergy?",
        f"{Y} contains tree nuts. Could you confirm that is not a problem?",
    ],
)
def test_words_of_the_cues_in_a_proposal_rule_nothing_out(text: str) -> None:
    assert READ.resolve(text).proposed == READ.resolve(text).named == (NUVOLA_BARISTA,)


@pytest.mark.parametrize(
    "text",
    [
        f"I checked {X} and {Y}; neither fits your budget.",
        f"{X} (soy) and {Y} (nuts) are both unsuitable for you.",
        f"Neither {X} nor {Y} is available today.",
    ],
)
def test_two_ruled_out_put_nothing_forward(text: str) -> None:
    assert READ.proposed(text) == []
    assert READ.named(text) == [OAT_CALCIUM, NUVOLA_BARISTA]


def test_a_mended_slip_keeps_where_each_mention_stands() -> None:
    text = f"{X} is unavialable, {Y} is avaialble."
    spans = [(m.start, m.end) for m in READ.find(text)]
    assert [text[a:b] for a, b in spans] == [X, Y]


# -- the eighth round: put forward only on positive evidence -----------------------------------


@pytest.mark.parametrize(
    ("text", "put_forward"),
    [
        # only named: a record's "product:" key, a fact about the product, where it is
        (f"product: {Y}\nnot_available: {X}", False),
        (f"{Y} comes in a 1 l carton.", False),
        (f"{Y} was first sold in 2019.", False),
        (f"You'll spot {Y} on the bottom shelf.", False),
        # positive evidence: a proposal, a fit, a list of options, an offer pointing back, the
        # product named after one set aside, a cue that is only where the other was taken from
        (f"I'd recommend {Y}.", True),
        (f"{Y} fits your budget.", True),
        (f"Options:\n- {Y}\n- something else", True),
        (f"{Y}, €2.40, in stock. Shall I add it?", True),
        (f"{X} is sold out; {Y} is here.", True),
        (f"{X} got bumped from the shortlist. How about {Y}?", True),
    ],
)
def test_a_product_is_put_forward_only_on_positive_evidence(text: str, put_forward: bool) -> None:
    read = READ.resolve(text)
    assert NUVOLA_BARISTA in read.named
    assert (read.proposed, read.unclear) == (((NUVOLA_BARISTA,) if put_forward else ()), ())


def test_a_name_fitting_several_products_is_unclear_only_when_put_forward() -> None:
    assert READ.unclear("Smooth Hazelnut Cocoa Spread comes in a glass jar.") == []
    assert READ.unclear("I'd suggest Smooth Hazelnut Cocoa Spread.") == [
        "Smooth Hazelnut Cocoa Spread"
    ]
