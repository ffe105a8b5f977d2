"""The one retry policy for model and endpoint calls (backoff, jitter, Retry-After) and secret scrubbing."""

from __future__ import annotations

import asyncio
import email.utils
import math
import os
import random
import re
import sys
import threading
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from runner.core.errors import AgentFailure, InfraFailure
from runner.play.agent_config import RetryConfig

__all__ = [
    "Classified",
    "RateLimiter",
    "RetryConfig",
    "call_with_retry",
    "classify_exception",
    "parse_retry_after",
    "redact",
    "redact_config",
    "shared_rate_limiter",
]

T = TypeVar("T")

# Status codes worth another attempt: throttling, request timeout, conflicts and server errors.
RETRYABLE_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504, 520, 522, 524, 529})
_STATUS_KIND = {
    400: "BadRequest",
    401: "AuthenticationError",
    403: "PermissionDenied",
    404: "NotFound",
    408: "Timeout",
    413: "BadRequest",
    422: "BadRequest",
    429: "RateLimitError",
}
_SECRET_NAME = re.compile(r"(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH)", re.IGNORECASE)
_REPEATED_PREFIX = re.compile(r"^(\w+): (?:\1: )+")
_SECRET_PATTERNS = (
    re.compile(r"\bsk-[A-Za-z0-9_\-]{6,}"),  # OpenAI/Anthropic style keys
    re.compile(r"(?i)\b(bearer|basic)\s+[A-Za-z0-9._~+/=\-]{6,}"),
    re.compile(r"(?i)\b(api[_-]?key|token|secret|password)(\s*[=:]\s*)['\"]?[^\s'\",}]{4,}"),
)


@dataclass(frozen=True)
class Classified:
    """What one failed attempt means: its kind, whether to try again, and the server's wish."""

    kind: str
    retryable: bool
    status: int | None = None
    retry_after_s: float | None = None
    detail: str = ""


def redact(text: str, secrets: Iterable[str] = ()) -> str:
    """Remove secret values (given ones, secret-looking env vars, key-shaped tokens) from `text`."""
    values = {s for s in secrets if s and len(s) >= 4}
    values.update(
        value
        for name, value in os.environ.items()
        if _SECRET_NAME.search(name) and value and len(value) >= 6
    )
    for value in sorted(values, key=len, reverse=True):
        text = text.replace(value, "[redacted]")
    text = _SECRET_PATTERNS[0].sub("[redacted]", text)
    text = _SECRET_PATTERNS[1].sub(lambda m: f"{m.group(1)} [redacted]", text)
    return _SECRET_PATTERNS[2].sub(lambda m: f"{m.group(1)}{m.group(2)}[redacted]", text)


_SECRET_KEY = re.compile(
    r"(api[_-]?key|(^|[_-])key$|secret|passw(or)?d|token(?!s)|credential|authorization|cookie)",
    re.IGNORECASE,
)


def _secret_name(name: str) -> bool:
    return bool(_SECRET_KEY.search(name)) and not name.lower().endswith("_env")


def _redact_url(url: str) -> str:
    parts = urlsplit(url)
    netloc = parts.netloc
    if "@" in netloc:
        netloc = "[redacted]@" + netloc.rsplit("@", 1)[1]
    query = urlencode(
        [(k, "[redacted]" if _secret_name(k) else v) for k, v in parse_qsl(parts.query, True)]
    )
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def redact_config(value: Any, key: str = "") -> Any:
    """A copy of a config (dicts, lists, strings) with secret-named values and URL credentials removed.

    Keys such as `api_key` or `Authorization` lose their values; keys ending in `_env` name an
    environment variable and are kept; URLs lose user:password and secret-named query values.
    """
    if isinstance(value, dict):
        if key.lower().endswith("_env"):
            return dict(value)  # names of environment variables, not their values
        return {k: redact_config(v, str(k)) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [redact_config(v, key) for v in value]
    if isinstance(value, str):
        if key and _secret_name(key) and value:
            return "[redacted]"
        if value.startswith(("http://", "https://")):
            return redact(_redact_url(value))
        return redact(value)
    return value


def parse_retry_after(value: str | None, *, now: float | None = None) -> float | None:
    """Seconds to wait from a Retry-After value (delta seconds or an HTTP date); None if unusable."""
    if value is None:
        return None
    value = value.strip()
    if not value:
        return None
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError):
            return None
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        current = datetime.now(UTC).timestamp() if now is None else now
        return max(0.0, when.timestamp() - current)
    if math.isnan(seconds) or math.isinf(seconds):
        return None
    return max(0.0, seconds)


