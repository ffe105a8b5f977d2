"""The corpus script's naming layouts: sizes in words, spoken names and brand initials render as
a shopper would read them, and a layout's label still comes from the catalog alone."""

from __future__ import annotations

import pytest

from scripts import grocery_mentions_corpus as corpus

# size | spelt out | unit in words | spelt out in the next unit when that reads naturally
SIZES = """
500 g | five hundred grams | 500 grams | half a kilo
375 g | three hundred and seventy-five grams | 375 grams | three hundred and seventy-five grams
1 kg | one kilo | 1 kilo | one kilo
1.5 l | one and a half litres | 1.5 litres | one and a half litres
75 cl | seventy-five centilitres | 75 centilitres | seven hundred and fifty millilitres
6 x 100 g | six times one hundred grams | 6 times 100 grams | six times one hundred grams
20 bags | twenty bags | 20 bags | twenty bags
a handful | a handful | a handful | a handful
"""


@pytest.mark.parametrize("row", SIZES.strip().splitlines())
def test_sizes_in_words(row: str) -> None:
    size, *said = row.split(" | ")
    p = corpus.Item("off_1", "Lemon & Herb Hummus", "Kitchen Hollow", size)
    form = corpus.Form(
        style="spoken",
        says=("name", "size"),
        words="{size_words} | {size_unit_words} | {size_alt_words}",
    )
    assert form.say(p).split(" | ") == said


def test_spoken_names_and_initials() -> None:
    p = corpus.Item("off_1", "70% Dark Chocolate", "Rye & Stone", "100 g")
    form = corpus.Form(
        style="spoken", says=("name", "brand"), words="{brand_spoken} {name_spoken} / {initials}"
    )
    assert form.say(p) == "rye and stone 70 percent dark chocolate / R&S"
    assert corpus.Item("off_2", "Oat Milk", "Greenpath", "1 l").initials == "Greenpath"


def test_numbers_beyond_the_words_are_refused() -> None:
    with pytest.raises(ValueError, match="10000"):
        corpus._number_words(10_000)


def test_initials_label_by_the_catalog() -> None:
    """Initials name a product only when exactly one product has those initials and that name."""
    items = [
        corpus.Item("a", "Oat Milk", "Kitchen Hollow", "1 l"),
        corpus.Item("b", "Oat Milk", "Kettle House", "1 l"),
        corpus.Item("c", "Rye Loaf", "Kitchen Hollow", "500 g"),
    ]
    assert not corpus._unique(items, items[0], ("initials", "name"))
    assert corpus._unique(items, items[2], ("initials", "name"))
    assert corpus._unique(items, items[0], ("brand", "name"))
