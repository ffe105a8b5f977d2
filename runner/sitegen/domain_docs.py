"""The "Domains" section of the protocol and Integrate pages, generated from each shipped domain:
its tools (each schema as the agent receives it, from a toolset built on the domain's committed
fixture snapshot and first dev task), its kinds of task, how a trial ends and the record shapes
its tools return. Written from the code, so a tool added to a domain is documented by the next
build."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from runner.core.domain import Domain
from runner.core.domains import REGISTRY, get_domain
from runner.core.errors import TaurecError
from runner.core.rules import DEFAULT_RULES, get_rules

__all__ = ["DomainProtocol", "ToolRow", "domain_protocols"]


@dataclass(frozen=True)
class ToolRow:
    """One tool as the protocol pages list it."""

    name: str
    summary: str
    arguments: list[str]  # "name (type, required)"


@dataclass(frozen=True)
class DomainProtocol:
    """What a builder needs to know of one domain to write an agent for it."""

    name: str
    title: str
    instructions: str
    tools: list[ToolRow]
    task_kinds: list[tuple[str, str]]
    trial_end: str
    result_shapes: list[tuple[str, list[str]]]  # (what the pages call it, its fields)


def _argument(name: str, spec: dict[str, Any], required: bool) -> str:
    kind = spec.get("type") or "see schema"
    if isinstance(kind, list):
        kind = " or ".join(str(k) for k in kind)
    if "enum" in spec:
        kind = "one of " + ", ".join(str(v) for v in spec["enum"])
    return f"{name} ({kind}{', required' if required else ''})"


def _tools(domain: Domain) -> list[ToolRow]:
    snapshots = sorted(p for p in Path(domain.snapshots_dir).iterdir() if p.is_dir())
    if not snapshots:
        raise TaurecError(
            f"{domain.name}: no snapshot in {domain.snapshots_dir} to list tools from"
        )
    catalog = domain.load_catalog(snapshots[-1])
    task = domain.load_tasks(domain.tasks_dir)[0]
    toolset = domain.build_toolset(catalog, task, None, get_rules(DEFAULT_RULES), 0)
    rows = []
    for schema in toolset.schemas():
        function: dict[str, Any] = schema["function"]
        parameters: dict[str, Any] = function.get("parameters") or {}
        required = set(parameters.get("required") or [])
        properties: dict[str, Any] = parameters.get("properties") or {}
        rows.append(
            ToolRow(
                name=str(function["name"]),
                summary=" ".join(str(function.get("description") or "").split()),
                arguments=[_argument(n, s, n in required) for n, s in properties.items()],
            )
        )
    return rows


def domain_protocols(names: list[str] | None = None) -> list[DomainProtocol]:
    """Each shipped domain's protocol facts (or those of `names`), in registry order."""
    views = []
    for name in names if names is not None else list(REGISTRY):
        domain = get_domain(name)
        views.append(
            DomainProtocol(
                name=domain.name,
                title=domain.title,
                instructions=domain.agent_instructions,
                tools=_tools(domain),
                task_kinds=list(domain.task_kinds),
                trial_end=domain.trial_end,
                result_shapes=sorted(
                    (label, sorted(fields)) for fields, label in domain.result_shapes().items()
                ),
            )
        )
    return views
