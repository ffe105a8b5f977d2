"""`taurec eval` behaves like `taurec run`: a dead agent endpoint stops it in seconds (exit 2), and
the trials show a progress bar with an ETA on stderr while the report alone goes to stdout."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

TAUREC = Path(sys.executable).parent / "taurec"


def _dead_endpoint() -> str:
    """A loopback URL with nothing listening (a free port, bound then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/step"


def test_eval_against_a_dead_http_agent_exits_2_in_seconds(twenty_tasks: Path) -> None:
    endpoint = _dead_endpoint()
    started = time.monotonic()
    done = subprocess.run(
        [str(TAUREC), "eval", f"http:{endpoint}", "--suite", str(twenty_tasks), "--trials", "4"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    elapsed = time.monotonic() - started
    print(f"taurec eval against a dead endpoint stopped after {elapsed:.2f} s")
    assert done.returncode == 2, done.stdout + done.stderr
    assert elapsed < 30  # a generous bound: it takes ~2-4 s here, the retry policy took 48 s
    assert "preflight failed" in done.stderr
    assert endpoint in done.stderr  # the provider's own message names what was unreachable
    assert "no trial was run" in done.stderr
    assert "τ-Rec evaluation" not in done.stdout  # no report of 80 silent failures


def test_eval_shows_progress_with_eta_on_stderr_and_the_report_on_stdout(
    twenty_tasks: Path,
) -> None:
    done = subprocess.run(
        [str(TAUREC), "eval", "heuristic", "--suite", str(twenty_tasks), "--trials", "2"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "running 40 trial(s)" in done.stderr
    assert "[40/40] eta" in done.stderr
    assert "pass^1" in done.stderr
    assert done.stdout.startswith("# τ-Rec evaluation")
    assert "eta" not in done.stdout.split("\n", 1)[0]
