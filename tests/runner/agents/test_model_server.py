"""The OpenAI-compatible baseline model server: wire shape, faults, concurrency, and its CLI."""

from __future__ import annotations

import concurrent.futures
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from domains.movies.catalog import Catalog
from domains.movies.tasks import load_task
from domains.movies.tools import build_toolset
from runner.core.paths import PROJECT_ROOT
from runner.models.model_server import model_names, parse_fault, serve_model


@pytest.fixture(scope="module")
def tools(v1_dir: Path) -> list[dict[str, Any]]:
    catalog = Catalog.load(v1_dir / "catalog.json")
    task = load_task(sorted((v1_dir / "tasks").glob("*.json"))[0])
    return build_toolset(catalog, task).schemas()


@pytest.fixture
def url() -> Iterator[str]:
    with serve_model(retry_after_s=0.05) as base:
        yield base


def chat(messages: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"model": "heuristic", "messages": messages, **extra}


def opening(text: str = "I'd like a comedy tonight, nothing too long.") -> list[dict[str, Any]]:
    from runner.agents.prompt import build_system_prompt

    return [
        {"role": "system", "content": build_system_prompt("Be honest.", "user_1")},
        {"role": "assistant", "content": "Hi! What are you in the mood for?"},
        {"role": "user", "content": text},
    ]


# One client for the module: a new httpx client per request costs an SSL context each time.
CLIENT = httpx.Client(timeout=10)


def teardown_module() -> None:
    CLIENT.close()


def post(url: str, body: dict[str, Any], headers: dict[str, str] | None = None) -> httpx.Response:
    return CLIENT.post(f"{url}/chat/completions", json=body, headers=headers)


def stats(url: str) -> dict[str, int]:
    base = url.removesuffix("/v1")
    counts: dict[str, int] = CLIENT.get(f"{base}/taurec/stats").json()["counts"]
    return counts


def test_models_are_listed(url: str) -> None:
    body = CLIENT.get(f"{url}/models").json()
    assert [m["id"] for m in body["data"]] == list(model_names())
    assert model_names() == (
        "heuristic",
        "random",
        "user",
        "taurec-user",
        "taurec-user-reader",
        "taurec-user-writer",
        "taurec-shopper",
        "taurec-shopper-reader",
        "taurec-shopper-writer",
    )


def test_completion_has_the_openai_shape(url: str, tools: list[dict[str, Any]]) -> None:
    response = post(url, chat(opening(), tools=tools, seed=4))
    assert response.status_code == 200
    body = response.json()
    assert body["object"] == "chat.completion"
    choice = body["choices"][0]
    message = choice["message"]
    assert message["role"] == "assistant"
    if message.get("tool_calls"):
        assert choice["finish_reason"] == "tool_calls"
        for call in message["tool_calls"]:
            assert call["type"] == "function"
            assert isinstance(json.loads(call["function"]["arguments"]), dict)
            assert call["function"]["name"] in {t["function"]["name"] for t in tools}
    else:
        assert choice["finish_reason"] == "stop"
        assert message["content"]
    usage = body["usage"]
    assert usage["prompt_tokens"] > 0
    assert usage["total_tokens"] == usage["prompt_tokens"] + usage["completion_tokens"]


def test_same_request_same_answer(url: str, tools: list[dict[str, Any]]) -> None:
    def answer(seed: int | None) -> Any:
        extra = {} if seed is None else {"seed": seed}
        return post(url, chat(opening(), tools=tools, **extra)).json()["choices"]

    assert answer(9) == answer(9)
    assert answer(None) == answer(None)


def test_errors_are_openai_shaped(url: str) -> None:
    missing = post(url, {"model": "gpt-9", "messages": opening()})
    assert missing.status_code == 404
    assert "heuristic" in missing.json()["error"]["message"]
    bad = CLIENT.post(f"{url}/chat/completions", content=b"{not json")
    assert bad.status_code == 400
    streaming = post(url, chat(opening(), stream=True))
    assert streaming.status_code == 400
    option = post(url, {"model": "heuristic+colour=blue", "messages": opening()})
    assert option.status_code == 400
    assert "colour" in option.json()["error"]["message"]


@pytest.mark.parametrize("status", [429, 500, 503, 401])
def test_fault_by_model_name(url: str, status: int) -> None:
    response = post(url, {"model": f"heuristic+fault={status}", "messages": opening()})
    assert response.status_code == status
    assert response.json()["error"]["code"] == str(status)
    if status in (429, 503):
        assert response.headers["Retry-After"] == "0.05"


