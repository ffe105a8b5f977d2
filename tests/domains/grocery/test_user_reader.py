"""The shopper's reader on 155 hand-written assistant messages: topics asked, products put forward, confirm requests."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from domains.grocery.testing import tiny_catalog
from domains.grocery.user import shopper_reader

CORPUS = Path(__file__).resolve().parents[3] / "corpora" / "grocery" / "reader" / "messages.jsonl"


def _rows() -> list[dict[str, object]]:
    return [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines() if line]


def measure() -> dict[str, float]:
    """Recall and precision of topics and proposals, and confirm accuracy, over the corpus."""
    catalog = tiny_catalog()
    reader = shopper_reader(catalog)
    by_name = {p.name: p.id for p in catalog.items}
    tp = fp = fn = ptp = pfp = pfn = confirm_ok = 0
    rows = _rows()
    for row in rows:
        reading = reader.read(str(row["text"]))
        want = set(row["asked"])  # type: ignore[arg-type]
        got = set(reading.asked)
        tp, fp, fn = tp + len(want & got), fp + len(got - want), fn + len(want - got)
        pwant = {by_name[n] for n in row["proposed"]}  # type: ignore[union-attr]
        pgot = set(reading.proposed)
        ptp, pfp, pfn = ptp + len(pwant & pgot), pfp + len(pgot - pwant), pfn + len(pwant - pgot)
        confirm_ok += reading.confirm == row["confirm"]
    return {
        "messages": len(rows),
        "topic_recall": tp / (tp + fn),
        "topic_precision": tp / (tp + fp),
        "proposal_recall": ptp / (ptp + pfn),
        "proposal_precision": ptp / (ptp + pfp),
        "confirm_accuracy": confirm_ok / len(rows),
    }


def test_corpus_has_at_least_150_messages() -> None:
    assert len(_rows()) >= 150


def test_reader_reads_the_corpus_well() -> None:
    m = measure()
    assert m["topic_recall"] >= 0.9, m
    assert m["topic_precision"] >= 0.9, m
    assert m["proposal_recall"] >= 0.95, m
    assert m["proposal_precision"] >= 0.95, m
    assert m["confirm_accuracy"] >= 0.95, m


def test_an_announcement_is_not_a_confirm_request() -> None:
    reader = shopper_reader(tiny_catalog())
    assert reader.read("As you confirmed, I've placed your order.").confirm is None
    assert reader.read("Shall I place the order?").confirm == "order"


def test_chat_spellings_and_plain_ways_of_asking_are_read() -> None:
    """Typos ("alergies", "budegt", "wat r"), a topic before a dash, and how many packs."""
    reader = shopper_reader(tiny_catalog())
    assert reader.read("Do you have any food alergies?").asked == ("allergies",)
    assert reader.read("Whats your budegt for this?").asked == ("budget",)
    assert reader.read("wat r we buying today").asked == ("category",)
    assert reader.read("Palm oil — avoid it?").asked == ("palm_oil",)
    assert reader.read("Just the one, or are you stocking up?").asked == ("quantity",)
    assert reader.read("Do you keep halal or kosher?").asked == ("diet",)
    assert reader.read("Budget-wise, where are we?").asked == ("budget",)


def test_a_non_native_pitch_and_its_reaction_request_ask_nothing() -> None:
    reader = shopper_reader(tiny_catalog())
    name = tiny_catalog().items[0].name
    reading = reader.read(
        f"Maybe you like {name}? Is good product, Nutri-Score B, price €2. What you think?"
    )
    assert reading.proposed
    assert reading.asked == ()


def test_diet_is_asked_by_its_foods_and_reasons() -> None:
    reader = shopper_reader(tiny_catalog())
    for text in (
        "do u do dairy?",
        "Gelatine is a problem for you?",
        "Any pork or beef you'd rather I steer clear of?",
        "Should I stick to vegan-friendly stuff?",
        "Any foods you avoid for ethical or religious reasons?",
        "any dietry needs?",
    ):
        assert reader.read(text).asked == ("diet",), text


def test_a_health_reason_for_not_eating_something_is_not_a_health_question() -> None:
    reader = shopper_reader(tiny_catalog())
    asked = reader.read("Before I search: anything you can't eat on medical grounds?").asked
    assert "nutriscore" not in asked
    assert reader.read("Do you want the healthiest option?").asked == ("nutriscore",)


def test_a_stated_nutri_score_is_a_pitch_and_a_check_after_it_asks() -> None:
    reader = shopper_reader(tiny_catalog())
    pitch = "Butter Crumble Biscuits are back in — any good for you?"
    assert reader.read(pitch).asked == ()
    check = "Strawberry Swirl Pots have Nutri-Score C. This score is acceptable for you?"
    assert reader.read(check).asked == ("nutriscore",)
    assert reader.read("How much weight do you give to the nutrition grade?").asked == (
        "nutriscore",
    )


def test_one_product_put_forward_beside_one_gone_or_beaten() -> None:
    """Of several products the resolver leaves standing, the kit's rules pick the one offered."""
    reader = shopper_reader(tiny_catalog())
    by_name = {p.name: p.id for p in tiny_catalog().items}
    for text, name in (
        (
            "Out of stock, sorry — the Soya Drink Calcium is gone. How about Unsweetened Oat "
            "Drink instead?",
            "Unsweetened Oat Drink",
        ),
        (
            "Dark Chocolate 85% > Milk Chocolate Hazelnut Bar for u bc vegan. add the dark?",
            "Dark Chocolate 85%",
        ),
    ):
        assert reader.read(text).proposed == (by_name[name],), text
    both = reader.read("Two options: Soya Drink Calcium or Unsweetened Oat Drink. Which one?")
    assert len(both.proposed) == 2


