"""The agent tools: v1 behaviour, schemas generated from the definitions, and every kind of error."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pytest

from domains.movies.catalog import Catalog
from domains.movies.tools import FILTER_TOOL_NAME, V1_TOOL_NAMES, build_toolset, definition_of
from runner.core.protocols import Toolset
from runner.core.rules import get_rules
from runner.play.agent_config import ToolsetOptions

if TYPE_CHECKING:
    from .conftest import TaskFactory


@pytest.fixture
def tools(tiny_catalog: Catalog, make_task: TaskFactory) -> Toolset:
    return build_toolset(tiny_catalog, make_task(watched=["tmdb_5"]))


def _ok(toolset: Toolset, name: str, arguments: str | dict[str, Any]) -> Any:
    outcome = toolset.call(name, arguments)
    assert outcome.is_error is False, outcome.content
    return json.loads(outcome.content)


def _error(toolset: Toolset, name: str, arguments: str | dict[str, Any]) -> str:
    outcome = toolset.call(name, arguments)
    assert outcome.is_error is True
    assert outcome.stop is None
    message = json.loads(outcome.content)["error"]
    assert isinstance(message, str)
    return message


def test_default_toolset_is_exactly_the_v1_six(tools: Toolset) -> None:
    assert isinstance(tools, Toolset)
    assert tools.names == list(V1_TOOL_NAMES)
    assert FILTER_TOOL_NAME not in tools.names
    assert "unknown tool" in _error(tools, FILTER_TOOL_NAME, {"predicates": []})


def test_schema_lists_exactly_the_dispatchable_tools(
    tiny_catalog: Catalog, make_task: TaskFactory
) -> None:
    toolset = build_toolset(tiny_catalog, make_task(), ToolsetOptions(filter_catalog=True))
    schemas = toolset.schemas()
    assert (
        [s["function"]["name"] for s in schemas]
        == toolset.names
        == [
            *V1_TOOL_NAMES,
            FILTER_TOOL_NAME,
        ]
    )
    for schema in schemas:
        name = schema["function"]["name"]
        params = schema["function"]["parameters"]
        # The schema is generated from the method that runs: same parameter names.
        method = getattr(type(toolset), name)
        assert schema == definition_of(method).schema()
        assert list(params["properties"]) == list(definition_of(method).args_model.model_fields)
        assert params["additionalProperties"] is False
        assert schema["function"]["description"]
        assert "$defs" not in json.dumps(params)
        assert "$ref" not in json.dumps(params)
    recommend = next(s for s in schemas if s["function"]["name"] == "recommend")
    assert recommend["function"]["parameters"]["properties"]["item_id"]["type"] == [
        "string",
        "null",
    ]
    assert recommend["function"]["parameters"]["required"] == []


def test_search_and_metadata(tools: Toolset) -> None:
    results = _ok(tools, "search_catalog", '{"query": "paper kites"}')
    assert results[0]["id"] == "tmdb_4"
    meta = _ok(tools, "get_metadata", {"item_id": "tmdb_4"})
    assert meta["runtime"] == 84
    assert meta["streaming_services"] == ["Disney+"]
    assert meta["release_date"] == "2020-01-01"


def test_check_availability_returns_service_to_bool(tools: Toolset) -> None:
    assert _ok(tools, "check_availability", {"item_id": "tmdb_1", "services": ["Hulu", "Max"]}) == {
        "Hulu": True,
        "Max": False,
    }


def test_user_history_is_enriched_with_titles(tools: Toolset) -> None:
    history = _ok(tools, "get_user_history", {"user_id": "user_1"})
    assert history["watched"] == [{"id": "tmdb_5", "title": "Harbor Lights"}]
    assert "unknown user" in _error(tools, "get_user_history", {"user_id": "user_9"})


@pytest.mark.parametrize(("rating", "restricted"), [("R", True), ("NC-17", True), ("PG-13", False)])
def test_content_preference(tools: Toolset, rating: str, restricted: bool) -> None:
    result = _ok(tools, "check_content_preference", {"content_rating": rating})
    assert result["restricted"] is restricted
    assert result["message"]


@pytest.mark.parametrize(
    "arguments",
    [
        "{}",
        "",
        '{"item_id": null}',
        '{"item_id": "null"}',
        '{"item_id": "None"}',
        '{"item_id": ""}',
    ],
)
def test_recommend_without_an_id_abstains(tools: Toolset, arguments: str) -> None:
    outcome = tools.call("recommend", arguments)
    assert (outcome.is_error, outcome.stop, outcome.item_id) == (False, "abstained", None)


def test_recommend_a_known_id_stops_the_trial(tools: Toolset) -> None:
    outcome = tools.call("recommend", {"item_id": "tmdb_2"})
    assert (outcome.is_error, outcome.stop, outcome.item_id) == (False, "recommended", "tmdb_2")
    assert json.loads(outcome.content)["title"] == "The Copper Orbit"


def test_unknown_ids_are_errors_without_stop(tools: Toolset) -> None:
    for name, args in [
        ("recommend", {"item_id": "tmdb_999"}),
        ("get_metadata", {"item_id": "tmdb_999"}),
        ("check_availability", {"item_id": "tmdb_999", "services": ["Hulu"]}),
    ]:
        assert "unknown item id 'tmdb_999'" in _error(tools, name, args)


def test_malformed_json_keeps_the_raw_text(tools: Toolset) -> None:
    outcome = tools.call("search_catalog", '{"query": "kites"')
    assert outcome.is_error
    assert outcome.raw_arguments == '{"query": "kites"'
    assert "not valid JSON" in json.loads(outcome.content)["error"]


@pytest.mark.parametrize("arguments", ['["kites"]', '"kites"', "42"])
def test_non_object_arguments(tools: Toolset, arguments: str) -> None:
    assert "must be a JSON object" in _error(tools, "search_catalog", arguments)
    assert tools.call("search_catalog", arguments).raw_arguments == arguments


def test_missing_extra_and_wrongly_typed_arguments(tools: Toolset) -> None:
    assert "missing required argument 'query'" in _error(tools, "search_catalog", {})
    assert "unexpected argument 'limit'" in _error(
        tools, "search_catalog", {"query": "x", "limit": 3}
    )
    message = _error(tools, "check_availability", {"item_id": "tmdb_1", "services": "Hulu"})
    assert "'services'" in message
    assert "valid list" in message
    assert "'item_id'" in _error(tools, "recommend", {"item_id": 7})
    outcome = tools.call("search_catalog", {"query": 5})
    assert json.loads(outcome.content)["parameters"]["required"] == ["query"]
    assert outcome.arguments == {"query": 5}


def test_unknown_tool_suggests_the_closest(tools: Toolset) -> None:
    message = _error(tools, "search_catalogue", {"query": "x"})
    assert "unknown tool 'search_catalogue'" in message
    assert "search_catalog" in message


def test_unknown_content_rating_is_an_error(tools: Toolset) -> None:
    assert "unknown content rating 'r'" in _error(
        tools, "check_content_preference", {"content_rating": "r"}
    )


def test_filter_catalog_when_enabled(tiny_catalog: Catalog, make_task: TaskFactory) -> None:
    toolset = build_toolset(tiny_catalog, make_task(), ToolsetOptions(filter_catalog=True))
    result = _ok(
        toolset,
        FILTER_TOOL_NAME,
        {
            "predicates": [
                {"field": "genres", "op": "contains", "value": "Comedy"},
                {"field": "runtime", "op": "<=", "value": 100},
            ],
            "sort_by": "rating",
        },
    )
    assert result["total"] == 2
    assert [i["id"] for i in result["items"]] == ["tmdb_4", "tmdb_1"]
    assert result["items"][0]["runtime"] == 84
    capped = _ok(
        toolset,
        FILTER_TOOL_NAME,
        {"predicates": [{"field": "rating", "op": ">=", "value": 0}], "limit": 2},
    )
    assert (capped["total"], capped["returned"]) == (6, 2)
    assert [i["id"] for i in capped["items"]] == ["tmdb_1", "tmdb_2"]
    bad = _error(
        toolset,
        FILTER_TOOL_NAME,
        {"predicates": [{"field": "runtime", "op": "contains", "value": "long"}]},
    )
    assert "does not fit number field 'runtime'" in bad
    assert "not in the catalog schema" in _error(
        toolset, FILTER_TOOL_NAME, {"predicates": [{"field": "budget", "op": "==", "value": 1}]}
    )


def test_repeated_catalog_calls_share_one_outcome_but_never_across_rule_sets_or_tasks(
    tiny_catalog: Catalog, make_task: TaskFactory
) -> None:
    """The outcome cache is keyed by rule set and argument text, and skips task-bound tools."""
    v2_a = build_toolset(tiny_catalog, make_task(watched=["tmdb_5"]), rules=get_rules("v2"))
    v2_b = build_toolset(tiny_catalog, make_task(watched=["tmdb_1"]), rules=get_rules("v2"))
    v1 = build_toolset(tiny_catalog, make_task(), rules=get_rules("v1"))
    search = '{"query": "kites"}'
    assert v2_a.call("search_catalog", search) is v2_b.call("search_catalog", search)
    # The same text under another rule set: v2 refuses an extra argument, v1 ignores it.
    extra = '{"item_id": "tmdb_1", "verbose": true}'
    assert v2_a.call("get_metadata", extra).is_error is True
    assert v1.call("get_metadata", extra).is_error is False
    assert v2_b.call("get_metadata", extra).is_error is True
    # Another task's user: its own history, never the first task's.
    history = '{"user_id": "user_1"}'
    assert [w["id"] for w in _ok(v2_a, "get_user_history", history)["watched"]] == ["tmdb_5"]
    assert [w["id"] for w in _ok(v2_b, "get_user_history", history)["watched"]] == ["tmdb_1"]
    # recommend still ends each trial on its own.
    assert v2_a.call("recommend", '{"item_id": "tmdb_1"}').stop == "recommended"
