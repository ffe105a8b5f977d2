"""The sixth round's causes of ruling out, probed in our own words (never corpus text), in the
voices of chat agents: what the shopper already holds recalled beside a new proposal, allergen
content said with any verb, a choice said by an idiom or a word standing for the product, the
shopper's words in texting, a substitution record's old side; and the near twins that must still
put forward."""

from __future__ import annotations

from pathlib import Path

import pytest

from domains.grocery.catalog import load_catalog
from domains.grocery.mentions import resolver

ROOT = Path(__file__).resolve().parents[3]
READ = resolver(load_catalog(ROOT / "domains" / "grocery" / "snapshots" / "2026-11-01"))

# Oatfield makes the only Calcium Soya Drink of its brand; Nuvola the only Barista Almond Drink.
OAT_CALCIUM = "off_2425533916112"
NUVOLA_BARISTA = "off_2134286760629"
X, Y = "Oatfield Calcium Soya Drink", "Nuvola Barista Almond Drink"

# X is named without being put forward; Y is put forward.
X_OUT_Y_IN = {
    "held": [
        f"Your cart so far: {X}. Next up I'd suggest {Y} — want it?",
        f"Currently in your trolley:\n- {X}\n\nTo go with it: {Y}. Add?",
        f"You already picked up {X}. How about {Y} as well?",
        f"Basket so far — {X}. Something else? {Y} would go nicely.",
        f"Great, {X} is already sitting in your basket. Shall I add {Y} too?",
        f"Already added: {X}. Up next: {Y}?",
        f"Your basket currently holds {X}. I'd round it off with {Y}.",
        f"got: {X}. next: {Y}?",
        f"You're already getting {X}, so let me suggest {Y} to go with it.",
        f"**In your basket**\n- {X}\n\n**My suggestion:** {Y}",
    ],
    "content": [
        f"Heads-up: {X} has a little milk in it, so I'd steer you to {Y}.",
        f"{X} hides a bit of soya. {Y} is a safe bet.",
        f"Watch out, {X} carries traces of peanuts. {Y} is safe for you.",
        f"{X} sneaks in some soy, so {Y} it is.",
        f"{X} is loaded with dairy; {Y} is the safer pick.",
        f"There's soy in {X}, so I'd go with {Y}.",
        f"{X} is made with soya beans. {Y} is soy-free.",
        f"Careful — {X} has soy in it! Try {Y}.",
    ],
    "choice": [
        f"{X} or {Y}? Close call, but {Y} takes the crown.",
        f"Looking at {X} and {Y}: {Y} edges it on price.",
        f"{X} versus {Y} — {Y} comes out on top for me.",
        f"I compared {X} with {Y}. {Y} has the better Nutri-Score, so that's my pick.",
        f"{X} vs {Y}: {Y} gets my vote.",
        f"Between {X} and {Y}, {Y} has a better price per litre, so it's the one I'd pick.",
        f"{X} vs {Y}... {Y} takes it, hands down.",
    ],
    "shopper": [
        f"u mentioned {X} was too sweet, so maybe {Y}?",
        f"ur usual {X} is gone, {Y} ok?",
        f"you told me {X} was too salty. {Y} has less salt.",
        f"{X} was too bland for you last time, so {Y}.",
        f"{X} is a little too sweet for you; {Y} is milder.",
        f"youve already had {X}, try {Y} this time",
    ],
    "record": [
        f"Swap\nold: {X}\nnew: {Y}\nOK?",
        f"- before: {X}\n- after: {Y}",
        f"Replacing: {X}\nWith: {Y}",
        f"Original item: {X}\nSubstitute: {Y}",
        f"Out: {X} | In: {Y}",
        f"Removed: {X}\nAdded: {Y}",
    ],
    # the causes of the rest of the misses, probed the same way
    "correction": [
        f"Typo on my side: where I wrote {X}, please read {Y}.",
        f"Small fix — for {X} read {Y}. Sorry!",
        f"Correction to my last message: wherever it says {X}, it should say {Y}.",
        f"Ignore the {X} bit above; I meant to type {Y}.",
        f"Where I said {X}, read {Y} instead.",
    ],
    "verdict label": [
        f"Options\n1. {X}: €1.99\n2. {Y}: €2.49\nMy pick: {Y}",
        f"| Product | Price |\n|---|---|\n| {X} | €1.99 |\n| {Y} | €2.49 |\n\nVerdict: {Y}",
        f"Head to head:\n- {X}\n- {Y}\nBest buy → {Y}",
        f"Compared: {X}, {Y}.\nTop pick: {Y}",
    ],
    "received with a fault": [
        f"So sorry your {X} arrived damaged. I'll refund it — may I suggest {Y} instead?",
        f"The {X} you received was leaking, I'm so sorry. I can send {Y} as a replacement.",
        f"Apologies that {X} came past its best-before date. Would {Y} work for you?",
        f"Sorry {X} turned up crushed! How about {Y}?",
        f"Your {X} was faulty; the refund is on its way. Perhaps {Y} this time?",
    ],
    "gone from the shelf": [
        f"Oh no, {X} has vanished from the shelves. {Y} is here though!",
        f"{X} seems to have disappeared from our range, so {Y}?",
        f"{X} got snapped up this morning — {Y} is still available.",
        f"{X} is nowhere to be found today; {Y} is in stock.",
        f"{X} flew off the shelves! {Y} is the next best thing.",
    ],
    # the causes of the grocery reader's false leaves and proposal misses, probed the same way
    "likened to": [
        f"{Y} is a bit like {X}, but creamier. Want it?",
        f"{Y} is rather like {X}, only cheaper.",
        f"Think of {Y} as a twist on {X}.",
        f"{Y} resembles {X} but froths better.",
        f"{Y} is akin to {X}, with more body.",
        f"{Y} — much like {X}, just less sweet.",
    ],
    "known or owned by the shopper": [
        f"You might know {X}; {Y} is in the same vein.",
        f"You probably remember {X}. {Y} is from the same shelf and cheaper.",
        f"Enjoy your {X}! Meanwhile, {Y} is on offer if you fancy it.",
        f"Hope you love your {X}. Want to add {Y} as well?",
        f"From your order last week, {X} — refund done. Shall I add {Y}?",
    ],
    "chosen with a firmer verb, or by the closing offer": [
        f"{X} or {Y}? I'd plump for {Y}.",
        f"Weighing {X} against {Y}, I'd side with {Y}.",
        f"Between {X} and {Y}, I'd lean towards {Y}: higher score than {X}. Shall I add {Y}?",
    ],
    "no stock, said short": [
        f"{X} no more stock. I give you {Y}?",
        f"{X} zero stock today, {Y} ok?",
    ],
    "content in other forms": [
        f"{X} is having soy inside, so not that one. {Y} has none.",
        f"{X} is containing soya; {Y} is a better fit.",
    ],
}


