"""The fresh mention shares of issue 38's third round (`corpora/grocery/mentions/FRESH3.md`): each
file is what the corpus script writes from its share, each share is as large as the round asks,
its templates are its own, and its labels are consistent."""

from __future__ import annotations

import pytest

from domains.grocery.catalog import load_catalog
from domains.grocery.mention_corpus import load_examples
from scripts import grocery_mentions_corpus as corpus
from tests.domains.grocery.second_labelling import assert_roles_adjudicated

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


def test_heldout3_roles_are_the_adjudicated_ones() -> None:
    assert_roles_adjudicated("heldout3")
