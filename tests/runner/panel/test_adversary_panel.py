"""The exploit suite on the shipped suite: every exploit stays far behind the honest expert; the heuristic keeps its order.

Every agent runs the real trial loop in process (standard tools, scripted user, tool budget) on
every task of the shipped suite x 4 seeds; the adversaries get no task (as any submission).
"""

from __future__ import annotations

import pytest

from domains.movies.adversaries import ADVERSARY_NAMES
from domains.movies.panel_targets import ADVERSARY_MARGIN
from tests.runner.panel.panel_world import TRIALS, pass_k


@pytest.mark.parametrize("adversary", ADVERSARY_NAMES)
def test_every_exploit_stays_far_behind_the_expert(adversary: str) -> None:
    assert pass_k(adversary, 1) <= pass_k("expert", 1) - ADVERSARY_MARGIN


def test_user_side_variance_is_real_for_a_deterministic_agent() -> None:
    # The heuristic is a pure function of the conversation; what varies across seeds is the
    # user (vague answers, ask-backs, strikes, wording) - so pass^1 > pass^4 measures the user.
    assert pass_k("heuristic", 1) > pass_k("heuristic", TRIALS)


def test_honest_heuristic_ranks_above_policy_only_and_random() -> None:
    honest = pass_k("heuristic", 1)
    assert honest > pass_k("exploit-policy-only", 1)
    assert honest > pass_k("random", 1)


def test_heuristic_falls_from_volunteer_to_mixed_to_hidden() -> None:
    volunteer, mixed, hidden = (pass_k("heuristic", 1, r) for r in ("volunteer", "mixed", "hidden"))
    assert volunteer > mixed > hidden, (volunteer, mixed, hidden)
