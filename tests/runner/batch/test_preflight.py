"""Preflight and honest exits: a run that cannot reach its model stops before any trial, with the provider's message."""

from __future__ import annotations

import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from runner.batch import run_submissions
from runner.core.errors import TaurecError
from tests.loopback import QuietHandler, send_json, serving

from .conftest import SubmissionMaker, builtin, litellm_agent

TAUREC = Path(sys.executable).with_name("taurec")


class _Refuses(QuietHandler):
    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        error = {
            "message": "Incorrect API key provided: wr***ey.",
            "type": "invalid_request_error",
            "code": "invalid_api_key",
        }
        send_json(self, {"error": error}, 401)


@pytest.fixture
def refusing_server() -> Iterator[str]:
    with serving(_Refuses) as server:
        yield f"http://127.0.0.1:{server.server_port}/v1"


@pytest.fixture
def dead_endpoint() -> str:
    """A loopback port with nothing listening (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


def _run(
    sub: Path, v1_dir: Path, suite: Path, *extra: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    import os

    return subprocess.run(
        [TAUREC, "run", sub, "--snapshot", v1_dir / "catalog.json", "--tasks", suite, *extra],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **(env or {})},
    )


def test_unset_key_stops_the_run_before_any_trial(
    small_suite: Path, v1_dir: Path, make_submission: SubmissionMaker, dead_endpoint: str
) -> None:
    sub = make_submission(
        "keyless", litellm_agent(dead_endpoint, api_key_env="TAUREC_KEY_KEYLESS"), trials=1
    )
    result = _run(sub, v1_dir, small_suite)
    assert result.returncode != 0
    assert (
        "keyless: MissingKey: environment variable TAUREC_KEY_KEYLESS is not set" in result.stderr
    )
    assert "no trial was run" in result.stderr
    assert not (sub / "results").exists()


def test_dead_endpoint_stops_the_run_with_the_connection_error(
    small_suite: Path, v1_dir: Path, make_submission: SubmissionMaker, dead_endpoint: str
) -> None:
    sub = make_submission("unreachable", litellm_agent(dead_endpoint), trials=1)
    result = _run(sub, v1_dir, small_suite)
    assert result.returncode != 0
    assert "unreachable:" in result.stderr
    assert "onnect" in result.stderr  # the client's own "Connection error" / "connect" text
    assert not (sub / "results").exists()


def test_a_401_shows_the_providers_own_message(
    small_suite: Path, v1_dir: Path, make_submission: SubmissionMaker, refusing_server: str
) -> None:
    sub = make_submission(
        "wrong-key", litellm_agent(refusing_server, api_key_env="TAUREC_KEY_WRONG_KEY"), trials=1
    )
    result = _run(sub, v1_dir, small_suite, env={"TAUREC_KEY_WRONG_KEY": "wrong-key-value"})
    assert result.returncode != 0
    assert "Incorrect API key provided" in result.stderr
    assert "wrong-key-value" not in result.stderr + result.stdout
    assert not (sub / "results").exists()


def test_a_run_whose_trials_all_failed_exits_non_zero(
    small_suite: Path, v1_dir: Path, make_submission: SubmissionMaker, dead_endpoint: str
) -> None:
    sub = make_submission("down", litellm_agent(dead_endpoint), trials=1)
    result = _run(sub, v1_dir, small_suite, "--no-preflight")
    assert result.returncode == 1
    assert "every trial of down ended in an infra error" in result.stderr
    # The trials are recorded (and will be retried on the next run), never dropped.
    assert len((sub / "results" / "tau-rec-v1" / "trials.jsonl").read_text().splitlines()) == 8


def test_preflight_passes_for_builtins_and_a_working_model(
    small_suite: Path, v1_dir: Path, make_submission: SubmissionMaker
) -> None:
    sub = make_submission("fine", builtin("heuristic"), trials=1)
    result = _run(sub, v1_dir, small_suite)
    assert result.returncode == 0, result.stderr


def test_board_runs_refuse_too_few_trials(
    small_suite: Path, v1_dir: Path, make_submission: SubmissionMaker
) -> None:
    sub = make_submission("hasty", builtin("heuristic"), trials=4)
    with pytest.raises(TaurecError, match=r"at least 4 trials per task.*hasty \(1\)"):
        run_submissions(
            [sub], snapshot=v1_dir / "catalog.json", tasks_dir=small_suite, trials=1, min_trials=4
        )
    assert not (sub / "results").exists()
    result = _run(sub, v1_dir, small_suite, "--for-board", "--trials", "1")
    assert result.returncode != 0
    assert "a board run needs at least 4 trials" in result.stderr
    assert not (sub / "results").exists()
