"""The one retry policy for model and endpoint calls: classify a failure, back off (runner.core.pacing), give up within bounds."""

from __future__ import annotations

import asyncio
import random
import re
import sys
import threading
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from runner.core.errors import AgentFailure, InfraFailure
from runner.core.pacing import RateLimiter, backoff_delay, parse_retry_after
from runner.core.redact import redact
from runner.play.agent_config import RetryConfig

__all__ = [
    "Classified",
    "RateLimiter",
    "RetryConfig",
    "call_with_retry",
    "classify_exception",
    "parse_retry_after",
    "redact",
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
_REPEATED_PREFIX = re.compile(r"^(\w+): (?:\1: )+")


@dataclass(frozen=True)
class Classified:
    """What one failed attempt means: its kind, whether to try again, and the server's wish."""

    kind: str
    retryable: bool
    status: int | None = None
    retry_after_s: float | None = None
    detail: str = ""


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


_LIMITERS: dict[tuple[str, float], RateLimiter] = {}
_LIMITERS_LOCK = threading.Lock()


def shared_rate_limiter(key: str, requests_per_minute: float) -> RateLimiter:
    """The process-wide limiter for `key` (e.g. a model and its base URL) at that rate."""
    with _LIMITERS_LOCK:
        limiter = _LIMITERS.get((key, requests_per_minute))
        if limiter is None:
            limiter = RateLimiter.per_minute(requests_per_minute)
            _LIMITERS[(key, requests_per_minute)] = limiter
        return limiter


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
            await limiter.acquire_async(sleep)
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
        delay = backoff_delay(
            attempt, initial_s=config.initial_backoff_s, max_s=config.max_backoff_s, rng=rng
        )
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
