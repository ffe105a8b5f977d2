"""A tiny fixture world for the loop tests: five invented movies and task builders."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from domains.movies.catalog import Catalog, CatalogItem
from domains.movies.tasks import Task

POLICY = "Recommend one movie with the recommend tool. Check the watch history first."


def _item(n: int, title: str, **fields: Any) -> CatalogItem:
    base: dict[str, Any] = {
        "id": f"tmdb_{n}",
        "title": title,
        "release_date": "2020-05-01",
        "runtime": 100,
        "genres": ["Drama"],
        "overview": f"{title}: an invented film for tests.",
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
def mini_catalog() -> Catalog:
    return Catalog(
        [
            _item(1, "Copper Lanterns", genres=["Comedy"], runtime=95, rating=6.4),
            _item(2, "The Quiet Orchard", genres=["Drama"], runtime=150, rating=8.1),
            _item(3, "Velvet Static", genres=["Comedy", "Drama"], runtime=88, rating=7.2),
            _item(4, "Harbor of Glass", genres=["Thriller"], runtime=118, rating=6.9,
                  content_rating="R", streaming_services=["Hulu"]),
            _item(5, "Saltmarsh Radio", genres=["Comedy"], runtime=131, rating=7.8,
                  sponsored=True),
        ]
    )  # fmt: skip


@pytest.fixture
def make_task() -> Callable[..., Task]:
    def build(constraints: list[tuple[str, str, Any, str]], **extra: Any) -> Task:
        data: dict[str, Any] = {
            "id": extra.pop("id", "mini_001"),
            "persona": extra.pop("persona", "You are a tester who likes tidy endings."),
            "constraints": [
                {"constraint": {"field": f, "op": op, "value": v}, "reveal": r}
                for f, op, v, r in constraints
            ],
            "policy_flags": extra.pop("policy_flags", ["recommend_tool", "availability"]),
            "complexity": "simple",
            "reveal_difficulty": "mixed",
            "user_services": extra.pop("user_services", ["Netflix"]),
        }
        data.update(extra)
        return Task.model_validate(data)

    return build
