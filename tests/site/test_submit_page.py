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


def _listed_questions() -> list[str]:
    text = PAGE.read_text(encoding="utf-8")
    start = text.index("<!-- questions:")
    return re.findall(r"^\d+\. (.+)$", text[start:].split("\n\n", 1)[0], re.MULTILINE)


def test_the_submit_page_lists_the_questions_in_the_order_they_are_asked() -> None:
    from runner.submissions.interview import QUESTIONS

    expected = []
    for q in QUESTIONS:
        when = f" ({', '.join(q.kinds)} only)" if q.kinds else ""
        expected.append(f"`{q.flag}`{when}: {q.help} *{'required' if q.required else q.blank}*")
    assert _listed_questions() == expected


def _here_doc(lines: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BIN / "taurec"), "submission", "new"],
        input="".join(f"{line}\n" for line in lines),
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_pages_litellm_answers_write_an_entry_with_its_key_asked_once(tmp_path: Path) -> None:
    text = PAGE.read_text(encoding="utf-8")
    first_six = blocks()[0].split("<<'ANSWERS'\n", 1)[1].splitlines()[:6]
    litellm = re.search(r"```text\n(litellm\n.*?)```", text, re.DOTALL)
    assert litellm is not None
    done = _here_doc([*first_six, *litellm.group(1).splitlines()], tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("--api-key-env: ") == 1
    assert "will not do" not in done.stderr
    written = (tmp_path / "submissions" / "my-agent" / "submission.yaml").read_text()
    assert "  api_key_env: OPENAI_API_KEY\n" in written


def test_end_of_input_stops_with_the_question_and_writes_nothing(tmp_path: Path) -> None:
    """The answers of an http entry given to a litellm one: the cutoff lands on the key
    question, is refused, and input ends there."""
    first_six = blocks()[0].split("<<'ANSWERS'\n", 1)[1].splitlines()[:6]
    done = _here_doc([*first_six, "litellm", "openai/gpt-5-mini", "2025-06-01"], tmp_path)
    assert done.returncode == 2, done.stdout + done.stderr
    assert (
        "'2025-06-01' will not do: must be the NAME of an environment variable (like "
        "OPENAI_API_KEY), not a value; try again\n"
    ) in done.stderr
    assert (
        "Error: end of input at the question for --api-key-env (litellm: NAME of the env var "
        "holding the key); nothing written. Answer each question on its own line, in the order "
        "of the Submit page (an empty line skips an optional one), or give the flags\n"
    ) in done.stderr
    assert not (tmp_path / "submissions").exists()
    # An empty line is no way out either: the hosted model needs its key variable.
    done = _here_doc([*first_six, "litellm", "openai/gpt-5-mini", ""], tmp_path)
    assert done.returncode == 2
    assert (
        "an empty answer will not do: required for the hosted model 'openai/gpt-5-mini': name "
        "the environment variable that holds its key — OPENAI_API_KEY, openai's usual one, or "
        "your entry's own TAUREC_KEY_MY_AGENT; try again\n"
    ) in done.stderr
    assert not (tmp_path / "submissions").exists()
