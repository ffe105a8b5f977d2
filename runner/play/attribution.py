"""Who failed a trial: the one rule that makes a failure the agent's (scored 0) or ours (retried).

The rule is written once, here, as `AGENT_FAILURES` and `OUR_FAILURES` (the Methodology page
prints them). The loop, the batch runner, `evaluate`, `taurec eval`, `assert_pass_k` and the site
apply it through this module: `attribute` judges an exception by where it came from,
`endpoint_failure` is what a model client raises once its retries gave up, `argument_problem`
spots pathological tool arguments, and `standing` says whether a run is ranked.

Only our own model clients may report an infrastructure error from inside an agent step
(`report_infra`): an exception a Python agent raises, whatever its class, is the agent's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from runner.core.errors import AgentFailure, InfraFailure
from runner.core.transcript import InfraError
from runner.models.keys import RefusedEndpoint

__all__ = [
    "AGENT_FAILURES",
    "AGENT_FAILURE_STOPS",
    "MAX_ARGUMENT_DEPTH",
    "MAX_UNSCORED_SHARE",
    "OUR_FAILURES",
    "Attribution",
    "Source",
    "Standing",
    "agent_fault",
    "argument_problem",
    "attribute",
    "endpoint_failure",
    "infra_fault",
    "report_infra",
    "reports_infra",
    "standing",
    "standing_reason",
]

# Where a failure came from: the agent's step, its factory (building the agent of a trial), the
# simulated user, the tools, or the runner itself (scoring, writing, a helper process).
Source = Literal["agent", "agent_factory", "user", "tools", "runner"]
Standing = Literal["ranked", "incomplete", "unscored"]

# Tool arguments nested deeper than this end the trial as the agent's failure. No tool takes
# more than two levels; the bound keeps a 100k-deep payload from reaching a recursive parser.
MAX_ARGUMENT_DEPTH = 32
# An entry with more than this share of its planned trials unscored (infra errors) is not ranked.
MAX_UNSCORED_SHARE = 0.05

# The rule. An agent's failure ends the trial (stop reason `agent_error`, or the cap's own
# reason); it is scored like any trial the agent did not finish (reward 0) and counts in n.
AGENT_FAILURES: tuple[str, ...] = (
    "a Python agent, or its factory, raises (any exception, `SystemExit` too) or returns "
    "something that is not a reply",
    "a reply that is malformed, oversized or nested too deeply to read",
    f"tool-call arguments nested more than {MAX_ARGUMENT_DEPTH} levels deep",
    "a step that hangs past the step timeout (a Python agent) or the endpoint's `timeout_s`",
    "a submitter's endpoint that refuses the connection, times out or answers with an HTTP "
    "error once the retries gave up",
    "an endpoint the runner refuses to call (a loopback, private or link-local address on a "
    "hosted run, named or resolved; a provider path it cannot bound), whatever the agent's "
    "kind: LiteLLM, HTTP or Python",
    "passing a hard cap: tool calls per reply or per trial, a model call's cost; or writing "
    "more than 256 KiB of text to the user, or of tool calls (ids, names, arguments), in one "
    "trial (stop reason `output_cap`)",
)
# Our failure is an infrastructure error: recorded (stop reason `infra_error`), shown, left out
# of n, and run again by the next run: never dropped, never scored.
OUR_FAILURES: tuple[str, ...] = (
    "the simulated user's model or its provider",
    "the agent's model provider called with our key (a 429 or 5xx from a hosted API), or a "
    "model server on this machine",
    "a secret missing from our environment",
    "our disk (full, unwritable) and our process (a killed helper, a bug in the loop, the "
    "tools, the scorer or the runner)",
)

_INFRA_REPORTERS: set[type] = set()


@dataclass(frozen=True)
class Attribution:
    """A failed trial's verdict: its stop reason and what happened."""

    stop_reason: Literal["agent_error", "output_cap", "infra_error"]
    error: InfraError

    @property
    def agents_fault(self) -> bool:
        return self.stop_reason in AGENT_FAILURE_STOPS


# The stop reasons that carry an error the agent caused (scored, reward 0).
AGENT_FAILURE_STOPS = ("agent_error", "output_cap")


