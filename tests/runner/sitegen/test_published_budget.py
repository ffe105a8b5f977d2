"""The site budget counts what is published (trial pages and downloads, as written), per trial and
per entry whatever its trial count, on real runs of the loop on our committed catalog:

- an honest agent that spends its whole tool budget on ordinary searches (80 a trial, ~9 KB a
  result) stores far more than 512 KB a trial, yet is published within the default budget;
- an entry running 64 trials per task of replies just under the loop's output caps (250,000 `&`
  as text and as an argument) stays under its per-entry budget, and when the budget is smaller it
  is left off with the reason on its entry page while the rest of the board is built.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from domains.movies.baselines import HeuristicAgent
from runner.batch import run_submissions
from runner.batch.entrant import Entrant
from runner.batch.store import TRIALS_FILE
from runner.core.paths import SNAPSHOTS_DIR, TASKS_DIR
from runner.core.protocols import AgentContext, AgentReply, ChatMessage, ToolCallRequest, ToolSchema
from runner.core.transcript import ComponentSpec
from runner.sitegen import BuildReport, build_site
from runner.sitegen.bounds import DEFAULT_ENTRY_BUDGET_MB, DEFAULT_RUN_BUDGET_KB_PER_TRIAL
from runner.sitegen.trial_pages import MAX_TRANSCRIPTS_PER_TASK

DATE = "2026-11-01"
SEARCHES = 80  # the v2 rules' tool budget per trial
# 80 different ordinary queries (a genre and a theme), what a thorough agent would try.
GENRES = ("drama", "comedy", "thriller", "action", "romance", "crime", "adventure", "family")
THEMES = (
    "island",
    "winter",
    "river",
    "school",
    "ghost",
    "doctor",
    "wedding",
    "train",
    "dog",
    "spy",
)
QUERIES = [f"{genre} {theme}" for theme in THEMES for genre in GENRES]
assert len(set(QUERIES)) == SEARCHES
FULL_SUITE_TASKS = len(list(TASKS_DIR.glob("*.json")))


def _seen_ids(messages: list[ChatMessage]) -> list[str]:
    text = " ".join(str(m.get("content") or "") for m in messages if m.get("role") == "tool")
    return list(dict.fromkeys(re.findall(r'"id": ?"(tmdb_\d+)"', text)))


class _Counting:
    """A test agent built from the trial's context that counts its steps; `NAME` names it."""

    NAME = ""

    def __init__(self, context: AgentContext) -> None:
        self._steps = 0

    @property
    def spec(self) -> ComponentSpec:
        return ComponentSpec(name=self.NAME)


class Thorough(_Counting):
    """Honest, and thorough: 80 different searches (8 a step), then it recommends the first
    title it found. Every call is an ordinary search; it spends its whole tool budget."""

    NAME = "thorough"

    async def step(self, messages: list[ChatMessage], tools: list[ToolSchema]) -> AgentReply:
        self._steps += 1
        if self._steps <= SEARCHES // 8:
            first = (self._steps - 1) * 8
            return AgentReply(
                tool_calls=[
                    ToolCallRequest(
                        id=f"s{first + i}",
                        name="search_catalog",
                        arguments={"query": QUERIES[first + i]},
                    )
                    for i in range(8)
                ]
            )
        found = _seen_ids(messages)
        pick = found[0] if found else None
        return AgentReply(
            tool_calls=[ToolCallRequest(id="r", name="recommend", arguments={"item_id": pick})]
        )


class Flooding(_Counting):
    """Replies just under the loop's output caps: 250,000 `&` as its text and as the query of a
    search, then gives up."""

    NAME = "flooding"

    async def step(self, messages: list[ChatMessage], tools: list[ToolSchema]) -> AgentReply:
        self._steps += 1
        if self._steps == 1:
            flood = "&" * 250_000
            call = ToolCallRequest(id="f", name="search_catalog", arguments={"query": flood})
            return AgentReply(content=flood, tool_calls=[call])
        return AgentReply(
            tool_calls=[ToolCallRequest(id="r", name="recommend", arguments={"item_id": None})]
        )


@dataclass
class World:
    root: Path
    submissions: Path
    tasks: Path

    def build(self, name: str, **budgets: Any) -> BuildReport:
        return build_site(
            submissions=self.submissions,
            snapshots=SNAPSHOTS_DIR,
            tasks=self.tasks,
            out=self.root / name,
            docs=self.root / f"{name}-docs",
            workers=2,
            **budgets,
        )


def _entrant(
    submissions: Path, slug: str, trials: int, make: Callable[[AgentContext], Any]
) -> Entrant:
    folder = submissions / slug
    folder.mkdir(parents=True)
    (folder / "submission.yaml").write_text(
        f"schema_version: 1\nslug: {slug}\ndisplay_name: Test {slug}\ncontact: {{name: t}}\n"
        f"agent: {{kind: builtin, name: heuristic}}\ntrials: {trials}\n",
        encoding="utf-8",
    )
    return Entrant(
        slug=slug,
        results_root=folder / "results",
        agent=f"python:{slug}",
        trials=trials,
        make_agent=make,
    )


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    root = tmp_path_factory.mktemp("published")
    tasks = root / "tasks"
    tasks.mkdir()
    chosen = sorted(TASKS_DIR.glob("*.json"))[:3]
    for file in chosen:
        shutil.copy(file, tasks / file.name)
    shutil.copy(TASKS_DIR / "policy.md", tasks / "policy.md")
    submissions = root / "submissions"
    plan = [
        ("thorough", 2, Thorough, [p.stem for p in chosen]),
        ("flooding", 64, Flooding, [chosen[0].stem, chosen[1].stem]),
        ("plain", 2, lambda c: HeuristicAgent(c, {}), [p.stem for p in chosen]),
    ]
    shared = {
        "snapshot": DATE,
        "tasks_dir": tasks,
        "snapshots_dir": SNAPSHOTS_DIR,
        "concurrency": 8,
    }
    for slug, trials, make, ids in plan:
        entrant = _entrant(submissions, slug, trials, make)
        run_submissions([entrant], trials=trials, task_ids=ids, **shared)  # type: ignore[arg-type]
    return World(root, submissions, tasks)


