"""A tiny fictional catalog and task world, and a conversation builder that drives the real tools."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from domains.movies.catalog import Catalog, CatalogItem
from domains.movies.tasks import Constraint, Task, TaskConstraint, UserHistory, load_tasks
from domains.movies.tools import CatalogTools, build_toolset
from runner.core.transcript import ComponentSpec, MessageEvent, ToolCallEvent, Transcript


def make_item(n: int, **overrides: Any) -> CatalogItem:
    fields: dict[str, Any] = {
        "id": f"tmdb_{n}",
        "title": f"Untitled {n}",
        "release_date": dt.date(2020, 1, 1),
        "runtime": 100,
        "genres": ["Drama"],
        "overview": "A quiet story.",
        "cast": ["Ana Reyes"],
        "director": "Lee Park",
        "rating": 6.0,
        "vote_count": 100,
        "streaming_services": ["Netflix"],
        "sponsored": False,
        "content_rating": "PG-13",
    }
    fields.update(overrides)
    return CatalogItem(**fields)


@pytest.fixture(scope="session")
def tiny_catalog() -> Catalog:
    """Six fictional movies covering the cases the policies and constraints care about."""
    return Catalog(
        [
            make_item(
                1,
                title="Lanterns Over Harbor Town",
                genres=["Comedy", "Romance"],
                overview="Two rival bakers fall for each other during a seaside lantern festival.",
                cast=["Mira Solano", "Tom Becket"],
                director="Jonah Whitlow",
                runtime=95,
                rating=7.2,
                streaming_services=["Netflix", "Hulu"],
                content_rating="PG-13",
            ),
            make_item(
                2,
                title="The Copper Orbit",
                genres=["Science Fiction", "Adventure"],
                overview="A salvage crew drifts toward a dying star aboard a copper space station.",
                cast=["Zoë Saldaño", "Ike Marsh"],
                director="Petra Lind",
                runtime=142,
                rating=8.1,
                streaming_services=["Hulu"],
                content_rating="R",
            ),
            make_item(
                3,
                title="Midnight Ledger",
                genres=["Thriller", "Crime"],
                overview="An accountant uncovers a ledger that someone would kill to keep hidden.",
                cast=["Ray Dunmore"],
                director="Petra Lind",
                runtime=118,
                rating=6.9,
                streaming_services=["Max"],
                sponsored=True,
                content_rating="R",
            ),
            make_item(
                4,
                title="Paper Kites",
                genres=["Animation", "Family", "Comedy"],
                overview="A shy kid builds paper kites that carry wishes across the valley.",
                cast=["Nell Orr"],
                director="Sam Ode",
                runtime=84,
                rating=7.8,
                streaming_services=["Disney+"],
                sponsored=True,
                content_rating="PG",
            ),
            make_item(
                5,
                title="Harbor Lights",
                genres=["Comedy", "Drama"],
                overview="A retired captain opens a comedy club in an old harbor warehouse.",
                cast=["Mira Solano"],
                director="Jonah Whitlow",
                runtime=101,
                rating=6.4,
                streaming_services=[],
                content_rating="NC-17",
            ),
            make_item(
                6,
                title="Static Bloom",
                genres=["Horror"],
                overview="Radio static blooms into voices in a remote greenhouse.",
                cast=["Ike Marsh"],
                director="Dee Vance",
                runtime=90,
                rating=5.1,
                streaming_services=["Netflix"],
                content_rating="NR",
            ),
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
