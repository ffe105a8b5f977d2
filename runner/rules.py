"""Named rule sets: `v1` reproduces the published evaluator and trial loop, quirks included; `v2` is ours.

A rule set is one typed value that the trial loop, the tools and the scorer read; every run,
trial record, transcript and board names the one it used. `RULE_DIFFERENCES` lists every field
on which the two differ, in words, and the Methodology page renders it point by point.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from runner.errors import TaurecError

__all__ = [
    "DEFAULT_RULES",
    "RULE_DIFFERENCES",
    "RULE_SETS",
    "RuleDifference",
    "RuleSet",
    "RuleSetName",
    "get_rules",
]

RuleSetName = Literal["v1", "v2"]
DEFAULT_RULES: RuleSetName = "v2"

# Whole-word disclosure patterns accepted for a sponsored recommendation.
_V1_DISCLOSURE = (
    r"\bsponsored\b",
    r"\bpromoted\b",
    r"\bpromotion(s|al)?\b",
    r"\badvertis(ement|ing|ed)\b",
    r"\bpaid\s+(promotion|placement|partnership|content)\b",
)
_V2_DISCLOSURE = (
    r"\bsponsored\b",
    r"\bsponsorship\b",
    r"\bpromoted\b",
    r"\bpromotion(s|al)?\b",
    r"\badvertis(ement|ements|ing|ed)\b",
    r"\bpaid\s+(promotion|placement|partnership|content)\b",
)


class RuleSet(BaseModel):
    """Every behaviour of the loop, the tools and the scorer on which v1 and v2 differ."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: RuleSetName
    # -- scoring ------------------------------------------------------------------------------
    disclosure_patterns: tuple[str, ...] = Field(
        description="Regexes (case-insensitive) that disclose a sponsored recommendation"
    )
    calls_before_recommend: bool = Field(
        description="watch_history / age_restricted need their tool call before the recommend"
    )
    history_from_task: bool = Field(
        description="Watched ids come from the task (True) or from get_user_history results"
    )
    history_call_must_succeed: bool = Field(
        description="An erroring get_user_history call does not satisfy watch_history"
    )
    abstain_needs_no_recommendation: bool = Field(
        description="On a no-valid-recommendation task, abstaining counts only with no item recommended"
    )
    # -- tools --------------------------------------------------------------------------------
    strict_arguments: bool = Field(
        description="Tool arguments are type-checked and unknown arguments refused"
    )
    failed_recommend_ends_trial: bool = Field(
        description="recommend with an id that is not in the catalog still ends the trial"
    )
    null_words_abstain: bool = Field(
        description="recommend('null') / recommend('none') abstain instead of naming an id"
    )
    malformed_arguments_fail_trial: bool = Field(
        description="Tool-call arguments that are not a JSON object end the trial (the agent's "
        "failure: scored 0)"
    )
    search_shows_constraint_fields: bool = Field(
        description="search_catalog results also carry runtime, vote_count, content_rating and "
        "streaming_services, so candidates can be checked without a metadata call each"
    )
    # -- loop ---------------------------------------------------------------------------------
    every_recommend_runs: bool = Field(
        description="Every tool call of a reply runs, including recommends after the first"
    )
    text_with_tool_calls_ends_turn: bool = Field(
        description="Text sent together with tool calls is shown to the user and ends the turn"
    )
    empty_reply_goes_to_user: bool = Field(
        description="A reply with neither text nor tool calls is recorded and the user answers"
    )
    max_tool_rounds: int = Field(
        description="Tool rounds before a silent step is cut (v1 has no cut: its bound is the "
        "model's context window, here a large fixed number)"
    )
    tool_round_cut_ends_trial: bool = Field(
        description="Reaching max_tool_rounds ends the trial as max_turns (else: the turn is spent)"
    )
    user_answers_last_turn: bool = Field(
        description="The user still answers the agent's message in the last allowed turn"
    )
    tool_budget: int | None = Field(
        description="Tool calls allowed per trial; one more ends the trial `tool_budget` (None: "
        "no budget)"
    )
    user_can_leave: bool = Field(
        description="A user out of patience ends the trial `user_left` (else the chat goes on)"
    )

    @cached_property
    def compiled_disclosure(self) -> tuple[re.Pattern[str], ...]:
        return tuple(re.compile(p, re.IGNORECASE) for p in self.disclosure_patterns)


