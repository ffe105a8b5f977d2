"""The transcript of one trial (versioned), and a reader for v1 trace JSON so old traces can be re-scored."""

from __future__ import annotations

import contextlib
import datetime as dt
import json
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from runner.core.errors import LoadError, describe_validation_error
from runner.core.rules import RuleSetName

# `user_left`: the simulated user ran out of patience; `tool_budget`: the agent made more tool
# calls than the trial's budget allows; `agent_error`: the agent's code or endpoint failed or a
# hard safety cap was passed; `output_cap`: the agent wrote more text, or more tool-call bytes,
# than a trial may hold. All are the agent's failures, scored like `max_turns`; only
# `infra_error` is ours (see runner.play.attribution). Adding a value keeps schema 2: every older
# file still loads.
StopReason = Literal[
    "recommended",
    "abstained",
    "completed",
    "max_turns",
    "user_left",
    "tool_budget",
    "agent_error",
    "output_cap",
    "infra_error",
]
TRANSCRIPT_SCHEMA_VERSION: Literal[3] = 3


def migrate_schema_1(data: Any) -> Any:
    """Schema 1 files (before provenance and rule sets) load as schema 2 with them unknown.

    They were produced by our own loop and scorer, which are rule set v2.
    """
    if isinstance(data, dict) and data.get("schema_version") == 1:
        return {**data, "schema_version": 2}
    return data


def migrate_transcript(data: Any) -> Any:
    """Schema 1 and 2 transcripts load as schema 3: they predate the simulator's notes (none)."""
    data = migrate_schema_1(data)
    if isinstance(data, dict) and data.get("schema_version") == 2:
        return {**data, "schema_version": TRANSCRIPT_SCHEMA_VERSION}
    return data


class MessageEvent(BaseModel):
    model_config = ConfigDict(extra="forbid")

    type: Literal["message"] = "message"
    role: Literal["agent", "user"]
    content: str
    act: str | None = Field(
        default=None,
        exclude_if=lambda v: v is None,
        description="A user message's structured act when the domain's scorer reads it (e.g. "
        "`confirm_order`); absent otherwise, so transcripts without acts are unchanged",
    )


class ToolCallEvent(BaseModel):
    model_config = ConfigDict(extra="forbid")

    type: Literal["tool_call"] = "tool_call"
    call_id: str = ""
    name: str
    arguments: dict[str, Any] = Field(
        default_factory=dict, description="Parsed arguments ({} when they did not parse)"
    )
    raw_arguments: str | None = Field(
        default=None, description="The argument text exactly as sent, when it was not valid JSON"
    )
    result: str = Field(description="What the agent was shown (JSON text)")
    is_error: bool = False


Event = Annotated[MessageEvent | ToolCallEvent, Field(discriminator="type")]


class ComponentSpec(BaseModel):
    """What ran: a registry name plus the arguments it was built with (secrets redacted)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    args: dict[str, Any] = Field(default_factory=dict)


class ModelUsage(BaseModel):
    model_config = ConfigDict(extra="forbid")

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0


class InfraError(BaseModel):
    """Why a trial could not be completed for reasons that are not the agent's fault."""

    model_config = ConfigDict(extra="forbid")

    kind: str = Field(description="Error class, e.g. RateLimitError, Timeout, ServerError")
    message: str


class Leak(BaseModel):
    model_config = ConfigDict(extra="forbid")

    message_index: int = Field(description="Index into `events` of the leaking user message")
    field: str
    reveal: Literal["on_ask", "hidden"]
    excerpt: str
    reason: str


class SimulatorNote(BaseModel):
    """One time the simulated user's own machinery fell back (its error rate, counted per trial).

    `reader`: the model's reading of an agent message was replaced by the rule reader's;
    `writer`: the model's words were replaced by the template wording of the same act. Either
    way the decision was the engine's and the trial went on.
    """

    model_config = ConfigDict(extra="forbid")

    component: Literal["reader", "writer"]
    reason: str = Field(description="A short code: model_error, invalid_answer, leak, ...")
    detail: str = Field(default="", description="What was wrong, in one line")
    message_index: int | None = Field(
        default=None, description="Index into `events` of the user message it concerns"
    )


class LeakAudit(BaseModel):
    """Did the simulated user state a hidden value, or an on_ask one before it was asked?"""

    model_config = ConfigDict(extra="forbid")

    clean: bool
    leaks: list[Leak] = Field(default_factory=list)


class Timing(BaseModel):
    """Wall-clock figures; kept apart so the rest of the transcript is byte-reproducible."""

    model_config = ConfigDict(extra="forbid")

    step_latencies_s: list[float] = Field(
        default_factory=list,
        description="Per agent step: from a user message to the next user-facing message or "
        "terminal recommend",
    )
    wall_time_s: float = 0.0


