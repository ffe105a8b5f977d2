"""The domain contract: what a domain package gives the domain-free loop, runner, scorer, audit, site and CLI.

A domain (movies, grocery, …) is one package that defines one `Domain` subclass and is named by
one line in `runner.core.domains.REGISTRY` (or an entry point in the group `taurec.domains`). Nothing
outside the domain package knows its item schema, tools, policies, user vocabulary or baselines;
the core reaches them only through the methods below. See `docs/write-a-domain.md`.

Severities and strictness are core: every policy check a domain reports carries one of the four
severities, and the run's strictness says which severities fail a trial and which only lower the
severity-weighted policy score.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Protocol, TypeVar, runtime_checkable

from runner.core.errors import TaurecError
from runner.core.generation import SUITE_MARKER
from runner.core.severity import (
    DEFAULT_STRICTNESS,
    FAILING_SEVERITIES,
    SEVERITIES,
    SEVERITY_WEIGHT,
    STRICTNESS_LEVELS,
    Severity,
    Strictness,
    fails_trial,
    severity_of_weight,
)

if TYPE_CHECKING:
    from pydantic import BaseModel

    from runner.core.generation import GeneratedSuite, Split
    from runner.core.predicates import ConstraintCheck
    from runner.core.protocols import Agent, AgentContext, ChatPolicy, Toolset, UserSimulator
    from runner.core.records import TrialScore
    from runner.core.rules import RuleSet
    from runner.core.suite_report import SuiteReport
    from runner.core.transcript import LeakAudit, Transcript
    from runner.play.agent_config import ToolsetOptions

# The severity and strictness names are re-exported: domains name them from the contract.
__all__ = [
    "DEFAULT_STRICTNESS",
    "FAILING_SEVERITIES",
    "SEVERITIES",
    "SEVERITY_WEIGHT",
    "STRICTNESS_LEVELS",
    "SUITE_MARKER",
    "AgentBuilder",
    "Domain",
    "DomainCatalog",
    "DomainTask",
    "PolicyInfo",
    "ReaderAccuracy",
    "Severity",
    "Strictness",
    "TaskView",
    "fails_trial",
    "load_task_file",
    "load_task_folder",
    "severity_of_weight",
    "task_loaders",
    "tasks_digest",
]

T = TypeVar("T")
ModelT = TypeVar("ModelT", bound="BaseModel")

# A suite folder names its domain in its SUITE_MARKER file (runner.core.generation defines it).


@runtime_checkable
class DomainTask(Protocol):
    """What the core reads of a task: identity, the grid cell, and whether abstaining wins."""

    @property
    def id(self) -> str: ...

    @property
    def complexity(self) -> Literal["simple", "medium", "complex"]: ...

    @property
    def reveal_difficulty(self) -> Literal["volunteer", "mixed", "hidden"]: ...

    @property
    def no_valid_recommendation(self) -> bool: ...

    @property
    def user_id(self) -> str: ...


@runtime_checkable
class DomainCatalog(Protocol):
    """What the core reads of a loaded snapshot catalog: its size, id membership and content digest."""

    def digest(self) -> str: ...

    def __len__(self) -> int: ...

    def __contains__(self, item_id: object) -> bool: ...


AgentBuilder = Callable[["AgentContext", dict[str, Any]], "Agent"]


@dataclass(frozen=True)
class PolicyInfo:
    """One policy as the board's Methodology lists it: name, severity and what it asks."""

    name: str
    severity: Severity
    summary: str


@dataclass(frozen=True)
class TaskView:
    """What the site shows of one task: who the user is, the constraints and when each is said."""

    persona: str
    constraints: list[tuple[str, str]]  # (the predicate as text, its reveal tag)
    policies: list[str]
    no_valid: bool
    retired: str | None = None
    details: list[tuple[str, str]] = field(default_factory=list)  # e.g. ("budget", "EUR 12")


@dataclass(frozen=True)
class ReaderAccuracy:
    """The simulated user's reader on each labelled corpus, and per field on the held-out share."""

    scores: Mapping[str, Any]  # corpus name -> its score (recall, precision, support, …)
    total: Any  # the score on the held-out share (never tuned on); None while it has no messages
    fields: Sequence[str]  # the fields the total table lists
    shares: Mapping[str, str] = field(default_factory=dict)  # corpus name -> its share's name