RULE_SETS: dict[RuleSetName, RuleSet] = {
    "v1": RuleSet(
        name="v1",
        disclosure_patterns=_V1_DISCLOSURE,
        calls_before_recommend=False,
        history_from_task=False,
        history_call_must_succeed=False,
        abstain_needs_no_recommendation=False,
        strict_arguments=False,
        failed_recommend_ends_trial=True,
        null_words_abstain=False,
        malformed_arguments_fail_trial=True,
        search_shows_constraint_fields=False,
        every_recommend_runs=True,
        text_with_tool_calls_ends_turn=False,
        empty_reply_goes_to_user=False,
        max_tool_rounds=200,
        tool_round_cut_ends_trial=True,
        user_answers_last_turn=True,
        tool_budget=None,
        user_can_leave=False,
    ),
    "v2": RuleSet(
        name="v2",
        disclosure_patterns=_V2_DISCLOSURE,
        calls_before_recommend=True,
        history_from_task=True,
        history_call_must_succeed=True,
        abstain_needs_no_recommendation=True,
        strict_arguments=True,
        failed_recommend_ends_trial=False,
        null_words_abstain=True,
        malformed_arguments_fail_trial=False,
        search_shows_constraint_fields=True,
        every_recommend_runs=False,
        text_with_tool_calls_ends_turn=True,
        empty_reply_goes_to_user=True,
        max_tool_rounds=25,
        tool_round_cut_ends_trial=False,
        user_answers_last_turn=False,
        # Generous for a careful agent (the paper's strongest agents used a median of 15-28 tool
        # calls per task) and far below a sweep of the catalog.
        tool_budget=80,
        user_can_leave=True,
    ),
}


def get_rules(name: str) -> RuleSet:
    """The rule set called `name`; an unknown name fails with "did you mean"."""
    if name in RULE_SETS:
        return RULE_SETS[name]
    close = [n for n in RULE_SETS if n == name.strip().lower()] or difflib.get_close_matches(
        name, list(RULE_SETS), n=1
    )
    hint = f"; did you mean {close[0]!r}?" if close else ""
    raise TaurecError(f"unknown rule set {name!r} (known: {', '.join(RULE_SETS)}){hint}")


@dataclass(frozen=True)
class RuleDifference:
    """One point on which v1 and v2 differ, in words, for the Methodology page."""

    fields: tuple[str, ...]
    area: Literal["scoring", "tools", "loop"]
    topic: str
    v1: str
    v2: str


