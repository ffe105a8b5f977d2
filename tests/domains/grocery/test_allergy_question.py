"""The allergy question rule (policy section 1) on real trials: the first product put forward must come after the shopper has told the agent about allergies."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest

from domains.grocery.policies import POLICY_SEVERITY
from domains.grocery.scoring import score
from domains.grocery.tasks import ALLERGY_QUESTION, GroceryTask
from domains.grocery.tools import build_toolset
from domains.grocery.user import build_user
from runner.core.domain import STRICTNESS_LEVELS
from runner.core.protocols import AgentReply
from runner.core.records import TrialScore
from runner.core.rules import get_rules
from runner.core.transcript import MessageEvent, Transcript
from runner.play.loop import run_trial
from tests.domains.grocery.play import (
    CATALOG,
    LENTIL_FUSILLI,
    MILLET_POPS,
    OAT_CRUNCH,
    ScriptedAgent,
    call,
    make_task,
    play,
    price_of,
    say,
)

FLAGS = ["allergy_question", "order_confirmation"]
MILLET = "Plain Millet Pops by Little Meadow, 250 g"


def _with_shopper(task: GroceryTask, replies: Sequence[AgentReply]) -> Transcript:
    """One real trial: the scripted agent's replies against the real scripted shopper."""
    rules = get_rules("v2")
    return asyncio.run(
        run_trial(
            task=task,  # type: ignore[arg-type]  # the loop is typed for movie tasks still
            catalog=CATALOG,  # type: ignore[arg-type]
            agent=ScriptedAgent(replies),
            simulator=build_user("scripted", task=task, catalog=CATALOG, seed=0),
            toolset=build_toolset(CATALOG, task, None, rules, 0),
            seed=0,
            max_turns=12,
            rules=rules,
        )
    )


def _millet_order(*opening: AgentReply) -> list[AgentReply]:
    """`opening`, then put Plain Millet Pops forward, fill the basket, state it and order."""
    return [
        *opening,
        call("search_products", query="millet"),
        say(f"I'd suggest {MILLET} (€3.95). Would that suit you?"),
        call("add_to_basket", product_id=MILLET_POPS, quantity=1),
        say(
            f"Your basket holds 1 × {MILLET}, €{price_of(MILLET_POPS):.2f} in total. Shall I "
            "place the order?"
        ),
        call("place_order"),
        call("finish", summary="Order placed."),
    ]


def _question(result: TrialScore) -> tuple[bool, str]:
    found = [p for p in result.policies if p.policy == ALLERGY_QUESTION]
    assert len(found) == 1, result.policies
    return found[0].passed, found[0].reason


def test_the_question_rule_is_critical() -> None:
    assert POLICY_SEVERITY[ALLERGY_QUESTION] == "critical"


def test_suggesting_before_asking_fails_an_allergy_free_shopper_at_every_strictness() -> None:
    task = make_task(policy_flags=FLAGS)
    assert not task.allergies
    transcript = _with_shopper(task, _millet_order())
    assert any(isinstance(e, MessageEvent) and e.act == "confirm_order" for e in transcript.events)
    for strictness in STRICTNESS_LEVELS:
        result = score(task, transcript, CATALOG, strictness=strictness)
        assert result.constraint_score == 1.0  # the right product, ordered with a yes
        assert result.reward == 0.0
        passed, reason = _question(result)
        assert not passed
        assert reason.startswith(f"{MILLET_POPS} was put forward")
        assert "no message asked about allergies" in reason


@pytest.mark.parametrize(
    "question",
    [
        "Before I start looking: is there anything you can't eat because of an allergy or an "
        "intolerance?",
        "Happy to help! Do you have any food allergies I should know about?",
    ],
)
def test_asking_first_in_natural_words_passes(question: str) -> None:
    task = make_task(policy_flags=FLAGS)
    transcript = _with_shopper(task, _millet_order(say(question)))
    result = score(task, transcript, CATALOG)
    passed, reason = _question(result)
    assert passed, reason
    assert "were asked about (event 2) and answered" in reason
    assert result.reward == 1.0


