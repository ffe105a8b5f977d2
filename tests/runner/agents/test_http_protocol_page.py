"""The documented HTTP agent protocol page matches the pydantic models, and its examples are valid."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from runner.agents.http_protocol import (
    AgentStepRequest,
    AgentStepResponse,
    StepToolResult,
    protocol_schemas,
    render_page,
)
from runner.core.paths import SITE_DIR

PAGE = SITE_DIR / "pages" / "http-agent-protocol.md"
FENCE = re.compile(r'```(\w+)(?: title="([^"]*)")?\n(.*?)\n```', re.DOTALL)


def page_text() -> str:
    return PAGE.read_text(encoding="utf-8")


def blocks(kind: str) -> dict[str, str]:
    return {
        title: body for lang, title, body in FENCE.findall(page_text()) if lang == kind and title
    }


def test_documented_schemas_match_the_models() -> None:
    text = page_text()
    assert render_page(text) == text, (
        "site/pages/http-agent-protocol.md is out of date: run python -m runner.agents.http_protocol"
    )
    for name, schema in protocol_schemas().items():
        match = re.search(
            rf"<!-- BEGIN schema:{name} -->\n```json\n(.*?)\n```\n<!-- END schema:{name} -->",
            text,
            re.DOTALL,
        )
        assert match, f"no schema block for {name}"
        assert json.loads(match.group(1)) == schema


def test_a_changed_model_would_be_caught() -> None:
    text = page_text()
    tampered = text.replace('"title": "AgentStepResponse"', '"title": "AgentStepReply"')
    assert tampered != text
    assert render_page(tampered) != tampered


def test_worked_example_request_and_response_validate() -> None:
    examples = blocks("json")
    request = AgentStepRequest.model_validate_json(examples["request"])
    response = AgentStepResponse.model_validate_json(examples["response"])
    assert request.protocol_version == 1
    assert response.tool_calls[0].name in {t["function"]["name"] for t in request.tools}
    results = json.loads(examples["last_tool_results in the next request"])
    assert [StepToolResult.model_validate(r).tool_call_id for r in results] == ["call_1"]


def test_minimal_agent_example_speaks_the_protocol() -> None:
    namespace: dict[str, Any] = {"__name__": "minimal_agent"}
    exec(compile(blocks("python")["minimal_agent.py"], "minimal_agent.py", "exec"), namespace)
    handle = namespace["handle"]
    request = json.loads(blocks("json")["request"])
    first = AgentStepResponse.model_validate(handle(request))
    assert first.message
    assert not first.tool_calls

    request["messages"] += [
        {"role": "assistant", "content": first.message},
        {"role": "user", "content": "comedy"},
    ]
    second = AgentStepResponse.model_validate(handle(request))
    assert [c.name for c in second.tool_calls] == ["search_catalog"]

    request["last_tool_results"] = [
        {"tool_call_id": "s1", "name": "search_catalog", "content": '[{"id": "tmdb_100017"}]'}
    ]
    third = AgentStepResponse.model_validate(handle(request))
    assert third.tool_calls[0].arguments == {"item_id": "tmdb_100017"}


@pytest.mark.parametrize("name", ["request", "response"])
def test_schemas_forbid_unknown_fields(name: str) -> None:
    assert protocol_schemas()[name]["additionalProperties"] is False
