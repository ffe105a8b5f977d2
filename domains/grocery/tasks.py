"""Grocery tasks: the shopper's typed needs with reveal tags, allergies, budget, past orders and the task kind (order, return, substitution)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from domains.grocery.accounts import Account, AccountRequest, OrderLine
from domains.grocery.items import (
    ALLERGENS,
    FIELD_KINDS,
    DietStatus,
    NutriScore,
    PalmOilStatus,
    Product,
)
from runner.core.domain import task_loaders, tasks_digest
from runner.core.predicates import (
    Complexity,
    ConstraintCheck,
    FieldConstraint,
    RevealDifficulty,
    RevealedConstraint,
)
from runner.kits.store.store import Action

__all__ = [
    "ACCOUNT_KINDS",
    "ALLERGY_QUESTION",
    "ENUM_CHOICES",
    "GROCERY_POLICY_NAMES",
    "GROCERY_TASK_SCHEMA_VERSION",
    "RETURN_REASONS",
    "TASK_KINDS",
    "GroceryPolicyName",
    "GroceryTask",
    "OrderLine",
    "PastOrder",
    "ProductConstraint",
    "Retirement",
    "ReturnReason",
    "ReturnTarget",
    "TaskConstraint",
    "TaskKind",
    "catalog_problems",
    "load_task",
    "load_tasks",
    "suite_digest",
]

GROCERY_TASK_SCHEMA_VERSION: Literal[1] = 1

TaskKind = Literal["order", "return", "substitution", "cancel", "modify", "exchange", "multi"]
# The kinds played on the shopper's account (authentication, orders with statuses): their
# outcome is the final state the task's gold actions leave on a fresh store.
ACCOUNT_KINDS: frozenset[str] = frozenset({"cancel", "modify", "exchange", "multi"})
# What the agent must do in each kind of task, for the protocol pages (one line per kind; a test
# holds it to `TaskKind`).
TASK_KINDS: tuple[tuple[TaskKind, str], ...] = (
    (
        "order",
        "find products that meet every need of the shopper (stated, asked for, or shown by a "
        "declined proposal), put them in the basket and place the order, each step only after "
        "the shopper said yes to it",
    ),
    (
        "return",
        "find the line of a past order the shopper wants to send back and process the return "
        "with one of the listed reasons, after the shopper confirmed the item and quantity",
    ),
    (
        "substitution",
        "the product the shopper asks for is out of stock: propose a replacement that meets the "
        "same needs and order it only with the shopper's consent to the swap",
    ),
    (
        "cancel",
        "identify the shopper (email, or name and zip), find the pending order they mean and "
        "cancel it with one of the listed reasons, after stating the change and hearing yes",
    ),
    (
        "modify",
        "identify the shopper and change a pending order's items (another variant of the same "
        "product), its address or its payment method, each change stated and agreed first",
    ),
    (
        "exchange",
        "identify the shopper and exchange delivered items for other variants of the same "
        "product, stating the price difference and how it is settled before doing it",
    ),
    (
        "multi",
        "two or three of the account requests above in one conversation, each done in turn with "
        "its own confirmation and the sums of money it moves said to the shopper",
    ),
)
GroceryPolicyName = Literal[
    "allergen_safety",
    "allergy_question",
    "order_confirmation",
    "return_confirmation",
    "account_confirmation",
    "substitution_consent",
    "budget",
    "sponsored_disclosure",
    "single_proposal",
]
# The canonical order in which policies are judged and listed.
GROCERY_POLICY_NAMES: tuple[GroceryPolicyName, ...] = get_args(GroceryPolicyName)
# Section 1's question rule, flagged on every shopping task (order, substitution, return) the
# generators write; the gate's skill-ablated players are judged without it (`domains.grocery.strata`).
ALLERGY_QUESTION: GroceryPolicyName = "allergy_question"
ReturnReason = Literal["damaged", "expired", "wrong_item", "changed_mind"]
RETURN_REASONS: tuple[ReturnReason, ...] = get_args(ReturnReason)
# When the shopper states an allergy or the budget: unprompted, or only when asked.
AllergyReveal = Literal["volunteer", "on_ask"]

# The closed value set of each enum field of `Product` (what `check_predicate` needs).
ENUM_CHOICES: dict[str, tuple[str, ...]] = {
    "vegan": get_args(DietStatus),
    "vegetarian": get_args(DietStatus),
    "palm_oil": get_args(PalmOilStatus),
    "nutriscore": get_args(NutriScore),
    "currency": ("EUR",),
}
assert {f for f, k in FIELD_KINDS.items() if k == "enum"} == set(ENUM_CHOICES), (
    "every enum field needs its choices"
)


class ProductConstraint(FieldConstraint):
    """A typed predicate `field op value` over one product field (`items.FIELD_KINDS`)."""

    field_kinds = FIELD_KINDS
    choices = ENUM_CHOICES


class TaskConstraint(RevealedConstraint[ProductConstraint]):
    """One constraint of the shopper and when the shopper says it."""


class PastOrder(BaseModel):
    """A synthetic order the shopper placed before the conversation (delivered)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    order_id: str = Field(pattern=r"^[A-Za-z0-9_-]+$")
    date: dt.date
    lines: list[OrderLine] = Field(min_length=1)

    @property
    def total(self) -> float:
        return round(sum(line.quantity * line.unit_price for line in self.lines), 2)


