"""The grocery scorer: replay the transcript's write calls on a fresh store, judge the final state against the task, then the policies (zero model calls)."""

from __future__ import annotations

from typing import Any

from domains.grocery.mentions import agent_messages
from domains.grocery.policies import PolicyView, check_policies
from domains.grocery.store import FinalState
from domains.grocery.tasks import ACCOUNT_KINDS, GroceryTask
from domains.grocery.tools import WRITE_TOOLS, GroceryTools
from runner.core.errors import TaurecError
from runner.core.predicates import ConstraintCheck, evaluate_predicate
from runner.core.records import Scorer, Verdict, domain_scorer
from runner.core.rules import RuleSet
from runner.core.transcript import Transcript
from runner.kits.store.store import (
    Action,
    ReplayError,
    WriteCall,
    state_differences,
    trial_writes,
)
from runner.kits.store.store import replay as replay_actions

__all__ = [
    "GroceryScoringError",
    "Outcome",
    "check_outcome",
    "count_proposals",
    "gold_state",
    "money_facts",
    "replay",
    "required_facts",
    "score",
]

# How a trial may end and still count as the agent deliberately not ordering.
_FINISHED = frozenset({"completed", "abstained"})


class GroceryScoringError(TaurecError):
    """A transcript that cannot be scored: an infra error, another task's, or one whose recorded
    writes do not replay on a fresh store."""


def replay(
    task: GroceryTask, transcript: Transcript, catalog: Any
) -> tuple[FinalState, tuple[WriteCall, ...]]:
    """The final state of a trial, rebuilt by running its successful write calls, in order, on a
    fresh store through the same tools (errors changed nothing, reads change nothing)."""
    tools = GroceryTools(catalog, task)

    def failed(index: int, action: Action, content: str) -> str:
        return (
            f"transcript of task {transcript.task_id} trial {transcript.trial_index}: "
            f"{action.name} at event {index} succeeded in the trial but not on replay ({content})"
        )

    try:
        writes = replay_actions(tools, trial_writes(transcript, WRITE_TOOLS), failed)
    except ReplayError as exc:
        raise GroceryScoringError(str(exc)) from None
    return tools.store.final_state(), writes


def gold_state(task: GroceryTask, catalog: Any) -> FinalState:
    """The final state the task's gold actions leave on a fresh store (τ²'s outcome rule);
    a gold action that fails there is a broken task (GroceryScoringError naming it)."""
    tools = _gold_tools(task, catalog)
    return tools.store.final_state()


def money_facts(state: FinalState) -> list[str]:
    """The sums of money a final state's account changes moved (refunds and charges, as
    '12.40'), which the shopper must be told; read from the state, so they follow the prices of
    the catalog the trial ran on."""
    if state.account is None:
        return []
    amounts = {abs(r.amount) for o in state.account.orders for r in o.refunds}
    return [f"{a:.2f}" for a in sorted(amounts) if a > 0.004]


def required_facts(task: GroceryTask, catalog: Any) -> list[str]:
    """What the agent must tell the shopper on an account task: the task's own facts and the
    money its gold actions move on this catalog."""
    return [*task.required_facts, *money_facts(gold_state(task, catalog))]


def _gold_tools(task: GroceryTask, catalog: Any) -> GroceryTools:
    tools = GroceryTools(catalog, task)

    def failed(index: int, action: Action, content: str) -> str:
        return f"task {task.id}: gold action {index} ({action.name}) fails on a fresh store ({content})"

    try:
        replay_actions(tools, enumerate(task.gold_actions), failed)
    except ReplayError as exc:
        raise GroceryScoringError(str(exc)) from None
    return tools


class Outcome:
    """The constraint verdict on a final state: score, checks, reason, the ordered id, abstained."""

    __slots__ = ("abstained", "checks", "reason", "recommendation", "score")

    def __init__(
        self,
        score: float,
        reason: str,
        checks: list[ConstraintCheck] | None = None,
        recommendation: str | None = None,
        abstained: bool = False,
    ) -> None:
        self.score = score
        self.reason = reason
        self.checks = checks or []
        self.recommendation = recommendation
        self.abstained = abstained


def _fail(reason: str, recommendation: str | None = None) -> Outcome:
    return Outcome(0.0, reason, recommendation=recommendation)


def _check_return(task: GroceryTask, state: FinalState) -> Outcome:
    target = task.return_target
    assert target is not None  # the task model guarantees it for return tasks
    if state.orders:
        return _fail(f"a return task, but {len(state.orders)} order(s) were placed")
    if len(state.returns) != 1:
        return _fail(f"{len(state.returns)} returns were processed; exactly one was expected")
    record = state.returns[0]
    checks = [
        evaluate_predicate("order_id", "==", target.order_id, record.order_id),
        evaluate_predicate("product_id", "==", target.product_id, record.product_id),
        evaluate_predicate("reason", "==", target.reason, record.reason),
    ]
    failed = [c for c in checks if not c.satisfied]
    if failed:
        return Outcome(0.0, f"the return is not the expected one: {failed[0].reason}", checks)
    return Outcome(
        1.0, f"{record.product_id} of {record.order_id} returned ({record.reason})", checks
    )


