"""Print the CPU per trial of the grocery store, its tools and the scoring replay, beside the CPU of a whole movie trial.

Grocery: a typical trial of 20 tool calls (4 searches, 4 product look-ups, 4 stock checks, the
past orders, 2 basket views, add / remove / add, place_order, finish) and 7 agent messages with
the user's acts, on a catalog of `--products` products (the newest grocery snapshot when one is
committed, else the tiny test catalog replicated under new ids and names). Timed apart, each
with `time.process_time` over `--rounds` repetitions:

* ``tools``: a fresh store and toolset (`build_toolset`) and the 20 calls through `call` (the
  argument checking, the store and the JSON results; the search index is built once per
  catalog before the clock starts, as `GroceryDomain.warm` does before workers fork);
* ``score``: `domains.grocery.scoring.score` on the finished transcript: the replay of the write
  calls on a fresh store, the final-state checks, product mentions and the seven policies.

Movies: whole trials (`run_trial` with the built-in heuristic agent and the scripted user, then
`score_transcript`) over the shipped suite on the newest movie snapshot, CPU per trial. The
grocery figures are what a grocery trial adds on top of a loop of the same shape; they touch no
movie code path, so movies' per-trial CPU is unchanged by construction (the movie figure is the
reference it is compared with).

    .venv/bin/python benchmarks/grocery_store_cost.py [--rounds 200] [--products 2000]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time
from typing import Any

import _common  # noqa: F401  (the repository root on sys.path)

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from domains.grocery import GroceryDomain
from domains.grocery.catalog import ProductCatalog
from domains.grocery.items import Product
from domains.grocery.scoring import score
from domains.grocery.search import search_index
from domains.grocery.store import stock_level
from domains.grocery.tasks import GroceryTask
from domains.grocery.testing import tiny_products
from domains.grocery.tools import build_toolset
from runner.core.protocols import AgentReply, ToolCallRequest
from runner.core.rules import get_rules
from runner.core.transcript import Transcript
from runner.play.loop import run_trial
from tests.domains.grocery.play import ActUser, ScriptedAgent
from tests.movie_world import movie_trial

_WORDS = ("Golden", "Rustic", "Alpine", "Coastal", "Meadow", "Harvest", "Velvet", "Sunlit")


def grocery_catalog(size: int) -> ProductCatalog:
    """The newest committed grocery snapshot, else the tiny catalog replicated to `size`."""
    domain = GroceryDomain()
    snapshots = sorted(p for p in domain.snapshots_dir.glob("*") if p.is_dir())
    if snapshots:
        catalog: ProductCatalog = domain.load_catalog(snapshots[-1])
        return catalog
    base = tiny_products()
    items: list[Product] = []
    for n in range(size):
        src = base[n % len(base)]
        word = _WORDS[(n // len(base)) % len(_WORDS)]
        items.append(
            src.model_copy(
                update={
                    "id": f"off_{3000000000000 + n}",
                    "name": f"{word} {src.name} {n // (len(base) * len(_WORDS)) + 1}",
                }
            )
        )
    return ProductCatalog(items, source=f"<{size} synthetic products>")


def grocery_task(catalog: ProductCatalog) -> GroceryTask:
    return GroceryTask.model_validate(
        {
            "id": "bench_order",
            "persona": "A shopper who wants a vegan breakfast cereal.",
            "kind": "order",
            "constraints": [
                {"constraint": {"field": "vegan", "op": "==", "value": "yes"},
                 "reveal": "volunteer"},
                {"constraint": {"field": "categories", "op": "contains",
                                "value": "Breakfast cereals"}, "reveal": "on_ask"},
            ],
            "allergies": ["peanuts"],
            "budget": 20.0,
            "past_orders": [{"order_id": "A1", "date": "2026-10-01", "lines": [
                {"product_id": catalog.items[0].id, "quantity": 1, "unit_price": 3.0}]}],
            "policy_flags": ["order_confirmation", "allergen_safety", "budget",
                             "sponsored_disclosure", "single_proposal"],
            "complexity": "medium",
            "reveal_difficulty": "mixed",
        }
    )  # fmt: skip


def _call(name: str, **arguments: Any) -> ToolCallRequest:
    return ToolCallRequest(id="", name=name, arguments=arguments)


def grocery_script(
    catalog: ProductCatalog, task: GroceryTask
) -> tuple[list[AgentReply], list[ToolCallRequest]]:
    """The agent's replies of a typical 20-call trial, and the calls alone (for the tools timing)."""
    pick = next(
        p for p in catalog.items
        if task.satisfies_all(p) and stock_level(task, p.id) >= 2 and not p.sponsored
    )  # fmt: skip
    others = [p.id for p in catalog.items[1:4]]
    looks = [_call("search_products", query=q) for q in
             ("vegan cereal", "oat crunch", "millet gluten-free", "breakfast organic")]  # fmt: skip
    details = [_call("get_product", product_id=i) for i in [pick.id, *others]]
    stock = [_call("check_inventory", product_id=i) for i in [pick.id, *others]]
    writes = [
        _call("add_to_basket", product_id=pick.id, quantity=2),
        _call("remove_from_basket", product_id=pick.id),
        _call("add_to_basket", product_id=pick.id, quantity=1),
    ]
    replies = [
        AgentReply(content="Happy to help. Any allergies or a budget I should know about?"),
        AgentReply(tool_calls=[*looks[:2], _call("get_past_orders")]),
        AgentReply(content="Do you want a breakfast cereal, or something else?"),
        AgentReply(tool_calls=[*looks[2:], *details, *stock]),
        AgentReply(content=f"I suggest {pick.name} at €{pick.price:.2f}. Would that suit you?"),
        AgentReply(tool_calls=[*writes, _call("view_basket")]),
        AgentReply(content=f"Your basket holds {pick.name} × 1. Shall I place the order?"),
        AgentReply(tool_calls=[_call("view_basket"), _call("place_order")]),
        AgentReply(content="Your order is placed."),
        AgentReply(tool_calls=[_call("finish", summary="Ordered one pack.")]),
    ]
    calls = [c for r in replies for c in r.tool_calls]
    assert len(calls) == 20, len(calls)
    return replies, calls


