"""Domain-free tool machinery: a tool is one function whose signature and docstring are its schema and its dispatch."""

from __future__ import annotations

import difflib
import functools
import inspect
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, get_type_hints

from pydantic import BaseModel, ConfigDict, ValidationError, create_model

from runner.core.protocols import ToolOutcome, ToolSchema


class ToolError(Exception):
    """Raised inside a tool for a bad request (e.g. an unknown id); the agent sees the message."""


@dataclass(frozen=True)
class Stop:
    """A tool result that ends the trial (a recommend, or a domain's finishing tool)."""

    payload: Any
    stop: Literal["recommended", "abstained", "completed"]
    item_id: str | None = None
    is_error: bool = False


def tool(method: Callable[..., Any]) -> Callable[..., Any]:
    """Mark a method as a tool: its name, docstring and annotated parameters define the schema."""
    method.__taurec_tool__ = True  # type: ignore[attr-defined]
    return method


@dataclass(frozen=True)
class ToolDefinition:
    """The one definition of a tool: name, description, argument model, derived JSON schema."""

    name: str
    description: str
    args_model: type[BaseModel]
    parameters: dict[str, Any]

    def schema(self) -> ToolSchema:
        """The OpenAI `tools=[...]` entry the model sees."""
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": self.parameters,
            },
        }


@functools.cache
def definition_of(function: Callable[..., Any]) -> ToolDefinition:
    """Build a tool definition from a function's signature (Annotated + Field) and docstring."""
    hints = get_type_hints(function, include_extras=True)
    fields: dict[str, Any] = {}
    for name, param in inspect.signature(function).parameters.items():
        if name == "self":
            continue
        default = ... if param.default is inspect.Parameter.empty else param.default
        fields[name] = (hints[name], default)
    model: type[BaseModel] = create_model(
        f"{function.__name__}_arguments",
        __config__=ConfigDict(extra="forbid"),
        **fields,
    )
    description = inspect.getdoc(function) or ""
    return ToolDefinition(
        name=function.__name__,
        description=description,
        args_model=model,
        parameters=_clean_schema(model.model_json_schema()),
    )


def _clean_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """Inline `$defs`, drop pydantic titles, and collapse `anyOf` of plain types into a type list."""
    defs = schema.get("$defs", {})

    def walk(node: Any) -> Any:
        if isinstance(node, list):
            return [walk(n) for n in node]
        if not isinstance(node, dict):
            return node
        if "$ref" in node:
            target = defs[node["$ref"].rsplit("/", 1)[-1]]
            return walk({**target, **{k: v for k, v in node.items() if k != "$ref"}})
        out = {k: walk(v) for k, v in node.items() if k not in ("title", "$defs")}
        variants = out.get("anyOf")
        if isinstance(variants, list) and all(
            isinstance(v, dict) and set(v) == {"type"} and isinstance(v["type"], str)
            for v in variants
        ):
            out.pop("anyOf")
            out["type"] = [v["type"] for v in variants]
        return out

    cleaned: dict[str, Any] = walk(schema)
    cleaned.setdefault("required", [])
    return cleaned


def describe_problem(error: Any) -> str:
    where = ".".join(str(p) for p in error["loc"]) or "(arguments)"
    if error["type"] == "missing":
        return f"missing required argument {where!r}"
    if error["type"] == "extra_forbidden":
        return f"unexpected argument {where!r}"
    shown = json.dumps(error.get("input"), ensure_ascii=False, default=str)
    if len(shown) > 80:
        shown = shown[:77] + "..."
    return f"argument {where!r}: {error['msg']} (got {shown})"


def parse_arguments(arguments: str | dict[str, Any] | Any) -> dict[str, Any] | str:
    """Tool-call arguments as a dict, or the reason they are not a JSON object."""
    if isinstance(arguments, dict):
        return arguments
    if not isinstance(arguments, str):
        return f"arguments must be a JSON object, got {type(arguments).__name__}"
    text = arguments.strip()
    try:
        parsed = json.loads(text) if text else {}
    except json.JSONDecodeError as exc:
        return f"arguments are not valid JSON: {exc.msg} at position {exc.pos}"
    if not isinstance(parsed, dict):
        return f"arguments must be a JSON object, got {type(parsed).__name__}"
    return parsed


def json_text(payload: Any) -> str:
    return json.dumps(payload, ensure_ascii=False)


def error_text(message: str, **extra: Any) -> str:
    return json_text({"error": message, **extra})


def well_typed(definition: ToolDefinition, arguments: dict[str, Any]) -> bool:
    """Whether the arguments a tool got (unknown ones dropped) have the types it declares."""
    try:
        definition.args_model.model_validate(arguments)
    except ValidationError:
        return False
    return True


class DefinedTools:
    """The `Toolset` protocol's listing half for a class whose tools are its own methods: a
    subclass fills `_definitions` (name -> definition, in the order offered to the agent)."""

    _definitions: dict[str, ToolDefinition]

    @property
    def names(self) -> list[str]:
        return list(self._definitions)

    def definitions(self) -> list[ToolDefinition]:
        return list(self._definitions.values())

    def schemas(self) -> list[ToolSchema]:
        return [d.schema() for d in self._definitions.values()]


def malformed_outcome(problem: str, arguments: Any) -> ToolOutcome:
    """The error result of arguments that are not a JSON object (`parse_arguments`'s reason)."""
    return ToolOutcome(
        content=error_text(problem),
        is_error=True,
        raw_arguments=arguments if isinstance(arguments, str) else repr(arguments),
    )


def unknown_tool_outcome(name: str, names: list[str], parsed: dict[str, Any]) -> ToolOutcome:
    """The error result of a call to a tool the toolset does not have (with the closest name)."""
    close = difflib.get_close_matches(name, names, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return ToolOutcome(
        content=error_text(f"unknown tool {name!r}{hint}", available=names),
        is_error=True,
        arguments=parsed,
    )


def checked_arguments(
    definition: ToolDefinition, parsed: dict[str, Any]
) -> dict[str, Any] | ToolOutcome:
    """The keyword arguments of a call checked against the tool's declared types, or the error
    result naming every bad argument."""
    try:
        args = definition.args_model.model_validate(parsed)
    except ValidationError as exc:
        problems = "; ".join(describe_problem(e) for e in exc.errors())
        return ToolOutcome(
            content=error_text(
                f"bad arguments for {definition.name}: {problems}",
                parameters=definition.parameters,
            ),
            is_error=True,
            arguments=parsed,
        )
    return {k: getattr(args, k) for k in type(args).model_fields}


def result_outcome(
    result: Any, parsed: dict[str, Any], encode: Callable[[Any], str]
) -> ToolOutcome:
    """The outcome of a tool's return value: a `Stop` ends the trial, anything else is encoded."""
    if isinstance(result, Stop):
        return ToolOutcome(
            content=encode(result.payload),
            is_error=result.is_error,
            arguments=parsed,
            stop=result.stop,
            item_id=result.item_id,
        )
    return ToolOutcome(content=encode(result), arguments=parsed)
