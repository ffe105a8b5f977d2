"""The Node agent example, started with the system `node`, end to end through evaluate() and `taurec run`."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from runner.agent_config import HttpAgentConfig
from runner.batch import load_records, load_trial_transcript
from runner.evaluation import evaluate
from runner.paths import PROJECT_ROOT, TASKS_DIR

AGENT = PROJECT_ROOT / "examples" / "typescript-agent" / "agent.mjs"
TAUREC = Path(sys.executable).parent / "taurec"


@pytest.fixture(scope="module")
def node_agent() -> Iterator[str]:
    """`node agent.mjs --port 0`; the first line it prints names its address."""
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not installed (make test needs Node.js 20+)")
    process = subprocess.Popen([node, str(AGENT), "--port", "0"], stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline().strip()
        assert line.startswith("listening on http://127.0.0.1:"), line
        yield line.removeprefix("listening on ")
    finally:
        process.terminate()
        process.wait(timeout=10)
        if process.stdout is not None:
            process.stdout.close()


def _tasks(n: int) -> list[str]:
    return sorted(p.stem for p in TASKS_DIR.glob("*.json"))[:n]


def test_the_node_agent_through_evaluate(node_agent: str) -> None:
    result = evaluate(HttpAgentConfig(endpoint=node_agent), trials=2, tasks=_tasks(6))
    assert result.summary.counts.infra_error == 0, [t.line() for t in result.failures()]
    assert result.summary.counts.scored == 12
    # A reasonable agent, not a trivial one: it solves most of these tasks, and it never breaks
    # the policies it controls (a user who walks out still leaves `recommend` uncalled).
    p1 = result.pass_k(1)
    assert p1 is not None
    assert p1 >= 0.3, result.to_markdown()  # on the gated suite (single-winner volunteer tasks)
    rates = result.summary.policy_violation_rates
    for policy in ("watch_history", "sponsored", "age_restricted", "availability"):
        assert rates[policy].violations == 0, result.to_markdown()
    assert rates["single_recommendation"].violations == 0, result.to_markdown()


def test_the_node_agent_through_taurec_run(node_agent: str, tmp_path: Path) -> None:
    sub = tmp_path / "subs" / "node-agent"
    sub.mkdir(parents=True)
    (sub / "submission.yaml").write_text(
        yaml.safe_dump(
            {
                "slug": "node-agent",
                "display_name": "Node agent example",
                "contact": {"name": "Example"},
                "agent": {"kind": "http", "endpoint": node_agent},
                "trials": 1,
            }
        )
    )
    suite = tmp_path / "tasks"
    suite.mkdir()
    for task in _tasks(3):
        shutil.copy(TASKS_DIR / f"{task}.json", suite)
    shutil.copy(TASKS_DIR / "policy.md", suite)
    run = subprocess.run(
        [str(TAUREC), "run", str(sub), "--tasks", str(suite), "--concurrency", "3"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    [folder] = (sub / "results").iterdir()
    records = load_records(folder)
    assert [r.status for r in records] == ["scored"] * 3
    for record in records:
        transcript = load_trial_transcript(folder, record)
        names = [e.name for e in transcript.events if e.type == "tool_call"]
        # The policy's order: history first, then search and metadata, recommend last.
        assert names[0] == "get_user_history"
        assert "search_catalog" in names
        assert "get_metadata" in names
        if transcript.stop_reason in ("recommended", "abstained"):  # not when the user walked out
            assert names[-1] == "recommend"


def test_the_node_agent_refuses_what_is_not_a_protocol_request(node_agent: str) -> None:
    request = urllib.request.Request(
        node_agent, data=json.dumps({"hello": 1}).encode(), method="POST"
    )
    with pytest.raises(urllib.error.HTTPError) as caught:
        urllib.request.urlopen(request, timeout=10)
    with caught.value as response:
        assert response.code == 400
        assert "protocol_version" in json.loads(response.read())["error"]
