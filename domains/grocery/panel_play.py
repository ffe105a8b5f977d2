"""One grocery trial in process: an agent on one task against the scripted shopper, the standard tools, rule set v2 (the panel, the strata gate and the tests play through it)."""

from __future__ import annotations

from typing import Any

from runner.core.protocols import Agent
from runner.core.transcript import Transcript

__all__ = ["play_grocery_trial"]


async def play_grocery_trial(agent: Agent, task: Any, catalog: Any, seed: int) -> Transcript:
    """Trial `seed` of `agent` on the grocery `task`, through the real trial loop."""
    from domains.grocery.tools import build_toolset
    from domains.grocery.user import build_user
    from runner.core.domains import get_domain
    from runner.core.rules import get_rules
    from runner.play.loop import run_trial

    rules = get_rules("v2")
    domain = get_domain("grocery")  # by name: the package imports this module's callers
    return await run_trial(
        task=task,
        catalog=catalog,
        agent=agent,
        simulator=build_user("scripted", task=task, catalog=catalog, seed=seed),
        toolset=build_toolset(catalog, task, None, rules, seed),
        seed=seed,
        rules=rules,
        greeting=domain.greeting,
        domain=domain,
    )
