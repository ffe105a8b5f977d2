"""Grocery scoring on real trials: replay equals the live store, the final state against each task kind, NVR tasks, and what cannot be scored."""

from __future__ import annotations

from typing import Any

import pytest

from domains.grocery import GroceryDomain
from domains.grocery.scoring import GroceryScoringError, count_proposals, replay, score
from domains.grocery.store import inventory, stock_level
from domains.grocery.tasks import GroceryTask
from runner.core.domains import get_domain
from runner.core.rules import get_rules
from runner.core.transcript import InfraError, ToolCallEvent
from tests.domains.grocery.play import (
    CATALOG,
    HONEY_PUFFS,
    MILLET_POPS,
    OAT_CRUNCH,
    PENNE,
    call,
    make_task,
    name_of,
    need,
    order_flow,
    past_order,
    play,
    play_with_tools,
    return_flow,
    say,
    substitution_task,
)

PAST = [past_order("A1", "2026-10-01", (OAT_CRUNCH, 1, 3.49), (PENNE, 2, 1.29))]


def _return_task(**fields: Any) -> GroceryTask:
    data: dict[str, Any] = {
        "kind": "return",
        "constraints": [],
        "past_orders": PAST,
        "return_target": {"order_id": "A1", "product_id": PENNE, "reason": "damaged"},
        "policy_flags": ["return_confirmation"],
    }
    return make_task(**{**data, **fields})


def _substitution_task() -> GroceryTask:
    task = substitution_task(
        constraints=[
            need("vegan", "==", "yes"),
            need("categories", "contains", "Breakfast cereals"),
        ]
    )
    assert task.solutions(CATALOG, inventory(task, CATALOG)) == [MILLET_POPS]
    return task


def test_an_honest_order_scores_one_and_replay_equals_the_live_store() -> None:
    task = make_task(quantity=2)
    transcript, tools = play_with_tools(task, *order_flow(MILLET_POPS, 2))
    assert transcript.stop_reason == "completed"
    state, writes = replay(task, transcript, CATALOG)
    assert state == tools.store.final_state()
    assert [w.name for w in writes] == ["add_to_basket", "place_order"]
    result = score(task, transcript, CATALOG)
    assert (result.reward, result.constraint_score, result.policy_score) == (1.0, 1.0, 1.0)
    assert result.recommendation == MILLET_POPS
    assert not result.abstained
    assert [(c.field, c.satisfied) for c in result.constraints] == [
        ("vegan", True),
        ("quantity", True),
    ]
    assert [p.policy for p in result.policies] == ["order_confirmation"]
    # Deterministic, and the domain object scores the same.
    again = get_domain("grocery").score(task, transcript, CATALOG, get_rules("v2"))
    assert again.model_dump_json() == result.model_dump_json()


def test_replay_skips_refused_writes_and_reads() -> None:
    task = make_task()
    empty = next(p.id for p in CATALOG.items if stock_level(task, p.id) == 0)
    replies, turns = order_flow(MILLET_POPS)
    replies[2:2] = [call("add_to_basket", product_id=empty), call("view_basket")]
    transcript, tools = play_with_tools(task, replies, turns)
    assert any(e.is_error for e in transcript.tool_calls)
    assert replay(task, transcript, CATALOG)[0] == tools.store.final_state()
    assert score(task, transcript, CATALOG).reward == 1.0


@pytest.mark.parametrize(
    ("product", "quantity", "reason"),
    [
        (HONEY_PUFFS, 1, "fails 1 of 2: vegan 'no' != 'yes'"),
        (MILLET_POPS, 3, "quantity 3 != 1"),
    ],
)
def test_a_wrong_product_or_quantity_scores_zero(product: str, quantity: int, reason: str) -> None:
    task = make_task()
    result = score(task, play(task, *order_flow(product, quantity)), CATALOG)
    assert result.constraint_score == 0.0
    assert result.reward == 0.0
    assert reason in result.constraint_reason
    assert result.policy_score == 1.0  # confirmed: only the product was wrong


def test_exactly_one_order_of_one_product() -> None:
    task = make_task()
    replies, turns = order_flow(MILLET_POPS)
    twice = [
        *replies[:5],
        call("add_to_basket", product_id=MILLET_POPS),
        say("Another one? Shall I order it?"),
        call("place_order"),
    ]
    transcript = play(task, twice, [*turns, ("Yes.", "confirm_order")])
    assert "2 orders were placed" in score(task, transcript, CATALOG).constraint_reason
    two_lines = [*replies[:3], call("add_to_basket", product_id=OAT_CRUNCH), *replies[3:]]
    result = score(task, play(task, two_lines, turns), CATALOG)
    assert "the order has 2 products" in result.constraint_reason
    assert result.reward == 0.0
    nothing = play(task, [say("Let me think."), call("finish", summary="Nothing.")])
    result = score(task, nothing, CATALOG)
    assert result.reward == 0.0
    assert "no order was placed (completed)" in result.constraint_reason


def _nvr_task() -> GroceryTask:
    task = make_task(
        id="g_nvr",
        no_valid_recommendation=True,
        allergies=["gluten"],
        constraints=[
            need("vegan", "==", "yes"),
            need("price", "<=", 0.5, "on_ask"),
        ],
        policy_flags=["order_confirmation", "allergen_safety"],
    )
    assert task.solutions(CATALOG, inventory(task, CATALOG)) == []
    return task


