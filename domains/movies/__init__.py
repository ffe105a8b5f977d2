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
    from runner.core.protocols import Toolset, UserSimulator
    from runner.core.records import TrialScore
    from runner.core.rules import RuleSet
    from runner.core.transcript import LeakAudit, Transcript
    from runner.play.agent_config import ToolsetOptions


class MoviesDomain(Domain):
    """Movies: TMDB records, the six v1 tools (+ filter_catalog), the seven policies, the movie user."""

    name = "movies"
    title = "Movies"
    item_noun = "movie"
    record_noun = "title"
    policy_names = POLICY_NAMES
    catalog_cli = "catalog_pipeline.cli:group"

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

    def audit_leaks(self, task: Task, transcript: Transcript) -> LeakAudit:
        from domains.movies.simulators.leaks import audit_leaks

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
        from catalog_pipeline.pipeline import refresh
        from runner.core.paths import PROJECT_ROOT

        refreshed = refresh("fixture", date, out=snapshots_dir)
        try:
            where = str(refreshed.path.resolve().relative_to(PROJECT_ROOT))
        except ValueError:
            where = str(refreshed.path)
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

    def verify_command(self) -> str:
        from domains.movies.site import verify_command

        return verify_command()

    def reader_accuracy(self) -> ReaderAccuracy:
        from domains.movies.site import reader_accuracy

        return reader_accuracy()
