"""The account tools: authentication first, reads of the shopper's own account, and every write tool refusing misuse with a message naming the field and value while the store stays as it was."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from domains.grocery.accounts import Account, AccountOrder, variants_of
from domains.grocery.catalog import load_catalog
from domains.grocery.history import draw_account
from domains.grocery.policies import CONFIRMED_ACCOUNT_TOOLS
from domains.grocery.tasks import GroceryTask
from domains.grocery.tools import ACCOUNT_WRITE_TOOLS, WRITE_TOOLS, GroceryTools
from runner.kits.store.store import Action

SNAPSHOT = Path(__file__).resolve().parents[3] / "domains/grocery/snapshots/2026-11-01"
CATALOG = load_catalog(SNAPSHOT)


def account_task(seed: int = 11, empty_gift_card: bool = False) -> GroceryTask:
    """A cancel task over a drawn history (what the tools need: the account), its gift cards
    emptied on request."""
    account = draw_account(seed, "test|0", random.Random(seed), CATALOG)
    if empty_gift_card:
        data = account.model_dump(mode="json")
        for profile in data["profiles"]:
            for method in profile["payment_methods"]:
                if method["kind"] == "gift_card":
                    method["balance"] = 0.0
        account = Account.model_validate(data)
    return GroceryTask.model_validate(
        {
            "id": "g_account",
            "persona": "A shopper with an account.",
            "kind": "cancel",
            "policy_flags": ["account_confirmation"],
            "complexity": "simple",
            "reveal_difficulty": "volunteer",
            "user_id": account.shopper.user_id,
            "account": account.model_dump(mode="json"),
            "gold_actions": [
                {"name": "find_user_by_email", "arguments": {"email": account.shopper.email}}
            ],
            "requests": [
                {
                    "kind": "cancel",
                    "order_id": mine(account, "pending").order_id,
                    "reason": "no_longer_needed",
                }
            ],
        }
    )


def signed_in(seed: int = 11, empty_gift_card: bool = False) -> tuple[GroceryTools, Account]:
    task = account_task(seed, empty_gift_card)
    assert task.account is not None
    tools = GroceryTools(CATALOG, task)
    outcome = tools.call("find_user_by_email", {"email": task.account.shopper.email})
    assert not outcome.is_error, outcome.content
    return tools, task.account


def mine(account: Account, status: str) -> AccountOrder:
    me = account.shopper.user_id
    return next(
        o for o in account.orders if o.user_id == me and o.status == status and not o.items_modified
    )


def theirs(account: Account, status: str) -> AccountOrder:
    other = account.profiles[1].user_id
    return next(o for o in account.orders if o.user_id == other and o.status == status)


def gift(account: Account) -> str:
    return next(m.payment_id for m in account.shopper.payment_methods if m.kind == "gift_card")


def result(tools: GroceryTools, name: str, **arguments: Any) -> dict[str, Any]:
    outcome = tools.call(name, arguments)
    assert not outcome.is_error, outcome.content
    parsed: dict[str, Any] = json.loads(outcome.content)
    return parsed


def test_every_account_write_is_replayed_and_reads_are_not() -> None:
    assert set(ACCOUNT_WRITE_TOOLS) <= WRITE_TOOLS
    assert set(ACCOUNT_WRITE_TOOLS) >= CONFIRMED_ACCOUNT_TOOLS
    assert not {"get_user_details", "get_order_details", "get_product_variants"} & WRITE_TOOLS


def test_the_shopper_is_found_by_name_and_zip_and_sees_only_their_own_account() -> None:
    task = account_task()
    assert task.account is not None
    me = task.account.shopper
    tools = GroceryTools(CATALOG, task)
    found = result(
        tools,
        "find_user_by_name_zip",
        first_name=me.first_name,
        last_name=me.last_name,
        zip=me.address.zip,
    )
    assert found == {"user_id": me.user_id}
    details = result(tools, "get_user_details", user_id=me.user_id)
    assert details["email"] == me.email
    assert details["today"] == "2026-11-01"  # the store's date, for the 30-day window
    assert {o["order_id"] for o in details["orders"]} == {
        o.order_id for o in task.account.orders if o.user_id == me.user_id
    }
    pending = mine(task.account, "pending")
    order = result(tools, "get_order_details", order_id=pending.order_id)
    assert order["status"] == "pending"
    assert order["total"] == pending.total
    assert all("name" in line and "size" in line for line in order["lines"])


def test_a_cancel_and_an_exchange_change_the_final_state() -> None:
    tools, account = signed_in()
    pending, delivered = mine(account, "pending"), mine(account, "delivered")
    result(tools, "cancel_pending_order", order_id=pending.order_id, reason="ordered_by_mistake")
    line = next(x for x in delivered.lines if variants_of(CATALOG, x.product_id))
    new = variants_of(CATALOG, line.product_id)[0]
    exchanged = result(
        tools,
        "exchange_delivered_order_items",
        order_id=delivered.order_id,
        swaps=[{"product_id": line.product_id, "new_product_id": new, "quantity": 1}],
        payment_id=delivered.payment_id,
    )
    assert exchanged["status"] == "exchange_requested"
    state = tools.store.final_state().account
    assert state is not None
    statuses = {o.order_id: o.status for o in state.orders}
    assert statuses[pending.order_id] == "cancelled"
    assert statuses[delivered.order_id] == "exchange_requested"


def test_transfer_to_human_ends_the_trial_once() -> None:
    tools, _ = signed_in()
    outcome = tools.call(
        "transfer_to_human", {"summary": "wants a refund to a closed bank account"}
    )
    assert outcome.stop == "completed"
    assert json.loads(outcome.content)["status"] == "transferred"
    assert tools.store.final_state().account is not None
    again = tools.call("transfer_to_human", {"summary": "again"})
    assert again.is_error
    assert "already transferred" in again.content


def test_account_tools_on_a_task_without_an_account_are_refused() -> None:
    from tests.domains.grocery.play import CATALOG as TINY
    from tests.domains.grocery.play import make_task

    tools = GroceryTools(TINY, make_task())
    outcome = tools.call("find_user_by_email", {"email": "a@example.org"})
    assert outcome.is_error
    assert "no shopper account is on file" in outcome.content


# -- misuse: every write tool refuses, names the field and value, and changes nothing ----------


def _cases() -> list[tuple[str, str, str]]:
    """(tool, misuse, expected text): each built on the drawn history of `signed_in`."""
    return [
        ("find_user_by_email", "unknown email", "email 'ghost@example.org'"),
        ("find_user_by_name_zip", "wrong zip", "zip '00000'"),
        ("cancel_pending_order", "unauthenticated", "not authenticated"),
        ("cancel_pending_order", "wrong user", "is not an order of"),
        (
            "cancel_pending_order",
            "wrong status",
            "is delivered; this needs an order that is pending",
        ),
        (
            "cancel_pending_order",
            "double action",
            "is cancelled; this needs an order that is pending",
        ),
        ("cancel_pending_order", "bad id", "order_id 'o_nope': no such order"),
        ("cancel_pending_order", "bad reason", "argument 'reason'"),
        ("modify_pending_order_items", "unauthenticated", "not authenticated"),
        ("modify_pending_order_items", "wrong user", "is not an order of"),
        ("modify_pending_order_items", "wrong status", "is delivered"),
        ("modify_pending_order_items", "double action", "already modified once"),
        ("modify_pending_order_items", "bad id", "is not a line of order"),
        ("modify_pending_order_items", "not a variant", "is not a variant of"),
        ("modify_pending_order_items", "negative quantity", "quantity -1 for"),
        ("modify_pending_order_items", "short gift card", "gift card balance"),
        ("modify_pending_order_address", "unauthenticated", "not authenticated"),
        ("modify_pending_order_address", "wrong user", "is not an order of"),
        ("modify_pending_order_address", "wrong status", "is processed"),
        ("modify_pending_order_address", "double action", "already goes to"),
        ("modify_pending_order_address", "bad zip", "argument 'zip'"),
        ("modify_pending_order_payment", "unauthenticated", "not authenticated"),
        ("modify_pending_order_payment", "wrong user", "is not an order of"),
        ("modify_pending_order_payment", "wrong status", "is delivered"),
        ("modify_pending_order_payment", "double action", "already pays order"),
        ("modify_pending_order_payment", "bad id", "payment_id 'card_nope' is not one of"),
        ("modify_pending_order_payment", "short gift card", "gift card balance"),
        ("return_delivered_order_items", "unauthenticated", "not authenticated"),
        ("return_delivered_order_items", "wrong user", "is not an order of"),
        ("return_delivered_order_items", "wrong status", "is pending"),
        ("return_delivered_order_items", "double action", "is return_requested"),
        ("return_delivered_order_items", "bad id", "is not a line of order"),
        ("return_delivered_order_items", "negative quantity", "quantity -2 for"),
        ("return_delivered_order_items", "huge quantity", "quantity 1000000 for"),
        ("exchange_delivered_order_items", "unauthenticated", "not authenticated"),
        ("exchange_delivered_order_items", "wrong user", "is not an order of"),
        ("exchange_delivered_order_items", "wrong status", "is pending"),
        ("exchange_delivered_order_items", "double action", "is exchange_requested"),
        ("exchange_delivered_order_items", "bad id", "new_product_id 'off_0000000000000'"),
        ("exchange_delivered_order_items", "negative quantity", "quantity 0 for"),
        ("exchange_delivered_order_items", "huge quantity", "quantity 500 for"),
        ("modify_user_address", "unauthenticated", "not authenticated"),
        ("modify_user_address", "wrong user", "another shopper's account"),
        ("modify_user_address", "bad id", "user_id 'u_nope' is an unknown account"),
        ("modify_user_address", "double action", "is already the default address"),
        ("transfer_to_human", "double action", "already transferred"),
    ]


def _misuse(tools: GroceryTools, account: Account, tool: str, misuse: str) -> dict[str, Any]:
    """Set the stage for one misuse (earlier legal writes when the misuse is a repeat) and return
    the bad call's arguments."""
    me = account.shopper
    pending, delivered = mine(account, "pending"), mine(account, "delivered")
    target = pending if "pending" in tool else delivered
    if misuse == "wrong user":
        target = theirs(account, "pending" if "pending" in tool else "delivered")
    if misuse == "wrong status":
        if tool == "modify_pending_order_address":
            target = mine(account, "processed")
        else:
            target = delivered if "pending" in tool else pending
    line = next(x for x in target.lines if variants_of(CATALOG, x.product_id))
    variant = variants_of(CATALOG, line.product_id)[0]
    swap = {"product_id": line.product_id, "new_product_id": variant}
    address = {"street": "7 Beacon Row", "city": "Kingsferry", "zip": "40404"}
    args: dict[str, Any]
    if tool == "find_user_by_email":
        return {"email": "ghost@example.org"}
    if tool == "find_user_by_name_zip":
        return {"first_name": me.first_name, "last_name": me.last_name, "zip": "00000"}
    if tool == "transfer_to_human":
        result(tools, "transfer_to_human", summary="first")
        return {"summary": "second"}
    if tool == "cancel_pending_order":
        args = {"order_id": target.order_id, "reason": "no_longer_needed"}
        if misuse == "double action":
            result(tools, tool, **args)
        if misuse == "bad id":
            args["order_id"] = "o_nope"
        if misuse == "bad reason":
            args["reason"] = "too_expensive"
        return args
    if tool == "modify_pending_order_items":
        args = {"order_id": target.order_id, "swaps": [swap], "payment_id": target.payment_id}
        if misuse == "double action":
            result(tools, tool, **args)
            args["swaps"] = [{"product_id": variant, "new_product_id": line.product_id}]
        if misuse == "bad id":
            args["swaps"] = [{"product_id": "off_0000000000000", "new_product_id": variant}]
        if misuse == "not a variant":
            args["swaps"] = [{"product_id": line.product_id, "new_product_id": line.product_id}]
        if misuse == "negative quantity":
            args["swaps"] = [{**swap, "quantity": -1}]
        if misuse == "short gift card":
            # The dearest variant of any line, paid for a whole line from the gift card.
            dear = max(
                ((v, x) for x in target.lines for v in variants_of(CATALOG, x.product_id)),
                key=lambda vx: vx[1].quantity * (CATALOG.get(vx[0]).price - vx[1].unit_price),
            )
            assert dear[1].unit_price < CATALOG.get(dear[0]).price  # a charge, on an empty card
            args["swaps"] = [{"product_id": dear[1].product_id, "new_product_id": dear[0]}]
            args["payment_id"] = gift(account)
        return args
    if tool == "modify_pending_order_address":
        args = {"order_id": target.order_id, **address}
        if misuse == "double action":
            result(tools, tool, **args)
        if misuse == "bad zip":
            args["zip"] = "4040"
        return args
    if tool == "modify_pending_order_payment":
        others = [m.payment_id for m in me.payment_methods if m.payment_id != target.payment_id]
        args = {"order_id": target.order_id, "payment_id": others[0]}
        if misuse == "double action":
            args["payment_id"] = target.payment_id
        if misuse == "bad id":
            args["payment_id"] = "card_nope"
        if misuse == "short gift card":
            args["payment_id"] = gift(account)  # emptied by the test
        return args
    if tool == "return_delivered_order_items":
        args = {
            "order_id": target.order_id,
            "items": [{"product_id": line.product_id, "quantity": 1}],
            "refund_payment_id": target.payment_id,
        }
        if misuse == "double action":
            result(tools, tool, **args)
        if misuse == "bad id":
            args["items"] = [{"product_id": "off_0000000000000", "quantity": 1}]
        if misuse == "negative quantity":
            args["items"] = [{"product_id": line.product_id, "quantity": -2}]
        if misuse == "huge quantity":
            args["items"] = [{"product_id": line.product_id, "quantity": 1_000_000}]
        return args
    if tool == "exchange_delivered_order_items":
        args = {
            "order_id": target.order_id,
            "swaps": [{**swap, "quantity": 1}],
            "payment_id": target.payment_id,
        }
        if misuse == "double action":
            result(tools, tool, **args)
        if misuse == "bad id":
            args["swaps"] = [{**swap, "new_product_id": "off_0000000000000"}]
        if misuse == "negative quantity":
            args["swaps"] = [{**swap, "quantity": 0}]
        if misuse == "huge quantity":
            args["swaps"] = [{**swap, "quantity": 500}]
        return args
    assert tool == "modify_user_address"
    args = {"user_id": me.user_id, **address}
    if misuse == "double action":
        result(tools, tool, **args)
    if misuse == "wrong user":
        args["user_id"] = account.profiles[1].user_id
    if misuse == "bad id":
        args["user_id"] = "u_nope"
    return args


