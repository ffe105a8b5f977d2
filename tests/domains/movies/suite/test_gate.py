"""The difficulty gate: each rule fails on a hand-built task that breaks it and passes on one that keeps it."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from domains.movies.audit import GATE_RULES, TaskAudit, audit_task, persona_tells
from domains.movies.catalog import Catalog, CatalogItem
from domains.movies.suite import SOLVABILITY_FILE, load_solvability, revalidate_snapshot
from domains.movies.tasks import Task
from runner.batch.inputs import load_inputs
from runner.cli import cli
from runner.core.paths import SITE_DIR

from .conftest import SnapshotWriter, movie

TasksWriter = Callable[[list[dict[str, Any]]], Path]

DECOY = "A horror story about horror, the most horror of horror nights."


def world(
    *,
    short: int = 10,
    long: int = 30,
    top: str = "long",
    decoy: str = "long",
    dramas: int = 60,
    short_overview: str = "",
) -> list[CatalogItem]:
    """Short (85 min) and long (110 min) horror films, then dramas; 100 titles by default.

    `top`: which title is the most-voted one (a long or short horror, or a drama).
    `decoy`: which horror film's overview makes it the first search hit for a horror request.
    `short_overview`: the short films' overview (by default they tie with the long ones in a
    search, and the 20 results of "horror" are all long: no search reaches a short one).
    """
    items: list[CatalogItem] = []
    n = 1
    for kind, count in (("long", long), ("short", short)):
        for k in range(count):
            items.append(
                movie(
                    n,
                    genres=["Horror"],
                    runtime=110 if kind == "long" else 85,
                    vote_count=5000 if (top == kind and k == 0) else 100,
                    overview=DECOY
                    if (decoy == kind and k == 0)
                    else short_overview
                    if kind == "short"
                    else "",
                )
            )
            n += 1
    for k in range(dramas):
        runtime = 50 if k == 0 else 100
        items.append(movie(n, runtime=runtime, vote_count=9000 if top == "drama" and k else 50))
        n += 1
    return items


def task(
    constraints: list[tuple[str, str, Any, str]],
    reveal: str,
    *,
    nvr: bool = False,
    persona: str = "A test persona.",
) -> Task:
    n = len(constraints)
    return Task.model_validate(
        {
            "id": "t_gate",
            "persona": persona,
            "constraints": [
                {"constraint": {"field": f, "op": op, "value": v}, "reveal": r}
                for f, op, v, r in constraints
            ],
            "policy_flags": ["recommend_tool"],
            "no_valid_recommendation": nvr,
            "complexity": "simple" if n <= 2 else "medium" if n <= 4 else "complex",
            "reveal_difficulty": reveal,
        }
    )


HORROR = ("genres", "contains", "Horror", "volunteer")
SHORT_ASKED = ("runtime", "<=", 90, "on_ask")
SHORT_HIDDEN = ("runtime", "<=", 90, "hidden")


def audit(t: Task, items: list[CatalogItem]) -> TaskAudit:
    return audit_task(t, Catalog(items))


def failed(a: TaskAudit) -> set[str]:
    return {c.rule for c in a.failed_checks}


def test_a_mixed_task_with_a_big_pool_and_few_winners_passes() -> None:
    a = audit(task([HORROR, SHORT_ASKED], "mixed"), world())
    assert a.passed, [c.reason for c in a.failed_checks]
    assert a.volunteer_pool.size == 40
    assert a.volunteer_pool.winners == 10
    assert a.volunteer_pool.winner_share == 0.25
    assert a.cuts[1].others_allow == 40
    assert a.cuts[1].removes == 30
    assert a.cuts[1].share == 0.75
    assert {c.rule for c in a.checks} == {"mixed_pool", "constraint_cut", "popular_not_winning"}


@pytest.mark.parametrize(
    ("reveal", "constraint", "rule", "short", "ceiling"),
    [
        ("mixed", SHORT_ASKED, "mixed_pool", 10, "25%"),
        # A hidden task needs a rarer winner: a guess must seldom land (<= 12.5 %).
        ("hidden", SHORT_HIDDEN, "hidden_pool", 5, "12%"),
    ],
)
def test_pool_rules_fail_on_too_many_winners_or_too_small_a_pool(
    reveal: str, constraint: tuple[str, str, Any, str], rule: str, short: int, ceiling: str
) -> None:
    assert audit(task([HORROR, constraint], reveal), world(short=short, long=40 - short)).passed
    share = audit(task([HORROR, constraint], reveal), world(short=14, long=26))
    assert failed(share) == {rule}
    assert f"more than {ceiling}" in share.failed_checks[0].reason
    small = audit(task([HORROR, constraint], reveal), world(short=1, long=6))
    assert failed(small) == {rule}
    assert "only 7 title(s) remain" in small.failed_checks[0].reason


def test_a_hidden_constraint_a_decline_cannot_point_at_fails() -> None:
    # "Not my kind of movie" says nothing about which genre is wanted: not learnable from declines.
    hidden_genre = ("genres", "contains", "Horror", "hidden")
    a = audit(task([hidden_genre, SHORT_HIDDEN], "hidden"), world(short=5, long=35))
    assert "hidden_directional" in failed(a)
    assert "genres contains 'Horror'" in next(
        c.reason for c in a.failed_checks if c.rule == "hidden_directional"
    )
    assert "hidden_directional" not in failed(
        audit(task([HORROR, SHORT_HIDDEN], "hidden"), world(short=5, long=35))
    )


def test_hidden_pool_counts_on_ask_constraints_as_stated() -> None:
    # Horror volunteered, runtime asked for: the stated pool is the 10 short films, all winning.
    t = task([HORROR, ("runtime", "<=", 90, "on_ask"), ("rating", ">=", 6.0, "hidden")], "hidden")
    a = audit(t, world())
    assert a.stated_pool.size == 10
    assert a.stated_pool.winners == 10
    assert "hidden_pool" in failed(a)


def test_a_constraint_that_cuts_less_than_30_percent_fails() -> None:
    redundant = ("rating", ">=", 6.0, "on_ask")  # every film is rated 6.5: it removes nothing
    a = audit(task([HORROR, SHORT_ASKED, redundant], "mixed"), world())
    assert failed(a) == {"constraint_cut"}
    assert "rating >= 6.0 (on_ask) removes 0 of 10 (0%)" in a.failed_checks[0].reason
    # A volunteered constraint is not held to the cut: the user states it unasked.
    assert audit(
        task([HORROR, ("rating", ">=", 6.0, "volunteer"), SHORT_ASKED], "mixed"), world()
    ).passed


@pytest.mark.parametrize("top", ["short"])
def test_the_most_voted_title_winning_fails(top: str) -> None:
    a = audit(task([HORROR, SHORT_ASKED], "mixed"), world(top=top))
    assert failed(a) == {"popular_not_winning"}
    assert "tmdb_31 (most-voted of the whole catalog)" in a.failed_checks[0].reason


def test_the_most_voted_title_of_the_volunteered_pool_winning_fails() -> None:
    # The catalog's most-voted film is a drama (not a winner); the most-voted horror is short.
    items = world(top="drama")
    items[30] = items[30].model_copy(update={"vote_count": 4000})  # tmdb_31, a short horror
    a = audit(task([HORROR, SHORT_ASKED], "mixed"), items)
    assert not a.allowed.most_voted_wins
    assert a.volunteer_pool.most_voted == "tmdb_31"
    assert a.volunteer_pool.most_voted_wins
    assert failed(a) == {"popular_not_winning"}


def test_a_volunteer_task_must_need_retrieval() -> None:
    both = task([HORROR, ("runtime", "<=", 105, "volunteer")], "volunteer")  # no "Film 105"
    ok = audit(both, world(short=2, dramas=68))
    assert ok.passed, [c.reason for c in ok.failed_checks]
    assert ok.first_hits[0] == "tmdb_1"  # the decoy: a long horror film, not a winner
    too_many = audit(both, world(short=3, dramas=67))
    assert failed(too_many) == {"needs_retrieval"}
    assert "3 winning titles is more than 2 % of 100 (2)" in too_many.failed_checks[0].reason
    first_hit = audit(both, world(short=2, decoy="short", dramas=68))
    assert failed(first_hit) == {"needs_retrieval"}
    assert first_hit.first_hit_wins == 8
    assert "first search hit for the opening wins (tmdb_31" in first_hit.failed_checks[0].reason


def test_nvr_tasks_must_be_infeasible_only_through_a_non_volunteer_constraint() -> None:
    ok = audit(task([HORROR, ("runtime", "<=", 60, "on_ask")], "mixed", nvr=True), world())
    assert ok.passed, [c.reason for c in ok.failed_checks]
    assert ok.nvr is not None
    assert ok.nvr.satisfiable_alone == [40, 1]
    alone = audit(task([HORROR, ("runtime", "<=", 10, "on_ask")], "mixed", nvr=True), world())
    assert "nvr_combination" in failed(alone)
    assert "runtime <= 10 is unsatisfiable on its own" in alone.failed_checks[-1].reason
    stated = task(
        [HORROR, ("runtime", "<=", 60, "volunteer"), ("rating", ">=", 6.0, "on_ask")],
        "mixed",
        nvr=True,
    )
    a = audit(stated, world())
    assert "nvr_combination" in failed(a)
    assert any("volunteered constraints alone" in c.reason for c in a.failed_checks)


@pytest.mark.parametrize(
    "persona",
    [
        "You want a film that probably doesn't exist.",
        "You are very picky and expect to give up.",
        "You know that nothing will fit, but you ask anyway.",
        "You suspect it is a long shot.",
    ],
)
def test_an_nvr_persona_that_announces_impossibility_fails(persona: str) -> None:
    t = task([HORROR, ("runtime", "<=", 60, "on_ask")], "mixed", nvr=True, persona=persona)
    assert persona_tells(t)
    assert failed(audit(t, world())) == {"nvr_no_tell"}
    neutral = t.model_copy(update={"persona": "You are a baker with a free evening."})
    assert audit(neutral, world()).passed


def test_every_rule_is_explained_on_the_methodology_page() -> None:
    text = (SITE_DIR / "pages" / "methodology.md").read_text(encoding="utf-8")
    section = text.split("## Task difficulty gate", 1)[1].split("\n## ", 1)[0]
    assert [r for r in GATE_RULES if f"| `{r}` |" not in section] == []


def _write_task(folder: Path, t: Task) -> Path:
    folder.mkdir(exist_ok=True)
    (folder / f"{t.id}.json").write_text(t.model_dump_json(), encoding="utf-8")
    (folder / "policy.md").write_text("# Policy\n", encoding="utf-8")
    return folder


def test_cli_audit_exits_1_on_a_failing_suite_and_0_on_a_passing_one(
    snapshots: SnapshotWriter, tmp_path: Path
) -> None:
    folder = snapshots("2026-10-01", world(short_overview="Horror, horror and more horror."))
    good = _write_task(tmp_path / "good", task([HORROR, SHORT_ASKED], "mixed"))
    bad = _write_task(tmp_path / "bad", task([HORROR, ("runtime", "<=", 120, "on_ask")], "mixed"))
    runner = CliRunner()
    ok = runner.invoke(cli, ["tasks", "audit", "--snapshot", str(folder), "--tasks", str(good)])
    assert ok.exit_code == 0, ok.output
    assert "1 tasks: 1 pass the gate, 0 fail" in ok.output
    fail = runner.invoke(cli, ["tasks", "audit", "--snapshot", str(folder), "--tasks", str(bad)])
    assert fail.exit_code == 1
    assert "FAIL mixed_pool" in fail.output
    assert "FAIL constraint_cut" in fail.output
    as_json = runner.invoke(
        cli, ["tasks", "audit", "--snapshot", str(folder), "--tasks", str(bad), "--json"]
    )
    doc = json.loads(as_json.stdout)
    assert doc["tasks"][0]["passed"] is False
    assert doc["tasks"][0]["volunteer_pool"] == {
        "size": 40,
        "winners": 40,
        "winner_share": 1.0,
        "most_voted": "tmdb_1",
        "most_voted_wins": True,
    }
    unknown = runner.invoke(
        cli, ["tasks", "audit", "--snapshot", "1999-01-01", "--tasks", str(bad)]
    )
    assert unknown.exit_code != 0
    assert "no snapshot dated 1999-01-01" in str(unknown.exception)


def test_flagged_on_one_snapshot_then_retired_when_it_fails_again(
    snapshots: SnapshotWriter, tasks_dir: TasksWriter
) -> None:
    """October: the task is fine. November: it fails (flagged). December: fails again (retired)."""
    # The short films are searchable, so the informed agent can win wherever the pools allow.
    shown = "Horror, horror and more horror."
    snapshots("2026-10-01", world(short_overview=shown))
    snapshots("2026-11-01", world(short=14, long=26, short_overview=shown))
    folder = snapshots("2026-12-01", world(short=15, long=25, short_overview=shown))
    steady = task([HORROR, SHORT_ASKED], "mixed").model_copy(update={"id": "t_steady"})
    drifting = task([HORROR, SHORT_ASKED], "mixed").model_copy(update={"id": "t_drift"})
    tasks = tasks_dir([t.model_dump(mode="json") for t in (steady, drifting)])
    # t_steady asks for <= 120 minutes in a world where that cuts nothing: failing everywhere.
    steady_json = json.loads((tasks / "t_steady.json").read_text())
    steady_json["constraints"][1]["constraint"]["value"] = 120
    (tasks / "t_steady.json").write_text(json.dumps(steady_json))
    (tasks / "policy.md").write_text("# Policy\n")
    root = folder.parent

    october = revalidate_snapshot("2026-10-01", tasks_dir=tasks, snapshots_dir=root)
    assert {t.task_id: t.gate for t in october.tasks} == {"t_drift": "pass", "t_steady": "flagged"}
    assert october.counts.flagged == 1
    assert october.counts.gate_retired == 0

    november = revalidate_snapshot("2026-11-01", tasks_dir=tasks, snapshots_dir=root)
    by_id = {t.task_id: t for t in november.tasks}
    assert by_id["t_drift"].gate == "flagged"
    assert by_id["t_drift"].status == "ok"
    assert by_id["t_steady"].gate == "retired"
    assert by_id["t_steady"].status == "retired"
    assert "failed the difficulty gate on 2026-10-01 and again" in by_id["t_steady"].reason
    assert "flagged  t_drift  fails the gate: mixed_pool" in november.format_text()

    december = revalidate_snapshot("2026-12-01", tasks_dir=tasks, snapshots_dir=root)
    assert {t.task_id: t.gate for t in december.tasks} == {
        "t_drift": "retired",
        "t_steady": "retired",
    }
    assert december.counts.gate_retired == 2
    assert december.ok

    # The written file round-trips, and a run on November skips only the retired task, saying why.
    assert load_solvability(root / "2026-11-01") == november
    inputs = load_inputs("2026-11-01", tasks, snapshots_dir=root)
    assert [t.id for t in inputs.tasks] == ["t_drift"]
    assert "failed the difficulty gate" in inputs.retired["t_steady"]


def test_schema_1_solvability_files_still_load(
    snapshots: SnapshotWriter, tasks_dir: TasksWriter
) -> None:
    folder = snapshots("2026-10-01", world())
    tasks = tasks_dir([task([HORROR, SHORT_ASKED], "mixed").model_dump(mode="json")])
    result = revalidate_snapshot("2026-10-01", tasks_dir=tasks, snapshots_dir=folder.parent)
    assert result.schema_version == 2
    assert result.tasks[0].audit is not None
    old = result.model_dump(mode="json")
    old["schema_version"] = 1
    for key in ("flagged", "gate_retired"):
        del old["counts"][key]
    for row in old["tasks"]:
        del row["gate"], row["audit"]
    (folder / SOLVABILITY_FILE).write_text(json.dumps(old))
    loaded = load_solvability(folder)
    assert loaded.schema_version == 1
    assert loaded.tasks[0].audit is None
    assert loaded.tasks[0].gate is None
    assert loaded.counts.flagged == 0


def test_a_mixed_task_with_a_hidden_constraint_is_held_to_the_hidden_pool_rules() -> None:
    # Volunteered horror, asked-for length, hidden vote floor: learning from declines must pay.
    votes_hidden = ("vote_count", ">=", 50, "hidden")
    every = audit(task([HORROR, SHORT_ASKED, votes_hidden], "mixed"), world(short=10, long=30))
    assert {"hidden_pool", "hidden_directional"} <= {c.rule for c in every.checks}
    # All 10 short horror films have 100 votes: every title the user stated wins, so a guess
    # would land and the pool rule fails.
    assert "hidden_pool" in failed(every)
    flat = ("genres", "not_contains", "Drama", "hidden")
    a = audit(task([HORROR, SHORT_ASKED, flat], "mixed"), world())
    assert "hidden_directional" in failed(a)


def test_prior_picks_are_the_best_rated_most_voted_and_best_by_both() -> None:
    items = world(top="short")
    a = audit(task([HORROR, SHORT_ASKED], "mixed"), items)
    # The most-voted horror film is the first short one (id 31); ties fall to catalog order.
    assert a.prior_picks[:2] == ["tmdb_1", "tmdb_2"]
    assert "tmdb_31" in a.prior_picks
    assert a.prior_picks_stated == ["tmdb_31"]


def test_the_suite_rule_fails_when_a_popularity_guess_meets_the_asked_for_constraints() -> None:
    from domains.movies.audit import audit_suite

    def mixed(n: int) -> Task:
        return task([HORROR, SHORT_ASKED], "mixed").model_copy(update={"id": f"t_{n}"})

    guessable = audit_suite(Catalog(world(top="short")), [mixed(1), mixed(2)])
    assert not guessable.ok
    [check] = guessable.suite_checks
    assert (check.rule, check.passed, check.figure) == (
        "mixed_prior",
        False,
        "2 of 2 mixed tasks (100%)",
    )
    assert guessable.rule_failures()["mixed_prior"] == 2
    assert "suite mixed_prior: FAIL" in guessable.format_text()
    # The most-voted title is a long one: no prior pick is short, the guess is told "not for me".
    fair = audit_suite(Catalog(world(top="long")), [mixed(1), mixed(2)])
    assert fair.ok, fair.format_text()
    assert fair.suite_checks[0].figure == "0 of 2 mixed tasks (0%)"


def test_the_informed_agent_is_played_on_each_probed_seed_when_asked() -> None:
    t = task([HORROR, SHORT_ASKED], "mixed")
    searchable = world(short_overview="Horror, horror and more horror.")
    assert audit(t, searchable).informed_wins is None
    a = audit_task(t, Catalog(searchable), informed_seeds=2)
    assert a.informed_wins == [True, True]
    [check] = [c for c in a.checks if c.rule == "informed_solvable"]
    assert check.passed
    assert check.figure == "wins 2/2 seeds"
    # Every short film ties with 29 long ones on every search: none is ever shown, so even an
    # agent told which fields matter cannot win, whatever the user says.
    lost = audit_task(t, Catalog(world()), informed_seeds=1)
    assert lost.informed_wins == [False]
    assert failed(lost) == {"informed_solvable"}
