"""The v1-parity corpus: under `rules: v1` every case gets v1's verdict; under v2, ours (and they differ).

Each case in `v1_parity_cases.json` is a hand-written minimal trial (scripted agent replies, a
user who always gives the same answer) isolating one policy, tool-argument or loop edge. Its `v1`
verdict is what the published evaluator and loop give for it; `v2` is what our rules give.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from domains.movies.catalog import Catalog, CatalogItem
from domains.movies.scoring import score_transcript
from domains.movies.tasks import Task
from domains.movies.tools import build_toolset
from runner.core.protocols import AgentReply, ChatMessage, ToolCallRequest, ToolSchema
from runner.core.rules import RULE_DIFFERENCES, RULE_SETS, RuleSet, get_rules
from runner.core.transcript import ComponentSpec, Transcript
from runner.play.loop import run_trial
from tests.movie_world import FixedUser

CORPUS = json.loads((Path(__file__).parent / "v1_parity_cases.json").read_text(encoding="utf-8"))
CATALOG = Catalog([CatalogItem.model_validate(i) for i in CORPUS["catalog"]])
TASKS = {name: Task.model_validate(t) for name, t in CORPUS["tasks"].items()}
CASES = {case["id"]: case for case in CORPUS["cases"]}


class ScriptedAgent:
    """Plays the case's replies in order, then keeps saying it is still thinking."""

    def __init__(self, replies: list[dict[str, Any]]) -> None:
        self.replies = replies
        self.i = 0

    @property
    def spec(self) -> ComponentSpec:
        return ComponentSpec(name="parity-script")

    async def step(self, messages: list[ChatMessage], tools: list[ToolSchema]) -> AgentReply:
        if self.i >= len(self.replies):
            return AgentReply(content="Still thinking about it.")
        reply = self.replies[self.i]
        self.i += 1
        calls = [
            ToolCallRequest(id=f"c{self.i}_{j}", name=c["name"], arguments=c["arguments"])
            for j, c in enumerate(reply["tool_calls"])
        ]
        return AgentReply(content=reply["content"], tool_calls=calls)


def run_case(case: dict[str, Any], rules: RuleSet) -> Transcript:
    task = TASKS[case["task"]]
    return asyncio.run(
        run_trial(
            task=task,
            catalog=CATALOG,
            agent=ScriptedAgent(case["agent"]),
            simulator=FixedUser("Something light, please.", "same-answer"),
            toolset=build_toolset(CATALOG, task, rules=rules),
            seed=0,
            max_turns=case.get("max_turns", 20),
            rules=rules,
        )
    )


def verdict(case: dict[str, Any], rules: RuleSet) -> dict[str, Any]:
    """The same fields the corpus records: outcome, stop reason, recommendations and scores."""
    transcript = run_case(case, rules)
    if transcript.stop_reason == "agent_error":
        return {"outcome": "trial_fails"}  # v1 fails the trial; it is scored 0 (next test)
    score = score_transcript(TASKS[case["task"]], transcript, CATALOG)
    return {
        "outcome": "scored",
        "stop_reason": "timeout"
        if transcript.stop_reason == "max_turns"
        else transcript.stop_reason,
        "recommendations": transcript.recommendations,
        "constraint_score": score.constraint_score,
        "policy_score": score.policy_score,
        "reward": score.reward,
        "failed_policies": sorted(p.policy for p in score.policies if not p.passed),
    }


@pytest.mark.parametrize("case_id", sorted(CASES))
def test_v1_rules_reproduce_v1_verdict(case_id: str) -> None:
    case = CASES[case_id]
    assert verdict(case, get_rules("v1")) == case["v1"], case["edge"]


@pytest.mark.parametrize("case_id", sorted(CASES))
def test_v2_rules_give_our_verdict(case_id: str) -> None:
    case = CASES[case_id]
    assert verdict(case, get_rules("v2")) == case["v2"], case["edge"]


def test_every_difference_has_a_case_that_flips_a_reward_or_outcome() -> None:
    """Not controls: each non-control case changes the reward (or whether the trial counts)."""
    flips = [
        c["id"]
        for c in CASES.values()
        if (c["v1"]["outcome"], c["v1"].get("reward"))
        != (c["v2"]["outcome"], c["v2"].get("reward"))
    ]
    controls = [c["id"] for c in CASES.values() if c["edge"].startswith("control")]
    assert set(flips) | set(controls) == set(CASES)
    assert not set(flips) & set(controls)


def test_rule_differences_cover_every_field_exactly_once() -> None:
    listed = [f for d in RULE_DIFFERENCES for f in d.fields]
    fields = [f for f in RuleSet.model_fields if f != "name"]
    assert sorted(listed) == sorted(fields)
    for name in fields:
        assert getattr(RULE_SETS["v1"], name) != getattr(RULE_SETS["v2"], name), name


def test_transcript_and_score_name_the_rule_set() -> None:
    case = CASES["two_recommends_one_reply"]
    transcript = run_case(case, get_rules("v1"))
    assert transcript.rules == "v1"
    again = Transcript.model_validate_json(transcript.model_dump_json())
    # Re-scored from the file alone, it is judged under the rules it ran under.
    assert score_transcript(TASKS["comedy"], again, CATALOG).reward == case["v1"]["reward"]
    assert score_transcript(TASKS["comedy"], again, CATALOG, get_rules("v2")).policy_score == 0.0


def test_unknown_rule_set_suggests_the_closest() -> None:
    from runner.core.errors import TaurecError

    with pytest.raises(TaurecError, match="did you mean 'v1'"):
        get_rules("V1")


def test_a_trial_v1_fails_is_scored_zero_not_dropped() -> None:
    # Before: v1's failed trial was recorded as an infra error and left out of n. The one
    # attribution rule (runner.play.attribution) makes the agent's malformed arguments its failure.
    case = CASES["malformed_arguments"]
    transcript = run_case(case, get_rules("v1"))
    assert transcript.stop_reason == "agent_error"
    assert transcript.error is not None
    assert transcript.error.kind == "MalformedToolArguments"
    assert score_transcript(TASKS[case["task"]], transcript, CATALOG).reward == 0
