"""Small invented catalog and a task builder for the simulator tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from domains.movies.catalog import Catalog, CatalogItem
from domains.movies.tasks import Task
from runner.core.transcript import MessageEvent


def item(n: int, title: str, **fields: Any) -> CatalogItem:
    base: dict[str, Any] = {
        "id": f"tmdb_{n}",
        "title": title,
        "release_date": "2019-03-01",
        "runtime": 100,
        "genres": ["Drama"],
        "overview": "An invented film.",
        "cast": ["Ann Example"],
        "director": "Dee Rector",
        "rating": 7.0,
        "vote_count": 500,
        "streaming_services": ["Netflix"],
        "sponsored": False,
        "content_rating": "PG-13",
    }
    base.update(fields)
    return CatalogItem.model_validate(base)


@pytest.fixture
def catalog() -> Catalog:
    return Catalog(
        [
            item(1, "Copper Lanterns", genres=["Comedy"], runtime=95, rating=6.4),
            item(2, "The Quiet Orchard", genres=["Drama"], runtime=150, rating=8.1),
            item(3, "Velvet Static", genres=["Comedy", "Drama"], runtime=88, rating=7.2),
            item(4, "Harbor of Glass", genres=["Thriller"], runtime=118, content_rating="R",
                 streaming_services=["Hulu"]),
            item(5, "Long Night Parade", genres=["Comedy"], runtime=131, rating=5.1,
                 content_rating="G", release_date="1995-06-01", director="Mo Vie"),
            item(6, "Nowhere Signal", genres=["Comedy"], runtime=90, streaming_services=[]),
        ]
    )  # fmt: skip


@pytest.fixture
def make_task() -> Callable[..., Task]:
    def build(constraints: list[tuple[str, str, Any, str]], **extra: Any) -> Task:
        data: dict[str, Any] = {
            "id": extra.pop("id", "sim_001"),
            "persona": extra.pop("persona", "You are a night-shift baker who wants to unwind."),
            "constraints": [
                {"constraint": {"field": f, "op": op, "value": v}, "reveal": r}
                for f, op, v, r in constraints
            ],
            "policy_flags": ["recommend_tool"],
            "complexity": "simple",
            "reveal_difficulty": "mixed",
            "user_services": extra.pop("user_services", ["Netflix", "Hulu"]),
        }
        data.update(extra)
        return Task.model_validate(data)

    return build


def chat(*lines: str) -> list[MessageEvent]:
    """A conversation starting with the agent; roles alternate agent, user, agent, ..."""
    return [
        MessageEvent(role="agent" if i % 2 == 0 else "user", content=t) for i, t in enumerate(lines)
    ]
