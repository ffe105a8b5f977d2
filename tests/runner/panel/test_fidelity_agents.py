"""The fidelity panel's agents: registered, deterministic, blind where they must be, within the budget.

The score targets of issue 21 are not asserted here (the simulated user is being rewritten); they
live in `domains.movies.panel_targets` and `benchmarks/user_fidelity.py` prints them.
"""

from __future__ import annotations

import asyncio
import re
from functools import cache
from typing import Any, get_args

import pytest

from domains.movies.adversaries import ADVERSARY_NAMES, PANEL_ADVERSARIES
from domains.movies.baselines.expert import ExpertAgent, constrained_fields
from domains.movies.baselines.natural import PRESS_PHRASES, TOPIC_PHRASES, NaturalTwin
from domains.movies.builtins import BUILTIN_AGENTS
from domains.movies.catalog import Catalog
from domains.movies.panel_targets import TARGETS
from domains.movies.simulators.reader import fields_asked, rule_reader
from domains.movies.tasks import Constraint, Task, TaskConstraint, load_tasks
from runner.agents import build_builtin
from runner.core.paths import POLICY_PATH, SNAPSHOTS_DIR, TASKS_DIR
from runner.core.protocols import AgentContext
from runner.core.transcript import MessageEvent, Transcript
from runner.play.agent_config import BuiltinName
from tests.agent_spy import AgentSpy
from tests.movie_world import movie_trial

NEW_AGENTS = ("expert", "informed", "expert-natural", "heuristic-natural", *PANEL_ADVERSARIES)
# One task of each reveal difficulty, and one with sponsored/age-restricted policies in play.
SAMPLE = ("task_001", "task_030", "task_050", "task_005")
BUDGET = 80


@cache
def _world() -> tuple[Catalog, dict[str, Task], str]:
    snapshot = sorted(p for p in SNAPSHOTS_DIR.iterdir() if p.is_dir())[-1]
    tasks = {t.id: t for t in load_tasks(TASKS_DIR)}
    return Catalog.load(snapshot), tasks, POLICY_PATH.read_text(encoding="utf-8")


def _context(task: Task, seed: int, *, with_task: bool) -> AgentContext:
    """What a submission sees; `with_task`: plus the constrained fields' names (the informed probe)."""
    _catalog, _tasks, policy = _world()
    return AgentContext(
        user_id=task.user_id,
        policy_text=policy,
        seed=seed,
        informed_fields=constrained_fields(task) if with_task else None,
    )


def _trial(agent: Any, task: Task, seed: int) -> Transcript:
    catalog, _tasks, _policy = _world()
    return asyncio.run(movie_trial(task, catalog, agent, seed, trial_index=seed))


def _named(name: str, task: Task, seed: int) -> Transcript:
    return _trial(
        build_builtin(name, _context(task, seed, with_task=name == "informed")), task, seed
    )


def _trace(transcript: Transcript) -> list[tuple[str, str]]:
    out = []
    for event in transcript.events:
        if isinstance(event, MessageEvent):
            out.append((event.role, event.content))
        else:
            out.append((event.name, str(event.arguments)))
    return out


def test_every_panel_agent_is_registered_and_in_the_submission_schema() -> None:
    literal = set(get_args(BuiltinName))
    for name in NEW_AGENTS:
        assert name in BUILTIN_AGENTS
        assert name in literal
    # The panel adversaries are not the `exploit-*` suite (the board's exploit floor).
    assert not set(PANEL_ADVERSARIES) & set(ADVERSARY_NAMES)


def test_every_target_names_a_registered_agent() -> None:
    assert {t.agent for t in TARGETS} <= set(BUILTIN_AGENTS)


@pytest.mark.parametrize("name", NEW_AGENTS)
def test_same_seed_same_transcript(name: str) -> None:
    _catalog, tasks, _policy = _world()
    task = tasks["task_030"]
    first, second = _named(name, task, 1), _named(name, task, 1)
    assert _trace(first) == _trace(second)
    assert first.stop_reason == second.stop_reason


def _scrambled(task: Task) -> Task:
    """The task with every value, operator and reveal tag changed, and the same fields."""
    other_value: dict[str, Any] = {
        "genres": "Western",
        "runtime": 61,
        "rating": 1.5,
        "vote_count": 3,
        "release_date": "1999-01-01",
        "content_rating": "NC-17",
        "director": "Nobody At All",
        "cast": "Nobody At All",
        "streaming_services": "Nowhere+",
    }
    flipped = {"<=": ">=", ">=": "<=", "contains": "not_contains", "not_contains": "contains"}
    reveal_cycle = {"volunteer": "hidden", "on_ask": "volunteer", "hidden": "on_ask"}
    constraints = [
        TaskConstraint.model_construct(
            constraint=Constraint.model_construct(
                field=tc.constraint.field,
                op=flipped.get(tc.constraint.op, tc.constraint.op),
                value=other_value[tc.constraint.field],
            ),
            reveal=reveal_cycle[tc.reveal],
        )
        for tc in task.constraints
    ]
    return task.model_copy(update={"constraints": constraints})


