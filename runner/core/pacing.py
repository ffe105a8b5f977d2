"""How any client of ours paces and spaces its requests: one rate limiter, one backoff, one Retry-After reader.

The model-call retry policy (`runner.models.retry.call_with_retry`) and the source clients
(`catalog_pipeline.tmdb.client`) loop differently (async with a total deadline; threads with a
404 budget and a cap on the server's wait), but they space, back off and read Retry-After here.
"""

from __future__ import annotations

import asyncio
import email.utils
import math
import random
import threading
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime


class RateLimiter:
    """Hands out request slots at most `rate_per_s` per second, shared by every thread and coroutine.

    Slots are spaced evenly (a virtual schedule, as in GCRA with no burst), so a server that
    counts requests over any one-second window never sees more than `rate_per_s` plus one.
    `rate_per_s=None` (or <= 0) disables limiting.
    """

    def __init__(
        self,
        rate_per_s: float | None,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.rate_per_s = rate_per_s if rate_per_s and rate_per_s > 0 else None
        self.interval_s = 1.0 / self.rate_per_s if self.rate_per_s else 0.0
        self._clock = clock
        self._sleep = sleep
        self._lock = threading.Lock()
        self._next_slot = 0.0

    @classmethod
    def per_minute(
        cls, requests_per_minute: float, *, clock: Callable[[], float] = time.monotonic
    ) -> RateLimiter:
        """A limiter of `requests_per_minute` (which must be positive)."""
        if requests_per_minute <= 0:
            raise ValueError("requests_per_minute must be positive")
        return cls(requests_per_minute / 60.0, clock=clock)

    def reserve(self) -> float:
        """Book the next free slot; return how long the caller must wait for it."""
        if self.rate_per_s is None:
            return 0.0
        with self._lock:
            now = self._clock()
            slot = max(now, self._next_slot)
            self._next_slot = slot + self.interval_s
        return max(slot - now, 0.0)

    def acquire(self) -> float:
        """Block until this caller's slot comes (a thread); return the seconds waited."""
        wait = self.reserve()
        if wait > 0:
            self._sleep(wait)
        return wait

    async def acquire_async(
        self, sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
    ) -> float:
        """Await this caller's slot (a coroutine); return the seconds waited."""
        wait = self.reserve()
        if wait > 0:
            await sleep(wait)
        return wait

    def penalize(self, seconds: float) -> None:
        """Push every later slot back (the server said slow down, e.g. 429 with Retry-After)."""
        if self.rate_per_s is None or seconds <= 0:
            return
        with self._lock:
            self._next_slot = max(self._next_slot, self._clock() + seconds)


def backoff_delay(attempt: int, *, initial_s: float, max_s: float, rng: random.Random) -> float:
    """Full jitter: uniform in [0, min(max_s, initial_s · 2^(attempt-1))] after attempt n."""
    ceiling = min(max_s, initial_s * (2.0 ** (attempt - 1)))
    return rng.uniform(0.0, ceiling)


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
