"""The trial loop: greeting, user opening, agent steps with tools, until recommend or max_turns.

Protocol under rule set v2 (ours); v1 follows the published loop, see `runner.core.rules` (which
also lists where it still differs):
1. The rule set's fixed greeting opens as an agent message; the simulated user answers with its
   request.
2. Each agent step calls the agent with the conversation so far (OpenAI format). A reply may
   carry tool calls (run in order; the agent is called again with their results) and/or a
   message to the user. A reply with content is the step's user-facing message: the tool calls in
   the same reply still run, then the user answers. A step that keeps calling tools without ever
   writing to the user is cut after `max_tool_rounds` rounds and counts as a turn.
3. A successful `recommend(id)` ends the trial `recommended`; `recommend()` ends it `abstained`
   (an erroring recommend does not end it). Tool calls after it in the same reply do not run.
4. After `max_turns` agent steps without a recommend, the trial ends `max_turns`.
5. A user turn with verdict `leave` (out of patience) ends the trial `user_left`; a tool call
   beyond the rule set's `tool_budget` (v2; v1 has none) is not run and ends the trial
   `tool_budget`. Under v1 the user cannot leave: its parting words are just a message.
6. A failure ends the trial; who failed is decided by the one rule in `runner.play.attribution`:
   the agent's failures (its code raising, a bad or late reply, pathological tool arguments, a
   hard cap passed) end it `agent_error`, scored like any trial the agent did not finish; ours
   (the simulator, the tools, the loop) end it `infra_error`, recorded and retried, never raised
   and never dropped. A step of an agent that is not one of our own clients (those bound
   themselves) is cut after `step_timeout_s`.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from runner.core.domain import Domain
from runner.core.domains import DEFAULT_DOMAIN, get_domain
from runner.core.protocols import Agent, AgentReply, ChatMessage, ModelCall, Toolset, UserSimulator
from runner.core.rules import DEFAULT_RULES, V2_GREETING, RuleSet, get_rules
from runner.core.transcript import (
    ComponentSpec,
    InfraError,
    MessageEvent,
    ModelUsage,
    Provenance,
    SimulatorNote,
    StopReason,
    Timing,
    Transcript,
)
from runner.play.attribution import (
    Attribution,
    agent_fault,
    argument_problem,
    attribute,
    infra_fault,
    reports_infra,
)

__all__ = [
    "DEFAULT_MAX_TURNS",
    "DEFAULT_STEP_TIMEOUT_S",
    "GREETING",
    "MAX_AGENT_TEXT_BYTES",
    "MAX_TOOL_CALL_BYTES",
    "MAX_TOOL_ROUNDS",
    "run_trial",
]

# The v2 opening line; each rule set names its own (`RuleSet.greeting`: v1's is the published one).
GREETING = V2_GREETING
DEFAULT_MAX_TURNS = 20
# How long one step of an agent that does not bound itself (a Python agent) may take.
DEFAULT_STEP_TIMEOUT_S = 300.0
MAX_TOOL_ROUNDS = get_rules("v2").max_tool_rounds
# Hard safety caps, on every track: beyond them the agent fails the trial (`agent_error`).
MAX_TOOL_CALLS_PER_REPLY = 64
MAX_TOOL_CALLS_PER_TRIAL = 1000
# A sane ceiling for one model call's self-reported or computed cost (USD).
MAX_CALL_COST_USD = 100.0
# What one trial may hold of the agent's output (UTF-8 bytes): its text to the user, and its tool
# calls (ids, names and argument text). A normal trial uses a few KiB of each; past a cap the
# trial ends `output_cap` (the agent's failure) and the reply that crossed it is not kept, so no
# agent can make a results folder or the site grow without bound.
MAX_AGENT_TEXT_BYTES = 256 * 1024
MAX_TOOL_CALL_BYTES = 256 * 1024

T = TypeVar("T")


class _Stop(Exception):
    """Internal: the trial ended early; `verdict` says whose failure it was."""

    def __init__(self, verdict: Attribution) -> None:
        self.verdict = verdict


async def _user_turn(call: Callable[[], Awaitable[T]]) -> T:
    try:
        return await call()
    except Exception as exc:
        raise _Stop(attribute(exc, source="user")) from None


async def _agent_step(
    agent: Agent,
    messages: list[ChatMessage],
    tools: list[dict[str, Any]],
    *,
    trusted: bool,
    timeout_s: float | None,
) -> AgentReply:
    """One agent step, bounded unless the agent is our own client; any failure is attributed."""
    deadline = asyncio.timeout(None if trusted else timeout_s)
    try:
        async with deadline:
            reply = await agent.step(messages, tools)
    except (Exception, SystemExit) as exc:
        if deadline.expired():
            late = f"the agent's step took longer than {timeout_s:g}s (the step timeout)"
            raise _Stop(agent_fault("StepTimeout", late)) from None
        raise _Stop(attribute(exc, source="agent", trusted=trusted)) from None
    if not isinstance(reply, AgentReply):
        raise _Stop(
            agent_fault(
                "MalformedReply",
                f"the agent's step returned {type(reply).__name__}, not an AgentReply",
            )
        )
    return reply


def _check_tool_caps(in_reply: int, so_far: int) -> None:
    if in_reply > MAX_TOOL_CALLS_PER_REPLY:
        raise _Stop(
            agent_fault(
                "ToolCallCap",
                f"{in_reply} tool calls in one reply (cap {MAX_TOOL_CALLS_PER_REPLY})",
            )
        )
    if so_far + in_reply > MAX_TOOL_CALLS_PER_TRIAL:
        raise _Stop(
            agent_fault(
                "ToolCallCap", f"more than {MAX_TOOL_CALLS_PER_TRIAL} tool calls in one trial"
            )
        )


class _OutputMeter:
    """The agent's output so far in a trial, against MAX_AGENT_TEXT_BYTES and MAX_TOOL_CALL_BYTES."""

    def __init__(self) -> None:
        self.text = 0
        self.calls = 0

    def add(self, reply: AgentReply) -> None:
        text = len(reply.content.encode("utf-8", "surrogatepass")) if reply.content else 0
        calls = sum(
            len(f"{c.id}{c.name}{c.arguments}".encode("utf-8", "surrogatepass"))
            for c in reply.tool_calls
        )
        for kind, total, cap, what in (
            ("AgentTextCap", self.text + text, MAX_AGENT_TEXT_BYTES, "text to the user"),
            ("ToolCallBytesCap", self.calls + calls, MAX_TOOL_CALL_BYTES, "tool-call bytes"),
        ):
            if total > cap:
                message = f"{total} bytes of {what} in one trial (cap {cap})"
                raise _Stop(agent_fault(kind, message, "output_cap"))
        self.text += text
        self.calls += calls


