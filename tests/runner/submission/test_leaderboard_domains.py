"""`taurec leaderboard` over several domains: each domain's fixture refresh and suite validation, named by domain."""

from __future__ import annotations

import multiprocessing
import shutil
import threading
from pathlib import Path

import pytest

from runner.batch.store import read_trials
from runner.core.board import BoardSettings
from runner.core.domains import get_domain
from runner.core.errors import TaurecError
from runner.core.paths import SNAPSHOTS_DIR, SUBMISSIONS_DIR, TASKS_DIR
from runner.publish.leaderboard import build_leaderboard, entrants, shipped_submissions
from tests.domains.grocery.play import make_task
from tests.loopback import QuietHandler, serving

DATE = "2026-11-01"


def _suite(folder: Path, **fields: object) -> Path:
    grocery = get_domain("grocery")
    folder.mkdir(parents=True)
    shutil.copyfile(grocery.tasks_dir / "policy.md", folder / "policy.md")
    task = make_task(id="g_one", persona="A shopper who wants something vegan.", **fields)
    (folder / "g_one.json").write_text(task.model_dump_json(), encoding="utf-8")
    return folder


def test_grocery_refreshes_its_fixture_snapshot_and_validates_its_suite(tmp_path: Path) -> None:
    lines: list[str] = []
    result = build_leaderboard(
        steps=["refresh", "validate"],
        board=BoardSettings(domains=["grocery"]),
        domain_snapshots={"grocery": tmp_path / "snapshots"},
        domain_tasks={"grocery": _suite(tmp_path / "tasks")},
        echo=lines.append,
    )
    assert [t.step for t in result.timings] == ["refresh", "validate"]
    assert lines[0] == "[1/2] refresh …"
    # The pipeline over the fixture world served on 127.0.0.1 rebuilds the committed snapshot.
    committed = get_domain("grocery").snapshots_dir / DATE / "catalog.json"
    assert (tmp_path / "snapshots" / DATE / "catalog.json").read_bytes() == committed.read_bytes()
    assert "wrote catalog.csv, catalog.json, catalog.parquet, ids.json, manifest.json" in (
        result.timings[0].detail
    )
    assert result.timings[1].detail == f"1 of 1 tasks pass the difficulty gate on {DATE}"


def test_each_step_names_its_domain_and_an_inconsistent_suite_stops_the_build(
    tmp_path: Path,
) -> None:
    lines: list[str] = []
    with pytest.raises(TaurecError, match="the grocery task suite is inconsistent") as caught:
        build_leaderboard(
            steps=["validate", "site"],
            board=BoardSettings(domains=["grocery", "movies"]),
            domain_tasks={"grocery": _suite(tmp_path / "tasks", no_valid_recommendation=True)},
            public_dir=tmp_path / "public",
            echo=lines.append,
        )
    assert "g_one: [2026-11-01] an NVR task has valid products" in str(caught.value)
    assert lines == ["[1/3] grocery: validate …"]
    assert not (tmp_path / "public").exists()


def test_each_domain_runs_the_entries_that_enter_it() -> None:
    shipped = shipped_submissions()
    grocery = {f.name for f in entrants(shipped, "grocery")}
    movies = {f.name for f in entrants(shipped, "movies")}
    assert not grocery & movies
    assert grocery | movies == {f.name for f in shipped}
    assert {"grocery-expert", "grocery-oracle", "grocery-do-nothing"} <= grocery
    assert {"heuristic-baseline", "oracle-baseline"} <= movies


def _entries(root: Path, *names: str) -> Path:
    """A submissions folder holding copies of the shipped entries `names` (no results)."""
    for name in names:
        root.joinpath(name).mkdir(parents=True)
        shutil.copyfile(SUBMISSIONS_DIR / name / "submission.yaml", root / name / "submission.yaml")
    return root


def _trials(submissions: Path) -> dict[str, list[dict[str, object]]]:
    """Each entry's trial records, in key order, without what measures time or the order they
    were written in (a transcript's offset in the archive)."""
    found = {}
    for run in sorted(submissions.glob("*/results/*")):
        records = read_trials(run).records
        found[run.parent.parent.name] = [
            r.model_dump(
                exclude={"transcript_span": True, "efficiency": {"step_latencies_s", "wall_time_s"}}
            )
            for r in sorted(records, key=lambda r: (r.key.task_id, r.key.trial_index))
        ]
    return found


