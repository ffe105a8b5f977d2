"""One rate limiter, one backoff and one Retry-After reader (runner/core/pacing.py) for every client of ours."""

from __future__ import annotations

import ast
import random
from pathlib import Path

from catalog_pipeline.tmdb.client import TMDBClient
from runner.core.pacing import RateLimiter, backoff_delay, parse_retry_after
from tests.code_scan import ROOT, found_outside

PACING = ROOT / "runner" / "core" / "pacing.py"


def _pacing_code(path: Path) -> list[str]:
    """What in `path` would be a second pacing policy: a limiter class, or an HTTP-date reader."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ClassDef) and node.name.lower().endswith("limiter"):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno} class {node.name}")
        if isinstance(node, ast.Attribute) and node.attr == "parsedate_to_datetime":
            found.append(f"{path.relative_to(ROOT)}:{node.lineno} parsedate_to_datetime")
    return found


def test_no_second_limiter_or_retry_after_reader_is_written() -> None:
    assert _pacing_code(PACING)  # the check sees the one there is
    assert found_outside(PACING, _pacing_code) == []


def test_the_tmdb_client_paces_and_backs_off_with_the_shared_policy() -> None:
    client = TMDBClient(token="t", rate_limit_per_s=4, backoff_base_s=0.5, backoff_max_s=4)
    try:
        assert isinstance(client.limiter, RateLimiter)
        assert client.limiter.interval_s == 0.25
        client._random = random.Random(3)
        mine = [client._backoff(n) for n in range(1, 6)]
    finally:
        client.close()
    rng = random.Random(3)
    assert mine == [backoff_delay(n, initial_s=0.5, max_s=4, rng=rng) for n in range(1, 6)]


def test_one_limiter_serves_threads_and_coroutines_at_either_unit() -> None:
    now = [0.0]
    per_second = RateLimiter(2, clock=lambda: now[0], sleep=lambda s: None)
    per_minute = RateLimiter.per_minute(120, clock=lambda: now[0])
    assert [per_second.reserve() for _ in range(3)] == [per_minute.reserve() for _ in range(3)]
    assert RateLimiter(None).acquire() == 0.0
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412470.0) == 10.0