def _add_usage(usage: dict[str, list[Any]], role: str, calls: list[ModelCall]) -> None:
    """Add calls to the running totals [calls, prompt tokens, completion tokens, cost] per
    `role:model` (the cost rounded to 10 places at each sum; `_usage_of` makes the models)."""
    for call in calls:
        if not (math.isfinite(call.cost_usd) and 0 <= call.cost_usd <= MAX_CALL_COST_USD):
            # Infinity would be stored as null and 1e308 would spend every budget at once.
            message = (
                f"{role} model {call.model}: cost_usd {call.cost_usd!r} is not a finite amount "
                f"in [0, {MAX_CALL_COST_USD:g}]"
            )
            fault = agent_fault if role == "agent" else infra_fault
            raise _Stop(fault("CostOutOfRange", message))
        key = f"{role}:{call.model}"
        total = usage.get(key)
        if total is None:
            usage[key] = [1, call.prompt_tokens, call.completion_tokens, call.cost_usd]
        else:
            total[0] += 1
            total[1] += call.prompt_tokens
            total[2] += call.completion_tokens
            total[3] = round(total[3] + call.cost_usd, 10)


def _usage_of(totals: dict[str, list[Any]]) -> dict[str, ModelUsage]:
    return {
        key: ModelUsage(calls=n, prompt_tokens=p, completion_tokens=c, cost_usd=cost)
        for key, (n, p, c, cost) in totals.items()
    }