class Provenance(BaseModel):
    """What a trial ran against: the snapshot and the digests of its catalog, task suite and policy."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    snapshot: str = Field(description="Snapshot label (its date, or a folder name)")
    snapshot_date: dt.date | None = Field(description="The snapshot's date, when it has one")
    catalog_digest: str
    task_suite_digest: str
    policy_digest: str


class Transcript(BaseModel):
    model_config = ConfigDict(extra="forbid")

    schema_version: Literal[3] = TRANSCRIPT_SCHEMA_VERSION
    rules: RuleSetName = Field(
        default="v2", description="The rule set of the loop and tools that produced it"
    )
    provenance: Provenance | None = Field(
        default=None, description="Snapshot and digests (absent in schema-1 transcripts)"
    )
    task_id: str
    trial_index: int = 0
    seed: int = 0
    agent: ComponentSpec
    simulator: ComponentSpec
    tools: list[str] = Field(default_factory=list, description="Tool names offered to the agent")
    max_turns: int = 20
    tool_budget: int | None = Field(
        default=None, description="Tool calls allowed in the trial (None: no budget, as in v1)"
    )
    events: list[Event] = Field(default_factory=list)
    recommendations: list[str] = Field(default_factory=list)
    stop_reason: StopReason | None = None
    error: InfraError | None = None
    usage: dict[str, ModelUsage] = Field(
        default_factory=dict, description="Per model, keyed '<role>:<model>'"
    )
    leak_audit: LeakAudit | None = None
    simulator_notes: list[SimulatorNote] = Field(
        default_factory=list,
        description="Reader fallbacks and writer guard triggers of the simulated user (schema 3)",
    )
    timing: Timing = Field(default_factory=Timing)

    _migrate = model_validator(mode="before")(migrate_transcript)

    @property
    def messages(self) -> list[MessageEvent]:
        return [e for e in self.events if isinstance(e, MessageEvent)]

    @property
    def tool_calls(self) -> list[ToolCallEvent]:
        return [e for e in self.events if isinstance(e, ToolCallEvent)]

    @property
    def final_recommendation(self) -> str | None:
        return self.recommendations[-1] if self.recommendations else None

    @property
    def turns(self) -> int:
        agent = sum(1 for m in self.messages if m.role == "agent")
        user = sum(1 for m in self.messages if m.role == "user")
        return min(agent, user)

    def content_json(self) -> str:
        """Canonical JSON without timings: equal for equal inputs and seed (the determinism check)."""
        return self.model_dump_json(exclude={"timing"})


def transcript_from_v1(data: dict[str, Any], source: str = "<v1 trace>") -> Transcript:
    """Convert a τ-Rec v1 trace (`events` of message/tool_call) into a Transcript."""
    events: list[MessageEvent | ToolCallEvent] = []
    for i, ev in enumerate(data.get("events", [])):
        kind = ev.get("type")
        if kind == "message":
            role = ev.get("role")
            if role == "system":
                continue
            if role not in ("agent", "user"):
                raise LoadError(source, [f"events.{i}.role: unknown role {role!r}"])
            events.append(MessageEvent(role=role, content=str(ev.get("content", ""))))
        elif kind == "tool_call":
            args = ev.get("arguments", {})
            result = ev.get("result", "")
            events.append(
                ToolCallEvent(
                    call_id=f"v1_{i}",
                    name=str(ev.get("name", "")),
                    arguments=args if isinstance(args, dict) else {},
                    result=result if isinstance(result, str) else json.dumps(result),
                    is_error='"error"' in result if isinstance(result, str) else False,
                )
            )
        else:
            raise LoadError(source, [f"events.{i}.type: unknown event type {kind!r}"])
    stop = {"timeout": "max_turns", "recommended": "recommended", "abstained": "abstained"}.get(
        data.get("stop_reason") or ""
    )
    return Transcript(
        rules="v1",
        task_id=str(data.get("task_id", "")),
        trial_index=int(data.get("trial", 0)),
        agent=ComponentSpec(name="v1", args={"model": data.get("model", "")}),
        simulator=ComponentSpec(name="v1"),
        events=events,
        recommendations=[str(r) for r in data.get("recommendations", [])],
        stop_reason=stop,
        timing=Timing(
            step_latencies_s=list(data.get("agent_step_latencies_s", [])),
            wall_time_s=float(data.get("trial_runtime_s") or 0.0),
        ),
    )


def load_transcript(path: Path | str) -> Transcript:
    """Read a transcript file: the current schema, or a v1 trace (detected by its shape)."""
    path = Path(path)
    text = path.read_bytes()
    if path.suffix == ".gz":
        import gzip

        text = gzip.decompress(text)
    return parse_transcript(text, source=str(path))


def parse_transcript(text: bytes | str, source: str) -> Transcript:
    """A transcript from its JSON text (current schema or a v1 trace); errors name `source`."""
    # The common case in one pass (pydantic parses and validates the JSON itself, ~3x faster);
    # anything else (a v1 trace, a bad file) takes the path below, which names what is wrong.
    with contextlib.suppress(ValidationError):
        return Transcript.model_validate_json(text)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise LoadError(source, [f"invalid JSON at line {exc.lineno}: {exc.msg}"]) from exc
    if not isinstance(data, dict):
        raise LoadError(source, ["expected a JSON object"])
    if "schema_version" not in data and "events" in data:
        return transcript_from_v1(data, source=source)
    try:
        return Transcript.model_validate(data)
    except ValidationError as exc:
        raise LoadError(source, describe_validation_error(exc)) from exc