def _header(headers: Any, name: str) -> str | None:
    if headers is None:
        return None
    try:
        value = headers.get(name)
    except AttributeError:
        return None
    return None if value is None else str(value)


def _retry_after_from(exc: BaseException) -> float | None:
    """Look for Retry-After (or retry-after-ms) wherever LiteLLM, OpenAI or httpx keep headers."""
    candidates = [
        getattr(exc, "headers", None),
        getattr(getattr(exc, "response", None), "headers", None),
        getattr(exc, "litellm_response_headers", None),
    ]
    for headers in candidates:
        ms = _header(headers, "retry-after-ms")
        if ms is not None:
            parsed = parse_retry_after(ms)
            if parsed is not None:
                return parsed / 1000.0
        parsed = parse_retry_after(_header(headers, "retry-after"))
        if parsed is not None:
            return parsed
    return None


def _status_of(exc: BaseException) -> int | None:
    status = getattr(exc, "status_code", None)
    if isinstance(status, int):
        return status
    status = getattr(getattr(exc, "response", None), "status_code", None)
    return status if isinstance(status, int) else None


def _kind_for_status(status: int) -> str:
    if status in _STATUS_KIND:
        return _STATUS_KIND[status]
    if status >= 500:
        return "ServiceUnavailable" if status == 503 else "ServerError"
    return f"HTTP{status}"