@pytest.mark.parametrize(
    "text", [t for texts in X_OUT_Y_IN.values() for t in texts], ids=lambda t: t[:40]
)
def test_each_cause_rules_the_first_out_and_puts_the_second_forward(text: str) -> None:
    read = READ.resolve(text)
    assert read.proposed == (NUVOLA_BARISTA,)
    assert set(read.named) == {OAT_CALCIUM, NUVOLA_BARISTA}


@pytest.mark.parametrize(
    "text",
    [
        f"Return details\n- Product: {X}\n- Qty: 1\n- Refund: €1.99 to your card\nConfirm?",
        f"1. {X}\n2. Refund amount: €1.99\nOK?",
        f"- **Item:** {X}\n- **Return reason:** leaking\n\nGo ahead?",
    ],
)
def test_what_a_returns_record_names_goes_back(text: str) -> None:
    assert READ.proposed(text) == []
    assert READ.named(text) == [OAT_CALCIUM]


@pytest.mark.parametrize(
    "text",
    [
        # a basket to confirm is all put forward; so is a choice not yet made
        f"Your basket: {X} and {Y}. Total €5.20. Shall I check out?",
        f"Done! Your basket now holds {X} x 2 and {Y} x 1 (total €6.10). Confirm?",
        f"In your basket: {X}: Oatfield, 1 l (x2) and {Y} (x1). Total €7.65 — go ahead?",
        f"{X} or {Y}? Both get good reviews — which would you like?",
    ],
)
def test_a_basket_to_confirm_or_an_open_choice_puts_both_forward(text: str) -> None:
    assert set(READ.proposed(text)) == {OAT_CALCIUM, NUVOLA_BARISTA}


