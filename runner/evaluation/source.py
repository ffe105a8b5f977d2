"""Turn what a caller hands `evaluate` (an Agent, a factory, a config, a folder, `module:attr`) into an Entrant."""

from __future__ import annotations

import functools
import importlib
import inspect
import re
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from runner.batch.entrant import Entrant, MakeAgent, agent_name
from runner.core.errors import TaurecError
from runner.core.protocols import Agent, AgentContext, AgentReply, ChatMessage, ToolSchema
from runner.core.transcript import ComponentSpec
from runner.models.provider_paths import RefusedEndpoint, config_problem
from runner.play.agent_config import BuiltinAgentConfig, HttpAgentConfig, LiteLLMAgentConfig
from runner.submissions.config import SUBMISSION_FILE

# An Agent object (shared by every trial), a factory taking nothing or an AgentContext (one agent
# per trial), an agent config, a submission folder, or a string: `module:attr`, a built-in name,
# `litellm:<model>`, `http:<url>`, or a folder path.
AgentSource = (
    Agent
    | Callable[..., Agent]
    | LiteLLMAgentConfig
    | HttpAgentConfig
    | BuiltinAgentConfig
    | Path
    | str
)

_CONFIG_TYPES = (LiteLLMAgentConfig, HttpAgentConfig, BuiltinAgentConfig)


def _slug(text: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return slug[:60].strip("-") or "agent"


def import_target(spec: str) -> Any:
    """`package.module:attribute` (dots allowed in the attribute) → the object it names."""
    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        raise TaurecError(f"agent {spec!r}: expected `package.module:attribute`")
    try:
        obj: Any = importlib.import_module(module_name)
    except ImportError as exc:
        raise TaurecError(f"agent {spec!r}: cannot import module {module_name!r}: {exc}") from exc
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise TaurecError(f"agent {spec!r}: module {module_name!r} has no attribute {attr!r}")
        obj = getattr(obj, part)
    return obj


def _wants_context(factory: Callable[..., Any]) -> bool:
    try:
        params = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):
        return True
    positional = [
        p
        for p in params
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty
    ]
    return len(positional) >= 1


def _python_name(obj: Any) -> str:
    module = getattr(obj, "__module__", None) or "?"
    qualname = getattr(obj, "__qualname__", None) or type(obj).__qualname__
    return f"python:{module}.{qualname}"


def _checked(agent: Any, where: str) -> Agent:
    if not isinstance(agent, Agent):
        raise TaurecError(
            f"{where} returned {type(agent).__name__}, not an Agent (it needs a `spec` "
            "property and an async `step(messages, tools)` method)"
        )
    step = getattr(agent, "step", None)
    if not inspect.iscoroutinefunction(step):
        raise TaurecError(
            f"{type(agent).__name__}.step is not async; fix: declare it "
            f"`async def step(self, messages, tools) -> AgentReply:` (agent from {where})"
        )
    return PythonAgent(agent)


@functools.cache
def _same_name(name: str) -> type[Exception]:
    """An exception type called `name`, for an error whose own type cannot take a new message."""
    return type(name, (Exception,), {"__module__": "builtins"})


def _with_traceback(exc: Exception) -> Exception:
    """`exc`'s type with its message followed by where it was raised (file, line, code)."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename != __file__]
    where = "".join(traceback.format_list(frames[-4:])).rstrip()
    text = f"{exc}\nTraceback (most recent call last):\n{where}" if where else str(exc)
    try:
        located = type(exc)(text)
    except Exception:
        return _same_name(type(exc).__name__)(text)
    if str(located) != text:  # KeyError quotes its argument; a custom __str__ ignores it
        return _same_name(type(exc).__name__)(text)
    return located


class PythonAgent:
    """An in-process agent as the loop sees it: an exception carries its file and line, and a
    step that returns anything but an AgentReply fails saying what to return instead."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent

    @property
    def spec(self) -> ComponentSpec:
        return self.agent.spec

    async def step(self, messages: list[ChatMessage], tools: list[ToolSchema]) -> AgentReply:
        try:
            reply: Any = await self.agent.step(messages, tools)
        except TaurecError:
            raise
        except Exception as exc:
            raise _with_traceback(exc) from exc
        if not isinstance(reply, AgentReply):
            fix = (
                "AgentReply(**reply)"
                if isinstance(reply, dict)
                else "AgentReply(content=..., tool_calls=[...])"
            )
            raise TypeError(
                f"{type(self.agent).__name__}.step returned {type(reply).__name__}, not an "
                f"AgentReply; fix: `return {fix}` (from runner.core.protocols import AgentReply)"
            )
        return reply


