"""Each mistake an agent builder makes, driven through `taurec eval` in a real subprocess: the
printed report names it precisely (the error, the offending reply or call, the rule it broke)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest

from tests.loopback import QuietHandler, send_json, serving

TAUREC = Path(sys.executable).parent / "taurec"

AGENTS = '''
"""Agents that each make one mistake on their first step, then abstain."""
from runner.core.protocols import AgentReply, ToolCallRequest
from runner.core.transcript import ComponentSpec


class _OneMistake:
    call = None

    def __init__(self, context):
        self.steps = 0

    @property
    def spec(self):
        return ComponentSpec(name=type(self).__name__)

    async def step(self, messages, tools):
        self.steps += 1
        if self.steps == 1:
            return self.first()
        return AgentReply(tool_calls=[ToolCallRequest(id="end", name="recommend")])

    def first(self):
        return AgentReply(tool_calls=[self.call])


class BadJson(_OneMistake):
    call = ToolCallRequest(id="c1", name="search_catalog", arguments='{"query": "comedy"')


class UnknownTool(_OneMistake):
    call = ToolCallRequest(id="c1", name="search_movies", arguments={"query": "comedy"})


class WrongType(_OneMistake):
    call = ToolCallRequest(id="c1", name="get_metadata", arguments={"item_id": 123})


class ExtraArgument(_OneMistake):
    call = ToolCallRequest(id="c1", name="search_catalog", arguments={"query": "x", "top_k": 5})


class Raises(_OneMistake):
    def first(self):
        return self.helper()

    def helper(self):
        movies = {}
        return movies["tmdb_1"]  # RAISES HERE


class ReturnsDict(_OneMistake):
    def first(self):
        return {"content": "Any genre you like?"}


class SyncStep:
    def __init__(self, context):
        pass

    @property
    def spec(self):
        return ComponentSpec(name="sync")

    def step(self, messages, tools):
        return AgentReply(content="hi")
'''


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("team")
    (root / "mistakes.py").write_text(textwrap.dedent(AGENTS))
    return root


def _eval(project: Path, agent: str, *extra: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [str(TAUREC), "eval", agent, "--task", "task_001", "--trials", "1", *extra],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=120,
    )
    print(done.stdout, done.stderr)
    return done


@pytest.mark.parametrize(
    ("agent", "expected"),
    [
        pytest.param(
            "mistakes:BadJson",
            [
                "tool call refused: search_catalog: arguments are not valid JSON: Expecting ',' "
                "delimiter — 1 calls in 1 trial(s)",
                'call: search_catalog({"query": "comedy")',
                "at position 18",
                "rule: `arguments` must be one JSON object",
            ],
            id="malformed-json-named-with-the-call-and-the-rule",
        ),
        pytest.param(
            "mistakes:UnknownTool",
            [
                # Grouped by the rule (whatever name was made up); the example names the call.
                "tool call refused: unknown tool — 1 calls in 1 trial(s)",
                "answer: unknown tool 'search_movies'",
                "call: search_movies(",
                "rule: call only the tools offered in `tools`: search_catalog, get_metadata",
            ],
            id="unknown-tool-named-with-the-tools-offered",
        ),
        pytest.param(
            "mistakes:WrongType",
            [
                "get_metadata: bad arguments for get_metadata: argument 'item_id': Input should be",
                'call: get_metadata({"item_id": 123})',
                "(got 123)",
                "rule: arguments must match the tool's JSON schema: item_id (string)",
            ],
            id="wrong-type-names-the-argument-the-value-and-the-schema",
        ),
        pytest.param(
            "mistakes:ExtraArgument",
            ["search_catalog: bad arguments for search_catalog: unexpected argument 'top_k'"],
            id="extra-argument-named",
        ),
    ],
)
def test_a_refused_tool_call_is_explained(project: Path, agent: str, expected: list[str]) -> None:
    out = _eval(project, agent).stdout
    for line in expected:
        assert line in out


def test_a_raising_python_agent_gets_its_traceback_with_file_and_line(project: Path) -> None:
    out = _eval(project, "mistakes:Raises").stdout
    line = next(
        n
        for n, text in enumerate(textwrap.dedent(AGENTS).splitlines(), start=1)
        if "RAISES HERE" in text
    )
    # The agent's own exception fails its trial (runner.play.attribution), with where it was raised.
    # Grouped by the rule with the id taken out; the example keeps the whole message.
    assert (
        "agent error: AgentRaised.KeyError: the agent raised KeyError: '<id>' — 1 trial(s)" in out
    )
    assert "error: the agent raised KeyError: 'tmdb_1'" in out
    assert f'File "{project / "mistakes.py"}", line {line}, in helper' in out
    assert 'return movies["tmdb_1"]  # RAISES HERE' in out


def test_a_dict_reply_is_refused_with_the_fix(project: Path) -> None:
    out = _eval(project, "mistakes:ReturnsDict").stdout
    assert (
        "AgentRaised.TypeError: the agent raised TypeError: ReturnsDict.step returned dict, not an "
        "AgentReply; fix: `return AgentReply(**reply)`"
    ) in out


def test_a_sync_step_is_refused_before_any_trial_with_the_fix(project: Path) -> None:
    done = _eval(project, "mistakes:SyncStep")
    assert done.returncode == 2
    assert (
        "agent SyncStep: its step is not async; fix: declare it "
        "`async def step(self, messages, tools) -> AgentReply:`"
    ) in done.stderr


class _Replies(QuietHandler):
    reply: ClassVar[dict[str, Any]] = {}

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        send_json(self, self.reply)


class _MissingId(_Replies):
    reply: ClassVar[dict[str, Any]] = {
        "tool_calls": [{"name": "search_catalog", "arguments": {"query": "comedy"}}]
    }


class _ExtraField(_Replies):
    reply: ClassVar[dict[str, Any]] = {
        "message": "What do you feel like?",
        "reasoning": "ask first",
    }


@pytest.fixture
def missing_id() -> Iterator[str]:
    with serving(_MissingId) as server:
        yield f"http://127.0.0.1:{server.server_port}/step"


@pytest.fixture
def extra_field() -> Iterator[str]:
    with serving(_ExtraField) as server:
        yield f"http://127.0.0.1:{server.server_port}/step"


def test_an_http_reply_without_a_tool_call_id_is_named_with_reply_and_rule(
    project: Path, missing_id: str
) -> None:
    # The preflight's one request already shows it, before any trial ...
    stopped = _eval(project, f"http:{missing_id}")
    assert stopped.returncode == 2
    assert "field 'tool_calls.0.id': Field required" in stopped.stderr
    # ... and the report of a run without the preflight groups it, with the reply and the rule.
    out = _eval(project, f"http:{missing_id}", "--no-preflight").stdout
    assert (
        f"agent error: MalformedResponse: http agent {missing_id}: invalid response: "
        "field 'tool_calls.N.id': Field required — 1 trial(s)"
    ) in out
    assert "field 'tool_calls.0.id': Field required" in out
    assert "protocol rule: tool_calls[].id (required): Unique within the trial" in out
    assert "reply: " + json.dumps(_MissingId.reply) in out


def test_an_http_reply_with_an_extra_field_is_named_with_reply_and_rule(
    project: Path, extra_field: str
) -> None:
    out = _eval(project, f"http:{extra_field}", "--no-preflight").stdout
    assert "field 'reasoning': Extra inputs are not permitted" in out
    assert "protocol rule: the reply has only the fields message, tool_calls, usage" in out
    assert '"reasoning": "ask first"' in out


def test_show_prints_one_trial_readably(project: Path) -> None:
    done = _eval(project, "mistakes:UnknownTool", "--show", "task_001#0")
    assert done.returncode == 0
    out = done.stdout
    assert out.startswith("# task_001#0: reward 0, abstained")
    assert "agent: Hello!" in out
    assert " user: " in out
    assert "tool ERROR search_movies(" in out
    assert "stop: abstained" in out
    assert "why it failed:" in out
    wrong = _eval(project, "mistakes:UnknownTool", "--show", "task_001#3")
    assert wrong.returncode == 2
    assert "trial 3 needs --trials 4 or more" in wrong.stderr
