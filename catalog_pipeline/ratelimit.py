"""A thread-safe client-side rate limiter that spaces requests evenly (one slot every 1/rate s)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable


class RateLimiter:
    """Hands out request slots at most `rate_per_s` per second, shared by every worker thread.

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
        self._interval = 1.0 / self.rate_per_s if self.rate_per_s else 0.0
        self._clock = clock
        self._sleep = sleep
        self._lock = threading.Lock()
        self._next_slot = 0.0

    def acquire(self) -> float:
        """Block until this caller's slot comes; return the seconds waited."""
        if self.rate_per_s is None:
            return 0.0
        with self._lock:
            now = self._clock()
            slot = max(now, self._next_slot)
            self._next_slot = slot + self._interval
        wait = slot - now
        if wait > 0:
            self._sleep(wait)
        return max(wait, 0.0)

    def penalize(self, seconds: float) -> None:
        """Push every later slot back (the server said slow down, e.g. 429 with Retry-After)."""
        if self.rate_per_s is None or seconds <= 0:
            return
        with self._lock:
            self._next_slot = max(self._next_slot, self._clock() + seconds)