def test_nvr_telling_the_shopper_then_finishing_without_an_order_scores_one() -> None:
    task = _nvr_task()
    transcript = play(
        task,
        [say("Nothing here fits, sorry."), call("finish", summary="None.")],
        [("Oh well, thanks for checking.", "nothing_fits_ack")],
    )
    result = score(task, transcript, CATALOG)
    assert (result.reward, result.abstained, result.recommendation) == (1.0, True, None)
    assert "finished without ordering" in result.constraint_reason


def test_nvr_finishing_without_telling_the_shopper_scores_zero() -> None:
    """Doing nothing is not abstaining: the shopper must hear that nothing fits."""
    task = _nvr_task()
    silent = score(task, play(task, [call("finish", summary="None.")]), CATALOG)
    assert silent.reward == 0.0
    assert "without telling the shopper" in silent.constraint_reason
    unheard = play(task, [say("Nothing here fits, sorry."), call("finish", summary="None.")])
    assert score(task, unheard, CATALOG).reward == 0.0  # the stand-in user never acknowledged


def test_nvr_ordering_or_never_finishing_scores_zero() -> None:
    task = _nvr_task()
    ordered = score(task, play(task, *order_flow(MILLET_POPS)), CATALOG)
    assert ordered.reward == 0.0
    assert "but the agent ordered" in ordered.constraint_reason
    talk = play(task, [say("Hmm.")] * 3, max_turns=3)
    assert talk.stop_reason == "max_turns"
    stalled = score(task, talk, CATALOG)
    assert stalled.reward == 0.0
    assert "did not finish (max_turns)" in stalled.constraint_reason


def test_a_return_task_needs_exactly_the_right_return() -> None:
    task = _return_task()
    right = score(task, play(task, *return_flow("A1", PENNE, "damaged", quantity=2)), CATALOG)
    assert right.reward == 1.0
    assert right.recommendation is None
    assert [c.field for c in right.constraints] == ["order_id", "product_id", "reason"]
    wrong = score(task, play(task, *return_flow("A1", PENNE, "expired", quantity=2)), CATALOG)
    assert wrong.reward == 0.0
    assert "reason 'expired' != 'damaged'" in wrong.constraint_reason
    other = score(task, play(task, *return_flow("A1", OAT_CRUNCH, "damaged")), CATALOG)
    assert other.reward == 0.0
    assert "product_id" in other.constraint_reason
    replies, turns = return_flow("A1", PENNE, "damaged")
    extra, extra_turns = order_flow(MILLET_POPS)
    both = play(task, replies[:3] + extra, turns + extra_turns)
    result = score(task, both, CATALOG)
    assert result.reward == 0.0
    assert "a return task, but 1 order(s)" in result.constraint_reason


def test_a_substitution_with_consent_scores_one() -> None:
    task = _substitution_task()
    name = name_of(MILLET_POPS)
    replies, turns = order_flow(
        MILLET_POPS, proposal=f"{name_of(OAT_CRUNCH)} is out of stock; would {name} do instead?"
    )
    turns[0] = ("Yes, that one is fine.", "consent_substitution")
    result = score(task, play(task, replies, turns), CATALOG)
    assert result.reward == 1.0, result
    assert [c.field for c in result.constraints][-1] == "id"
    assert [p.policy for p in result.policies] == ["order_confirmation", "substitution_consent"]


def test_infra_errors_other_tasks_and_tampered_writes_raise() -> None:
    task = make_task()
    transcript = play(task, *order_flow(MILLET_POPS))
    broken = transcript.model_copy(
        update={"stop_reason": "infra_error", "error": InfraError(kind="Timeout", message="x")}
    )
    with pytest.raises(GroceryScoringError, match=r"infra error \(Timeout: x\)"):
        score(task, broken, CATALOG)
    with pytest.raises(GroceryScoringError, match="is for task 'g_test', not 'g_other'"):
        score(make_task(id="g_other"), transcript, CATALOG)
    empty = next(p.id for p in CATALOG.items if stock_level(task, p.id) == 0)
    forged = ToolCallEvent(
        name="add_to_basket", arguments={"product_id": empty, "quantity": 1}, result="{}"
    )
    tampered = transcript.model_copy(update={"events": [*transcript.events[:2], forged]})
    with pytest.raises(GroceryScoringError, match="succeeded in the trial but not on replay"):
        score(task, tampered, CATALOG)


def test_count_proposals_counts_distinct_products_put_forward() -> None:
    task = _return_task()
    replies, turns = order_flow(MILLET_POPS)
    transcript = play(task, replies, turns)
    assert count_proposals(transcript, CATALOG) == 1
    assert GroceryDomain().count_proposals(transcript, CATALOG) == 1
    returned = play(task, *return_flow("A1", PENNE, "damaged"))
    # The item to return is named, not put forward ("I can return 1 × Penne from order A1").
    assert count_proposals(returned, CATALOG) == 0
    said = play(task, [say(f"{name_of(PENNE)} is a good pick.")], [("ok", None)])
    assert count_proposals(said, CATALOG) == 1
    assert count_proposals(said, CATALOG, task) == 0  # a past-order line is referenced
