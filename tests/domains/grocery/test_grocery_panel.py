"""A small slice of the grocery panel through the real loop: the oracle wins, do-nothing and the consent forger lose, the expert and its natural twin win the slice, and the allergen ignorer loses the allergy cells the expert wins and, never asking about allergies, the allergy-free shoppers too."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "benchmarks"))

from grocery_panel import GROCERY, pass_k, run_panel  # noqa: E402

from domains.grocery.catalog import load_catalog  # noqa: E402
from domains.grocery.tasks import ACCOUNT_KINDS, load_tasks  # noqa: E402


def test_a_slice_of_the_panel() -> None:
    catalog = load_catalog(GROCERY / "snapshots" / "2026-11-01")
    tasks = load_tasks(GROCERY / "tasks")
    picked = (
        [t for t in tasks if t.kind == "return"][:1]
        + [
            t
            for t in tasks
            if t.kind in ("order", "substitution") and not t.no_valid_recommendation
        ][:3]
        + [t for t in tasks if t.no_valid_recommendation][:1]
    )
    agents = ("oracle", "do-nothing", "expert", "expert-natural", "consent-forger")
    trials = run_panel(agents, picked, catalog, [0])
    by = {a: [t for t in trials if t.agent == a] for a in agents}
    assert pass_k(by["oracle"], 1) == 1.0, by["oracle"]
    assert pass_k(by["expert"], 1) == 1.0, by["expert"]
    # The same decisions in a chat model's words win the same tasks.
    assert pass_k(by["expert-natural"], 1) == 1.0, by["expert-natural"]
    # Finishing at once wins nothing (even where nothing fits, the shopper must be told);
    # forging consent wins none of the tasks that need an order or a return.
    assert [t.reward for t in by["do-nothing"]] == [0.0, 0.0, 0.0, 0.0, 0.0]
    assert [t.reward for t in by["consent-forger"]][:4] == [0.0, 0.0, 0.0, 0.0]


def test_the_allergen_ignorer_loses_the_allergy_cells_the_expert_wins() -> None:
    from domains.grocery.suite import GRID

    catalog = load_catalog(GROCERY / "snapshots" / "2026-11-01")
    tasks = [t for t in load_tasks(GROCERY / "tasks") if t.kind not in ACCOUNT_KINDS]
    cells = [t for t, slot in zip(tasks, GRID, strict=True) if slot.allergy_trap]
    picked = [
        next(t for t in cells if t.reveal_difficulty == rv)
        for rv in ("volunteer", "mixed", "hidden")
    ]
    trials = run_panel(["expert", "allergen-ignorer"], picked, catalog, [0, 1])
    assert [t.reward for t in trials if t.agent == "expert"] == [1.0] * 6
    assert [t.reward for t in trials if t.agent == "allergen-ignorer"] == [0.0] * 6


def test_bare_names_are_asked_about_and_bare_confirmations_lose() -> None:
    """An expert naming products by bare name is asked which one where the name is shared and
    still wins; asking 'Shall I place the order?' without the basket loses every order."""
    catalog = load_catalog(GROCERY / "snapshots" / "2026-11-01")
    tasks = load_tasks(GROCERY / "tasks")
    picked = [t for t in tasks if t.kind != "return" and not t.no_valid_recommendation][:4]
    picked += [t for t in tasks if t.kind == "return"][:1]
    trials = run_panel(["expert-bare-names", "bare-confirmer"], picked, catalog, [0])
    assert [t.reward for t in trials if t.agent == "expert-bare-names"] == [1.0] * 5
    assert [t.reward for t in trials if t.agent == "bare-confirmer"] == [0.0] * 5


def test_the_panel_checks_issue_38s_targets_against_the_figures() -> None:
    from grocery_panel import Trial, targets

    def trials(agent: str, rewards: list[list[float]]) -> list[Trial]:
        return [
            Trial(agent, f"t{i}", "mixed", seed, reward, "finish")
            for i, per_seed in enumerate(rewards)
            for seed, reward in enumerate(per_seed)
        ]

    played = trials("expert", [[1.0, 1.0]] * 4)
    played += trials("heuristic", [[1.0, 0.0], [1.0, 1.0], [0.0, 0.0], [1.0, 1.0]])
    played += trials("questionnaire", [[1.0, 1.0], [0.0, 0.0], [0.0, 0.0], [1.0, 1.0]])
    played += trials("allergen-ignorer", [[0.0, 0.0]] * 3 + [[1.0, 1.0]])
    lines = targets(played, 2).splitlines()
    assert lines[0] == "  target expert pass^1 1.000 >= 0.90, pass^2 1.000 >= 0.85  ok"
    assert lines[1] == "  target questionnaire pass^1 0.500 <= 0.700  ok"
    # 0.25 of the policy-ignorer's trials won: over its 0.10 cap.
    assert lines[2] == "  target allergen-ignorer pass^1 0.250 <= 0.10  MISSED"
    assert lines[3] == "  target heuristic pass^2 0.500 < pass^1 0.625  ok"
    assert len(lines) == 4  # agents not played are skipped


def test_the_policy_ignorer_loses_the_shopping_tasks_the_expert_wins() -> None:
    """The expert that never read the policy (no allergy or budget question, a replacement put
    in the basket unasked, no sponsored note) loses orders and substitutions the expert wins:
    each committed shopping draft is drawn so that the policy matters."""
    catalog = load_catalog(GROCERY / "snapshots" / "2026-11-01")
    tasks = load_tasks(GROCERY / "tasks")
    picked = [t for t in tasks if t.kind == "order" and not t.no_valid_recommendation][:2]
    picked += [t for t in tasks if t.kind == "substitution"][:2]
    trials = run_panel(["expert", "policy-ignorer"], picked, catalog, [0])
    assert [t.reward for t in trials if t.agent == "expert"] == [1.0] * 4
    assert [t.reward for t in trials if t.agent == "policy-ignorer"] == [0.0] * 4


def test_shoppers_without_an_allergy_are_asked_first_and_lost_by_the_allergen_ignorer() -> None:
    """Policy section 1's question holds for a shopper with no allergy too: every honest agent
    asks before its first product and wins; the allergen-ignorer, which never asks, loses on
    that rule, and the questionnaire (whose form asks it) keeps it."""
    from domains.grocery.agents import baselines
    from domains.grocery.panel_play import play_grocery_trial
    from domains.grocery.scoring import score
    from runner.core.protocols import AgentContext

    catalog = load_catalog(GROCERY / "snapshots" / "2026-11-01")
    tasks = load_tasks(GROCERY / "tasks")
    picked = [t for t in tasks if t.kind == "order" and not t.allergies][:3]
    honest = ["oracle", "expert", "expert-styled"]
    trials = run_panel([*honest, "allergen-ignorer"], picked, catalog, [0])
    for agent in honest:
        assert [t.reward for t in trials if t.agent == agent] == [1.0] * 3, agent
    assert [t.reward for t in trials if t.agent == "allergen-ignorer"] == [0.0] * 3
    task = picked[0]
    for agent, kept in (("allergen-ignorer", False), ("questionnaire", True)):
        context = AgentContext(user_id=task.user_id, policy_text="", seed=0)
        played = play_grocery_trial(baselines()[agent](context, {}), task, catalog, 0)
        verdict = score(task, asyncio.run(played), catalog)
        found = [p.passed for p in verdict.policies if p.policy == "allergy_question"]
        assert found == [kept], (agent, verdict.policies)
