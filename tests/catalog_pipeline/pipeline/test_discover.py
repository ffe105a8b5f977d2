"""Discovery against the fixture server: pagination, window splitting under a page cap, limits."""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable

from catalog_pipeline.tmdb.client import TMDBClient
from catalog_pipeline.tmdb.discover import discover
from catalog_pipeline.tmdb.fixture_world import FixtureServer, fixture_world_server
from catalog_pipeline.tmdb.query import DiscoveryParams

MakeClient = Callable[..., TMDBClient]
WINDOW = {"start": dt.date(2025, 5, 1), "end": dt.date(2026, 11, 1), "min_vote_count": 10}
SHORT = {"start": dt.date(2026, 3, 1), "end": dt.date(2026, 11, 1), "min_vote_count": 10}


def test_pagination_reads_every_page_once(
    world_server: FixtureServer, client_for: MakeClient
) -> None:
    client = client_for(world_server.base_url)
    before = world_server.counts().get("discover/movie", 0)
    result = discover(client, DiscoveryParams(**WINDOW))
    total = result.windows[0].total_results
    assert len(result.windows) == 1
    assert result.split_queries == 0
    assert total > 20 * 5  # a real multi-page query
    assert result.pages == math.ceil(total / 20)
    assert world_server.counts()["discover/movie"] - before == result.pages
    assert len(result.ids) == len(set(result.ids)) == total


def test_limit_stops_after_the_pages_it_needs(
    world_server: FixtureServer, client_for: MakeClient
) -> None:
    client = client_for(world_server.base_url)
    full = discover(client, DiscoveryParams(**WINDOW)).ids
    limited = discover(client_for(world_server.base_url), DiscoveryParams(**WINDOW, limit=25))
    assert limited.ids == full[:25]
    assert limited.pages == 2


def test_windows_split_so_no_query_passes_the_page_cap(client_for: MakeClient) -> None:
    with fixture_world_server("2026-11-01", max_pages=3) as capped:
        client = client_for(capped.base_url, cache_namespace="capped")
        split = discover(client, DiscoveryParams(**SHORT, max_pages=3))
    with fixture_world_server("2026-11-01") as open_server:
        whole = discover(client_for(open_server.base_url), DiscoveryParams(**SHORT))
    assert split.split_queries > 0
    assert all(w.total_pages <= 3 and not w.truncated for w in split.windows)
    assert [w.start for w in split.windows] == sorted(w.start for w in split.windows)
    assert split.windows[0].start == SHORT["start"]
    assert split.windows[-1].end == SHORT["end"]
    for left, right in zip(split.windows, split.windows[1:], strict=False):
        assert right.start == left.end + dt.timedelta(days=1)  # contiguous, no overlap
    assert sum(w.total_results for w in split.windows) == len(whole.ids)
    # Merged by popularity across windows: the same titles in the same order as one big query.
    assert split.ids == whole.ids


def test_split_windows_with_a_limit_keep_the_most_popular(client_for: MakeClient) -> None:
    with fixture_world_server("2026-11-01", max_pages=2) as capped:
        split = discover(
            client_for(capped.base_url, cache_namespace="capped2"),
            DiscoveryParams(**SHORT, max_pages=2, limit=30),
        )
    with fixture_world_server("2026-11-01") as open_server:
        whole = discover(client_for(open_server.base_url), DiscoveryParams(**SHORT))
    assert split.ids == whole.ids[:30]
    full_pages = sum(w.total_pages for w in split.windows)
    assert split.pages < full_pages + split.split_queries  # later pages never fetched


def test_an_overfull_single_day_is_capped_and_noted(client_for: MakeClient) -> None:
    day = dt.date(2026, 10, 2)
    with fixture_world_server("2026-11-01", max_pages=1) as capped:
        client = client_for(capped.base_url, cache_namespace="day")
        # Every release on one day plus a page cap of 1 entry-page: force a one-day window.
        result = discover(
            client, DiscoveryParams(start=day - dt.timedelta(days=60), end=day, max_pages=1)
        )
    assert result.split_queries > 0
    assert all(w.total_pages <= 1 for w in result.windows)
    assert all(w.start == w.end for w in result.windows if w.truncated)
    assert len([w for w in result.windows if w.truncated]) == len(result.notes)
