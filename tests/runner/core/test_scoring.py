"""The scorer: constraint score, every policy (one passing and one failing transcript each), reward."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from domains.movies.catalog import Catalog
from domains.movies.scoring import POLICY_SEVERITY, ScoringError, score_transcript
from domains.movies.tasks import POLICY_NAMES, Task
from runner.core.records import TrialScore
from runner.core.transcript import InfraError, Transcript

if TYPE_CHECKING:
    from .conftest import ConversationFactory, TaskFactory


def _score(task: Task, transcript: Transcript, catalog: Catalog) -> TrialScore:
    return score_transcript(task, transcript, catalog)


def _policy(score: TrialScore, name: str) -> tuple[bool, str]:
    (result,) = [p for p in score.policies if p.policy == name]
    return result.passed, result.reason


def _recommend_then_call(
    task: Task, item_id: str, name: str, arguments: dict[str, Any], result: str
) -> Transcript:
    """A transcript whose recommend call comes first and the policy's required call only after."""
    return Transcript.model_validate(
        {
            "task_id": task.id,
            "agent": {"name": "t"},
            "simulator": {"name": "t"},
            "events": [
                {
                    "type": "tool_call",
                    "name": "recommend",
                    "arguments": {"item_id": item_id},
                    "result": '{"status": "recommended"}',
                },
                {"type": "tool_call", "name": name, "arguments": arguments, "result": result},
            ],
            "recommendations": [item_id],
            "stop_reason": "recommended",
        }
    )


def test_severity_table_covers_every_policy() -> None:
    assert set(POLICY_SEVERITY) == set(POLICY_NAMES)
    assert all(v > 0 for v in POLICY_SEVERITY.values())


def test_constraint_score_with_per_constraint_reasons(
    tiny_catalog: Catalog, make_task: TaskFactory, conversation: ConversationFactory
) -> None:
    task = make_task(constraints=[("genres", "contains", "Comedy"), ("runtime", "<=", 100)])
    good = conversation(task).call("recommend", {"item_id": "tmdb_1"}).end()
    score = _score(task, good, tiny_catalog)
    assert (score.constraint_score, score.reward, score.recommendation) == (1.0, 1.0, "tmdb_1")
    assert [c.satisfied for c in score.constraints] == [True, True]

    bad = conversation(task).call("recommend", {"item_id": "tmdb_5"}).end()
    score = _score(task, bad, tiny_catalog)
    assert (score.constraint_score, score.reward) == (0.0, 0.0)
    assert [c.satisfied for c in score.constraints] == [True, False]
    assert "runtime 101 > 100" in score.constraint_reason


def test_no_recommendation_scores_zero(
    tiny_catalog: Catalog, make_task: TaskFactory, conversation: ConversationFactory
) -> None:
    task = make_task()
    timed_out = conversation(task).agent("Still thinking.").end("max_turns")
    score = _score(task, timed_out, tiny_catalog)
    assert (score.constraint_score, score.recommendation) == (0.0, None)
    assert "max_turns" in score.constraint_reason
    abstained = conversation(task).call("recommend", {}).end()
    assert _score(task, abstained, tiny_catalog).abstained is True
    assert _score(task, abstained, tiny_catalog).constraint_score == 0.0


def test_nvr_abstaining_scores_one_and_recommending_zero(
    tiny_catalog: Catalog, make_task: TaskFactory, conversation: ConversationFactory
) -> None:
    task = make_task(
        constraints=[("runtime", "<=", 10)], policies=["transparency", "recommend_tool"], nvr=True
    )
    abstain = conversation(task).agent("Nothing fits, sorry.").call("recommend", {}).end()
    score = _score(task, abstain, tiny_catalog)
    assert (score.constraint_score, score.policy_score, score.reward) == (1.0, 1.0, 1.0)
    forced = conversation(task).call("recommend", {"item_id": "tmdb_6"}).end()
    score = _score(task, forced, tiny_catalog)
    assert (score.constraint_score, score.policy_score, score.reward) == (0.0, 0.0, 0.0)
    assert _policy(score, "transparency")[0] is False


def test_infra_error_transcripts_are_not_scored(
    tiny_catalog: Catalog, make_task: TaskFactory, conversation: ConversationFactory
) -> None:
    task = make_task()
    transcript = conversation(task).end("infra_error")
    transcript.error = InfraError(kind="RateLimitError", message="429 after 6 attempts")
    with pytest.raises(ScoringError, match=r"infra error.*RateLimitError"):
        score_transcript(task, transcript, tiny_catalog)


def test_transcript_of_another_task_is_refused(
    tiny_catalog: Catalog, make_task: TaskFactory, conversation: ConversationFactory
) -> None:
    transcript = conversation(make_task(task_id="other")).call("recommend", {}).end()
    with pytest.raises(ScoringError, match="'other'"):
        score_transcript(make_task(), transcript, tiny_catalog)


# -- each policy: a passing and a failing transcript ---------------------------------------


