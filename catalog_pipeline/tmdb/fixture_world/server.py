"""A small TMDB-shaped HTTP server for the fixture world, on 127.0.0.1, run in a background thread."""

from __future__ import annotations

import datetime as dt
import json
import math
import re
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from catalog_pipeline.tmdb.fixture_world import responses
from catalog_pipeline.tmdb.fixture_world.responses import TmdbError
from catalog_pipeline.tmdb.fixture_world.world import World, build_world

FIXTURE_TOKEN = "taurec-fixture-token"
"""The one credential the fixture server accepts (as a Bearer token or as `api_key`)."""

_MOVIE_PATH = re.compile(r"^/3/movie/([^/]+)$")


class TokenBucket:
    """A per-second token bucket: `rate` tokens a second, bursts of up to `rate` requests."""

    def __init__(self, rate: float) -> None:
        self.rate = rate
        self.capacity = max(1.0, rate)
        self._tokens = self.capacity
        self._stamp = time.monotonic()
        self._lock = threading.Lock()

    def take(self) -> float:
        """Take a token; 0.0 if granted, else the seconds until one will be available."""
        with self._lock:
            now = time.monotonic()
            self._tokens = min(self.capacity, self._tokens + (now - self._stamp) * self.rate)
            self._stamp = now
            if self._tokens >= 1.0:
                self._tokens -= 1.0
                return 0.0
            return (1.0 - self._tokens) / self.rate


class FixtureServer:
    """The running server: its base URL and per-endpoint request counts."""

    def __init__(
        self, world: World, *, rate_limit_per_s: float | None, max_pages: int, port: int = 0
    ) -> None:
        self.world = world
        self.max_pages = max_pages
        self.bucket = TokenBucket(rate_limit_per_s) if rate_limit_per_s else None
        self._counts: Counter[str] = Counter()
        self._lock = threading.Lock()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", port), _handler_for(self))
        self._httpd.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self._httpd.server_address[1]}/3"

    def count(self, key: str) -> None:
        with self._lock:
            self._counts[key] += 1

    def counts(self) -> dict[str, int]:
        """Requests so far by endpoint (`discover/movie`, `movie`, `movie/changes`, `genre/movie/list`,
        `unknown`) plus outcomes (`rejected_auth`, `rate_limited`, `not_found`)."""
        with self._lock:
            return dict(sorted(self._counts.items()))

    def reset_counts(self) -> None:
        with self._lock:
            self._counts.clear()

    def answer(
        self, method: str, target: str, headers: dict[str, str]
    ) -> tuple[int, Any, dict[str, str]]:
        """Route one request: (HTTP status, JSON body, extra headers)."""
        url = urlsplit(target)
        params = dict(parse_qsl(url.query, keep_blank_values=True))
        path = url.path.rstrip("/")
        endpoint = _endpoint(path)
        self.count(endpoint)
        token = headers.get("authorization", "").removeprefix("Bearer ").strip()
        if FIXTURE_TOKEN not in (token, params.get("api_key")):
            self.count("rejected_auth")
            return _error(responses.INVALID_KEY)
        if self.bucket is not None:
            wait = self.bucket.take()
            if wait > 0:
                self.count("rate_limited")
                status, body, extra = _error(responses.rate_limited(self.bucket.rate))
                return status, body, {**extra, "Retry-After": str(max(1, math.ceil(wait)))}
        if method != "GET":
            return _error(TmdbError(405, 3, "Authentication failed: only GET is served here."))
        try:
            return 200, self._route(endpoint, path, params), {}
        except TmdbError as exc:
            if exc.status_code == 34:
                self.count("not_found")
            return _error(exc)

    def _route(self, endpoint: str, path: str, params: dict[str, str]) -> Any:
        if endpoint == "discover/movie":
            return responses.discover(self.world, params, self.max_pages)
        if endpoint == "genre/movie/list":
            return responses.genre_list()
        if endpoint == "movie/changes":
            return responses.changes(self.world, params)
        if endpoint == "movie":
            match = _MOVIE_PATH.match(path)
            film = (
                self.world.get(int(match.group(1))) if match and match.group(1).isdigit() else None
            )
            if film is None:
                raise responses.NOT_FOUND
            append = [
                a.strip() for a in params.get("append_to_response", "").split(",") if a.strip()
            ]
            return responses.movie_details(film, self.world.date, append)
        raise responses.NOT_FOUND

    def start(self) -> None:
        thread = threading.Thread(
            target=self._httpd.serve_forever, name="fixture-tmdb", daemon=True
        )
        thread.start()
        self._thread = thread

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)


def _endpoint(path: str) -> str:
    if path in ("/3/discover/movie", "/3/movie/changes", "/3/genre/movie/list"):
        return path.removeprefix("/3/")
    if _MOVIE_PATH.match(path):
        return "movie"
    return "unknown"


def _error(error: TmdbError) -> tuple[int, Any, dict[str, str]]:
    return error.http_status, error.body(), {}


def _handler_for(server: FixtureServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, so clients can pool connections
        disable_nagle_algorithm = True  # headers and body go out in separate writes
        server_version = "taurec-fixture-tmdb"

        def _serve(self) -> None:
            headers = {k.lower(): v for k, v in self.headers.items()}
            status, body, extra = server.answer(self.command, self.path, headers)
            data = json.dumps(body, ensure_ascii=False).encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", "application/json;charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            for name, value in extra.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            self._serve()

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            self.rfile.read(length)
            self._serve()

        def log_message(self, format: str, *args: Any) -> None:
            """Silent: the server counts requests instead of logging them."""

    return Handler


@contextmanager
def fixture_world_server(
    world_date: dt.date | str,
    *,
    rate_limit_per_s: float | None = None,
    port: int = 0,
    max_pages: int = responses.TMDB_MAX_PAGES,
) -> Iterator[FixtureServer]:
    """Run the fixture TMDB server for the world on `world_date`; yields the server (URL + counts).

    `max_pages` lowers discover's page cap (TMDB: 500) so tests can exercise window splitting
    with a world far smaller than 10,000 titles.
    """
    server = FixtureServer(
        build_world(world_date), rate_limit_per_s=rate_limit_per_s, max_pages=max_pages, port=port
    )
    server.start()
    try:
        yield server
    finally:
        server.stop()


@contextmanager
def serve_fixture_world(
    world_date: dt.date | str,
    *,
    rate_limit_per_s: float | None = None,
    port: int = 0,
    max_pages: int = responses.TMDB_MAX_PAGES,
) -> Iterator[str]:
    """Serve the fixture world on 127.0.0.1 and yield its TMDB-shaped base URL `http://127.0.0.1:PORT/3`."""
    with fixture_world_server(
        world_date, rate_limit_per_s=rate_limit_per_s, max_pages=max_pages, port=port
    ) as server:
        yield server.base_url
