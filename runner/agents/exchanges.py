"""Reading an OpenAI-format conversation's tool calls back: each call joined with its parsed result.

Every built-in agent of every domain reads its earlier tool calls this way; one definition.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from typing import Any

from runner.agents.twin import text_of
from runner.core.protocols import ChatMessage

__all__ = ["ToolExchange", "exchanges"]


@dataclass(frozen=True)
class ToolExchange:
    """One tool call the assistant made, with its arguments and the parsed result (None if absent
    or not JSON); `is_error` when the result is missing or an error object."""

    index: int
    name: str
    arguments: dict[str, Any]
    result: Any
    is_error: bool


def _parse(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return None


# Every step re-reads every earlier result: a caller that only reads them may share the parses.
_parse_shared = functools.lru_cache(maxsize=8192)(_parse)


def exchanges(messages: list[ChatMessage], *, shared: bool = False) -> list[ToolExchange]:
    """Every tool call in the conversation, in order, joined with its result by tool_call_id.

    `shared`: the parsed results are memoised and shared between calls (the caller must never
    change them)."""
    parse = _parse_shared if shared else _parse
    results = {
        m["tool_call_id"]: text_of(m)
        for m in messages
        if m.get("role") == "tool" and isinstance(m.get("tool_call_id"), str)
    }
    out: list[ToolExchange] = []
    for index, message in enumerate(messages):
        if message.get("role") != "assistant":
            continue
        for call in message.get("tool_calls") or []:
            function = call.get("function") or {}
            raw = function.get("arguments")
            args = parse(raw) if isinstance(raw, str) and raw.strip() else (raw or {})
            text = results.get(str(call.get("id")))
            parsed = parse(text) if text is not None else None
            out.append(
                ToolExchange(
                    index=index,
                    name=str(function.get("name", "")),
                    arguments=args if isinstance(args, dict) else {},
                    result=parsed,
                    is_error=text is None or (isinstance(parsed, dict) and "error" in parsed),
                )
            )
    return out
