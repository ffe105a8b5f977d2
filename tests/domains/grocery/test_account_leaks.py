"""The whole-trial leak audit of account tasks (`domains.grocery.user.account_leaks.audit_account`): every account transcript, scripted or in LLM mode, is audited against its account's facts, and a planted leak is caught.

Trials are real (the loop, a baseline agent, the shopper); planted leaks are a real transcript
with one shopper message rewritten.
"""

from __future__ import annotations

from itertools import product

import pytest

from domains.grocery.tasks import GroceryTask
from domains.grocery.user.account_leaks import volunteered
from domains.grocery.user.leaks import audit_leaks
from runner.core.transcript import MessageEvent, Transcript
from tests.domains.grocery.test_llm_account_shopper import ACCOUNT
from tests.domains.grocery.test_llm_shopper import CATALOG, trial


def _plant(transcript: Transcript, index: int, words: str) -> Transcript:
    """The transcript with `words` added to the shopper message at event `index`."""
    events = list(transcript.events)
    event = events[index]
    assert isinstance(event, MessageEvent)
    assert event.role == "user"
    events[index] = event.model_copy(update={"content": f"{event.content} {words}"})
    return transcript.model_copy(update={"events": events})


def _user_indexes(transcript: Transcript) -> list[int]:
    return [
        i
        for i, e in enumerate(transcript.events)
        if isinstance(e, MessageEvent) and e.role == "user"
    ]


def _other_order(task: GroceryTask) -> str:
    """An order id of the account that no request names: never the shopper's to volunteer."""
    assert task.account is not None
    named = {r.order_id for r in task.requests}
    return next(o.order_id for o in task.account.orders if o.order_id not in named)


def _cancel_task() -> GroceryTask:
    """A cancel task whose account has an order no request names."""
    return next(
        t for t in ACCOUNT if t.kind == "cancel" and t.account and len(t.account.orders) > 1
    )


def test_every_scripted_account_trial_is_audited_and_clean() -> None:
    for task, agent, seed in product(ACCOUNT, ["expert", "heuristic", "consent-forger"], (0,)):
        transcript = trial(task, seed, agent)
        assert transcript.leak_audit is not None
        assert transcript.leak_audit.clean, (task.id, agent, transcript.leak_audit.leaks[:1])
        # The recorded audit is the account audit's, run again on the same transcript.
        assert audit_leaks(task, transcript, CATALOG) == transcript.leak_audit


def test_account_trials_in_llm_mode_are_audited_and_clean(server: str) -> None:
    options = {"api_base": server}
    for task in ACCOUNT[::6]:
        transcript = trial(task, 1, "expert", "litellm:openai/taurec-shopper", options)
        assert transcript.leak_audit is not None
        assert transcript.leak_audit.clean, (task.id, transcript.leak_audit.leaks[:1])


def test_an_order_id_or_a_sum_said_before_it_was_asked_is_caught() -> None:
    task = _cancel_task()
    assert task.account is not None
    transcript = trial(task, 0, "expert")
    opening = _user_indexes(transcript)[0]
    other = _other_order(task)
    leaks = audit_leaks(task, _plant(transcript, opening, f"Also my order {other}."), CATALOG).leaks
    assert [(leak.field, leak.message_index) for leak in leaks] == [("order", opening)]
    assert other in leaks[0].excerpt
    assert "order id" in leaks[0].reason
    # The order's total: a sum the agent has not said, and never the shopper's to give.
    total = next(o.total for o in task.account.orders if o.order_id == other)
    planted = _plant(transcript, opening, f"It cost me €{total:.2f}.")
    assert {leak.field for leak in audit_leaks(task, planted, CATALOG).leaks} == {"sum"}


def test_a_fact_said_after_its_question_or_after_the_agent_said_it_is_no_leak() -> None:
    task = _cancel_task()
    transcript = trial(task, 0, "expert")
    other = _other_order(task)
    events = list(transcript.events)
    first_user = _user_indexes(transcript)[0]
    asked = MessageEvent(role="agent", content="Which order is it about? The order id, please.")
    reply = MessageEvent(role="user", content=f"It's {other}.")
    events[first_user + 1 : first_user + 1] = [asked, reply]
    assert audit_leaks(task, transcript.model_copy(update={"events": events}), CATALOG).clean
    # The agent names it first (without asking): repeating it is no leak either.
    named = MessageEvent(role="agent", content=f"I see order {other} on the account.")
    events[first_user + 1] = named
    assert audit_leaks(task, transcript.model_copy(update={"events": events}), CATALOG).clean


def test_what_a_shopper_volunteers_follows_the_task() -> None:
    task = next(t for t in ACCOUNT if t.reveal_difficulty == "hidden")
    assert task.account is not None
    me = task.account.shopper
    free = volunteered(task, CATALOG, 0)
    # A hidden-stratum shopper says who they are only when asked; its requests' orders up front
    # unless it holds a pending one back.
    assert me.email not in free
    assert me.address.zip not in free
    assert task.requests[0].order_id in free or task.requests[0].kind in (
        "cancel",
        "modify_address",
        "modify_payment",
    )


def test_an_account_audit_without_the_catalog_is_a_clear_error() -> None:
    task = ACCOUNT[0]
    transcript = trial(task, 0, "expert")
    with pytest.raises(ValueError, match=rf"task {task.id}: the account leak audit needs"):
        audit_leaks(task, transcript)
