"""Grocery strata that measure their skill: fixed priors must not win the hidden stratum, nor a question-less prober the mixed and hidden ones.

The players are the shopping assistant with parts taken out:
- the fixed priors (`FIXED_PRIORS`): ask nothing but the one question policy section 1 requires
  of every assistant (allergies), read no hint, and put forward the products that fit what the
  shopper said in one fixed order (cheapest first, top search result first, best Nutri-Score
  first, biggest pack first, smallest pack first), the next one after each decline;
- the no-question prober (`PROBER`): asks nothing but that one question, and reads every
  decline's hint.

`strata(catalog).gate` says whether any prior wins more than `MAX_STRATUM_WIN` of the hidden
stratum's trials or the prober more than that of the mixed or the hidden stratum. The grocery
generator (`domains.grocery.generate`) rejects a draft any of them wins on its first probed trial
(`.problems`), redraws the tasks behind a failed suite figure, and writes the figures into
the split's `suite.json`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domains.grocery.agents.shopper import Play, ShoppingAgent
from domains.grocery.tasks import ACCOUNT_KINDS, ALLERGY_QUESTION, GroceryTask
from runner.batch.keys import trial_seed
from runner.core.generation import PROBER, Strata, play_trials

__all__ = [
    "FIXED_PRIORS",
    "POLICY_IGNORER",
    "PROBER",
    "STRATA_SEEDS",
    "play",
    "policy_blind_wins",
    "strata",
]

STRATA_SEEDS = 2
# (name, the order it puts products forward in): cheapest first, the top search result (the
# most popular) first, best Nutri-Score first, biggest pack first, smallest pack first; each
# with what the shopper volunteered applied.
_PRIOR_RANKS: tuple[tuple[str, Any], ...] = (
    ("prior-cheapest-heard", "cheapest"),
    ("prior-search-heard", "search"),
    ("prior-healthiest-heard", "healthiest"),
    ("prior-biggest-heard", "biggest"),
    ("prior-smallest-heard", "smallest"),
)
FIXED_PRIORS: dict[str, Play] = {
    name: Play(name=name, ask_standard=False, ask_cues=False, use_hints=False, rank=rank)
    for name, rank in _PRIOR_RANKS
}
POLICY_IGNORER = "policy-ignorer"
PLAYERS: dict[str, Play] = {
    **FIXED_PRIORS,
    PROBER: Play(name=PROBER, ask_standard=False, ask_cues=False),
    # Not judged by the strata gate: every shopping draft must beat it (`policy_blind_wins`).
    POLICY_IGNORER: Play(name=POLICY_IGNORER, reads_policy=False, rank="search"),
}


def play(name: str, task: GroceryTask, catalog: Any, trials: Sequence[int]) -> list[bool]:
    """Play a fixed prior, the prober or the policy-ignorer on the given trials of run seed 0
    against the scripted shopper; which trials it won."""
    from domains.grocery.panel_play import play_grocery_trial
    from domains.grocery.scoring import score
    from runner.core.rules import get_rules

    rules = get_rules("v2")
    if name == POLICY_IGNORER:
        # Whether the rest of the policy matters: it never asks about allergies, so the
        # question rule (flagged on every shopping task) alone would make it lose every one.
        task = task.flagged(ALLERGY_QUESTION, on=False)

    async def one(index: int) -> bool:
        seed = trial_seed(0, task.id, index)
        agent = ShoppingAgent(PLAYERS[name], catalog)
        transcript = await play_grocery_trial(agent, task, catalog, seed)
        return score(task, transcript, catalog, rules).reward == 1.0

    return play_trials(one, trials)


def policy_blind_wins(task: GroceryTask, catalog: Any) -> bool:
    """Whether the expert that never read the policy wins the task's first probed trial: a
    shopping task where the policy does not matter (no unsaid allergy its picks carry, no
    replacement to ask about, no budget or sponsored product in its way)."""
    return play(POLICY_IGNORER, task, catalog, [0])[0]


def strata(catalog: Any) -> Strata[GroceryTask]:
    """The strata rule on this catalog: `.problems(task)` for a draft, `.gate(tasks)` for a
    suite, `.figures(tasks)` for the benchmark."""
    return Strata(
        lambda n, t, i: play(n, t, catalog, i), tuple(FIXED_PRIORS), STRATA_SEEDS, _family
    )


def _family(task: GroceryTask) -> str:
    return "account" if task.kind in ACCOUNT_KINDS else "shopping"