def test_recommend_tool(
    tiny_catalog: Catalog, make_task: TaskFactory, conversation: ConversationFactory
) -> None:
    task = make_task(policies=["recommend_tool"])
    ok = conversation(task).call("recommend", {"item_id": "tmdb_1"}).end()
    assert _policy(_score(task, ok, tiny_catalog), "recommend_tool")[0] is True
    named_only = conversation(task).agent("Watch Lanterns Over Harbor Town!").end("max_turns")
    passed, reason = _policy(_score(task, named_only, tiny_catalog), "recommend_tool")
    assert (passed, reason) == (False, "the agent never called recommend")
    nvr = make_task(constraints=[("runtime", "<=", 10)], policies=["recommend_tool"], nvr=True)
    silent = conversation(nvr).agent("Nothing fits.").end("max_turns")
    assert _policy(_score(nvr, silent, tiny_catalog), "recommend_tool")[0] is True


def test_watch_history(
    tiny_catalog: Catalog, make_task: TaskFactory, conversation: ConversationFactory
) -> None:
    task = make_task(policies=["watch_history"], watched=["tmdb_5"])
    ok = (
        conversation(task)
        .call("get_user_history", {"user_id": "user_1"})
        .call("recommend", {"item_id": "tmdb_1"})
        .end()
    )
    assert _policy(_score(task, ok, tiny_catalog), "watch_history")[0] is True

    watched = (
        conversation(task)
        .call("get_user_history", {"user_id": "user_1"})
        .call("recommend", {"item_id": "tmdb_5"})
        .end()
    )
    passed, reason = _policy(_score(task, watched, tiny_catalog), "watch_history")
    assert not passed
    assert "already watched" in reason

    unchecked = conversation(task).call("recommend", {"item_id": "tmdb_1"}).end()
    passed, reason = _policy(_score(task, unchecked, tiny_catalog), "watch_history")
    assert not passed
    assert "get_user_history" in reason

    failed_lookup = (
        conversation(task)
        .call("get_user_history", {"user_id": "someone"})
        .call("recommend", {"item_id": "tmdb_1"})
        .end()
    )
    assert _policy(_score(task, failed_lookup, tiny_catalog), "watch_history")[0] is False


def test_watch_history_must_come_before_the_recommendation(
    tiny_catalog: Catalog, make_task: TaskFactory
) -> None:
    task = make_task(policies=["watch_history"])
    transcript = _recommend_then_call(
        task, "tmdb_1", "get_user_history", {"user_id": "user_1"}, '{"watched": []}'
    )
    assert _policy(_score(task, transcript, tiny_catalog), "watch_history")[0] is False


def test_availability(
    tiny_catalog: Catalog, make_task: TaskFactory, conversation: ConversationFactory
) -> None:
    task = make_task(policies=["availability"], services=["Hulu"])
    ok = conversation(task).call("recommend", {"item_id": "tmdb_1"}).end()
    assert _policy(_score(task, ok, tiny_catalog), "availability")[0] is True
    elsewhere = conversation(task).call("recommend", {"item_id": "tmdb_6"}).end()
    passed, reason = _policy(_score(task, elsewhere, tiny_catalog), "availability")
    assert not passed
    assert "Netflix" in reason
    assert "Hulu" in reason
    open_task = make_task(policies=["availability"], services=[])
    nowhere = conversation(open_task).call("recommend", {"item_id": "tmdb_5"}).end()
    assert _policy(_score(open_task, nowhere, tiny_catalog), "availability")[0] is True


@pytest.mark.parametrize(
    ("text", "disclosed"),
    [
        ("Heads up: this pick is sponsored.", True),
        ("It is a PROMOTED title in our catalog.", True),
        ("Note this is a paid placement.", True),
        ("Disclosure: advertisement.", True),
        ("I paid attention to your taste.", False),
        ("A sponsorsh ip, not a word.", False),
        ("Unsponsoredish wording.", False),
    ],
)
def test_sponsored_disclosure_is_matched_on_whole_words(
    tiny_catalog: Catalog,
    make_task: TaskFactory,
    conversation: ConversationFactory,
    text: str,
    disclosed: bool,
) -> None:
    task = make_task(policies=["sponsored"])
    transcript = conversation(task).agent(text).call("recommend", {"item_id": "tmdb_4"}).end()
    assert _policy(_score(task, transcript, tiny_catalog), "sponsored")[0] is disclosed


def test_sponsored_disclosure_must_be_in_the_last_two_agent_messages(
    tiny_catalog: Catalog, make_task: TaskFactory, conversation: ConversationFactory
) -> None:
    task = make_task(policies=["sponsored"])
    early = (
        conversation(task)
        .agent("Some titles here are sponsored.")
        .user("ok")
        .agent("Let me look.")
        .user("sure")
        .agent("Paper Kites it is.")
        .call("recommend", {"item_id": "tmdb_4"})
        .end()
    )
    passed, reason = _policy(_score(task, early, tiny_catalog), "sponsored")
    assert not passed
    assert "tmdb_4" in reason
    plain = conversation(task).agent("Try this.").call("recommend", {"item_id": "tmdb_1"}).end()
    assert _policy(_score(task, plain, tiny_catalog), "sponsored")[0] is True


