"""Strata that measure their skill: fixed priors must not win the hidden stratum, nor a question-less prober the mixed and hidden ones.

A hidden task measures learning from declines and a mixed task measures asking; neither may be
won by an agent that does neither. Two kinds of such agents are played against the scripted
user (on the trials the informed probe uses):

- the fixed priors (`FIXED_PRIORS`): propose the fitting titles in one fixed order - best rated,
  most voted, newest, shortest or longest first - dropping only what was declined; each over the
  whole catalog (on the user's services) and with what the user volunteered applied (`-heard`);
- the no-question prober of the fidelity panel (`no-question-prober`): asks only for the
  services and learns from every decline.

The generator rejects a draft one of them wins on its first probed trial (`strata(catalog).problems`), and
the suite gate (`.gate`) fails a suite where any fixed prior wins more than
`MAX_STRATUM_WIN` of the hidden stratum's trials, or the prober more than that of the mixed or of
the hidden stratum.
"""

from __future__ import annotations

from collections.abc import Sequence

from domains.movies.baselines.expert import PRIOR_ORDERS, ExpertAgent, Style
from domains.movies.catalog import Catalog
from domains.movies.tasks import Task
from runner.batch.keys import trial_seed
from runner.core.generation import PROBER, Strata, play_trials

__all__ = [
    "FIXED_PRIORS",
    "PROBER",
    "STRATA_SEEDS",
    "play",
    "prior_reach",
    "strata",
]

STRATA_SEEDS = 4  # trials 0..3 of run seed 0 per task in the suite gate (the board's first run)
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

    return play_trials(one, trials)


PRIOR_REACH = 4  # how deep into each fixed order the static check looks


def prior_reach(task: Task, catalog: Catalog, depth: int = PRIOR_REACH) -> list[str]:
    """The titles the fixed priors put forward first (the top `depth` of each order), over every
    policy-allowed title and over those meeting what the user volunteers: a quick check, before
    any prior is played, that none of them is an answer."""
    from domains.movies.validate import policy_allows

    allowed = [i for i in catalog.items if policy_allows(task, i)]
    volunteered = [tc.constraint for tc in task.constraints if tc.reveal == "volunteer"]
    heard = [i for i in allowed if all(c.holds(i) for c in volunteered)]
    out: list[str] = []
    for key, highest in PRIOR_ORDERS.values():
        for pool in (allowed, heard):
            ranked = sorted(pool, key=lambda i: (getattr(i, key), i.id), reverse=highest)
            out += [i.id for i in ranked[:depth] if i.id not in out]
    return out


def strata(catalog: Catalog) -> Strata[Task]:
    """The strata rule on this catalog: `.problems(task)` for a draft, `.gate(tasks)` for a
    suite, `.figures(tasks)` for the benchmark."""
    return Strata(lambda n, t, i: play(n, t, catalog, i), tuple(FIXED_PRIORS), STRATA_SEEDS)
