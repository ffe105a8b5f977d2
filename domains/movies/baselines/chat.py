"""Reading an OpenAI-format conversation back: texts by role, and each tool call with its parsed result."""

from __future__ import annotations

import json
from typing import Any

from runner.agents.exchanges import ToolExchange, exchanges
from runner.agents.twin import text_of
from runner.core.protocols import ChatMessage, ToolCallRequest, ToolSchema

__all__ = [
    "ToolExchange",
    "call_id",
    "exchanges",
    "fetched_titles",
    "text_of",
    "tool_names",
    "tool_request",
]


def tool_names(tools: list[ToolSchema]) -> set[str]:
    """Names of the tools offered (OpenAI `tools=[...]` entries)."""
    names = set()
    for schema in tools:
        function = schema.get("function") if isinstance(schema, dict) else None
        if isinstance(function, dict) and isinstance(function.get("name"), str):
            names.add(function["name"])
    return names


def call_id(messages: list[ChatMessage], serial: int) -> str:
    """A deterministic id for the next tool call: position in the conversation plus a serial."""
    return f"call_{len(messages)}_{serial}"


def tool_request(
    messages: list[ChatMessage], serial: int, name: str, **arguments: Any
) -> ToolCallRequest:
    """A tool call request with a deterministic id and JSON arguments."""
    return ToolCallRequest(
        id=call_id(messages, serial), name=name, arguments=json.dumps(arguments, ensure_ascii=False)
    )


def fetched_titles(messages: list[ChatMessage]) -> tuple[dict[str, dict[str, Any]], list[str]]:
    """Titles -> metadata the wrapped agent fetched, and the titles of the user's watch history
    (best rated first)."""
    by_title: dict[str, dict[str, Any]] = {}
    watched: list[tuple[float, str]] = []
    for c in exchanges(messages):
        if c.name == "get_metadata" and isinstance(c.result, dict) and "title" in c.result:
            by_title[str(c.result["title"]).lower()] = c.result
        elif c.name == "search_catalog" and isinstance(c.result, list):
            for r in c.result:
                if isinstance(r, dict) and "title" in r:
                    by_title.setdefault(str(r["title"]).lower(), r)
        elif c.name == "get_user_history" and isinstance(c.result, dict):
            for entry in c.result.get("watched") or []:
                if isinstance(entry, dict) and entry.get("title") not in (None, "unknown"):
                    watched.append((-float(entry.get("user_rating") or 0), str(entry["title"])))
    return by_title, [t for _, t in sorted(watched)]
