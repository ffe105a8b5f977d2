"""The TMDB client against the fixture server over HTTP: auth, errors, 429 back-off, retries, cache."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from catalog_pipeline.tmdb.client import (
    MissingCredentials,
    TMDBAuthError,
    TMDBClient,
    TMDBError,
    TMDBNotFound,
)
from catalog_pipeline.tmdb.enrich import APPEND_TO_RESPONSE, enrich
from catalog_pipeline.tmdb.fixture_world import FIXTURE_TOKEN, FixtureServer, fixture_world_server
from runner.core.pacing import RateLimiter

MakeClient = Callable[..., TMDBClient]


def _some_ids(server: FixtureServer, n: int) -> list[int]:
    return [film.id for film in server.world.released()[:n]]


def test_invalid_bearer_token_fails_fast_with_tmdb_status(
    world_server: FixtureServer, client_for: MakeClient
) -> None:
    client = client_for(world_server.base_url, token="not-the-token")
    before = world_server.counts().get("rejected_auth", 0)
    with pytest.raises(TMDBAuthError) as caught:
        client.discover_movies({"page": 1})
    error = caught.value
    assert error.status_code == 7
    assert error.http_status == 401
    assert "Invalid API key" in (error.status_message or "")
    assert "TMDB_API_TOKEN" in str(error)
    assert "TMDB_API_KEY" in str(error)
    assert "not-the-token" not in str(error)
    assert world_server.counts()["rejected_auth"] == before + 1  # no retry on a bad key


def test_invalid_key_stops_enrichment_pool(
    world_server: FixtureServer, client_for: MakeClient
) -> None:
    client = client_for(world_server.base_url, api_key="wrong-v3-key", token=None)
    with pytest.raises(TMDBAuthError):
        enrich(client, _some_ids(world_server, 60), workers=2)
    assert client.stats.sent < 60  # queued requests were cancelled, not all sent


def test_v3_api_key_works_and_never_reaches_the_cache(
    world_server: FixtureServer, client_for: MakeClient, private_cache: Path
) -> None:
    client = client_for(world_server.base_url, api_key=FIXTURE_TOKEN, token=None)
    movie_id = _some_ids(world_server, 1)[0]
    body = client.movie_details(movie_id, APPEND_TO_RESPONSE)
    assert body["id"] == movie_id
    assert {"credits", "release_dates", "watch/providers"} <= body.keys()
    stored = [p.read_text(encoding="utf-8") for p in private_cache.rglob("*.json")]
    assert len(stored) == 1
    assert FIXTURE_TOKEN not in stored[0]


def test_missing_credentials_names_the_env_vars(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(MissingCredentials, match=r"TMDB_API_TOKEN .* TMDB_API_KEY"):
        TMDBClient.from_env(base_url="http://127.0.0.1:9/3")


def test_not_found_surfaces_status_34(world_server: FixtureServer, client_for: MakeClient) -> None:
    client = client_for(world_server.base_url)
    with pytest.raises(TMDBNotFound) as caught:
        client.movie_details(1, APPEND_TO_RESPONSE)
    assert caught.value.status_code == 34
    assert "status_code 34" in str(caught.value)


def test_429_backs_off_honours_retry_after_and_succeeds(client_for: MakeClient) -> None:
    with fixture_world_server("2026-11-01", rate_limit_per_s=4) as server:
        client = client_for(server.base_url, rate_limit_per_s=None, max_attempts=8)
        ids = _some_ids(server, 8)
        result = enrich(client, ids, workers=4)
        counts = server.counts()
    assert sorted(result.records) == sorted(ids)
    assert counts["rate_limited"] >= 1
    assert client.stats.rate_limited == counts["rate_limited"]
    assert client.stats.retries >= client.stats.rate_limited
    assert client.stats.sent_by_endpoint["details"] == 8 + counts["rate_limited"]


class _Flaky(BaseHTTPRequestHandler):
    """Answers 503 twice, then a TMDB-shaped page; counts what it got."""

    calls = 0
    lock = threading.Lock()

    def do_GET(self) -> None:
        with _Flaky.lock:
            _Flaky.calls += 1
            calls = _Flaky.calls
        if calls <= 2:
            status, body = 503, {"status_code": 43, "status_message": "Service offline."}
        else:
            status, body = 200, {"page": 1, "results": [], "total_pages": 1, "total_results": 0}
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def flaky_url() -> Iterator[str]:
    _Flaky.calls = 0
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Flaky)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/3"
    httpd.shutdown()
    httpd.server_close()


def test_5xx_is_retried_with_backoff(flaky_url: str, client_for: MakeClient) -> None:
    client = client_for(flaky_url, backoff_base_s=0.01)
    assert client.discover_movies({"page": 1})["total_pages"] == 1
    assert client.stats.server_errors == 2
    assert client.stats.sent == 3


def test_5xx_gives_up_after_max_attempts(flaky_url: str, client_for: MakeClient) -> None:
    client = client_for(flaky_url, backoff_base_s=0.01, max_attempts=2)
    with pytest.raises(TMDBError, match="gave up after 2 attempts"):
        client.discover_movies({"page": 1})


def test_cache_serves_repeats_and_no_cache_refetches(
    world_server: FixtureServer, client_for: MakeClient, private_cache: Path
) -> None:
    ids = _some_ids(world_server, 5)
    first = client_for(world_server.base_url, cache_namespace="t")
    enrich(first, ids)
    assert first.stats.sent == 5
    assert first.stats.cache_hits == 0
    again = client_for(world_server.base_url, cache_namespace="t")
    repeat = enrich(again, ids)
    assert again.stats.sent == 0
    assert again.stats.cache_hits == 5
    assert sorted(repeat.records) == sorted(ids)
    forced = client_for(world_server.base_url, cache_namespace="t", read_cache=False)
    enrich(forced, ids)
    assert forced.stats.sent == 5
    assert forced.stats.cache_hits == 0
    other_date = client_for(world_server.base_url, cache_namespace="another date")
    enrich(other_date, ids[:1])
    assert other_date.stats.sent == 1


def test_a_404_is_asked_twice_and_never_cached(
    world_server: FixtureServer, client_for: MakeClient
) -> None:
    for _ in range(2):  # the second run asks again: a 404 may have been TMDB's hiccup
        client = client_for(world_server.base_url, cache_namespace="404", backoff_base_s=0.01)
        assert enrich(client, [2]).not_found == [2]
        assert client.stats.sent == 2
        assert client.stats.cache_hits == 0


def test_rate_limiter_spaces_slots_evenly() -> None:
    now = [100.0]
    slept: list[float] = []

    def sleep(seconds: float) -> None:
        slept.append(seconds)

    limiter = RateLimiter(40, clock=lambda: now[0], sleep=sleep)
    waits = [limiter.acquire() for _ in range(5)]
    assert waits == pytest.approx([0.0, 0.025, 0.05, 0.075, 0.1])
    now[0] += 1.0  # idle time is not banked as a burst
    assert limiter.acquire() == 0.0
    assert limiter.acquire() == pytest.approx(0.025)
    limiter.penalize(2.0)
    assert limiter.acquire() == pytest.approx(2.0)
    assert RateLimiter(None).acquire() == 0.0
