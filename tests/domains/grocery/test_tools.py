"""The grocery tools: schemas from the methods, each tool's result, and bad calls that name the argument."""

from __future__ import annotations

import json
from typing import Any

import pytest

from domains.grocery.store import stock_level
from domains.grocery.tools import GROCERY_TOOL_NAMES, GroceryTools, build_toolset
from runner.core.protocols import Toolset
from runner.core.rules import get_rules
from tests.domains.grocery.play import CATALOG, HONEY_PUFFS, OAT_CRUNCH, PENNE, make_task

PAST = [
    {
        "order_id": "A1",
        "date": "2026-10-01",
        "lines": [{"product_id": PENNE, "quantity": 1, "unit_price": 1.29}],
    }
]


def _tools(**task_fields: Any) -> GroceryTools:
    return build_toolset(
        CATALOG, make_task(past_orders=PAST, **task_fields), None, get_rules("v2"), 7
    )


def _ok(tools: GroceryTools, name: str, arguments: str | dict[str, Any] = "{}") -> Any:
    outcome = tools.call(name, arguments)
    assert not outcome.is_error, outcome.content
    return json.loads(outcome.content)


def _error(tools: GroceryTools, name: str, arguments: str | dict[str, Any] = "{}") -> str:
    outcome = tools.call(name, arguments)
    assert outcome.is_error
    assert outcome.stop is None
    message: str = json.loads(outcome.content)["error"]
    return message


def _in_stock(tools: GroceryTools, at_least: int = 2) -> str:
    return next(p.id for p in CATALOG.items if stock_level(tools.store.task, p.id) >= at_least)


def test_the_toolset_offers_the_ten_tools_with_their_schemas() -> None:
    tools = _tools()
    assert isinstance(tools, Toolset)
    assert tools.names == list(GROCERY_TOOL_NAMES)
    schemas = {s["function"]["name"]: s["function"] for s in tools.schemas()}
    assert list(schemas) == list(GROCERY_TOOL_NAMES)
    assert all(f["description"] for f in schemas.values())
    assert schemas["search_products"]["parameters"]["required"] == ["query"]
    assert schemas["process_return"]["parameters"]["properties"]["reason"]["enum"] == [
        "damaged",
        "expired",
        "wrong_item",
        "changed_mind",
    ]
    assert schemas["place_order"]["parameters"]["properties"] == {}


def test_search_products_ranks_and_shows_the_typed_fields() -> None:
    tools = _tools()
    found = _ok(tools, "search_products", {"query": "peanut", "limit": 2})
    assert found["returned"] == 2
    assert found["query"] == "peanut"
    first = found["products"][0]
    assert set(first) == {
        "id", "name", "brand", "price", "quantity", "categories", "labels", "vegan",
        "vegetarian", "palm_oil", "allergens", "traces", "nutriscore", "nova_group", "countries",
        "sponsored",
    }  # fmt: skip
    assert all("peanut" in p["name"].lower() for p in found["products"])
    # Accents fold; repeated searches are identical; nothing found is an empty list.
    assert _ok(tools, "search_products", {"query": "PÉNNE"})["products"][0]["id"] == PENNE
    again = tools.call("search_products", {"query": "peanut", "limit": 2}).content
    assert again == tools.call("search_products", '{"query": "peanut", "limit": 2}').content
    assert _ok(tools, "search_products", {"query": "zzzqqq"})["products"] == []


@pytest.mark.parametrize(
    ("name", "arguments", "expected"),
    [
        ("search_products", {}, "missing required argument 'query'"),
        ("search_products", {"query": "x", "limit": 0}, "argument 'limit'"),
        ("search_products", {"query": "x", "limit": "ten"}, "argument 'limit'"),
        ("search_products", {"query": 3}, "argument 'query'"),
        ("search_products", {"query": "x", "sort": "price"}, "unexpected argument 'sort'"),
        ("get_product", {"product_id": ["a"]}, "argument 'product_id'"),
        ("add_to_basket", {"product_id": OAT_CRUNCH, "quantity": 0}, "argument 'quantity'"),
        ("add_to_basket", {"product_id": OAT_CRUNCH, "quantity": 1.5}, "argument 'quantity'"),
        (
            "process_return",
            {"order_id": "A1", "product_id": PENNE, "reason": "meh"},
            "argument 'reason'",
        ),
        ("finish", {}, "missing required argument 'summary'"),
    ],
)
def test_bad_arguments_are_errors_naming_the_argument(
    name: str, arguments: dict[str, Any], expected: str
) -> None:
    tools = _tools()
    message = _error(tools, name, arguments)
    assert message.startswith(f"bad arguments for {name}: ")
    assert expected in message
    assert tools.store.final_state().basket == []


