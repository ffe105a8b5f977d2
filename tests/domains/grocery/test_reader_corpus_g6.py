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
    dropped = g6.dropped(script.HELD_OUT_FILE)
    numbered = [f"{script.PREFIX}{n:04d}" for n in range(1, len(corpus) + len(dropped) + 1)]
    assert [m.id for m in corpus] == [i for i in numbered if i not in dropped]
    for m in corpus:
        assert m.schema_version == 2, m.id
        assert set(m.proposed) <= names, m.id
        assert all(name in m.text for name in m.proposed), m.id
    assert len({m.text for m in corpus}) == len(corpus)


@SCRIPTS
def test_each_shape_is_filled_once(script: ModuleType) -> None:
    """Every shape but those whose message the second labelling dropped (kept in the shapes
    file, so that every other shape keeps its fill)."""
    shapes = g3.load_shapes(script.SHAPES)
    every = g6.messages(script.SHAPES, script.PREFIX, script.SEED)
    assert len(every) == len(shapes)
    assert sorted(m.text for m in every) == sorted(
        g3.shape_messages(s, i, script.SEED, 1)[0].text for i, s in enumerate(shapes)
    )
    kept = [m.text for m in every if m.id not in g6.dropped(script.HELD_OUT_FILE)]
    assert [m.text for m in _corpus(script)] == kept


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


def test_the_newest_set_adjudicated_every_disagreement_and_holds_its_decisions() -> None:
    """`chat_heldout5`'s second labelling (its README): one line per disagreement; a kept label
    is the author's, a changed one differs from it and is the label the set holds, and a dropped
    message is gone."""
    held = {m.id: m.model_dump() for m in _corpus(g7)}
    path = GROCERY_CORPORA / g7.HELD_OUT_FILE
    decisions = [
        json.loads(line)
        for line in (path.parent / "adjudication.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    keys = ["id", "field", "author", "annotator", "decision", "label", "rule", "why"]
    counts = Counter(d["decision"] for d in decisions)
    assert counts == {"keep": 24, "change": 63, "drop": 1}
    for d in decisions:
        assert list(d) == keys, d["id"]
        assert d["author"] != d["annotator"], d["id"]
        if d["decision"] == "drop":
            assert d["id"] not in held, d["id"]
            continue
        assert (d["label"] == d["author"]) == (d["decision"] == "keep"), d["id"]
        assert held[d["id"]][d["field"]] == d["label"], d["id"]
    assert len(held) == len(g3.load_shapes(g7.SHAPES)) - 1 == 372


def test_a_confirmation_shape_of_the_newest_set_puts_forward_what_it_asks_to_buy() -> None:
    """`chat_heldout5`'s rule after its second labelling, the sixth round's (its README): an order
    confirmation puts forward every line of the basket it reads back, a return puts nothing
    forward, and a substitution its replacement only."""
    for s in g3.load_shapes(g7.SHAPES):
        slots = sorted(
            (s["text"].index("{" + k + "}"), k) for k in "pqr" if "{" + k + "}" in s["text"]
        )
        if s["confirm"] == "order":
            assert s["proposed"] == [k for _, k in slots], s["text"]
        if s["confirm"] == "return":
            assert s["proposed"] == [], s["text"]
        if s["confirm"] == "substitution":
            assert s["proposed"] == ["p"], s["text"]