def _short(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    text = text.replace("litellm.", "").replace("\n", " ")
    text = _REPEATED_PREFIX.sub(r"\1: ", text)
    return text if len(text) <= 300 else text[:297] + "..."


def classify_exception(exc: BaseException) -> Classified:
    """Map an exception from LiteLLM, the direct client (aiohttp), httpx or asyncio to a kind and
    whether to retry it."""
    retry_after = _retry_after_from(exc)
    detail = _short(exc)
    if "runner.models.reply_limit" in sys.modules:
        from runner.models.reply_limit import ResponseTooLarge

        cause: BaseException | None = exc
        while cause is not None:  # LiteLLM wraps it in its own exception types
            if isinstance(cause, ResponseTooLarge):
                return Classified("ResponseTooLarge", False, None, None, str(cause))
            cause = cause.__cause__ or cause.__context__
    if "litellm" in sys.modules:
        from litellm import exceptions as llm

        if isinstance(exc, llm.Timeout):
            return Classified("Timeout", True, 408, retry_after, detail)
        if isinstance(exc, llm.APIConnectionError):
            return Classified("ConnectionError", True, None, retry_after, detail)
        if isinstance(exc, llm.ContextWindowExceededError):
            return Classified("ContextWindowExceeded", False, 400, None, detail)
        if isinstance(exc, llm.ContentPolicyViolationError):
            return Classified("ContentPolicyViolation", False, 400, None, detail)
        if isinstance(exc, llm.UnsupportedParamsError):
            return Classified("BadRequest", False, 400, None, detail)
        if isinstance(exc, llm.APIResponseValidationError):
            return Classified("MalformedResponse", True, None, retry_after, detail)
    if "runner.models.openai_compat" in sys.modules:
        from runner.models.openai_compat import EndpointError, MalformedReply

        if isinstance(exc, MalformedReply):
            return Classified("MalformedResponse", True, None, retry_after, detail)
        if isinstance(exc, EndpointError) and exc.code == "context_length_exceeded":
            return Classified("ContextWindowExceeded", False, exc.status_code, None, detail)
    if "aiohttp" in sys.modules and not isinstance(exc, TimeoutError):
        import aiohttp

        if isinstance(exc, aiohttp.InvalidURL):
            return Classified("InvalidURL", False, None, None, detail)
        if isinstance(exc, aiohttp.ClientError):  # connection, payload or protocol trouble
            return Classified("ConnectionError", True, None, retry_after, detail)
    if "httpx" in sys.modules:
        import httpx

        if isinstance(exc, httpx.TimeoutException):
            return Classified("Timeout", True, None, retry_after, detail)
        if isinstance(exc, httpx.TransportError):
            return Classified("ConnectionError", True, None, retry_after, detail)
    if isinstance(exc, TimeoutError):
        return Classified("Timeout", True, None, retry_after, detail)
    if isinstance(exc, ConnectionError):
        return Classified("ConnectionError", True, None, retry_after, detail)
    status = _status_of(exc)
    if status is not None:
        retryable = status in RETRYABLE_STATUS
        return Classified(_kind_for_status(status), retryable, status, retry_after, detail)
    return Classified(type(exc).__name__, False, None, None, detail)


class RateLimiter:
    """Spaces requests evenly to at most `requests_per_minute`, shared by every coroutine using it."""

    def __init__(self, requests_per_minute: float, *, clock: Callable[[], float] = time.monotonic):
        if requests_per_minute <= 0:
            raise ValueError("requests_per_minute must be positive")
        self.interval_s = 60.0 / requests_per_minute
        self._clock = clock
        self._next = 0.0
        self._lock = threading.Lock()

    def reserve(self) -> float:
        """Book the next free slot; returns how long the caller must wait for it."""
        with self._lock:
            now = self._clock()
            slot = max(now, self._next)
            self._next = slot + self.interval_s
            return slot - now

    async def acquire(self, sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        wait = self.reserve()
        if wait > 0:
            await sleep(wait)


_LIMITERS: dict[tuple[str, float], RateLimiter] = {}
_LIMITERS_LOCK = threading.Lock()


def shared_rate_limiter(key: str, requests_per_minute: float) -> RateLimiter:
    """The process-wide limiter for `key` (e.g. a model and its base URL) at that rate."""
    with _LIMITERS_LOCK:
        limiter = _LIMITERS.get((key, requests_per_minute))
        if limiter is None:
            limiter = _LIMITERS[(key, requests_per_minute)] = RateLimiter(requests_per_minute)
        return limiter


def backoff_delay(config: RetryConfig, attempt: int, rng: random.Random) -> float:
    """Full jitter: uniform in [0, min(max_backoff, initial · 2^(attempt-1))] after attempt n."""
    ceiling = min(config.max_backoff_s, config.initial_backoff_s * (2.0 ** (attempt - 1)))
    return rng.uniform(0.0, ceiling)


async def call_with_retry(
    call: Callable[[], Awaitable[T]],
    config: RetryConfig,
    *,
    what: str,
    rng: random.Random | None = None,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    clock: Callable[[], float] = time.monotonic,
    limiter: RateLimiter | None = None,
    secrets: Iterable[str] = (),
    classify: Callable[[BaseException], Classified] = classify_exception,
    on_retry: Callable[[int, Classified, float], None] | None = None,
) -> T:
    """Await `call()` until it succeeds; on giving up raise InfraFailure(kind, message).

    Retryable failures (429, 5xx, timeouts, connection errors) are retried with exponential
    backoff and full jitter, or after the server's Retry-After when it sent one, within
    `config.max_attempts` attempts and `config.max_total_s` seconds in all. Anything else
    (400, 401, 403, 404, ...) fails at once. Messages never contain secret values.
    """
    rng = rng if rng is not None else random.Random()
    secret_values = tuple(secrets)
    started = clock()
    deadline = started + config.max_total_s
    attempt = 0
    while True:
        attempt += 1
        if limiter is not None:
            await limiter.acquire(sleep)
        try:
            return await call()
        except (InfraFailure, AgentFailure):
            raise
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            failure = classify(exc)
        elapsed = clock() - started
        summary = f"{what}: {failure.detail}"
        if not failure.retryable:
            raise InfraFailure(failure.kind, redact(summary, secret_values)) from None
        if attempt >= config.max_attempts:
            message = f"{summary} (gave up after {attempt} attempt(s) in {elapsed:.1f}s)"
            raise InfraFailure(failure.kind, redact(message, secret_values)) from None
        delay = backoff_delay(config, attempt, rng)
        if failure.retry_after_s is not None:
            delay = max(delay, failure.retry_after_s)
        if clock() + delay > deadline:
            message = (
                f"{summary} (gave up after {attempt} attempt(s) in {elapsed:.1f}s: waiting "
                f"{delay:.1f}s more would pass the {config.max_total_s:g}s limit)"
            )
            raise InfraFailure(failure.kind, redact(message, secret_values)) from None
        if on_retry is not None:
            on_retry(attempt, failure, delay)
        await sleep(delay)
