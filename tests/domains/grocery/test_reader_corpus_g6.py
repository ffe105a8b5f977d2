"""The grocery reader's fifth held-out chat set (`chat_heldout4/`): the file is what its script writes from the shapes, every line loads, each shape is filled once, and it is large and varied enough for its figures to mean something."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

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
import grocery_reader_corpus_g6 as script

HELD = GROCERY_CORPORA / script.HELD_OUT_FILE


def _corpus() -> list[GroceryLabelledMessage]:
    return load_grocery_corpus(HELD)


def test_the_file_is_what_the_script_writes_byte_for_byte() -> None:
    lines = [g3.line(m) for m in script.messages()]
    assert HELD.read_text(encoding="utf-8") == "".join(f"{line}\n" for line in lines)
    assert lines == [g3.line(m) for m in script.messages()]


def test_every_line_loads_numbered_in_order_with_real_products_it_names() -> None:
    corpus = _corpus()
    names = {p.name for p in tiny_catalog().items}
    assert [m.id for m in corpus] == [f"g6h{n:04d}" for n in range(1, len(corpus) + 1)]
    for m in corpus:
        assert m.schema_version == 2, m.id
        assert set(m.proposed) <= names, m.id
        assert all(name in m.text for name in m.proposed), m.id
    assert len({m.text for m in corpus}) == len(corpus)


def test_each_shape_is_filled_once() -> None:
    shapes = g3.load_shapes(script.SHAPES)
    assert len(_corpus()) == len(shapes)
    assert sorted(m.text for m in _corpus()) == sorted(
        g3.shape_messages(s, i, script.SEED, 1)[0].text for i, s in enumerate(shapes)
    )


def test_no_text_is_shared_with_an_earlier_grocery_set() -> None:
    # every registered set but this one (it sits in the tuning share since its retirement)
    earlier = {
        m.text
        for files in SHARE_FILES.values()
        for m in load_grocery_corpus(
            *(GROCERY_CORPORA / f for f in files if not f.startswith("chat_heldout4/"))
        )
    }
    assert not earlier & {m.text for m in _corpus()}


def test_the_set_is_large_and_varied_enough() -> None:
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
    """The second labelling's decisions (`chat_heldout4/README.md`): one per disagreement, each
    label the set holds now, and no shape dropped."""
    held = {m.id: m.model_dump() for m in _corpus()}
    adjudicated = HELD.parent / "adjudication.jsonl"
    decisions = [json.loads(line) for line in adjudicated.read_text(encoding="utf-8").splitlines()]
    assert decisions
    keys = ["id", "field", "author", "annotator", "decision", "label", "rule", "why"]
    for d in decisions:
        assert list(d) == keys, d["id"]
        assert d["author"] != d["annotator"], d["id"]
        assert d["label"] == d[{"keep": "author", "change": "annotator"}[d["decision"]]], d["id"]
        assert held[d["id"]][d["field"]] == d["label"], d["id"]
    assert len(held) == len(g3.load_shapes(script.SHAPES)) == 340
