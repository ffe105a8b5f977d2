"""Print how much the rule set changes rewards on the v1 suite, and how close agents come to the caps.

Every built-in agent (baselines, exploits, panel) runs the published v1 tasks with the scripted
user, once under `rules: v1` and once under `rules: v2`, for the same seeds. Per agent it prints:

- `differ (run)`: trials whose reward differs between the v1 run and the v2 run (the loop, the
  tools and the scorer all change);
- `differ (rescored)`: trials of the v1 run whose reward changes when only the scorer's rules
  change (the v1 transcript re-scored under v2);
- the most tool calls in one reply and in one trial under v1, beside the caps (64 and 1,000).

    python -m benchmarks.v1_rule_sets [--seeds 2] [--agents heuristic,expert]
"""

from __future__ import annotations

import argparse
import asyncio
import os
from dataclasses import dataclass, field

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from domains.movies.builtins import BUILTIN_AGENTS
from domains.movies.catalog import Catalog
from domains.movies.scoring import score_transcript
from domains.movies.simulators import build_simulator
from domains.movies.tasks import Task, load_tasks
from domains.movies.tools import build_toolset
from runner.agents import build_builtin
from runner.core.paths import v1_data_dir
from runner.core.protocols import Agent, AgentContext, AgentReply, ChatMessage, ToolSchema
from runner.core.rules import get_rules
from runner.core.transcript import ComponentSpec, Transcript
from runner.play.loop import MAX_TOOL_CALLS_PER_REPLY, MAX_TOOL_CALLS_PER_TRIAL, run_trial


@dataclass
class CountingAgent:
    """Passes every step to `inner` and keeps the number of tool calls in each reply."""

    inner: Agent
    per_reply: list[int] = field(default_factory=list)

    @property
    def spec(self) -> ComponentSpec:
        return self.inner.spec

    async def step(self, messages: list[ChatMessage], tools: list[ToolSchema]) -> AgentReply:
        reply = await self.inner.step(messages, tools)
        self.per_reply.append(len(reply.tool_calls))
        return reply


async def one_trial(
    name: str, task: Task, catalog: Catalog, policy: str, seed: int, rules: str
) -> tuple[Transcript, list[int]]:
    context = AgentContext(
        user_id=task.user_id, policy_text=policy, seed=seed, task=task, catalog=catalog
    )
    agent = CountingAgent(build_builtin(name, context))
    transcript = await run_trial(
        task=task,
        catalog=catalog,
        agent=agent,
        simulator=build_simulator("scripted", task=task, catalog=catalog, seed=seed),
        toolset=build_toolset(catalog, task, rules=get_rules(rules)),
        seed=seed,
        rules=get_rules(rules),
    )
    return transcript, agent.per_reply


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--agents", default=",".join(sorted(BUILTIN_AGENTS)))
    args = parser.parse_args()
    root = v1_data_dir()
    catalog = Catalog.load(root / "catalog.json")
    tasks = load_tasks(root / "tasks")
    policy = (root / "policy.md").read_text(encoding="utf-8")
    v1, v2 = get_rules("v1"), get_rules("v2")
    print(
        f"{'agent':<28} {'trials':>6} {'differ (run)':>12} {'differ (rescored)':>17} "
        f"{'max/reply':>9} {'max/trial':>9}"
    )
    totals = [0, 0, 0]
    peak_reply = peak_trial = 0
    for name in args.agents.split(","):
        trials = run_differs = rescore_differs = most_reply = most_trial = 0
        for seed in range(args.seeds):
            for task in tasks:
                old, replies = asyncio.run(one_trial(name, task, catalog, policy, seed, "v1"))
                new, _ = asyncio.run(one_trial(name, task, catalog, policy, seed, "v2"))
                reward_v1 = score_transcript(task, old, catalog, v1).reward
                trials += 1
                run_differs += reward_v1 != score_transcript(task, new, catalog, v2).reward
                rescore_differs += reward_v1 != score_transcript(task, old, catalog, v2).reward
                most_reply = max(most_reply, *replies, 0)
                most_trial = max(most_trial, sum(replies))
        print(
            f"{name:<28} {trials:>6} {run_differs:>12} {rescore_differs:>17} "
            f"{most_reply:>9} {most_trial:>9}"
        )
        totals = [totals[0] + trials, totals[1] + run_differs, totals[2] + rescore_differs]
        peak_reply, peak_trial = max(peak_reply, most_reply), max(peak_trial, most_trial)
    print(
        f"{'all':<28} {totals[0]:>6} {totals[1]:>12} {totals[2]:>17} "
        f"{peak_reply:>9} {peak_trial:>9}"
    )
    print(f"caps: {MAX_TOOL_CALLS_PER_REPLY} per reply, {MAX_TOOL_CALLS_PER_TRIAL} per trial")


if __name__ == "__main__":
    main()
