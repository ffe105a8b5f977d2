"""One trial's database behind write tools: the plumbing, the replay and the final-state comparison."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from pydantic import BaseModel, ConfigDict, Field

from runner.core.errors import TaurecError
from runner.core.protocols import ToolOutcome
from runner.core.toolkit import (
    DefinedTools,
    ToolError,
    checked_arguments,
    error_text,
    json_text,
    malformed_outcome,
    parse_arguments,
    result_outcome,
    unknown_tool_outcome,
)
from runner.core.transcript import ToolCallEvent, Transcript

__all__ = [
    "Action",
    "ReplayError",
    "StoreError",
    "StoreTools",
    "WriteCall",
    "replay",
    "state_differences",
    "trial_writes",
]


class StoreError(Exception):
    """A write the store refuses; it changed nothing (the tools turn it into an error result)."""


class ReplayError(TaurecError):
    """A write that succeeded in the trial (or a gold action) fails when replayed on a fresh store."""


class Action(BaseModel):
    """One tool call of an action sequence (a task's gold actions): the tool and its arguments."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(description="A write tool of the domain, e.g. 'place_order'")
    arguments: dict[str, Any] = Field(default_factory=dict)


@dataclass(frozen=True)
class WriteCall:
    """A successful write-tool call: its index in `events`, name, arguments and parsed result."""

    index: int
    name: str
    arguments: dict[str, Any]
    result: dict[str, Any]


class StoreTools(DefinedTools):
    """The `Toolset` plumbing of a stateful domain's tools (each a method of the subclass).

    A call's arguments are always checked against the tool's declared types (unknown arguments
    refused); a bad call, an unknown tool, a `ToolError` or a `StoreError` becomes an error result
    that changed nothing. A subclass names its tools in `_definitions` and the ones that change
    the store in `write_tools`.
    """

    write_tools: ClassVar[frozenset[str]] = frozenset()

    def call(self, name: str, arguments: str | dict[str, Any]) -> ToolOutcome:
        """Run one tool call; unknown tools, malformed or ill-typed arguments, unknown ids and
        refused writes all become error results (`is_error`) the agent can recover from."""
        parsed = parse_arguments(arguments)
        if isinstance(parsed, str):
            return malformed_outcome(parsed, arguments)
        definition = self._definitions.get(name)
        if definition is None:
            return unknown_tool_outcome(name, self.names, parsed)
        kwargs = checked_arguments(definition, parsed)
        if isinstance(kwargs, ToolOutcome):
            return kwargs
        try:
            result = getattr(self, name)(**kwargs)
        except (ToolError, StoreError) as exc:
            return ToolOutcome(content=error_text(str(exc)), is_error=True, arguments=parsed)
        return result_outcome(result, parsed, json_text)


class Replayable(Protocol):
    """Fresh tools over a fresh store (what `replay` runs an action sequence on)."""

    write_tools: ClassVar[frozenset[str]]

    def call(self, name: str, arguments: str | dict[str, Any]) -> ToolOutcome: ...


def trial_writes(
    transcript: Transcript, write_tools: Iterable[str]
) -> Iterator[tuple[int, Action]]:
    """The successful write calls of a trial, in order, with their index in `events` (errors
    changed nothing and reads change nothing, so neither is replayed)."""
    writes = frozenset(write_tools)
    for index, event in enumerate(transcript.events):
        if isinstance(event, ToolCallEvent) and not event.is_error and event.name in writes:
            yield index, Action(name=event.name, arguments=dict(event.arguments))


def replay(
    tools: Replayable,
    actions: Iterable[tuple[int, Action]],
    failed: Callable[[int, Action, str], str] | None = None,
) -> tuple[WriteCall, ...]:
    """Run the actions, in order, through `tools` (fresh, over a fresh store); each must succeed,
    else ReplayError with `failed(index, action, error content)` (by default a plain line).
    Returns each write with its parsed result; the store's final state is then the tools'."""
    done: list[WriteCall] = []
    for index, action in actions:
        outcome = tools.call(action.name, action.arguments)
        if outcome.is_error:
            message = (
                failed(index, action, outcome.content)
                if failed is not None
                else f"{action.name} at {index} fails on a fresh store ({outcome.content})"
            )
            raise ReplayError(message)
        done.append(
            WriteCall(index, action.name, dict(action.arguments), json.loads(outcome.content))
        )
    return tuple(done)


def state_differences(expected: BaseModel, actual: BaseModel) -> list[str]:
    """Where two final states differ, one line per field path (empty: the same state)."""
    return _differences("", expected.model_dump(mode="json"), actual.model_dump(mode="json"))


def _differences(path: str, expected: Any, actual: Any) -> list[str]:
    if isinstance(expected, Mapping) and isinstance(actual, Mapping):
        out: list[str] = []
        for key in [*expected, *(k for k in actual if k not in expected)]:
            out += _differences(
                f"{path}.{key}" if path else str(key), expected.get(key), actual.get(key)
            )
        return out
    if isinstance(expected, list) and isinstance(actual, list) and len(expected) == len(actual):
        out = []
        for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
            out += _differences(f"{path}[{i}]", e, a)
        return out
    if expected == actual:
        return []
    return [f"{path or '(state)'}: expected {json.dumps(expected)}, got {json.dumps(actual)}"]
