"""The errors a submitter meets first, each with its exact words: a hosted model with no key
variable, a provider typo (the root cause first), an unknown key (the nearest valid one), and
what an endpoint answered in `smoke` (as it came, not HTML-escaped, in the terminal)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from click.testing import CliRunner

from runner.cli import cli
from runner.submissions.config import check_submission
from tests.loopback import QuietHandler, send_json, serving

HEAD = """\
schema_version: 1
slug: my-agent
display_name: My agent
contact:
  name: A Submitter
  github: a-submitter
"""


def _entry(root: Path, agent: str) -> Path:
    folder = root / "submissions" / "my-agent"
    folder.mkdir(parents=True, exist_ok=True)
    text = HEAD + "agent:\n" + textwrap.indent(textwrap.dedent(agent), "  ") + "trials: 4\n"
    (folder / "submission.yaml").write_text(text, encoding="utf-8")
    return folder


def _problems(folder: Path) -> list[tuple[str, str, str]]:
    return [(p.severity, p.field, p.reason) for p in check_submission(folder)]


def test_a_hosted_model_without_a_key_variable_is_an_error_naming_it(tmp_path: Path) -> None:
    folder = _entry(tmp_path, "kind: litellm\nmodel: openai/gpt-5-mini\n")
    assert _problems(folder) == [
        (
            "error",
            "agent.api_key_env",
            "required for the hosted model 'openai/gpt-5-mini': name the environment variable "
            "that holds its key — OPENAI_API_KEY, openai's usual one, or your entry's own "
            "TAUREC_KEY_MY_AGENT",
        )
    ]
    folder = _entry(tmp_path, "kind: litellm\nmodel: anthropic/claude-sonnet-4-5\n")
    [(_, field, reason)] = _problems(folder)
    assert field == "agent.api_key_env"
    assert "ANTHROPIC_API_KEY, anthropic's usual one" in reason
    # A server of your own needs no key variable; the named key passes.
    own = "kind: litellm\nmodel: openai/my-model\napi_base: https://llm.example.org/v1\n"
    assert _problems(_entry(tmp_path, own)) == []
    named = "kind: litellm\nmodel: openai/gpt-5-mini\napi_key_env: OPENAI_API_KEY\n"
    assert _problems(_entry(tmp_path, named)) == []


def test_a_provider_typo_prints_the_root_cause_only(tmp_path: Path) -> None:
    folder = _entry(
        tmp_path, "kind: litellm\nmodel: opneai/gpt-5-mini\napi_key_env: OPENAI_API_KEY\n"
    )
    assert _problems(folder) == [
        (
            "error",
            "agent.model",
            "unknown LiteLLM provider 'opneai' in 'opneai/gpt-5-mini'; did you mean 'openai'?",
        )
    ]
    result = CliRunner().invoke(cli, ["submission", "check", str(folder)])
    assert result.exit_code == 1
    assert result.output.splitlines()[0] == (
        f"error: {folder / 'submission.yaml'}: agent.model: unknown LiteLLM provider 'opneai' "
        "in 'opneai/gpt-5-mini'; did you mean 'openai'?"
    )
    assert "is not a openai model" not in result.output


def test_an_unknown_key_suggests_the_nearest_valid_one(tmp_path: Path) -> None:
    litellm = """\
    kind: litellm
    model: openai/gpt-5-mini
    api_key_env: OPENAI_API_KEY
    endpoint: https://llm.example.org/v1
    """
    assert _problems(_entry(tmp_path, litellm)) == [
        (
            "error",
            "agent.endpoint",
            "unknown key (did you mean 'api_base'? 'endpoint' is a key of kind: http agents)",
        )
    ]
    http = "kind: http\nendpoint: https://agent.example.org/step\ntimeout: 30\n"
    assert _problems(_entry(tmp_path, http)) == [
        ("error", "agent.timeout", "unknown key (did you mean 'timeout_s'?)")
    ]
    http = "kind: http\nendpoint: https://agent.example.org/step\nheadrs_env: {}\n"
    assert _problems(_entry(tmp_path, http)) == [
        ("error", "agent.headrs_env", "unknown key (did you mean 'headers_env'?)")
    ]


class _HtmlPage(QuietHandler):
    """A web server where the agent's endpoint should be: 200, an HTML page."""

    STATUS = 200
    BODY = b"<html><body><h1>Welcome to nginx!</h1></body></html>"

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        send_json(self, self.BODY, self.STATUS, {"Content-Type": "text/html"})


class _BadGateway(_HtmlPage):
    """A proxy in front of a dead agent: 502, an HTML page."""

    STATUS = 502
    BODY = b"<html><h1>502 Bad Gateway</h1></html>"


def test_smoke_says_what_the_endpoint_answered_unescaped_in_the_terminal(tmp_path: Path) -> None:
    summary = tmp_path / "summary.md"
    with serving(_HtmlPage) as server:
        endpoint = f"http://127.0.0.1:{server.server_port}/step"
        folder = _entry(tmp_path, f"kind: http\nendpoint: {endpoint}\n")
        result = CliRunner().invoke(
            cli, ["submission", "smoke", str(folder), "--tasks", "1", "--summary", str(summary)]
        )
    assert result.exit_code == 0, result.output
    said = (
        f"your endpoint {endpoint} answered with a success status, not as the protocol asks: "
        "the response body is not JSON (Expecting value: line 1 column 1 (char 0)); its reply "
        "began: <html><body><h1>Welcome to nginx!</h1></body></html>; a local stand-in ran the "
        "config instead — not a pass for your agent"
    )
    assert f"⚠️ stand-in: {said} |" in result.output
    assert "&lt;" not in result.output
    assert "not reachable" not in result.output
    # The comment-ready markdown escapes it (a PR comment would render the tags).
    assert "&lt;html&gt;&lt;body&gt;&lt;h1&gt;Welcome to nginx!" in summary.read_text()
    with serving(_BadGateway) as server:
        endpoint = f"http://127.0.0.1:{server.server_port}/step"
        folder = _entry(tmp_path, f"kind: http\nendpoint: {endpoint}\n")
        result = CliRunner().invoke(cli, ["submission", "smoke", str(folder), "--tasks", "1"])
    assert (
        f"⚠️ stand-in: your endpoint {endpoint} answered with HTTP 502, not as the protocol asks: "
        "HTTP 502 from the agent endpoint: <html><h1>502 Bad Gateway</h1></html> (gave up after "
        "1 attempt(s) in "
    ) in result.output
