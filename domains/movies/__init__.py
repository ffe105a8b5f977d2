"""The movies domain (τ-Rec v1 and our v2 suite): the `Domain` the core reaches every movie module through."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from domains.movies.tasks import POLICY_NAMES
from runner.domain import DEFAULT_STRICTNESS, AgentBuilder, Domain, Strictness

if TYPE_CHECKING:
    from domains.movies.catalog import Catalog
    from domains.movies.tasks import Task
    from runner.agent_config import ToolsetOptions
    from runner.protocols import Toolset, UserSimulator
    from runner.records import TrialScore
    from runner.rules import RuleSet
    from runner.transcript import LeakAudit, Transcript


class MoviesDomain(Domain):
    """Movies: TMDB records, the six v1 tools (+ filter_catalog), the seven policies, the movie user."""

    name = "movies"
    title = "Movies"
    item_noun = "movie"
    policy_names = POLICY_NAMES

    @property
    def agent_instructions(self) -> str:
        from runner.agents.prompt import AGENT_INSTRUCTIONS

        return AGENT_INSTRUCTIONS

    @property
    def snapshots_dir(self) -> Path:
        from runner.paths import SNAPSHOTS_DIR

        return SNAPSHOTS_DIR

    @property
    def tasks_dir(self) -> Path:
        from runner.paths import TASKS_DIR

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