@pytest.mark.parametrize(
    "text",
    [
        # a "what" clause after a preposition speaks of something else
        f"{Y} goes well with what you already have.",
        f"{Y} complements what's already in your basket.",
        # no allergen content: free of it, said of the allergy, or served with it
        f"{Y} is milk-free and nut-free.",
        f"{Y} — a good fit for your nut allergy.",
        f"{Y} is lovely with butter on toast.",
        f"{Y} has no trace of gluten.",
        # a recap with nothing new beside it is a basket to confirm
        f"So far you have {Y}. Anything else, or shall I order?",
        # "too" under a negation, or meaning "also"
        f"{Y} is not too sweet.",
        f"{Y} — you'll find it's not too sweet and not too thin.",
        f"{Y} is vegan too, and cheap.",
        # "nothing", "none", "free of" before a state negate it
        f"{Y} has nothing on your avoid list and it is in stock.",
        f"{Y}: none of your allergens, nothing over budget.",
        f"{Y} is free of anything on your no-go list.",
        f"{Y} is in stock and has no ingredients from your avoid list.",
        # "read", "winner" and "arrived" with nothing to correct, weigh or fault
        f"I read the reviews: {Y} is excellent.",
        f"Winner of our taste test: {Y}.",
        f"{Y} arrived fresh this morning.",
        # a shortcoming put to the shopper as a check, the ways a non-native or hurried writer asks
        f"{Y} – has almonds. Fine for your diet?",
        f"{Y} contains almonds. OK for you?",
        f"{Y} is not organic. It is problem for you?",
        f"This {Y} have almonds inside. You can eat almonds?",
        f"{Y} is 1 l. Too big?",
        # a likeness, knowledge or a record's keys that rule nothing out
        f"{Y} is a lot like what you had in mind.",
        f"Something like {Y} would suit you.",
        f"You'll know {Y} when you see it — bright blue carton.",
        f"Do you know {Y}? It's lovely.",
        f"Pick:\n• {Y}\nReason:\n• in stock\n• under budget",
        f"Your return of {X} is done.\n\nFor next time:\n- {Y}\n- Price: €2.49",
    ],
)
def test_the_near_twins_still_put_forward(text: str) -> None:
    assert READ.proposed(text) == [NUVOLA_BARISTA]


# -- a batch over every group of the fresh rounds, written after the rules above, to see how far
# they reach (first read 44/54 rule-outs, 5/5 pairs, 11/12 proposals); its misses then taught: "not
# something we can get", "can't deliver", "nothing there", "on backorder", "steep for your
# budget", "give A a miss", "A crossed my mind, but", "had A lined up; changed it to", "you
# picked up A", "what you told me about A", and "can't recommend A enough" as praise.

