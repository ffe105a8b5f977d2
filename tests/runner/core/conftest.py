"""A tiny fictional catalog and task world, and a conversation builder that drives the real tools."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from domains.movies.catalog import Catalog
from domains.movies.tasks import Constraint, Task, TaskConstraint, UserHistory, load_tasks
from domains.movies.tools import CatalogTools, build_toolset
from runner.core.transcript import ComponentSpec, MessageEvent, ToolCallEvent, Transcript
from tests.movie_world import movie

# Six fictional movies covering the cases the policies and constraints care about, one a row.
_TINY_COLUMNS = [
    "title",
    "genres",
    "overview",
    "cast",
    "director",
    "runtime",
    "rating",
    "streaming_services",
    "sponsored",
    "content_rating",
]
_TINY = [
    ("Lanterns Over Harbor Town", ["Comedy", "Romance"], "Two rival bakers fall for each other during a seaside lantern festival.", ["Mira Solano", "Tom Becket"], "Jonah Whitlow", 95, 7.2, ["Netflix", "Hulu"], False, "PG-13"),
    ("The Copper Orbit", ["Science Fiction", "Adventure"], "A salvage crew drifts toward a dying star aboard a copper space station.", ["Zoë Saldaño", "Ike Marsh"], "Petra Lind", 142, 8.1, ["Hulu"], False, "R"),
    ("Midnight Ledger", ["Thriller", "Crime"], "An accountant uncovers a ledger that someone would kill to keep hidden.", ["Ray Dunmore"], "Petra Lind", 118, 6.9, ["Max"], True, "R"),
    ("Paper Kites", ["Animation", "Family", "Comedy"], "A shy kid builds paper kites that carry wishes across the valley.", ["Nell Orr"], "Sam Ode", 84, 7.8, ["Disney+"], True, "PG"),
    ("Harbor Lights", ["Comedy", "Drama"], "A retired captain opens a comedy club in an old harbor warehouse.", ["Mira Solano"], "Jonah Whitlow", 101, 6.4, [], False, "NC-17"),
    ("Static Bloom", ["Horror"], "Radio static blooms into voices in a remote greenhouse.", ["Ike Marsh"], "Dee Vance", 90, 5.1, ["Netflix"], False, "NR"),
]  # fmt: skip


@pytest.fixture(scope="session")
def tiny_catalog() -> Catalog:
    """Six fictional movies covering the cases the policies and constraints care about."""
    return Catalog(
        [
            movie(
                n,
                release_date="2020-01-01",
                vote_count=100,
                **dict(zip(_TINY_COLUMNS, row, strict=True)),
            )
            for n, row in enumerate(_TINY, start=1)
        ],
        source="<tiny>",
    )


TaskFactory = Callable[..., Task]


@pytest.fixture
def make_task() -> TaskFactory:
    """Build a task: comedy by default, with the given policies, services and history."""

    def factory(
        *,
        constraints: list[tuple[str, str, Any]] | None = None,
        policies: list[str] | None = None,
        services: list[str] | None = None,
        watched: list[str] | None = None,
        nvr: bool = False,
        task_id: str = "tiny_001",
    ) -> Task:
        specs = constraints if constraints is not None else [("genres", "contains", "Comedy")]
        return Task(
            id=task_id,
            persona="Someone who wants a film tonight.",
            constraints=[
                TaskConstraint(
                    constraint=Constraint(field=f, op=op, value=v),  # type: ignore[arg-type]
                    reveal="volunteer",
                )
                for f, op, v in specs
            ],
            policy_flags=policies or [],  # type: ignore[arg-type]
            no_valid_recommendation=nvr,
            complexity="simple",
            reveal_difficulty="volunteer",
            user_history={"user_1": UserHistory(watched=watched or [], ratings={})},
            user_services=services or [],
        )

    return factory


class Conversation:
    """Records a trial the way the loop does: messages, and tool calls run on the real tools."""

    def __init__(self, task: Task, catalog: Catalog) -> None:
        self.task = task
        self.tools: CatalogTools = build_toolset(catalog, task)
        self.events: list[MessageEvent | ToolCallEvent] = []
        self.recommendations: list[str] = []
        self.stop_reason: str | None = None

    def agent(self, content: str) -> Conversation:
        self.events.append(MessageEvent(role="agent", content=content))
        return self

    def user(self, content: str) -> Conversation:
        self.events.append(MessageEvent(role="user", content=content))
        return self

    def call(self, name: str, arguments: str | dict[str, Any] | None = None) -> Conversation:
        outcome = self.tools.call(name, arguments if arguments is not None else {})
        self.events.append(
            ToolCallEvent(
                call_id=f"call_{len(self.events)}",
                name=name,
                arguments=outcome.arguments,
                raw_arguments=outcome.raw_arguments,
                result=outcome.content,
                is_error=outcome.is_error,
            )
        )
        if outcome.stop is not None:
            self.stop_reason = outcome.stop
            if outcome.item_id is not None:
                self.recommendations.append(outcome.item_id)
        return self

    def end(self, stop_reason: str | None = None) -> Transcript:
        return Transcript(
            task_id=self.task.id,
            agent=ComponentSpec(name="scripted-test"),
            simulator=ComponentSpec(name="scripted-test"),
            tools=self.tools.names,
            events=self.events,
            recommendations=self.recommendations,
            stop_reason=stop_reason or self.stop_reason or "max_turns",  # type: ignore[arg-type]
        )


ConversationFactory = Callable[[Task], Conversation]


@pytest.fixture
def conversation(tiny_catalog: Catalog) -> ConversationFactory:
    def factory(task: Task) -> Conversation:
        return Conversation(task, tiny_catalog).user("Hi, I want a movie.")

    return factory


@pytest.fixture(scope="session")
def v1_catalog(v1_dir: Path) -> Catalog:
    return Catalog.load(v1_dir)


@pytest.fixture(scope="session")
def v1_tasks(v1_dir: Path) -> list[Task]:
    return load_tasks(v1_dir / "tasks")
