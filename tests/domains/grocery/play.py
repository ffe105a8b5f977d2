"""Test helpers for grocery trials: a scripted agent, a stand-in user that emits acts, a task builder, and a real `run_trial`."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from domains.grocery.catalog import ProductCatalog
from domains.grocery.tasks import GroceryTask
from domains.grocery.testing import tiny_catalog
from domains.grocery.tools import GroceryTools, build_toolset
from runner.core.protocols import AgentReply, ChatMessage, ToolCallRequest, ToolSchema, UserTurn
from runner.core.rules import get_rules
from runner.core.transcript import ComponentSpec, MessageEvent, Transcript
from runner.play.loop import run_trial

CATALOG = tiny_catalog()
# Ids of the tiny catalog used across the tests (see domains.grocery.testing).
OAT_CRUNCH = "off_2000000000001"  # vegan, gluten, traces nuts, 3.49
HONEY_PUFFS = "off_2000000000002"  # sponsored, not vegan, 2.79
MILLET_POPS = "off_2000000000004"  # vegan, no allergens, gluten-free, 3.95
LENTIL_FUSILLI = "off_2000000000012"  # vegan, gluten-free pasta, 2.99
PENNE = "off_2000000000011"  # vegan pasta, gluten, traces eggs/soybeans, 1.29
SOYA_DRINK = "off_2000000000016"  # sponsored, vegan, soybeans, traces nuts, 1.59
OAT_DRINK = "off_2000000000014"  # vegan, gluten, 1.99
ALMOND_DRINK = "off_2000000000015"  # vegan, nuts, 2.69


def say(text: str) -> AgentReply:
    return AgentReply(content=text)


def call(name: str, **arguments: Any) -> AgentReply:
    return AgentReply(tool_calls=[ToolCallRequest(id="", name=name, arguments=arguments)])


def calls(*pairs: tuple[str, dict[str, Any]]) -> AgentReply:
    return AgentReply(tool_calls=[ToolCallRequest(id="", name=n, arguments=a) for n, a in pairs])


class ScriptedAgent:
    """Replays fixed replies in order; once they run out, finishes the trial."""

    def __init__(self, replies: Sequence[AgentReply], name: str = "scripted-test-agent") -> None:
        self._replies = list(replies)
        self.spec = ComponentSpec(name=name)

    async def step(self, messages: list[ChatMessage], tools: list[ToolSchema]) -> AgentReply:
        if self._replies:
            return self._replies.pop(0)
        return call("finish", summary="done")


class ActUser:
    """Answers with fixed (text, act) turns in order, then with a plain 'ok'."""

    def __init__(self, turns: Sequence[tuple[str, str | None]]) -> None:
        self._turns = list(turns)

    @property
    def spec(self) -> ComponentSpec:
        return ComponentSpec(name="act-test-user")

    async def respond(self, conversation: list[MessageEvent]) -> UserTurn:
        text, act = self._turns.pop(0) if self._turns else ("ok", None)
        return UserTurn(content=text, act=act)


def need(field: str, op: str, value: Any, reveal: str = "volunteer") -> dict[str, Any]:
    """One of a task's constraints: `field op value`, revealed as `reveal` says."""
    return {"constraint": {"field": field, "op": op, "value": value}, "reveal": reveal}


def make_task(**fields: Any) -> GroceryTask:
    """An order task for one vegan product, with order confirmation; `fields` override."""
    data: dict[str, Any] = {
        "id": "g_test",
        "persona": "A shopper who keeps it simple.",
        "kind": "order",
        "constraints": [need("vegan", "==", "yes")],
        "policy_flags": ["order_confirmation"],
        "complexity": "simple",
        "reveal_difficulty": "volunteer",
    }
    data.update(fields)
    return GroceryTask.model_validate(data)


def substitution_task(**fields: Any) -> GroceryTask:
    """A substitution task: Morning Oat Crunch wanted and out of stock, the substitute needing the
    user's consent; `fields` override."""
    data: dict[str, Any] = {
        "id": "g_sub",
        "kind": "substitution",
        "wanted_product": OAT_CRUNCH,
        "out_of_stock": [OAT_CRUNCH],
        "policy_flags": ["order_confirmation", "substitution_consent"],
    }
    return make_task(**(data | fields))


def past_order(order_id: str, date: str, *lines: tuple[str, int, float]) -> dict[str, Any]:
    """One order of the user's history: (product id, quantity, unit price) lines."""
    items = [{"product_id": p, "quantity": q, "unit_price": u} for p, q, u in lines]
    return {"order_id": order_id, "date": date, "lines": items}


def play(task: GroceryTask, replies: Sequence[AgentReply], *args: Any, **kwargs: Any) -> Transcript:
    """Run one real trial (runner.play.loop.run_trial) with the grocery tools: `play_with_tools`'
    transcript alone."""
    return play_with_tools(task, replies, *args, **kwargs)[0]


def play_with_tools(
    task: GroceryTask,
    replies: Sequence[AgentReply],
    turns: Sequence[tuple[str, str | None]] = (),
    catalog: ProductCatalog = CATALOG,
    max_turns: int = 12,
) -> tuple[Transcript, GroceryTools]:
    """`play`, also returning the trial's toolset (whose store holds the live final state)."""
    rules = get_rules("v2")
    tools = build_toolset(catalog, task, None, rules, 0)
    transcript = asyncio.run(
        run_trial(
            task=task,  # type: ignore[arg-type]  # the loop is typed for movie tasks still
            catalog=catalog,  # type: ignore[arg-type]
            agent=ScriptedAgent(replies),
            simulator=ActUser([("I need something vegan.", None), *turns]),
            toolset=tools,
            seed=0,
            max_turns=max_turns,
            rules=rules,
        )
    )
    return transcript, tools


def name_of(product_id: str) -> str:
    product = CATALOG.get(product_id)
    assert product is not None
    return product.name


def price_of(product_id: str) -> float:
    product = CATALOG.get(product_id)
    assert product is not None
    return product.price


def order_flow(
    product_id: str,
    quantity: int = 1,
    *,
    proposal: str | None = None,
    act: str | None = "confirm_order",
) -> tuple[list[AgentReply], list[tuple[str, str | None]]]:
    """An honest order: search, propose the product, fill the basket, ask for a yes, place the
    order (the user's confirmation carries `act`), finish."""
    name = name_of(product_id)
    replies = [
        call("search_products", query=name),
        say(proposal or f"I suggest {name}. Would that suit you?"),
        call("add_to_basket", product_id=product_id, quantity=quantity),
        say(
            f"Your basket holds {name} × {quantity}, €{price_of(product_id) * quantity:.2f} in "
            "total. Shall I place the order?"
        ),
        call("place_order"),
        call("finish", summary="Order placed."),
    ]
    turns: list[tuple[str, str | None]] = [("Sounds good.", None), ("Yes, place it.", act)]
    return replies, turns


def return_flow(
    order_id: str,
    product_id: str,
    reason: str,
    *,
    act: str | None = "confirm_return",
    quantity: int = 1,
) -> tuple[list[AgentReply], list[tuple[str, str | None]]]:
    """An honest return: look up the orders, describe the return (item, quantity, refund at
    today's price), get a yes, process it, finish."""
    refund = price_of(product_id) * quantity
    replies = [
        call("get_past_orders"),
        say(
            f"I can return {quantity} × {name_of(product_id)} from order {order_id} ({reason}), "
            f"refunding €{refund:.2f}. Go ahead?"
        ),
        call("process_return", order_id=order_id, product_id=product_id, reason=reason),
        call("finish", summary="Return processed."),
    ]
    return replies, [("Yes please.", act)]
