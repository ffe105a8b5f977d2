"""Small invented catalog and a task builder for the simulator tests."""

from __future__ import annotations

import functools
from collections.abc import Callable

import pytest

from domains.movies.catalog import Catalog
from domains.movies.tasks import Task
from runner.core.transcript import MessageEvent
from tests.movie_world import movie, movie_task, opening_films

item = movie  # the simulator tests' name for it


@pytest.fixture
def catalog() -> Catalog:
    return Catalog(
        [
            *opening_films(item),
            item(4, "Harbor of Glass", genres=["Thriller"], runtime=118, content_rating="R",
                 streaming_services=["Hulu"]),
            item(5, "Long Night Parade", genres=["Comedy"], runtime=131, rating=5.1,
                 content_rating="G", release_date="1995-06-01", director="Mo Vie"),
            item(6, "Nowhere Signal", genres=["Comedy"], runtime=90, streaming_services=[]),
        ]
    )  # fmt: skip


@pytest.fixture
def make_task() -> Callable[..., Task]:
    persona = "You are a night-shift baker who wants to unwind."
    return functools.partial(
        movie_task, id="sim_001", persona=persona, user_services=["Netflix", "Hulu"]
    )


def chat(*lines: str) -> list[MessageEvent]:
    """A conversation starting with the agent; roles alternate agent, user, agent, ..."""
    return [
        MessageEvent(role="agent" if i % 2 == 0 else "user", content=t) for i, t in enumerate(lines)
    ]