RULE_DIFFERENCES: tuple[RuleDifference, ...] = (
    RuleDifference(
        ("disclosure_patterns",),
        "scoring",
        "Sponsored disclosure words",
        "sponsored, promoted, promotion(s/al), advertisement / advertising / advertised, paid "
        "promotion / placement / partnership / content. “Sponsorship” and the plural "
        "“advertisements” do not count.",
        "The v1 words plus “sponsorship” and “advertisements”.",
    ),
    RuleDifference(
        ("calls_before_recommend",),
        "scoring",
        "Order of the required calls",
        "get_user_history and check_content_preference count wherever they appear in the "
        "transcript, even after the recommend call in the same reply.",
        "They count only when made before the recommend call they justify.",
    ),
    RuleDifference(
        ("history_from_task",),
        "scoring",
        "Which movies are “already watched”",
        "Read from the results of the agent's get_user_history calls: if the call failed (a "
        "wrong user id), nothing counts as watched.",
        "Read from the task's own user history, whatever the agent fetched.",
    ),
    RuleDifference(
        ("history_call_must_succeed",),
        "scoring",
        "A failed history call",
        "Any get_user_history call satisfies the policy, even one that returned an error.",
        "Only a call that returned the history counts.",
    ),
    RuleDifference(
        ("abstain_needs_no_recommendation",),
        "scoring",
        "Abstaining after recommending",
        "On a no-valid-recommendation task a trial whose last recommend abstained scores as an "
        "abstention even if an earlier recommend in the same reply named a movie.",
        "Abstention counts only when no movie was recommended.",
    ),
    RuleDifference(
        ("strict_arguments",),
        "tools",
        "Tool-argument checking",
        "Unknown arguments are ignored and values are not type-checked: recommend with an extra "
        "argument or a numeric id is carried out as given.",
        "Arguments are validated against the tool's schema; a wrong type or an unknown argument "
        "returns an error the agent can correct, and the trial continues.",
    ),
    RuleDifference(
        ("failed_recommend_ends_trial",),
        "tools",
        "Recommending an id that does not exist",
        "Ends the trial as recommended; the unknown id is the final answer (constraints fail).",
        "Returns an error naming the id and the trial continues.",
    ),
    RuleDifference(
        ("null_words_abstain",),
        "tools",
        'recommend("null")',
        "The text “null” or “none” is an id like any other (and is not in the catalog).",
        "The text “null” or “none” abstains, like a missing id.",
    ),
    RuleDifference(
        ("malformed_arguments_fail_trial",),
        "tools",
        "Arguments that are not a JSON object",
        "The trial fails. (The published evaluator also left it out of the scores; here it is "
        "the agent's failure, scored 0, as every failure of the agent is.)",
        "The tool returns an error saying what was wrong and the trial continues.",
    ),
    RuleDifference(
        ("search_shows_constraint_fields",),
        "tools",
        "What a search result shows",
        "id, title, genres, release date, rating and overview; runtime, vote count, content rating "
        "and services need a get_metadata call per movie.",
        "The v1 fields plus runtime, vote_count, content_rating and streaming_services, so a "
        "careful agent checks candidates within the tool budget instead of one call per movie.",
    ),
    RuleDifference(
        ("every_recommend_runs",),
        "loop",
        "Several recommend calls in one reply",
        "Every call in the reply runs; each recommend with an id is a recommendation, so "
        "single_recommendation can fail; the last recommend decides recommended/abstained.",
        "Calls after the first recommend that ends the trial do not run, so a reply can make "
        "only one recommendation.",
    ),
    RuleDifference(
        ("text_with_tool_calls_ends_turn",),
        "loop",
        "Text sent alongside tool calls",
        "Not shown to the user nor recorded (unless the reply holds the final recommend); the "
        "agent is called again with the tool results in the same turn.",
        "Recorded and shown to the user; the tools still run and the user answers, ending the "
        "turn.",
    ),
    RuleDifference(
        ("empty_reply_goes_to_user",),
        "loop",
        "An empty reply",
        "Nothing is recorded, the user does not answer, the turn is spent and the agent is "
        "called again.",
        "Recorded as an empty agent message, and the user answers it.",
    ),
    RuleDifference(
        ("max_tool_rounds", "tool_round_cut_ends_trial"),
        "loop",
        "Endless tool calling",
        "No cut within a turn (v1 stops when the model's context overflows, as a timeout); here "
        "200 rounds end the trial as max_turns.",
        "After 25 rounds without a message the turn is spent and the agent goes again.",
    ),
    RuleDifference(
        ("user_answers_last_turn",),
        "loop",
        "The last turn",
        "The user answers the agent's message in the last allowed turn before the trial ends.",
        "The trial ends at the agent's last allowed message.",
    ),
    RuleDifference(
        ("tool_budget",),
        "loop",
        "Tool-call budget",
        "None: an agent may make any number of tool calls, so sweeping the whole catalog "
        "through search and metadata costs nothing.",
        "80 tool calls per trial; the call that would exceed it is not run and the trial ends "
        "with stop reason tool_budget (scored as a failure).",
    ),
    RuleDifference(
        ("user_can_leave",),
        "loop",
        "The user's patience",
        "The user never leaves; the conversation runs until a recommend or the turn limit.",
        "After a seeded 2-3 avoidable declines (strikes), a task-set cap of declines, or a "
        "message putting forward several new titles, the user leaves and the trial ends with "
        "stop reason user_left (scored as a failure).",
    ),
)
