"""Reading an OpenAI-format conversation back: texts by role, and each tool call with its parsed result."""

from __future__ import annotations

import json
from typing import Any

from runner.agents.exchanges import ToolExchange, exchanges
from runner.agents.twin import text_of
from runner.core.protocols import ChatMessage, ToolCallRequest, ToolSchema

__all__ = ["ToolExchange", "call_id", "exchanges", "text_of", "tool_names", "tool_request"]


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