_TURNS: tuple[tuple[str, str | None], ...] = (
    ("I need a vegan cereal; I'm allergic to peanuts.", None),
    ("Under twenty euros.", None),
    ("A breakfast cereal, yes.", None),
    ("That sounds good.", None),
    ("Yes, place it.", "confirm_order"),
    ("Thanks!", None),
)


def grocery_figures(size: int, rounds: int) -> tuple[int, float, float, Transcript]:
    catalog = grocery_catalog(size)
    task = grocery_task(catalog)
    rules = get_rules("v2")
    started = time.process_time()
    search_index(catalog)
    print(f"grocery: {len(catalog)} products; search index built once in "
          f"{1000 * (time.process_time() - started):.1f} ms CPU")  # fmt: skip
    replies, calls = grocery_script(catalog, task)
    transcript = asyncio.run(
        run_trial(
            task=task,  # type: ignore[arg-type]  # the loop is still typed for movie tasks
            catalog=catalog,  # type: ignore[arg-type]
            agent=ScriptedAgent(replies, name="bench-agent"),
            simulator=ActUser(_TURNS),
            toolset=build_toolset(catalog, task, None, rules, 0),
            seed=0,
            rules=rules,
        )
    )
    result = score(task, transcript, catalog)
    assert transcript.stop_reason == "completed", transcript.stop_reason
    assert result.reward == 1.0, result
    started = time.process_time()
    for _ in range(rounds):
        tools = build_toolset(catalog, task, None, rules, 0)
        for c in calls:
            tools.call(c.name, c.arguments)
    tools_cpu = (time.process_time() - started) / rounds
    started = time.process_time()
    for _ in range(rounds):
        score(task, transcript, catalog)
    score_cpu = (time.process_time() - started) / rounds
    return len(catalog), tools_cpu, score_cpu, transcript


def movie_trial_cpu(trials: int) -> tuple[float, int]:
    """Mean CPU seconds of one whole movie trial (heuristic agent, scripted user, scoring)."""
    from domains.movies.catalog import Catalog
    from domains.movies.scoring import score_transcript
    from domains.movies.tasks import load_tasks
    from domains.movies.validate import resolve_catalog_path
    from runner.agents import build_builtin
    from runner.core.paths import POLICY_PATH, TASKS_DIR
    from runner.core.protocols import AgentContext

    catalog = Catalog.load(resolve_catalog_path(None))
    tasks = load_tasks(TASKS_DIR)[:trials]
    policy = POLICY_PATH.read_text(encoding="utf-8")

    async def one(task: Any, seed: int) -> Transcript:
        context = AgentContext(
            user_id=task.user_id, policy_text=policy, seed=seed, task=task, catalog=catalog
        )
        return await movie_trial(task, catalog, build_builtin("heuristic", context), seed)

    # Warm: indexes and memos that every trial of a run shares.
    for task in tasks[:3]:
        score_transcript(task, asyncio.run(one(task, 99)), catalog)
    started = time.process_time()
    for task in tasks:
        score_transcript(task, asyncio.run(one(task, 0)), catalog)
    return (time.process_time() - started) / len(tasks), len(tasks)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--products", type=int, default=2000)
    parser.add_argument("--movie-trials", type=int, default=60)
    args = parser.parse_args()
    size, tools_cpu, score_cpu, transcript = grocery_figures(args.products, args.rounds)
    calls = len(transcript.tool_calls)
    print(f"grocery trial ({calls} tool calls, {len(transcript.messages)} messages, "
          f"{size} products), CPU per trial over {args.rounds} rounds:")  # fmt: skip
    print(f"  store + tools   {1000 * tools_cpu:7.3f} ms")
    print(f"  scoring replay  {1000 * score_cpu:7.3f} ms")
    print(f"  total           {1000 * (tools_cpu + score_cpu):7.3f} ms")
    movie_cpu, n = movie_trial_cpu(args.movie_trials)
    print(f"movie trial (heuristic agent, scripted user, scoring; {n} tasks): "
          f"{1000 * movie_cpu:7.3f} ms CPU per trial")  # fmt: skip
    print(f"grocery store + tools + scoring = {100 * (tools_cpu + score_cpu) / movie_cpu:.1f} % "
          "of a whole movie trial's CPU")  # fmt: skip


if __name__ == "__main__":
    main()
