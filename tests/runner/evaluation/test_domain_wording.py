"""`eval`'s report words each domain's outcome as that domain does, and lists a tool of another
domain (a movie agent's `recommend`, ported to grocery unchanged) as a refused tool call."""

from __future__ import annotations

import pytest

from runner import evaluate
from runner.core.protocols import AgentReply, ChatMessage, ToolCallRequest, ToolSchema
from runner.core.transcript import ComponentSpec
from runner.evaluation.result import EvalResult


class PortedMovieAgent:
    """Recommends the first id it finds, as a movie agent would, then finishes."""

    def __init__(self) -> None:
        self._turn = 0

    @property
    def spec(self) -> ComponentSpec:
        return ComponentSpec(name="ported-movie-agent")

    async def step(self, messages: list[ChatMessage], tools: list[ToolSchema]) -> AgentReply:
        self._turn += 1
        if self._turn == 1:
            call = ToolCallRequest(
                id="", name="recommend", arguments={"item_id": "off_0000000000017"}
            )
            return AgentReply(tool_calls=[call])
        names = {t.name for t in tools}
        end = "finish" if "finish" in names else "recommend"
        return AgentReply(tool_calls=[ToolCallRequest(id="", name=end, arguments={})])


@pytest.fixture(scope="module", params=["movies", "grocery"])
def ported(request: pytest.FixtureRequest) -> tuple[str, EvalResult]:
    domain = str(request.param)
    return domain, evaluate(PortedMovieAgent, domain=domain, trials=1, seed=3)


def test_a_foreign_recommend_call_is_a_refused_tool_call(ported: tuple[str, EvalResult]) -> None:
    domain, result = ported
    refused = {c.label: c for c in result.feedback.causes if c.kind == "tool_error"}
    if domain == "grocery":
        assert "unknown tool" in refused, sorted(refused)
        assert refused["unknown tool"].trials == sum(t.scored for t in result.tasks)
        assert "recommend(" in refused["unknown tool"].details[0]
    else:  # movies: recommend is its own tool, and an unknown id is judged as a recommendation
        assert "unknown tool" not in refused


def test_the_report_words_the_outcome_as_the_domain_does(ported: tuple[str, EvalResult]) -> None:
    domain, result = ported
    report = result.to_markdown()
    if domain == "grocery":
        for movie_words in ("no recommendation", "recommend() with no id", "recommendations on"):
            assert movie_words not in report, movie_words
        assert "orders and returns on tasks with a constraint" in report
        assert "no single product ordered in " in report
    else:
        assert "recommendations on tasks with a constraint" in report
        assert "no recommendation in " in report
