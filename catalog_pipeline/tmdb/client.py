"""A TMDB v3 HTTP client: env auth, shared rate limiter, retries with backoff, disk cache, counters."""

from __future__ import annotations

import json
import os
import random
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import requests
import urllib3
from requests.adapters import HTTPAdapter

from catalog_pipeline.tmdb.cache import ResponseCache, request_key
from runner.core.errors import TaurecError
from runner.core.pacing import RateLimiter, backoff_delay, parse_retry_after

TMDB_BASE_URL = "https://api.themoviedb.org/3"
TOKEN_ENV = "TMDB_API_TOKEN"
KEY_ENV = "TMDB_API_KEY"
DEFAULT_RATE_LIMIT = 40.0
# A TMDB details answer with every appended part is tens of KiB; anything past this is not TMDB.
DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024
DEFAULT_REQUEST_DEADLINE_S = 60.0
READ_CHUNK = 64 * 1024
INVALID_KEY_STATUS = 7
NOT_FOUND_STATUS = 34


class TMDBError(TaurecError):
    """TMDB answered with an error (its `status_code`/`status_message` are kept) or never answered."""

    def __init__(
        self,
        message: str,
        *,
        path: str = "",
        http_status: int | None = None,
        status_code: int | None = None,
        status_message: str | None = None,
    ) -> None:
        self.path = path
        self.http_status = http_status
        self.status_code = status_code
        self.status_message = status_message
        super().__init__(message)


class TMDBAuthError(TMDBError):
    """The credential was rejected (TMDB status_code 7 / HTTP 401): nothing else can succeed."""


class TMDBNotFound(TMDBError):
    """The resource does not exist (TMDB status_code 34 / HTTP 404)."""


class _Transient(Exception):
    """One attempt failed in a way worth retrying (its text says how)."""


class MissingCredentials(TaurecError):
    """Neither TMDB_API_TOKEN nor TMDB_API_KEY is set."""


@dataclass
class RequestStats:
    """What the client did: requests sent over the network (retries included) and cache hits."""

    sent: int = 0
    cache_hits: int = 0
    retries: int = 0
    rate_limited: int = 0
    server_errors: int = 0
    sent_by_endpoint: dict[str, int] = field(default_factory=dict)
    hits_by_endpoint: dict[str, int] = field(default_factory=dict)
    limiter_wait_s: float = 0.0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def count_sent(self, endpoint: str) -> None:
        with self._lock:
            self.sent += 1
            self.sent_by_endpoint[endpoint] = self.sent_by_endpoint.get(endpoint, 0) + 1

    def count_hit(self, endpoint: str) -> None:
        with self._lock:
            self.cache_hits += 1
            self.hits_by_endpoint[endpoint] = self.hits_by_endpoint.get(endpoint, 0) + 1

    def add(self, name: str, amount: float = 1) -> None:
        with self._lock:
            setattr(self, name, getattr(self, name) + amount)

    def as_dict(self) -> dict[str, Any]:
        with self._lock:
            return {
                "sent": self.sent,
                "cache_hits": self.cache_hits,
                "retries": self.retries,
                "rate_limited": self.rate_limited,
                "server_errors": self.server_errors,
                "sent_by_endpoint": dict(sorted(self.sent_by_endpoint.items())),
                "hits_by_endpoint": dict(sorted(self.hits_by_endpoint.items())),
                "limiter_wait_s": round(self.limiter_wait_s, 3),
            }


def endpoint_of(path: str) -> str:
    """A coarse endpoint label for counting: `discover`, `details`, or the path itself."""
    if path.startswith("/discover/"):
        return "discover"
    parts = path.strip("/").split("/")
    if len(parts) == 2 and parts[0] == "movie" and parts[1].isdigit():
        return "details"
    return path


