"""The shipped 60-task suite: stratification, policy coverage, consistency and no drift from its generator."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from domains.movies import fixture_suite as task_suite
from domains.movies.audit import audit_suite
from domains.movies.catalog import Catalog
from domains.movies.suite import load_solvability, revalidate_snapshot, snapshot_dates, suite_stats
from domains.movies.tasks import POLICY_NAMES, Task, load_tasks
from domains.movies.validate import check_solvability
from runner.core.paths import POLICY_PATH, SNAPSHOTS_DIR, TASKS_DIR

DEFAULT_SNAPSHOT = "2026-11-01"


@pytest.fixture(scope="module")
def tasks() -> list[Task]:
    return load_tasks(TASKS_DIR)


@pytest.fixture(scope="module")
def default_catalog() -> Catalog:
    return Catalog.load(SNAPSHOTS_DIR / DEFAULT_SNAPSHOT)


def test_sixty_tasks_numbered_in_order(tasks: list[Task]) -> None:
    assert [t.id for t in tasks] == [f"task_{n:03d}" for n in range(1, 61)]
    assert all(t.retired is None for t in tasks)


def test_stratification_matches_the_paper(tasks: list[Task]) -> None:
    stats = suite_stats(tasks)
    assert {c: sum(row.values()) for c, row in stats.grid.items()} == {
        "simple": 20,
        "medium": 24,
        "complex": 16,
    }
    by_reveal = {
        r: sum(row[r] for row in stats.grid.values()) for r in ("volunteer", "mixed", "hidden")
    }
    assert by_reveal == {"volunteer": 13, "mixed": 32, "hidden": 15}
    assert stats.no_valid_recommendation == 5
    for task in tasks:
        n = len(task.constraints)
        expected = "simple" if n <= 2 else "medium" if n <= 4 else "complex"
        assert task.complexity == expected, task.id


def test_every_policy_is_active_in_several_tasks(tasks: list[Task]) -> None:
    policies = suite_stats(tasks).policies
    assert set(policies) == set(POLICY_NAMES)
    assert all(count >= 5 for count in policies.values()), policies
    assert policies["recommend_tool"] == 60


def test_constraints_use_the_fields_the_issue_names(tasks: list[Task]) -> None:
    fields = suite_stats(tasks).fields
    wanted = {"genres", "runtime", "rating", "content_rating", "streaming_services"}
    assert wanted | {"release_date", "vote_count", "director", "cast"} <= set(fields)


def test_all_sixty_consistent_on_the_default_snapshot(
    tasks: list[Task], default_catalog: Catalog
) -> None:
    assert snapshot_dates()[-1].isoformat() == DEFAULT_SNAPSHOT
    report = check_solvability(default_catalog, tasks)
    assert [t.task_id for t in report.inconsistent] == []
    for task in tasks:
        result = report.tasks[task.id]
        if task.no_valid_recommendation:
            assert result.constraint_solutions == [], task.id
        else:
            assert result.winning_solutions, task.id
    hard = [
        report.tasks[t.id]
        for t in tasks
        if t.complexity == "complex" and not t.no_valid_recommendation
    ]
    assert all(1 <= len(r.winning_solutions) <= 15 for r in hard)


@pytest.mark.parametrize("date", ["2026-10-01", "2026-11-01"])
def test_every_task_passes_the_difficulty_gate_on_every_shipped_snapshot(
    tasks: list[Task], date: str
) -> None:
    audit = audit_suite(Catalog.load(SNAPSHOTS_DIR / date), tasks)
    assert [(t.task_id, [c.reason for c in t.failed_checks]) for t in audit.failed] == []
    assert [d.isoformat() for d in snapshot_dates()] == ["2026-10-01", "2026-11-01"]
    by_reveal = {
        r: [t for t in audit.tasks if t.reveal_difficulty == r] for r in ("mixed", "hidden")
    }
    # The figures the gate is about, read back: big stated pools, few winners in them.
    assert all(t.volunteer_pool.size >= 8 for t in by_reveal["mixed"])
    assert all(t.stated_pool.size >= 8 for t in by_reveal["hidden"])
    hidden_mixed = [t for t in by_reveal["mixed"] if any(c.reveal == "hidden" for c in t.cuts)]
    assert len(hidden_mixed) >= 10
    assert all(t.stated_pool.size >= 8 for t in hidden_mixed)
    assert audit.ok, audit.format_text()
    assert not [t.task_id for t in audit.tasks if t.allowed.most_voted_wins]


def test_policies_bite_on_the_default_snapshot(tasks: list[Task], default_catalog: Catalog) -> None:
    """Sponsored/R winners where those policies are active; watched and unavailable near-misses."""
    for task in tasks:
        assert task_suite.design_problems(task, default_catalog) == [], task.id
    report = check_solvability(default_catalog, tasks)
    watched_near_miss = [
        t.id for t in tasks if set(t.watched) & set(report.tasks[t.id].reachable_solutions)
    ]
    unavailable_near_miss = [
        t.id
        for t in tasks
        if len(report.tasks[t.id].reachable_solutions)
        < len(report.tasks[t.id].constraint_solutions)
    ]
    assert len(watched_near_miss) >= 10
    # Eleven tasks with hidden constraints dropped their services so their pools could be big
    # enough for the hidden-pool gate (a winner share <= 12.5 % of >= 8 titles): 16 remain.
    assert len(unavailable_near_miss) >= 15


def test_committed_tasks_are_what_the_generator_writes(
    tasks: list[Task], default_catalog: Catalog, tmp_path: Path
) -> None:
    lines = task_suite.write_suite(SNAPSHOTS_DIR / DEFAULT_SNAPSHOT, tmp_path)
    assert lines[-1] == "60 tasks ok"
    for file in sorted(TASKS_DIR.glob("task_*.json")):
        assert (tmp_path / file.name).read_bytes() == file.read_bytes(), file.name


def test_committed_solvability_files_are_current() -> None:
    for date in snapshot_dates():
        committed = (SNAPSHOTS_DIR / date.isoformat() / "solvability.json").read_bytes()
        fresh = revalidate_snapshot(date, write=False)
        assert fresh.to_json_bytes() == committed, date
        assert load_solvability(SNAPSHOTS_DIR / date.isoformat()).ok
        # The informed agent (told which fields matter, never their values) wins every task on
        # every probed seed: the user's variation never decides whether a task can be won.
        lost = {
            t.task_id: t.audit.informed_wins
            for t in fresh.tasks
            if t.audit is not None and not all(t.audit.informed_wins or [False])
        }
        assert lost == {}, date


def test_personas_are_our_own(tasks: list[Task], v1_dir: Path) -> None:
    ours = [t.persona for t in tasks]
    assert len(set(ours)) == 60
    theirs = [
        json.loads(p.read_text())["persona"] for p in sorted((v1_dir / "tasks").glob("*.json"))
    ]

    def shingles(text: str) -> set[tuple[str, ...]]:
        words = re.findall(r"[a-z']+", text.lower())
        return {tuple(words[i : i + 6]) for i in range(len(words) - 5)}

    their_shingles = set().union(*(shingles(t) for t in theirs))
    assert not [p for p in ours if shingles(p) & their_shingles]


def test_policy_text_covers_the_seven_policies_in_our_words(v1_dir: Path) -> None:
    text = POLICY_PATH.read_text(encoding="utf-8")
    headings = re.findall(r"^## \d\. (.+)$", text, flags=re.MULTILINE)
    assert len(headings) == 7
    for tool in ("get_user_history", "check_content_preference", "check_availability", "recommend"):
        assert tool in text
    v1_sentences = {
        s.strip() for s in re.split(r"[.\n]", (v1_dir / "policy.md").read_text()) if len(s) > 30
    }
    assert not [s for s in v1_sentences if s in text]
