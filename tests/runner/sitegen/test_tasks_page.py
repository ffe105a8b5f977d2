"""The Tasks page shows each task's difficulty figures and gate status from solvability.json."""

from __future__ import annotations

from pathlib import Path

from domains.movies.site_synth import SynthSpec, synthesize
from domains.movies.suite import revalidate_snapshot

from .conftest import site_of


def test_tasks_page_shows_audit_figures_and_flagged_then_retired_tasks(tmp_path: Path) -> None:
    world = synthesize(tmp_path / "world", SynthSpec(entries=1, tasks=3, trials=4))
    dates = sorted(p.name for p in world.snapshots.iterdir())
    results = [
        revalidate_snapshot(d, tasks_dir=world.tasks, snapshots_dir=world.snapshots) for d in dates
    ]
    # The synthetic catalogs are far too small for the gate: every task is flagged on the first
    # snapshot and retired on the second, which is what the page must make visible.
    assert {t.gate for t in results[0].tasks} == {"flagged"}
    assert {t.gate for t in results[-1].tasks} == {"retired"}
    report = site_of(world, tmp_path)
    html = (report.out / "tasks.html").read_text(encoding="utf-8")
    first = results[0].tasks[0]
    assert first.audit is not None
    assert "gate flagged" in html
    assert "gate retired" in html
    assert "gate: retired" in html  # the badge beside the task id (latest snapshot)
    assert f"win {len(first.audit.winning)}" in html
    assert "volunteered pool" in html
    assert "first hit wins" in html
    failed = first.audit.failed_checks[0]
    assert f"{failed.rule}: " in html
    assert 'href="methodology.html#task-difficulty-gate"' in html
