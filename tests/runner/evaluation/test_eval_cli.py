"""`taurec eval module:attr --min-pass K=V` in a real subprocess, and the pytest helper, against thresholds."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from runner.testing import assert_pass_k

from .conftest import ProposeOnce

TAUREC = Path(sys.executable).parent / "taurec"

AGENT_MODULE = '''
"""A team's own agent package: the heuristic allowed one proposal per trial."""
from domains.movies.baselines import HeuristicAgent


def make_agent(context):
    return HeuristicAgent(context, {"max_proposals": 1})
'''


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A folder holding `my_pkg/agents.py`, as an agent team's checkout would."""
    root = tmp_path / "team"
    (root / "my_pkg").mkdir(parents=True)
    (root / "my_pkg" / "__init__.py").write_text("")
    (root / "my_pkg" / "agents.py").write_text(textwrap.dedent(AGENT_MODULE))
    return root


def _eval(project: Path, suite: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            str(TAUREC),
            "eval",
            "my_pkg.agents:make_agent",
            "--suite",
            str(suite),
            "--seed",
            "3",
            *list(args),
        ],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_eval_exits_0_above_and_1_below_the_threshold(
    project: Path, twenty_tasks: Path, tmp_path: Path
) -> None:
    above = _eval(
        project,
        twenty_tasks,
        "--trials",
        "8",
        "--min-pass",
        "4=0.2",
        "--json",
        str(tmp_path / "r.json"),
    )
    assert above.returncode == 0, above.stderr
    assert "passed: pass^4 >= 0.2" in above.stdout
    assert "| 8 |" in above.stdout  # pass^8 is reported
    report = json.loads((tmp_path / "r.json").read_text())
    p4 = report["summary"]["pass_hat_k"][3]["value"]
    assert 0.2 <= p4 < 1  # the gated suite is hard for a one-proposal heuristic
    failing = report["failing"]
    assert failing
    # Failing trials are grouped by cause, each cause with a count and one example trial.
    causes = report["feedback"]["causes"]
    assert causes
    examples = {f"{t['task_id']}#{t['trial_index']}" for t in failing}
    for cause in causes:
        assert f"example: `{cause['example']}`" in above.stdout
        assert cause["kind"] == "tool_error" or cause["example"] in examples
    assert f"- {failing[0]['task_id']} trial" not in above.stdout  # not one line per trial

    below = _eval(project, twenty_tasks, "--trials", "8", "--min-pass", f"4={p4 + 0.01:.4f}")
    assert below.returncode == 1, below.stderr
    assert f"FAILED: pass^4 = {p4:.3f} is below" in below.stdout
    assert "## What went wrong, by cause" in below.stdout


def test_eval_rejects_bad_thresholds_and_targets(project: Path, twenty_tasks: Path) -> None:
    bad = _eval(project, twenty_tasks, "--min-pass", "4-0.5")
    assert bad.returncode == 2
    assert "expected K=VALUE" in bad.stderr
    missing = subprocess.run(
        [str(TAUREC), "eval", "my_pkg.nothing:make_agent", "--suite", str(twenty_tasks)],
        cwd=project,
        capture_output=True,
        text=True,
    )
    assert missing.returncode == 2
    assert "cannot import module 'my_pkg.nothing'" in missing.stderr


def test_the_pytest_helper_passes_and_fails_with_the_report(twenty_tasks: Path) -> None:
    tasks = sorted(p.stem for p in twenty_tasks.glob("*.json"))[:10]
    result = assert_pass_k(ProposeOnce, 2, 0.5, trials=2, suite=twenty_tasks, tasks=tasks, seed=3)
    p2 = result.pass_k(2)
    assert p2 is not None
    assert p2 < 1, "this agent must fail something for the next check to mean anything"
    with pytest.raises(AssertionError) as caught:
        assert_pass_k(ProposeOnce, 2, 1.0, trials=2, suite=twenty_tasks, tasks=tasks, seed=3)
    message = str(caught.value)
    assert message.startswith(f"pass^2 = {p2:.3f} is below 1")
    for cause in result.feedback.causes:
        assert cause.heading() in message


def test_eval_reads_the_board_file_and_flags_override_it(project: Path, twenty_tasks: Path) -> None:
    (project / "leaderboard.yaml").write_text(f"suite: {twenty_tasks}\nmax_turns: 3\n")
    task = sorted(p.stem for p in twenty_tasks.glob("*.json"))[0]
    args = [str(TAUREC), "eval", "heuristic", "--trials", "1", "--task", task]
    from_board = subprocess.run(args, cwd=project, capture_output=True, text=True, check=True)
    assert "max 3 turns" in from_board.stdout
    flagged = subprocess.run(
        [*args, "--max-turns", "5"], cwd=project, capture_output=True, text=True, check=True
    )
    assert "max 5 turns" in flagged.stdout
