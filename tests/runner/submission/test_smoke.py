"""The smoke path of `submission.yml`, run locally through the very script the workflow calls."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from runner.paths import PROJECT_ROOT, SUBMISSIONS_DIR
from runner.submission_scaffold import ScaffoldAnswers, scaffold_submission

SCRIPT = PROJECT_ROOT / "scripts" / "smoke_submission.sh"


def run_script(*args: str, summary: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SMOKE_SUMMARY": str(summary), "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    return subprocess.run(
        [str(SCRIPT), *args],
        cwd=PROJECT_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def copy_entry(slug: str, root: Path) -> Path:
    target = root / "submissions" / slug
    shutil.copytree(SUBMISSIONS_DIR / slug, target, ignore=shutil.ignore_patterns("results"))
    return target


@pytest.mark.slow
def test_smoke_runs_builtin_litellm_and_http_entries_offline(tmp_path: Path) -> None:
    builtin = copy_entry("heuristic-baseline", tmp_path)
    litellm = copy_entry("heuristic-via-litellm", tmp_path)
    # A hosted model the CI has no key for, and an external endpoint it cannot reach: the smoke
    # run redirects both to this machine.
    hosted = scaffold_submission(
        tmp_path / "submissions",
        ScaffoldAnswers(
            slug="hosted-model",
            display_name="Hosted",
            contact_name="H",
            github="h",
            kind="litellm",
            model="anthropic/claude-sonnet-4-5",
            api_key_env="ANTHROPIC_API_KEY",
        ),
    ).parent
    http = scaffold_submission(
        tmp_path / "submissions",
        ScaffoldAnswers(
            slug="remote-agent",
            display_name="Remote",
            contact_name="R",
            github="r",
            kind="http",
            endpoint="https://agent.example.com/step",
        ),
    ).parent
    summary = tmp_path / "summary.md"
    result = run_script(str(builtin), str(litellm), str(hosted), str(http), summary=summary)
    assert result.returncode == 0, result.stdout + result.stderr
    text = summary.read_text(encoding="utf-8")
    assert text in result.stdout  # printed to the job log as well
    assert text.startswith("### Submission smoke run ✅ passed")
    assert text.count("✅ passed") == 5  # the heading and the four entries
    for slug in ("heuristic-baseline", "heuristic-via-litellm", "hosted-model", "remote-agent"):
        row = next(line for line in text.splitlines() if line.startswith(f"| `{slug}`"))
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert cells[3:5] == ["3", "0"], row  # 3 scored, 0 infra errors
    assert "was `anthropic/claude-sonnet-4-5`" in text
    assert "local stand-in endpoint" in text
    # Results go to a temporary folder, never into the submission folders.
    for folder in (builtin, litellm, hosted, http):
        assert not (folder / "results").exists()


@pytest.mark.slow
def test_smoke_fails_a_config_that_does_not_check(tmp_path: Path) -> None:
    broken = copy_entry("random-baseline", tmp_path)
    config = broken / "submission.yaml"
    config.write_text(config.read_text().replace("trials: 4", "trials: 2"))
    summary = tmp_path / "summary.md"
    result = run_script(str(broken), summary=summary)
    assert result.returncode == 1
    text = summary.read_text(encoding="utf-8")
    assert "❌ failed: submission check failed" in text
    assert "trials: 2 < 4" in result.stderr
