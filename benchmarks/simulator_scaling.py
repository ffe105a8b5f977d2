"""Print the scripted user's CPU per trial at 153 and 100 000 catalog items (target: within 1.5x).

Each trial replays the agent messages of a real heuristic transcript (questions, proposals naming
titles, answers to ask-backs) through a fresh ScriptedUser, so the figure is the simulator's own
cost per trial: title detection, asked-topic detection and the rules. The title index is built
once per catalog (as the runner does) and reported apart.
"""

from __future__ import annotations

import argparse
import asyncio
import time

from benchmarks.search_latency import synthesize
from domains.movies.catalog import Catalog, CatalogItem
from domains.movies.simulators import build_simulator
from domains.movies.simulators.scripted import ScriptedUser, title_index
from domains.movies.tasks import Task, load_tasks
from domains.movies.tools import build_toolset
from runner.agents import build_builtin
from runner.core.paths import POLICY_PATH, v1_data_dir
from runner.core.protocols import AgentContext
from runner.core.transcript import MessageEvent
from runner.play.loop import run_trial

TARGET_RATIO = 1.5


def conversations(catalog: Catalog, tasks: list[Task]) -> list[tuple[Task, list[str]]]:
    """The agent messages of one heuristic trial per task (seed 0) on the small catalog."""
    policy = POLICY_PATH.read_text(encoding="utf-8")
    out = []
    for task in tasks:
        context = AgentContext(user_id=task.user_id, policy_text=policy, seed=0)
        transcript = asyncio.run(
            run_trial(
                task=task,
                catalog=catalog,
                agent=build_builtin("heuristic", context),
                simulator=build_simulator("scripted", task=task, catalog=catalog, seed=0),
                toolset=build_toolset(catalog, task),
                seed=0,
            )
        )
        out.append((task, [m.content for m in transcript.messages if m.role == "agent"]))
    return out


def cpu_per_trial(catalog: Catalog, convos: list[tuple[Task, list[str]]], rounds: int) -> float:
    """Mean CPU seconds the scripted user spends on one whole trial."""
    started = time.process_time()
    for _ in range(rounds):
        for task, agent_texts in convos:
            user = ScriptedUser(task, catalog, seed=1)
            events = [MessageEvent(role="agent", content=agent_texts[0])]
            events.append(MessageEvent(role="user", content=user.reply(events).content))
            for text in agent_texts[1:]:
                events.append(MessageEvent(role="agent", content=text))
                events.append(MessageEvent(role="user", content=user.reply(events).content))
    return (time.process_time() - started) / (rounds * len(convos))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    base = Catalog.load(v1_data_dir())
    tasks = load_tasks(v1_data_dir() / "tasks")
    started = time.process_time()
    title_index(base)
    print(f"{len(base)} items: title index built once in {time.process_time() - started:.3f} s CPU")
    convos = conversations(base, tasks)
    big_items: list[CatalogItem] = [*base.items, *synthesize(base, args.size - len(base), 7)]
    big_items = [
        item if i < len(base) else item.model_copy(update={"id": f"tmdb_{10_000_000 + i}"})
        for i, item in enumerate(big_items)
    ]
    big = Catalog(big_items)
    started = time.process_time()
    title_index(big)
    print(f"{len(big)} items: title index built once in {time.process_time() - started:.3f} s CPU")
    small = cpu_per_trial(base, convos, args.rounds)
    large = cpu_per_trial(big, convos, args.rounds)
    ratio = large / small
    print(f"scripted user CPU per trial: {len(base)} items {1000 * small:.2f} ms, "
          f"{len(big)} items {1000 * large:.2f} ms, ratio {ratio:.2f} (target <= {TARGET_RATIO})")  # fmt: skip


if __name__ == "__main__":
    main()