def _factory(factory: Callable[..., Any], name: str) -> MakeAgent:
    wants = _wants_context(factory)

    def make(context: AgentContext) -> Agent:
        return _checked(factory(context) if wants else factory(), name)

    return make


def entrant_for(
    agent: AgentSource,
    *,
    results_root: Path,
    slug: str | None = None,
    trials: int,
    domain: str = "movies",
) -> Entrant:
    """The Entrant for `agent` (a built-in name is one of `domain`'s); results go to
    `<results_root>/<snapshot label>/`."""
    if isinstance(agent, str):
        return entrant_for(
            _from_string(agent, domain), results_root=results_root, slug=slug, trials=trials
        )
    if isinstance(agent, Path):
        entrant = Entrant.from_folder(agent)
        return Entrant(
            slug=slug or entrant.slug,
            results_root=results_root,
            agent=entrant.agent,
            trials=trials,
            tools=entrant.tools,
            config=entrant.config,
            raw_config=entrant.raw_config,
            agent_args=entrant.agent_args,
        )
    if isinstance(agent, _CONFIG_TYPES):
        if isinstance(agent, LiteLLMAgentConfig):  # refused before any trial, as a folder is
            problem = config_problem(agent.model, agent.api_base)
            if problem:
                raise RefusedEndpoint(f"agent.model: {problem}")
        name = agent_name(agent)
        args = agent.model_dump(mode="json")
        return Entrant(
            slug=slug or _slug(name),
            results_root=results_root,
            agent=name,
            trials=trials,
            config=agent,
            raw_config={"agent": args},
            agent_args=args,
        )
    if isinstance(agent, BaseModel):
        raise TaurecError(f"unsupported agent config {type(agent).__name__}")
    if isinstance(agent, Agent) and not inspect.isclass(agent):
        instance = _checked(agent, f"agent {type(agent).__name__}")
        name = f"python:{instance.spec.name}"

        def shared(context: AgentContext) -> Agent:
            return instance

        return Entrant(
            slug=slug or _slug(instance.spec.name),
            results_root=results_root,
            agent=name,
            trials=trials,
            make_agent=shared,
            agent_args=dict(instance.spec.args),
        )
    if callable(agent):
        name = _python_name(agent)
        step = getattr(agent, "step", None) if inspect.isclass(agent) else None
        if step is not None and not inspect.iscoroutinefunction(step):
            raise TaurecError(
                f"agent {agent.__qualname__}: its step is not async; fix: declare it "
                "`async def step(self, messages, tools) -> AgentReply:`"
            )
        return Entrant(
            slug=slug or _slug(name.split(".")[-1]),
            results_root=results_root,
            agent=name,
            trials=trials,
            make_agent=_factory(agent, name),
        )
    raise TaurecError(
        f"cannot evaluate a {type(agent).__name__}: pass an Agent, a factory, an agent config, "
        "a submission folder, or `module:attr`"
    )


def _from_string(text: str, domain: str = "movies") -> AgentSource:
    path = Path(text)
    if path.is_dir():
        if not (path / SUBMISSION_FILE).exists():
            raise TaurecError(f"{path}: not a submission folder (no {SUBMISSION_FILE})")
        return path
    from runner.agents import agent_config_from_name, builtin_names

    if text in builtin_names(domain) or text.startswith(("litellm:", "http:")):
        return agent_config_from_name(text, domain)
    if ":" in text:
        target: AgentSource = import_target(text)
        return target
    return agent_config_from_name(text, domain)  # fails with "did you mean"
