"""Grocery strata that measure their skill: fixed priors must not win the hidden stratum, nor a question-less prober the mixed and hidden ones.

The players are the shopping assistant with parts taken out:
- the fixed priors (`FIXED_PRIORS`): ask nothing, read no hint, and put forward the products that
  fit what the shopper volunteered in one fixed order (cheapest first, top search result first),
  the next one after each decline;
- the no-question prober (`PROBER`): asks nothing but reads every decline's hint.

`suite_strata_gate` says whether any prior wins more than `MAX_STRATUM_WIN` of the hidden
stratum's trials or the prober more than that of the mixed or the hidden stratum. The grocery
generator (`domains.grocery.generate`) rejects a draft any of them wins on its first probed trial
(`strata_problems`), redraws the tasks behind a failed suite figure, and writes the figures into
the split's `suite.json`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Sequence
from typing import Any

from domains.grocery.agents.shopper import Play, ShoppingAgent
from domains.grocery.tasks import ACCOUNT_KINDS, GroceryTask
from runner.batch.keys import trial_seed

__all__ = [
    "FIXED_PRIORS",
    "MAX_STRATUM_WIN",
    "PROBER",
    "STRATA_SEEDS",
    "play",
    "strata_problems",
    "suite_strata_gate",
]

MAX_STRATUM_WIN = 0.25
STRATA_SEEDS = 2
FIXED_PRIORS: dict[str, Play] = {
    "prior-cheapest-heard": Play(
        name="prior-cheapest-heard", ask_standard=False, ask_cues=False, use_hints=False
    ),
    "prior-search-heard": Play(
        name="prior-search-heard",
        ask_standard=False,
        ask_cues=False,
        use_hints=False,
        rank="search",
    ),
}
PROBER = "no-question-prober"
PLAYERS: dict[str, Play] = {
    **FIXED_PRIORS,
    PROBER: Play(name=PROBER, ask_standard=False, ask_cues=False),
}


def play(name: str, task: GroceryTask, catalog: Any, trials: Iterable[int]) -> list[bool]:
    """Play a fixed prior or the prober on the given trials of run seed 0 against the scripted
    shopper; which trials it won."""
    from domains.grocery.panel_play import play_grocery_trial
    from domains.grocery.scoring import score
    from runner.core.rules import get_rules

    rules = get_rules("v2")

    async def one(index: int) -> bool:
        seed = trial_seed(0, task.id, index)
        agent = ShoppingAgent(PLAYERS[name], catalog)
        transcript = await play_grocery_trial(agent, task, catalog, seed)
        return score(task, transcript, catalog, rules).reward == 1.0

    async def every() -> list[bool]:
        return [await one(i) for i in trials]

    return asyncio.run(every())


def _players(task: GroceryTask) -> list[str]:
    players = []
    if task.reveal_difficulty == "hidden":
        players += list(FIXED_PRIORS)
    if task.reveal_difficulty in ("mixed", "hidden"):
        players.append(PROBER)
    return players


def strata_problems(task: GroceryTask, catalog: Any) -> list[str]:
    """The players that win the task's first probed trial (none on a no-valid task)."""
    if task.no_valid_recommendation:
        return []
    return [f"{name} wins trial 0" for name in _players(task) if play(name, task, catalog, [0])[0]]


def _family(task: GroceryTask) -> str:
    return "account" if task.kind in ACCOUNT_KINDS else "shopping"


def suite_strata_gate(
    tasks: Sequence[GroceryTask], catalog: Any, trials: int = STRATA_SEEDS
) -> tuple[bool, list[str], set[str]]:
    """Whether no fixed prior wins > 25 % of the hidden stratum and the prober > 25 % of the mixed
    or the hidden one, among the shopping tasks and among the account tasks apart (so tasks one
    family's players always lose never dilute the other's figure); one line per figure; the ids
    of the tasks behind a failed figure."""
    ok = True
    lines: list[str] = []
    behind: set[str] = set()
    strata = [
        (
            stratum,
            family,
            [t for t in tasks if t.reveal_difficulty == stratum and _family(t) == family],
        )
        for stratum in ("mixed", "hidden")
        for family in ("shopping", "account")
    ]
    for stratum, family, members in strata:
        if not members:
            continue
        for name in [*FIXED_PRIORS, PROBER] if stratum == "hidden" else [PROBER]:
            results = {t.id: play(name, t, catalog, range(trials)) for t in members}
            wins = [w for r in results.values() for w in r]
            share = sum(wins) / len(wins)
            passed = share <= MAX_STRATUM_WIN
            if not passed:
                ok = False
                behind |= {i for i, r in results.items() if any(r)}
            lines.append(
                f"strata {'pass' if passed else 'FAIL'}: {name} wins {share:.3f} of the "
                f"{stratum} stratum's {family} trials (<= {MAX_STRATUM_WIN})"
            )
    return ok, lines, behind
