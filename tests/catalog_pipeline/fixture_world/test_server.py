"""The fixture server answers TMDB's endpoints in TMDB's shapes, pages like TMDB, and errs like TMDB."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from catalog_pipeline.tmdb.fixture_world import (
    FIXTURE_TOKEN,
    FixtureServer,
    fixture_world_server,
    serve_fixture_world,
)

AUTH = {"Authorization": f"Bearer {FIXTURE_TOKEN}"}
WINDOW = {"primary_release_date.gte": "2025-05-01", "primary_release_date.lte": "2026-11-01"}


@pytest.fixture(scope="module")
def november() -> Iterator[FixtureServer]:
    with fixture_world_server("2026-11-01") as server:
        yield server


def get(server: FixtureServer, path: str, **params: Any) -> requests.Response:
    return requests.get(server.base_url + path, params=params, headers=AUTH, timeout=10)


def test_serve_fixture_world_yields_a_tmdb_base_url() -> None:
    with serve_fixture_world("2026-11-01") as base_url:
        assert base_url.startswith("http://127.0.0.1:")
        assert base_url.endswith("/3")
        body = requests.get(f"{base_url}/genre/movie/list", headers=AUTH, timeout=10).json()
    assert {"id": 878, "name": "Science Fiction"} in body["genres"]


def test_discover_pages_are_disjoint_complete_and_sorted(november: FixtureServer) -> None:
    first = get(
        november, "/discover/movie", region="US", sort_by="popularity.desc", **WINDOW
    ).json()
    assert set(first) == {"page", "results", "total_pages", "total_results"}
    assert first["total_pages"] == -(-first["total_results"] // 20)
    seen: list[dict[str, Any]] = []
    for page in range(1, first["total_pages"] + 1):
        body = get(november, "/discover/movie", region="US", page=page, **WINDOW).json()
        assert body["page"] == page
        seen += body["results"]
    assert len(seen) == first["total_results"] == len({m["id"] for m in seen})
    keys = [(-m["popularity"], m["id"]) for m in seen]
    assert keys == sorted(keys)
    assert all("2025-05-01" <= m["release_date"] <= "2026-11-01" for m in seen)
    item = seen[0]
    assert {
        "id",
        "title",
        "genre_ids",
        "release_date",
        "vote_average",
        "vote_count",
        "popularity",
    } <= set(item)
    beyond = get(november, "/discover/movie", page=first["total_pages"] + 1, **WINDOW).json()
    assert beyond["results"] == []


def test_discover_filters_on_vote_count(november: FixtureServer) -> None:
    body = get(november, "/discover/movie", **{"vote_count.gte": 200}, **WINDOW).json()
    assert body["results"]
    assert all(m["vote_count"] >= 200 for m in body["results"])
    everything = get(november, "/discover/movie", **WINDOW).json()
    assert body["total_results"] < everything["total_results"]


def test_discover_caps_total_pages_and_rejects_pages_past_500(november: FixtureServer) -> None:
    over = get(november, "/discover/movie", page=501)
    assert over.status_code == 400
    assert over.json()["status_code"] == 22
    assert get(november, "/discover/movie", page="x").json()["status_code"] == 22
    with fixture_world_server("2026-11-01", max_pages=3) as capped:
        body = get(capped, "/discover/movie", **WINDOW).json()
        assert body["total_pages"] == 3
        assert body["total_results"] > 60
        assert get(capped, "/discover/movie", page=4, **WINDOW).json()["results"] == []


def test_movie_details_with_appends_has_tmdb_shapes(november: FixtureServer) -> None:
    listing = get(november, "/discover/movie", **WINDOW).json()["results"]
    movie_id = listing[0]["id"]
    body = get(
        november, f"/movie/{movie_id}", append_to_response="credits,release_dates,watch/providers"
    ).json()
    assert body["id"] == movie_id
    assert body["status"] == "Released"
    assert all(set(g) == {"id", "name"} for g in body["genres"])
    cast = body["credits"]["cast"]
    assert [c["order"] for c in cast] == list(range(len(cast)))
    assert len(cast) >= 5
    assert any(c["job"] == "Director" for c in body["credits"]["crew"])
    us = [r for r in body["release_dates"]["results"] if r["iso_3166_1"] == "US"]
    assert us
    assert all({"certification", "type", "release_date"} <= set(r) for r in us[0]["release_dates"])
    assert "US" in body["watch/providers"]["results"]
    plain = get(november, f"/movie/{movie_id}").json()
    assert "credits" not in plain
    assert "watch/providers" not in plain


def test_flatrate_offers_carry_provider_fields(november: FixtureServer) -> None:
    offers = []
    for movie in get(november, "/discover/movie", **WINDOW).json()["results"]:
        body = get(november, f"/movie/{movie['id']}", append_to_response="watch/providers").json()
        offers += body["watch/providers"]["results"].get("US", {}).get("flatrate", [])
    assert offers
    assert all(
        set(o) == {"provider_id", "provider_name", "display_priority", "logo_path"} for o in offers
    )


def test_unknown_and_future_ids_are_404_code_34(november: FixtureServer) -> None:
    for path in ("/movie/1", "/movie/9100999", "/movie/abc", "/tv/1"):
        response = get(november, path)
        assert response.status_code == 404, path
        assert response.json()["status_code"] == 34, path


def test_bad_or_missing_credentials_are_401_code_7(november: FixtureServer) -> None:
    url = november.base_url + "/genre/movie/list"
    for headers, params in (
        ({}, {}),
        ({"Authorization": "Bearer nope"}, {}),
        ({}, {"api_key": "x"}),
    ):
        response = requests.get(url, headers=headers, params=params, timeout=10)
        assert response.status_code == 401
        assert response.json()["status_code"] == 7
    ok = requests.get(url, params={"api_key": FIXTURE_TOKEN}, timeout=10)
    assert ok.status_code == 200


def test_changes_lists_ids_within_a_window_of_at_most_14_days(november: FixtureServer) -> None:
    body = get(november, "/movie/changes", start_date="2026-10-25", end_date="2026-11-01").json()
    assert body["total_results"] > 0
    assert all(set(r) == {"id", "adult"} for r in body["results"])
    too_long = get(november, "/movie/changes", start_date="2026-09-01", end_date="2026-11-01")
    assert too_long.status_code == 422
    assert too_long.json()["status_code"] == 47


def test_own_rate_limit_answers_429_code_25_with_retry_after() -> None:
    with fixture_world_server("2026-11-01", rate_limit_per_s=2) as server:
        session = requests.Session()
        statuses = [
            session.get(server.base_url + "/genre/movie/list", headers=AUTH, timeout=10)
            for _ in range(5)
        ]
        limited = [r for r in statuses if r.status_code == 429]
        assert limited
        assert limited[0].json()["status_code"] == 25
        assert int(limited[0].headers["Retry-After"]) >= 1
        assert server.counts()["rate_limited"] == len(limited)
        time.sleep(1.0)
        assert session.get(server.base_url + "/genre/movie/list", headers=AUTH, timeout=10).ok


def test_requests_are_counted_per_endpoint() -> None:
    with fixture_world_server("2026-11-01") as server:
        get(server, "/discover/movie")
        get(server, "/discover/movie", page=2)
        get(server, "/movie/9100001")
        get(server, "/genre/movie/list")
        assert server.counts() == {"discover/movie": 2, "genre/movie/list": 1, "movie": 1}
        server.reset_counts()
        assert server.counts() == {}
