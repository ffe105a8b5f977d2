"""The movie built-in agents by name (baselines, the fidelity panel, the exploit adversaries): the movies domain's `baselines()`.

Each registered factory records its name and arguments (a ComponentSpec on the agent), so a
transcript says exactly what ran.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domains.movies.baselines import HeuristicAgent, OracleAgent, RandomAgent
from runner.core.errors import TaurecError
from runner.core.protocols import Agent, AgentContext
from runner.play.agent_config import ADVERSARY_NAMES

BuiltinFactory = Callable[[AgentContext, dict[str, Any]], Agent]

# name -> factory(context, args). Extend with `register_builtin`.
BUILTIN_AGENTS: dict[str, BuiltinFactory] = {}


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
    from domains.movies.baselines.expert import ExpertAgent

    return ExpertAgent(context, args)


@register_builtin("informed")
def _informed(context: AgentContext, args: dict[str, Any]) -> Agent:
    """The expert told the NAMES of the constrained fields (never values, operators or reveal tags)."""
    from domains.movies.baselines.expert import ExpertAgent

    if context.informed_fields is None:
        raise TaurecError(
            "the informed agent needs the constrained fields' names (AgentContext.informed_fields)"
        )
    return ExpertAgent(context, args, informed_fields=context.informed_fields, name="informed")


# The wording twins: a plain agent's decisions in other words (what wording alone costs).
# `-natural`: a chat model's words; `-styled`: seeded assistant styles not written against the
# reader. Twin name -> the plain agent it wraps.
TWINS: dict[str, str] = {
    "expert-natural": "expert",
    "heuristic-natural": "heuristic",
    "expert-styled": "expert",
    "heuristic-styled": "heuristic",
}


def _twin(name: str, plain: str) -> BuiltinFactory:
    def build(context: AgentContext, args: dict[str, Any]) -> Agent:
        from domains.movies.baselines.expert import ExpertAgent
        from domains.movies.baselines.natural import NaturalTwin
        from domains.movies.baselines.styled import styled_twin

        inner = ExpertAgent(context, args) if plain == "expert" else HeuristicAgent(context, args)
        wrapper = styled_twin if name.endswith("-styled") else NaturalTwin
        return wrapper(inner, context.seed, name)

    build.__doc__ = f"The {plain}'s decisions in other words (the wording-only twin {name})."
    return build


for _name, _plain in TWINS.items():
    register_builtin(_name)(_twin(_name, _plain))


@register_builtin("random")
def _random(context: AgentContext, args: dict[str, Any]) -> Agent:
    return RandomAgent(context, args)


# The fidelity panel's adversaries by name (`domains.movies.adversaries.panel.PANEL_ADVERSARIES`,
# which a test keeps equal): listed here so that registering them imports neither the panel nor
# the expert it is built from; a panel adversary's module is imported when one is built.
PANEL_NAMES: tuple[str, ...] = (
    "no-question-prober",
    "interview-picker",
    "budget-crawler",
    "decline-ignoring-guesser",
    "policy-ignoring-retriever",
)


def _register_adversaries() -> None:
    for adversary in ADVERSARY_NAMES:

        def factory(context: AgentContext, args: dict[str, Any], name: str = adversary) -> Agent:
            from domains.movies.adversaries.policies import AdversaryAgent

            if args:
                raise TaurecError(f"adversary {name!r} takes no args (got {sorted(args)})")
            return AdversaryAgent(name, context)

        register_builtin(adversary)(factory)


_register_adversaries()


def _register_panel() -> None:
    for adversary in PANEL_NAMES:

        def factory(context: AgentContext, args: dict[str, Any], name: str = adversary) -> Agent:
            from domains.movies.adversaries.panel import build_panel_adversary

            return build_panel_adversary(name, context, args)

        register_builtin(adversary)(factory)


_register_panel()


@register_builtin("lookup")
def _lookup(context: AgentContext, args: dict[str, Any]) -> Agent:
    """Maps the user id to a public task and plays it as the oracle (the exploit the private test
    split closes); on an id it cannot map, the no-question prober."""
    from domains.movies.adversaries.lookup import build_lookup

    return build_lookup(context, args)
