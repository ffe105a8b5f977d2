"""The random baseline: recommends a uniformly random catalog item at once, without asking or checking.

Expected pass^1 (analytic): for each task, the share of catalog items that would earn reward 1 when
recommended blind - the item satisfies every constraint, and every active policy holds although
the agent called no tool but `recommend` and wrote no message. So `watch_history` tasks score 0
(history never fetched), R/NC-17 items fail `age_restricted`, sponsored items fail `sponsored`
(never disclosed), items on none of the user's services fail `availability`, and no-valid-
recommendation tasks score 0. The expectation is the mean of that share over tasks
(`expected_pass1`); the tests compare it with the measured rate.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from typing import Any

from domains.movies.baselines.chat import exchanges, text_of, tool_request
from domains.movies.catalog import RESTRICTED_RATINGS, Catalog, CatalogItem
from domains.movies.simulators.vocabulary import GENRE_WORDS
from domains.movies.tasks import Task
from runner.core.protocols import AgentContext, AgentReply, ChatMessage, ToolSchema
from runner.core.transcript import ComponentSpec

__all__ = ["RandomAgent", "blind_reward", "expected_pass1", "random_policy"]


def _rng(messages: list[ChatMessage], seed: int) -> random.Random:
    """Seeded by the seed and the user's opening, so different tasks draw independently."""
    opening = next((text_of(m) for m in messages if m.get("role") == "user"), "")
    digest = hashlib.sha256(f"random|{seed}|{opening}".encode()).hexdigest()
    return random.Random(int(digest[:16], 16))


def random_policy(
    messages: list[ChatMessage],
    tools: list[ToolSchema],
    seed: int,
    item_ids: Sequence[str] | None = None,
) -> AgentReply:
    """Recommend a random item. With `item_ids` (in process) the draw is uniform over them; without
    (behind the model server) it first lists items with one search per genre, then draws from those."""
    del tools
    rng = _rng(messages, seed)
    if item_ids is not None:
        pool = sorted(item_ids)
    else:
        calls = [c for c in exchanges(messages) if c.name == "search_catalog"]
        if not calls:
            queries = [g.lower() for g in GENRE_WORDS]
            return AgentReply(
                tool_calls=[
                    tool_request(messages, n, "search_catalog", query=q)
                    for n, q in enumerate(queries)
                ]
            )
        found: set[str] = set()
        for call in calls:
            if isinstance(call.result, list):
                found.update(str(r["id"]) for r in call.result if isinstance(r, dict) and "id" in r)
        pool = sorted(found)
    if not pool:
        return AgentReply(tool_calls=[tool_request(messages, 0, "recommend", item_id=None)])
    return AgentReply(tool_calls=[tool_request(messages, 0, "recommend", item_id=rng.choice(pool))])


def blind_reward(task: Task, item: CatalogItem) -> float:
    """Reward of recommending `item` on `task` with no other tool call and no message."""
    if task.no_valid_recommendation:
        return 0.0
    if not task.satisfies_all(item):
        return 0.0
    flags = set(task.policy_flags)
    if "watch_history" in flags:
        return 0.0
    if (
        "availability" in flags
        and task.user_services
        and not any(s in item.streaming_services for s in task.user_services)
    ):
        return 0.0
    if "sponsored" in flags and item.sponsored:
        return 0.0
    if "age_restricted" in flags and item.content_rating in RESTRICTED_RATINGS:
        return 0.0
    return 1.0


def expected_pass1(tasks: Sequence[Task], catalog: Catalog) -> float:
    """The analytic pass^1 of the random baseline: mean over tasks of the winning share."""
    if not tasks:
        return 0.0
    n = len(catalog.items)
    shares = [sum(blind_reward(t, i) for i in catalog.items) / n for t in tasks]
    return sum(shares) / len(shares)


class RandomAgent:
    """The random policy in process, drawing uniformly from the whole catalog."""

    def __init__(self, context: AgentContext, args: dict[str, Any] | None = None) -> None:
        self._seed = context.seed
        self._ids = [i.id for i in context.catalog.items] if context.catalog is not None else None
        self._args = dict(args or {})

    @property
    def spec(self) -> ComponentSpec:
        return ComponentSpec(name="random", args=self._args)

    async def step(self, messages: list[ChatMessage], tools: list[ToolSchema]) -> AgentReply:
        return random_policy(messages, tools, self._seed, self._ids)
