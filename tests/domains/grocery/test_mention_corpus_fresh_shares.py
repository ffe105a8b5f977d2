"""The fresh held-out mention shares (`corpora/grocery/mentions/FRESH4.md`, `FRESH5.md`,
`FRESH6.md`, `FRESH7.md`, `FRESH8.md`, `FRESH9.md`; issue 38):
each file is what the script writes, its sizes are the ones its FRESH file states, its templates
are its own, and every template gives one role (`P` or `R`) per slot. `heldout5`'s,
`heldout6`'s, `heldout7`'s, `heldout8`'s and `heldout9`'s roles are the ones their second, blind
labelling and the adjudication left (`heldout4`'s are checked in `test_mention_corpus_fresh4.py`)."""

from __future__ import annotations

import json
import re

import pytest

from scripts import grocery_mentions_corpus as corpus
from tests.domains.grocery.second_labelling import assert_roles_adjudicated

# share: (templates, (messages, ids put forward, ids ruled out, unclear names)), as each FRESH
# file states; every template is filled six times.
SIZES: dict[str, tuple[int, tuple[int, int, int, int]]] = {
    "heldout4": (138, (828, 635, 432, 361)),
    "heldout5": (133, (798, 622, 426, 326)),
    "heldout6": (118, (708, 554, 334, 310)),
    "heldout7": (122, (732, 561, 319, 375)),
    "heldout8": (118, (708, 540, 352, 324)),
    "heldout9": (120, (720, 515, 353, 319)),
}
SHARES = pytest.mark.parametrize("share", sorted(SIZES))


@pytest.fixture(scope="module")
def spec_items() -> tuple[corpus.Templates, list[corpus.Item]]:
    return corpus.load_spec()


@SHARES
def test_file_is_what_the_script_writes(
    share: str, spec_items: tuple[corpus.Templates, list[corpus.Item]]
) -> None:
    spec, items = spec_items
    written = (corpus.OUT / f"{share}.jsonl").read_text(encoding="utf-8")
    assert written == corpus.render(corpus.build(items, spec.shares[share]))


@SHARES
def test_sizes_match_the_fresh_file(
    share: str, spec_items: tuple[corpus.Templates, list[corpus.Item]]
) -> None:
    templates, counts = SIZES[share]
    assert len(spec_items[0].shares[share].templates) == templates
    assert spec_items[0].shares[share].messages == 6 * templates
    text = (corpus.OUT / f"{share}.jsonl").read_text(encoding="utf-8")
    rows = [json.loads(line) for line in text.splitlines()]
    found = (
        len(rows),
        sum(len(r["proposed"]) for r in rows),
        sum(len(r["ruled_out"]) for r in rows),
        sum(len(r["unclear"]) for r in rows),
    )
    assert found == counts, f"{share}: (messages, put forward, ruled out, unclear) {found}"


@SHARES
def test_templates_are_the_shares_own(
    share: str, spec_items: tuple[corpus.Templates, list[corpus.Item]]
) -> None:
    spec = spec_items[0]
    mine = {text for text, _ in spec.shares[share].templates}
    assert len(mine) == len(spec.shares[share].templates), f"{share} repeats a template"
    for name, other in spec.shares.items():
        if name != share:
            shared = mine & {text for text, _ in other.templates}
            assert not shared, f"{share} shares templates with {name}: {sorted(shared)[:3]}"


@SHARES
def test_one_role_per_slot(
    share: str, spec_items: tuple[corpus.Templates, list[corpus.Item]]
) -> None:
    for i, (text, roles) in enumerate(spec_items[0].shares[share].templates):
        slots = sorted({int(s) for s in re.findall(r"\{(\d+)\}", text)})
        assert slots == list(range(len(roles))), f"{share} template {i}: slots {slots}, {roles!r}"
        assert set(roles) <= {"P", "R"}, f"{share} template {i}: roles {roles!r}"


@pytest.mark.parametrize("share", ["heldout5", "heldout6", "heldout7", "heldout8", "heldout9"])
def test_roles_are_the_adjudicated_ones(share: str) -> None:
    """The second, blind labelling (FRESH5.md … FRESH9.md, "Second labelling") agreed on every
    slot of `heldout5` … `heldout7`, so their adjudication files are empty and every role is the
    one both labellings gave; `heldout8`'s one disagreement dropped its template; `heldout9`'s
    twelve (basket lines recalled beside a new proposal) kept the author's roles."""
    assert_roles_adjudicated(share)


@pytest.mark.parametrize(
    "share", ["heldout3", "heldout4", "heldout5", "heldout6", "heldout7", "heldout8", "heldout9"]
)
def test_second_labellers_reading(share: str) -> None:
    """The blind second labelling read as a reader (`benchmarks/grocery_mentions.py
    --second-labeller`) rebuilds the share's own messages, and departs from the labels exactly
    where the adjudication kept the author's role: never proposing what both ruled out, and
    counting a ruled-out mention only where the second labeller proposed it."""
    from benchmarks.grocery_mentions import second_reading

    kept = [r for r in corpus.second_labelling(share)[2] if r.decision == "keep"]
    got = second_reading(share)
    assert got.messages == len(
        (corpus.OUT / f"{share}.jsonl").read_text(encoding="utf-8").splitlines()
    )
    assert (got.exact == got.messages) == (not kept)
    assert got.ruled_out_counted == 0 or any(r.annotator == "P" for r in kept)
    assert got.proposals_missed == 0 or any(r.annotator == "R" for r in kept)
