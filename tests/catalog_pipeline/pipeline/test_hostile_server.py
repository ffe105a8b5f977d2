"""A TMDB that misbehaves over real HTTP: truncated and dripping bodies, HTML with a 200, transient
404s. A proxy in front of the fixture world injects each fault on the first request(s) of every path;
the refresh must retry through them and write the same snapshot a clean server gives."""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from catalog_pipeline.tmdb import refresh
from catalog_pipeline.tmdb.client import TMDBClient, TMDBError
from catalog_pipeline.tmdb.enrich import APPEND_TO_RESPONSE, enrich
from catalog_pipeline.tmdb.fixture_world import FIXTURE_TOKEN, FixtureServer
from tests.loopback import send_json

MakeClient = Callable[..., TMDBClient]
DATE = "2026-11-01"
FAST = {"rate_limit_per_s": None, "workers": 8}


@dataclass
class Faults:
    """Which fault to inject, on how many first requests of each path, and what was seen."""

    mode: str = "none"
    times: int = 1
    only: str = ""  # inject only on paths containing this
    seen: dict[str, int] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def count(self, path: str) -> int:
        with self.lock:
            self.seen[path] = self.seen.get(path, 0) + 1
            return self.seen[path]


def _proxy_handler(upstream: str, faults: Faults) -> type[BaseHTTPRequestHandler]:
    class Proxy(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:
            path = self.path.split("?", 1)[0]
            nth = faults.count(path)
            inject = faults.mode != "none" and nth <= faults.times and faults.only in path
            request = urllib.request.Request(
                upstream + self.path.removeprefix("/3"),
                headers={"Authorization": self.headers.get("Authorization", "")},
            )
            try:
                with urllib.request.urlopen(request, timeout=10) as answer:
                    status, body = answer.status, answer.read()
            except urllib.error.HTTPError as error:
                status, body = error.code, error.read()
            if inject:
                getattr(self, f"_{faults.mode}")(body)
                return
            self._send(status, body)

        def _send(self, status: int, body: bytes, content_type: str = "application/json") -> None:
            send_json(self, body, status, {"Content-Type": content_type})

        def _truncate(self, body: bytes) -> None:
            # Promise the whole body, send half, hang up: requests sees ChunkedEncodingError.
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            self.close_connection = True

        def _drip(self, body: bytes) -> None:
            # One byte every 0.1 s: no single read ever times out, the whole answer never ends.
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            try:
                for byte in body[:60]:
                    self.wfile.write(bytes([byte]))
                    self.wfile.flush()
                    time.sleep(0.1)
            except OSError:
                pass
            self.close_connection = True

        def _html(self, body: bytes) -> None:
            page = b"<html><body><h1>502 Bad Gateway</h1>cloud edge</body></html>"
            self._send(200, page, "text/html")

        def _not_found(self, body: bytes) -> None:
            data = {"success": False, "status_code": 34, "status_message": "not found."}
            self._send(404, json.dumps(data).encode())

        def _redirect(self, body: bytes) -> None:
            # Somewhere else on the same server: a followed redirect would carry the credential.
            self.send_response(302)
            self.send_header("Location", "/3/caught")
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: object) -> None:
            pass

    return Proxy


@pytest.fixture
def faults() -> Faults:
    return Faults()


@pytest.fixture
def proxy_url(world_server: FixtureServer, faults: Faults) -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _proxy_handler(world_server.base_url, faults))
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/3"
    httpd.shutdown()
    httpd.server_close()


def _refresh(url: str, out: Path, monkeypatch: pytest.MonkeyPatch) -> bytes:
    monkeypatch.setenv("TMDB_API_TOKEN", FIXTURE_TOKEN)
    result = refresh("tmdb", DATE, out=out, limit=12, base_url=url, use_cache=False, **FAST)
    return (result.path / "catalog.json").read_bytes()


@pytest.mark.parametrize("mode", ["truncate", "html", "not_found"])
def test_refresh_retries_through_a_misbehaving_server(
    mode: str,
    faults: Faults,
    proxy_url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clean = _refresh(proxy_url, tmp_path / "clean", monkeypatch)
    faults.mode, faults.seen = mode, {}
    hostile = _refresh(proxy_url, tmp_path / "hostile", monkeypatch)
    assert hostile == clean  # no title lost, nothing garbled
    assert faults.seen
    assert all(n == 2 for n in faults.seen.values())  # each path: one fault, one retry


def test_a_dripping_answer_is_cut_at_the_whole_request_deadline(
    faults: Faults, proxy_url: str, client_for: MakeClient
) -> None:
    faults.mode, faults.times = "drip", 5
    # Each byte arrives well within the read timeout; only the whole-request deadline stops it.
    client = client_for(
        proxy_url, timeout=(2.0, 2.0), request_deadline_s=1.0, max_attempts=2, backoff_base_s=0.01
    )
    started = time.monotonic()
    with pytest.raises(TMDBError, match=r"gave up after 2 attempts .*1\.0 s deadline"):
        client.discover_movies({"page": 1})
    assert time.monotonic() - started < 6.0  # two deadlines (+ one read), not the drip's 6 s each
    faults.times = 1
    faults.seen = {}
    retried = client_for(proxy_url, request_deadline_s=1.0, backoff_base_s=0.01)
    assert retried.discover_movies({"page": 1})["page"] == 1


def test_an_oversized_answer_is_refused(
    world_server: FixtureServer, proxy_url: str, client_for: MakeClient
) -> None:
    client = client_for(proxy_url, max_body_bytes=512, max_attempts=1)
    with pytest.raises(TMDBError, match="more than 512 bytes"):
        client.discover_movies({"page": 1})


def test_a_transient_404_is_neither_cached_nor_final(
    world_server: FixtureServer,
    faults: Faults,
    proxy_url: str,
    client_for: MakeClient,
) -> None:
    movie_id = world_server.world.released()[0].id
    faults.mode, faults.times = "not_found", 1
    client = client_for(proxy_url, cache_namespace="t", backoff_base_s=0.01)
    assert client.movie_details(movie_id, APPEND_TO_RESPONSE)["id"] == movie_id
    # A 404 that persists is final for this run (the title is dropped, and counted) ...
    faults.times, faults.seen = 10, {}
    gone = client_for(proxy_url, cache_namespace="u", backoff_base_s=0.01)
    assert enrich(gone, [movie_id]).not_found == [movie_id]
    # ... but never cached: the next run asks again and gets the title back.
    faults.mode = "none"
    again = client_for(proxy_url, cache_namespace="u", backoff_base_s=0.01)
    assert sorted(enrich(again, [movie_id]).records) == [movie_id]
    assert again.stats.cache_hits == 0


def test_a_redirect_is_not_followed_with_the_credential(
    faults: Faults, proxy_url: str, client_for: MakeClient
) -> None:
    faults.mode, faults.times = "redirect", 10
    client = client_for(proxy_url, max_attempts=1)
    with pytest.raises(TMDBError, match="HTTP 302"):
        client.discover_movies({"page": 1})
    assert "/3/caught" not in faults.seen
