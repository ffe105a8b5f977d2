"""One fidelity-panel trial: a builtin agent on one task, the scripted user, the standard tools, in process."""

from __future__ import annotations

from domains.movies.catalog import Catalog
from domains.movies.simulators import build_simulator
from domains.movies.tasks import Task
from domains.movies.tools import build_toolset
from runner.agents import agent_context, build_builtin
from runner.core.transcript import Transcript
from runner.play.agent_config import BuiltinAgentConfig
from runner.play.loop import run_trial

__all__ = ["play_panel_trial"]

# What each panel agent is given is decided by `runner.agents.agent_context`, as for a board
# run: the oracle reads the task and catalog, `informed` only the constrained fields' names,
# every other agent nothing but what a submission sees.


async def play_panel_trial(
    agent: str, task: Task, catalog: Catalog, policy: str, seed: int, simulator: str = "scripted"
) -> Transcript:
    """Trial `seed` of `agent` on `task` (trial index = seed), through the real trial loop."""
    context = agent_context(
        BuiltinAgentConfig(name=agent),
        domain="movies",
        user_id=task.user_id,
        policy_text=policy,
        seed=seed,
        task=task,
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
