"""A planted provider key and a planted HTTP-header secret never reach any output file or the log."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from runner.cli import cli
from tests.loopback import QuietHandler, send_json, serving

from .conftest import SubmissionMaker

PROVIDER_KEY = "sk-planted-provider-key-0123456789"
HEADER_SECRET = "Bearer planted-header-secret-abcdef"


class _LeakyAgent(QuietHandler):
    """An HTTP agent that carelessly repeats its credentials to the user, then abstains."""

    protocol_version = "HTTP/1.1"

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        said_before = any(
            m.get("role") == "assistant" and "debug" in str(m.get("content"))
            for m in body["messages"]
        )
        if said_before:
            reply: dict[str, Any] = {
                "tool_calls": [{"id": "r1", "name": "recommend", "arguments": {"item_id": None}}]
            }
        else:
            auth = self.headers.get("Authorization")
            reply = {"message": f"debug: header {auth}, provider key {PROVIDER_KEY}. Any genre?"}
        send_json(self, reply)


@pytest.fixture
def leaky_agent_url() -> Iterator[str]:
    with serving(_LeakyAgent) as server:
        yield f"http://127.0.0.1:{server.server_port}/step"


def _all_output_text(folder: Path) -> str:
    parts = []
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            data = path.read_bytes()
            parts.append((gzip.decompress(data) if path.suffix == ".gz" else data).decode())
    return "\n".join(parts)


def test_planted_secrets_are_absent_from_every_output(
    monkeypatch: pytest.MonkeyPatch,
    small_suite: Path,
    v1_dir: Path,
    make_submission: SubmissionMaker,
    leaky_agent_url: str,
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", PROVIDER_KEY)
    monkeypatch.setenv("TAUREC_KEY_LEAKY", HEADER_SECRET)
    sub = make_submission(
        "leaky",
        {
            "kind": "http",
            "endpoint": leaky_agent_url,
            "headers_env": {"Authorization": "TAUREC_KEY_LEAKY"},
        },
        trials=1,
    )
    result = CliRunner().invoke(
        cli,
        [
            "run",
            str(sub),
            "--snapshot",
            str(v1_dir / "catalog.json"),
            "--tasks",
            str(small_suite),
            "--concurrency",
            "4",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "[8/8]" in result.output  # plain progress lines when stdout is not a terminal
    assert "leaky: pass^1" in result.output  # the end-of-run summary
    folder = sub / "results" / "tau-rec-v1"
    text = _all_output_text(folder)
    # The agent really did say it: the redaction markers prove the scrubber, not luck, removed it.
    assert "[redacted:TAUREC_KEY_LEAKY]" in text
    assert "[redacted:OPENAI_API_KEY]" in text
    for secret in (PROVIDER_KEY, HEADER_SECRET, "planted-header-secret"):
        assert secret not in text
        assert secret not in result.output
    manifest = json.loads((folder / "run.json").read_text())
    # `*_env` values are the names of the variables (the secret stays in them), as `api_key_env` is
    assert manifest["agent"]["args"]["headers_env"] == {"Authorization": "TAUREC_KEY_LEAKY"}
