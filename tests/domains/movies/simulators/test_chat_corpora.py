"""Issue 37's chat-register corpora for movies: large, varied, labelled with acts that agree, split by shape into a tuning share and a held-out share the benchmark reports apart."""

from __future__ import annotations

import json
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from domains.movies.catalog import Catalog
from domains.movies.simulators.reader import rule_reader
from domains.movies.simulators.reader_score import (
    CHAT_CORPUS_NAMES,
    CORPUS_SNAPSHOT,
    READER_CORPORA,
    SHARE_CORPORA,
    LabelledMessage,
    load_corpus,
    score_shares,
)
from domains.movies.site import reader_accuracy
from runner.core.paths import SITE_DIR, SNAPSHOTS_DIR


@cache
def _catalog() -> Catalog:
    return Catalog.load(SNAPSHOTS_DIR / CORPUS_SNAPSHOT)


@cache
def _chat(name: str) -> list[LabelledMessage]:
    return load_corpus(*sorted((READER_CORPORA / name).glob("*.jsonl")))


def test_there_are_at_least_300_new_messages_and_at_least_40_percent_are_held_out() -> None:
    tuning, held = _chat("chat_tuning"), _chat("chat_heldout")
    assert len(tuning) + len(held) >= 300
    assert len(held) / (len(tuning) + len(held)) >= 0.40


@pytest.mark.parametrize("name", CHAT_CORPUS_NAMES)
def test_each_share_has_every_register_and_every_act(name: str) -> None:
    corpus = _chat(name)
    assert all(m.schema_version == 2 for m in corpus)
    assert len({m.style for m in corpus}) >= 10
    acts = Counter(a for m in corpus for a in m.acts)
    for act in ("proposal", "reaction_request", "preference_question", "description"):
        assert acts[act] >= 20, (act, acts)
    for act in ("comparison", "abstention", "small_talk", "acknowledgement"):
        assert acts[act] >= 3, (act, acts)
    assert {f for m in corpus for f in m.asks} >= {"genres", "runtime", "streaming_services"}
    # Reaction requests after a pitch that ask no field: the register issue 37 found misread.
    assert sum(1 for m in corpus if "reaction_request" in m.acts and not m.asks) >= 40


def test_titles_put_forward_are_catalog_titles_named_in_the_text_and_ids_are_unique() -> None:
    by_id = {item.id: item for item in _catalog().items}
    seen: set[str] = set()
    for name in CHAT_CORPUS_NAMES:
        for m in _chat(name):
            assert m.id not in seen
            seen.add(m.id)
            for item_id in m.proposes:
                assert by_id[item_id].title in m.text, m.id


def test_no_message_is_in_both_shares() -> None:
    tuning = {m.text for name in SHARE_CORPORA["tuning"] for m in _chat(name)}
    assert not tuning & {m.text for name in SHARE_CORPORA["held_out"] for m in _chat(name)}


def test_every_corpus_folder_is_in_exactly_one_share() -> None:
    folders = {p.name for p in READER_CORPORA.iterdir() if sorted(p.glob("*.jsonl"))}
    tuning, held = set(SHARE_CORPORA["tuning"]), set(SHARE_CORPORA["held_out"])
    assert not tuning & held
    assert tuning | held == folders
    # Retired from the held-out share once their figures had guided new tuning sets.
    assert {"final", "chat_heldout", "chat_heldout2"} <= tuning


def test_a_label_whose_acts_disagree_names_its_file_and_line(tmp_path: Path) -> None:
    row = json.loads(
        (READER_CORPORA / "chat_tuning" / "agent_messages.jsonl").read_text().split("\n")[0]
    )
    row["acts"] = ["small_talk"]
    row["asks"] = ["genres"]
    path = tmp_path / "bad.jsonl"
    path.write_text("\n" + json.dumps(row) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"(?s)bad\.jsonl:2: .*preference_question"):
        load_corpus(path)


def test_the_methodology_page_names_every_corpus_of_each_share() -> None:
    page = (SITE_DIR / "pages" / "methodology.md").read_text(encoding="utf-8")
    for names in SHARE_CORPORA.values():
        for name in names:
            assert f"`{name}`" in page, name


def test_the_shares_are_scored_apart_and_the_site_publishes_the_held_out_one() -> None:
    shares = score_shares(rule_reader(_catalog()))
    assert shares["held_out"].corpora == list(SHARE_CORPORA["held_out"])
    assert shares["tuning"].corpora == list(SHARE_CORPORA["tuning"])
    for share, names in SHARE_CORPORA.items():
        assert shares[share].messages == sum(len(_chat(n)) for n in names)
    published = reader_accuracy()
    # An empty held-out share publishes no per-field figures rather than vacuous 1.000s.
    assert published.total == (shares["held_out"] if shares["held_out"].messages else None)
    assert set(published.scores) >= {"final", "chat_tuning", "chat_heldout"}
    assert published.shares["final"] == published.shares["chat_heldout"] == "tuning"
