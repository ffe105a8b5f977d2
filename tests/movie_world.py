"""Invented movies for tests: one builder whose defaults each fixture world overrides as it needs."""

from __future__ import annotations

from typing import Any

from domains.movies.catalog import CatalogItem
from domains.movies.tasks import Task

__all__ = ["movie", "movie_task"]


def movie(n: int, title: str, **fields: Any) -> CatalogItem:
    """Movie `tmdb_<n>`: unless `fields` say otherwise, a 100-minute PG-13 drama of 2019 by Dee
    Rector with Ann Example, rated 7.0 by 500 voters, on Netflix, not sponsored."""
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
    return CatalogItem.model_validate(base | fields)


def movie_task(constraints: list[tuple[str, str, Any, str]], **fields: Any) -> Task:
    """A simple task asking for `constraints`, each (field, op, value, reveal); `fields` set the
    rest (by default: id t_001, the recommend-tool policy, a user with Netflix)."""
    data: dict[str, Any] = {
        "id": "t_001",
        "persona": "Someone who wants a film tonight.",
        "constraints": [
            {"constraint": {"field": f, "op": op, "value": v}, "reveal": r}
            for f, op, v, r in constraints
        ],
        "policy_flags": ["recommend_tool"],
        "complexity": "simple",
        "reveal_difficulty": "mixed",
        "user_services": ["Netflix"],
    }
    return Task.model_validate(data | fields)
