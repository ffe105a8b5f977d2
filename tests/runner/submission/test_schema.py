"""The committed `submissions/schema.json` is exactly what the model generates, and the shipped entries pass the check."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from runner.cli import cli
from runner.core.paths import SUBMISSIONS_DIR
from runner.models.llm_client import uses_direct_path
from runner.submissions.config import check_submission, load_submission, submission_schema_text

SHIPPED = [
    "exploit-ask-all",
    "exploit-crawl-propose",
    "exploit-interview",
    "exploit-list-pusher",
    "exploit-nothing-fits-probe",
    "exploit-policy-only",
    "grocery-allergen-ignorer",
    "grocery-consent-forger",
    "grocery-do-nothing",
    "grocery-expert",
    "grocery-heuristic",
    "grocery-oracle",
    "grocery-order-without-asking",
    "grocery-prior-guesser",
    "heuristic-baseline",
    "heuristic-via-litellm",
    "oracle-baseline",
    "random-baseline",
]


def test_committed_schema_has_not_drifted() -> None:
    committed = (SUBMISSIONS_DIR / "schema.json").read_text(encoding="utf-8")
    assert committed == submission_schema_text(), (
        "submissions/schema.json is out of date: run `taurec submission schema`"
    )


def test_schema_check_command_fails_on_drift(tmp_path: Path) -> None:
    stale = tmp_path / "schema.json"
    schema = json.loads(submission_schema_text())
    schema["properties"].pop("notes")
    stale.write_text(json.dumps(schema, indent=2))
    runner = CliRunner()
    result = runner.invoke(cli, ["submission", "schema", "--check", "--output", str(stale)])
    assert result.exit_code == 1
    assert "out of date" in result.output
    assert runner.invoke(cli, ["submission", "schema", "--output", str(stale)]).exit_code == 0
    result = runner.invoke(cli, ["submission", "schema", "--check", "--output", str(stale)])
    assert result.exit_code == 0, result.output


def test_schema_forbids_unknown_keys_and_names_the_kinds() -> None:
    schema = json.loads(submission_schema_text())
    assert schema["additionalProperties"] is False
    assert schema["$schema"].startswith("https://json-schema.org/")
    kinds = set(schema["properties"]["agent"]["discriminator"]["mapping"])
    assert kinds == {"litellm", "http", "builtin"}


def test_the_shipped_entries() -> None:
    found = sorted(p.parent.name for p in SUBMISSIONS_DIR.glob("*/submission.yaml"))
    assert found == SHIPPED


@pytest.mark.parametrize("slug", SHIPPED)
def test_each_shipped_entry_passes_the_check(slug: str) -> None:
    folder = SUBMISSIONS_DIR / slug
    assert check_submission(folder) == []
    submission = load_submission(folder)
    assert submission.slug == slug
    assert submission.trials == 4
    assert submission.domains == (["grocery"] if slug.startswith("grocery-") else ["movies"])


def test_the_litellm_entry_points_at_the_local_model_server() -> None:
    agent = load_submission(SUBMISSIONS_DIR / "heuristic-via-litellm").agent
    assert agent.kind == "litellm"
    assert agent.model == "hosted_vllm/heuristic"
    assert agent.api_base == "http://127.0.0.1:0/v1"  # port 0: the run's own server, a free port
    # It is the offline run of the LiteLLM path; `openai/` at a custom base would skip LiteLLM.
    assert not uses_direct_path(agent.model, agent.api_base)
