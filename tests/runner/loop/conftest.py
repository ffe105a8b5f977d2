"""A tiny fixture world for the loop tests: five invented movies and task builders."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import pytest

from domains.movies.catalog import Catalog, CatalogItem
from domains.movies.tasks import Task
from tests.movie_world import movie, movie_task, opening_films

POLICY = "Recommend one movie with the recommend tool. Check the watch history first."


def _item(n: int, title: str, **fields: Any) -> CatalogItem:
    return movie(
        n,
        title,
        release_date="2020-05-01",
        overview=f"{title}: an invented film for tests.",
        **fields,
    )


@pytest.fixture
def mini_catalog() -> Catalog:
    return Catalog(
        [
            *opening_films(_item),
            _item(4, "Harbor of Glass", genres=["Thriller"], runtime=118, rating=6.9,
                  content_rating="R", streaming_services=["Hulu"]),
            _item(5, "Saltmarsh Radio", genres=["Comedy"], runtime=131, rating=7.8,
                  sponsored=True),
        ]
    )  # fmt: skip


@pytest.fixture
def make_task() -> Callable[..., Task]:
    return functools.partial(
        movie_task,
        id="mini_001",
        persona="You are a tester who likes tidy endings.",
        policy_flags=["recommend_tool", "availability"],
    )