def test_the_runs_of_several_domains_run_at_once_and_score_as_one_at_a_time(
    tmp_path: Path,
) -> None:
    movies_tasks = tmp_path / "movies-tasks"
    movies_tasks.mkdir()
    for name in ("policy.md", "task_001.json", "task_002.json"):
        shutil.copyfile(TASKS_DIR / name, movies_tasks / name)
    suites = {"grocery": _suite(tmp_path / "grocery-tasks"), "movies": movies_tasks}
    shutil.copyfile(
        get_domain("grocery").tasks_dir / "suite.json", suites["grocery"] / "suite.json"
    )
    names = ("grocery-do-nothing", "random-baseline")
    together, apart = _entries(tmp_path / "together", *names), _entries(tmp_path / "apart", *names)
    lines: list[str] = []
    result = build_leaderboard(
        steps=["run"],
        board=BoardSettings(domains=["movies", "grocery"], trials=2),
        submissions_dir=together,
        domain_tasks=suites,
        tasks_dir=movies_tasks,
        echo=lines.append,
    )
    assert lines[:3] == [
        "      2 runs in 2 processes at once",
        "[1/2] movies: run … (in 2 processes)",  # the largest: 2 tasks x 2 trials
        "[2/2] grocery: run …",
    ]
    assert sorted(t.step for t in result.timings) == ["grocery: run", "movies: run"]
    assert sorted(r.submission for r in result.runs) == sorted(names)
    for domain in ("movies", "grocery"):  # one job: it runs in this process, as before
        build_leaderboard(
            steps=["run"],
            board=BoardSettings(domains=[domain], trials=2),
            submissions_dir=apart,
            domain_tasks=suites,
            tasks_dir=movies_tasks,
            echo=lambda _: None,
        )
    assert _trials(together) == _trials(apart)
    assert [len(v) for v in _trials(together).values()] == [2, 4]  # 1 grocery, 2 movies tasks


def test_an_inconsistent_later_suite_cancels_the_runs_already_started(tmp_path: Path) -> None:
    # Movies (two tasks) is the larger domain, so it is validated first and its run starts while
    # grocery's suite is checked; grocery's is inconsistent. The movies entry is an HTTP agent
    # whose server never answers (for longer than any test may take): unless the build
    # terminates the run it started, it waits for that answer before raising.
    release = threading.Event()

    class Silent(QuietHandler):
        def do_POST(self) -> None:
            release.wait(timeout=900)

    movies_tasks = tmp_path / "movies-tasks"
    movies_tasks.mkdir()
    for name in ("policy.md", "task_001.json", "task_002.json"):
        shutil.copyfile(TASKS_DIR / name, movies_tasks / name)
    snapshots = tmp_path / "snapshots"  # movies' validate writes its solvability file there
    shutil.copytree(SNAPSHOTS_DIR, snapshots)
    submissions = _entries(tmp_path / "submissions", "grocery-do-nothing", "random-baseline")
    lines: list[str] = []
    with serving(Silent) as server:
        entry = submissions / "random-baseline" / "submission.yaml"
        endpoint = f"http://127.0.0.1:{server.server_address[1]}/"
        entry.write_text(
            entry.read_text(encoding="utf-8").replace(
                "  kind: builtin\n  name: random\n",
                f"  kind: http\n  endpoint: {endpoint}\n  timeout_s: 900\n",
            ),
            encoding="utf-8",
        )
        try:
            with pytest.raises(TaurecError, match="the grocery task suite is inconsistent"):
                build_leaderboard(
                    steps=["validate", "run", "site"],
                    board=BoardSettings(domains=["grocery", "movies"], trials=2),
                    submissions_dir=submissions,
                    domain_tasks={
                        "grocery": _suite(tmp_path / "tasks", no_valid_recommendation=True)
                    },
                    tasks_dir=movies_tasks,
                    snapshots_dir=snapshots,
                    public_dir=tmp_path / "public",
                    echo=lines.append,
                )
        finally:
            release.set()
    steps = [line.split(" …")[0] for line in lines if line.startswith("[")]
    assert steps == ["[1/5] movies: validate", "[2/5] movies: run", "[3/5] grocery: validate"]
    assert not any(": run:" in line for line in lines)  # no run was reported as done
    assert multiprocessing.active_children() == []
    assert not (tmp_path / "public").exists()