if __name__ == "__main__":
    print(measure())


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        # voice-typed, without punctuation: the question starts at its auxiliary and subject
        ("Red Lentil Fusilli comes from Italy is that alright", ("origin",)),
        ("before i search any further do you have allergies", ("allergies",)),
        # a tag question asserts; a pitch's facts are not asked back by "is this good?"
        ("Red Lentil Fusilli: €2.99 and organic. Great price, right? Shall I add it?", ()),
        ("Red Lentil Fusilli is vegan and organic, 500 g, €2.99. Is this good?", ()),
        # a field named in code, and a request to fill in the fields just listed
        ("origin_country: ?", ("origin",)),
        ("missing: [diet, brand]\nplease fill these in.", ("diet", "brand")),
        # a concession names the price of a choice, not the choice
        ("Palm-oil free only, even if it costs more?", ("palm_oil",)),
        # statements that hold a question's words
        ("Got it: any brand is fine, and where it comes from does not matter.", ()),
        ("Larger packs often work out cheaper.", ()),
        # a check straight after the one shortcoming the pick's own sentence flags
        (
            "I found Red Lentil Fusilli, but it only scores C on the Nutri-Score. Is that okay "
            "with you?",
            ("nutriscore",),
        ),
        # the shortcoming flagged as "but not ...", and the check asking whether it fits
        ("Red Lentil Fusilli is organic but not vegan. Does that fit your diet?", ("diet",)),
    ],
)
def test_questions_and_statements_in_new_voices(text: str, asked: tuple[str, ...]) -> None:
    assert shopper_reader(tiny_catalog()).read(text).asked == asked


@pytest.mark.parametrize(
    ("text", "confirm"),
    [
        # a bare go-ahead asks leave for what the sentence before it offers to do
        ("I can make the return of the Red Lentil Fusilli now. I do it?", "return"),
        (
            "The Red Lentil Fusilli is gone. I can put the Plain Millet Pops in the place. You accept?",
            "substitution",
        ),
        ("Basket: Red Lentil Fusilli x2, €5.98. Ring it up?", "order"),
        ('Total €5.98. Please reply "yes" if you want me to place this order.', "order"),
        # the shopper buying is not the assistant ordering
        ("Red Lentil Fusilli is a good price, €2.99. You want to buy?", None),
        # a return said as sending back, or with its refund; "its return"; the order said bare
        ("The Red Lentil Fusilli is on order #12. Shall I send it back?", "return"),
        ("Return the Red Lentil Fusilli & refund €2.99?", "return"),
        ("Shall I arrange their return now?", "return"),
        ("Red Lentil Fusilli x2 is in the basket. I make the order?", "order"),
        ("Red Lentil Fusilli x2, €5.98. Ring it through?", "order"),
        ("Red Lentil Fusilli x2 (€5.98). Order?", "order"),
        # checking stock is no leave to order; a substitution asked with a slip
        ("Red Lentil Fusilli suits you. Want me to check it's in stock?", None),
        ("Plain Millet Pops are gone, can I substitue Red Lentil Fusilli?", "substitution"),
    ],
)
def test_confirm_requests_in_new_voices(text: str, confirm: str | None) -> None:
    assert shopper_reader(tiny_catalog()).read(text).confirm == confirm


def test_a_basket_with_quantities_puts_every_product_forward() -> None:
    reading = shopper_reader(tiny_catalog()).read(
        "So: Red Lentil Fusilli x1, Plain Millet Pops x2, €8.89. Ring it up?"
    )
    assert len(reading.proposed) == 2


