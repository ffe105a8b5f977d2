"""The fresh mention shares of issue 38's third round (`corpora/grocery/mentions/FRESH3.md`): each
file is what the corpus script writes from its share, each share is as large as the round asks,
its templates are its own, and its labels are consistent."""

from __future__ import annotations

import hashlib
import json
from typing import Literal

import pytest
from pydantic import BaseModel, ConfigDict, Field

from domains.grocery.catalog import load_catalog
from domains.grocery.mention_corpus import load_examples
from runner.core.jsonl import load_jsonl
from scripts import grocery_mentions_corpus as corpus

# share -> (fewest templates, fewest messages) the round asks for
FRESH = {"tuning-o": (35, 200), "heldout3": (80, 450)}


def _spec() -> corpus.Templates:
    return corpus.Templates.model_validate_json(corpus.TEMPLATES.read_text(encoding="utf-8"))


def _items(spec: corpus.Templates) -> list[corpus.Item]:
    catalog = load_catalog(corpus.ROOT / spec.catalog)
    return [corpus.Item(p.id, p.name, p.brand, p.quantity) for p in catalog.items]


@pytest.mark.parametrize("name", sorted(FRESH))
def test_fresh_share_file_is_what_the_script_writes(name: str) -> None:
    spec = _spec()
    written = (corpus.OUT / f"{name}.jsonl").read_text(encoding="utf-8")
    assert written == corpus.render(corpus.build(_items(spec), spec.shares[name]))


@pytest.mark.parametrize("name", sorted(FRESH))
def test_fresh_share_is_large_and_its_templates_are_its_own(name: str) -> None:
    spec = _spec()
    share = spec.shares[name]
    fewest_templates, fewest_messages = FRESH[name]
    assert len(share.templates) >= fewest_templates
    assert share.messages >= fewest_messages
    # every template is filled equally often, so no shape weighs more than another
    assert share.messages % len(share.templates) == 0
    words = [text for text, _ in share.templates]
    assert len(set(words)) == len(words)
    others = {text for other, s in spec.shares.items() if other != name for text, _ in s.templates}
    assert not set(words) & others


@pytest.mark.parametrize("name", sorted(FRESH))
def test_fresh_share_labels_are_consistent(name: str) -> None:
    rows = load_examples(corpus.OUT / f"{name}.jsonl")
    assert len(rows) == _spec().shares[name].messages
    for row in rows:
        assert not set(row.proposed) & set(row.ruled_out), row.text
    # the share exercises every kind of label
    assert any(r.proposed for r in rows)
    assert any(r.ruled_out for r in rows)
    assert any(r.unclear for r in rows)


def test_heldout3_and_tuning_o_share_no_template_and_no_filled_message() -> None:
    spec = _spec()
    held = {text for text, _ in spec.shares["heldout3"].templates}
    tuned = {text for text, _ in spec.shares["tuning-o"].templates}
    assert not held & tuned
    messages = {
        name: {r.text for r in load_examples(corpus.OUT / f"{name}.jsonl")}
        for name in ("heldout3", "tuning-o")
    }
    assert not messages["heldout3"] & messages["tuning-o"]


class Adjudication(BaseModel):
    """One line of heldout3's second-labelling adjudication: a slot the two labellings disagreed
    on and what the written rules decided."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^heldout3/\d+$")
    field: str = Field(pattern=r"^roles\[\d\]$")
    author: Literal["P", "R"]
    annotator: Literal["P", "R"]
    decision: Literal["keep", "change", "drop"]
    label: Literal["P", "R"]
    rule: str = Field(min_length=1)
    why: str = Field(min_length=1)


SECOND = corpus.OUT / "heldout3-second-labelling"


def test_heldout3_roles_are_the_adjudicated_ones() -> None:
    """Every adjudicated slot of heldout3 carries the decided label, every other slot the label
    both labellings gave, and the blind labels are the ones frozen before adjudication."""
    frozen = (SECOND / "ma_blind.jsonl.sha256").read_text(encoding="utf-8").split()[0]
    blind_text = (SECOND / "ma_blind.jsonl").read_bytes()
    assert hashlib.sha256(blind_text).hexdigest() == frozen
    blind = {row["n"]: row["roles"] for row in map(json.loads, blind_text.splitlines())}
    rows = load_jsonl(SECOND / "ma_adjudication.jsonl", Adjudication)
    decided = {(int(r.id.split("/")[1]), int(r.field[6])): r for r in rows}
    assert all(r.author != r.annotator for r in rows)
    assert all((r.decision == "keep") == (r.label == r.author) for r in rows)
    templates = _spec().shares["heldout3"].templates
    assert sorted(blind) == list(range(len(templates)))  # nothing was dropped
    for n, (_, roles) in enumerate(templates):
        assert len(roles) == len(blind[n])
        for i, role in enumerate(roles):
            row = decided.get((n, i))
            assert role == (row.label if row else blind[n][i]), (n, i)
