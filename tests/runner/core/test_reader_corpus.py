"""Scoring a reader on a share of labelled messages: per-field recall and precision, reaction requests heard as questions, proposals, false leaves, confirm requests."""

from __future__ import annotations

import pytest

from runner.core.reader_corpus import Judged, check_acts, score_share


def _m(
    id: str,
    acts: tuple[str, ...],
    want: set[str],
    got: set[str],
    proposed: tuple[set[str], set[str]] = (set(), set()),
    confirm: tuple[str | None, str | None] = (None, None),
) -> Judged:
    return Judged(
        id=id,
        text=f"message {id}",
        acts=acts,
        want_asks=frozenset(want),
        got_asks=frozenset(got),
        want_proposed=frozenset(proposed[0]),
        got_proposed=frozenset(proposed[1]),
        want_confirm=confirm[0],
        got_confirm=confirm[1],
    )


def test_a_share_is_scored_field_by_field_and_reaction_requests_apart() -> None:
    judged = [
        _m("a", ("preference_question",), {"genres"}, {"genres"}),
        _m("b", ("preference_question",), {"genres", "runtime"}, {"genres"}),
        _m("c", ("small_talk",), set(), {"genres"}),
        _m("d", ("proposal", "reaction_request"), set(), {"runtime"}, ({"t1"}, {"t1"})),
        _m("e", ("proposal", "reaction_request"), set(), set(), ({"t1"}, {"t1", "t2"})),
        _m("f", ("confirmation",), set(), set(), confirm=("order", None)),
    ]
    score = score_share("held_out", ["x"], ("genres", "runtime", "rating"), judged, confirms=True)
    assert score.messages == 6
    assert score.recall == {"genres": 1.0, "runtime": 0.0, "rating": 1.0}
    assert score.precision["genres"] == pytest.approx(2 / 3)
    assert score.precision["runtime"] == 0.0
    assert score.support == {"genres": 2, "runtime": 1, "rating": 0}
    assert (score.reaction_requests, score.reaction_requests_as_questions) == (2, 1)
    assert score.reaction_requests_kept == 0.5
    assert score.false_leaves == 1
    assert score.proposals_exact == pytest.approx(5 / 6)
    assert score.confirm_exact == pytest.approx(5 / 6)
    assert any("reaction request heard as a question" in e for e in score.errors)
    assert "reaction requests heard as preference questions: 1/2" in score.format_text()


def test_a_domain_without_confirm_requests_reports_none() -> None:
    score = score_share("tuning", [], ("genres",), [_m("a", (), {"genres"}, {"genres"})])
    assert score.confirm_exact is None
    assert score.reaction_requests_kept == 1.0


@pytest.mark.parametrize(
    ("acts", "asks", "proposes", "abstains", "message"),
    [
        ((), False, False, False, "lists the acts"),
        (("small_talk",), True, False, False, "preference_question"),
        (("preference_question",), False, False, False, "preference_question"),
        (("reaction_request",), False, True, False, "'proposal'"),
        (("small_talk",), False, False, True, "'abstention'"),
    ],
)
def test_acts_that_disagree_with_the_labels_are_refused(
    acts: tuple[str, ...], asks: bool, proposes: bool, abstains: bool, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        check_acts(acts, asks, proposes, abstains)
