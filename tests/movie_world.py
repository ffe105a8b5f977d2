"""Invented movies for tests: one builder whose defaults each fixture world overrides as it needs."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from domains.movies.catalog import Catalog, CatalogItem
from domains.movies.simulators import build_simulator
from domains.movies.tasks import Task
from domains.movies.tools import build_toolset
from runner.core.protocols import Agent, UserSimulator, UserTurn
from runner.core.transcript import ComponentSpec, MessageEvent, Transcript
from runner.play.loop import run_trial

__all__ = [
    "FixedUser",
    "inconsistent_suite",
    "movie",
    "movie_task",
    "movie_trial",
    "opening_films",
]


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


def opening_films(build: Callable[..., CatalogItem]) -> list[CatalogItem]:
    """tmdb_1 to tmdb_3, the films both small fixture worlds (loop, simulators) open with, made by
    the world's own `build(n, title, **fields)`: two comedies (one also a drama) and a long drama."""
    films = [
        ("Copper Lanterns", ["Comedy"], 95, 6.4),
        ("The Quiet Orchard", ["Drama"], 150, 8.1),
        ("Velvet Static", ["Comedy", "Drama"], 88, 7.2),
    ]
    return [
        build(n, title, genres=genres, runtime=runtime, rating=rating)
        for n, (title, genres, runtime, rating) in enumerate(films, start=1)
    ]


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


async def movie_trial(
    task: Task,
    catalog: Catalog,
    agent: Agent,
    seed: int = 0,
    user: UserSimulator | None = None,
    trial_index: int = 0,
) -> Transcript:
    """Trial `trial_index` of `agent` on a movies task with the standard tools, against `user` (by
    default the scripted user of the same seed), under the default rules."""
    if user is None:
        user = build_simulator("scripted", task=task, catalog=catalog, seed=seed)
    toolset = build_toolset(catalog, task)
    return await run_trial(
        task=task,
        catalog=catalog,
        agent=agent,
        simulator=user,
        toolset=toolset,
        seed=seed,
        trial_index=trial_index,
    )


def inconsistent_suite(v1_dir: Path, folder: Path) -> Path:
    """`folder` holding v1's task_001 asking for a runtime of at most 5 minutes, which no movie of
    the v1 catalog has: a suite `taurec tasks validate` must fail."""
    folder.mkdir()
    data = json.loads((v1_dir / "tasks" / "task_001.json").read_text())
    data["constraints"][0]["constraint"] = {"field": "runtime", "op": "<=", "value": 5}
    (folder / "task_001.json").write_text(json.dumps(data))
    return folder


class FixedUser:
    """A user who answers every turn with the same `content` (its spec named `name`)."""

    def __init__(self, content: str, name: str) -> None:
        self.content = content
        self.spec = ComponentSpec(name=name)

    async def respond(self, conversation: list[MessageEvent]) -> UserTurn:
        return UserTurn(content=self.content)