GROUP_PROBES = {
    "stock": [
        f"I'm afraid {X} isn't something we can get at the moment. {Y} is ready to ship.",
        f"Quick update: {X} — currently unavailable 😕. {Y} — available ✅",
        f"**Status**\n- {X}: temporarily out\n- {Y}: in stock\n\nShall I add {Y}?",
        f"Unfortunately our supplier can't deliver {X} this week, so I'd recommend {Y}.",
        f"{X} won't be back until next month. Would {Y} do in the meantime?",
        f"Checked the shelf for {X}: nothing there. {Y} is plentiful though.",
        f"Stock alert ⚠️ {X} is on backorder. Alternative: {Y}.",
        f"{X}: can't find it anywhere in the warehouse. {Y}: good to go.",
    ],
    "allergen-diet": [
        f"Since you're vegan, {X} won't do — it's got honey. {Y} is fully plant-based.",
        f"{X} lists soy as an ingredient, which you're avoiding, so I went with {Y}.",
        f"Allergy check: {X} ❌ (soy), {Y} ✅",
        f"{X} is processed in a facility that handles nuts — not ideal for you. {Y} is made in a nut-free site.",
        f"For your soy allergy, {X} is a no. {Y} is soy-free.",
        f"{X} — unsafe given your allergy. {Y} — safe.",
    ],
    "budget": [
        f"{X} would push you past your €2 limit, so {Y} makes more sense.",
        f"{X} is a bit steep for your budget; {Y} comes in under it.",
        f"Budget-wise, {X} doesn't work. {Y} does.",
        f"{X} costs more than you wanted to spend. {Y} is €1.49.",
        f"{X} is outside your price range — {Y} fits.",
    ],
    "skip-instead": [
        f"Not {X} — go for {Y}.",
        f"Let's swap {X} out for {Y}.",
        f"Rather than {X}, I'd pick up {Y}.",
        f"I'd give {X} a miss and grab {Y}.",
        f"{Y}, not {X}.",
        f"Forget about {X}; {Y} is the better buy.",
        f"I've taken {X} off the list and put {Y} in its place.",
    ],
    "reconsidered": [
        f"I initially thought of {X}, but {Y} suits you better.",
        f"On second thought, {X} isn't right for you. {Y} is.",
        f"{X} crossed my mind, but {Y} is the smarter pick.",
        f"Originally I had {X} lined up; I've changed it to {Y}.",
        f"{X} won't work because of the soy. {Y} will.",
    ],
    "correction": [
        f"Apologies, I mixed them up: not {X}, I meant {Y}.",
        f"Oops — {X} was a mistake; the right one is {Y}.",
        f"Let me correct that: {Y}, not {X}.",
        f"Sorry, wrong product! Replace {X} with {Y} in what I said.",
    ],
    "comparison": [
        f"{X} vs {Y}: {Y} is cheaper and tastier, so {Y} it is.",
        f"Both {X} and {Y} are decent, but I'd go with {Y}.",
        f"{Y} outshines {X} on every count.",
        f"If I had to choose between {X} and {Y}, I'd choose {Y}.",
        f"{X} is good, {Y} is better — I'd take {Y}.",
    ],
    "history": [
        f"Last month you picked up {X}. This time, how about {Y}?",
        f"Your order history shows {X}; for a change, try {Y}.",
        f"You normally get {X}, but {Y} is on offer today.",
        f"You said {X} didn't agree with you, so here's {Y}.",
        f"Based on what you told me about {X}, I think {Y} is a better match.",
    ],
    "substitution": [
        f"I've substituted {Y} for {X}, which was unavailable.",
        f"{X} → {Y} (same size, similar price).",
        f"Replacement for {X}: {Y}. OK?",
        f"We'll send {Y} in place of {X}.",
        f"{Y} will replace {X} in your order.",
    ],
    "return": [
        f"I've arranged the return of {X}. You'll get €1.99 back. Meanwhile, {Y} is a good swap.",
        f"Refund for {X} is approved. Want to try {Y} instead?",
        f"Got it — {X} is going back. Shall I order {Y}?",
        f"Exchange confirmed: {X} out, {Y} in.",
    ],
}
GROUP_BOTH = [
    f"Two good options: {X} and {Y}. Which do you prefer?",
    f"Here are my picks:\n1. {X}\n2. {Y}\nWant both?",
    f"Your basket: {X} ×2, {Y} ×1. Total €7.47. Shall I place the order?",
    f"I'd suggest {X} for breakfast and {Y} for your coffee.",
    f"Both {X} and {Y} are in stock and within budget.",
]
GROUP_Y_ONLY = [
    f"{Y} is back in stock — shall I add it?",
    f"{Y} has no soy, no nuts and stays under your budget.",
    f"No worries about allergens with {Y}.",
    f"{Y}: in stock, €2.49, vegan. Add it?",
    f"Instead of browsing further, I'd just go with {Y}.",
    f"Good news: {Y} isn't sold out after all!",
    f"I can't recommend {Y} enough — it froths beautifully.",
    f"{Y} won't break the bank.",
    f"You won't find a better barista drink than {Y}.",
    f"Rather than waste your time, here's the one: {Y}.",
    f"{Y} should be fine for your diet — it's vegan.",
    f"Did you mean {Y}? It's in stock.",
]


