"""The grocery reader's held-out chat sets written one shape per message (`chat_heldout4/` by `grocery_reader_corpus_g6.py`, `chat_heldout5/` by `grocery_reader_corpus_g7.py`): each file is what its script writes, every line loads, each shape is filled once, no text repeats an earlier set, and each set is large and varied enough."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

from domains.grocery.corpus import (
    GROCERY_CORPORA,
    SHARE_FILES,
    TOPIC_FIELDS,
    GroceryLabelledMessage,
    load_grocery_corpus,
)
from domains.grocery.testing import tiny_catalog

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "scripts"))

import grocery_reader_corpus_fresh as g3
import grocery_reader_corpus_g6 as g6
import grocery_reader_corpus_g7 as g7

SCRIPTS = pytest.mark.parametrize("script", [g6, g7], ids=["chat_heldout4", "chat_heldout5"])


def _corpus(script: ModuleType) -> list[GroceryLabelledMessage]:
    return load_grocery_corpus(GROCERY_CORPORA / script.HELD_OUT_FILE)


@SCRIPTS
def test_the_file_is_what_the_script_writes_byte_for_byte(script: ModuleType) -> None:
    lines = [g3.line(m) for m in script.messages()]
    written = (GROCERY_CORPORA / script.HELD_OUT_FILE).read_text(encoding="utf-8")
    assert written == "".join(f"{line}\n" for line in lines)
    assert lines == [g3.line(m) for m in script.messages()]


@SCRIPTS
def test_every_line_loads_numbered_in_order_with_real_products_it_names(
    script: ModuleType,
) -> None:
    corpus = _corpus(script)
    names = {p.name for p in tiny_catalog().items}
    assert [m.id for m in corpus] == [f"{script.PREFIX}{n:04d}" for n in range(1, len(corpus) + 1)]
    for m in corpus:
        assert m.schema_version == 2, m.id
        assert set(m.proposed) <= names, m.id
        assert all(name in m.text for name in m.proposed), m.id
    assert len({m.text for m in corpus}) == len(corpus)


@SCRIPTS
def test_each_shape_is_filled_once(script: ModuleType) -> None:
    shapes = g3.load_shapes(script.SHAPES)
    assert len(_corpus(script)) == len(shapes)
    assert sorted(m.text for m in _corpus(script)) == sorted(
        g3.shape_messages(s, i, script.SEED, 1)[0].text for i, s in enumerate(shapes)
    )


@SCRIPTS
def test_no_text_is_shared_with_an_earlier_grocery_set(script: ModuleType) -> None:
    """Against every registered share but the set's own file (once it is registered)."""
    earlier = {
        m.text
        for files in SHARE_FILES.values()
        for f in files
        if f != script.HELD_OUT_FILE
        for m in load_grocery_corpus(GROCERY_CORPORA / f)
    }
    assert not earlier & {m.text for m in _corpus(script)}


def test_the_newest_set_repeats_no_text_of_the_one_before() -> None:
    assert not {m.text for m in _corpus(g6)} & {m.text for m in _corpus(g7)}


@SCRIPTS
def test_the_set_is_large_and_varied_enough(script: ModuleType) -> None:
    shapes = g3.load_shapes(script.SHAPES)
    acts = Counter(a for s in shapes for a in s["acts"])
    assert len(shapes) >= 260
    assert sum("reaction_request" in s["acts"] and not s["asked"] for s in shapes) >= 45
    assert acts["small_talk"] >= 12
    assert acts["abstention"] >= 10
    assert acts["confirmation"] >= 30
    assert len({s["voice"] for s in shapes}) >= 14
    counts = g3.shape_topic_counts(shapes, script.SEED)
    assert set(counts) == set(TOPIC_FIELDS)
    short = {t: c for t, c in counts.items() if c[0] < 20 or c[1] < 16}
    assert short == {}, "topics asked by < 20 shapes or named without asking by < 16"


def test_every_adjudicated_label_is_the_held_out_label() -> None:
    """The second labelling's decisions for `chat_heldout4` (its README): one per disagreement,
    each label the set holds now, and no shape dropped."""
    held = {m.id: m.model_dump() for m in _corpus(g6)}
    adjudicated = GROCERY_CORPORA / g6.HELD_OUT_FILE
    decisions = [
        json.loads(line)
        for line in (adjudicated.parent / "adjudication.jsonl")
        .read_text(encoding="utf-8")
        .splitlines()
    ]
    assert decisions
    keys = ["id", "field", "author", "annotator", "decision", "label", "rule", "why"]
    for d in decisions:
        assert list(d) == keys, d["id"]
        assert d["author"] != d["annotator"], d["id"]
        assert d["label"] == d[{"keep": "author", "change": "annotator"}[d["decision"]]], d["id"]
        assert held[d["id"]][d["field"]] == d["label"], d["id"]
    assert len(held) == len(g3.load_shapes(g6.SHAPES)) == 340


def test_a_confirmation_shape_of_the_newest_set_never_puts_its_basket_forward() -> None:
    """`chat_heldout5`'s rule (its README): an order or return recap names what the shopper
    chose and proposes nothing; a substitution proposes its replacement only."""
    for s in g3.load_shapes(g7.SHAPES):
        if s["confirm"] in ("order", "return"):
            assert s["proposed"] == [], s["text"]
        if s["confirm"] == "substitution":
            assert s["proposed"] == ["p"], s["text"]