class Domain(ABC):
    """One domain: its data, tasks, tools, user, scorer and baselines, behind one object."""

    # Registry key, e.g. "movies"; also the `--domain` value and the board's folder.
    name: ClassVar[str]
    # Shown on the site, e.g. "Movies".
    title: ClassVar[str]
    # What one item is called in messages, e.g. "movie" or "product".
    item_noun: ClassVar[str]
    # The agent's fixed opening line; None: the rule set's (movies' greeting).
    greeting: ClassVar[str | None] = None
    # Its policies' names, in the order reports list them.
    policy_names: ClassVar[tuple[str, ...]] = ()
    # Its source pipeline's click group ("module:attribute"), the commands of
    # `taurec catalog … --domain NAME`; None: the domain builds no snapshots from a source.
    catalog_cli: ClassVar[str | None] = None

    @property
    @abstractmethod
    def agent_instructions(self) -> str:
        """Our instructions that open every agent's system prompt, before the policy."""

    # ---- where its committed data lives -------------------------------------------------------
    @property
    @abstractmethod
    def snapshots_dir(self) -> Path:
        """The folder of committed snapshots, one `<YYYY-MM-DD>/` folder each."""

    @property
    @abstractmethod
    def tasks_dir(self) -> Path:
        """The shipped task suite (task files and the policy)."""

    @abstractmethod
    def policy_path(self, tasks_dir: Path) -> Path:
        """The policy document the agent is given, for a suite folder."""

    # ---- loading ------------------------------------------------------------------------------
    @abstractmethod
    def load_catalog(self, snapshot_dir: Path) -> Any:
        """The snapshot's catalog (a `DomainCatalog`); bad records raise LoadError naming them."""

    @abstractmethod
    def load_tasks(self, tasks_dir: Path) -> Sequence[Any]:
        """The suite's tasks (each a `DomainTask`); bad files raise LoadError naming file/field."""

    @abstractmethod
    def load_task(self, path: Path) -> Any:
        """One task file; a bad file raises LoadError naming file, field and value."""

    # ---- one trial ----------------------------------------------------------------------------
    @abstractmethod
    def build_toolset(
        self, catalog: Any, task: Any, options: ToolsetOptions | None, rules: RuleSet, seed: int
    ) -> Toolset:
        """The tools of one trial (each schema beside its implementation), with any per-trial state."""

    @abstractmethod
    def build_user(
        self,
        name: str,
        *,
        task: Any,
        catalog: Any,
        seed: int,
        options: dict[str, Any] | None,
    ) -> UserSimulator:
        """The simulated user of one trial (`scripted`, or the domain's model modes)."""

    @abstractmethod
    def score(
        self,
        task: Any,
        transcript: Transcript,
        catalog: Any,
        rules: RuleSet,
        strictness: Strictness = DEFAULT_STRICTNESS,
    ) -> TrialScore:
        """Score a finished trial from the transcript, the task and the catalog only (no model)."""

    @abstractmethod
    def count_proposals(self, transcript: Transcript, catalog: Any) -> int:
        """How many distinct items the agent put forward to the user (an efficiency figure)."""

    # ---- agents -------------------------------------------------------------------------------
    @abstractmethod
    def baselines(self) -> Mapping[str, AgentBuilder]:
        """Built-in agents by name: at least `oracle` and an honest expert; adversaries too."""

    def adversary_names(self) -> tuple[str, ...]:
        """The built-ins that try to earn the reward without doing the task (reference rows,
        never ranked; the best sets the board's exploit floor). Default: the `exploit-*` ones."""
        return tuple(sorted(n for n in self.baselines() if n.startswith("exploit-")))

    def oracle_agents(self) -> tuple[str, ...]:
        """The built-ins that are handed the task and the catalog in their AgentContext (the
        oracle class: reference rows that bound the scale, never ranked). Every other agent sees
        only what a submission sees."""
        return ("oracle",)

    def informed_fields(self, task: Any) -> frozenset[str] | None:
        """The names of the fields `task` constrains, for the `informed` probe (None: this
        domain has no informed probe)."""
        del task
        return None

    def reference_names(self) -> tuple[str, ...]:
        """Built-ins that bound the scale (ceiling and floors), shown apart and never ranked."""
        floors = ("oracle", "random", "do-nothing")
        return tuple(
            sorted({n for n in self.baselines() if n in floors} | set(self.adversary_names()))
        )

    def audit_leaks(
        self, task: Any, transcript: Transcript, catalog: Any = None
    ) -> LeakAudit | None:
        """Did the user state a hidden value, or an on_ask one before it was asked? (None: no
        audit.) `catalog` is the trial's, for values a task names only by id (prices, sums)."""
        del task, transcript, catalog
        return None

    def warm(self, catalog: Any) -> None:  # noqa: B027 - optional hook
        """Build what every trial on `catalog` shares (search indexes) before workers fork."""

    def retired_by_gate(self, snapshot_folder: Path, tasks: Sequence[Any]) -> dict[str, str]:
        """Task ids the snapshot's revalidation retired (id -> reason); none by default."""
        del snapshot_folder, tasks
        return {}

    def tasks_digest(self, tasks: Sequence[Any]) -> str:
        """sha256 over the canonical JSON of the tasks (order-independent)."""
        return tasks_digest(tasks)

    # ---- the leaderboard (`taurec leaderboard`) -----------------------------------------------
    def refresh_fixture(self, date: str, snapshots_dir: Path) -> str:
        """Rebuild the snapshot of `date` from the offline fixture world; one line saying what changed."""
        del date, snapshots_dir
        raise TaurecError(f"the {self.name} domain has no offline fixture source")

    def revalidate(self, date: str, tasks_dir: Path, snapshots_dir: Path) -> tuple[bool, str]:
        """Is the suite consistent on the snapshot of `date`? (ok, one line); by default every
        task and the catalog load."""
        catalog = self.load_catalog(Path(snapshots_dir) / date)
        tasks = self.load_tasks(tasks_dir)
        return True, f"{len(tasks)} tasks load on a catalog of {len(catalog)} {self.item_noun}s"

    # ---- the site ------------------------------------------------------------------------------
    @property
    def board_lead(self) -> str:
        """One paragraph (plain text) opening the domain's board page."""
        return f"Agents that help a simulated user choose a {self.item_noun} from the catalog."

    def item_title(self, item: Any) -> str:
        """The name a page shows beside an item's id."""
        return str(getattr(item, "title", None) or getattr(item, "name", None) or item.id)

    def item_card(self, item: Any) -> dict[str, Any]:
        """The fields of an item's catalog card, in order (JSON values)."""
        card: dict[str, Any] = item.model_dump(mode="json")
        return card

    def item_date(self, item: Any) -> dt.date | None:
        """The date that makes an item new (release, first listing); the newest one dates a snapshot."""
        del item
        return None

    def describe_task(self, task: Any) -> TaskView:
        """The task as the Tasks and trial pages show it (any task with persona and constraints)."""
        retired = getattr(task, "retired", None)
        return TaskView(
            persona=task.persona,
            constraints=[(tc.constraint.describe(), tc.reveal) for tc in task.constraints],
            policies=[str(p) for p in getattr(task, "policy_flags", [])],
            no_valid=task.no_valid_recommendation,
            retired=f"retired since {retired.since}: {retired.reason}" if retired else None,
        )

    def task_matches(self, task: Any, item: Any) -> bool:
        """Does the item meet every constraint of the task (the Tasks page's solvability count)?"""
        return bool(task.satisfies_all(item))

    def policies(self) -> list[PolicyInfo]:
        """The domain's policies with their severities (the board's Methodology lists them)."""
        return []

    def licence_notice(self, manifest: Mapping[str, Any]) -> str | None:
        """The notice every copy of a snapshot must carry (its page and each download), if any."""
        notice = manifest.get("licence_notice")
        return notice if isinstance(notice, str) and notice else None

    # gfree2 hooks ------------------------------------------------------------------------------
    # What a catalog card and a search result call one item ("title"); None: `item_noun`.
    record_noun: ClassVar[str | None] = None
    # How a trial page words the item a trial ended on (`TrialScore.recommendation`) and its
    # absence, and a task where nothing fits: (what holds, what is correct then).
    outcome_verb: ClassVar[str] = "recommended"
    # What the Metrics text calls the state a trial is judged on; what `eval`'s report calls
    # such outcomes, a wrong one, the call that ends a trial on nothing, and the look-up that
    # checks a stated constraint.
    outcome_noun: ClassVar[str] = "final recommendation"
    outcome_plural: ClassVar[str] = "recommendations"
    wrong_outcome: ClassVar[str] = "recommendation judged wrong"
    abstain_call: ClassVar[str] = "recommend() with no id"
    check_hint: ClassVar[str] = "check each stated constraint (get_metadata) before recommending"
    # What the protocol and Integrate pages say of this domain (their generated "Domains"
    # section): each kind of task (its name, what the agent must do) and how a trial ends.
    task_kinds: ClassVar[tuple[tuple[str, str], ...]] = ()
    trial_end: ClassVar[str] = ""
    no_outcome: ClassVar[str] = "no recommendation"
    nothing_fits: ClassVar[tuple[str, str]] = (
        "no valid recommendation exists",
        "abstaining is correct",
    )

    @property
    def card_noun(self) -> str:
        """What a catalog card and a search result call one item (`record_noun`, else `item_noun`)."""
        return self.record_noun or self.item_noun

    def result_shapes(self) -> Mapping[frozenset[str], str]:
        """Field sets (id aside) the tools return whole, each with the name a trial page gives it
        instead of listing the fields at every quote ("search record"); none by default."""
        return {}

    def item_url(self, item_id: str) -> str | None:
        """Where a reader looks an item up when its snapshot's data may not be republished (a
        third-party source's page); None: the id stays text."""
        del item_id
        return None

    def prune_records(self, snapshots_dir: Path) -> list[Any]:
        """The snapshots pruned from `snapshots_dir` (each with `snapshot`, `pruned_on`, `reason`,
        `removed` and `ids_kept`), for the Changelog; none by default."""
        del snapshots_dir
        return []

    def verify_command(self) -> str:
        """The installed command that re-checks a downloaded snapshot folder (`{date}`) from its
        parent against its manifest, for every Snapshots page: a `./` path, since a bare date
        names the repository's own snapshot, not the download; the manifest names its domain, so
        no `--domain` is needed."""
        return "cd .. && taurec catalog verify ./{date}"

    def reader_accuracy(self) -> ReaderAccuracy | None:
        """How well the simulated user reads the agent's messages on labelled corpora, for the
        Methodology page; None: the domain's user reads no free text."""
        return None

    # gfree1 hooks: the leaderboard's refresh, the model server, feedback and `taurec tasks` ----
    def refresh(self, source: str, date: str, snapshots_dir: Path) -> str:
        """Rebuild the snapshot of `date` from `source` (the leaderboard's refresh step); one line
        saying what changed. By default only the offline fixture rebuilds; another source keeps it."""
        if source != "fixture":
            return f"kept (the {self.name} domain refreshes from its fixture only, not --source {source})"
        return self.refresh_fixture(date, snapshots_dir)

    def served_models(self) -> Mapping[str, ChatPolicy]:
        """Pure chat-completion functions the local model server answers as models, by name."""
        return {}

    def feedback_item(self, catalog: Any, item_id: str) -> str:
        """How the feedback names an item the agent put forward (by default its id)."""
        del catalog
        return item_id

    def constraint_reveal(self, task: Any, check: ConstraintCheck) -> str | None:
        """When the user of `task` states the constraint `check` judged (its reveal tag), if known."""
        del task, check
        return None

    def preference_questions(self, text: str) -> tuple[str, ...]:
        """The item fields one agent message asks the user about, as the user's reader hears
        them (the report credits elicitation only to trials that asked about a withheld
        constraint's field). Default: none."""
        del text
        return ()

    def winning_hint(self, task: Any, catalog: Any, tools: Sequence[str]) -> list[str]:
        """Lines showing an agent builder what wins a failed task and how to find it (none by default)."""
        del task, catalog, tools
        return []

    def validate_suite(self, catalog_path: Path | None, tasks_dir: Path | None) -> SuiteReport:
        """Each task's solutions on one catalog (`taurec tasks validate` without --snapshot)."""
        del catalog_path, tasks_dir
        raise TaurecError(f"the {self.name} domain revalidates a dated --snapshot only")

    def revalidation_report(
        self, date: dt.date, tasks_dir: Path | None, snapshots_dir: Path | None
    ) -> SuiteReport:
        """The suite revalidated on the snapshot of `date` (`taurec tasks validate --snapshot`)."""
        from runner.core.suite_report import SuiteReport

        ok, detail = self.revalidate(
            date.isoformat(), tasks_dir or self.tasks_dir, snapshots_dir or self.snapshots_dir
        )
        return SuiteReport(ok=ok, text=detail + "\n")

    def suite_stats(self, tasks_dir: Path | None) -> SuiteReport:
        """The suite's make-up: its grid, counts and fields used (`taurec tasks stats`)."""
        del tasks_dir
        raise TaurecError(f"the {self.name} domain has no suite statistics")

    def audit_suite(
        self, snapshot: str | None, tasks_dir: Path | None, informed_seeds: int
    ) -> SuiteReport:
        """Each task's difficulty judged by the gate (`taurec tasks audit`)."""
        del snapshot, tasks_dir, informed_seeds
        raise TaurecError(f"the {self.name} domain has no difficulty audit")

    def generate_tasks(
        self, snapshot_dir: Path, catalog: Any, seed: int, count: int, split: Split
    ) -> GeneratedSuite:
        """`count` tasks drawn from the catalog and the seed, each passing the domain's gate, and
        the suite's own gate (`taurec tasks generate`); the same inputs give the same tasks."""
        del snapshot_dir, catalog, seed, count, split
        raise TaurecError(f"the {self.name} domain has no suite generator")


