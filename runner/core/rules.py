"""Named rule sets: `v1` follows the published evaluator, trial loop and tools, quirks included; `v2` is ours.

A rule set is one typed value that the trial loop, the tools and the scorer read; every run,
trial record, transcript and board names the one it used. `RULE_DIFFERENCES` lists every field
on which the two differ, in words, and every point on which `v1` still differs from the published
harness (with the reason); the Methodology page renders both, point by point.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

from runner.core.errors import TaurecError

__all__ = [
    "DEFAULT_RULES",
    "RULE_DIFFERENCES",
    "RULE_SETS",
    "V1_GREETING",
    "V2_GREETING",
    "RuleDifference",
    "RuleSet",
    "RuleSetName",
    "get_rules",
]

RuleSetName = Literal["v1", "v2"]
DEFAULT_RULES: RuleSetName = "v2"

# The agent's fixed opening line: the published loop's, and ours.
V1_GREETING = (
    "Hi! I can help you find a movie to watch. What kind of movie are you in the mood for?"
)
V2_GREETING = (
    "Hello! I'm a movie recommendation assistant with access to our catalog. "
    "What can I help you find tonight?"
)

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
    search_ranking: Literal["okapi_whitespace", "bm25s_stemmed"] = Field(
        description="How search_catalog ranks: okapi_whitespace is the published BM25Okapi over "
        "lower-cased whitespace tokens (domains.movies.search_v1); bm25s_stemmed is ours, with "
        "stemming, English stop words and accent folding (domains.movies.search)"
    )
    tool_texts: Literal["v1", "v2"] = Field(
        description="Wording and JSON encoding of tool results and errors: the published "
        "harness's (v1: its messages, ASCII-escaped JSON) or ours (v2: errors that say how to "
        "recover, did-you-mean hints)"
    )
    history_extras: bool = Field(
        description="get_user_history also returns the user id, and each watched title carries "
        "the user's rating of it"
    )
    unknown_rating_is_error: bool = Field(
        description="check_content_preference with a rating outside G, PG, PG-13, R, NC-17, NR "
        "returns an error (else: not restricted)"
    )
    search_shows_constraint_fields: bool = Field(
        description="search_catalog results also carry runtime, vote_count, content_rating and "
        "streaming_services, so candidates can be checked without a metadata call each"
    )
    # -- loop ---------------------------------------------------------------------------------
    greeting: str = Field(description="The agent's fixed opening message")
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


# Each setting of the two rule sets side by side: (v1, v2).
_SETTINGS: dict[str, tuple[Any, Any]] = {
    "disclosure_patterns": (_V1_DISCLOSURE, _V2_DISCLOSURE),
    "calls_before_recommend": (False, True),
    "history_from_task": (False, True),
    "history_call_must_succeed": (False, True),
    "abstain_needs_no_recommendation": (False, True),
    "strict_arguments": (False, True),
    "failed_recommend_ends_trial": (True, False),
    "null_words_abstain": (False, True),
    "malformed_arguments_fail_trial": (True, False),
    "search_ranking": ("okapi_whitespace", "bm25s_stemmed"),
    "tool_texts": ("v1", "v2"),
    "history_extras": (False, True),
    "unknown_rating_is_error": (False, True),
    "search_shows_constraint_fields": (False, True),
    "greeting": (V1_GREETING, V2_GREETING),
    "every_recommend_runs": (True, False),
    "text_with_tool_calls_ends_turn": (False, True),
    "empty_reply_goes_to_user": (False, True),
    "max_tool_rounds": (200, 25),
    "tool_round_cut_ends_trial": (True, False),
    "user_answers_last_turn": (True, False),
    # Generous for a careful agent (the paper's strongest agents used a median of 15-28 tool
    # calls per task) and far below a sweep of the catalog.
    "tool_budget": (None, 80),
    "user_can_leave": (False, True),
}
RULE_SETS: dict[RuleSetName, RuleSet] = {
    name: RuleSet(name=name, **{setting: pair[i] for setting, pair in _SETTINGS.items()})
    for i, name in enumerate(get_args(RuleSetName))
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
    """One point on which v1 and v2 differ, or on which v1 differs from the published harness.

    `fields` names the `RuleSet` fields the point is about; it is empty for a difference from the
    published harness that both rule sets share (a safety cap, our own wording). `published`
    says what the published harness does wherever `v1` does not do the same, and why not; it is
    None where `v1` matches it.
    """

    fields: tuple[str, ...]
    area: Literal["scoring", "tools", "loop", "user", "agent"]
    topic: str
    v1: str
    v2: str
    published: str | None = None


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
        'recommend("null"), recommend(" ")',
        "The text “null” or “none”, or a blank id (only spaces), is an id like any other: it is "
        "not in the catalog, so the trial ends with it as the answer. Only a missing, null or "
        "empty id abstains.",
        "The text “null” or “none” (any case, spaces around it ignored) and a blank id abstain, "
        "like a missing, null or empty id.",
    ),
    RuleDifference(
        ("malformed_arguments_fail_trial",),
        "tools",
        "Arguments that are not a JSON object",
        "The trial fails, as the agent's failure: scored 0, as every failure of the agent is. So "
        "does a value the tool cannot use at all (a list as an id, a number as a query).",
        "The tool returns an error saying what was wrong and the trial continues.",
        published="The trial fails and is left out of the scores; a value the tool cannot use "
        "made the tool raise, with the same end. Here a failure of the agent is never dropped "
        "from the denominator.",
    ),
    RuleDifference(
        ("search_ranking",),
        "tools",
        "Search ranking",
        "The published ranking, score for score: Okapi BM25 (k1 1.5, b 0.75; a word found in "
        "more than half the movies gets a floor of 0.25 × the mean idf) over lower-cased words "
        "split at spaces, punctuation kept (“horror,” is not “horror”). Each genre, the director "
        "and each cast member is one token, so “science fiction” or a full name typed as a query "
        "matches nothing. Ties keep catalog order; results stop at the first zero score.",
        "BM25 (bm25s) with stemming, English stop words left out and accents folded "
        "(“Saldana” finds “Saldaña”); every word of a name or genre is searchable. Ties keep "
        "catalog order. Over the v1 catalog the two orders differ for 86 of the 101 queries of "
        "the test corpus, and the first result for 49.",
    ),
    RuleDifference(
        ("tool_texts",),
        "tools",
        "Tool messages and errors",
        'The published wording and encoding, byte for byte: e.g. {"error": "Movie not found: '
        "tmdb_0\"}, “Missing required argument: 'query'”, “Unknown tool: …”, its abstain and "
        "age-restriction messages; JSON with non-ASCII letters escaped (“\\u00f1”).",
        "Errors say how to recover: what an id looks like, the closest tool name and the list of "
        "tools, the tool's parameters after a bad argument; letters are kept as they are.",
    ),
    RuleDifference(
        ("history_extras",),
        "tools",
        "What get_user_history returns",
        "The watched titles (id and title) and the map of the user's ratings.",
        "The same plus the user id, and each watched title carries the user's rating of it.",
    ),
    RuleDifference(
        ("unknown_rating_is_error",),
        "tools",
        "check_content_preference with an unknown rating",
        "Any rating but R and NC-17, even one that does not exist (“PG-14”, a lower-case “r”), "
        "is reported as not age-restricted.",
        "A rating other than G, PG, PG-13, R, NC-17 or NR returns an error listing them.",
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
        ("greeting",),
        "loop",
        "The agent's opening line",
        "The published one: “Hi! I can help you find a movie to watch. What kind of movie are "
        "you in the mood for?”",
        "“Hello! I'm a movie recommendation assistant with access to our catalog. What can I "
        "help you find tonight?”",
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
        "200 tool rounds without a message to the user end the trial as max_turns (scored).",
        "After 25 rounds without a message the turn is spent and the agent goes again.",
        published="No cut within a turn: the step runs until the model's context overflows, "
        "which ends the trial as a timeout (scored). A fixed bound makes the end the same for "
        "every model, whatever its context window.",
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
    # -- where v1 still differs from the published harness, under both rule sets ---------------
    RuleDifference(
        (),
        "loop",
        "Tool-call caps",
        "More than 64 tool calls in one reply, or more than 1,000 in one trial, end the trial as "
        "the agent's failure (agent_error, scored 0). A reply with 65 calls followed by a "
        "correct recommend scores 0 here and 1 in the published harness. No built-in agent "
        "meets a cap on the v1 suite: at most 40 calls in one reply and 183 in one trial "
        "(python -m benchmarks.v1_rule_sets, 19 agents × 60 tasks × 2 seeds).",
        "The same caps.",
        published="No cap. The caps are kept under v1 as a safety limit: without them one "
        "reply could make the runner do unbounded work and write unbounded transcripts.",
    ),
    RuleDifference(
        (),
        "tools",
        "Tool descriptions",
        "The same six tools with the same names, arguments and argument types as published, "
        "described in our own words (each tool's docstring); the JSON schema adds defaults and "
        "forbids unknown arguments in the text the model reads (v1 still ignores them).",
        "The same descriptions, plus a note on the extra search fields.",
        published="Its own descriptions, which are its authors' words: we do not copy them. "
        "Both tell the agent that recommend ends the conversation and abstains without an id, "
        "and that an R or NC-17 movie needs check_content_preference first; the wording "
        "differs, and an agent may act on wording.",
    ),
    RuleDifference(
        (),
        "user",
        "The simulated user",
        "Ours, chosen per board, not per rule set: the scripted user (the default) or a model "
        "that only reads the agent's messages and words the reply that a rule-based decision "
        "engine picked from the task's constraints and their reveal tags; no verdict markers.",
        "The same.",
        published="A model prompted with the persona, the constraints and their reveal rules, "
        "answering a recommendation with ###ACCEPTED### or ###REJECTED### (informational: only "
        "recommend ends a trial). The users' words, and so the conversations, differ; the "
        "tasks, reveal tags and scoring are the same.",
    ),
    RuleDifference(
        (),
        "agent",
        "The built-in LiteLLM agent's system prompt",
        "Our instructions, the suite's policy document and the user id (runner.agents.prompt); "
        "under the v1 suite the policy is the published policy.md.",
        "The same.",
        published="Its own prompt, in its authors' words: the tools listed, when to abstain, "
        "the policy and the user id. A model run here under v1 is therefore not the same agent "
        "as the paper's run of that model; it is the same benchmark.",
    ),
)