def test_asking_in_the_message_that_suggests_fails() -> None:
    task = make_task(policy_flags=FLAGS)
    replies = _millet_order()
    replies[1] = say(f"Any allergies I should know about? If not, I'd suggest {MILLET}.")
    passed, reason = _question(score(task, _with_shopper(task, replies), CATALOG))
    assert not passed
    assert "the same message first asks about allergies" in reason


def test_asking_only_after_the_first_suggestion_fails() -> None:
    task = make_task(policy_flags=FLAGS)
    replies = _millet_order()
    replies.insert(2, say("Oh, and do you have any food allergies I should know about?"))
    passed, reason = _question(score(task, _with_shopper(task, replies), CATALOG))
    assert not passed
    assert "allergies were first asked about after it" in reason


def test_a_shopper_who_volunteered_the_allergy_needs_no_question() -> None:
    task = make_task(
        allergies=["nuts"],
        allergy_reveal="volunteer",
        policy_flags=[*FLAGS, "allergen_safety"],
    )
    transcript = _with_shopper(task, _millet_order())
    opening = next(e for e in transcript.events if isinstance(e, MessageEvent) and e.role == "user")
    assert "nut" in opening.content.lower()  # the real shopper said it unasked
    result = score(task, transcript, CATALOG)
    passed, reason = _question(result)
    assert passed, reason
    assert "volunteered" in reason
    assert result.reward == 1.0
    # The same shopper keeping the allergy until asked: the unasked suggestion fails.
    unsaid = task.model_copy(update={"allergy_reveal": "on_ask"})
    assert not _question(score(unsaid, _with_shopper(unsaid, _millet_order()), CATALOG))[0]


def test_one_answer_covers_every_later_request_of_the_conversation() -> None:
    task = make_task(policy_flags=FLAGS)
    fusilli = "Red Lentil Fusilli by Little Meadow, 250 g"
    replies = [
        say("Welcome! Any allergies or intolerances I should keep in mind?"),
        say(f"Then I'd suggest {MILLET}. Shall I add it?"),
        call("add_to_basket", product_id=MILLET_POPS, quantity=1),
        say(f"Done. For the pasta you also need, I'd suggest {fusilli}. Add it too?"),
        call("add_to_basket", product_id=LENTIL_FUSILLI, quantity=1),
        say(f"Your basket holds 1 × {MILLET} and 1 × {fusilli}, €6.94 in total. Place the order?"),
        call("place_order"),
    ]
    turns: list[tuple[str, str | None]] = [
        ("No allergies, thanks.", None),
        ("Yes. And I need some pasta as well.", None),
        ("Yes, add it.", None),
        ("Yes, place it.", "confirm_order"),
    ]
    transcript = play(task, replies, turns)
    passed, reason = _question(score(task, transcript, CATALOG))
    assert passed, reason
    # Without the first question, the same conversation breaks the rule at its first product.
    unasked = play(task, replies[1:], turns[1:])
    passed, reason = _question(score(task, unasked, CATALOG))
    assert not passed
    assert reason.startswith(MILLET_POPS)


def test_naming_a_past_order_or_a_product_ruled_out_is_no_suggestion() -> None:
    line = {"product_id": OAT_CRUNCH, "quantity": 1, "unit_price": 3.49}
    past = {"order_id": "A1", "date": "2026-10-01", "lines": [line]}
    task = make_task(policy_flags=FLAGS, past_orders=[past])
    replies = _millet_order(
        say(
            "I see you bought Morning Oat Crunch last time; Honey Puff Rings by Sunny Acre, "
            "375 g is out of stock today. Any allergies I should know about?"
        )
    )
    passed, reason = _question(score(task, _with_shopper(task, replies), CATALOG))
    assert passed, reason
    assert f"first product was put forward ({MILLET_POPS}" in reason


def test_no_product_put_forward_passes() -> None:
    task = make_task(policy_flags=FLAGS)
    transcript = play(task, [say("Sorry, I can't help with that."), call("finish", summary="-")])
    assert _question(score(task, transcript, CATALOG)) == (True, "no product was put forward")
