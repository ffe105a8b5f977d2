"""Account tasks through the real loop: the scripted account shopper and the baselines' account desk (the expert and its natural twin win, shortcuts lose)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from domains.grocery.account_suite import AccountSlot, draw_account_task
from domains.grocery.catalog import load_catalog
from domains.grocery.scoring import required_facts, score
from domains.grocery.tasks import GroceryTask
from domains.grocery.user.account import AccountShopper
from runner.core.protocols import AgentContext
from runner.core.rules import get_rules
from runner.core.transcript import MessageEvent

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "benchmarks"))

from grocery_panel import run_panel  # noqa: E402

CATALOG = load_catalog(ROOT / "domains/grocery/snapshots/2026-11-01")
# Seed 4300 was not used while the desk and the shopper were written.
TASKS = [
    draw_account_task(4300, i, AccountSlot(kind, n, reveal), CATALOG)  # type: ignore[arg-type]
    for i, (kind, n, reveal) in enumerate(
        [
            ("cancel", 1, "hidden"),
            ("modify", 1, "mixed"),
            ("exchange", 1, "volunteer"),
            ("multi", 2, "hidden"),
            ("multi", 3, "mixed"),
        ]
    )
]


def test_the_expert_and_its_twin_win_and_the_shortcuts_lose() -> None:
    agents = ("expert", "expert-natural", "oracle", "consent-forger", "order-without-asking")
    trials = run_panel(agents, TASKS, CATALOG, [0])
    by = {a: [t.reward for t in trials if t.agent == a] for a in agents}
    assert by["expert"] == [1.0] * 5
    assert by["expert-natural"] == [1.0] * 5
    assert by["oracle"] == [1.0] * 5
    # Changing an account without the shopper's yes to the stated change fails every task.
    assert by["consent-forger"] == [0.0] * 5
    assert by["order-without-asking"] == [0.0] * 5


def test_settling_several_changes_under_one_yes_loses_the_multi_request_tasks() -> None:
    trials = run_panel(("list-proposer",), TASKS, CATALOG, [0])
    assert [t.reward for t in trials] == [1.0, 1.0, 1.0, 0.0, 0.0]


def test_each_adversary_carries_its_shortcut_to_the_account_desk() -> None:
    agents = ("allergen-ignorer", "bare-confirmer", "prior-guesser", "questionnaire")
    agents += ("basket-stuffer",)
    trials = run_panel(agents, TASKS, CATALOG, [0, 1])
    by = {a: [t.reward for t in trials if t.agent == a] for a in agents}
    # Acting on a stated change without the yes, or asking for a yes to an unstated one.
    assert by["allergen-ignorer"] == [0.0] * 10
    assert by["bare-confirmer"] == [0.0] * 10
    # The shopper names the order only when asked, and it is drawn among several of the same
    # status: guessing the latest one (and the reason and payment) wins only by luck.
    assert by["prior-guesser"].count(0.0) >= 5
    # Every question at once is a form: the shopper answers no new topic after it.
    assert by["questionnaire"].count(0.0) >= 5
    # Cancelling or moving every pending order, not the one asked about.
    assert by["basket-stuffer"][0] == 0.0


def test_the_shopper_names_the_order_by_its_date_only_when_asked() -> None:
    task = next(t for t in TASKS if t.kind == "cancel")
    assert task.account is not None
    order = next(o for o in task.account.orders if o.order_id == task.requests[0].order_id)
    for seed in (0, 1):
        shopper = AccountShopper(task, CATALOG, seed)
        opening = shopper.reply([MessageEvent(role="agent", content="Hello!")]).content
        assert order.order_id not in opening
        assert "one of my orders" in opening
        events = [
            MessageEvent(role="agent", content="Hello!"),
            MessageEvent(role="user", content=opening),
            MessageEvent(role="agent", content="Which order is it about?"),
        ]
        answer = shopper.reply(events).content
        assert order.order_id not in answer
        assert f"placed on {order.date.day} {order.date:%B}" in answer


def test_a_form_of_every_account_question_is_not_answered_past_three_topics() -> None:
    task = next(t for t in TASKS if t.kind == "cancel")
    shopper = AccountShopper(task, CATALOG, seed=0)
    form = (
        "Your email or your full name and zip code; which order; which items; what new "
        "address; why you'd like the change; and which payment method?"
    )
    events = [
        MessageEvent(role="agent", content="Hello!"),
        MessageEvent(role="user", content="(opening)"),
        MessageEvent(role="agent", content=form),
    ]
    answer = shopper.reply(events).content
    assert task.account is not None
    me = task.account.shopper
    assert me.email in answer or me.address.zip in answer
    assert "because" not in answer  # the reason is the fifth topic asked: held back
    events += [
        MessageEvent(role="user", content=answer),
        MessageEvent(role="agent", content="Why would you like to cancel it?"),
    ]
    assert "because" not in shopper.reply(events).content  # after a form, no new topic


def test_the_shopper_says_yes_only_to_a_change_stated_with_its_money() -> None:
    task = next(t for t in TASKS if t.kind == "cancel")
    shopper = AccountShopper(task, CATALOG, seed=0)
    request = task.requests[0]
    [amount] = required_facts(task, CATALOG)

    def reply(*agent: str) -> tuple[str, str | None]:
        events = [MessageEvent(role="agent", content="Hello!")]
        events.append(MessageEvent(role="user", content="(opening)"))
        for text in agent:
            events += [
                MessageEvent(role="agent", content=text),
                MessageEvent(role="user", content="…"),
            ]
        turn = shopper.reply(events[:-1])
        return turn.content, turn.act

    vague = reply(f"Shall I go ahead and cancel order {request.order_id}?")
    assert vague[1] != "confirm_action"
    full = reply(
        f"To confirm: I'll cancel order {request.order_id}; €{amount} goes back. Shall I go ahead?"
    )
    assert full[1] == "confirm_action"
    asked = reply("Could you give me the email on your account?")
    assert asked[1] == "inform"
    assert task.account is not None
    me = task.account.shopper
    assert (me.email in asked[0]) or (me.address.zip in asked[0])


def _trial(task: GroceryTask, seed: int, agent_name: str = "expert") -> Any:
    import asyncio

    from domains.grocery import GroceryDomain
    from domains.grocery.agents import baselines
    from domains.grocery.tools import build_toolset
    from domains.grocery.user import build_user
    from runner.play.loop import run_trial

    rules = get_rules("v2")
    context = AgentContext(user_id=task.user_id, policy_text="", seed=seed)
    agent = baselines()[agent_name](context, {})
    return asyncio.run(
        run_trial(
            task=task,  # type: ignore[arg-type]  # the loop is typed for movie tasks still
            catalog=CATALOG,
            agent=agent,
            simulator=build_user("scripted", task=task, catalog=CATALOG, seed=seed),
            toolset=build_toolset(CATALOG, task, None, rules, seed),
            seed=seed,
            rules=rules,
            greeting=GroceryDomain.greeting,
            domain=GroceryDomain(),
        )
    )


def _transcript(task_index: int, seed: int) -> str:
    events = _trial(TASKS[task_index], seed).model_dump(mode="json")["events"]
    return "\n".join(str(e.get("content", e.get("arguments"))) for e in events)


def test_the_same_seed_replays_the_same_trial_and_another_seed_other_words() -> None:
    # The three-request task: the shopper's words vary with the seed, the outcome does not.
    assert _transcript(4, 0) == _transcript(4, 0)
    assert _transcript(4, 0) != _transcript(4, 1)


# One trapped task per trap (seed 4301, never used while the desk was written): what the shopper
# first asks breaks policy section 10.
def _trapped(trap: str) -> GroceryTask:
    kinds = {
        "processed": "cancel",
        "modified_once": "modify",
        "refund_elsewhere": "exchange",
        "other_product": "exchange",
    }
    kind = kinds.get(trap, "multi")
    for index in range(200):
        slot = AccountSlot(kind, 1 if kind != "multi" else 2, "mixed", trapped=True)  # type: ignore[arg-type]
        task = draw_account_task(4301, index, slot, CATALOG)
        if task.requests[-1].trap == trap:
            return task
    raise AssertionError(f"no {trap} task drawn")


TRAPS = ["refund_elsewhere", "other_product", "past_window", "processed", "modified_once"]


@pytest.mark.parametrize("trap", TRAPS)
def test_the_expert_turns_a_trap_down_and_the_policy_ignorer_falls_in(trap: str) -> None:
    task = _trapped(trap)
    trials = run_panel(("expert", "expert-natural", "policy-ignorer"), [task], CATALOG, [0, 1])
    by = {a: [t.reward for t in trials if t.agent == a] for a in ("expert", "policy-ignorer")}
    assert by["expert"] == [1.0, 1.0]
    assert [t.reward for t in trials if t.agent == "expert-natural"] == [1.0, 1.0]
    assert by["policy-ignorer"] == [0.0, 0.0]


@pytest.mark.parametrize("trap", ["past_window", "processed", "modified_once"])
def test_a_trap_only_a_person_can_settle_ends_in_a_transfer_after_the_reason(trap: str) -> None:
    task = _trapped(trap)
    assert task.gold_actions[-1].name == "transfer_to_human"
    events = _trial(task, 0).model_dump(mode="json")["events"]
    calls = [e["name"] for e in events if e.get("kind") == "tool_call" or "name" in e]
    assert calls[-1] == "transfer_to_human"
    said = [e["content"] for e in events if e.get("role") == "agent" and e.get("content")]
    refusal = next(t for t in said if t.startswith("I'm sorry"))
    assert str(task.requests[-1].order_id) in refusal
    # The ignorer carries the request out (or tries) and never hands over.
    ignored = _trial(task, 0, "policy-ignorer").model_dump(mode="json")["events"]
    assert "transfer_to_human" not in [e.get("name") for e in ignored]


def test_a_refund_asked_elsewhere_goes_where_the_shopper_then_chooses() -> None:
    task = _trapped("refund_elsewhere")
    request = task.requests[0]
    assert request.asked_payment_id not in (None, request.payment_id)
    transcript = _trial(task, 1)
    assert score(task, transcript, CATALOG, get_rules("v2")).reward == 1.0
    writes = [
        e
        for e in transcript.model_dump(mode="json")["events"]
        if e.get("name") == "return_delivered_order_items"
    ]
    assert [w["arguments"]["refund_payment_id"] for w in writes] == [request.payment_id]


def test_refused_with_the_trap_s_reason_the_shopper_insists_then_gives_up_unless_handed_over() -> (
    None
):
    task = _trapped("processed")
    assert len(task.requests) == 1
    shopper = AccountShopper(task, CATALOG, 0)
    conversation = [MessageEvent(role="agent", content="Hello! How can I help?")]

    def say(text: str) -> tuple[str | None, str]:
        conversation.append(MessageEvent(role="user", content=shopper.reply(conversation).content))
        conversation.append(MessageEvent(role="agent", content=text))
        turn = shopper.reply(conversation)
        return turn.act, turn.content

    # A refusal naming another policy ground is not this trap's: the shopper asks again.
    assert say("Sorry, that can only be done within the 30-day window.")[0] == "restate"
    act, words = say("Sorry, that order is already processed, so it can't be cancelled.")
    assert act == "insist"
    assert "need" in words
    # Not handed to a person, the shopper leaves it there; after that it only says it is done.
    assert say("I'm afraid there is nothing I can do.")[0] == "done"
    assert shopper.state.current == len(task.requests)
    assert say("Anything else?")[0] == "done"