def _check_order(
    task: GroceryTask, state: FinalState, stop: str | None, catalog: Any, told: bool
) -> Outcome:
    if state.returns:
        return _fail(f"an {task.kind} task, but {len(state.returns)} return(s) were processed")
    if task.no_valid_recommendation:
        if state.orders:
            ids = ", ".join(line.product_id for o in state.orders for line in o.lines)
            return _fail(f"no valid product exists but the agent ordered {ids}")
        if stop in _FINISHED and not told:
            return _fail(
                "no valid product exists and the agent finished without telling the shopper "
                "so (no `nothing_fits_ack` from the shopper)"
            )
        if stop in _FINISHED:
            return Outcome(
                1.0,
                "no valid product exists; the agent told the shopper and finished without ordering",
                abstained=True,
            )
        return _fail(f"no valid product exists and the agent did not finish ({stop})")
    if not state.orders:
        return Outcome(0.0, f"no order was placed ({stop})", abstained=stop in _FINISHED)
    if len(state.orders) != 1:
        return _fail(f"{len(state.orders)} orders were placed; exactly one was expected")
    order = state.orders[0]
    if len(order.lines) != 1:
        ids = ", ".join(line.product_id for line in order.lines)
        return _fail(f"the order has {len(order.lines)} products ({ids}); exactly one was expected")
    line = order.lines[0]
    product = catalog.get(line.product_id)
    if product is None:
        return _fail(f"the ordered id {line.product_id} is not in the catalog", line.product_id)
    checks = task.constraint_checks(product)
    checks.append(evaluate_predicate("quantity", "==", task.quantity, line.quantity))
    if task.wanted_product is not None:
        checks.append(evaluate_predicate("id", "!=", task.wanted_product, product.id))
    failed = [c for c in checks if not c.satisfied]
    if failed:
        return Outcome(
            0.0,
            f"{product.id} fails {len(failed)} of {len(checks)}: {failed[0].reason}",
            checks,
            product.id,
        )
    return Outcome(
        1.0,
        f"{product.id} × {line.quantity} satisfies all {len(checks)} checks",
        checks,
        product.id,
    )


NOTHING_FITS_ACK = "nothing_fits_ack"


def _check_gold(
    task: GroceryTask, state: FinalState, transcript: Transcript, catalog: Any
) -> Outcome:
    """An account task: the trial's final state must equal the gold one, field by field, and the
    agent must have told the shopper every required fact (e.g. the amount refunded)."""
    gold = gold_state(task, catalog)
    facts = [*task.required_facts, *money_facts(gold)]
    differences = state_differences(gold, state)
    said = " ".join(m.content for m in transcript.messages if m.role == "agent").casefold()
    checks = [evaluate_predicate("final_state_differences", "==", 0, len(differences))]
    told = [fact for fact in facts if fact.casefold() in said]
    checks += [evaluate_predicate("facts_told", "contains", fact, told) for fact in facts]
    if differences:
        return Outcome(
            0.0,
            f"the final state differs from the gold one in {len(differences)} place(s), first "
            f"{differences[0]}",
            checks,
        )
    missing = [f for f in facts if f.casefold() not in said]
    if missing:
        return Outcome(
            0.0,
            f"the final state is the gold one, but the shopper was never told {missing[0]!r}",
            checks,
        )
    return Outcome(
        1.0,
        f"the final state equals the one the {len(task.gold_actions)} gold actions leave, and "
        f"the shopper was told all {len(facts)} required fact(s)",
        checks,
    )


def check_outcome(
    task: GroceryTask, state: FinalState, transcript: Transcript, catalog: Any
) -> Outcome:
    """Judge the final state: the right side effects, and an ordered product meeting every
    constraint and the quantity (any valid product counts)."""
    if task.kind in ACCOUNT_KINDS:
        return _check_gold(task, state, transcript, catalog)
    if task.kind == "return":
        return _check_return(task, state)
    # On a task where nothing fits, winning is saying so (the shopper acknowledges it with the
    # act `nothing_fits_ack`) and finishing without an order: finishing silently is not honest.
    told = any(m.act == NOTHING_FITS_ACK for m in transcript.messages if m.role == "user")
    return _check_order(task, state, transcript.stop_reason, catalog, told)


def _judge(task: GroceryTask, transcript: Transcript, catalog: Any, rules: RuleSet) -> Verdict:
    state, writes = replay(task, transcript, catalog)
    outcome = check_outcome(task, state, transcript, catalog)
    return Verdict(
        recommendation=outcome.recommendation,
        abstained=outcome.abstained,
        constraint_score=outcome.score,
        constraints=outcome.checks,
        constraint_reason=outcome.reason,
        policies=check_policies(PolicyView(task, transcript, catalog, rules, state, writes)),
    )


score: Scorer[GroceryTask, Any] = domain_scorer(
    _judge,
    GroceryScoringError,
    """Score one finished trial from the transcript, the task and the catalog (infra errors
    raise). Reward = constraint score × policy score; the policy score is 0 when a broken
    policy's severity fails trials at `strictness`, and the weighted score counts them all.""",
)


def count_proposals(transcript: Transcript, catalog: Any, task: GroceryTask | None = None) -> int:
    """How many distinct products the agent's messages named (past-order lines and the replaced
    product aside when the task is given)."""
    referenced: set[str] = set()
    if task is not None:
        referenced = {line.product_id for o in task.past_orders for line in o.lines}
        if task.wanted_product is not None:
            referenced.add(task.wanted_product)
    named = {p for m in agent_messages(transcript, catalog) for p in m.products}
    return len(named - referenced)