@pytest.mark.parametrize("task_id", ["task_030", "task_050", "task_058"])
def test_the_informed_agent_sees_only_the_field_names(task_id: str) -> None:
    _catalog, tasks, _policy = _world()
    task = tasks[task_id]
    scrambled = _scrambled(task)
    assert constrained_fields(scrambled) == constrained_fields(task)
    # The user plays the real task; the agent is built from the real task or from one whose
    # values, operators and reveal tags are all different: the conversations must be identical.
    real = _trial(build_builtin("informed", _context(task, 2, with_task=True)), task, 2)
    blind = _trial(build_builtin("informed", _context(scrambled, 2, with_task=True)), task, 2)
    assert _trace(real) == _trace(blind)
    first_question = [m.content for m in real.messages if m.role == "agent"][1]
    assert first_question == [m.content for m in blind.messages if m.role == "agent"][1]


def test_the_informed_agent_needs_its_task() -> None:
    _catalog, tasks, _policy = _world()
    with pytest.raises(Exception, match="needs the constrained fields"):
        build_builtin("informed", _context(tasks["task_030"], 0, with_task=False))


@pytest.mark.parametrize(("field", "phrases"), [*TOPIC_PHRASES.items(), *PRESS_PHRASES.items()])
def test_every_natural_phrasing_asks_about_its_own_field_only(
    field: str, phrases: tuple[str, ...]
) -> None:
    for phrase in phrases:
        assert list(fields_asked(f"Could you tell me {phrase}?")) == [field], phrase


def _bold(text: str) -> list[str]:
    """The catalog titles a message sets in bold (the title it puts forward)."""
    catalog, _tasks, _policy = _world()
    titles = {item.title for item in catalog.items}
    return [b for b in re.findall(r"\*\*(.+?)\*\*", text) if b in titles]


def _natural_topics(text: str) -> list[str]:
    """The fields a natural message asks about, in order, found by its phrase banks."""
    found = []
    for field, phrases in [*PRESS_PHRASES.items(), *TOPIC_PHRASES.items()]:
        for phrase in phrases:
            at = text.lower().find(phrase.lower())
            if at >= 0:
                found.append((at, field))
    return [field for _at, field in sorted(found)]


@pytest.mark.parametrize("task_id", SAMPLE)
@pytest.mark.parametrize("seed", [0, 3])
def test_the_natural_twin_keeps_every_decision(task_id: str, seed: int) -> None:
    _catalog, tasks, _policy = _world()
    task = tasks[task_id]
    spy = AgentSpy(ExpertAgent(_context(task, seed, with_task=False)))
    outer = AgentSpy(NaturalTwin(spy, seed, "expert-natural"))  # type: ignore[arg-type]
    _trial(outer, task, seed)
    assert len(spy.replies) == len(outer.replies)
    for inner, natural in zip(spy.replies, outer.replies, strict=True):
        assert natural.tool_calls == inner.tool_calls
        if not inner.content:
            assert natural.content == inner.content
            continue
        assert natural.content
        # The same single title put forward (bold), and the same topics asked, in order.
        assert _bold(natural.content) == _bold(inner.content)
        asked = list(dict.fromkeys(fields_asked(inner.content)))
        if asked and not _bold(inner.content):
            assert list(dict.fromkeys(_natural_topics(natural.content))) == asked


@pytest.mark.parametrize("name", PANEL_ADVERSARIES)
def test_every_panel_adversary_stays_within_the_tool_budget(name: str) -> None:
    _catalog, tasks, _policy = _world()
    for task_id in SAMPLE:
        for seed in (0, 1):
            transcript = _named(name, tasks[task_id], seed)
            assert transcript.stop_reason not in ("tool_budget", "infra_error", "agent_error")
            assert len(transcript.tool_calls) <= BUDGET


def test_the_policy_ignoring_retriever_skips_the_policy_calls() -> None:
    _catalog, tasks, _policy = _world()
    transcript = _named("policy-ignoring-retriever", tasks["task_001"], 0)
    names = {c.name for c in transcript.tool_calls}
    assert not names & {"get_user_history", "check_availability", "check_content_preference"}


def test_the_no_question_prober_asks_only_for_services() -> None:
    catalog, tasks, _policy = _world()
    transcript = _named("no-question-prober", tasks["task_030"], 0)
    reader = rule_reader(catalog)
    for text in [m.content for m in transcript.messages if m.role == "agent"][1:]:
        assert set(reader.read(text).asked) <= {"streaming_services"}, text
