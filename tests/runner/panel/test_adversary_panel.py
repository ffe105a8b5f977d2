"""The panel on the shipped suite: the honest expert wins, wording costs nothing, and each shortcut stays far behind.

Every agent runs the real trial loop in process (standard tools, scripted user, tool budget) on
every task of the shipped suite × 4 seeds; the adversaries get no task (as any submission), and
`informed` reads only the names of the constrained fields. The bounds are issue 21's, from
`runner.agents.panel_targets` (`benchmarks/user_fidelity.py` prints every one of them, including
those this suite does not meet yet).
"""

from __future__ import annotations

import asyncio
from functools import cache

import pytest

from runner.agents import build_builtin
from runner.agents.adversaries import ADVERSARY_NAMES
from runner.agents.panel_targets import ADVERSARY_MARGIN, TWIN_LOSS_MAX
from runner.catalog import Catalog
from runner.loop import run_trial
from runner.metrics import pass_hat_k
from runner.paths import POLICY_PATH, SNAPSHOTS_DIR, TASKS_DIR
from runner.protocols import AgentContext
from runner.scoring import score_transcript
from runner.simulators import build_simulator
from runner.tasks import Task, load_tasks
from runner.tools import build_toolset

TRIALS = 4


@cache
def _world() -> tuple[Catalog, list[Task], str]:
    snapshot = sorted(p for p in SNAPSHOTS_DIR.iterdir() if p.is_dir())[-1]
    return Catalog.load(snapshot), load_tasks(TASKS_DIR), POLICY_PATH.read_text(encoding="utf-8")


@cache
def successes(agent: str) -> dict[str, tuple[bool, ...]]:
    """Per task id: which of the TRIALS seeds ended with reward 1."""
    catalog, tasks, policy = _world()
    out: dict[str, tuple[bool, ...]] = {}
    for task in tasks:
        wins = []
        for seed in range(TRIALS):
            context = AgentContext(
                user_id=task.user_id,
                policy_text=policy,
                seed=seed,
                task=task if agent in ("oracle", "informed") else None,
                catalog=catalog,
            )
            transcript = asyncio.run(
                run_trial(
                    task=task,
                    catalog=catalog,
                    agent=build_builtin(agent, context),
                    simulator=build_simulator("scripted", task=task, catalog=catalog, seed=seed),
                    toolset=build_toolset(catalog, task),
                    seed=seed,
                    trial_index=seed,
                )
            )
            wins.append(score_transcript(task, transcript, catalog).reward == 1.0)
        out[task.id] = tuple(wins)
    return out


def pass_k(agent: str, k: int, reveal: str | None = None) -> float:
    _catalog, tasks, _policy = _world()
    wanted = {t.id for t in tasks if reveal is None or t.reveal_difficulty == reveal}
    values = [
        pass_hat_k(TRIALS, sum(wins), k)
        for task_id, wins in successes(agent).items()
        if task_id in wanted
    ]
    return sum(v for v in values if v is not None) / len(values)


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


def test_the_honest_panel_keeps_its_order() -> None:
    oracle, informed, expert = (pass_k(a, 1) for a in ("oracle", "informed", "expert"))
    careful, heuristic = (pass_k(a, 1) for a in ("careful", "heuristic"))
    assert oracle >= informed >= expert >= careful >= heuristic
