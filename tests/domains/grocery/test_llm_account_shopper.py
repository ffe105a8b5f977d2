"""The account shopper's LLM mode (`litellm:<model>` on an account task): a model reader and writer around the account engine, over real loopback HTTP.

Its reader's fallbacks are tested with the shopping shopper's (`test_llm_shopper.py`).

The reader and writer are the model server's stand-ins (`taurec-shopper`), answering as a
provider would; planted faults are a small handler that wraps them. No mocks: every call goes
through the client path a run uses.
"""

from __future__ import annotations

import json
from itertools import product

from domains.grocery.tasks import ACCOUNT_KINDS, GroceryTask
from domains.grocery.user import build_user
from domains.grocery.user.account_model import (
    ACCOUNT_READER_PROMPT,
    account_facts,
    account_leaks,
)
from runner.core.transcript import MessageEvent
from runner.models.llm_client import run_closing_clients as run
from tests.domains.grocery.planted import Planted
from tests.domains.grocery.test_llm_shopper import (  # the planted stand-ins: both shoppers'
    CATALOG,
    FAST,
    GREETING,
    TASKS,
    acts,
    trial,
)

ACCOUNT = [t for t in TASKS.values() if t.kind in ACCOUNT_KINDS]


def _first(kind: str, reveal: str | None = None) -> GroceryTask:
    return next(t for t in ACCOUNT if t.kind == kind and reveal in (None, t.reveal_difficulty))


def test_account_llm_mode_is_the_scripted_shopper_with_no_fallback(server: str) -> None:
    options = {"api_base": server}
    for task, agent, seed in product(
        [_first(k) for k in sorted(ACCOUNT_KINDS)],
        ["expert", "heuristic", "consent-forger"],
        (0, 1),
    ):
        llm = trial(task, seed, agent, "litellm:openai/taurec-shopper", options)
        assert llm.usage["user:openai/taurec-shopper"].calls >= 2, llm.simulator
        assert not llm.simulator_notes, (task.id, agent, seed, llm.simulator_notes)
        # The engine decides, the stand-ins read as the rules and word as the grammar: the whole
        # conversation, the shopper's scored acts (its yes) included, is the scripted one.
        scripted = trial(task, seed, agent)
        assert (llm.messages, acts(llm), llm.stop_reason) == (
            scripted.messages,
            acts(scripted),
            scripted.stop_reason,
        )


def test_a_writer_that_says_who_the_shopper_is_unasked_is_caught(
    planted: tuple[str, type[Planted]],
) -> None:
    url, handler = planted
    task = next(
        t
        for t in ACCOUNT
        if t.kind == "cancel" and t.reveal_difficulty == "hidden" and t.identify_by == "email"
    )
    assert task.account is not None
    me = task.account.shopper
    handler.mode, handler.leak = "leaky_writer", f"My email is {me.email}."
    options = {"api_base": url, "retry": FAST}
    users = {
        mode: build_user(mode, task=task, catalog=CATALOG, seed=0, options=given)
        for mode, given in (("litellm:openai/x", options), ("scripted", None))
    }
    user = users["litellm:openai/x"]
    conversation = [MessageEvent(role="agent", content=GREETING)]
    turn = run(user.respond(conversation))
    # The opening of a hidden task says nothing of who the shopper is: the template's words.
    assert turn.content == run(users["scripted"].respond(conversation)).content
    assert me.email not in turn.content
    [note] = turn.notes
    assert (note.component, note.reason) == ("writer", "leak")
    assert "email" in note.detail
    # Once the agent asks, the same words are no leak: the act carries the email.
    conversation += [
        MessageEvent(role="user", content=turn.content),
        MessageEvent(role="agent", content="Sure. What's the email on your account?"),
    ]
    asked = run(user.respond(conversation))
    assert me.email in asked.content
    assert asked.notes == []
    # A whole trial: every catch is counted, and the shopper's scored acts are the scripted ones.
    leaky = trial(task, 0, "expert", "litellm:openai/x", options)
    assert any(n.reason == "leak" for n in leaky.simulator_notes)
    scripted_trial = trial(task, 0, "expert")
    assert acts(leaky) == acts(scripted_trial)
    assert leaky.stop_reason == scripted_trial.stop_reason


def test_a_vague_shoppers_order_id_and_the_sum_are_leaks_until_said() -> None:
    task = _first("cancel")
    assert task.account is not None
    order = task.requests[0].order_id
    assert order is not None
    facts = account_facts(task, CATALOG)
    said = f"I'd like to cancel order {order}."
    vague = "I'd like to cancel one of my orders."
    assert any(order in leak for leak in account_leaks(facts, said, vague, "Hello!"))
    # Said by the template (the act carries it) or by the agent first: no leak.
    assert account_leaks(facts, said, said, "") == []
    assert account_leaks(facts, said, vague, f"Is it order {order}?") == []
    total = next(o.total for o in task.account.orders if o.order_id == order)
    refund = f"Cancel it, and I get €{total:.2f} back."
    assert any(f"{total:.2f}" in leak for leak in account_leaks(facts, refund, vague, ""))


def test_the_account_reader_request_names_the_orders_and_a_closed_schema(
    planted: tuple[str, type[Planted]],
) -> None:
    url, handler = planted
    task = _first("cancel")
    assert task.account is not None
    order = task.account.orders[0].order_id
    user = build_user(
        "litellm:openai/x", task=task, catalog=CATALOG, seed=0, options={"api_base": url}
    )
    opening = run(user.respond([MessageEvent(role="agent", content=GREETING)])).content
    conversation = [
        MessageEvent(role="agent", content=GREETING),
        MessageEvent(role="user", content=opening),
        MessageEvent(role="agent", content=f"Which order is it, {order}? And why?"),
    ]
    turn = run(user.respond(conversation))
    request = next(
        r for r in handler.requests if r["messages"][0]["content"] == ACCOUNT_READER_PROMPT
    )
    payload = json.loads(request["messages"][1]["content"])
    assert payload["orders"] == [order]
    schema = request["response_format"]["json_schema"]["schema"]
    assert schema["required"] == ["asked", "asks_yes", "reports", "transfer", "refuses"]
    assert schema["properties"]["asked"]["items"]["enum"] == [
        "who", "order", "items", "address", "reason", "payment"
    ]  # fmt: skip
    assert schema["properties"]["refuses"]["items"]["enum"] == [
        "processed", "past_window", "modified_once", "refund_elsewhere", "other_product"
    ]  # fmt: skip
    assert turn.notes == []
