"""The honest panel on the shipped suite: the expert wins, wording costs nothing, ignoring policies or hints does not pay.

The bounds are issue 21's, from `domains.movies.panel_targets` (`benchmarks/user_fidelity.py`
prints every one, including those the suite does not meet yet). The exploit suite is in
`test_adversary_panel.py`; the two files run on separate test workers.
"""

from __future__ import annotations

from domains.movies.panel_targets import TWIN_LOSS_MAX
from tests.runner.panel.panel_world import TRIALS, pass_k


def test_the_oracle_passes_everything() -> None:
    assert pass_k("oracle", 1) == 1.0
    assert pass_k("oracle", TRIALS) == 1.0


def test_the_honest_expert_wins_almost_every_task_on_every_seed() -> None:
    # Skill, not luck: the user's variation changes the path, not whether a good agent wins.
    assert pass_k("expert", 1) >= 0.90
    assert pass_k("expert", TRIALS) >= 0.85
    assert pass_k("informed", 1) >= 0.95


def test_wording_alone_costs_the_natural_twin_nothing() -> None:
    # Same decisions, chat-model wording (indirect questions, pitches quoting plots, comparisons
    # with titles the user has seen): the reader must read both alike.
    assert pass_k("expert", 1) - pass_k("expert-natural", 1) <= TWIN_LOSS_MAX


def test_ignoring_the_policies_does_not_pay() -> None:
    assert pass_k("policy-ignoring-retriever", 1) <= 0.10


def test_ignoring_decline_hints_does_not_win_hidden_tasks() -> None:
    assert pass_k("decline-ignoring-guesser", 1, "hidden") <= 0.25


def test_the_honest_panel_keeps_its_order() -> None:
    oracle, informed, expert = (pass_k(a, 1) for a in ("oracle", "informed", "expert"))
    careful, heuristic = (pass_k(a, 1) for a in ("careful", "heuristic"))
    assert oracle >= informed >= expert >= careful >= heuristic