@pytest.mark.parametrize(
    "text", [t for texts in GROUP_PROBES.values() for t in texts], ids=lambda t: t[:40]
)
def test_every_group_of_rule_out_reaches_beyond_the_corpus(text: str) -> None:
    assert READ.proposed(text) == [NUVOLA_BARISTA]
    assert set(READ.named(text)) == {OAT_CALCIUM, NUVOLA_BARISTA}


@pytest.mark.parametrize("text", GROUP_BOTH, ids=lambda t: t[:40])
def test_proposals_of_two_put_both_forward(text: str) -> None:
    assert set(READ.proposed(text)) == {OAT_CALCIUM, NUVOLA_BARISTA}


@pytest.mark.parametrize("text", GROUP_Y_ONLY, ids=lambda t: t[:40])
def test_proposals_full_of_cue_words_rule_nothing_out(text: str) -> None:
    assert READ.proposed(text) == [NUVOLA_BARISTA]


# -- a batch of layouts and voices (headings, JSON, tables, tilde notes, emoji with arrows,
# non-native English, texting, formal), each shape filled with five namings; first read 70/90
# rule-outs (14/18 shapes), 15/15 pairs. Its misses taught: a verdict after "~" or bold markup
# ("**A** ~ skip"), "we not have" (no auxiliary), an arrow before a tick or a cross, and a
# sentence that opens "Not today —".