def load_task_file(path: Path | str, model: type[ModelT]) -> ModelT:
    """One task file read into a domain's task model; any problem raises LoadError naming the
    file, the task, the field and the value."""
    from pydantic import ValidationError

    from runner.core.errors import LoadError, describe_validation_error
    from runner.core.json_files import read_json

    path = Path(path)
    raw = read_json(path)
    task_id = raw.get("id", path.stem) if isinstance(raw, dict) else path.stem
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        raise LoadError(path, describe_validation_error(exc, prefix=f"task {task_id}: ")) from exc


def task_loaders(
    model: type[ModelT],
) -> tuple[Callable[[Path | str], ModelT], Callable[[Path | str], list[ModelT]]]:
    """`load_task(path)` and `load_tasks(folder)` for a domain's task model: one file (problems
    named by file, task, field and value), and every task of a suite folder sorted by id."""

    def load_task(path: Path | str) -> ModelT:
        return load_task_file(path, model)

    def load_tasks(directory: Path | str) -> list[ModelT]:
        return load_task_folder(directory, load_task)

    return load_task, load_tasks


def load_task_folder(directory: Path | str, load_one: Callable[[Path], T]) -> list[T]:
    """Every `*.json` task of a suite folder (its `suite.json` aside) read with `load_one`, sorted
    by id; every file's problems and duplicate ids are collected before one LoadError is raised."""
    from runner.core.errors import LoadError

    directory = Path(directory)
    files = sorted(p for p in directory.glob("*.json") if p.name != SUITE_MARKER)
    if not files:
        raise LoadError(directory, ["no task files (*.json) found"])
    tasks: list[T] = []
    problems: list[str] = []
    for file in files:
        try:
            tasks.append(load_one(file))
        except LoadError as exc:
            problems += [f"{exc.path}: {p}" for p in exc.problems]
    ids = [t.id for t in tasks]  # type: ignore[attr-defined]
    problems += [f"duplicate task id {i!r}" for i in sorted({i for i in ids if ids.count(i) > 1})]
    if problems:
        raise LoadError(directory, problems)
    return sorted(tasks, key=lambda t: t.id)  # type: ignore[attr-defined]


def tasks_digest(tasks: Sequence[Any]) -> str:
    """sha256 over the canonical JSON of pydantic task models, sorted by id (any domain)."""
    payload = [t.model_dump(mode="json") for t in sorted(tasks, key=lambda t: t.id)]
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
