"""One fidelity-panel trial: a builtin agent on one task, the scripted user, the standard tools, in process."""

from __future__ import annotations

from domains.movies.catalog import Catalog
from domains.movies.simulators import build_simulator
from domains.movies.tasks import Task
from domains.movies.tools import build_toolset
from runner.agents import build_builtin
from runner.core.protocols import AgentContext
from runner.core.transcript import Transcript
from runner.play.loop import run_trial

__all__ = ["TASK_READERS", "play_panel_trial"]

# The panel agents given their task (the oracle reads it whole; `informed` only the names of the
# constrained fields); every other agent gets none, as any submission.
TASK_READERS = frozenset({"oracle", "informed"})


async def play_panel_trial(
    agent: str, task: Task, catalog: Catalog, policy: str, seed: int, simulator: str = "scripted"
) -> Transcript:
    """Trial `seed` of `agent` on `task` (trial index = seed), through the real trial loop."""
    context = AgentContext(
        user_id=task.user_id,
        policy_text=policy,
        seed=seed,
        task=task if agent in TASK_READERS else None,
        catalog=catalog,
    )
    return await run_trial(
        task=task,
        catalog=catalog,
        agent=build_builtin(agent, context),
        simulator=build_simulator(simulator, task=task, catalog=catalog, seed=seed),
        toolset=build_toolset(catalog, task),
        seed=seed,
        trial_index=seed,
    )