BLUE_CHEESE, TORTILLA_CHIPS = "off_2914276378696", "off_2941746113969"
# Fromagerie Lusse Strong Blue Cheese 150 g and Crackle & Co Chilli Tortilla Chips 200 g (each
# name unique), in five namings: bare, lower case with size, bracketed, bold, capitals.
A_NAMES = [
    "Strong Blue Cheese",
    "fromagerie lusse strong blue cheese 150g",
    "Strong Blue Cheese (Fromagerie Lusse, 150 g)",
    "**Fromagerie Lusse Strong Blue Cheese**",
    "STRONG BLUE CHEESE 150 G",
]
B_NAMES = [
    "Chilli Tortilla Chips",
    "crackle & co chilli tortilla chips 200g",
    "Chilli Tortilla Chips by Crackle & Co (200 g)",
    "**Crackle & Co Chilli Tortilla Chips**",
    "CHILLI TORTILLA CHIPS 200 G",
]
LAYOUT_SHAPES = [  # {a} ruled out, {b} proposed
    "### Heads up\n{a} is temporarily unavailable.\n\n### Instead\n{b} — same price range.",
    '{{"recommended": "{b}", "not_recommended": "{a}", "why": "contains milk"}}',
    "| Item | Verdict |\n|---|---|\n| {a} | ✗ milk |\n| {b} | ✓ |",
    "- {a} ~ skip (lactose)\n- {b} ~ go",
    "Sorry, {a} we not have today. Maybe you like {b}?",
    "{a} it is finish, i am sorry. Other option: {b}.",
    "pls dont get {a}, its got milk. {b} is fine",
    "{a} is off the menu for you (dairy). {b}, on the other hand, is a great match.",
    "I regret to inform you that {a} cannot be supplied. May I propose {b} instead?",
    "🧀 {a} → 🚫 (milk)\n🌶️ {b} → ✅",
    "While {a} is tasty, it isn't dairy-free, so {b} is my recommendation.",
    "{b} beats {a} for you — no dairy at all.",
    "You already tried {a} and didn't love it, so let's go with {b}.",
    "Hmm, {a}? Not today — it's sold out. {b} is a solid choice.",
    "Option A: {a} (unavailable)\nOption B: {b} (available)\nGoing with option B?",
    "Regarding {a}: discontinued by the maker. Closest match in stock: {b}.",
    "{a} was the plan, but it's gone. Switching to {b}.",
    "We could do {a}, except it's over your budget. {b} isn't.",
]
LAYOUT_BOTH = [  # both put forward
    "Two picks:\n- {a}\n- {b}\nBoth in stock. Which one?",
    "{a} pairs nicely with {b}. Want both?",
    "Basket:\n| Item | Qty |\n|---|---|\n| {a} | 1 |\n| {b} | 2 |\nTotal €9.40. Order?",
]


@pytest.mark.parametrize("shape", LAYOUT_SHAPES, ids=lambda t: t[:40])
def test_layouts_and_voices_rule_out_whatever_the_naming(shape: str) -> None:
    for a, b in zip(A_NAMES, B_NAMES, strict=True):
        text = shape.format(a=a, b=b)
        assert READ.proposed(text) == [TORTILLA_CHIPS], text


@pytest.mark.parametrize("shape", LAYOUT_BOTH, ids=lambda t: t[:40])
def test_layouts_of_two_put_both_forward(shape: str) -> None:
    for a, b in zip(A_NAMES, B_NAMES, strict=True):
        text = shape.format(a=a, b=b)
        assert set(READ.proposed(text)) == {BLUE_CHEESE, TORTILLA_CHIPS}, text


# -- precision: proposals full of the new cue words (likeness, knowledge, "too", "nothing",
# "got", "so far", winning words), read after the batches above; first read 34/35 and 6/6 ("too
# popular to stay on the shelf" was read as a shortcoming).

PRAISE_Y_ONLY = [
    f"{Y} is a bit like a latte in a carton — lovely.",
    f"If you enjoy your coffee frothy, {Y} is the one.",
    f"{Y} came out on top in our taste test.",
    f"{Y} has a little sweetness, nothing too heavy.",
    f"{Y}: a touch of vanilla, no soy.",
    f"{Y} is too good to pass up.",
    f"{Y} is too popular to stay on the shelf long — grab it!",
    f"Want {Y} too?",
    f"I've got {Y} ready for you — shall I add it?",
    f"You've got great taste — {Y} is a winner.",
    f"{Y} has the edge on froth.",
    f"You can't go wrong with {Y}.",
    f"Nothing beats {Y} for a flat white.",
    f"There's no better pick than {Y}.",
    f"{Y} never disappoints.",
    f"I wouldn't hesitate: {Y}.",
    f"No need to look further — {Y} ticks every box.",
    f"{Y} is not only vegan but also soy-free.",
    f"Don't miss {Y} — it's on offer.",
    f"Why not try {Y}?",
    f"{Y} — zero soy, zero nuts? Well, it's almond, so check your allergy first: OK for you?",
    f"Is {Y} okay? It's the only barista drink left in stock.",
    f"{Y} is far from pricey.",
    f"Out of all the options, {Y} is the best.",
    f"Of everything in stock, {Y} fits best.",
    f"Among the drinks, only {Y} fits your rules.",
    f"{Y} won't disappoint.",
    f"{Y} isn't just cheap, it's good.",
    f"Replacing your old carton? {Y} is a great choice.",
    f"{Y} stands in nicely for cow's milk in coffee.",
    f"{Y} arrived in stock this morning.",
    f"{Y} will never run out on us — we keep plenty.",
    f"{Y} hasn't sold out yet!",
    f"{Y} is hard to beat.",
    f"{Y}? Yes — in stock.",
]
PRAISE_BOTH = [
    f"So far I've found {X} and {Y}. Which do you prefer?",
    f"You have two good options: {X} or {Y}.",
    f"Here's what I can add: {X} and {Y}. Both are within budget.",
    f"Shortlist:\n- {X}\n- {Y}\nAny favourite?",
    f"{X} is cheaper; {Y} froths better. Your call!",
    f"I'd say {X} for cereal and {Y} for coffee — want both?",
]