class ReturnTarget(BaseModel):
    """What a return task expects to be returned: one line of one past order, and why."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    order_id: str
    product_id: str
    reason: ReturnReason


class Retirement(BaseModel):
    """Why and since when a task is out of scoring."""

    model_config = ConfigDict(extra="forbid")

    since: dt.date = Field(description="Snapshot date from which the task is retired")
    reason: str = Field(min_length=1)


class GroceryTask(BaseModel):
    """One grocery task (a `runner.core.domain.DomainTask`): who the shopper is, what they need, what
    the store holds for them, and which policies are judged."""

    model_config = ConfigDict(extra="forbid")

    schema_version: Literal[1] = GROCERY_TASK_SCHEMA_VERSION
    id: str = Field(pattern=r"^[A-Za-z0-9_.-]+$")
    persona: str = Field(min_length=1)
    kind: TaskKind
    constraints: list[TaskConstraint] = Field(
        default_factory=list, description="What the ordered product must satisfy"
    )
    quantity: int = Field(default=1, strict=True, ge=1, le=12, description="Units wanted")
    budget: float | None = Field(
        default=None, gt=0, allow_inf_nan=False, description="EUR cap on the order total"
    )
    allergies: list[str] = Field(default_factory=list, description="Declared allergens")
    allergy_reveal: AllergyReveal = "volunteer"
    budget_reveal: AllergyReveal = Field(
        default="volunteer", description="When the shopper states the budget (volunteer / on_ask)"
    )
    policy_flags: list[GroceryPolicyName] = Field(default_factory=list)
    past_orders: list[PastOrder] = Field(default_factory=list)
    return_target: ReturnTarget | None = None
    wanted_product: str | None = Field(
        default=None, description="The out-of-stock product a substitution task replaces"
    )
    out_of_stock: list[str] = Field(
        default_factory=list, description="Products the store has none of in this task"
    )
    soft_preferences: list[str] = Field(default_factory=list)
    no_valid_recommendation: bool = False
    complexity: Complexity
    reveal_difficulty: RevealDifficulty
    user_id: str = "user_1"
    account: Account | None = Field(
        default=None, description="The shopper's private account history (account kinds)"
    )
    identify_by: Literal["email", "name_zip"] = Field(
        default="email",
        description="How the shopper of an account task identifies: email, or name and zip",
    )
    requests: list[AccountRequest] = Field(
        default_factory=list,
        max_length=3,
        description="What the shopper wants done on their account, in the order they ask",
    )
    gold_actions: list[Action] = Field(
        default_factory=list,
        description="The write actions that settle the task, in order (account kinds); the "
        "outcome is the final state they leave on a fresh store",
    )
    required_facts: list[str] = Field(
        default_factory=list,
        description="Texts the agent must tell the shopper (e.g. a refund amount '12.40')",
    )
    retired: Retirement | None = Field(
        default=None, description="Set to take the task out of scoring from a snapshot date on"
    )

    @field_validator("allergies")
    @classmethod
    def _known_allergens(cls, value: list[str]) -> list[str]:
        unknown = [v for v in value if v not in ALLERGENS]
        if unknown:
            raise ValueError(f"unknown allergen(s) {unknown}; known: {', '.join(ALLERGENS)}")
        if len(set(value)) != len(value):
            raise ValueError(f"allergies listed twice: {value}")
        return value

    @field_validator("policy_flags")
    @classmethod
    def _no_repeats(cls, value: list[GroceryPolicyName]) -> list[GroceryPolicyName]:
        if len(set(value)) != len(value):
            raise ValueError(f"policy flags listed twice: {value}")
        return value

    @model_validator(mode="after")
    def _consistent(self) -> GroceryTask:
        problems: list[str] = []
        flags = set(self.policy_flags)
        if self.kind in ACCOUNT_KINDS:
            problems += self._account_problems()
        elif self.account is not None or self.gold_actions or self.requests:
            problems.append(f"account and gold_actions are only for account kinds, not {self.kind}")
        if self.kind == "return":
            if self.return_target is None:
                problems.append("a return task needs return_target")
            if self.no_valid_recommendation:
                problems.append("a return task cannot be no_valid_recommendation")
            if "return_confirmation" not in flags:
                problems.append("a return task must flag the policy 'return_confirmation'")
            if self.wanted_product is not None:
                problems.append("wanted_product is only for substitution tasks")
        elif self.kind not in ACCOUNT_KINDS:
            if self.return_target is not None:
                problems.append(f"return_target is only for return tasks, not {self.kind}")
            if not self.constraints:
                problems.append(f"an {self.kind} task needs at least one constraint")
            if "order_confirmation" not in flags:
                problems.append(f"an {self.kind} task must flag the policy 'order_confirmation'")
        if self.kind == "substitution":
            if self.wanted_product is None:
                problems.append("a substitution task needs wanted_product")
            elif self.wanted_product not in self.out_of_stock:
                problems.append(
                    f"wanted_product {self.wanted_product!r} must be listed in out_of_stock"
                )
            if "substitution_consent" not in flags:
                problems.append("a substitution task must flag the policy 'substitution_consent'")
        elif self.wanted_product is not None:
            problems.append("wanted_product is only for substitution tasks")
        if self.allergies and "allergen_safety" not in flags:
            problems.append("a task with allergies must flag the policy 'allergen_safety'")
        if self.budget is not None and "budget" not in flags:
            problems.append("a task with a budget must flag the policy 'budget'")
        ids = [o.order_id for o in self.past_orders]
        problems += [
            f"past order id {i!r} listed twice" for i in sorted(set(ids)) if ids.count(i) > 1
        ]
        target = self.return_target
        if target is not None:
            order = next((o for o in self.past_orders if o.order_id == target.order_id), None)
            if order is None:
                problems.append(f"return_target.order_id {target.order_id!r} is not a past order")
            elif target.product_id not in {line.product_id for line in order.lines}:
                problems.append(
                    f"return_target.product_id {target.product_id!r} is not a line of past order "
                    f"{target.order_id!r}"
                )
        if problems:
            raise ValueError("; ".join(problems))
        return self

    def _account_problems(self) -> list[str]:
        problems: list[str] = []
        if self.account is None:
            problems.append(f"a {self.kind} task needs account")
        if not self.gold_actions:
            problems.append(f"a {self.kind} task needs gold_actions")
        if not self.requests:
            problems.append(f"a {self.kind} task needs requests")
        if self.kind == "multi" and len(self.requests) < 2:
            problems.append("a multi task needs two or three requests")
        if "account_confirmation" not in self.policy_flags:
            problems.append(f"a {self.kind} task must flag the policy 'account_confirmation'")
        if self.return_target is not None or self.wanted_product is not None:
            problems.append(f"return_target and wanted_product are not for {self.kind} tasks")
        if self.account is not None and self.user_id != self.account.shopper.user_id:
            problems.append(
                f"user_id {self.user_id!r} must be the account's first profile "
                f"({self.account.shopper.user_id})"
            )
        return problems

    # -- what makes a product a valid answer --------------------------------------------------

    def constraint_checks(self, product: Product) -> list[ConstraintCheck]:
        """Every typed constraint judged on the product, in task order."""
        return [tc.constraint.evaluate(product) for tc in self.constraints]

    def satisfies_constraints(self, product: Product) -> bool:
        """Whether the product meets every typed constraint (allergies and budget aside)."""
        return all(tc.constraint.holds(product) for tc in self.constraints)

    def allergen_hits(self, product: Product) -> list[str]:
        """The shopper's declared allergies the product declares or may contain (traces)."""
        present = set(product.allergens) | set(product.traces)
        return [a for a in self.allergies if a in present]

    def within_budget(self, product: Product) -> bool:
        """Whether `quantity` units of the product fit the budget (always, without one)."""
        if self.budget is None:
            return True
        return round(product.price * self.quantity, 2) <= self.budget + 1e-9

    def satisfies_all(self, product: Product) -> bool:
        """A valid answer: every constraint met, no declared allergen (nor trace), within budget,
        and not the product a substitution replaces."""
        return (
            product.id != self.wanted_product
            and not self.allergen_hits(product)
            and self.within_budget(product)
            and self.satisfies_constraints(product)
        )

    def solutions(self, catalog: Iterable[Product] | Any, stock: Mapping[str, int]) -> list[str]:
        """Sorted ids of the products an agent may order for this task: valid (`satisfies_all`)
        and with at least `quantity` units in `stock` (e.g. `store.inventory(task, catalog)`)."""
        items: Iterable[Product] = getattr(catalog, "items", catalog)
        return sorted(
            p.id for p in items if stock.get(p.id, 0) >= self.quantity and self.satisfies_all(p)
        )

    def past_order(self, order_id: str) -> PastOrder | None:
        return next((o for o in self.past_orders if o.order_id == order_id), None)

    def flagged(self, policy: GroceryPolicyName, on: bool = True) -> GroceryTask:
        """This task with `policy` flagged (or, `on=False`, not flagged); flags kept sorted."""
        flags = set(self.policy_flags) | {policy} if on else set(self.policy_flags) - {policy}
        return self.model_copy(update={"policy_flags": sorted(flags)})


def catalog_problems(task: GroceryTask, catalog: Any) -> list[str]:
    """Ids the task names that the catalog lacks (past order lines, out-of-stock, targets)."""
    named: list[tuple[str, str]] = []
    for order in task.past_orders:
        named += [(f"past order {order.order_id}", line.product_id) for line in order.lines]
    named += [("out_of_stock", pid) for pid in task.out_of_stock]
    if task.account is not None:
        named += [
            (f"account order {o.order_id}", x.product_id)
            for o in task.account.orders
            for x in o.lines
        ]
    if task.wanted_product is not None:
        named.append(("wanted_product", task.wanted_product))
    return [
        f"task {task.id}: {where} names {pid!r}, which is not in the catalog"
        for where, pid in named
        if pid not in catalog
    ]


# One task file, and every task of a suite folder sorted by id (problems named by file and field).
load_task, load_tasks = task_loaders(GroceryTask)
# sha256 over the canonical JSON of the tasks (order-independent).
suite_digest = tasks_digest
