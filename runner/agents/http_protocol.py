"""The wire protocol of the `http` agent: one JSON request per agent step and the reply it expects."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

PROTOCOL_VERSION: Literal[1] = 1

__all__ = [
    "PROTOCOL_VERSION",
    "AgentStepRequest",
    "AgentStepResponse",
    "StepToolCall",
    "StepToolResult",
    "StepUsage",
    "protocol_schemas",
    "protocol_schemas_json",
    "render_page",
]


class StepToolResult(BaseModel):
    """The result of one tool call the agent asked for in its previous step."""

    model_config = ConfigDict(extra="forbid")

    tool_call_id: str = Field(description="The `id` the agent gave the tool call")
    name: str = Field(description="The tool that ran")
    content: str = Field(description='What the tool returned (JSON text, or `{"error": ...}`)')


class AgentStepRequest(BaseModel):
    """What τ-Rec POSTs to the agent's endpoint at every step of a trial."""

    model_config = ConfigDict(extra="forbid")

    protocol_version: Literal[1] = Field(
        default=PROTOCOL_VERSION, description="Version of this protocol; bumped on any change"
    )
    user_id: str = Field(description="The id of the user being served (for get_user_history)")
    policy: str = Field(description="The policy document the agent must follow (markdown)")
    messages: list[dict[str, Any]] = Field(
        description="The conversation so far in OpenAI chat format (roles assistant, user, tool; "
        "assistant messages carry `tool_calls`, tool messages `tool_call_id`). The first is the "
        "agent's fixed greeting. No system message: the agent writes its own instructions."
    )
    tools: list[dict[str, Any]] = Field(
        description="The tools offered, in OpenAI `tools` format (type function, name, "
        "description, JSON Schema parameters)"
    )
    last_tool_results: list[StepToolResult] = Field(
        default_factory=list,
        description="Results of the tool calls from the agent's previous step (also present in "
        "`messages` as tool messages); empty after a user message",
    )


class StepToolCall(BaseModel):
    """A tool call the agent wants τ-Rec to run."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(min_length=1, description="Unique within the trial; echoed in the result")
    name: str = Field(min_length=1, description="One of the offered tool names")
    arguments: str | dict[str, Any] = Field(
        default="{}",
        description="Arguments as a JSON object or as JSON text (text that does not parse is "
        "passed to the tool as-is and comes back as a tool error)",
    )

    def arguments_text(self) -> str:
        if isinstance(self.arguments, str):
            return self.arguments
        return json.dumps(self.arguments, ensure_ascii=False)


class StepUsage(BaseModel):
    """Tokens and cost of one model call the agent made during the step (optional, for reports)."""

    model_config = ConfigDict(extra="forbid")

    model: str = Field(min_length=1, description="Model name, e.g. openai/gpt-5-mini")
    prompt_tokens: int = Field(default=0, ge=0)
    completion_tokens: int = Field(default=0, ge=0)
    cost_usd: float = Field(default=0.0, ge=0)


class AgentStepResponse(BaseModel):
    """The agent's reply to one step: tool calls to run and/or one message to the user."""

    model_config = ConfigDict(extra="forbid")

    message: str | None = Field(
        default=None,
        description="Text for the user. When set, the step ends with it: any tool calls in the "
        "same reply run first, then the user answers",
    )
    tool_calls: list[StepToolCall] = Field(
        default_factory=list,
        description="Tools to run, in order; without a message the agent is called again with "
        "their results. A successful `recommend` ends the trial",
    )
    usage: list[StepUsage] = Field(default_factory=list)


def protocol_schemas() -> dict[str, dict[str, Any]]:
    """JSON Schemas of the request and the response, as documented on the protocol page."""
    return {
        "request": AgentStepRequest.model_json_schema(),
        "response": AgentStepResponse.model_json_schema(),
    }


def protocol_schemas_json() -> dict[str, str]:
    """The schemas as the indented JSON text embedded in `site/pages/http-agent-protocol.md`."""
    return {
        name: json.dumps(schema, indent=2, ensure_ascii=False)
        for name, schema in protocol_schemas().items()
    }


def _page_path() -> Path:
    from runner.core.paths import SITE_DIR

    return SITE_DIR / "pages" / "http-agent-protocol.md"


def render_page(text: str) -> str:
    """`text` with each `<!-- BEGIN schema:NAME -->…<!-- END schema:NAME -->` block regenerated."""
    for name, schema in protocol_schemas_json().items():
        pattern = re.compile(
            rf"(<!-- BEGIN schema:{name} -->\n).*?(<!-- END schema:{name} -->)", re.DOTALL
        )
        if not pattern.search(text):
            raise ValueError(f"the protocol page has no '<!-- BEGIN schema:{name} -->' block")
        block = f"```json\n{schema}\n```\n"

        def fill(match: re.Match[str], block: str = block) -> str:
            return match.group(1) + block + match.group(2)

        text = pattern.sub(fill, text)
    return text


def main() -> None:
    """Rewrite the schema blocks of the protocol page from the models (`--check`: only compare)."""
    path = _page_path()
    current = path.read_text(encoding="utf-8")
    updated = render_page(current)
    if "--check" in sys.argv[1:]:
        if updated != current:
            sys.exit(
                f"{path}: schema blocks are out of date; run python -m runner.agents.http_protocol"
            )
        return
    path.write_text(updated, encoding="utf-8")


if __name__ == "__main__":
    main()
