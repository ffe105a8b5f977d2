"""The grocery reader's third chat set (`chat_tuning3/`, `chat_heldout2/`): written by its script from the shapes file, loadable, balanced over the topics and split by shape."""

from __future__ import annotations

import math
import sys
from collections import Counter
from pathlib import Path

from domains.grocery.corpus import GROCERY_CORPORA, TOPIC_FIELDS, load_grocery_corpus
from domains.grocery.testing import tiny_catalog

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "scripts"))

import grocery_reader_corpus_fresh as script  # noqa: E402

TUNING = GROCERY_CORPORA / script.TUNING_FILE
HELD = GROCERY_CORPORA / script.HELD_OUT_FILE
OLD_VOICES = {"assistant", "warm", "texter", "butler", "critic", "esl", "concise", "typo"}
OLD_VOICES |= {"shop", "bulleted"}


def test_the_files_are_what_the_script_writes() -> None:
    for name, share in script.messages().items():
        written = (GROCERY_CORPORA / name).read_text(encoding="utf-8")
        assert written == "".join(script.line(m) + "\n" for m in share)


def test_every_line_loads_and_names_real_products_it_quotes() -> None:
    tuning, held = load_grocery_corpus(TUNING), load_grocery_corpus(HELD)
    names = {p.name for p in tiny_catalog().items}
    assert len(tuning) + len(held) >= 300
    assert [m.id for m in tuning] == [f"g3t{n:04d}" for n in range(1, len(tuning) + 1)]
    assert [m.id for m in held] == [f"g3h{n:04d}" for n in range(1, len(held) + 1)]
    for m in tuning + held:
        assert m.schema_version == 2
        assert set(m.proposed) <= names, m.id
        assert all(name in m.text for name in m.proposed), m.id
    assert not {m.text for m in tuning} & {m.text for m in held}


def test_half_of_each_group_of_shapes_is_held_out_and_every_message_follows_its_shape() -> None:
    shapes = script.load_shapes()
    held = script.held_out_shapes(shapes)
    groups = Counter(tuple(s["acts"]) for s in shapes)
    held_groups = Counter(tuple(shapes[i]["acts"]) for i in held)
    assert held_groups == {g: math.ceil(n / 2) for g, n in groups.items()}
    held_texts = {m.text for i in held for m in script.shape_messages(shapes[i], i)}
    assert held_texts == {m.text for m in load_grocery_corpus(HELD)}


def test_the_shapes_cover_every_topic_asked_and_not_asked_in_new_voices() -> None:
    shapes = script.load_shapes()
    counts = script.shape_topic_counts(shapes)
    assert set(counts) == set(TOPIC_FIELDS)
    for topic, (asking, naming) in counts.items():
        assert asking >= 12, topic
        assert naming >= 12, topic
    acts = Counter(a for s in shapes for a in s["acts"])
    assert sum("reaction_request" in s["acts"] and not s["asked"] for s in shapes) >= 30
    assert acts["small_talk"] >= 12
    assert acts["abstention"] >= 10
    voices = {s["voice"] for s in shapes}
    assert len(voices) >= 8
    assert not voices & OLD_VOICES
