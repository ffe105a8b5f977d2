"""Agents: `build_agent` for every AgentConfig kind, built-in names resolved in the trial's domain.

A built-in is one of its domain's `baselines()` (movies: `domains.movies.builtins`). `litellm`
and `http` agents are imported only when built.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping
from typing import Any

from runner.agents.prompt import build_system_prompt, user_id_from_messages
from runner.core.errors import TaurecError
from runner.core.protocols import Agent, AgentContext
from runner.play.agent_config import (
    AgentConfig,
    BuiltinAgentConfig,
    HttpAgentConfig,
    LiteLLMAgentConfig,
)

__all__ = [
    "UnknownAgentError",
    "agent_config_from_name",
    "agent_context",
    "build_agent",
    "build_builtin",
    "build_system_prompt",
    "builtin_names",
    "user_id_from_messages",
]

BuiltinFactory = Callable[[AgentContext, dict[str, Any]], Agent]


class UnknownAgentError(TaurecError):
    """An agent name that is not registered (the message suggests the closest one)."""


def _unknown(name: str) -> UnknownAgentError:
    known = sorted(_builtins("movies"))
    close = difflib.get_close_matches(name, known, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return UnknownAgentError(f"unknown built-in agent {name!r} (known: {', '.join(known)}){hint}")


def _builtins(domain: str) -> Mapping[str, BuiltinFactory]:
    """The built-in agents of a domain (its `baselines()`)."""
    from runner.core.domains import get_domain

    return get_domain(domain).baselines()


def builtin_names(domain: str = "movies") -> list[str]:
    """The names of a domain's built-in agents."""
    return sorted(_builtins(domain))


def _unknown_in(name: str, domain: str) -> UnknownAgentError:
    if domain == "movies":
        return _unknown(name)
    known = sorted(_builtins(domain))
    close = difflib.get_close_matches(name, known, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return UnknownAgentError(
        f"unknown built-in agent {name!r} for the {domain} domain (known: {', '.join(known)}){hint}"
    )


def agent_context(
    config: AgentConfig | None,
    *,
    domain: str,
    user_id: str,
    policy_text: str,
    seed: int,
    task: Any,
    catalog: Any,
    entry: str | None = None,
) -> AgentContext:
    """The context an agent is built with: what a submission sees (user id, policy, seed, entry,
    domain). Only an oracle-class built-in of the domain (`Domain.oracle_agents`) also gets the
    task and the catalog; the `informed` built-in gets the names of the constrained fields. A
    Python agent's factory (`config` None), an HTTP or LiteLLM agent and every other built-in get
    neither."""
    from runner.core.domains import get_domain

    name = config.name if isinstance(config, BuiltinAgentConfig) else None
    owner = get_domain(domain)
    oracle = name is not None and name in owner.oracle_agents()
    return AgentContext(
        user_id=user_id,
        policy_text=policy_text,
        seed=seed,
        task=task if oracle else None,
        catalog=catalog if oracle else None,
        entry=entry,
        domain=domain,
        informed_fields=owner.informed_fields(task) if name == "informed" else None,
    )


def build_builtin(name: str, context: AgentContext, args: dict[str, Any] | None = None) -> Agent:
    """Build a registered baseline of the context's domain by name; an unknown name fails with a
    suggestion."""
    factory = _builtins(context.domain).get(name)
    if factory is None:
        raise _unknown_in(name, context.domain)
    return factory(context, dict(args or {}))


def build_agent(config: AgentConfig, context: AgentContext) -> Agent:
    """Build the agent a config describes: a built-in baseline, a LiteLLM model, or an HTTP endpoint."""
    if isinstance(config, BuiltinAgentConfig):
        return build_builtin(config.name, context, config.args)
    if isinstance(config, LiteLLMAgentConfig):
        from runner.agents.litellm_agent import LiteLLMAgent
        from runner.models.own_model_server import resolve_own_server

        return LiteLLMAgent(resolve_own_server(config), context)
    if isinstance(config, HttpAgentConfig):
        from runner.agents.http_agent import HttpAgent

        return HttpAgent(config, context)
    raise TaurecError(f"unsupported agent config {type(config).__name__}")


def agent_config_from_name(name: str, domain: str = "movies") -> AgentConfig:
    """`oracle` / `heuristic` / `random` -> builtin (of `domain`); `litellm:<model>` -> LiteLLM;
    `http:<url>` -> HTTP."""
    if name.startswith("litellm:") and len(name) > len("litellm:"):
        return LiteLLMAgentConfig(model=name.split(":", 1)[1])
    if name.startswith("http:") and "://" in name:
        return HttpAgentConfig(endpoint=name.split(":", 1)[1])
    if name not in _builtins(domain):
        raise _unknown_in(name, domain)
    return BuiltinAgentConfig(name=name)
