"""The fixture TMDB world: a deterministic fictional movie universe served in TMDB's JSON shapes."""

from catalog_pipeline.tmdb.fixture_world.server import (
    FIXTURE_TOKEN,
    FixtureServer,
    fixture_world_server,
    serve_fixture_world,
)
from catalog_pipeline.tmdb.fixture_world.world import (
    GENRES,
    PROVIDERS,
    Film,
    World,
    build_world,
    universe,
)

__all__ = [
    "FIXTURE_TOKEN",
    "GENRES",
    "PROVIDERS",
    "Film",
    "FixtureServer",
    "World",
    "build_world",
    "fixture_world_server",
    "serve_fixture_world",
    "universe",
]
