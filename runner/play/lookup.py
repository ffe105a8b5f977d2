"""The lookup adversary: what a hostile submitter builds from everything public, for any domain.

It is handed nothing but what a submission sees (user id, policy, seed). It reads only files
anyone can read in the public repository: the committed dev suite, every published retired split,
and the newest committed snapshot of the domain's catalog (`solvability.json` says nothing a
loaded catalog and task do not). When the user id it is given belongs to a public task, it plays
that task as the oracle would, asking nothing; otherwise it plays its `fallback`, the same agent
without the lookup. On the dev split that wins almost every trial (the exploit a private test
split closes); on a generated test split no id maps to a public file, so it scores what its
fallback scores.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from runner.core.domain import Domain
from runner.core.protocols import Agent, AgentContext, AgentReply, ChatMessage, ToolSchema
from runner.core.transcript import ComponentSpec

__all__ = ["LookupAgent", "PublicIndex", "lookup_builder", "public_index"]


@dataclasses.dataclass(frozen=True)
class PublicIndex:
    """User id -> the public task it belongs to, and the newest public catalog."""

    tasks_by_user: dict[str, Any]
    catalog: Any
    sources: tuple[str, ...]

    def task_for(self, user_id: str) -> Any | None:
        return self.tasks_by_user.get(user_id)


_INDEXES: dict[tuple[str, tuple[str, ...]], PublicIndex] = {}
_LOCK = threading.Lock()


def _task_folders(domain: Domain, retired_root: Path | None) -> list[Path]:
    """The dev suite, then every retired split's tasks (newest retirement first)."""
    folders = [domain.tasks_dir]
    if retired_root is not None and retired_root.is_dir():
        folders += sorted(
            (p / "tasks" for p in retired_root.iterdir() if (p / "tasks").is_dir()), reverse=True
        )
    return folders


def public_index(domain: Domain, retired_root: Path | None = None) -> PublicIndex:
    """Read (once per process) the public files a lookup agent maps what it sees to."""
    folders = _task_folders(domain, retired_root)
    key = (domain.name, tuple(str(f) for f in folders))
    with _LOCK:
        cached = _INDEXES.get(key)
        if cached is not None:
            return cached
        by_user: dict[str, Any] = {}
        for folder in folders:
            for task in domain.load_tasks(folder):
                by_user.setdefault(str(task.user_id), task)
        snapshots = sorted(
            p for p in domain.snapshots_dir.iterdir() if p.is_dir() and p.name[:1].isdigit()
        )
        catalog = domain.load_catalog(snapshots[-1]) if snapshots else None
        index = PublicIndex(
            tasks_by_user=by_user,
            catalog=catalog,
            sources=(*(str(f) for f in folders), str(snapshots[-1]) if snapshots else "-"),
        )
        _INDEXES[key] = index
        return index


class LookupAgent:
    """Maps the user id to a public task and plays it as the oracle; else plays `fallback`."""

    def __init__(
        self,
        context: AgentContext,
        domain: Domain,
        *,
        fallback: str,
        retired_root: Path | None = None,
        name: str = "lookup",
    ) -> None:
        self._context = context
        self._domain = domain
        self._fallback = fallback
        self._retired_root = retired_root
        self._name = name
        self._inner: Agent | None = None
        self.matched: bool | None = None  # None until the first step

    @property
    def spec(self) -> ComponentSpec:
        return ComponentSpec(name=self._name, args={"fallback": self._fallback})

    def _choose(self) -> Agent:
        index = public_index(self._domain, self._retired_root)
        task = index.task_for(self._context.user_id)
        builders = self._domain.baselines()
        self.matched = task is not None and index.catalog is not None
        if self.matched:
            informed = dataclasses.replace(self._context, task=task, catalog=index.catalog)
            return builders["oracle"](informed, {})
        return builders[self._fallback](self._context, {})

    async def step(self, messages: list[ChatMessage], tools: list[ToolSchema]) -> AgentReply:
        if self._inner is None:
            self._inner = self._choose()
        return await self._inner.step(messages, tools)


def lookup_sources(domain: Domain, retired_root: Path | None = None) -> Sequence[str]:
    """Where the lookup agent reads (for reports)."""
    return public_index(domain, retired_root).sources


def lookup_builder(
    domain_name: str, fallback: str
) -> Callable[[AgentContext, dict[str, Any]], Agent]:
    """The `lookup` adversary's factory for one domain: the shared agent, that domain's public
    tasks and retired splits, and `fallback` (the same agent without the lookup) when the id maps
    to nothing public."""

    def build_lookup(context: AgentContext, args: dict[str, Any]) -> Agent:
        from runner.core.domains import get_domain
        from runner.core.errors import TaurecError
        from runner.core.paths import retired_splits_dir

        if args:
            raise TaurecError(f"adversary 'lookup' takes no args (got {sorted(args)})")
        return LookupAgent(
            context,
            get_domain(domain_name),
            fallback=fallback,
            retired_root=retired_splits_dir(domain_name),
        )

    return build_lookup