# The topics each message asks ("-": none), one case a line; "#" lines say why.
_EVERYDAY = """
# an adequacy check asks whether the one fact just stated meets the shopper's bar
nutriscore            | Plain Millet Pops score a D on the Nutri-Score. Is good enough?
pack_size             | Red Lentil Fusilli comes in a 500 g bag - large enough for you?
budget                | Red Lentil Fusilli costs €2.99. Cheap enough?
# ... but not after a pitch of several facts, nor as a bare reaction
-                     | Red Lentil Fusilli is vegan, organic and €2.99. Is that good enough?
# an imperative or polite request for details asks what it lists
allergies diet        | plz send over: a) any allergies b) your diet
budget                | Kindly give me your spending limit.
brand                 | We would be grateful for your preferred brand.
# a check on the kind after the one fact that states the kind
category              | Red Lentil Fusilli sits in the pasta section - is it the kind of thing you need?
# the kind asked as a place in the shop, an occasion, a craving or a menu of kinds
category              | Which section of the shop should I look in?
category              | What are you craving today?
category              | Is this for a special occasion?
category              | Something savoury or something sweet?
category              | Snacks or drinks, mostly?
# sizes said as portions and as bigger or smaller ones; quantities as people to feed
pack_size             | Do you want single-serve pots or a sharing size?
pack_size             | Smaller ones, or the bigger ones?
quantity              | How many people are you shopping for?
quantity              | How much bottles do you need?
# the other side of an either-or that says the shopper does not mind names no topic
organic               | Do you stick with organic, or take whatever's cheapest?
# general English for each topic's concept
allergies             | Anything that makes you ill?
budget                | Is there a price bracket you want to stay in?
brand                 | Any particular make you trust?
nutriscore            | Are you watching the salt content?
organic               | Should it be free-range?
processing            | Do you mind emulsifiers and sweeteners?
origin                | Does the provenance matter to you?
# a spaced hyphen is a dash; "over your limit" names the budget
budget                | Red Lentil Fusilli is €4.20 - over your limit?
# a check after the flagged shortcoming: "still ok?", "safe for you?", "acceptable?"
palm_oil              | Red Lentil Fusilli is organic, but it has palm oil. Still ok?
allergies             | Red Lentil Fusilli contains gluten - safe for you?
processing            | Red Lentil Fusilli is ultra-processed (NOVA 4). Acceptable?
# a hedge before the question word; euros counted are money, not packs
budget                | roughly how many euros are we talking
# the kind asked with any noun of a kind of product
category              | What kind of snack do you fancy?
category              | What can I find for you?
# sizes and quantities that share words
pack_size             | What size pack do you want?
pack_size             | Family pack or single?
quantity              | One pack or a few?
# words for brands, scores, labels and safety in everyday English
brand                 | Store's own or a name you know?
nutriscore            | Want me to stick to A or B scores?
organic               | Pesticide-free only?
allergies             | Any foods that don't agree with you?
diet                  | Do you follow any particular way of eating?
budget                | Do you want to keep it under a certain amount?
# statements and reactions that hold the new words ask nothing
-                     | Great, you're after something sweet or savoury - I'll check both.
-                     | I found Red Lentil Fusilli in the pasta section. Want it?
-                     | Red Lentil Fusilli is perfect for any occasion. Add it?
-                     | Red Lentil Fusilli is good enough for most people. Want it?
-                     | Thanks for waiting! I checked the snacks and drinks aisles.
# a bare "OK?" after a flagged shortcoming checks it; after a neutral fact it reacts
processing            | Red Lentil Fusilli: ultra-processed, NOVA 4. Okay?
diet                  | Red Lentil Fusilli is not vegan. Alright?
-                     | Red Lentil Fusilli, €2.99. OK?
# a question answered by one of the options just listed
organic origin        | Filters I can add: organic, origin. Any you'd want applied?
processing            | Group 1 is barely processed, group 4 is ultra-processed. Where would you draw the line?
# requests for what follows
budget quantity       | I'll need a few things from you: your budget and how many you want.
nutriscore            | I would be grateful to know the lowest grade you would accept.
# a topic word joined to a stance by a hyphen; sizes as tiny or giant; an abbreviation
brand                 | Brand-loyal, or happy to try anything?
pack_size             | Tiny packet or giant bag?
quantity              | Qty pls?
allergies             | Anything you're unable to eat?
# "small ones" inside a request for allergies is no pack size; asking leave to order is
# no question on the total
allergies             | Please list every allergy, even small ones.
-                     | Basket: Red Lentil Fusilli ×1 €2.99. Total €2.99. I order now, OK?
# a general check after a sentence whose predicate is one fact checks it; after several, none
origin                | Red Lentil Fusilli is made in Spain. Is that okay with you?
-                     | Red Lentil Fusilli is vegan and costs €2.99. Is that okay for you?
allergies             | Red Lentil Fusilli has milk in it. Okay with your allergy?
# a loosening offer asks what it loosens; a prefix hyphened to a topic word; a menu of meals
budget                | Nothing under €2, sorry. Shall I look a bit higher?
organic               | No organic option in stock. Is non-organic acceptable?
category              | Breakfast, lunch, or a snack for later?
# a go-ahead named "green light" is no Nutri-Score
-                     | Red Lentil Fusilli goes back, €2.99 refunded. Green light?
"""


