"""Fixtures for the pipeline tests: the fixture TMDB server over HTTP and a private response cache."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from catalog_pipeline.tmdb.client import TMDBClient
from catalog_pipeline.tmdb.fixture_world import FIXTURE_TOKEN, FixtureServer, fixture_world_server

WORLD_DATE = "2026-11-01"


@pytest.fixture(autouse=True)
def private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own response cache; no TMDB credential leaks in from the shell."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("TAUREC_CACHE_DIR", str(cache))
    monkeypatch.delenv("TMDB_API_TOKEN", raising=False)
    monkeypatch.delenv("TMDB_API_KEY", raising=False)
    monkeypatch.delenv("TMDB_BASE_URL", raising=False)
    return cache / "tmdb"


@pytest.fixture(scope="module")
def world_server() -> Iterator[FixtureServer]:
    """The fixture world of 2026-11-01 on 127.0.0.1, no server-side rate limit."""
    with fixture_world_server(WORLD_DATE) as server:
        yield server


@pytest.fixture
def client_for(private_cache: Path) -> Iterator[Callable[..., TMDBClient]]:
    """Factory: a TMDB client on a server's URL with the fixture token and a private cache."""
    made: list[TMDBClient] = []

    def make(url: str, **options: object) -> TMDBClient:
        options.setdefault("token", FIXTURE_TOKEN)
        options.setdefault("rate_limit_per_s", None)
        options.setdefault("cache_dir", private_cache)
        client = TMDBClient(base_url=url, **options)  # type: ignore[arg-type]
        made.append(client)
        return client

    yield make
    for client in made:
        client.close()
