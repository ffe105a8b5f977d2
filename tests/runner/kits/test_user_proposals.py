"""The user kit's proposal reader on its own: of several items a message names, which it puts
forward (one pick beside references, comparisons, items gone or beaten; or a list of options)."""

from __future__ import annotations

import re

import pytest

from runner.kits.user.proposals import ProposalReader
from runner.kits.user.reader import FieldReader, FieldVocabulary, nothing_fits_pattern

_NONE = re.compile(r"(?!x)x")
TEAS_SEGMENTS = FieldReader(
    FieldVocabulary(
        strong={"strength": (r"strong(?:er)?",)},
        weak={},
        not_a_field=_NONE,
        normalise=lambda text: text,
        topic_word=_NONE,
        value_item=_NONE,
        value_list=_NONE,
    )
).segments


def _proposed(text: str, names: dict[str, str]) -> list[str]:
    """The items a message puts forward, its items found by exact name."""
    spans = sorted(
        (m.start(), m.end(), item)
        for name, item in names.items()
        for m in re.finditer(re.escape(name), text)
    )
    reader = ProposalReader(segments=TEAS_SEGMENTS, nothing_fits=nothing_fits_pattern(("tea",)))
    return reader.proposed(text, spans, frozenset(), None)


TEAS_NAMES = {"Hill Smoke": "t1", "River Mint": "t2"}


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("Hill Smoke is gone, sorry. How about River Mint instead?", ["t2"]),
        ("Hill Smoke and River Mint are both nice, but my pick is River Mint. Want it?", ["t2"]),
        ("Hill Smoke or River Mint? I'd take Hill Smoke. Want it?", ["t1"]),
        ("I compared Hill Smoke and River Mint. The first one is my pick.", ["t1"]),
        ("Hill Smoke and River Mint. The second is better for you.", ["t2"]),
        ("Hill Smoke > River Mint for you. Add it?", ["t1"]),
        ("River Mint is milder, Hill Smoke cheaper. I'd go smoky: Hill Smoke. Yes?", ["t1"]),
        ("A bit like River Mint, this one owes a debt to it: Hill Smoke. Try it?", ["t1"]),
        ("Two options: Hill Smoke or River Mint. Which one?", ["t1", "t2"]),
        ("I did consider Hill Smoke, but I've set it aside; River Mint is the one. Ok?", ["t2"]),
        ("Hill Smoke is basically River Mint with more bite. Want it?", ["t1"]),
        ("People compare it to River Mint, but Hill Smoke stands alone. Try it?", ["t1"]),
        ("Skip River Mint - too strong. Hill Smoke instead?", ["t1"]),
        # a texting "kinda like" and "smth ... like" liken; "of those, only" chooses
        ("Hill Smoke kinda like River Mint but smokier. try it?", ["t1"]),
        ("u want smth around 5 euro like River Mint? or cheaper?", []),
        ("Hill Smoke and River Mint share a recipe; of those, only River Mint is fresh.", ["t2"]),
        # a basket's quantities between the names: both are in it
        ("So: Hill Smoke x1, River Mint x2. Ring it up?", ["t1", "t2"]),
    ],
)
def test_one_pick_among_several_named_items(text: str, want: list[str]) -> None:
    assert _proposed(text, TEAS_NAMES) == want