@pytest.mark.parametrize(
    ("asked", "text"),
    [
        (tuple(topics.split()) if topics.strip() != "-" else (), text)
        for topics, text in (
            line.split("| ", 1) for line in _EVERYDAY.strip().splitlines() if line[0] != "#"
        )
    ],
)
def test_general_english_for_each_topic(asked: tuple[str, ...], text: str) -> None:
    # the topics, whatever the order the kit gathers a list of options in
    assert sorted(shopper_reader(tiny_catalog()).read(text).asked) == sorted(asked)


@pytest.mark.parametrize(
    ("text", "confirm"),
    [
        # a y/n prompt closing a key line makes it a question; a code key is its words
        ("basket:\n  - Red Lentil Fusilli x2\ntotal: €5.98\nplace_order: [y/n]", "order"),
        # leave to proceed takes its kind from what the statements before it describe
        (
            "refund_request:\n  item: Red Lentil Fusilli\n  amount: €2.99\nproceed? (yes/no)",
            "return",
        ),
        (
            "I can take back the Red Lentil Fusilli and refund €2.99. Would you like me to go ahead?",
            "return",
        ),
        ("Your order comes to €5.98 in total. OK to proceed?", "order"),
        # adding a product to the basket is no order: leave to do it is a reaction to the product
        ("I can put Red Lentil Fusilli in your basket for €2.99. Want me to do that?", None),
        # a voice-typed message with a price keeps its run-on question
        ("that comes to €5.98 altogether do you want me to place the order", "order"),
        ("Red Lentil Fusilli is in your basket. Shall I send the order off?", "order"),
        ("Basket total €2.99 with Red Lentil Fusilli. Order now?", "order"),
        ("basket: Red Lentil Fusilli x1 = €2.99. order it?", "order"),
        ("Red Lentil Fusilli is in the basket. Hit order?", "order"),
        ("Basket: Red Lentil Fusilli €2.99. I order now, OK?", "order"),
        ("Red Lentil Fusilli goes back, €2.99 refunded. Green light?", "return"),
        # a bare "Shall I?" or "Can I submit?" asks leave for what was said before it
        ("Basket: Red Lentil Fusilli, Plain Millet Pops. Can I submit?", "order"),
        ("I can refund €2.99 for the Red Lentil Fusilli you returned. Shall I?", "return"),
        # the product named between "send" and "back"; "replace" as a substitution
        ("Want me to send Red Lentil Fusilli back and get you the refund?", "return"),
        ("Plain Millet Pops is out of stock. Replace it with Bronze-Cut Penne?", "substitution"),
    ],
)
def test_leave_to_proceed_prompts_and_order_words(text: str, confirm: str | None) -> None:
    assert shopper_reader(tiny_catalog()).read(text).confirm == confirm


PROBES = Path(__file__).with_name("reader_probes_sixth_round.txt")
PROBES_SEVENTH = Path(__file__).with_name("reader_probes_seventh_round.txt")


def _probes(path: Path = PROBES) -> list[tuple[tuple[str, ...], str | None, str]]:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        want, text = line.split("| ", 1)
        words = want.split()
        confirm = next((w.split("=", 1)[1] for w in words if w.startswith("confirm=")), None)
        topics = tuple(w for w in words if w != "-" and not w.startswith("confirm="))
        out.append((topics, confirm, text.replace("\\n", "\n")))
    return out


@pytest.mark.parametrize(("asked", "confirm", "text"), _probes() + _probes(PROBES_SEVENTH))
def test_reader_probes(asked: tuple[str, ...], confirm: str | None, text: str) -> None:
    """The sixth and seventh rounds' causes as general rules, on probes of our own: the topics asked (in
    any order), and for a request for leave to order, return or substitute, its kind (such a
    request asks for a yes to the act, not about the facts of the recap before it)."""
    reading = shopper_reader(tiny_catalog()).read(text)
    assert sorted(reading.asked) == sorted(asked)
    if confirm is not None:
        assert reading.confirm == (None if confirm == "none" else confirm)


def test_the_seventh_round_probes_are_read() -> None:
    """The seventh round's probe file is read (its probes run in `test_reader_probes`)."""
    probes = _probes(PROBES_SEVENTH)
    assert len(probes) >= 50
    assert sum(1 for _a, c, _t in probes if c and c != "none") >= 7
    assert sum(1 for a, _c, _t in probes if not a) >= 8


def test_the_probe_file_holds_every_batch() -> None:
    probes = _probes()
    assert len(probes) >= 200
    assert sum(1 for _a, c, _t in probes if c) >= 15
    assert (
        sum(1 for a, _c, _t in probes if not a) >= 50
    )  # statements and reactions that ask nothing
