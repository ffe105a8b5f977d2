"""The grocery / retail domain: a shopping assistant that recommends products and acts on a per-trial store."""

from __future__ import annotations

import datetime as dt
import importlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from domains.grocery.tasks import GROCERY_POLICY_NAMES, TASK_KINDS
from runner.core.domain import (
    DEFAULT_STRICTNESS,
    AgentBuilder,
    Domain,
    PolicyInfo,
    Strictness,
    TaskView,
)
from runner.core.errors import TaurecError

if TYPE_CHECKING:
    from runner.core.generation import GeneratedSuite, Split
    from runner.core.predicates import ConstraintCheck
    from runner.core.protocols import ChatPolicy, Toolset, UserSimulator
    from runner.core.records import TrialScore
    from runner.core.rules import RuleSet
    from runner.core.suite_report import SuiteReport
    from runner.core.transcript import LeakAudit, Transcript
    from runner.play.agent_config import ToolsetOptions

_HERE = Path(__file__).resolve().parent

# Opens every grocery agent's system prompt, before the policy document.
AGENT_INSTRUCTIONS = (
    "You are the shopping assistant of an online grocery store. Find products that meet every "
    "need the shopper has (ask about the ones they have not said), using the product tools; "
    "before you suggest any product, ask whether they have a food allergy unless they have "
    "told you; "
    "never guess what a product contains or costs. Put a product in the basket, place an order, "
    "substitute an item or process a return only after the shopper has clearly said yes to that "
    "exact action. Follow the store policy below."
)


def _lazy(module: str, attribute: str, what: str) -> Any:
    """`module.attribute`, imported on first use; a clear error while it does not exist."""
    try:
        return getattr(importlib.import_module(module), attribute)
    except (ImportError, AttributeError) as exc:
        raise TaurecError(f"{what} ({module}.{attribute}) is not available: {exc}") from exc


