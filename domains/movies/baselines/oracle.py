"""The oracle baseline: reads the task and the catalog, and does exactly what a perfect agent would.

Sanity check of the harness: it must score pass^1 = 1 on every consistent task. In its first step
it fetches the watch history, checks availability and the content rating of a winning item
(preferring items that need no disclosure or age check), discloses sponsorship, and recommends it;
on a task with no winning item it says so and abstains.
"""

from __future__ import annotations

from typing import Any

from domains.movies.baselines.chat import tool_names, tool_request
from domains.movies.catalog import RESTRICTED_RATINGS, Catalog, CatalogItem
from domains.movies.tasks import Task
from runner.core.errors import TaurecError
from runner.core.protocols import AgentContext, AgentReply, ChatMessage, ToolCallRequest, ToolSchema
from runner.core.transcript import ComponentSpec

__all__ = ["OracleAgent", "winning_items"]


def winning_items(task: Task, catalog: Catalog) -> list[CatalogItem]:
    """Items that satisfy every constraint, are on one of the user's services and not yet watched."""
    if task.no_valid_recommendation:
        return []
    watched = set(task.watched)
    out = []
    for item in catalog.items:
        if item.id in watched or not task.satisfies_all(item):
            continue
        if task.user_services and not any(s in item.streaming_services for s in task.user_services):
            continue
        out.append(item)
    return sorted(out, key=lambda i: (i.sponsored, i.content_rating in RESTRICTED_RATINGS, i.id))


class OracleAgent:
    """Knows the answer; still goes through the tools the policies ask for."""

    def __init__(self, context: AgentContext, args: dict[str, Any] | None = None) -> None:
        if context.task is None or context.catalog is None:
            raise TaurecError("the oracle agent needs the task and the catalog in its AgentContext")
        self._task = context.task
        self._catalog = context.catalog
        self._args = dict(args or {})

    @property
    def spec(self) -> ComponentSpec:
        return ComponentSpec(name="oracle", args=self._args)

    async def step(self, messages: list[ChatMessage], tools: list[ToolSchema]) -> AgentReply:
        available = tool_names(tools)
        winners = winning_items(self._task, self._catalog)
        calls: list[ToolCallRequest] = []

        def add(name: str, **arguments: Any) -> None:
            if name in available or name == "recommend":
                calls.append(tool_request(messages, len(calls), name, **arguments))

        if not winners:
            add("recommend", item_id=None)
            return AgentReply(
                content="I checked the whole catalog and nothing meets all of your requirements, "
                "so I won't recommend anything.",
                tool_calls=calls,
            )
        item = winners[0]
        add("get_user_history", user_id=self._task.user_id)
        add("get_metadata", item_id=item.id)
        if self._task.user_services:
            add("check_availability", item_id=item.id, services=list(self._task.user_services))
        if item.content_rating in RESTRICTED_RATINGS:
            add("check_content_preference", content_rating=item.content_rating)
        add("recommend", item_id=item.id)
        text = f"I recommend {item.title}."
        if item.sponsored:
            text += " Note: this is a sponsored (promoted) title."
        return AgentReply(content=text, tool_calls=calls)