@pytest.mark.parametrize("text", PRAISE_Y_ONLY, ids=lambda t: t[:40])
def test_praise_and_near_cue_words_rule_nothing_out(text: str) -> None:
    assert READ.proposed(text) == [NUVOLA_BARISTA]


@pytest.mark.parametrize("text", PRAISE_BOTH, ids=lambda t: t[:40])
def test_an_open_choice_of_two_puts_both_forward(text: str) -> None:
    assert set(READ.proposed(text)) == {OAT_CALCIUM, NUVOLA_BARISTA}


# -- a last batch, written before any rule for it (numbered answers, a verbose explainer, a
# formal voice, non-native English from several languages, texting, status labels), with
# Highmoor House Blend Coffee Beans and Cacao Norte Classic Instant Coffee: first read 31/40
# rule-outs (main's resolver: 29/40), 5/5 pairs, 10/10 proposals. Its misses taught: a short
# question about a product answered by the next sentence ("Is A an option? Sadly no — ..."), a
# first look taken back ("I first looked at A, ... but"), a size said further on in the clause is
# no part of the mention (it hid the "but"), "was recalled", "gave you trouble", "per your
# message, A", "out goes A", "the sensible one", "you usually go for A". Left unread: a
# Spanish "no tenemos A" (code-switching), and a message whose two products both carry the
# shortcoming (left out as ambiguous).

