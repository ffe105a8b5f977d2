"""An entry folder holds its config, a README and the workflow's results, all bounded: anything
else (a 200 MB file, a `.py` at any depth) is an error naming the file. Real files; the big ones
are sparse (`truncate`), so nothing reads 200 MB."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from runner.submissions.config import check_submission, check_submissions
from runner.submissions.entry_files import MAX_ENTRY_BYTES, MAX_RESULT_FILE_BYTES

from .test_check import make_entry

MB = 1024 * 1024


def _sparse(path: Path, size: int) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as fh:
        fh.truncate(size)
    return path


def _errors(folder: Path) -> dict[str, str]:
    problems = check_submission(folder)
    return {p.file: p.reason for p in problems if p.severity == "error"}


def test_a_clean_entry_with_its_results_passes(tmp_path: Path) -> None:
    entry = make_entry(tmp_path, "clean-agent")
    (entry / "README.md").write_text("# Clean agent\n")
    run = entry / "results" / "2026-11-01"
    for name in ("run.json", "trials.jsonl", ".lock", "transcripts/archive.jsonl.gz"):
        (run / name).parent.mkdir(parents=True, exist_ok=True)
        (run / name).write_text("{}")
    (run / "transcripts" / "task-1__0.json.gz").write_bytes(b"x")
    (entry / "results" / ".replaced" / "2026-10-01-0900" / "run.json").parent.mkdir(parents=True)
    (entry / "results" / ".replaced" / "2026-10-01-0900" / "run.json").write_text("{}")
    assert check_submission(entry) == []


def test_a_200_mb_file_is_an_error_naming_it(tmp_path: Path) -> None:
    entry = make_entry(tmp_path, "big-agent")
    blob = _sparse(entry / "weights.bin", 200 * MB)
    assert _errors(entry) == {
        str(blob): "200.0 MiB; not a file an entry may hold: an entry is submission.yaml, an "
        "optional README.md and the results/ the refresh workflow writes; remove it"
    }
    # Even under a results name: a results file is bounded too.
    blob.unlink()
    trials = _sparse(entry / "results" / "2026-11-01" / "trials.jsonl", 200 * MB)
    assert _errors(entry) == {
        str(trials): f"200.0 MiB, over the {MAX_RESULT_FILE_BYTES // MB}.0 MiB limit for a "
        "results file"
    }


def test_code_anywhere_in_an_entry_is_an_error_naming_it(tmp_path: Path) -> None:
    entry = make_entry(tmp_path, "code-agent")
    deep = entry / "results" / "2026-11-01" / "transcripts" / "x" / "y" / "agent.py"
    deep.parent.mkdir(parents=True)
    deep.write_text("import os\n")
    top = entry / "setup.py"
    top.write_text("print(1)\n")
    errors = _errors(entry)
    assert set(errors) == {str(deep), str(top)}
    assert errors[str(top)] == (
        "9 B; not a file an entry may hold: an entry is submission.yaml, an optional README.md "
        "and the results/ the refresh workflow writes; code in an entry folder is never run (an "
        "agent is reached through its endpoint or a package named in submission.yaml); remove it"
    )


def test_the_config_readme_and_the_whole_entry_are_bounded(tmp_path: Path) -> None:
    entry = make_entry(tmp_path, "wordy-agent")
    readme = entry / "README.md"
    readme.write_text("x" * (70 * 1024))
    config = entry / "submission.yaml"
    _sparse(config, 200 * MB)  # never read: its size says enough
    assert _errors(entry) == {
        str(readme): "70.0 KiB, over the 64.0 KiB limit for README.md",
        str(config): "200.0 MiB, over the 64.0 KiB limit for submission.yaml",
    }
    other = make_entry(tmp_path, "hoarder-agent")
    for label in ("2026-11-01", "2026-11-08", "2026-11-15", "2026-11-22", "2026-11-29"):
        _sparse(other / "results" / label / "transcripts" / "archive.jsonl.gz", 120 * MB)
    assert _errors(other) == {
        str(other): f"the entry holds 600.0 MiB, over the {MAX_ENTRY_BYTES // MB}.0 MiB limit"
    }


def test_a_pr_adding_a_big_file_or_code_fails_the_check_naming_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_entry(tmp_path, "pr-agent")
    monkeypatch.chdir(tmp_path)
    big = _sparse(Path("submissions/pr-agent/data/cache.bin"), 200 * MB)
    code = Path("submissions/pr-agent/a/b/c/tool.py")
    code.parent.mkdir(parents=True)
    code.write_text("x = 1\n")
    stray = Path("submissions/helper.py")
    stray.write_text("x = 1\n")
    report = check_submissions([], changed=[str(big), str(code), str(stray)])
    assert not report.ok
    named = {p.file for p in report.problems if p.severity == "error"}
    assert named == {
        os.path.join("submissions/pr-agent", "data/cache.bin"),
        os.path.join("submissions/pr-agent", "a/b/c/tool.py"),
        "submissions/helper.py",
    }
    markdown = report.markdown()
    assert "`submissions/pr-agent/data/cache.bin`" in markdown
    assert "`submissions/helper.py`" in markdown