@pytest.mark.parametrize(("tool", "misuse", "expected"), _cases(), ids=lambda x: str(x))
def test_a_misused_write_is_refused_and_changes_nothing(
    tool: str, misuse: str, expected: str
) -> None:
    # Seed 13's pending order has a line with a dearer variant: a charge on an emptied gift card.
    short = misuse == "short gift card"
    tools, account = signed_in(13 if short else 11, empty_gift_card=short)
    if misuse == "unauthenticated":
        tools = GroceryTools(CATALOG, account_task())
    arguments = _misuse(tools, account, tool, misuse)
    before = tools.store.final_state().model_dump(mode="json")
    before_user = tools.store.accounts.user_id
    outcome = tools.call(tool, arguments)
    assert outcome.is_error, f"{tool} ({misuse}) was accepted: {outcome.content}"
    assert expected in json.loads(outcome.content)["error"]
    assert tools.store.final_state().model_dump(mode="json") == before
    assert tools.store.accounts.user_id == before_user


def test_where_a_refund_goes_is_the_policys_rule_not_the_tools() -> None:
    # τ²'s split: the tool checks ids, statuses and authentication; a refund to a method that
    # neither paid the order nor is a gift card breaks policy section 10, which the final-state
    # comparison catches, so the tool carries it out.
    for seed in range(11, 40):
        tools, account = signed_in(seed)
        order = mine(account, "delivered")
        elsewhere = [
            m.payment_id
            for m in account.shopper.payment_methods
            if m.kind != "gift_card" and m.payment_id != order.payment_id
        ]
        if elsewhere:
            break
    else:
        raise AssertionError("no drawn history has a second non-gift payment method")
    line = order.lines[0]
    done = result(
        tools,
        "return_delivered_order_items",
        order_id=order.order_id,
        items=[{"product_id": line.product_id, "quantity": 1}],
        refund_payment_id=elsewhere[0],
    )
    assert done["status"] == "return_requested"
    assert done["refunds"] == [{"payment_id": elsewhere[0], "amount": line.unit_price}]


def test_every_write_tool_has_misuse_cases() -> None:
    covered = {tool for tool, _, _ in _cases()}
    assert covered == set(ACCOUNT_WRITE_TOOLS)
    for tool in CONFIRMED_ACCOUNT_TOOLS:
        kinds = {m for t, m, _ in _cases() if t == tool}
        assert {"unauthenticated", "wrong user", "double action"} <= kinds, tool


def test_gold_actions_are_plain_actions() -> None:
    task = account_task()
    assert task.gold_actions == [
        Action(name="find_user_by_email", arguments={"email": task.account.shopper.email})
    ]  # type: ignore[union-attr]
