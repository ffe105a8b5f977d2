"""The "verified" badge comes only from the refresh workflow's ledger, never from a typed verified_by."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from runner.batch import read_manifest, run_submissions
from runner.core.errors import TaurecError
from runner.publish.ledger import load_ledger, record_runs, verified_entry
from runner.sitegen.inputs import load_inputs
from runner.sitegen.views import badges_for

from .conftest import SubmissionMaker, builtin

RUN_URL = "https://github.com/acme/taurec/actions/runs/42"
ATTESTATION_URL = "https://github.com/acme/taurec/attestations/4242"


def _as_workflow(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_SERVER_URL", "https://github.com")
    monkeypatch.setenv("GITHUB_REPOSITORY", "acme/taurec")
    monkeypatch.setenv("GITHUB_RUN_ID", "42")


def test_badge_only_for_runs_the_ledger_vouches_for(
    small_suite: Path,
    v1_dir: Path,
    make_submission: SubmissionMaker,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    subs = tmp_path / "subs"
    ledger = subs / "ledger.jsonl"
    honest = make_submission("honest", builtin("heuristic"), trials=1)
    forged = make_submission("forged", builtin("heuristic"), trials=1)
    edited = make_submission("edited", builtin("heuristic"), trials=1)
    catalog = v1_dir / "catalog.json"

    # Outside a workflow nobody can write the ledger.
    run_submissions([forged], snapshot=catalog, tasks_dir=small_suite)
    with pytest.raises(TaurecError, match="only the refresh workflow"):
        record_runs([forged / "results" / "tau-rec-v1"], ledger, attestation_url=ATTESTATION_URL)
    assert not ledger.exists()
    # ...but anyone can type a verified_by into run.json.
    run_json = forged / "results" / "tau-rec-v1" / "run.json"
    data = json.loads(run_json.read_text())
    data["verified_by"] = RUN_URL
    run_json.write_text(json.dumps(data))

    _as_workflow(monkeypatch)
    [h, e] = run_submissions([honest, edited], snapshot=catalog, tasks_dir=small_suite)
    assert read_manifest(h.results_dir).verified_by == RUN_URL  # type: ignore[union-attr]
    # Inside one, not without the attestation of the results archives.
    with pytest.raises(TaurecError, match="no attestation URL"):
        record_runs([h.results_dir, e.results_dir], ledger)
    assert not ledger.exists()
    record_runs([h.results_dir, e.results_dir], ledger, attestation_url=ATTESTATION_URL)
    # A verified run edited after it was recorded no longer matches its digests.
    trials = e.results_dir / "trials.jsonl"
    rows = [json.loads(line) for line in trials.read_text().splitlines()]
    rows[0]["score"]["reward"] = 1.0 - rows[0]["score"]["reward"]
    trials.write_text("".join(json.dumps(r) + "\n" for r in rows))

    entries = load_ledger(ledger)
    assert [x.submission for x in entries] == ["honest", "edited"]
    assert verified_entry(h.results_dir, read_manifest(h.results_dir), entries) is not None

    inputs = load_inputs(subs, tmp_path / "no-snapshots", small_suite)
    by_slug = {r.slug: r for r in inputs.runs}
    assert {s for s, r in by_slug.items() if r.verified} == {"honest"}
    entry = {e.slug: e for e in inputs.entries}
    honest_badges = badges_for(entry["honest"], by_slug["honest"], None)
    # The badge links to GitHub's attestation, which anyone can check without our files.
    assert (honest_badges[0].text, honest_badges[0].href) == ("verified", ATTESTATION_URL)
    for slug in ("forged", "edited"):
        assert badges_for(entry[slug], by_slug[slug], None)[0].text == "self-reported"
    assert any("forged" in n and "ledger does not vouch" in n for n in inputs.notes)
