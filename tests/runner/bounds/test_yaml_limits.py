"""Hostile YAML: an anchor bomb and deep nesting are refused with a clear error, fast, by the check and the loader."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from runner.core.bounded_yaml import YamlLimitError, check_yaml_limits
from runner.core.errors import LoadError
from runner.submissions.config import check_submission, load_submission

BOMB = (
    'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
    "b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
    "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
    "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
    "e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n"
    "f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n"
    "g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\n"
    "h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]\n"
    "i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]\n"
)
DEEP = "notes: " + "[" * 5000 + "]" * 5000 + "\n"


def entry(tmp_path: Path, text: str) -> Path:
    folder = tmp_path / "submissions" / "hostile"
    folder.mkdir(parents=True)
    (folder / "submission.yaml").write_text(text)
    return folder


@pytest.mark.parametrize(
    ("text", "reason"),
    [(BOMB, "anchors and aliases are not allowed"), (DEEP, "nested deeper than 32 levels")],
    ids=["anchor-bomb", "deep-nesting"],
)
def test_the_check_refuses_hostile_yaml_with_a_clear_error(
    tmp_path: Path, text: str, reason: str
) -> None:
    # Before: the 533-byte bomb hung the check; deep nesting gave a RecursionError traceback.
    folder = entry(tmp_path, text)
    [problem] = check_submission(folder)
    assert problem.field == "(file)"
    assert reason in problem.reason
    with pytest.raises(LoadError, match=reason.replace("(", r"\(")):
        load_submission(folder)


def test_the_cli_check_ends_quickly_and_without_a_traceback(tmp_path: Path) -> None:
    folder = entry(tmp_path, BOMB)
    taurec = str(Path(sys.executable).with_name("taurec"))
    done = subprocess.run(
        [taurec, "submission", "check", str(folder)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1
    assert "anchors and aliases are not allowed" in done.stdout
    assert "Traceback" not in done.stderr


def test_limits_on_plain_text() -> None:
    check_yaml_limits("a: [1, {b: [2]}]\n")
    with pytest.raises(YamlLimitError, match="larger than"):
        check_yaml_limits("a: " + "x" * 70_000)
