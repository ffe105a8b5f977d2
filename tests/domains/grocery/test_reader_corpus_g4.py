"""The grocery reader's fourth chat set (`chat_tuning4/` tuning, `chat_heldout3/` held out): written by its script from the shapes files, loadable, split by shape, balanced over the topics."""

from __future__ import annotations

import json
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
HELD = GROCERY_CORPORA / script.HELD_OUT_FILE
# The voices of the earlier grocery sets: this one is written in others.
OLD_VOICES = {"assistant", "warm", "texter", "butler", "critic", "esl", "concise", "typo"}
OLD_VOICES |= {"shop", "bulleted", "gpt", "clerk", "fr", "voice", "dev"}


def test_the_files_are_what_the_script_writes() -> None:
    parts = script.messages()
    assert set(parts) == {script.TUNING_FILE, script.HELD_OUT_FILE}
    for name, share in parts.items():
        written = (GROCERY_CORPORA / name).read_text(encoding="utf-8")
        assert written == "".join(g3.line(m) + "\n" for m in share), name


def test_the_script_writes_the_same_bytes_twice() -> None:
    first = {n: [g3.line(m) for m in s] for n, s in script.messages().items()}
    assert first == {n: [g3.line(m) for m in s] for n, s in script.messages().items()}


def _check_lines(path: Path, prefix: str) -> set[str]:
    """Every line of one part loads as a version-2 label, numbered in order, naming real
    products it quotes; its texts, all different."""
    part = load_grocery_corpus(path)
    names = {p.name for p in tiny_catalog().items}
    assert [m.id for m in part] == [f"{prefix}{n:04d}" for n in range(1, len(part) + 1)]
    for m in part:
        assert m.schema_version == 2
        assert set(m.proposed) <= names, m.id
        assert all(name in m.text for name in m.proposed), m.id
    texts = {m.text for m in part}
    assert len(texts) == len(part)
    return texts


def test_every_tuning_line_loads_and_names_real_products_it_quotes() -> None:
    _check_lines(TUNING, "g4t")


def _filled(shapes: list[dict[str, Any]], fills: int, seed: int) -> list[int]:
    return [len(g3.shape_messages(s, i, seed, fills)) for i, s in enumerate(shapes)]


def test_each_tuning_shape_is_filled_twice_when_it_names_a_product() -> None:
    shapes = g3.load_shapes(script.TUNING_SHAPES)
    counts = _filled(shapes, 2, script.SEED)
    assert counts == [2 if "{p" in s["text"] else 1 for s in shapes]
    assert sum(counts) == len(load_grocery_corpus(TUNING))


def _short_of(shapes: list[dict[str, Any]], seed: int, least: dict[str, int]) -> list[str]:
    """The figures of a part's shapes that fall below `least`: per topic the shapes asking it
    (`asking`) and naming it without asking (`naming`), the reaction requests asking nothing,
    and the shapes performing each act."""
    figures: dict[str, int] = Counter(a for s in shapes for a in s["acts"])
    figures["shapes"] = len(shapes)
    figures["reactions"] = sum("reaction_request" in s["acts"] and not s["asked"] for s in shapes)
    counts = g3.shape_topic_counts(shapes, seed)
    assert set(counts) == set(TOPIC_FIELDS)
    for topic, (asking, naming) in counts.items():
        figures[f"{topic} asking"], figures[f"{topic} naming"] = asking, naming
    return [
        f"{name}: {value} < {least[kind]}"
        for name, value in figures.items()
        if (kind := name.rsplit(" ", 1)[-1]) in least and value < least[kind]
    ]


def test_the_tuning_shapes_cover_every_topic_asked_and_not_asked_in_new_voices() -> None:
    shapes = g3.load_shapes(script.TUNING_SHAPES)
    least = {"shapes": 80, "asking": 6, "naming": 6, "reactions": 16, "small_talk": 4}
    least |= {"abstention": 3, "confirmation": 10}
    assert _short_of(shapes, script.SEED, least) == []
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


def test_every_held_out_line_loads_and_shares_no_text_with_the_tuning_part() -> None:
    assert not _check_lines(HELD, "g4h") & _check_lines(TUNING, "g4t")


def test_each_held_out_shape_is_filled_once() -> None:
    shapes = g3.load_shapes(script.HELD_OUT_SHAPES)
    assert _filled(shapes, 1, script.SEED + 2) == [1] * len(shapes)
    assert len(load_grocery_corpus(HELD)) == len(shapes)


ADJUDICATION = HELD.parent / "adjudication.jsonl"
ADJUDICATION_KEYS = ["id", "field", "author", "annotator", "decision", "label", "rule", "why"]


def _adjudication() -> list[dict[str, Any]]:
    """The second labelling's decisions, one per disagreement (`chat_heldout3/README.md`)."""
    lines = ADJUDICATION.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def _held_shapes_as_split() -> list[dict[str, Any]]:
    """The held-out shapes with the labels they had when the set was split: the adjudication's
    changes, made after the split, undone (a change of acts or first topic moves a shape to
    another group, but not out of the held-out part)."""
    shapes = g3.load_shapes(script.HELD_OUT_SHAPES)
    seed = script.SEED + 2
    index = {g3.shape_messages(s, i, seed, 1)[0].text: i for i, s in enumerate(shapes)}
    texts = {m.id: m.text for m in load_grocery_corpus(HELD)}
    for d in _adjudication():
        if d["decision"] == "change":
            shapes[index[texts[d["id"]]]][d["field"]] = d["author"]
    return shapes


def test_every_adjudicated_label_is_the_held_out_label() -> None:
    held = {m.id: m.model_dump() for m in load_grocery_corpus(HELD)}
    decisions = _adjudication()
    assert decisions
    for d in decisions:
        assert list(d) == ADJUDICATION_KEYS, d["id"]
        assert d["decision"] in {"keep", "change"}, d["id"]  # none was dropped
        assert d["author"] != d["annotator"], d["id"]
        assert d["label"] == d[{"keep": "author", "change": "annotator"}[d["decision"]]]
        assert held[d["id"]][d["field"]] == d["label"], d["id"]


def test_seventy_percent_of_each_group_of_shapes_is_held_out() -> None:
    tuning = g3.load_shapes(script.TUNING_SHAPES)
    held = _held_shapes_as_split()
    groups = Counter(script.shape_group(s) for s in tuning + held)
    held_groups = Counter(script.shape_group(s) for s in held)
    assert held_groups == {g: script.held_out_count(n) for g, n in groups.items()}
    assert 0.65 <= len(held) / (len(tuning) + len(held)) <= 0.75
    assert not {s["text"] for s in tuning} & {s["text"] for s in held}


def test_the_held_out_shapes_are_many_enough_on_every_topic_and_register() -> None:
    shapes = g3.load_shapes(script.HELD_OUT_SHAPES)
    least = {"shapes": 200, "asking": 16, "naming": 16, "reactions": 40, "small_talk": 12}
    least |= {"abstention": 10, "confirmation": 25}
    assert _short_of(shapes, script.SEED + 2, least) == []
    assert {s["voice"] for s in shapes} == {
        s["voice"] for s in g3.load_shapes(script.TUNING_SHAPES)
    }