A = "Highmoor House Blend Coffee Beans"
B = "Cacao Norte Classic Instant Coffee"
AID, BID = "off_2803844618992", "off_2634248922602"
COFFEE_RULED = [
    f"1) Is {A} an option? Sadly no — it's not in stock.\n2) What about {B}? Yes, available now.",
    f"Let me explain my reasoning. I first looked at {A}, which is a lovely bean, but it is sold only in 1 kg bags, which exceeds what you asked for. That is why I settled on {B}.",
    f"To recap what you told me: you don't want {A} again. So my suggestion is {B}.",
    f"{A}? Nah, that one's too much for your budget. {B} though — perfect.",
    f"Mi dispiace, {A} is finished. I suggest {B}.",
    f"Leider {A} is not available anymore. {B} is a good alternative.",
    f"{A} 已经卖完了 — sorry, sold out. {B} available.",
    f"sorry {A} isnt avalable rn, {B} tho?",
    f"{A} — nope, over budget. {B} — yep.",
    f"Regrettably, {A} has been withdrawn from sale. I would therefore suggest {B}.",
    f"Plot twist: {A} is out 😅 Enter {B}!",
    f"I couldn't add {A} because it's out of stock, so I've added {B} instead.",
    f"The system flagged {A} as unavailable. I've picked {B}.",
    f"{B} is the one for you. ({A} is sold out.)",
    f"My recommendation: {B}. Not recommended: {A} (out of stock).",
    f"**Available:** {B}\n**Unavailable:** {A}",
    f"Since {A} is more than €10, which is above your cap, I went for {B}.",
    f"{A} costs €12.50 — well beyond the €5 you mentioned. {B} is €3.20.",
    f"You've bought {A} three times already; fancy trying {B}?",
    f"Thanks for mentioning {A}; unfortunately we can't offer it. {B} is similar.",
    f"{A} was recalled by the supplier, so please take {B}.",
    f"Per your message, {A} gave you trouble last time. Let's try {B}.",
    f"{B} — cheaper, smaller, and unlike {A}, in stock.",
    f"Here's the swap: out goes {A}, in comes {B}.",
    f"Return processed for {A}. For your next order I'd suggest {B}.",
    f"{A} isn't an option today, so {B} it is!",
    f"Hmm, {A} won't fit your budget, I'm afraid. How about {B}?",
    f"{A} did not pass your filters (too pricey). {B} passed.",
    f"I considered {A} but ruled it out on price. {B} is my pick.",
    f"It's a choice between {A} and {B}; given your budget, {B} is the sensible one.",
    f"Between {A} and {B}, {B} gives you better value, so I'd go for that.",
    f"Sorry for the confusion — I should have written {B}, not {A}.",
    f"{A} (the one you asked about) is out. Closest alternative: {B}.",
    f"{A} would have been my first choice, but it's sold out; {B} is next best.",
    f"Not available: {A}.\nAvailable alternative: {B}.",
    f"I've removed {A} from your cart as requested and added {B}.",
    f"You usually go for {A}, right? It's out today — {B}?",
    f"{A} x — out of stock\n{B} ✓ — in stock",
]
COFFEE_BOTH = [
    f"1) {A} — great if you grind at home.\n2) {B} — quicker for busy mornings.\nWhich suits you?",
    f"Let me lay out two options: {A}, rich and smooth, or {B}, convenient. Both fit.",
    f"Recap of your basket: {A} ×1, {B} ×2, total €19.90. Go ahead and order?",
    f"For your office, {A} plus {B} would cover both camps.",
    f"{A} and {B} are both in stock; shall I add both?",
]
COFFEE_Y_ONLY = [
    f"Just to recap your needs: instant, under €5, no decaf. {B} matches all three.",
    f"{B} is not expensive at all — €3.20.",
    f"I looked everywhere and {B} is the best fit, no question.",
    f"{B} — never out of stock, always reliable.",
    f"Great news, {B} is available! Shall I add it?",
    f"{B}: nothing to worry about allergy-wise.",
    f"You asked for something quick: {B} dissolves in seconds.",
    f"If budget matters, {B} is hard to beat at €3.20.",
    f"Rather than grinding beans, you could simply use {B}.",
    f"No beans needed — {B} is instant.",
]


@pytest.mark.parametrize("text", COFFEE_RULED, ids=lambda t: t[:40])
def test_a_fresh_batch_rules_the_beans_out(text: str) -> None:
    assert READ.proposed(text) == [BID]
    assert AID in READ.named(text)


@pytest.mark.parametrize("text", COFFEE_BOTH, ids=lambda t: t[:40])
def test_a_fresh_batch_of_pairs_puts_both_forward(text: str) -> None:
    assert set(READ.proposed(text)) == {AID, BID}


@pytest.mark.parametrize("text", COFFEE_Y_ONLY, ids=lambda t: t[:40])
def test_a_fresh_batch_of_proposals_rules_nothing_out(text: str) -> None:
    assert READ.proposed(text) == [BID]


@pytest.mark.parametrize(
    "text",
    [
        f"**{Y}**: contains almonds, Nutri-Score B, €2.49, 1 l.\n\nShall I add it?",
        f"{Y} is a little over your budget. Still want it?",
    ],
)
def test_a_shortcoming_then_an_offer_of_the_same_product_still_puts_it_forward(text: str) -> None:
    assert READ.proposed(text) == [NUVOLA_BARISTA]
