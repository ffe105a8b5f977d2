"""The one retry policy: classification, backoff with jitter, Retry-After, limits, secret scrubbing."""

from __future__ import annotations

import asyncio
import email.utils
import random
import time

import httpx
import pytest

from runner.core.errors import InfraFailure
from runner.core.pacing import RateLimiter, backoff_delay, parse_retry_after
from runner.core.redact import redact, redact_config
from runner.models.retry import call_with_retry, classify_exception
from runner.play.agent_config import RetryConfig

FAST = RetryConfig(max_attempts=4, initial_backoff_s=0.001, max_backoff_s=0.002, max_total_s=30)


def status_error(status: int, headers: dict[str, str] | None = None) -> httpx.HTTPStatusError:
    request = httpx.Request("POST", "https://agent.example/step")
    response = httpx.Response(status, headers=headers or {}, request=request, text="nope")
    return httpx.HTTPStatusError(f"HTTP {status}", request=request, response=response)


class Script:
    """An async call that raises the scripted exceptions in order, then returns 'ok'."""

    def __init__(self, *failures: BaseException) -> None:
        self.failures = list(failures)
        self.calls = 0

    async def __call__(self) -> str:
        self.calls += 1
        if self.failures:
            raise self.failures.pop(0)
        return "ok"


class Sleeps:
    """Records requested delays without waiting."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, delay: float) -> None:
        self.delays.append(delay)


def run(coro):  # type: ignore[no-untyped-def]
    return asyncio.run(coro)


def test_parse_retry_after_seconds_date_and_garbage() -> None:
    assert parse_retry_after("3") == 3.0
    assert parse_retry_after(" 0.25 ") == 0.25
    assert parse_retry_after("-4") == 0.0
    assert parse_retry_after("soon") is None
    assert parse_retry_after("") is None
    assert parse_retry_after(None) is None
    now = time.time()
    date = email.utils.formatdate(now + 30, usegmt=True)
    parsed = parse_retry_after(date, now=now)
    assert parsed is not None
    assert 28 <= parsed <= 31


@pytest.mark.parametrize(
    ("status", "kind", "retryable"),
    [
        (429, "RateLimitError", True),
        (500, "ServerError", True),
        (502, "ServerError", True),
        (503, "ServiceUnavailable", True),
        (400, "BadRequest", False),
        (401, "AuthenticationError", False),
        (403, "PermissionDenied", False),
        (404, "NotFound", False),
    ],
)
def test_classify_status(status: int, kind: str, retryable: bool) -> None:
    failure = classify_exception(status_error(status))
    assert (failure.kind, failure.retryable, failure.status) == (kind, retryable, status)


def test_classify_transport_errors() -> None:
    assert classify_exception(httpx.ReadTimeout("slow")).kind == "Timeout"
    assert classify_exception(TimeoutError()).kind == "Timeout"
    assert classify_exception(httpx.ConnectError("refused")).kind == "ConnectionError"
    assert classify_exception(ConnectionRefusedError()).kind == "ConnectionError"
    assert not classify_exception(ValueError("bug")).retryable


def test_retry_after_is_honoured_then_success() -> None:
    script = Script(
        status_error(429, {"Retry-After": "7"}), status_error(503, {"retry-after": "2"})
    )
    sleeps = Sleeps()
    assert run(call_with_retry(script, FAST, what="model m", sleep=sleeps)) == "ok"
    assert script.calls == 3
    assert sleeps.delays[0] >= 7
    assert sleeps.delays[1] >= 2


def test_retry_after_ms_header() -> None:
    script = Script(status_error(429, {"retry-after-ms": "1500"}))
    sleeps = Sleeps()
    run(call_with_retry(script, FAST, what="m", sleep=sleeps))
    assert sleeps.delays == [pytest.approx(1.5, abs=0.01)]


def test_server_errors_until_attempts_exhausted() -> None:
    script = Script(*[status_error(500) for _ in range(10)])
    with pytest.raises(InfraFailure) as caught:
        run(call_with_retry(script, FAST, what="model m", sleep=Sleeps()))
    assert script.calls == FAST.max_attempts
    assert caught.value.kind == "ServerError"
    assert "gave up after 4 attempt(s)" in caught.value.message


def test_client_errors_fail_at_once() -> None:
    for status, kind in [(400, "BadRequest"), (401, "AuthenticationError"), (404, "NotFound")]:
        script = Script(status_error(status), status_error(status))
        with pytest.raises(InfraFailure) as caught:
            run(call_with_retry(script, FAST, what="m", sleep=Sleeps()))
        assert script.calls == 1
        assert caught.value.kind == kind


def test_total_time_bound_stops_a_long_retry_after() -> None:
    config = RetryConfig(max_attempts=10, initial_backoff_s=0.001, max_total_s=5)
    script = Script(status_error(429, {"Retry-After": "60"}))
    sleeps = Sleeps()
    with pytest.raises(InfraFailure) as caught:
        run(call_with_retry(script, config, what="m", sleep=sleeps))
    assert sleeps.delays == []
    assert caught.value.kind == "RateLimitError"
    assert "5s limit" in caught.value.message


def test_total_time_bound_with_a_clock() -> None:
    now = [0.0]

    async def sleep(delay: float) -> None:
        now[0] += delay

    config = RetryConfig(max_attempts=20, initial_backoff_s=1, max_backoff_s=1, max_total_s=3.5)
    script = Script(*[status_error(502) for _ in range(30)])
    with pytest.raises(InfraFailure):
        run(call_with_retry(script, config, what="m", sleep=sleep, clock=lambda: now[0]))
    assert now[0] <= 3.5
    assert script.calls < 20


def test_full_jitter_stays_within_the_exponential_ceiling() -> None:
    config = RetryConfig(initial_backoff_s=0.5, max_backoff_s=4)
    rng = random.Random(7)
    for attempt in range(1, 9):
        ceiling = min(4.0, 0.5 * 2 ** (attempt - 1))
        delays = [
            backoff_delay(
                attempt, initial_s=config.initial_backoff_s, max_s=config.max_backoff_s, rng=rng
            )
            for _ in range(50)
        ]
        assert all(0 <= d <= ceiling for d in delays)
        assert max(delays) > ceiling / 2  # jitter spreads over the whole range


def test_same_seed_same_delays() -> None:
    def delays(seed: int) -> list[float]:
        sleeps = Sleeps()
        script = Script(*[status_error(500) for _ in range(3)])
        config = RetryConfig(max_attempts=4, initial_backoff_s=1, max_backoff_s=8)
        run(call_with_retry(script, config, what="m", sleep=sleeps, rng=random.Random(seed)))
        return sleeps.delays

    assert delays(3) == delays(3)
    assert delays(3) != delays(4)


def test_give_up_message_never_contains_a_planted_key(monkeypatch: pytest.MonkeyPatch) -> None:
    planted = "sk-planted-0123456789abcdef"
    monkeypatch.setenv("TAUREC_TEST_PROVIDER_API_KEY", planted)
    leaky = RuntimeError(f"Incorrect API key provided: {planted}")

    def classify(exc: BaseException):  # type: ignore[no-untyped-def]
        failure = classify_exception(exc)
        return type(failure)("AuthenticationError", False, 401, None, str(exc))

    with pytest.raises(InfraFailure) as caught:
        run(call_with_retry(Script(leaky), FAST, what="m", classify=classify, sleep=Sleeps()))
    assert planted not in str(caught.value)
    assert planted not in caught.value.message
    assert "[redacted]" in caught.value.message


def test_redact_patterns_and_explicit_secrets() -> None:
    text = "Authorization: Bearer abcdef123456 api_key=zzzz9999 tok sk-abcdefghijkl custom-s3cret"
    cleaned = redact(text, ["custom-s3cret"])
    for secret in ["abcdef123456", "zzzz9999", "sk-abcdefghijkl", "custom-s3cret"]:
        assert secret not in cleaned


def test_redact_config_keeps_env_names_and_token_counts() -> None:
    config = {
        "model": "openai/x",
        "api_key_env": "OPENAI_API_KEY",
        "max_tokens": 512,
        "extra_body": {"api_key": "hunter2hunter2", "top_k": 3, "auth_token": "t0ken-value"},
        "api_base": "https://user:pw@llm.example/v1?key=abc123&region=eu",
        "headers_env": {"Authorization": "AGENT_TOKEN"},
    }
    cleaned = redact_config(config)
    assert cleaned["api_key_env"] == "OPENAI_API_KEY"
    assert cleaned["max_tokens"] == 512
    assert cleaned["extra_body"] == {
        "api_key": "[redacted]",
        "top_k": 3,
        "auth_token": "[redacted]",
    }
    assert "pw" not in cleaned["api_base"]
    assert "abc123" not in cleaned["api_base"]
    assert "region=eu" in cleaned["api_base"]
    assert cleaned["headers_env"] == {"Authorization": "AGENT_TOKEN"}


def test_rate_limiter_spaces_requests() -> None:
    now = [100.0]
    limiter = RateLimiter.per_minute(120, clock=lambda: now[0])  # one every 0.5 s
    waits = [limiter.reserve() for _ in range(4)]
    assert waits == [0.0, 0.5, 1.0, 1.5]
    now[0] += 10
    assert limiter.reserve() == 0.0


def test_rate_limiter_is_awaited_before_each_attempt() -> None:
    limiter = RateLimiter.per_minute(60)
    sleeps = Sleeps()
    script = Script(status_error(500))
    run(call_with_retry(script, FAST, what="m", sleep=sleeps, limiter=limiter))
    # the second attempt waits for the next one-per-second slot (after the backoff sleep)
    assert any(d > 0.9 for d in sleeps.delays)
