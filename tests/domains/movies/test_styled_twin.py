"""The movies styled twin: the expert's and the heuristic's decisions in seeded assistant styles (the same tool calls, topics, titles, disclosure and abstention)."""

from __future__ import annotations

import asyncio
import re
from functools import cache

import pytest

from domains.movies.baselines.expert import PRESS, SERVICES_QUESTION, TOPIC_QUESTIONS, ExpertAgent
from domains.movies.baselines.heuristic import (
    ABSTAIN_TEXT,
    QUESTIONS,
    SPONSORED_NOTE,
    HeuristicAgent,
)
from domains.movies.baselines.styled import ASK, PRESS_ASK, plain_questions, styled_twin, stylize
from domains.movies.catalog import Catalog
from domains.movies.tasks import Task, load_tasks
from runner.agents.styles import draw_style
from runner.core.paths import POLICY_PATH, SNAPSHOTS_DIR, TASKS_DIR
from runner.core.protocols import AgentContext
from tests.agent_spy import AgentSpy
from tests.movie_world import movie_trial


@cache
def _world() -> tuple[Catalog, dict[str, Task], str]:
    snapshot = sorted(p for p in SNAPSHOTS_DIR.iterdir() if p.is_dir())[-1]
    return (
        Catalog.load(snapshot),
        {t.id: t for t in load_tasks(TASKS_DIR)},
        POLICY_PATH.read_text(encoding="utf-8"),
    )


def _bold(text: str) -> list[str]:
    return re.findall(r"\*\*(.+?)\*\*", text)


@pytest.mark.parametrize("plain", ["expert", "heuristic"])
@pytest.mark.parametrize("task_id", ["task_001", "task_005", "task_030", "task_050"])
@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_the_styled_twin_keeps_every_decision(plain: str, task_id: str, seed: int) -> None:
    catalog, tasks, policy = _world()
    task = tasks[task_id]
    context = AgentContext(user_id=task.user_id, policy_text=policy, seed=seed)
    agent = ExpertAgent(context, {}) if plain == "expert" else HeuristicAgent(context, {})
    inner = AgentSpy(agent)
    outer = AgentSpy(styled_twin(inner, seed, f"{plain}-styled"))  # type: ignore[arg-type]
    asyncio.run(movie_trial(task, catalog, outer, seed, trial_index=seed))
    assert len(inner.replies) == len(outer.replies) > 1
    for mine, styled in zip(inner.replies, outer.replies, strict=True):
        assert styled.tool_calls == mine.tool_calls
        if not mine.content:
            assert styled.content == mine.content
            continue
        assert styled.content
        assert _bold(styled.content) == _bold(mine.content)
        assert (SPONSORED_NOTE in mine.content) == ("sponsored" in styled.content)


def _plain_fields(text: str) -> list[str]:
    return [field for field, _pressed in plain_questions(text)]


def test_the_plain_agents_questions_are_known_field_by_field() -> None:
    assert _plain_fields(QUESTIONS) == ["genres", "runtime", "streaming_services"]
    assert _plain_fields(SERVICES_QUESTION + " " + TOPIC_QUESTIONS["people"]) == [
        "streaming_services",
        "director",
        "cast",
    ]
    assert plain_questions(PRESS["rating"]) == [("rating", True)]
    assert plain_questions("Hello! What are you in the mood to watch tonight?") == []


@pytest.mark.parametrize("seed", range(12))
def test_each_question_is_asked_in_the_register_of_the_trial_in_order(seed: int) -> None:
    style = draw_style(seed, "movies")
    plain = " ".join([TOPIC_QUESTIONS["runtime"], TOPIC_QUESTIONS["genres"], PRESS["rating"]])
    styled = stylize(plain, [], seed)
    if style.typo_rate:
        return  # typos may touch any phrasing; the decisions test above covers these seeds
    at = []
    for bank in (ASK["runtime"], ASK["genres"], PRESS_ASK["rating"]):
        options = [*bank.get(style.register, ()), *bank.get("any", ())]
        found = [styled.lower().find(o.lower()[1:]) for o in options]
        assert max(found) >= 0, (styled, options)
        at.append(max(found))
    assert at == sorted(at)


def test_abstaining_says_nothing_fits_and_unknown_messages_pass_unchanged() -> None:
    for seed in range(8):
        said = stylize(ABSTAIN_TEXT, [], seed)
        assert said != ABSTAIN_TEXT
        assert " fit" in said
        assert stylize("Hello there.", [], seed) == "Hello there."
