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


def _said(user: Any, conversation: list[Any], text: str) -> str:
    import asyncio

    from runner.core.transcript import MessageEvent

    conversation.append(MessageEvent(role="agent", content=text))
    turn = asyncio.run(user.respond(list(conversation)))
    conversation.append(MessageEvent(role="user", content=turn.content))
    return str(turn.content)


def test_the_kit_built_shopper_says_its_wishes_when_the_kit_rules_allow(tiny: Domain) -> None:
    from runner.core.transcript import Transcript

    task = next(t for t in tiny.load_tasks(tiny.tasks_dir) if t.id == "t1")
    catalog = tiny.load_catalog(tiny.snapshots_dir / "2026-01-01")
    user = tiny.build_user("scripted", task=task, catalog=catalog, seed=0, options=None)
    conversation: list[Any] = []
    opening = _said(user, conversation, "Hello, welcome to the tea shop. What would you like?")
    assert "No caffeine, please." in opening
    assert "euro" not in opening  # the price is on_ask
    # One topic per message: the second is held back, and a message asking more is a form, after
    # which no new topic is answered (the kit's rule); a topic answered before is answered again.
    both = _said(user, conversation, "Any budget? And is caffeine fine?")
    assert "At most 2.00 euros." in both
    assert "One at a time!" in both
    assert _said(user, conversation, "Is caffeine fine?") == "That's all."
    assert _said(user, conversation, "So what budget again?") == "At most 2.00 euros."
    assert "which tea" in _said(user, conversation, "Let me look.").lower()
    transcript = Transcript(
        task_id="t1", agent={"name": "a"}, simulator={"name": "scripted"}, events=conversation
    )
    assert tiny.audit_leaks(task, transcript).clean  # type: ignore[union-attr]
    early = Transcript(
        task_id="t1",
        agent={"name": "a"},
        simulator={"name": "scripted"},
        events=[*conversation[:2], conversation[1].model_copy(update={"content": "2 euros max."})],
    )
    audit = tiny.audit_leaks(task, early)
    assert audit is not None
    assert [(leak.field, leak.reveal) for leak in audit.leaks] == [("price", "on_ask")]


def test_a_sale_is_scored_by_the_till_it_leaves_against_the_gold_sale(tiny: Domain) -> None:
    from runner.core.rules import get_rules
    from runner.core.transcript import MessageEvent, ToolCallEvent, Transcript

    task = next(t for t in tiny.load_tasks(tiny.tasks_dir) if t.id == "t1")
    catalog = tiny.load_catalog(tiny.snapshots_dir / "2026-01-01")

    def sold(*teas: str) -> Any:
        events: list[Any] = [MessageEvent(role="agent", content="Hello")]
        events += [
            ToolCallEvent(name="choose", arguments={"tea_id": t}, result="{}", is_error=t == "x")
            for t in teas
        ]
        transcript = Transcript(
            task_id="t1", agent={"name": "a"}, simulator={"name": "u"}, events=events
        )
        return tiny.score(task, transcript, catalog, get_rules("v2"))

    wrong = sold("tea_1")
    assert wrong.constraint_score == 0.0
    assert wrong.constraint_reason == 'sold[0]: expected "tea_5", got "tea_1"'
    assert sold("x", "tea_5").constraint_score == 1.0  # a refused sale changed nothing
    assert sold().constraint_reason == 'sold: expected ["tea_5"], got []'


def test_the_tiny_domain_stays_tiny() -> None:
    """Built on the kits, a whole domain fits in 400 lines (issue 36's bound)."""
    lines = (TINY / "tiny_domain" / "__init__.py").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 400
