"""The Submit page, followed command by command: new → check → smoke → eval → the PR commit.

Every bash block of site/pages/submit.md runs as written, in order, in a fresh git repository;
only the example endpoint is swapped for a local agent that speaks the HTTP protocol."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from runner.core.paths import SITE_DIR
from runner.submissions.smoke import serve_http_stand_in

PAGE = SITE_DIR / "pages" / "submit.md"
BIN = Path(sys.executable).parent
BLOCK = re.compile(r"```bash\n(.*?)```", re.DOTALL)
EXAMPLE_ENDPOINT = "https://my-agent.example.com/step"


def blocks() -> list[str]:
    return BLOCK.findall(PAGE.read_text(encoding="utf-8"))


@pytest.mark.slow
def test_the_submit_page_walks_new_check_smoke_eval_and_the_pr(tmp_path: Path) -> None:
    steps = blocks()
    commands = [" ".join(b.split()[:3]) for b in steps]
    assert commands == [
        "taurec submission new",
        "taurec submission check",
        "taurec submission smoke",
        "taurec eval submissions/my-agent",
        "git checkout -b",
    ]
    assert EXAMPLE_ENDPOINT in steps[0]
    fork = tmp_path / "fork"
    fork.mkdir()
    env = {
        **os.environ,
        "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
        "GIT_AUTHOR_NAME": "Ada",
        "GIT_AUTHOR_EMAIL": "ada@example.com",
        "GIT_COMMITTER_NAME": "Ada",
        "GIT_COMMITTER_EMAIL": "ada@example.com",
    }
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=fork, check=True)
    (fork / ".gitignore").write_text("submissions/*/results/\n")
    subprocess.run(["git", "add", ".gitignore"], cwd=fork, check=True)
    subprocess.run(["git", "commit", "-qm", "fork"], cwd=fork, check=True, env=env)
    outputs = []
    with serve_http_stand_in() as endpoint:
        for script in steps:
            script = script.replace(EXAMPLE_ENDPOINT, endpoint)
            done = subprocess.run(
                ["bash", "-euo", "pipefail", "-c", script],
                cwd=fork,
                env=env,
                capture_output=True,
                text=True,
                timeout=600,
            )
            print(f"$ {script}\n{done.stdout}{done.stderr}")
            assert done.returncode == 0, done.stdout + done.stderr
            outputs.append(done.stdout)
    new, check, smoke, evaluation, _pr = outputs
    assert "wrote submissions/my-agent/submission.yaml" in new
    assert "1 submission(s) checked: 0 error(s)" in check
    row = next(line for line in smoke.splitlines() if line.startswith("| `my-agent`"))
    assert f"your endpoint {endpoint}" in row
    assert "✅ passed" in row
    assert evaluation.startswith("# τ-Rec evaluation")
    assert "2 tasks × 4 trials" in evaluation
    assert "## What went wrong, by cause" in evaluation
    committed = subprocess.run(
        ["git", "show", "--name-only", "--format=", "HEAD"],
        cwd=fork,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert committed == ["submissions/my-agent/submission.yaml"]
