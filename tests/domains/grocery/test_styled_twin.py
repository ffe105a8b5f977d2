"""The grocery styled twin: the shopping assistant's decisions in seeded shop-assistant styles (the same tool calls, topics, products, order and return requests, disclosure)."""

from __future__ import annotations

import asyncio

import pytest

from domains.grocery import GroceryDomain
from domains.grocery.agents import PLAYS, ShoppingAgent
from domains.grocery.agents.shopper import CUE_QUESTIONS, STANDARD_QUESTIONS
from domains.grocery.agents.styled import (
    ASK,
    NOTHING,
    GroceryStyledTwin,
    plain_topics,
    stylize,
)
from domains.grocery.catalog import load_catalog
from domains.grocery.panel_play import play_grocery_trial
from domains.grocery.tasks import load_tasks
from domains.grocery.testing import tiny_catalog
from runner.agents.styles import draw_style
from tests.agent_spy import AgentSpy

GROCERY = GroceryDomain()
P = tiny_catalog().items[0]
PITCH = f"{P.name} by {P.brand} (€{P.price:.2f} a pack; Nutri-Score {P.nutriscore.upper()})"


@pytest.mark.parametrize("plain", ["expert", "heuristic"])
@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_the_styled_twin_keeps_every_decision(plain: str, seed: int) -> None:
    catalog = load_catalog(sorted(p for p in GROCERY.snapshots_dir.iterdir() if p.is_dir())[-1])
    for task in load_tasks(GROCERY.tasks_dir)[::12]:
        inner = AgentSpy(ShoppingAgent(PLAYS[plain], None, None, {}))
        outer = AgentSpy(GroceryStyledTwin(inner, seed, f"{plain}-styled"))  # type: ignore[arg-type]
        asyncio.run(play_grocery_trial(outer, task, catalog, seed))
        assert len(inner.replies) == len(outer.replies) > 1
        for mine, styled in zip(inner.replies, outer.replies, strict=True):
            assert styled.tool_calls == mine.tool_calls
            assert bool(styled.content) == bool(mine.content)


def test_the_plain_questions_are_known_topic_by_topic() -> None:
    plain = "Happy to help! Before I search: " + "; ".join(STANDARD_QUESTIONS.values()) + "?"
    assert plain_topics(plain) == ["allergies", "diet", "budget"]
    cues = "Thanks! Also, " + "; and ".join([CUE_QUESTIONS["origin"], CUE_QUESTIONS["brand"]]) + "?"
    assert plain_topics(cues) == ["origin", "brand"]


@pytest.mark.parametrize("seed", range(10))
def test_each_message_keeps_what_it_asks_for(seed: int) -> None:
    style = draw_style(seed, "grocery")
    proposal = stylize(
        f"I'd suggest {PITCH} — please note this is a sponsored product. Would that work for you?",
        [],
        seed,
    )
    assert f"**{P.name}**" in proposal
    assert "sponsored" in proposal
    basket = stylize(
        f"I've put 2 × {P.name} in your basket (total €{2 * P.price:.2f}). Shall I place the "
        "order?",
        [],
        seed,
    )
    assert f"2 × **{P.name}**" in basket
    assert f"€{2 * P.price:.2f}" in basket  # every line, its quantity and the total
    assert "order" in basket
    returned = stylize(
        f"I found 1 × {P.name} in order ord_1 (refund €{P.price:.2f}). Shall I process the "
        "return and refund it (reason: damaged)?",
        [],
        seed,
    )
    assert "ord_1" in returned
    assert f"1 × **{P.name}**" in returned
    assert f"€{P.price:.2f}" in returned
    assert "return" in returned
    assert "refund" in returned
    nothing = stylize(
        "I'm sorry — I couldn't find any product in our catalog that meets all of your needs, "
        "so I won't order anything.",
        [],
        seed,
    )
    if not style.typo_rate:
        assert nothing in [*NOTHING.get(style.register, ()), *NOTHING["any"]]
    if not style.typo_rate:
        plain = (
            "Thanks! Also, "
            + CUE_QUESTIONS["nutriscore"]
            + "; and "
            + CUE_QUESTIONS["origin"]
            + "?"
        )
        asked = stylize(plain, [], seed)
        for topic in ("nutriscore", "origin"):
            options = [*ASK[topic].get(style.register, ()), *ASK[topic].get("any", ())]
            assert any(o.lower()[1:] in asked.lower() for o in options), asked