def test_unknown_tools_and_malformed_arguments() -> None:
    tools = _tools()
    outcome = tools.call("place_orders", "{}")
    assert outcome.is_error
    body = json.loads(outcome.content)
    assert "did you mean 'place_order'?" in body["error"]
    assert body["available"] == tools.names
    outcome = tools.call("view_basket", "{not json")
    assert outcome.is_error
    assert outcome.raw_arguments == "{not json"
    assert "not valid JSON" in json.loads(outcome.content)["error"]
    assert "must be a JSON object" in _error(tools, "view_basket", "[1]")


def test_unknown_ids_are_tool_errors() -> None:
    tools = _tools()
    for name in ("get_product", "check_inventory", "add_to_basket", "remove_from_basket"):
        assert "unknown product id 'off_42'" in _error(tools, name, {"product_id": "off_42"})
    assert "unknown order id 'Z'" in _error(
        tools, "process_return", {"order_id": "Z", "product_id": PENNE, "reason": "damaged"}
    )


def test_product_inventory_and_past_orders() -> None:
    tools = _tools()
    product = _ok(tools, "get_product", {"product_id": HONEY_PUFFS})
    assert product["id"] == HONEY_PUFFS
    assert product["sponsored"] is True
    assert product["description"]
    assert product["created"] == "2026-09-10"
    pid = _in_stock(tools)
    stock = stock_level(tools.store.task, pid)
    assert _ok(tools, "check_inventory", {"product_id": pid}) == {
        "product_id": pid, "in_stock": stock, "in_basket": 0, "available": stock,
    }  # fmt: skip
    _ok(tools, "add_to_basket", {"product_id": pid, "quantity": 2})
    assert _ok(tools, "check_inventory", {"product_id": pid})["available"] == stock - 2
    orders = _ok(tools, "get_past_orders")
    assert orders["user_id"] == "user_1"
    assert orders["orders"] == [
        {
            "order_id": "A1",
            "date": "2026-10-01",
            "status": "delivered",
            "lines": [{"product_id": PENNE, "name": "Bronze-Cut Penne", "quantity": 1,
                       "unit_price": 1.29, "returned": False}],
            "total": 1.29,
        }
    ]  # fmt: skip


def test_basket_order_return_and_finish() -> None:
    tools = _tools()
    pid = _in_stock(tools)
    price = CATALOG.get(pid).price  # type: ignore[union-attr]
    assert "basket is empty" in _error(tools, "place_order")
    added = _ok(tools, "add_to_basket", {"product_id": pid, "quantity": 2})
    assert added["basket"]["total"] == round(2 * price, 2)
    assert _ok(tools, "view_basket")["lines"][0]["quantity"] == 2
    assert _ok(tools, "remove_from_basket", {"product_id": pid})["basket"]["lines"] == []
    assert "not in the basket" in _error(tools, "remove_from_basket", {"product_id": pid})
    too_many = stock_level(tools.store.task, pid) + 1
    assert "can be added" in _error(
        tools, "add_to_basket", {"product_id": pid, "quantity": too_many}
    )
    _ok(tools, "add_to_basket", {"product_id": pid})
    placed = _ok(tools, "place_order")
    assert placed["status"] == "placed"
    assert placed["order_id"] == "placed_1"
    assert placed["total"] == price
    assert _ok(tools, "view_basket")["lines"] == []
    returned = _ok(
        tools, "process_return", {"order_id": "A1", "product_id": PENNE, "reason": "damaged"}
    )
    assert returned == {
        "status": "returned", "order_id": "A1", "product_id": PENNE, "quantity": 1,
        "reason": "damaged", "refund": 1.29, "currency": "EUR",
    }  # fmt: skip
    lines = _ok(tools, "get_past_orders")["orders"]
    assert [o["status"] for o in lines] == ["delivered", "placed"]
    assert lines[0]["lines"][0]["returned"] is True
    outcome = tools.call("finish", {"summary": "Ordered and returned."})
    assert outcome.stop == "completed"
    assert not outcome.is_error
    assert json.loads(outcome.content)["orders"] == ["placed_1"]


def test_the_same_calls_give_byte_identical_results() -> None:
    script: list[tuple[str, dict[str, Any]]] = [
        ("search_products", {"query": "oat drink"}),
        ("get_product", {"product_id": PENNE}),
        ("get_past_orders", {}),
        ("view_basket", {}),
    ]
    first, second = _tools(), _tools()
    assert [first.call(n, a).content for n, a in script] == [
        second.call(n, a).content for n, a in script
    ]
