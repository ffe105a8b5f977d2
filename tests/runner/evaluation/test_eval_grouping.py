"""The report groups failures by the rule broken, never by value or exact message: a flawed agent
that breaks the same few rules in many small variants (tests/runner/evaluation/flawed.py) gets a
handful of headings, each with a count and an example, on both domains."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from runner.core.domains import get_domain
from runner.evaluation import EvalResult, evaluate
from runner.evaluation.feedback import kind_titles, rule_text
from runner.play.agent_config import HttpAgentConfig, RetryConfig
from tests.loopback import serving

from .flawed import FlawedAgent

FAST_RETRY = RetryConfig(max_attempts=2, initial_backoff_s=0.001, max_backoff_s=0.002)
DIRECTIONS = (
    "above the maximum|below the minimum|not the value asked for|a value ruled out|"
    "lacks a value asked for|has none of the values asked for|has a value ruled out|"
    "not one of the values allowed"
)


@pytest.fixture(scope="module")
def flawed_url() -> Iterator[str]:
    with serving(FlawedAgent) as server:
        yield f"http://127.0.0.1:{server.server_port}/step"


@pytest.fixture(scope="module", params=["movies", "grocery"])
def flawed_run(request: pytest.FixtureRequest, flawed_url: str) -> EvalResult:
    agent = HttpAgentConfig(endpoint=flawed_url, timeout_s=30, retry=FAST_RETRY)
    return evaluate(agent, domain=request.param, trials=2, seed=1)


def _sections(markdown: str) -> list[tuple[str, str]]:
    """The (heading, body) of every cause heading of the report."""
    causes = markdown.split("## What went wrong, by cause", 1)[1].split("\n## ", 1)[0]
    parts = re.split(r"^### (.*)$", causes, flags=re.MULTILINE)
    return list(zip(parts[1::2], parts[2::2], strict=True))


def _distinct_messages(result: EvalResult) -> set[str]:
    """What a report grouping by exact message or value would have made a heading of each."""
    seen: set[str] = set()
    for trial in result.failing:
        seen.update(f"{r.kind} {r.name}: {r.reason}" for r in trial.reasons)
        if trial.error is not None:
            seen.add(trial.error.message.splitlines()[0])
        if trial.transcript is not None:
            seen.update(
                e.result
                for e in trial.transcript.events
                if getattr(e, "is_error", False) and e.name != "recommend"
            )
    return seen


def test_a_flawed_agent_gets_at_most_twelve_headings_each_with_a_count_and_an_example(
    flawed_run: EvalResult,
) -> None:
    markdown = flawed_run.to_markdown()
    print(markdown)
    # The agent's mistakes come in many variants: grouped by message there would be dozens.
    assert len(_distinct_messages(flawed_run)) > 40
    sections = _sections(markdown)
    assert 3 <= len(sections) <= 12
    for heading, body in sections:
        assert re.fullmatch(
            r"\d+\. [a-z ]+ — (\d+ calls in )?\d+ trial\(s\)(, \d+ rules)?", heading
        )
        assert re.search(r"^  - example: `task_\w+#\d+`", body, flags=re.MULTILINE), heading
    # Every rule line says how often and shows an example; none names a value, an id or a number.
    causes = flawed_run.feedback.causes
    titles = kind_titles(get_domain(flawed_run.domain))
    for cause in causes:
        assert f"**{cause.heading(titles)}**" in markdown
        assert re.fullmatch(r"task_\w+#\d+", cause.example)
        if cause.kind != "agent_error":
            assert not re.search(r"\d", cause.label), cause.label
    kinds = {cause.kind for cause in causes}
    assert {"tool_error", "constraint", "agent_error"} <= kinds


def test_an_http_error_is_one_cause_by_its_status_whatever_its_body_or_retries(
    flawed_run: EvalResult,
) -> None:
    [http] = [c for c in flawed_run.feedback.causes if c.kind == "agent_error"]
    assert http.label == "ServerError: HTTP 500"
    bodies = {t.error.message for t in flawed_run.failing if t.error is not None}
    assert len(bodies) == http.trials > 1  # each 500 said something else, all one heading
    assert any("HTTP 500 from the agent endpoint: {" in d for d in http.details)


def test_a_missed_constraint_is_grouped_by_field_and_direction(flawed_run: EvalResult) -> None:
    missed = [c for c in flawed_run.feedback.causes if c.kind == "constraint"]
    assert len(missed) >= 3
    for cause in missed:
        assert re.fullmatch(rf"\w+: ({DIRECTIONS})", cause.label), cause.label
        assert cause.details[0].startswith("asked: ")
    labels = [c.label for c in missed]
    assert len(labels) == len(set(labels))


def test_refused_tool_calls_are_grouped_by_rule_not_by_id_or_name(
    flawed_run: EvalResult,
) -> None:
    refused = {c.label: c for c in flawed_run.feedback.causes if c.kind == "tool_error"}
    if "unknown tool" in refused:  # movies: a differently named tool on each task
        assert refused["unknown tool"].trials > 9
    else:  # grocery: stock refusals of a different product on each task, one rule
        stock = refused["add_to_basket: only N unit(s) of <id> can be added; asked for N"]
        unknown = refused[
            "add_to_basket: unknown product id …: ids look like '<id>'; use search_products "
            "to find them"
        ]
        assert stock.trials > 12
        assert unknown.trials > 12


def test_no_heading_contradicts_the_stop_reason(flawed_run: EvalResult) -> None:
    markdown = flawed_run.to_markdown()
    assert "the trial ended `recommended`" not in markdown
    for cause in flawed_run.feedback.causes:
        if cause.kind == "unfinished":
            assert "`recommended`" not in cause.label


@pytest.mark.parametrize(
    ("first", "second", "rule"),
    [
        (
            "only 0 unit(s) of off_0000000000017 can be added (1 already in the basket); asked for 3",
            "only 2 unit(s) of off_0000000000342 can be added; asked for 5",
            "only N unit(s) of <id> can be added; asked for N",
        ),
        (
            "unknown order id 'x9'; the shopper's orders are: ord_1, ord_2",
            "unknown order id 'placed_7'; the shopper's orders are: ord_4",
            "unknown order id …; the shopper's orders are: …",
        ),
        ("Movie not found: tmdb_99", "Movie not found: 12", "Movie not found: …"),
        (
            "unknown content rating 'PG-15'; use one of G, PG",
            "unknown content rating 'X'; use one of G, PG",
            "unknown content rating …; use one of G, PG",
        ),
        (
            "HTTP 500 from http://127.0.0.1:8000/v1: busy (gave up after 3 attempt(s) in 1.2s)",
            "HTTP 500 from http://127.0.0.1:8000/v1: busy (gave up after 6 attempt(s) in 30.0s)",
            "HTTP N from http://127.0.0.1:8000/v1: busy",
        ),
    ],
)
def test_two_instances_of_one_rule_read_the_same(first: str, second: str, rule: str) -> None:
    assert rule_text(first) == rule_text(second) == rule
