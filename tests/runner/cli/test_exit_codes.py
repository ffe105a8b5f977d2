"""Every gate of the real `taurec` console script exits non-zero when it fails (a subprocess, not CliRunner)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.movie_world import inconsistent_suite

TAUREC = Path(sys.executable).with_name("taurec")


def taurec(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(TAUREC), *args], capture_output=True, text=True, timeout=120, cwd=cwd, check=False
    )


def test_inconsistent_suite_fails_the_validate_gate(tmp_path: Path, v1_dir: Path) -> None:
    # Before: the entry ignored click's returned code, so this exited 0 and refresh never stopped.
    tasks_dir = inconsistent_suite(v1_dir, tmp_path / "tasks")
    done = taurec("tasks", "validate", "--catalog", str(v1_dir), "--tasks", str(tasks_dir))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "inconsistent task task_001" in done.stderr


def test_consistent_suite_passes_the_validate_gate(v1_dir: Path) -> None:
    done = taurec("tasks", "validate", "--catalog", str(v1_dir), "--tasks", str(v1_dir / "tasks"))
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (("no-such-command",), 2),  # usage error
        (("score",), 2),  # missing argument
        (("--version",), 0),
        (("submission", "schema", "--check", "--output", "/nonexistent/schema.json"), 1),
    ],
)
def test_exit_codes(args: tuple[str, ...], code: int) -> None:
    done = taurec(*args)
    assert done.returncode == code, done.stdout + done.stderr


def test_empty_submission_fails_the_check(tmp_path: Path) -> None:
    # Before: an empty submission.yaml passed `submission check` (0 errors).
    folder = tmp_path / "submissions" / "empty-entry"
    folder.mkdir(parents=True)
    (folder / "submission.yaml").write_text("")
    done = taurec("submission", "check", str(folder))
    assert done.returncode == 1
    assert "the file is empty" in done.stdout
