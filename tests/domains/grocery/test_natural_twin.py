"""The grocery natural twin rewords a shopping assistant's messages and keeps each decision the shopper reads from them."""

from __future__ import annotations

import pytest

from domains.grocery.agents.natural import naturalize
from domains.grocery.testing import tiny_catalog
from domains.grocery.user.reader import NamedProduct, ShopperReader

CATALOG = tiny_catalog()
READER = ShopperReader(NamedProduct(p.id, p.name, p.brand) for p in CATALOG.items)
P = CATALOG.items[0]
PITCH = f"{P.name} by {P.brand} (€{P.price:.2f} a pack; Nutri-Score {P.nutriscore.upper()})"

PLAIN = (
    "Happy to help! Before I search: do you have any food allergies I should know about; do you "
    "follow a particular diet, such as vegan or vegetarian; what budget do you have in mind for "
    "this?",
    "Thanks! Also, what Nutri-Score are you looking for; and which country should it come from?",
    f"I'd suggest {PITCH}. Would that work for you?",
    f"Your usual product is out of stock. Would you accept {PITCH} as a replacement?",
    f"I've put 2 × {P.name} in your basket (€{2 * P.price:.2f}). Shall I place the order?",
    f"I found the {P.name} in order ord_1. Shall I process the return and refund it "
    "(reason: damaged)?",
)


@pytest.mark.parametrize("plain", PLAIN)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_twin_changes_words_not_what_the_shopper_reads(plain: str, seed: int) -> None:
    natural = naturalize(plain, [], seed)
    assert natural != plain
    before, after = READER.read(plain), READER.read(natural)
    assert (after.asked, after.proposed, after.confirm) == (
        before.asked,
        before.proposed,
        before.confirm,
    ), natural


def test_a_pitch_states_facts_and_asks_nothing() -> None:
    """A product's facts in parentheses are not questions about them (the plain pitch was once
    read as asking about the Nutri-Score, which made the shopper volunteer it)."""
    assert READER.read(f"I'd suggest {PITCH}. Would that work for you?").asked == ()