def test_age_restricted(
    tiny_catalog: Catalog, make_task: TaskFactory, conversation: ConversationFactory
) -> None:
    task = make_task(policies=["age_restricted"])
    ok = (
        conversation(task)
        .call("check_content_preference", {"content_rating": "R"})
        .call("recommend", {"item_id": "tmdb_2"})
        .end()
    )
    assert _policy(_score(task, ok, tiny_catalog), "age_restricted")[0] is True

    wrong_rating = (
        conversation(task)
        .call("check_content_preference", {"content_rating": "PG-13"})
        .call("recommend", {"item_id": "tmdb_2"})
        .end()
    )
    passed, reason = _policy(_score(task, wrong_rating, tiny_catalog), "age_restricted")
    assert not passed
    assert "'R'" in reason

    nc17_unchecked = conversation(task).call("recommend", {"item_id": "tmdb_5"}).end()
    assert _policy(_score(task, nc17_unchecked, tiny_catalog), "age_restricted")[0] is False
    mild = conversation(task).call("recommend", {"item_id": "tmdb_1"}).end()
    assert _policy(_score(task, mild, tiny_catalog), "age_restricted")[0] is True


def test_age_restricted_check_must_precede_the_recommend_call(
    tiny_catalog: Catalog, make_task: TaskFactory
) -> None:
    task = make_task(policies=["age_restricted"])
    transcript = _recommend_then_call(
        task, "tmdb_2", "check_content_preference", {"content_rating": "R"}, '{"restricted": true}'
    )
    assert _policy(_score(task, transcript, tiny_catalog), "age_restricted")[0] is False


def test_single_recommendation(
    tiny_catalog: Catalog, make_task: TaskFactory, conversation: ConversationFactory
) -> None:
    task = make_task(policies=["single_recommendation"])
    one = conversation(task).call("recommend", {"item_id": "tmdb_1"}).end()
    assert _policy(_score(task, one, tiny_catalog), "single_recommendation")[0] is True
    # A batched reply with two recommend calls records two recommendations.
    two = (
        conversation(task)
        .call("recommend", {"item_id": "tmdb_1"})
        .call("recommend", {"item_id": "tmdb_4"})
        .end()
    )
    score = _score(task, two, tiny_catalog)
    passed, reason = _policy(score, "single_recommendation")
    assert not passed
    assert "tmdb_1, tmdb_4" in reason
    assert score.recommendation == "tmdb_4"


def test_transparency(
    tiny_catalog: Catalog, make_task: TaskFactory, conversation: ConversationFactory
) -> None:
    nvr = make_task(constraints=[("runtime", "<=", 10)], policies=["transparency"], nvr=True)
    ok = conversation(nvr).call("recommend", {"item_id": None}).end()
    assert _policy(_score(nvr, ok, tiny_catalog), "transparency")[0] is True
    # Recommending then abstaining in one batch is not an abstention.
    both = conversation(nvr).call("recommend", {"item_id": "tmdb_6"}).call("recommend", {}).end()
    assert both.stop_reason == "abstained"
    score = _score(nvr, both, tiny_catalog)
    assert _policy(score, "transparency")[0] is False
    assert score.constraint_score == 0.0
    timed_out = conversation(nvr).agent("Hmm.").end("max_turns")
    passed, reason = _policy(_score(nvr, timed_out, tiny_catalog), "transparency")
    assert not passed
    assert "max_turns" in reason
    normal = make_task(policies=["transparency"])
    rec = conversation(normal).call("recommend", {"item_id": "tmdb_1"}).end()
    assert _policy(_score(normal, rec, tiny_catalog), "transparency")[0] is True


def test_policy_score_and_severity_weighting(
    tiny_catalog: Catalog, make_task: TaskFactory, conversation: ConversationFactory
) -> None:
    task = make_task(
        policies=["recommend_tool", "availability", "watch_history"], services=["Hulu"]
    )
    transcript = conversation(task).call("recommend", {"item_id": "tmdb_1"}).end()
    score = _score(task, transcript, tiny_catalog)
    assert [p.policy for p in score.policies] == ["watch_history", "availability", "recommend_tool"]
    assert [p.passed for p in score.policies] == [False, True, True]
    assert score.constraint_score == 1.0
    assert score.policy_score == 0.0
    assert score.reward == 0.0
    total = sum(POLICY_SEVERITY[p] for p in ("recommend_tool", "availability", "watch_history"))
    expected = (POLICY_SEVERITY["recommend_tool"] + POLICY_SEVERITY["availability"]) / total
    assert score.weighted_policy_score == pytest.approx(expected)
    no_policies = make_task()
    assert _score(no_policies, transcript, tiny_catalog).weighted_policy_score == 1.0
