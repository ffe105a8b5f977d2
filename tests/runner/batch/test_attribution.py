"""Infra errors cannot be chosen by the agent: a submitter's endpoint failing is the agent failing (scored 0)."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from runner.cli import cli
from tests.loopback import send_json, serving

from .conftest import SubmissionMaker

FAST_RETRY = {"max_attempts": 2, "initial_backoff_s": 0.001, "max_backoff_s": 0.002}


class _Picky(BaseHTTPRequestHandler):
    """Abstains on the first task it sees (the one it "can win"); every other task gets the failure."""

    protocol_version = "HTTP/1.1"
    mode = "500"
    lucky_opening: str | None = None
    lock = threading.Lock()

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def _send(self, status: int, data: bytes, ctype: str = "application/json") -> None:
        send_json(self, data, status, {"Content-Type": ctype})

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if not body["tools"]:  # the run's preflight probe: a cherry-picker passes it politely
            self._send(200, b'{"message": "Hi."}')
            return
        opening = next(m["content"] for m in body["messages"] if m["role"] == "user")
        with self.lock:
            if type(self).lucky_opening is None:
                type(self).lucky_opening = opening
        if opening == self.lucky_opening:
            reply = {
                "tool_calls": [{"id": "r", "name": "recommend", "arguments": {"item_id": None}}]
            }
            self._send(200, json.dumps(reply).encode())
        elif self.mode == "500":
            self._send(500, b'{"error": "not today"}')
        elif self.mode == "garbage":
            self._send(200, b"<html>nope</html>", "text/html")
        elif self.mode == "infinite-cost":
            usage = (
                '[{"model": "m", "prompt_tokens": 1, "completion_tokens": 1, "cost_usd": Infinity}]'
            )
            self._send(200, ('{"message": "hi", "usage": ' + usage + "}").encode())
        elif self.mode == "huge-cost":
            usage = [{"model": "m", "prompt_tokens": 1, "completion_tokens": 1, "cost_usd": 1e308}]
            self._send(200, json.dumps({"message": "hi", "usage": usage}).encode())
        elif self.mode == "tool-flood":
            calls = [
                {"id": f"c{i}", "name": "search_catalog", "arguments": {"query": "x"}}
                for i in range(10_000)
            ]
            self._send(200, json.dumps({"tool_calls": calls}).encode())
        elif self.mode == "crash":  # the server dies mid-request: no answer at all
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)
        elif self.mode == "hang":  # answers long after the step's timeout_s
            time.sleep(8)
            with contextlib.suppress(OSError):
                self._send(200, b'{"message": "too late"}')
        elif self.mode == "deep-args":  # tool arguments nested 100,000 levels deep
            deep = "[" * 100_000 + "]" * 100_000
            reply = {"tool_calls": [{"id": "d", "name": "search_catalog", "arguments": deep}]}
            self._send(200, json.dumps(reply).encode())
        elif self.mode == "deep-body":  # the whole reply nested 100,000 levels deep
            self._send(200, b'{"message": ' + b"[" * 100_000 + b"]" * 100_000 + b"}")
        elif self.mode == "flood":  # 3.5 MB of incompressible text in every reply
            text = base64.b64encode(os.urandom(2_600_000)).decode()
            self._send(200, json.dumps({"message": text}).encode())
        elif self.mode == "drip":
            data = json.dumps({"message": "hello there"}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            for byte in data:
                try:
                    self.wfile.write(bytes([byte]))
                    self.wfile.flush()
                except OSError:
                    return
                time.sleep(0.3)


@pytest.fixture
def picky_server() -> Iterator[type[_Picky]]:
    handler = type("Handler", (_Picky,), {})
    with serving(handler) as server:
        handler.url = f"http://127.0.0.1:{server.server_port}/step"  # type: ignore[attr-defined]
        yield handler


def run_entry(
    picky: type[_Picky], small_suite: Path, v1_dir: Path, make_submission: SubmissionMaker
) -> tuple[list[dict[str, Any]], dict[str, Any], str]:
    # A reply that should come at once has 5 s (a loaded test machine); one that must time out
    # (a hang, a drip) is given 2 s, so the test waits that long and no longer.
    timeout = 2.0 if picky.mode in ("hang", "drip") else 5.0  # type: ignore[attr-defined]
    agent = {"kind": "http", "endpoint": picky.url, "timeout_s": timeout, "retry": FAST_RETRY}  # type: ignore[attr-defined]
    sub = make_submission("picky", agent, trials=1)
    result = CliRunner().invoke(
        cli,
        ["run", str(sub), "--snapshot", str(v1_dir / "catalog.json"), "--tasks", str(small_suite)],
    )
    folder = sub / "results" / "tau-rec-v1"
    lines = (folder / "trials.jsonl").read_text().splitlines()
    records = [json.loads(line) for line in lines if line.strip()]
    manifest = json.loads((folder / "run.json").read_text())
    return records, manifest, result.output


@pytest.mark.parametrize(
    ("mode", "kind"),
    [
        ("500", "ServerError"),
        ("garbage", "MalformedResponse"),
        ("infinite-cost", "CostOutOfRange"),
        ("huge-cost", "CostOutOfRange"),
        ("tool-flood", "ToolCallCap"),
        ("drip", "Timeout"),
        ("crash", "ConnectionError"),
        ("hang", "Timeout"),
        ("deep-args", "PathologicalToolArguments"),
        ("deep-body", "MalformedResponse"),
    ],
)
def test_a_failing_agent_endpoint_is_scored_as_the_agents_failure(
    picky_server: type[_Picky],
    small_suite: Path,
    v1_dir: Path,
    make_submission: SubmissionMaker,
    mode: str,
    kind: str,
) -> None:
    # Before: 500s became infra errors, excluded from n: answering only winnable tasks scored
    # pass^1 1.000. Infinity cost broke the batch; a drip held a trial far past timeout_s.
    picky_server.mode = mode
    started = time.monotonic()
    records, manifest, output = run_entry(picky_server, small_suite, v1_dir, make_submission)
    assert time.monotonic() - started < 60, "a bound did not hold"
    assert manifest["status"] == "completed", output
    assert len(records) == 8
    assert all(r["status"] == "scored" for r in records), [r.get("error") for r in records]
    failed = [r for r in records if r["stop_reason"] == "agent_error"]
    assert len(failed) == 7, [(r["error"], r["score"]) for r in failed]
    assert all(r["score"]["reward"] == 0 for r in failed)
    assert all(r["error"]["kind"] == kind for r in failed), failed[0]["error"]
    assert all(r["cost_usd"] is not None and r["cost_usd"] < 1 for r in records)


def test_a_refused_connection_is_the_agents_failure(
    small_suite: Path, v1_dir: Path, make_submission: SubmissionMaker
) -> None:
    # Nothing listens on the port: every trial is the agent's failure, scored 0, none dropped.
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    endpoint = f"http://127.0.0.1:{port}/step"
    agent = {"kind": "http", "endpoint": endpoint, "timeout_s": 5.0, "retry": FAST_RETRY}
    sub = make_submission("refused", agent, trials=1)
    result = CliRunner().invoke(
        cli,
        [
            "run",
            str(sub),
            "--no-preflight",
            "--snapshot",
            str(v1_dir / "catalog.json"),
            "--tasks",
            str(small_suite),
        ],
    )
    assert result.exit_code == 0, result.output
    folder = sub / "results" / "tau-rec-v1"
    records = [json.loads(line) for line in (folder / "trials.jsonl").read_text().splitlines()]
    assert len(records) == 8
    assert {r["status"] for r in records} == {"scored"}
    assert {r["stop_reason"] for r in records} == {"agent_error"}
    assert {r["error"]["kind"] for r in records} == {"ConnectionError"}
    assert {r["score"]["reward"] for r in records} == {0}


def test_a_flood_of_text_cannot_grow_the_results(
    picky_server: type[_Picky], small_suite: Path, v1_dir: Path, make_submission: SubmissionMaker
) -> None:
    # Before: 3.5 MB of incompressible text per reply, 20 turns: ~70 MB per trial on disk.
    picky_server.mode = "flood"
    records, manifest, output = run_entry(picky_server, small_suite, v1_dir, make_submission)
    assert manifest["status"] == "completed", output
    flooded = [r for r in records if r["stop_reason"] == "output_cap"]
    assert len(flooded) == 7
    assert all(r["status"] == "scored" for r in flooded)
    assert all(r["score"]["reward"] == 0 for r in flooded)
    assert all(r["error"]["kind"] == "AgentTextCap" for r in flooded)
    folder = small_suite.parents[1] / "subs" / "picky" / "results" / "tau-rec-v1"
    on_disk = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
    assert on_disk < 1_000_000, on_disk