def _spec(component: Any, fallback: str) -> ComponentSpec:
    try:
        spec = component.spec
    except Exception:
        return ComponentSpec(name=fallback)
    return spec if isinstance(spec, ComponentSpec) else ComponentSpec(name=fallback)


async def run_trial(
    *,
    task: Any,
    catalog: Any,
    agent: Agent,
    simulator: UserSimulator,
    toolset: Toolset,
    seed: int,
    trial_index: int = 0,
    max_turns: int = DEFAULT_MAX_TURNS,
    rules: RuleSet | None = None,
    provenance: Provenance | None = None,
    step_timeout_s: float | None = DEFAULT_STEP_TIMEOUT_S,
    greeting: str | None = None,
    domain: Domain | None = None,
) -> Transcript:
    """Run one trial under `rules` (default v2) and return its transcript (with leak audit, usage,
    timing and the given provenance filled in). The toolset must be built with the same rules.
    A step of an agent that is not our own client is cut after `step_timeout_s` (None: never).
    `greeting` replaces the rule set's opening line (a domain's own, e.g. a shop's); `domain`
    (default movies) audits the user's replies for leaks, with `catalog` at hand."""
    from runner.core.toolkit import parse_arguments

    rules = rules or get_rules(DEFAULT_RULES)
    started = time.perf_counter()
    events: list[MessageEvent | dict[str, Any]] = []  # tool calls as ToolCallEvent fields
    messages: list[ChatMessage] = []
    usage: dict[str, list[Any]] = {}
    latencies: list[float] = []
    recommendations: list[str] = []
    stop_reason: StopReason | None = None
    error: InfraError | None = None
    tool_names: list[str] = []
    tools: list[dict[str, Any]] = []
    notes: list[SimulatorNote] = []
    calls_made = 0
    calls_made_run = 0
    trusted = reports_infra(agent)
    output = _OutputMeter()

    def conversation() -> list[MessageEvent]:
        return [e for e in events if isinstance(e, MessageEvent)]

    async def user_says() -> bool:
        """The user's next message; False when the user has left."""
        turn = await _user_turn(lambda: simulator.respond(conversation()))
        _add_usage(usage, "user", turn.usage)
        notes.extend(n.model_copy(update={"message_index": len(events)}) for n in turn.notes)
        events.append(MessageEvent(role="user", content=turn.content, act=turn.act))
        messages.append({"role": "user", "content": turn.content})
        return turn.verdict != "leave"

    try:
        tool_names = list(toolset.names)
        tools = toolset.schemas()
        opening = greeting if greeting is not None else rules.greeting
        events.append(MessageEvent(role="agent", content=opening))
        messages.append({"role": "assistant", "content": opening})
        await user_says()
        turns = 0
        while stop_reason is None:
            if turns >= max_turns:
                stop_reason = "max_turns"
                break
            step_started = time.perf_counter()
            spoke = False
            exhausted = True
            for _round in range(rules.max_tool_rounds):
                reply = await _agent_step(
                    agent, list(messages), tools, trusted=trusted, timeout_s=step_timeout_s
                )
                _add_usage(usage, "agent", reply.usage)
                _check_tool_caps(len(reply.tool_calls), calls_made)
                output.add(reply)
                if rules.text_with_tool_calls_ends_turn:
                    content = reply.content if reply.content and reply.content.strip() else None
                else:
                    content = reply.content or None
                assistant: ChatMessage = {"role": "assistant", "content": content}
                requests = []
                for request in reply.tool_calls:
                    calls_made += 1
                    call_id = request.id or f"call_{calls_made}"
                    requests.append((call_id, request))
                    pathological = argument_problem(request.arguments)
                    if pathological is not None:
                        raise _Stop(agent_fault("PathologicalToolArguments", pathological))
                    if rules.malformed_arguments_fail_trial:
                        problem = parse_arguments(request.arguments)
                        if isinstance(problem, str):
                            # v1 fails the trial; the attribution rule scores it (reward 0).
                            raise _Stop(
                                agent_fault("MalformedToolArguments", f"{request.name}: {problem}")
                            )
                if requests:
                    assistant["tool_calls"] = [
                        {
                            "id": call_id,
                            "type": "function",
                            "function": {"name": r.name, "arguments": r.arguments},
                        }
                        for call_id, r in requests
                    ]
                messages.append(assistant)
                if rules.text_with_tool_calls_ends_turn:
                    if content is not None or not requests:
                        events.append(MessageEvent(role="agent", content=content or ""))
                        spoke = True
                elif not requests:
                    exhausted = False
                    if content is None and not rules.empty_reply_goes_to_user:
                        break  # v1: an empty reply spends the turn; the agent goes again
                    events.append(MessageEvent(role="agent", content=content or ""))
                    spoke = True
                for call_id, request in requests:
                    if rules.tool_budget is not None and calls_made_run >= rules.tool_budget:
                        stop_reason = "tool_budget"
                        break
                    calls_made_run += 1
                    outcome = toolset.call(request.name, request.arguments)
                    # Plain data: validated into a ToolCallEvent with every other event, once.
                    events.append(
                        {
                            "type": "tool_call",
                            "call_id": call_id,
                            "name": request.name,
                            "arguments": outcome.arguments,
                            "raw_arguments": outcome.raw_arguments,
                            "result": outcome.content,
                            "is_error": outcome.is_error,
                        }
                    )
                    messages.append(
                        {"role": "tool", "tool_call_id": call_id, "content": outcome.content}
                    )
                    if outcome.stop is None:
                        continue
                    if outcome.stop == "recommended" and outcome.item_id:
                        recommendations.append(outcome.item_id)
                    stop_reason = outcome.stop
                    if not rules.every_recommend_runs:
                        break
                if stop_reason is not None and content is not None and not spoke:
                    # v1: the text of the reply holding the final recommend is recorded after it.
                    events.append(MessageEvent(role="agent", content=content))
                if stop_reason is not None or spoke:
                    exhausted = False
                    break
            turns += 1
            if stop_reason is not None or spoke:
                latencies.append(round(time.perf_counter() - step_started, 6))
            if stop_reason is not None:
                break
            if not spoke:
                if exhausted and rules.tool_round_cut_ends_trial:
                    stop_reason = "max_turns"  # v1 has no cut: the context overflows (timeout)
                    break
                continue  # tool rounds exhausted: the turn is spent, the agent goes again
            if turns >= max_turns and not rules.user_answers_last_turn:
                stop_reason = "max_turns"
                break
            if not await user_says() and rules.user_can_leave:
                stop_reason = "user_left"
    except _Stop as stop:
        stop_reason = stop.verdict.stop_reason
        error = stop.verdict.error
    except Exception as exc:  # a toolset or loop bug: still a recorded infra error, never raised
        verdict = attribute(exc, source="tools")
        stop_reason = verdict.stop_reason
        error = verdict.error

    transcript = Transcript(
        rules=rules.name,
        provenance=provenance,
        task_id=task.id,
        trial_index=trial_index,
        seed=seed,
        agent=_spec(agent, "agent"),
        simulator=_spec(simulator, "simulator"),
        tools=tool_names,
        max_turns=max_turns,
        tool_budget=rules.tool_budget,
        events=events,
        recommendations=recommendations,
        stop_reason=stop_reason,
        error=error,
        usage=_usage_of(usage),
        simulator_notes=notes,
    )
    auditor = domain or get_domain(DEFAULT_DOMAIN)
    transcript.leak_audit = auditor.audit_leaks(task, transcript, catalog)
    transcript.timing = Timing(
        step_latencies_s=latencies, wall_time_s=round(time.perf_counter() - started, 6)
    )
    return transcript