def _board(report: BuildReport) -> set[str]:
    rows = json.loads((report.out / "downloads" / f"leaderboard-{DATE}.json").read_text())
    return {row["slug"] for row in rows}


def _published(report: BuildReport, slug: str) -> int:
    """What one entry's run put on the built site: its trial pages and its downloads."""
    pages = report.out / "trials" / slug / DATE
    files = [*pages.glob("*.html"), *(report.out / "downloads" / "trials" / DATE).glob(f"{slug}.*")]
    return sum(f.stat().st_size for f in files)


def _stored(world: World, slug: str) -> int:
    """What the run's results folder holds: its records and its transcripts, uncompressed."""
    import gzip

    folder = world.submissions / slug / "results" / DATE
    total = (folder / TRIALS_FILE).stat().st_size
    for archive in (folder / "transcripts").rglob("*.gz"):
        with gzip.open(archive, "rb") as stream:
            while chunk := stream.read(1 << 20):
                total += len(chunk)
    return total


def test_an_honest_run_that_spends_its_tool_budget_is_published(world: World) -> None:
    report = world.build("default")
    assert _board(report) == {"thorough", "flooding", "plain"}
    trials = 3 * 2
    stored = _stored(world, "thorough")
    # Real length: ~9 KB a search result, 80 a trial; the old budget (stored bytes) dropped it.
    assert stored / trials > DEFAULT_RUN_BUDGET_KB_PER_TRIAL * 1e3
    records = (world.submissions / "thorough" / "results" / DATE / TRIALS_FILE).read_text()
    assert all(
        json.loads(line)["efficiency"]["tool_calls"] >= SEARCHES for line in records.splitlines()
    )
    published = _published(report, "thorough")
    assert published / trials < DEFAULT_RUN_BUDGET_KB_PER_TRIAL * 1e3 / 2
    assert not [n for n in report.notes if "budget" in n]


def test_near_cap_replies_are_shown_compactly_and_stay_under_the_entry_budget(world: World) -> None:
    report = world.build("default-again")
    page = next((report.out / "trials" / "flooding" / DATE).glob("*.html")).read_text()
    # The 250,000 `&` (1.25 MB each once escaped) are cut, with a note saying how much is not shown.
    assert page.count("&amp;") < 20_000
    assert "… 249,200 more characters not shown here" in page  # the reply: 800 `&` shown
    assert "… 249,805 more characters not shown here" in page  # the call: 208 characters shown
    assert "transcripts download</a> holds them." in page
    # 64 trials a task: transcripts of the first 8 only, the others listed with their verdicts.
    assert page.count('class="taurec-transcript"') == MAX_TRANSCRIPTS_PER_TASK
    assert page.count('class="taurec-trial-section"') == 64
    # Per task, what the entry publishes: over the whole suite, well inside its budget.
    per_task = _published(report, "flooding") / 2
    assert per_task * FULL_SUITE_TASKS < DEFAULT_ENTRY_BUDGET_MB * 1e6 / 4


def test_an_entry_over_its_budget_is_left_off_with_the_reason_on_its_page(world: World) -> None:
    measured = world.build("measure")
    flooding, thorough = _published(measured, "flooding"), _published(measured, "thorough")
    assert flooding > thorough > _published(measured, "plain")
    report = world.build("tight", max_entry_mb=(flooding + thorough) / 2 / 1e6)
    assert _board(report) == {"thorough", "plain"}
    assert not (report.out / "trials" / "flooding").exists()
    assert not list((report.out / "downloads" / "trials" / DATE).glob("flooding.*"))
    entry = (report.out / "entries" / "flooding.html").read_text()
    assert "No results yet for this entry." not in entry
    assert f"Snapshot {DATE}: not published" in entry
    assert "over the per-entry site budget of" in entry
    assert "(--max-entry-mb, whatever the trial count)" in entry
    # The rest of the board is built as usual.
    assert (report.out / "entries" / "thorough.html").exists()
    assert (report.out / "trials" / "plain" / DATE).is_dir()


def test_a_run_over_the_per_trial_budget_is_left_off_with_the_reason_on_its_page(
    world: World,
) -> None:
    report = world.build("per-trial", max_run_kb_per_trial=35)
    assert "thorough" not in _board(report)
    assert "plain" in _board(report)
    entry = (report.out / "entries" / "thorough.html").read_text()
    assert "over the per-trial site budget of 35 KB (--max-run-kb-per-trial)" in entry
    notes = [n for n in report.notes if "per-trial site budget" in n]
    assert any("thorough/results/2026-11-01" in n for n in notes)
