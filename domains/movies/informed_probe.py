"""Whether the informed agent - told which fields a task constrains, never their values - wins it on each probed seed."""

from __future__ import annotations

import asyncio

from domains.movies.catalog import Catalog
from domains.movies.tasks import Task
from runner.batch.keys import trial_seed

__all__ = ["INFORMED_SEEDS", "informed_wins"]

# Trials 0..3 of run seed 0, the seeds of the default board's first run: the user's variation
# (patience, vagueness, wording, asking back) must never decide whether a task can be won.
INFORMED_SEEDS = 4


def informed_wins(task: Task, catalog: Catalog, seeds: int = INFORMED_SEEDS) -> list[bool]:
    """Run the informed agent against the scripted user on trials 0..seeds-1 of run seed 0 (the
    standard tools, the default policy) and say which trials it won."""
    from domains.movies.baselines.expert import constrained_fields
    from domains.movies.scoring import score_transcript
    from domains.movies.simulators import build_simulator
    from domains.movies.tools import build_toolset
    from runner.agents import build_builtin
    from runner.core.paths import POLICY_PATH
    from runner.core.protocols import AgentContext
    from runner.play.loop import run_trial

    policy = POLICY_PATH.read_text(encoding="utf-8")

    async def one(index: int) -> bool:
        seed = trial_seed(0, task.id, index)
        context = AgentContext(
            user_id=task.user_id,
            policy_text=policy,
            seed=seed,
            informed_fields=constrained_fields(task),
        )
        transcript = await run_trial(
            task=task,
            catalog=catalog,
            agent=build_builtin("informed", context),
            simulator=build_simulator("scripted", task=task, catalog=catalog, seed=seed),
            toolset=build_toolset(catalog, task),
            seed=seed,
            trial_index=index,
        )
        return score_transcript(task, transcript, catalog).reward == 1.0

    async def every() -> list[bool]:
        return [await one(i) for i in range(seeds)]

    return asyncio.run(every())
