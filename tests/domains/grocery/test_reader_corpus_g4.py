"""The grocery reader's fourth chat set (`chat_tuning4/`, and `chat_heldout3/` once its shapes are committed): written by its script from the shapes files, loadable, balanced over the topics."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from domains.grocery.corpus import GROCERY_CORPORA, TOPIC_FIELDS, load_grocery_corpus
from domains.grocery.testing import tiny_catalog

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "scripts"))

import grocery_reader_corpus_fresh as g3  # noqa: E402
import grocery_reader_corpus_g4 as script  # noqa: E402

TUNING = GROCERY_CORPORA / script.TUNING_FILE
# The voices of the earlier grocery sets: this one is written in others.
OLD_VOICES = {"assistant", "warm", "texter", "butler", "critic", "esl", "concise", "typo"}
OLD_VOICES |= {"shop", "bulleted", "gpt", "clerk", "fr", "voice", "dev"}


def test_the_files_are_what_the_script_writes() -> None:
    parts = script.messages()
    assert script.TUNING_FILE in parts
    for name, share in parts.items():
        written = (GROCERY_CORPORA / name).read_text(encoding="utf-8")
        assert written == "".join(g3.line(m) + "\n" for m in share), name


def test_the_script_writes_the_same_bytes_twice() -> None:
    first = {n: [g3.line(m) for m in s] for n, s in script.messages().items()}
    assert first == {n: [g3.line(m) for m in s] for n, s in script.messages().items()}


def test_every_tuning_line_loads_and_names_real_products_it_quotes() -> None:
    tuning = load_grocery_corpus(TUNING)
    names = {p.name for p in tiny_catalog().items}
    assert [m.id for m in tuning] == [f"g4t{n:04d}" for n in range(1, len(tuning) + 1)]
    for m in tuning:
        assert m.schema_version == 2
        assert set(m.proposed) <= names, m.id
        assert all(name in m.text for name in m.proposed), m.id
    assert len({m.text for m in tuning}) == len(tuning)


def _filled(shapes: list[dict[str, Any]], fills: int, seed: int) -> list[int]:
    return [len(g3.shape_messages(s, i, seed, fills)) for i, s in enumerate(shapes)]


def test_each_tuning_shape_is_filled_twice_when_it_names_a_product() -> None:
    shapes = g3.load_shapes(script.TUNING_SHAPES)
    counts = _filled(shapes, 2, script.SEED)
    assert counts == [2 if "{p" in s["text"] else 1 for s in shapes]
    assert sum(counts) == len(load_grocery_corpus(TUNING))


def test_the_tuning_shapes_cover_every_topic_asked_and_not_asked_in_new_voices() -> None:
    shapes = g3.load_shapes(script.TUNING_SHAPES)
    assert len(shapes) >= 80
    counts = g3.shape_topic_counts(shapes, script.SEED)
    assert set(counts) == set(TOPIC_FIELDS)
    for topic, (asking, naming) in counts.items():
        assert asking >= 6, topic
        assert naming >= 6, topic
    acts = Counter(a for s in shapes for a in s["acts"])
    assert sum("reaction_request" in s["acts"] and not s["asked"] for s in shapes) >= 16
    assert acts["small_talk"] >= 4
    assert acts["abstention"] >= 3
    assert acts["confirmation"] >= 10
    voices = {s["voice"] for s in shapes}
    assert len(voices) >= 12
    assert not voices & OLD_VOICES


@pytest.mark.parametrize(("size", "held"), [(1, 1), (2, 1), (3, 2), (5, 4), (10, 7), (20, 14)])
def test_seventy_percent_of_a_group_is_held_out_rounded_half_up(size: int, held: int) -> None:
    assert script.held_out_count(size) == held


def test_the_split_keeps_seventy_percent_of_each_group_and_is_seeded() -> None:
    shapes = [{"acts": ["small_talk"], "asked": []} for _ in range(10)] + [
        {"acts": ["preference_question"], "asked": ["diet"]} for _ in range(3)
    ]
    tuning, held = script.split(shapes)
    assert sorted(tuning + held) == list(range(13))
    assert Counter(script.shape_group(shapes[i]) for i in held) == {
        ("small_talk", "asks:-"): 7,
        ("preference_question", "asks:diet"): 2,
    }
    assert script.split(shapes) == (tuning, held)
    assert script.split(shapes, seed=1) != (tuning, held)
