"""Runs name their rule set and provenance in every file; boards keep one rule set; the page lists every difference."""

from __future__ import annotations

from pathlib import Path

import pytest
from markupsafe import escape

from runner.batch import load_records, read_manifest, run_submissions
from runner.batch.archive import load_trial_transcript
from runner.core.errors import TaurecError
from runner.core.rules import RULE_DIFFERENCES
from runner.sitegen.inputs import load_inputs

from .conftest import SubmissionMaker, builtin


def test_run_records_rules_and_provenance_everywhere(
    small_suite: Path, v1_dir: Path, make_submission: SubmissionMaker
) -> None:
    sub = make_submission("heur", builtin("heuristic"), trials=1)
    [result] = run_submissions(
        [sub], snapshot=v1_dir / "catalog.json", tasks_dir=small_suite, rules="v1"
    )
    manifest = read_manifest(result.results_dir)
    assert manifest is not None
    assert manifest.rules == "v1"
    for record in load_records(result.results_dir):
        assert record.rules == "v1"
        assert record.provenance is not None
        assert record.provenance.catalog_digest == manifest.catalog_digest
        assert record.provenance.task_suite_digest == manifest.task_suite_digest
        assert record.provenance.policy_digest == manifest.policy_digest
        assert record.provenance.snapshot == "tau-rec-v1"
        transcript = load_trial_transcript(result.results_dir, record)
        assert transcript.rules == "v1"
        assert transcript.provenance == record.provenance
    # Resuming the same folder under other rules is refused, naming the difference.
    with pytest.raises(TaurecError, match="rules differs"):
        run_submissions([sub], snapshot=v1_dir / "catalog.json", tasks_dir=small_suite)


def test_a_board_never_mixes_rule_sets(
    small_suite: Path, v1_dir: Path, make_submission: SubmissionMaker, tmp_path: Path
) -> None:
    old = make_submission("old-rules", builtin("heuristic"), trials=1)
    new = make_submission("new-rules", builtin("heuristic"), trials=1)
    run_submissions([old], snapshot=v1_dir / "catalog.json", tasks_dir=small_suite, rules="v1")
    run_submissions([new], snapshot=v1_dir / "catalog.json", tasks_dir=small_suite)
    subs = tmp_path / "subs"
    ours = load_inputs(subs, tmp_path / "no-snapshots", small_suite)
    assert {r.slug for r in ours.runs} == {"new-rules"}
    assert any("old-rules" in n and "rule set v1" in n for n in ours.notes)
    theirs = load_inputs(subs, tmp_path / "no-snapshots", small_suite, rules="v1")
    assert {r.slug for r in theirs.runs} == {"old-rules"}


def test_methodology_page_lists_every_difference(tmp_path: Path) -> None:
    from runner.core.board import BoardSettings
    from runner.core.paths import SITE_DIR
    from runner.sitegen.pages import PageWriter, environment, splice_methodology

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "methodology.md").write_text(
        (SITE_DIR / "pages" / "methodology.md").read_text(encoding="utf-8"), encoding="utf-8"
    )
    splice_methodology(PageWriter(environment(SITE_DIR / "templates"), docs), BoardSettings())
    page = (docs / "methodology.md").read_text(encoding="utf-8")
    assert "<!-- generated" not in page
    for d in RULE_DIFFERENCES:  # autoescaped text: the page renders it back
        topic, v1, v2 = escape(d.topic), escape(d.v1), escape(d.v2)
        if d.fields:  # a v1/v2 difference
            assert f"| {topic} | {v1} | {v2} |" in page
        if d.published is not None:  # where v1 still differs from the published harness
            assert f"| {topic} | {escape(d.published)} | {v1} | {v2} |" in page
        assert d.fields or d.published, d.topic
