"""The grocery baselines and adversaries: name -> builder(context, args) -> Agent, all talking through real tool calls.

Only `oracle` is handed the task and the catalog (it still asks about allergies before its first
product, as policy section 1 requires of everyone); every other agent knows the store only
through its tool results, as a submission does. The honest `expert` asks about allergies, diet
and budget and what the opening cues, searches, checks stock and each candidate, proposes one
product at a time by brand, name and size (with the id when those are shared), saying when it
is sponsored, learns from every decline, states the basket (lines, quantities, total) and asks
before ordering, and finishes without ordering when nothing fits; `expert-bare-names` says bare
names until the shopper asks which one is meant. The adversaries are the shortcuts a hostile
submitter tries (`bare-confirmer` asks "Shall I place the order?" without stating the basket;
`policy-ignorer` is the expert that never read the policy; `allergen-ignorer` the expert that
ignores section 1: it never asks about allergies and heeds none it is told).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from domains.grocery.agents.shopper import Play, ShoppingAgent
from runner.core.errors import TaurecError
from runner.core.protocols import Agent, AgentContext

__all__ = ["ADVERSARIES", "HONEST", "PLAYS", "TWINS", "Play", "ShoppingAgent", "baselines"]

PLAYS: dict[str, Play] = {
    "oracle": Play(name="oracle", oracle=True, ask_standard=False, ask_cues=False),
    "do-nothing": Play(name="do-nothing"),
    "heuristic": Play(name="heuristic", ask_cues=False, use_hints=False),
    "expert": Play(name="expert"),
    # The expert naming products by bare name: asked "which one?" where a name is shared.
    "expert-bare-names": Play(name="expert-bare-names", naming="bare"),
    # Adversaries.
    "order-without-asking": Play(
        name="order-without-asking",
        ask_standard=False,
        ask_allergies=False,
        ask_cues=False,
        confirm="none",
    ),
    "prior-guesser": Play(
        name="prior-guesser",
        ask_standard=False,
        ask_allergies=False,
        ask_cues=False,
        use_hints=False,
        account="prior",
    ),
    # Ignores section 1 whole: never asks about allergies, and heeds none it is told.
    "allergen-ignorer": Play(
        name="allergen-ignorer", respect_allergies=False, ask_allergies=False, account="no_yes"
    ),
    # Asks the allergy question with the expert's others, then heeds no allergy it is told: no
    # cap (it cannot break section 1 with a shopper who has no allergy); the panel shows how often
    # an allergic shopper's pick is unsafe for it.
    "allergy-answer-ignorer": Play(
        name="allergy-answer-ignorer", respect_allergies=False, account="no_yes"
    ),
    # The expert that never read the policy: what the shopper states it respects, sections 1
    # and 4-7 it does not apply on its own (no allergy or budget question, a replacement put in
    # the basket unasked, no sponsored note; the search's order, price meaning nothing to it),
    # nor, at the desk, sections 10-11.
    "policy-ignorer": Play(
        name="policy-ignorer", reads_policy=False, rank="search", account="no_policy"
    ),
    "basket-stuffer": Play(name="basket-stuffer", stuff=3, account="over"),
    "interview-then-cheapest": Play(
        name="interview-then-cheapest", ask_cues=False, use_hints=False, check_stock=False
    ),
    "consent-forger": Play(name="consent-forger", confirm="forge"),
    "questionnaire": Play(
        name="questionnaire", questionnaire=True, ask_cues=False, account="ask_all"
    ),
    "list-proposer": Play(name="list-proposer", list_size=4),
    # Asks "Shall I place the order?" without stating the basket's lines, quantities and total.
    "bare-confirmer": Play(name="bare-confirmer", confirm_words="bare", account="bare"),
}
HONEST: tuple[str, ...] = ("oracle", "do-nothing", "heuristic", "expert", "expert-bare-names")
ADVERSARIES: tuple[str, ...] = tuple(n for n in PLAYS if n not in HONEST)
# Natural twins: the same decisions in a chat model's words (what wording alone costs).
# The styled twins are the second, written from seeded shop-assistant styles, not against the reader.
TWINS: dict[str, str] = {
    "expert-natural": "expert",
    "heuristic-natural": "heuristic",
    "expert-styled": "expert",
    "heuristic-styled": "heuristic",
}


def _builder(name: str) -> Callable[[AgentContext, dict[str, Any]], Agent]:
    play = PLAYS[name]

    def build(context: AgentContext, args: dict[str, Any]) -> Agent:
        if not play.oracle:
            return ShoppingAgent(play, None, None, args)
        if context.task is None or context.catalog is None:
            raise TaurecError(
                "the grocery oracle needs the task and the catalog in its AgentContext"
            )
        return ShoppingAgent(play, context.catalog, context.task, args)

    return build


def _twin(name: str, inner: str) -> Callable[[AgentContext, dict[str, Any]], Agent]:
    build_inner = _builder(inner)

    def build(context: AgentContext, args: dict[str, Any]) -> Agent:
        from domains.grocery.agents.natural import GroceryNaturalTwin
        from domains.grocery.agents.styled import GroceryStyledTwin

        wrapper = GroceryStyledTwin if name.endswith("-styled") else GroceryNaturalTwin
        return wrapper(build_inner(context, args), context.seed, name)

    return build


def baselines() -> Mapping[str, Callable[[AgentContext, dict[str, Any]], Agent]]:
    """Every built-in grocery agent by name."""
    from domains.grocery.agents.lookup import build_lookup

    built: dict[str, Callable[[AgentContext, dict[str, Any]], Agent]] = {
        name: _builder(name) for name in PLAYS
    }
    built |= {name: _twin(name, inner) for name, inner in TWINS.items()}
    # The lookup adversary reads the public files a hostile submitter would (never ranked).
    return built | {"lookup": build_lookup}
