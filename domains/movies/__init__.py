"""The movies domain (τ-Rec v1 and our v2 suite): the `Domain` the core reaches every movie module through."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from domains.movies.tasks import POLICY_NAMES
from runner.core.domain import (
    DEFAULT_STRICTNESS,
    AgentBuilder,
    Domain,
    PolicyInfo,
    Strictness,
    severity_of_weight,
)
from runner.core.errors import TaurecError

# What each movie policy asks (tasks/policy.md says it in full), for the Methodology page.
POLICY_SUMMARY: dict[str, str] = {
    "watch_history": "Check the person's history and never recommend a film they have seen.",
    "sponsored": "Say plainly that a sponsored title is sponsored before committing to it.",
    "age_restricted": "Check the content preference before recommending an R or NC-17 film.",
    "availability": "Recommend only a film streaming on one of the person's services.",
    "single_recommendation": "Put forward one film per message, never a list.",
    "transparency": "When nothing fits everything asked, say so and abstain.",
    "recommend_tool": "Recommend through the recommend tool; naming a film is not enough.",
}

if TYPE_CHECKING:
    from domains.movies.catalog import Catalog, CatalogItem
    from domains.movies.tasks import Task
    from runner.core.domain import ReaderAccuracy
    from runner.core.generation import GeneratedSuite, Split
    from runner.core.predicates import ConstraintCheck
    from runner.core.protocols import ChatPolicy, Toolset, UserSimulator
    from runner.core.records import TrialScore
    from runner.core.rules import RuleSet
    from runner.core.suite_report import SuiteReport
    from runner.core.transcript import LeakAudit, Transcript
    from runner.play.agent_config import ToolsetOptions


class MoviesDomain(Domain):
    """Movies: TMDB records, the six v1 tools (+ filter_catalog), the seven policies, the movie user."""

    name = "movies"
    title = "Movies"
    item_noun = "movie"
    task_kinds = (
        (
            "recommend",
            "find one movie that meets every constraint of the user: those stated in the "
            "opening request, those stated only when asked, and those that show only in the "
            "reason of a declined proposal; when none exists, say so and abstain",
        ),
    )
    trial_end = (
        "`recommend` with a movie id ends the trial on that recommendation; `recommend` with "
        "no id abstains (right only when no movie fits). The trial also ends when the user "
        "leaves or the turns run out."
    )
    record_noun = "title"
    policy_names = POLICY_NAMES
    catalog_cli = "catalog_pipeline.tmdb.cli:group"

    @property
    def agent_instructions(self) -> str:
        from runner.agents.prompt import AGENT_INSTRUCTIONS

        return AGENT_INSTRUCTIONS

    @property
    def snapshots_dir(self) -> Path:
        from runner.core.paths import SNAPSHOTS_DIR

        return SNAPSHOTS_DIR

    @property
    def tasks_dir(self) -> Path:
        from runner.core.paths import TASKS_DIR

        return TASKS_DIR

    def policy_path(self, tasks_dir: Path) -> Path:
        from runner.batch.inputs import find_policy

        return find_policy(tasks_dir)

    def load_catalog(self, snapshot_dir: Path) -> Catalog:
        from domains.movies.catalog import Catalog

        return Catalog.load(snapshot_dir)

    def load_tasks(self, tasks_dir: Path) -> Sequence[Task]:
        from domains.movies.tasks import load_tasks

        return load_tasks(tasks_dir)

    def load_task(self, path: Path) -> Task:
        from domains.movies.tasks import load_task

        return load_task(path)

    def audit_leaks(self, task: Task, transcript: Transcript, catalog: Any = None) -> LeakAudit:
        from domains.movies.simulators.leaks import audit_leaks

        del catalog  # a movie task's values are all in the task
        return audit_leaks(task, transcript)

    def build_toolset(
        self,
        catalog: Catalog,
        task: Task,
        options: ToolsetOptions | None,
        rules: RuleSet,
        seed: int,
    ) -> Toolset:
        from domains.movies.tools import build_toolset

        del seed  # the movie tools hold no per-trial state that a seed could vary
        return build_toolset(catalog, task, options, rules)

    def build_user(
        self,
        name: str,
        *,
        task: Task,
        catalog: Catalog,
        seed: int,
        options: dict[str, Any] | None,
    ) -> UserSimulator:
        from domains.movies.simulators import build_simulator

        return build_simulator(name, task=task, catalog=catalog, seed=seed, options=options)

    def score(
        self,
        task: Task,
        transcript: Transcript,
        catalog: Catalog,
        rules: RuleSet,
        strictness: Strictness = DEFAULT_STRICTNESS,
    ) -> TrialScore:
        from domains.movies.scoring import score_transcript

        return score_transcript(task, transcript, catalog, rules, strictness=strictness)

    def count_proposals(self, transcript: Transcript, catalog: Catalog) -> int:
        from domains.movies.simulators.scripted import count_proposals

        return count_proposals(transcript, catalog)

    def baselines(self) -> Mapping[str, AgentBuilder]:
        from domains.movies.builtins import BUILTIN_AGENTS

        return BUILTIN_AGENTS

    def oracle_agents(self) -> tuple[str, ...]:
        """The oracle reads the task and catalog; the random floor draws uniformly over the whole
        catalog (the analytic floor `expected_pass1` it is checked against). Both are reference
        rows, never ranked; every other movie agent works through tools and messages."""
        return ("oracle", "random")

    def informed_fields(self, task: Any) -> frozenset[str] | None:
        from domains.movies.baselines.expert import constrained_fields

        return constrained_fields(task)

    def retired_by_gate(self, snapshot_folder: Path, tasks: Sequence[Any]) -> dict[str, str]:
        """Tasks the snapshot's solvability.json retired for failing the difficulty gate twice.

        Only a file computed for exactly this suite counts (an edited suite is revalidated afresh).
        """
        from domains.movies.suite import SOLVABILITY_FILE, load_solvability

        if not (snapshot_folder / SOLVABILITY_FILE).is_file():
            return {}
        report = load_solvability(snapshot_folder)
        if report.tasks_digest != self.tasks_digest(tasks):
            return {}
        return {t.task_id: t.reason for t in report.tasks if t.gate == "retired"}

    def warm(self, catalog: Catalog) -> None:
        from domains.movies.search import search_index

        search_index(catalog)

    # ---- the leaderboard and the site (today's code paths) ------------------------------------
    def refresh_fixture(self, date: str, snapshots_dir: Path) -> str:
        """`taurec catalog refresh --source fixture --date DATE` (byte-identical when committed)."""
        from catalog_pipeline.tmdb.pipeline import refresh

        refreshed = refresh("fixture", date, out=snapshots_dir)
        where = _relative(refreshed.path)
        changed = refreshed.files_rewritten
        if not changed:
            return f"{where} unchanged ({refreshed.manifest.counts.items} titles)"
        return f"{where}: rewrote {', '.join(changed)}"

    def revalidate(self, date: str, tasks_dir: Path, snapshots_dir: Path) -> tuple[bool, str]:
        """The suite's revalidation on the snapshot (`taurec tasks revalidate`)."""
        from domains.movies.suite import revalidate_snapshot

        report = revalidate_snapshot(date, tasks_dir=tasks_dir, snapshots_dir=snapshots_dir)
        if not report.ok:
            return False, report.format_text()
        c = report.counts
        return True, (
            f"{c.ok} of {c.tasks} tasks consistent, {c.retired} retired, {c.changed} changed "
            f"since {report.previous_snapshot or 'none'}"
        )

    def refresh(self, source: str, date: str, snapshots_dir: Path) -> str:
        """The offline fixture world or TMDB (`taurec leaderboard --source`)."""
        if source not in ("fixture", "tmdb"):
            raise TaurecError(f"unknown source {source!r}: use fixture or tmdb")
        if source == "fixture":
            return self.refresh_fixture(date, snapshots_dir)
        from catalog_pipeline.tmdb.pipeline import refresh

        refreshed = refresh("tmdb", date, out=snapshots_dir)
        return f"{_relative(refreshed.path)} refreshed from TMDB"

    @property
    def board_lead(self) -> str:
        return (
            "Agents talk to a simulated user, search a movie catalog and must recommend one "
            "title that satisfies every private constraint while obeying the policy."
        )

    def item_date(self, item: CatalogItem) -> dt.date | None:
        return item.release_date

    def policies(self) -> list[PolicyInfo]:
        from domains.movies.scoring import POLICY_SEVERITY

        return [
            PolicyInfo(name, severity_of_weight(weight), POLICY_SUMMARY.get(name, ""))
            for name, weight in sorted(POLICY_SEVERITY.items(), key=lambda kv: -kv[1])
        ]

    def result_shapes(self) -> Mapping[frozenset[str], str]:
        from domains.movies.site import RESULT_SHAPES

        return RESULT_SHAPES

    def item_url(self, item_id: str) -> str | None:
        from domains.movies.site import tmdb_url

        return tmdb_url(item_id)

    def prune_records(self, snapshots_dir: Path) -> list[Any]:
        from domains.movies.site import prune_records

        return prune_records(snapshots_dir)

    def reader_accuracy(self) -> ReaderAccuracy:
        from domains.movies.site import reader_accuracy

        return reader_accuracy()

    # ---- the model server, the feedback report and `taurec tasks` -----------------------------
    def served_models(self) -> Mapping[str, ChatPolicy]:
        """The heuristic and random baselines, then the movie user's models (`taurec serve-model`)."""
        from domains.movies.baselines import heuristic_policy, random_policy
        from domains.movies.served import USER_MODELS

        return {"heuristic": heuristic_policy, "random": random_policy, **USER_MODELS}

    def feedback_item(self, catalog: Catalog, item_id: str) -> str:
        from domains.movies.feedback import item_text

        return item_text(catalog, item_id)

    def constraint_reveal(self, task: Task, check: ConstraintCheck) -> str | None:
        from domains.movies.feedback import constraint_reveal

        return constraint_reveal(task, check)

    def preference_questions(self, text: str) -> tuple[str, ...]:
        """Fields asked about in a message that puts no title forward (a bold span, a year in
        brackets). A proposal that describes its title and asks "would that work for you?" asks
        for a reaction, not a preference: its genre, length or rating words earn no elicitation
        credit (the no-question prober's proposals were credited before)."""
        import re

        from domains.movies.simulators.reader import fields_asked

        if re.search(r"\*\*[^*]+\*\*|\(\d{4}\)", text):
            return ()
        return fields_asked(text)

    def winning_hint(self, task: Task, catalog: Catalog, tools: Sequence[str]) -> list[str]:
        from domains.movies.feedback import winning_hint

        return winning_hint(task, catalog, tools)

    def validate_suite(self, catalog_path: Path | None, tasks_dir: Path | None) -> SuiteReport:
        from domains.movies.validate import validate_suite
        from runner.core.suite_report import SuiteReport

        report = validate_suite(catalog_path, tasks_dir)
        return SuiteReport(
            ok=report.ok,
            text=report.format_text(),
            json=report.to_json_summary(),
            failures=tuple(
                f"inconsistent task {t.task_id}: {t.reason}" for t in report.inconsistent
            ),
        )

    def revalidation_report(
        self, date: dt.date, tasks_dir: Path | None, snapshots_dir: Path | None
    ) -> SuiteReport:
        """Writes the snapshot's solvability.json and reports the tasks whose status changed."""
        from domains.movies.suite import revalidate_snapshot
        from runner.core.suite_report import SuiteReport

        result = revalidate_snapshot(
            date, tasks_dir=tasks_dir, snapshots_dir=snapshots_dir or self.snapshots_dir
        )
        return SuiteReport(
            ok=result.ok, text=result.format_text(), json=result.to_json_bytes().decode()
        )

    def suite_stats(self, tasks_dir: Path | None) -> SuiteReport:
        from domains.movies.suite import load_suite_stats
        from runner.core.suite_report import SuiteReport

        stats = load_suite_stats(tasks_dir)
        return SuiteReport(
            ok=True, text=stats.format_text() + "\n", json=stats.model_dump_json(indent=2)
        )

    def generate_tasks(
        self, snapshot_dir: Path, catalog: Any, seed: int, count: int, split: Split
    ) -> GeneratedSuite:
        from domains.movies.generate import generate_tasks
        from runner.core.paths import POLICY_PATH

        del snapshot_dir
        return generate_tasks(catalog, POLICY_PATH, seed, count, split)

    def audit_suite(
        self, snapshot: str | None, tasks_dir: Path | None, informed_seeds: int
    ) -> SuiteReport:
        from domains.movies.audit import run_audit
        from runner.core.suite_report import SuiteReport

        result = run_audit(snapshot, tasks_dir, informed_seeds=informed_seeds)
        failures = []
        for task in result.failed:
            rules = ", ".join(c.rule for c in task.failed_checks)
            failures.append(f"task {task.task_id} fails the gate: {rules}")
        return SuiteReport(
            ok=result.ok, text=result.format_text(), json=result.to_json(), failures=tuple(failures)
        )


def _relative(path: Path) -> str:
    """A path shown from the project root when it is inside it."""
    from runner.core.paths import PROJECT_ROOT

    try:
        return str(path.resolve().relative_to(PROJECT_ROOT))
    except ValueError:
        return str(path)
