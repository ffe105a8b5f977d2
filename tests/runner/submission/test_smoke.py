"""The smoke path of `submission.yml`, run locally through the very script the workflow calls."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from runner.core.paths import PROJECT_ROOT, SUBMISSIONS_DIR
from runner.submissions.scaffold import scaffold_submission
from runner.submissions.smoke import _StandInHandler
from tests.entries import scaffold_answers
from tests.loopback import serving
from tests.processes import run_text

SCRIPT = PROJECT_ROOT / "scripts" / "smoke_submission.sh"


def run_script(*args: str, summary: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SMOKE_SUMMARY": str(summary), "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    env.pop("ANTHROPIC_API_KEY", None)  # the hosted entry below must have no key here
    return run_text([SCRIPT, *args], env=env)


def copy_entry(slug: str, root: Path) -> Path:
    target = root / "submissions" / slug
    shutil.copytree(SUBMISSIONS_DIR / slug, target, ignore=shutil.ignore_patterns("results"))
    return target


@pytest.mark.slow
def test_smoke_runs_unreachable_entries_on_stand_ins_and_never_calls_that_a_pass(
    tmp_path: Path,
) -> None:
    builtin = copy_entry("heuristic-baseline", tmp_path)
    # A hosted model the CI has no key for, and an external endpoint it cannot reach: the smoke
    # run redirects both to this machine, shows that the config runs, and says it is no pass.
    hosted = scaffold_submission(
        tmp_path / "submissions",
        scaffold_answers(
            "hosted-model",
            "litellm",
            model="anthropic/claude-sonnet-4-5",
            api_key_env="ANTHROPIC_API_KEY",
        ),
    ).parent
    http = scaffold_submission(
        tmp_path / "submissions",
        scaffold_answers("remote-agent", "http", endpoint="https://agent.example.com/step"),
    ).parent
    summary = tmp_path / "summary.md"
    result = run_script(str(builtin), str(hosted), str(http), summary=summary)
    assert result.returncode == 0, result.stdout + result.stderr  # the config runs: PR check ok
    text = summary.read_text(encoding="utf-8")
    assert text in result.stdout  # printed to the job log as well
    assert text.startswith(
        "### Submission smoke run ⚠️ config runs; not a pass for `hosted-model`, `remote-agent`"
    )
    rows = {
        slug: next(line for line in text.splitlines() if line.startswith(f"| `{slug}`"))
        for slug in ("heuristic-baseline", "hosted-model", "remote-agent")
    }
    for row in rows.values():
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert cells[3:5] == ["3", "0"], row  # 3 scored, 0 infra errors
    assert "✅ passed" in rows["heuristic-baseline"]
    for slug in ("hosted-model", "remote-agent"):
        assert "passed" not in rows[slug]
        assert "⚠️ stand-in: " in rows[slug]
        assert "not a pass for your agent" in rows[slug]
    assert "your model anthropic/claude-sonnet-4-5 not reachable (MissingKey" in text
    assert "your endpoint https://agent.example.com/step not reachable" in text
    assert "was `anthropic/claude-sonnet-4-5`" in text
    assert "local stand-in endpoint" in text
    # Results go to a temporary folder, never into the submission folders.
    for folder in (builtin, hosted, http):
        assert not (folder / "results").exists()


@pytest.mark.slow
def test_smoke_runs_the_submitters_own_endpoint_when_it_answers(tmp_path: Path) -> None:
    calls: list[str] = []

    class Counting(_StandInHandler):
        def do_POST(self) -> None:
            calls.append(self.path)
            super().do_POST()

    with serving(Counting) as server:
        endpoint = f"http://127.0.0.1:{server.server_port}/agent"
        own = scaffold_submission(
            tmp_path / "submissions",
            scaffold_answers("own-agent", "http", endpoint=endpoint),
        ).parent
        summary = tmp_path / "summary.md"
        result = run_script(str(own), summary=summary)
    assert result.returncode == 0, result.stdout + result.stderr
    text = summary.read_text(encoding="utf-8")
    assert text.startswith("### Submission smoke run ✅ passed")
    row = next(line for line in text.splitlines() if line.startswith("| `own-agent`"))
    assert f"your endpoint {endpoint}" in row
    assert "✅ passed" in row
    assert "stand-in" not in row
    assert len(calls) > 3  # the preflight and every step of the three trials hit it
    assert set(calls) == {"/agent"}


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
