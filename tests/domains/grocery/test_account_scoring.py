"""Account tasks: drawn with gold actions that replay on a fresh store; a trial scores by its final state against the gold one, the facts told, and the confirmation before each change."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from domains.grocery.account_suite import AccountSlot, draw_account_task
from domains.grocery.catalog import load_catalog
from domains.grocery.scoring import GroceryScoringError, gold_state, required_facts, score
from domains.grocery.tasks import GroceryTask
from domains.grocery.tools import GroceryTools
from runner.core.protocols import AgentReply
from runner.kits.store.store import Action
from tests.domains.grocery.play import call, play_with_tools, say

SNAPSHOT = Path(__file__).resolve().parents[3] / "domains/grocery/snapshots/2026-11-01"
CATALOG = load_catalog(SNAPSHOT)


def multi() -> GroceryTask:
    return draw_account_task(4100, 2, AccountSlot("multi", 2, "mixed"), CATALOG)


def desk(
    task: GroceryTask,
    *,
    confirm: bool = True,
    tell: bool = True,
    actions: list[Action] | None = None,
) -> tuple[list[AgentReply], list[tuple[str, str | None]]]:
    """An agent that authenticates, then for each gold write states it, waits for a yes and
    makes it; the user answers each statement with `confirm_action` (or a plain 'ok')."""
    gold = actions if actions is not None else task.gold_actions
    replies = [call(gold[0].name, **gold[0].arguments)]
    turns: list[tuple[str, str | None]] = []
    facts = " ".join(required_facts(task, CATALOG)) if tell else ""
    for action in gold[1:]:
        replies.append(say(f"I will make this change ({action.name}); it moves {facts}. OK?"))
        turns.append(("Yes, go ahead.", "confirm_action" if confirm else None))
        replies.append(call(action.name, **action.arguments))
    replies.append(call("finish", summary="All done."))
    return replies, turns


def test_drawn_tasks_are_seeded_opaque_and_their_gold_changes_the_store() -> None:
    task = multi()
    assert task == multi()
    assert task.id.startswith("t_")
    assert len(task.requests) == 2
    assert task.gold_actions[0].name == "find_user_by_email"
    state = gold_state(task, CATALOG)
    assert state.account is not None
    assert state.account != GroceryTools(CATALOG, task).store.final_state().account


@pytest.mark.parametrize("kind", ["cancel", "modify", "exchange"])
def test_a_desk_doing_the_gold_writes_with_a_yes_each_and_the_facts_scores_one(kind: str) -> None:
    task = draw_account_task(4100, 0, AccountSlot(kind, 1, "volunteer"), CATALOG)  # type: ignore[arg-type]
    transcript, _ = play_with_tools(task, *desk(task), catalog=CATALOG)
    result = score(task, transcript, CATALOG)
    assert (result.constraint_score, result.policy_score, result.reward) == (1.0, 1.0, 1.0), (
        result.constraint_reason
    )
    assert [p.policy for p in result.policies] == ["account_confirmation"]


def test_a_change_without_its_own_yes_fails_the_critical_policy() -> None:
    task = multi()
    transcript, _ = play_with_tools(task, *desk(task, confirm=False), catalog=CATALOG)
    result = score(task, transcript, CATALOG)
    assert result.constraint_score == 1.0
    assert result.reward == 0.0
    [policy] = result.policies
    assert not policy.passed
    assert "without the shopper confirming it (confirm_action)" in policy.reason


def test_a_state_other_than_the_gold_one_scores_zero_and_says_where() -> None:
    task = multi()
    transcript, _ = play_with_tools(
        task, *desk(task, actions=task.gold_actions[:-1]), catalog=CATALOG
    )
    result = score(task, transcript, CATALOG)
    assert result.constraint_score == 0.0
    assert "differs from the gold one" in result.constraint_reason


def test_the_shopper_must_be_told_the_money_moved() -> None:
    # A cancel moves the order's total back: the shopper must hear it.
    task = draw_account_task(4100, 0, AccountSlot("cancel", 1, "mixed"), CATALOG)
    assert required_facts(task, CATALOG)
    transcript, _ = play_with_tools(task, *desk(task, tell=False), catalog=CATALOG)
    result = score(task, transcript, CATALOG)
    assert result.constraint_score == 0.0
    assert f"never told {required_facts(task, CATALOG)[0]!r}" in result.constraint_reason


def test_a_gold_action_that_fails_on_a_fresh_store_is_named() -> None:
    task = multi()
    data: dict[str, Any] = task.model_dump(mode="json")
    data["gold_actions"][1]["arguments"]["order_id"] = "o_missing"
    broken = GroceryTask.model_validate(data)
    with pytest.raises(GroceryScoringError, match=r"gold action 1 \(.*\) fails on a fresh store"):
        gold_state(broken, CATALOG)


def test_an_account_task_needs_its_account_gold_and_requests() -> None:
    data = multi().model_dump(mode="json")
    for field, expected in (
        ("gold_actions", "needs gold_actions"),
        ("requests", "needs requests"),
        ("account", "needs account"),
    ):
        broken = {**data, field: [] if field != "account" else None}
        with pytest.raises(ValueError, match=expected):
            GroceryTask.model_validate(broken)
