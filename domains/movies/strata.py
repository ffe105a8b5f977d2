"""Strata that measure their skill: fixed priors must not win the hidden stratum, nor a question-less prober the mixed and hidden ones.

A hidden task measures learning from declines and a mixed task measures asking; neither may be
won by an agent that does neither. Two kinds of such agents are played against the scripted
user (on the trials the informed probe uses):

- the fixed priors (`FIXED_PRIORS`): propose the fitting titles in one fixed order - best rated,
  most voted, newest, shortest or longest first - dropping only what was declined; each over the
  whole catalog (on the user's services) and with what the user volunteered applied (`-heard`);
- the no-question prober of the fidelity panel (`no-question-prober`): asks only for the
  services and learns from every decline.

The generator rejects a draft one of them wins on its first probed trial (`strata_problems`), and
the suite gate (`suite_strata_gate`) fails a suite where any fixed prior wins more than
`MAX_STRATUM_WIN` of the hidden stratum's trials, or the prober more than that of the mixed or of
the hidden stratum.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from domains.movies.baselines.expert import PRIOR_ORDERS, ExpertAgent, Style
from domains.movies.catalog import Catalog
from domains.movies.tasks import Task
from runner.batch.keys import trial_seed

__all__ = [
    "FIXED_PRIORS",
    "MAX_STRATUM_WIN",
    "PROBER",
    "STRATA_SEEDS",
    "play",
    "prior_reach",
    "strata_figures",
    "strata_problems",
    "suite_strata_gate",
]

MAX_STRATUM_WIN = 0.25
STRATA_SEEDS = 4  # trials 0..3 of run seed 0 per task in the suite gate (the board's first run)
PROBER = "no-question-prober"
FIXED_PRIORS: dict[str, Style] = {
    **{
        f"prior-{key}": Style(ask=False, learn=False, pick=key, heed=False)  # type: ignore[arg-type]
        for key in PRIOR_ORDERS
    },
    **{
        f"prior-{key}-heard": Style(ask=False, learn=False, pick=key)  # type: ignore[arg-type]
        for key in PRIOR_ORDERS
    },
}
_PROBER_STYLE = Style(ask=False, pick="split")


def _style(name: str) -> Style:
    return _PROBER_STYLE if name == PROBER else FIXED_PRIORS[name]


def play(name: str, task: Task, catalog: Catalog, trials: Sequence[int]) -> list[bool]:
    """Play a fixed prior or the prober (by name) on the given trials of run seed 0 against the
    scripted user; which trials it won."""
    from domains.movies.scoring import score_transcript
    from domains.movies.simulators import build_simulator
    from domains.movies.tools import build_toolset
    from runner.core.paths import POLICY_PATH
    from runner.core.protocols import AgentContext
    from runner.play.loop import run_trial

    policy = POLICY_PATH.read_text(encoding="utf-8")

    async def one(index: int) -> bool:
        seed = trial_seed(0, task.id, index)
        context = AgentContext(user_id=task.user_id, policy_text=policy, seed=seed)
        transcript = await run_trial(
            task=task,
            catalog=catalog,
            agent=ExpertAgent(context, name=name, style=_style(name)),
            simulator=build_simulator("scripted", task=task, catalog=catalog, seed=seed),
            toolset=build_toolset(catalog, task),
            seed=seed,
            trial_index=index,
        )
        return score_transcript(task, transcript, catalog).reward == 1.0

    async def every() -> list[bool]:
        return [await one(i) for i in trials]

    return asyncio.run(every())


PRIOR_REACH = 4  # how deep into each fixed order the static check looks


def prior_reach(task: Task, catalog: Catalog, depth: int = PRIOR_REACH) -> list[str]:
    """The titles the fixed priors put forward first (the top `depth` of each order), over every
    policy-allowed title and over those meeting what the user volunteers: a quick check, before
    any prior is played, that none of them is an answer."""
    from domains.movies.validate import policy_allows

    allowed = [i for i in catalog.items if policy_allows(task, i)]
    volunteered = [tc.constraint for tc in task.constraints if tc.reveal == "volunteer"]
    heard = [i for i in allowed if all(c.evaluate(i).satisfied for c in volunteered)]
    out: list[str] = []
    for key, highest in PRIOR_ORDERS.values():
        for pool in (allowed, heard):
            ranked = sorted(pool, key=lambda i: (getattr(i, key), i.id), reverse=highest)
            out += [i.id for i in ranked[:depth] if i.id not in out]
    return out


def _players(task: Task) -> list[str]:
    """Who must not win this task: the priors on a hidden one, the prober on mixed and hidden."""
    players = []
    if task.reveal_difficulty == "hidden":
        players += list(FIXED_PRIORS)
    if task.reveal_difficulty in ("mixed", "hidden"):
        players.append(PROBER)
    return players


def strata_problems(task: Task, catalog: Catalog) -> list[str]:
    """The fixed priors and the prober that win the task's first probed trial (a no-valid task
    is left to the abstention rules: none of them abstains on purpose)."""
    if task.no_valid_recommendation:
        return []
    return [f"{name} wins trial 0" for name in _players(task) if play(name, task, catalog, [0])[0]]


def strata_figures(
    tasks: Sequence[Task], catalog: Catalog, trials: int = STRATA_SEEDS
) -> tuple[dict[str, dict[str, float]], dict[str, dict[str, list[str]]]]:
    """pass^1 of each fixed prior on the hidden stratum and of the prober on the mixed and hidden
    strata (player -> stratum -> share of trials won), and the tasks each won a trial of."""
    figures: dict[str, dict[str, float]] = {}
    winners: dict[str, dict[str, list[str]]] = {}
    for stratum in ("mixed", "hidden"):
        members = [t for t in tasks if t.reveal_difficulty == stratum]
        if not members:
            continue
        names = [*FIXED_PRIORS, PROBER] if stratum == "hidden" else [PROBER]
        for name in names:
            results = {t.id: play(name, t, catalog, range(trials)) for t in members}
            wins = [w for r in results.values() for w in r]
            figures.setdefault(name, {})[stratum] = round(sum(wins) / len(wins), 4)
            winners.setdefault(name, {})[stratum] = sorted(i for i, r in results.items() if any(r))
    return figures, winners


def suite_strata_gate(
    tasks: Sequence[Task], catalog: Catalog, trials: int = STRATA_SEEDS
) -> tuple[bool, list[str], set[str]]:
    """Whether no fixed prior wins > 25 % of the hidden stratum and the prober > 25 % of the mixed
    or the hidden one; one line per figure; the ids of the tasks behind a failed figure."""
    figures, winners = strata_figures(tasks, catalog, trials)
    ok = True
    lines = []
    behind: set[str] = set()
    for name, by_stratum in figures.items():
        for stratum, share in by_stratum.items():
            passed = share <= MAX_STRATUM_WIN
            if not passed:
                ok = False
                behind |= set(winners[name][stratum])
            lines.append(
                f"strata {'pass' if passed else 'FAIL'}: {name} wins {share:.3f} of the "
                f"{stratum} stratum's trials (<= {MAX_STRATUM_WIN})"
            )
    return ok, lines, behind