def agent_fault(
    kind: str, message: str, stop_reason: Literal["agent_error", "output_cap"] = "agent_error"
) -> Attribution:
    """The agent failed the trial: scored, reward 0."""
    return Attribution(stop_reason, InfraError(kind=kind, message=message))


def infra_fault(kind: str, message: str) -> Attribution:
    """We failed the trial: recorded as an infra error, retried by the next run."""
    return Attribution("infra_error", InfraError(kind=kind, message=message))


def report_infra(cls: type) -> type:
    """Class decorator for our own agent clients (LiteLLM, HTTP): an `InfraFailure` they raise
    from `step` is believed (it names a provider outage or a secret we lack). The exact class is
    registered, so a subclass written elsewhere is not."""
    _INFRA_REPORTERS.add(cls)
    return cls


def reports_infra(agent: object) -> bool:
    """Whether `agent` is one of our own clients (see `report_infra`)."""
    return type(agent) in _INFRA_REPORTERS


def _describe(what: str, error: BaseException) -> str:
    text = str(error)
    return (
        f"{what} raised {type(error).__name__}: {text}"
        if text
        else f"{what} raised {type(error).__name__}"
    )


def attribute(error: BaseException, *, source: Source, trusted: bool = False) -> Attribution:
    """The verdict on an exception that ended a trial, by where it came from.

    `trusted` says the agent is one of our own clients (`reports_infra`); it matters only for an
    `InfraFailure` from the agent's step or factory.
    """
    if isinstance(error, AgentFailure):
        return agent_fault(error.kind, error.message)
    if isinstance(error, RefusedEndpoint) and source in ("agent", "agent_factory"):
        # One rule for every agent kind: where the agent's calls would go is the agent's.
        return agent_fault("RefusedEndpoint", str(error))
    if source in ("agent", "agent_factory"):
        if isinstance(error, InfraFailure) and trusted:
            return infra_fault(error.kind, error.message)
        what = "the agent" if source == "agent" else "the agent factory"
        kind = error.kind if isinstance(error, InfraFailure) else type(error).__name__
        return agent_fault(f"AgentRaised.{kind}", _describe(what, error))
    if isinstance(error, InfraFailure):
        return infra_fault(error.kind, error.message)
    what = {"user": "user simulator", "tools": "toolset", "runner": "runner"}[source]
    kind = type(error).__name__
    return infra_fault(
        kind if source != "runner" else f"RunnerError.{kind}", _describe(what, error)
    )


def endpoint_failure(error: InfraFailure, *, ours: bool) -> InfraFailure | AgentFailure:
    """What a model client raises once its retries gave up: the failure stays ours only when the
    endpoint is ours (the model's provider called with our key, or a server on this machine);
    a submitter's endpoint failing is the agent failing."""
    return error if ours else AgentFailure(error.kind, error.message)


def argument_problem(arguments: str) -> str | None:
    """Why tool-call arguments are pathological (nested deeper than MAX_ARGUMENT_DEPTH), or None.

    Counts brackets outside JSON strings, so it never recurses whatever the input; a cheap count
    first skips the scan for ordinary arguments."""
    if arguments.count("[") + arguments.count("{") <= MAX_ARGUMENT_DEPTH:
        return None
    depth = deepest = 0
    in_string = escaped = False
    for char in arguments:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > MAX_ARGUMENT_DEPTH:
                    return (
                        f"tool arguments nested more than {MAX_ARGUMENT_DEPTH} levels deep "
                        f"({len(arguments)} characters)"
                    )
        elif char in "]}":
            depth -= 1
    return None


def standing(planned: int, scored: int) -> Standing:
    """`unscored` (nothing scored), `incomplete` (more than MAX_UNSCORED_SHARE of the planned
    trials unscored) or `ranked`."""
    if scored == 0:
        return "unscored"
    if planned - scored > MAX_UNSCORED_SHARE * planned:
        return "incomplete"
    return "ranked"


def standing_reason(planned: int, scored: int) -> str | None:
    """Why an entry is not ranked, in one sentence (None when it is)."""
    match standing(planned, scored):
        case "unscored":
            return f"all {planned} trials are infrastructure errors: nothing is scored"
        case "incomplete":
            return (
                f"{planned - scored} of {planned} trials are infrastructure errors (more than "
                f"{MAX_UNSCORED_SHARE:.0%}): not ranked until a re-run scores them"
            )
    return None