class GroceryDomain(Domain):
    """Grocery: products from Open Food Facts (+ Open Prices), a per-trial store, write tools,
    final-state scoring and policies with severities."""

    name: ClassVar[str] = "grocery"
    title: ClassVar[str] = "Grocery"
    item_noun: ClassVar[str] = "product"
    greeting: ClassVar[str | None] = (
        "Hello! I'm the shop's assistant: I can find products, check stock, take an order or "
        "handle a return. What can I do for you today?"
    )
    policy_names: ClassVar[tuple[str, ...]] = GROCERY_POLICY_NAMES
    catalog_cli = "domains.grocery.cli:group"
    # A trial ends on the order it placed (the scorer's `recommendation` is the ordered id).
    outcome_verb: ClassVar[str] = "ordered"
    outcome_noun: ClassVar[str] = "final order or return"
    task_kinds: ClassVar[tuple[tuple[str, str], ...]] = TASK_KINDS
    trial_end: ClassVar[str] = (
        "`finish` (one or two sentences for the shopper) or `transfer_to_human` (handed to a "
        "person) ends the trial (stop reason `completed`); so do the shopper leaving "
        "(`user_left`) and the turn limit. A refused call answers with an `error` naming the "
        "argument and value, and changes nothing. An order, substitution or return task is "
        "scored on what was ordered or returned; an account task on its final database "
        "(profiles, orders, balances) compared field by field with the one the task's gold "
        "actions leave on a fresh store, plus every sum of money it moved said to the shopper; "
        "every kind also on the policies (a write without the shopper's yes to that stated "
        "change fails the trial)."
    )
    outcome_plural: ClassVar[str] = "orders and returns"
    wrong_outcome: ClassVar[str] = "order or return judged wrong"
    abstain_call: ClassVar[str] = "finish() with nothing ordered"
    check_hint: ClassVar[str] = (
        "check each stated need (get_product) before putting a product forward"
    )
    no_outcome: ClassVar[str] = "no single product ordered"
    nothing_fits: ClassVar[tuple[str, str]] = (
        "no valid product exists",
        "telling the shopper so and ordering nothing is correct",
    )

    @property
    def agent_instructions(self) -> str:
        return AGENT_INSTRUCTIONS

    @property
    def snapshots_dir(self) -> Path:
        return _HERE / "snapshots"

    @property
    def tasks_dir(self) -> Path:
        return _HERE / "tasks"

    def policy_path(self, tasks_dir: Path) -> Path:
        return Path(tasks_dir) / "policy.md"

    def load_catalog(self, snapshot_dir: Path) -> Any:
        from domains.grocery.catalog import load_catalog

        return load_catalog(snapshot_dir)

    def load_tasks(self, tasks_dir: Path) -> Sequence[Any]:
        from domains.grocery.tasks import load_tasks

        return load_tasks(tasks_dir)

    def load_task(self, path: Path) -> Any:
        from domains.grocery.tasks import load_task

        return load_task(path)

    def audit_leaks(self, task: Any, transcript: Transcript, catalog: Any = None) -> LeakAudit:
        from domains.grocery.user.leaks import audit_leaks

        return audit_leaks(task, transcript, catalog)

    def build_toolset(
        self, catalog: Any, task: Any, options: ToolsetOptions | None, rules: RuleSet, seed: int
    ) -> Toolset:
        from domains.grocery.tools import build_toolset

        return build_toolset(catalog, task, options, rules, seed)

    def build_user(
        self,
        name: str,
        *,
        task: Any,
        catalog: Any,
        seed: int,
        options: dict[str, Any] | None,
    ) -> UserSimulator:
        build_user = _lazy("domains.grocery.user", "build_user", "the grocery simulated user")
        user: UserSimulator = build_user(
            name, task=task, catalog=catalog, seed=seed, options=options
        )
        return user

    def score(
        self,
        task: Any,
        transcript: Transcript,
        catalog: Any,
        rules: RuleSet,
        strictness: Strictness = DEFAULT_STRICTNESS,
    ) -> TrialScore:
        from domains.grocery.scoring import score

        return score(task, transcript, catalog, rules, strictness)

    def count_proposals(self, transcript: Transcript, catalog: Any) -> int:
        from domains.grocery.scoring import count_proposals

        return count_proposals(transcript, catalog)

    def constraint_reveal(self, task: Any, check: ConstraintCheck) -> str | None:
        """The reveal tag of the task's constraint that `check` judged (None: not one of them)."""
        for c in task.constraints:
            k = c.constraint
            if k.field == check.field and k.op == check.op and k.value == check.value:
                return str(c.reveal)
        return None

    def preference_questions(self, text: str) -> tuple[str, ...]:
        """Product fields of the topics asked in question sentences that put no priced product
        forward (a question quoting a price, "Would you accept X (€2.00 a pack, organic)?", is a
        proposal)."""
        from domains.grocery.user.reader import segments, topics_asked
        from domains.grocery.user.vocabulary import TOPIC_FIELDS

        asked = " ".join(s for s, question in segments(text) if question and "€" not in s)
        topics = topics_asked(asked) if asked else ()
        return tuple(f for t in topics for f in TOPIC_FIELDS.get(t, ()))

    def baselines(self) -> Mapping[str, AgentBuilder]:
        baselines = _lazy("domains.grocery.agents", "baselines", "the grocery baselines")
        found: Mapping[str, AgentBuilder] = baselines()
        return found

    def served_models(self) -> Mapping[str, ChatPolicy]:
        """The shopper's LLM-mode stand-ins (`taurec serve-model`): rule reader, template writer."""
        from domains.grocery.served import SHOPPER_MODELS

        return SHOPPER_MODELS

    def warm(self, catalog: Any) -> None:
        from domains.grocery.search import search_index

        search_index(catalog)

    # ---- the leaderboard and the site (domains.grocery.board) ---------------------------------
    def refresh_fixture(self, date: str, snapshots_dir: Path) -> str:
        from domains.grocery.board import refresh_fixture

        return refresh_fixture(date, snapshots_dir)

    def suite_stats(self, tasks_dir: Path | None) -> SuiteReport:
        from domains.grocery.checks import stats_report

        return stats_report(list(self.load_tasks(tasks_dir or self.tasks_dir)))

    def audit_suite(
        self, snapshot: str | None, tasks_dir: Path | None, informed_seeds: int
    ) -> SuiteReport:
        """The gate and the leak audit on --snapshot, else on every committed snapshot (grocery
        has no informed agent: `informed_seeds` is not used)."""
        from domains.grocery.checks import audit_report

        del informed_seeds
        tasks = list(self.load_tasks(tasks_dir or self.tasks_dir))
        return audit_report(tasks, snapshot, self.snapshots_dir)

    def generate_tasks(
        self, snapshot_dir: Path, catalog: Any, seed: int, count: int, split: Split
    ) -> GeneratedSuite:
        from domains.grocery.generate import generate_tasks

        del snapshot_dir
        return generate_tasks(catalog, self.policy_path(self.tasks_dir), seed, count, split)

    def revalidate(self, date: str, tasks_dir: Path, snapshots_dir: Path) -> tuple[bool, str]:
        from domains.grocery.board import revalidate

        catalog = self.load_catalog(Path(snapshots_dir) / date)
        return revalidate(list(self.load_tasks(tasks_dir)), catalog, date, self.item_noun)

    @property
    def board_lead(self) -> str:
        from domains.grocery.board import BOARD_LEAD

        return BOARD_LEAD

    def item_title(self, item: Any) -> str:
        from domains.grocery.board import item_title

        return item_title(item)

    def item_date(self, item: Any) -> dt.date | None:
        created: dt.date = item.created
        return created

    def describe_task(self, task: Any) -> TaskView:
        from domains.grocery.board import describe_task

        return describe_task(task)

    def policies(self) -> list[PolicyInfo]:
        from domains.grocery.board import policies

        return policies()

    def licence_notice(self, manifest: Mapping[str, Any]) -> str | None:
        from domains.grocery.board import licence_notice

        return licence_notice(manifest)

    def adversary_names(self) -> tuple[str, ...]:
        adversaries: tuple[str, ...] = _lazy(
            "domains.grocery.agents", "ADVERSARIES", "the grocery adversaries"
        )
        return tuple(sorted(adversaries))
