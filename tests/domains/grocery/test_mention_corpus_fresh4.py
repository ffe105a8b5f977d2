"""The fresh held-out share `heldout4` (issue 38, fourth round; corpora/grocery/mentions/FRESH4.md):
its roles are the ones both blind labellings gave. The checks every fresh share needs (the file is
what the script writes, its sizes, its own templates, one role per slot) are in
`test_mention_corpus_fresh_shares.py`."""

from __future__ import annotations

from tests.domains.grocery.second_labelling import assert_roles_adjudicated

SHARE = "heldout4"


def test_heldout4_roles_are_the_adjudicated_ones() -> None:
    """The second, blind labelling (FRESH4.md, "Second labelling") agreed on every slot, so the
    adjudication file is empty and every role is the one both labellings gave."""
    assert_roles_adjudicated(SHARE)