def test_fault_by_header_and_retry_after_override(url: str) -> None:
    response = post(
        url,
        {"model": "heuristic+retry_after=3", "messages": opening()},
        headers={"X-Taurec-Fault": "429"},
    )
    assert response.status_code == 429
    assert response.headers["Retry-After"] == "3"


def test_once_fault_fails_the_first_call_of_each_conversation(url: str) -> None:
    model = "heuristic+fault=once500"
    first = opening("A thriller, please.")
    assert post(url, {"model": model, "messages": first}).status_code == 500
    assert post(url, {"model": model, "messages": first}).status_code == 200
    longer = [*first, {"role": "assistant", "content": "Any length limit?"}]
    assert post(url, {"model": model, "messages": longer}).status_code == 200
    other = opening("Something animated for the kids.")
    assert post(url, {"model": model, "messages": other}).status_code == 500
    assert stats(url)["fault:once500"] == 2


def test_malformed_tool_json(url: str, tools: list[dict[str, Any]]) -> None:
    response = post(
        url, {"model": "heuristic+fault=malformed_tool_json", "messages": opening(), "tools": tools}
    )
    call = response.json()["choices"][0]["message"]["tool_calls"][0]
    with pytest.raises(json.JSONDecodeError):
        json.loads(call["function"]["arguments"])


def test_rate_faults_are_seeded() -> None:
    def statuses(seed: int) -> list[int]:
        with serve_model(faults=[parse_fault("500:0.5")], fault_seed=seed) as base:
            return [post(base, chat(opening())).status_code for _ in range(12)]

    first = statuses(1)
    assert first == statuses(1)
    assert set(first) == {200, 500}


def test_hang_is_released_on_shutdown() -> None:
    with serve_model(hang_s=60) as base:
        with pytest.raises(httpx.ReadTimeout):
            httpx.post(
                f"{base}/chat/completions",
                json={"model": "heuristic+fault=hang", "messages": opening()},
                timeout=0.2,
            )
        assert stats(base)["fault:hang"] == 1


def test_concurrent_requests_overlap(tools: list[dict[str, Any]]) -> None:
    with serve_model(latency_ms=200) as base:
        with concurrent.futures.ThreadPoolExecutor(16) as pool:
            codes = list(
                pool.map(
                    lambda i: post(base, chat(opening(f"Film {i}"), tools=tools)).status_code,
                    range(16),
                )
            )
        assert codes == [200] * 16
        # the server never serialised them: many were in flight at once
        assert stats(base)["max_in_flight"] >= 8


@pytest.mark.parametrize("model", ["heuristic", "heuristic+fault=429", "heuristic+fault=500"])
def test_every_answer_waits_out_the_latency_from_its_request(
    model: str, tools: list[dict[str, Any]]
) -> None:
    # The policy's work counts towards the latency (as a provider's compute does), so the wait
    # comes after it: an answer, a fault or a policy's reply must still never come sooner.
    with serve_model(latency_ms=300, retry_after_s=0.05) as base:
        started = time.monotonic()
        response = post(base, {**chat(opening(), tools=tools), "model": model})
        elapsed = time.monotonic() - started
    assert response.status_code == (200 if model == "heuristic" else int(model[-3:]))
    assert elapsed >= 0.3


@pytest.mark.parametrize("spec", ["418", "hang:2", "429:x", "once"])
def test_bad_fault_specs_are_refused(spec: str) -> None:
    with pytest.raises(ValueError, match="fault"):
        parse_fault(spec)


def test_cli_help_documents_the_options() -> None:
    from click.testing import CliRunner

    from runner.cli import cli

    result = CliRunner().invoke(cli, ["serve-model", "--help"])
    assert result.exit_code == 0
    for option in ["--host", "--port", "--latency-ms", "--fault", "--retry-after", "--hang-s"]:
        assert option in result.output
    assert "malformed_tool_json" in result.output
    assert "once429" in result.output


@pytest.mark.slow
def test_cli_serves_until_interrupted() -> None:
    taurec = Path(sys.executable).parent / "taurec"
    process = subprocess.Popen(
        [str(taurec), "serve-model", "--port", "0", "--fault", "503:0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=PROJECT_ROOT,
        env={**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"},
    )
    try:
        assert process.stdout is not None
        base = process.stdout.readline().strip()
        assert base.startswith("http://127.0.0.1:")
        assert base.endswith("/v1")
        assert httpx.get(f"{base}/models", timeout=5).status_code == 200
    finally:
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=10)
    assert process.returncode == 0, err
    assert "stopped" in err
