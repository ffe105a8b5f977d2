"""Every snippet of site/pages/integrations.md, extracted and run as written (ports and task count aside)."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from runner.core.paths import PROJECT_ROOT, SITE_DIR, TASKS_DIR

PAGE = SITE_DIR / "pages" / "integrations.md"
BIN = Path(sys.executable).parent
BLOCK = re.compile(r'```(\w+) title="([^"]+)"\n(.*?)```', re.DOTALL)


def snippets() -> dict[str, str]:
    """title → code of every titled block on the page."""
    return {title: body for _, title, body in BLOCK.findall(PAGE.read_text(encoding="utf-8"))}


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    """A folder holding every snippet as a file, as a reader who copy-pasted them would have."""
    for title, body in snippets().items():
        (tmp_path / title).write_text(body, encoding="utf-8")
    return tmp_path


def _commands(script: str) -> list[list[str]]:
    """The shell lines of a snippet, with `taurec` resolved to this environment's executable."""
    lines = []
    for line in script.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            words = shlex.split(line.rstrip(" &"))
            if words[0] == "taurec":
                words[0] = str(BIN / "taurec")
            lines.append(words)
    return lines


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=600, env=_env(cwd))


def _env(cwd: Path) -> dict[str, str]:
    import os

    return {**os.environ, "PYTHONPATH": str(cwd)}


def test_the_page_has_the_three_paths_and_is_in_the_nav() -> None:
    names = set(snippets())
    assert {"my_agent.py", "evaluate_my_agent.py", "gate.sh", "test_my_agent.py"} <= names
    assert {"http-agent.sh", "evaluate_model.py"} <= names
    assert "integrations.md" in (PROJECT_ROOT / "mkdocs.yml").read_text()


def test_path_1_the_python_object(workdir: Path) -> None:
    report = _run([sys.executable, "evaluate_my_agent.py"], workdir)
    assert report.returncode == 0, report.stderr
    assert "| 8 |" in report.stdout  # pass^8 reported
    assert "## What went wrong, by cause" in report.stdout
    [gate] = _commands(snippets()["gate.sh"])
    passed = _run(gate, workdir)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "passed: pass^4 >= 0.05" in passed.stdout
    helper = _run(
        [str(BIN / "pytest"), "-q", "-p", "no:cacheprovider", "test_my_agent.py"], workdir
    )
    assert helper.returncode == 0, helper.stdout + helper.stderr


def test_path_2_the_http_service(workdir: Path) -> None:
    # The snippet as written (port 0: the agent prints the free port it got), with `taurec`
    # limited to three tasks to keep `make test` fast, and the agent stopped when it ends.
    snippet = snippets()["http-agent.sh"]
    assert "--port 0" in snippet
    assert shutil.which("node") is not None, "make test needs Node.js 20+"
    tasks = " ".join(f"--task {t}" for t in sorted(p.stem for p in TASKS_DIR.glob("*.json"))[:3])
    prelude = (
        "trap 'kill $(jobs -p) 2>/dev/null' EXIT\n"
        f'taurec() {{ "{BIN / "taurec"}" "$@" {tasks}; }}\n'
    )
    # The example as a reader's checkout has it (a copy: node runs a symlinked entry file as a
    # module only, without starting the server).
    shutil.copytree(PROJECT_ROOT / "examples", workdir / "examples")
    result = subprocess.run(
        ["bash", "-c", prelude + snippet],
        cwd=workdir,
        capture_output=True,
        text=True,
        timeout=600,
        env=_env(workdir),
    )
    assert result.returncode in (0, 1), result.stderr
    assert "infrastructure errors" in result.stdout
    assert " 0 infrastructure errors" in result.stdout
    assert ("passed: pass^4 >= 0.5" in result.stdout) == (result.returncode == 0)


def test_path_3_a_model_through_litellm(workdir: Path) -> None:
    # As written: port 0 in api_base starts τ-Rec's own model server on a free port.
    assert "local-model.sh" not in snippets()
    assert 'api_base="http://127.0.0.1:0/v1"' in snippets()["evaluate_model.py"]
    result = _run([sys.executable, "evaluate_model.py"], workdir)
    assert result.returncode == 0, result.stderr
    assert re.fullmatch(r"pass\^4 = [01]\.\d{3}\n", result.stdout), result.stdout
