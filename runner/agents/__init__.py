"""Agents: a registry of built-in baselines, and `build_agent` for every AgentConfig kind.

Each registered factory records its name and arguments (a ComponentSpec on the agent), so a
transcript says exactly what ran. `litellm` and `http` agents are imported only when built.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping
from typing import Any

from runner.agent_config import AgentConfig, BuiltinAgentConfig, HttpAgentConfig, LiteLLMAgentConfig
from runner.agents.baselines import (
    HeuristicAgent,
    OracleAgent,
    RandomAgent,
    expected_pass1,
    heuristic_policy,
    random_policy,
)
from runner.agents.prompt import build_system_prompt, user_id_from_messages
from runner.errors import TaurecError
from runner.protocols import Agent, AgentContext

__all__ = [
    "BUILTIN_AGENTS",
    "UnknownAgentError",
    "agent_config_from_name",
    "build_agent",
    "build_builtin",
    "build_system_prompt",
    "expected_pass1",
    "heuristic_policy",
    "random_policy",
    "register_builtin",
    "user_id_from_messages",
]

BuiltinFactory = Callable[[AgentContext, dict[str, Any]], Agent]

# name -> factory(context, args). Extend with `register_builtin`.
BUILTIN_AGENTS: dict[str, BuiltinFactory] = {}


class UnknownAgentError(TaurecError):
    """An agent name that is not registered (the message suggests the closest one)."""


def register_builtin(name: str) -> Callable[[BuiltinFactory], BuiltinFactory]:
    """Register a built-in agent factory under `name`."""

    def decorate(factory: BuiltinFactory) -> BuiltinFactory:
        if name in BUILTIN_AGENTS:
            raise TaurecError(f"built-in agent {name!r} is already registered")
        BUILTIN_AGENTS[name] = factory
        return factory

    return decorate


@register_builtin("oracle")
def _oracle(context: AgentContext, args: dict[str, Any]) -> Agent:
    return OracleAgent(context, args)


@register_builtin("heuristic")
def _heuristic(context: AgentContext, args: dict[str, Any]) -> Agent:
    return HeuristicAgent(context, args)


@register_builtin("careful")
def _careful(context: AgentContext, args: dict[str, Any]) -> Agent:
    """The heuristic that asks about every topic, one per message, and presses vague answers."""
    return HeuristicAgent(context, {"max_proposals": 3, **args}, careful=True)


@register_builtin("expert")
def _expert(context: AgentContext, args: dict[str, Any]) -> Agent:
    from runner.agents.baselines.expert import ExpertAgent

    return ExpertAgent(context, args)


@register_builtin("informed")
def _informed(context: AgentContext, args: dict[str, Any]) -> Agent:
    """The expert told the NAMES of the constrained fields (never values, operators or reveal tags)."""
    from runner.agents.baselines.expert import ExpertAgent, constrained_fields

    if context.task is None:
        raise TaurecError("the informed agent needs the task (for its field names) in its context")
    return ExpertAgent(
        context, args, informed_fields=constrained_fields(context.task), name="informed"
    )


@register_builtin("expert-natural")
def _expert_natural(context: AgentContext, args: dict[str, Any]) -> Agent:
    """The expert's decisions in a chat model's words (the wording-only twin)."""
    from runner.agents.baselines.expert import ExpertAgent
    from runner.agents.baselines.natural import NaturalTwin

    return NaturalTwin(ExpertAgent(context, args), context.seed, "expert-natural")


@register_builtin("heuristic-natural")
def _heuristic_natural(context: AgentContext, args: dict[str, Any]) -> Agent:
    """The heuristic's decisions in a chat model's words (the wording-only twin)."""
    from runner.agents.baselines.natural import NaturalTwin

    return NaturalTwin(HeuristicAgent(context, args), context.seed, "heuristic-natural")


@register_builtin("random")
def _random(context: AgentContext, args: dict[str, Any]) -> Agent:
    return RandomAgent(context, args)


def _register_adversaries() -> None:
    from runner.agents.adversaries import ADVERSARY_NAMES, AdversaryAgent

    for adversary in ADVERSARY_NAMES:

        def factory(context: AgentContext, args: dict[str, Any], name: str = adversary) -> Agent:
            if args:
                raise TaurecError(f"adversary {name!r} takes no args (got {sorted(args)})")
            return AdversaryAgent(name, context)

        register_builtin(adversary)(factory)


_register_adversaries()


def _register_panel() -> None:
    from runner.agents.adversaries.panel import PANEL_ADVERSARIES, build_panel_adversary

    for adversary in PANEL_ADVERSARIES:

        def factory(context: AgentContext, args: dict[str, Any], name: str = adversary) -> Agent:
            return build_panel_adversary(name, context, args)

        register_builtin(adversary)(factory)


_register_panel()


def _unknown(name: str) -> UnknownAgentError:
    close = difflib.get_close_matches(name, sorted(BUILTIN_AGENTS), n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    known = ", ".join(sorted(BUILTIN_AGENTS))
    return UnknownAgentError(f"unknown built-in agent {name!r} (known: {known}){hint}")


def _builtins(domain: str) -> Mapping[str, BuiltinFactory]:
    """The built-in agents of a domain (movies: this module's registry)."""
    if domain == "movies":
        return BUILTIN_AGENTS
    from runner.domains import get_domain

    return get_domain(domain).baselines()


def domain_builtins(domain: str) -> list[str]:
    """The names of a domain's built-in agents (movies: this module's registry)."""
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
        from runner.own_model_server import resolve_own_server

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
