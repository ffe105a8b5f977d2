"""A domain is a package plus one registration line: the tiny tea shop (examples/tiny_domain) runs
through the real engine, `evaluate`, strictness and the suite marker with nothing else added."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from runner.core import domains
from runner.core.domain import Domain
from runner.core.errors import LoadError
from runner.core.paths import PROJECT_ROOT
from runner.core.protocols import AgentContext, AgentReply, ChatMessage, ToolCallRequest, ToolSchema
from runner.core.transcript import ComponentSpec
from runner.evaluation import evaluate

TINY = PROJECT_ROOT / "examples" / "tiny_domain"


@pytest.fixture
def tiny(monkeypatch: pytest.MonkeyPatch) -> Iterator[Domain]:
    monkeypatch.syspath_prepend(str(TINY))
    domains.get_domain.cache_clear()
    assert "tiny" not in domains.domain_names()
    # The one registration line a new domain needs:
    monkeypatch.setitem(domains.REGISTRY, "tiny", "tiny_domain:TinyDomain")
    yield domains.get_domain("tiny")
    domains.get_domain.cache_clear()
    sys.modules.pop("tiny_domain", None)


def _pass1(result: Any) -> float:
    return float(result.summary.pass_hat_k[0].value)


def test_a_registered_domain_runs_through_evaluate(tiny: Domain, tmp_path: Path) -> None:
    result = evaluate("picker", domain="tiny", trials=2, results=tmp_path / "r", preflight=False)
    assert result.domain == "tiny"
    assert result.snapshot == "tiny-2026-01-01"
    assert _pass1(result) == 1.0
    assert (tmp_path / "r" / "tiny-2026-01-01" / "run.json").is_file()


def test_a_weaker_built_in_of_the_domain_scores_lower(tiny: Domain) -> None:
    assert _pass1(evaluate("first", domain="tiny", trials=1, preflight=False)) == 0.0


def test_the_suite_folder_names_its_domain(tiny: Domain) -> None:
    result = evaluate("picker", suite=tiny.tasks_dir, trials=1, preflight=False)
    assert result.domain == "tiny"
    assert _pass1(result) == 1.0


class _Blind:
    """Sells the caffeine-free tea under 2 euros without looking (breaks the low-severity policy)."""

    def __init__(self, context: AgentContext) -> None:
        del context

    @property
    def spec(self) -> ComponentSpec:
        return ComponentSpec(name="blind")

    async def step(self, messages: list[ChatMessage], tools: list[ToolSchema]) -> AgentReply:
        call = ToolCallRequest(id="c1", name="choose", arguments={"tea_id": "tea_5"})
        return AgentReply(tool_calls=[call])


@pytest.mark.parametrize(("strictness", "reward"), [("high", 0.0), ("medium", 1.0), ("low", 1.0)])
def test_strictness_decides_whether_a_low_severity_breach_fails(
    tiny: Domain, strictness: Any, reward: float
) -> None:
    result = evaluate(
        _Blind, domain="tiny", tasks=["t1"], trials=1, strictness=strictness, preflight=False
    )
    assert result.strictness == strictness
    assert _pass1(result) == reward


def test_an_unknown_domain_names_the_known_ones(tiny: Domain) -> None:
    with pytest.raises(domains.UnknownDomainError, match="did you mean 'tiny'"):
        domains.get_domain("tinny")


def test_a_suite_marker_naming_another_domain_is_refused(tiny: Domain, tmp_path: Path) -> None:
    with pytest.raises(LoadError, match="tiny suite"):
        evaluate("picker", suite=tiny.tasks_dir, domain="movies", trials=1, preflight=False)


def test_the_movie_built_ins_are_not_offered_to_another_domain(tiny: Domain) -> None:
    with pytest.raises(Exception, match="unknown built-in agent 'heuristic' for the tiny domain"):
        evaluate("heuristic", domain="tiny", trials=1, preflight=False)


def test_a_submission_runs_only_in_the_domains_it_enters(tiny: Domain, tmp_path: Path) -> None:
    from runner.batch import run_submissions
    from runner.core.errors import TaurecError

    folder = tmp_path / "movie-entry"
    folder.mkdir()
    (folder / "submission.yaml").write_text(
        "schema_version: 1\nslug: movie-entry\ndisplay_name: M\n"
        "contact: {name: A, github: a}\nagent: {kind: builtin, name: heuristic}\n",
        encoding="utf-8",
    )
    with pytest.raises(
        TaurecError, match="not entered in the tiny domain: movie-entry enters movies"
    ):
        run_submissions([folder], domain="tiny", trials=1)
