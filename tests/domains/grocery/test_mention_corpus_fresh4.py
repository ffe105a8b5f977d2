"""The fresh held-out share `heldout4` (issue 38, fourth round; corpora/grocery/mentions/FRESH4.md):
the file is what the script writes, its sizes are the ones FRESH4.md states, its templates are its
own, and every template gives one role per slot."""

from __future__ import annotations

import json
import re

import pytest

from scripts import grocery_mentions_corpus as corpus
from tests.domains.grocery.second_labelling import assert_roles_adjudicated

SHARE = "heldout4"


@pytest.fixture(scope="module")
def spec_items() -> tuple[corpus.Templates, list[corpus.Item]]:
    return corpus.load_spec()


def test_heldout4_file_is_what_the_script_writes(
    spec_items: tuple[corpus.Templates, list[corpus.Item]],
) -> None:
    spec, items = spec_items
    written = (corpus.OUT / f"{SHARE}.jsonl").read_text(encoding="utf-8")
    assert written == corpus.render(corpus.build(items, spec.shares[SHARE]))


def test_heldout4_sizes_match_fresh4(
    spec_items: tuple[corpus.Templates, list[corpus.Item]],
) -> None:
    share = spec_items[0].shares[SHARE]
    assert len(share.templates) == 138
    assert share.messages == 6 * len(share.templates) == 828
    text = (corpus.OUT / f"{SHARE}.jsonl").read_text(encoding="utf-8")
    rows = [json.loads(line) for line in text.splitlines()]
    counts = (
        len(rows),
        sum(len(r["proposed"]) for r in rows),
        sum(len(r["ruled_out"]) for r in rows),
        sum(len(r["unclear"]) for r in rows),
    )
    assert counts == (828, 635, 432, 361)


def test_heldout4_templates_are_its_own(
    spec_items: tuple[corpus.Templates, list[corpus.Item]],
) -> None:
    spec = spec_items[0]
    mine = {text for text, _ in spec.shares[SHARE].templates}
    assert len(mine) == len(spec.shares[SHARE].templates)
    for name, share in spec.shares.items():
        if name != SHARE:
            shared = mine & {text for text, _ in share.templates}
            assert not shared, f"{SHARE} shares templates with {name}: {sorted(shared)[:3]}"


def test_heldout4_roles_one_per_slot(
    spec_items: tuple[corpus.Templates, list[corpus.Item]],
) -> None:
    for i, (text, roles) in enumerate(spec_items[0].shares[SHARE].templates):
        slots = sorted({int(s) for s in re.findall(r"\{(\d+)\}", text)})
        assert slots == list(range(len(roles))), (
            f"{SHARE} template {i}: slots {slots}, roles {roles!r}"
        )
        assert set(roles) <= {"P", "R"}, f"{SHARE} template {i}: roles {roles!r}"


def test_heldout4_roles_are_the_adjudicated_ones() -> None:
    """The second, blind labelling (FRESH4.md, "Second labelling") agreed on every slot, so the
    adjudication file is empty and every role is the one both labellings gave."""
    assert_roles_adjudicated(SHARE)