class TMDBClient:
    """GET TMDB endpoints through one rate limiter, one connection pool and one response cache.

    Thread-safe: enrichment workers share the client. The credential (bearer token or v3 key)
    is sent with each request but is never part of a cache key, an error message or a log.
    Every answer is bounded: at most `max_body_bytes`, read within `request_deadline_s` (a body
    that drips in byte by byte is cut there). A truncated body, a 200 that is not JSON and a 404
    are retried like a 5xx (a 404 `not_found_attempts` times); only 200 answers are cached.
    """

    def __init__(
        self,
        *,
        base_url: str = TMDB_BASE_URL,
        token: str | None = None,
        api_key: str | None = None,
        rate_limit_per_s: float | None = DEFAULT_RATE_LIMIT,
        cache_dir: Path | None = None,
        read_cache: bool = True,
        cache_namespace: str | None = None,
        timeout: tuple[float, float] = (5.0, 30.0),
        max_attempts: int = 6,
        backoff_base_s: float = 0.5,
        backoff_max_s: float = 20.0,
        max_retry_after_s: float = 120.0,
        pool_size: int = 16,
        request_deadline_s: float = DEFAULT_REQUEST_DEADLINE_S,
        max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
        not_found_attempts: int = 2,
    ) -> None:
        if not token and not api_key:
            raise MissingCredentials(
                f"no TMDB credential: set {TOKEN_ENV} (v4 read access token) or {KEY_ENV} (v3 key)"
            )
        self.base_url = base_url.rstrip("/")
        self._token = token
        self._api_key = api_key
        self.limiter = RateLimiter(rate_limit_per_s)
        self.cache = ResponseCache(cache_dir) if cache_dir is not None else None
        self.read_cache = read_cache
        self.cache_namespace = cache_namespace or self.base_url
        self.timeout = timeout
        self.max_attempts = max_attempts
        self.backoff_base_s = backoff_base_s
        self.backoff_max_s = backoff_max_s
        self.max_retry_after_s = max_retry_after_s
        self.request_deadline_s = request_deadline_s
        self.max_body_bytes = max_body_bytes
        self.not_found_attempts = not_found_attempts
        self.stats = RequestStats()
        self._random = random.Random()
        self._session = requests.Session()
        adapter = HTTPAdapter(pool_connections=1, pool_maxsize=pool_size, pool_block=True)
        self._session.mount("http://", adapter)
        self._session.mount("https://", adapter)
        self._session.headers["Accept"] = "application/json"
        if token:
            self._session.headers["Authorization"] = f"Bearer {token}"

    @classmethod
    def from_env(cls, **kwargs: Any) -> TMDBClient:
        """Credential from `TMDB_API_TOKEN` (preferred) or `TMDB_API_KEY`; clear error if neither."""
        token = os.environ.get(TOKEN_ENV, "").strip() or None
        api_key = None if token else (os.environ.get(KEY_ENV, "").strip() or None)
        return cls(token=token, api_key=api_key, **kwargs)

    def close(self) -> None:
        self._session.close()

    def __enter__(self) -> TMDBClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- endpoints -------------------------------------------------------------------------

    def discover_movies(self, params: Mapping[str, object]) -> dict[str, Any]:
        """One page of `/discover/movie`."""
        return self._expect_object("/discover/movie", params)

    def movie_details(self, movie_id: int, append: str) -> dict[str, Any]:
        """`/movie/{id}` with `append_to_response`."""
        return self._expect_object(f"/movie/{movie_id}", {"append_to_response": append})

    def _expect_object(self, path: str, params: Mapping[str, object]) -> dict[str, Any]:
        body = self.get(path, params)
        if not isinstance(body, dict):
            raise TMDBError(
                f"GET {path}: expected a JSON object, got {type(body).__name__}", path=path
            )
        return body

    # -- the request loop --------------------------------------------------------------------

    def get(self, path: str, params: Mapping[str, object] | None = None) -> Any:
        """GET `path` (relative to the base URL); return the parsed JSON body of a 200 answer."""
        params = dict(params or {})
        endpoint = endpoint_of(path)
        key = request_key(self.cache_namespace, "GET", path, params)
        if self.cache is not None and self.read_cache:
            cached = self.cache.get(key)
            if cached is not None:
                self.stats.count_hit(endpoint)
                return self._result(path, *cached)
        status, body = self._fetch(path, params, endpoint)
        # Only a 200 is final enough to keep: a 404 may be TMDB's passing hiccup.
        if self.cache is not None and status == 200:
            request = {"method": "GET", "path": path, "params": params}
            self.cache.put(key, request, status, body)
        return self._result(path, status, body)

    def _result(self, path: str, status: int, body: Any) -> Any:
        if status == 200:
            return body
        code = body.get("status_code") if isinstance(body, dict) else None
        message = body.get("status_message") if isinstance(body, dict) else None
        code = code if isinstance(code, int) else None
        message = str(message) if message is not None else None
        detail = f"HTTP {status}"
        if code is not None or message:
            detail += f", TMDB status_code {code}: {message}"
        if code == INVALID_KEY_STATUS or status == 401:
            raise TMDBAuthError(
                f"TMDB rejected the credential at {self.base_url} ({detail}); "
                f"check {TOKEN_ENV} (v4 read access token) or {KEY_ENV} (v3 key)",
                path=path,
                http_status=status,
                status_code=code,
                status_message=message,
            )
        kind = TMDBNotFound if status == 404 or code == NOT_FOUND_STATUS else TMDBError
        raise kind(
            f"GET {path}: {detail}",
            path=path,
            http_status=status,
            status_code=code,
            status_message=message,
        )

    def _backoff(self, attempt: int) -> float:
        return backoff_delay(
            attempt, initial_s=self.backoff_base_s, max_s=self.backoff_max_s, rng=self._random
        )

    def _read_body(self, response: requests.Response, started: float) -> bytes:
        """The whole body, at most `max_body_bytes`, done by `request_deadline_s` after `started`."""
        chunks: list[bytes] = []
        size = 0
        while True:
            if time.monotonic() - started > self.request_deadline_s:
                raise _Transient(
                    f"the answer did not complete within the {self.request_deadline_s:.1f} s "
                    "deadline"
                )
            # read1 returns whatever one socket read gives, so a drip is checked byte by byte.
            chunk = response.raw.read1(READ_CHUNK, decode_content=True)
            if not chunk:
                return b"".join(chunks)
            size += len(chunk)
            if size > self.max_body_bytes:
                raise TMDBError(
                    f"GET {response.request.path_url.split('?')[0]}: the answer is more than "
                    f"{self.max_body_bytes} bytes; refusing it"
                )
            chunks.append(chunk)

    def _attempt(self, url: str, params: dict[str, Any], endpoint: str) -> tuple[int, Any, str]:
        """One request: (status, parsed body, Retry-After); raises _Transient to retry."""
        started = time.monotonic()
        try:
            # No redirects: the credential (a header or the api_key parameter) stays with TMDB's
            # own host; a 3xx is reported as an error, not followed.
            response = self._session.get(
                url, params=params, timeout=self.timeout, stream=True, allow_redirects=False
            )
        except (requests.ConnectionError, requests.Timeout) as exc:
            raise _Transient(f"{type(exc).__name__}: could not reach {self.base_url}") from None
        with response:
            self.stats.count_sent(endpoint)
            try:
                data = self._read_body(response, started)
            except (
                requests.RequestException,
                urllib3.exceptions.HTTPError,
                OSError,
            ) as exc:  # a truncated, reset or stalled body
                raise _Transient(f"the body broke off ({type(exc).__name__})") from None
            retry_after = response.headers.get("Retry-After", "")
            content_type = response.headers.get("Content-Type", "")
        status = response.status_code
        try:
            body = json.loads(data)
        except ValueError:
            if status == 200:  # e.g. a proxy's HTML error page: not TMDB's answer
                raise _Transient(
                    f"HTTP 200 but the body is not JSON ({content_type or 'no Content-Type'})"
                ) from None
            body = {"status_message": data[:200].decode("utf-8", "replace")}
        return status, body, retry_after

    def _fetch(self, path: str, params: dict[str, object], endpoint: str) -> tuple[int, Any]:
        url = self.base_url + path
        send_params: dict[str, Any] = dict(params)
        if self._api_key:
            send_params["api_key"] = self._api_key
        last_problem = "no attempt made"
        not_found = 0
        for attempt in range(1, self.max_attempts + 1):
            if attempt > 1:
                self.stats.add("retries")
            self.stats.add("limiter_wait_s", self.limiter.acquire())
            try:
                status, body, retry_after = self._attempt(url, send_params, endpoint)
            except _Transient as exc:
                last_problem = str(exc)
                time.sleep(self._backoff(attempt))
                continue
            if status == 429:
                self.stats.add("rate_limited")
                wait = parse_retry_after(retry_after)
                if wait is not None and wait > self.max_retry_after_s:
                    raise TMDBError(
                        f"GET {path}: rate limited with Retry-After {wait:.0f}s "
                        f"(more than the {self.max_retry_after_s:.0f}s this client waits)",
                        path=path,
                        http_status=429,
                    )
                wait = self._backoff(attempt) if wait is None else wait
                self.limiter.penalize(wait)
                last_problem = "HTTP 429 (rate limited)"
                time.sleep(wait)
                continue
            if status >= 500:
                self.stats.add("server_errors")
                last_problem = f"HTTP {status}"
                time.sleep(self._backoff(attempt))
                continue
            if status == 404:
                not_found += 1
                if not_found < self.not_found_attempts and attempt < self.max_attempts:
                    last_problem = "HTTP 404"
                    time.sleep(self._backoff(attempt))
                    continue
            return status, body
        raise TMDBError(
            f"GET {path}: gave up after {self.max_attempts} attempts (last: {last_problem})",
            path=path,
        )
