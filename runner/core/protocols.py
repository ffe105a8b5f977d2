"""The extension points: Agent, UserSimulator and Toolset protocols and the values they exchange."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field, field_validator

from runner.core.transcript import ComponentSpec, MessageEvent, SimulatorNote

# A chat message in the OpenAI wire format (role system/user/assistant/tool), as LiteLLM takes it.
ChatMessage = dict[str, Any]
# A tool schema in the OpenAI `tools=[...]` format.
ToolSchema = dict[str, Any]


class ModelCall(BaseModel):
    """Usage of one model call, reported by agents and simulators that call models."""

    model_config = ConfigDict(extra="forbid")

    model: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0


class ToolCallRequest(BaseModel):
    """A tool call as the agent emitted it; `arguments` is the raw JSON text (it may be malformed).

    A dict of arguments is accepted too and stored as its JSON text.
    """

    model_config = ConfigDict(extra="forbid")

    id: str = Field(description="Unique within the trial, e.g. call_1; echoed in the tool result")
    name: str = Field(description="One of the offered tool names")
    arguments: str = Field(
        default="{}", description='JSON text of an object, e.g. \'{"query": "comedy"}\''
    )

    @field_validator("arguments", mode="before")
    @classmethod
    def _json_text(cls, value: Any) -> Any:
        if isinstance(value, dict):
            try:
                return json.dumps(value, ensure_ascii=False)
            except (TypeError, ValueError) as exc:
                raise ValueError(
                    f"arguments dict is not JSON-serialisable ({exc}); pass plain str, number, "
                    'bool, list and dict values, or JSON text such as \'{"query": "comedy"}\''
                ) from None
        if not isinstance(value, str):
            raise ValueError(
                f"arguments must be a dict or JSON text, got {type(value).__name__}; pass e.g. "
                'arguments={"query": "comedy"} or arguments=\'{"query": "comedy"}\''
            )
        return value


class AgentReply(BaseModel):
    """One agent step: tool calls to run and/or one message to the user."""

    model_config = ConfigDict(extra="forbid")

    content: str | None = None
    tool_calls: list[ToolCallRequest] = Field(default_factory=list)
    usage: list[ModelCall] = Field(default_factory=list)


# A pure chat-completion function (messages, tools, seed) -> reply: what the local model server
# answers a request to one of its models with (`Domain.served_models`).
ChatPolicy = Callable[[list[ChatMessage], list[ToolSchema], int], AgentReply]


@dataclass(frozen=True)
class AgentContext:
    """What an agent is built with for one trial: what a submission sees (its user id, the policy,
    the seed, the entry and the domain; the rest comes through tools and messages).

    `task` and `catalog` are set only for an oracle-class built-in (`Domain.oracle_agents`, at least
    `oracle`); every other agent, a Python agent's factory included, gets None for both (see
    `runner.agents.agent_context`). The `informed` probe gets only the names of the constrained
    fields, in `informed_fields`."""

    user_id: str
    policy_text: str
    seed: int
    task: Any = None  # oracle-class built-ins only (movies: `domains.movies.tasks.Task`)
    catalog: Any = None  # oracle-class built-ins only (movies: `domains.movies.catalog.Catalog`)
    # The slug of the entry whose trial this is: its TAUREC_KEY_<SLUG> is the only entry-scoped
    # secret the agent may send (None: no entry, e.g. `taurec trial` on one's own config).
    entry: str | None = None
    # The domain of the trial (its registry name): it picks the instructions and the built-ins.
    domain: str = "movies"
    # The names of the fields the task constrains (never values, operators or reveal tags): set
    # only for the `informed` probe.
    informed_fields: frozenset[str] | None = None


@runtime_checkable
class Agent(Protocol):
    """Anything that, given the conversation so far (OpenAI format) and the tools, takes one step."""

    @property
    def spec(self) -> ComponentSpec: ...

    async def step(self, messages: list[ChatMessage], tools: list[ToolSchema]) -> AgentReply: ...


class UserTurn(BaseModel):
    """One simulated-user message plus a structured verdict (the loop never parses stop tokens)."""

    model_config = ConfigDict(extra="forbid")

    content: str
    verdict: Literal["continue", "accept", "decline", "abstain_ok", "leave"] = Field(
        default="continue", description="`leave` ends the trial with stop reason `user_left`"
    )
    usage: list[ModelCall] = Field(default_factory=list)
    act: str | None = Field(
        default=None,
        description="The reply's structured act, recorded on the message for a domain scorer "
        "that checks consent (e.g. `confirm_order`); None records nothing",
    )
    notes: list[SimulatorNote] = Field(
        default_factory=list,
        description="The simulator's own fallbacks in this turn (the loop copies them into the "
        "transcript with the message's index)",
    )


@runtime_checkable
class UserSimulator(Protocol):
    """Plays the user of one task; sees the visible conversation only (agent and user messages)."""

    @property
    def spec(self) -> ComponentSpec: ...

    async def respond(self, conversation: list[MessageEvent]) -> UserTurn: ...


class ToolOutcome(BaseModel):
    """The result of one tool call: the text the agent sees, and whether it ends the trial."""

    model_config = ConfigDict(extra="forbid")

    content: str = Field(description="JSON text shown to the agent")
    is_error: bool = False
    arguments: dict[str, Any] = Field(default_factory=dict, description="Parsed arguments")
    raw_arguments: str | None = Field(
        default=None, description="Set when the argument text was not a JSON object"
    )
    stop: Literal["recommended", "abstained", "completed"] | None = Field(
        default=None,
        description="Set by a successful recommend call (`completed`: a domain's finishing tool, "
        "whose outcome is the final state of its store)",
    )
    item_id: str | None = Field(default=None, description="The id recommended, when stop is set")


@runtime_checkable
class Toolset(Protocol):
    """The tools offered in one trial; schemas and dispatch come from the same definitions."""

    @property
    def names(self) -> list[str]: ...

    def schemas(self) -> list[ToolSchema]: ...

    def call(self, name: str, arguments: str | dict[str, Any]) -> ToolOutcome: ...
