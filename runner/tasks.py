"""Tasks: typed constraints with reveal tags, policy flags, user history and services (a superset of v1)."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import math
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from runner.catalog import FIELD_KINDS, CatalogItem
from runner.errors import LoadError, describe_validation_error

Op = Literal["<=", ">=", "==", "!=", "contains", "contains_any", "not_contains", "in"]
Reveal = Literal["volunteer", "on_ask", "hidden"]
PolicyName = Literal[
    "watch_history",
    "sponsored",
    "age_restricted",
    "availability",
    "single_recommendation",
    "transparency",
    "recommend_tool",
]
POLICY_NAMES: tuple[PolicyName, ...] = (
    "watch_history",
    "sponsored",
    "age_restricted",
    "availability",
    "single_recommendation",
    "transparency",
    "recommend_tool",
)
Complexity = Literal["simple", "medium", "complex"]
RevealDifficulty = Literal["volunteer", "mixed", "hidden"]
ConstraintValue = bool | int | float | str | list[str] | list[int] | list[float]

# Which operators fit which kind of field, and what value each expects.
_OPS_BY_KIND: dict[str, frozenset[str]] = {
    "number": frozenset({"<=", ">=", "==", "!=", "in"}),
    "date": frozenset({"<=", ">=", "==", "!="}),
    "text": frozenset({"==", "!=", "in", "contains", "not_contains"}),
    "rating": frozenset({"==", "!=", "in"}),
    "list": frozenset({"contains", "not_contains", "contains_any"}),
    "bool": frozenset({"==", "!="}),
}
_RATINGS = ("G", "PG", "PG-13", "R", "NC-17", "NR")


def _is_number(v: object) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def _is_iso_date(v: object) -> bool:
    if not isinstance(v, str):
        return False
    try:
        dt.date.fromisoformat(v)
    except ValueError:
        return False
    return True


class Constraint(BaseModel):
    """A typed predicate `field op value` over one catalog field."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    field: str = Field(description="A catalog item field name")
    op: Op
    value: ConstraintValue

    @model_validator(mode="after")
    def _fits_field(self) -> Constraint:
        kind = FIELD_KINDS.get(self.field)
        if kind is None:
            raise ValueError(
                f"field {self.field!r} is not in the catalog schema "
                f"(known: {', '.join(sorted(FIELD_KINDS))})"
            )
        if self.op not in _OPS_BY_KIND[kind]:
            allowed = ", ".join(sorted(_OPS_BY_KIND[kind]))
            raise ValueError(
                f"operator {self.op!r} does not fit {kind} field {self.field!r} (allowed: {allowed})"
            )
        v = self.value
        numbers = v if isinstance(v, list) else [v]
        if any(isinstance(x, float) and not math.isfinite(x) for x in numbers):
            raise ValueError(
                f"value {v!r} on field {self.field!r}: NaN and infinities are not numbers a "
                "catalog value can be compared with"
            )
        ok: bool
        if self.op in ("in", "contains_any"):
            ok = isinstance(v, list) and len(v) > 0
            if ok and isinstance(v, list):
                if kind == "number":
                    ok = all(_is_number(x) for x in v)
                elif kind == "rating":
                    ok = all(x in _RATINGS for x in v)
                else:
                    ok = all(isinstance(x, str) for x in v)
        elif kind == "number":
            ok = _is_number(v)
        elif kind == "date":
            ok = _is_iso_date(v)
        elif kind == "rating":
            ok = v in _RATINGS
        elif kind in ("text", "list"):
            ok = isinstance(v, str)
        else:  # bool
            ok = isinstance(v, bool)
        if not ok:
            raise ValueError(
                f"value {v!r} does not fit operator {self.op!r} on {kind} field {self.field!r}"
            )
        return self

    def evaluate(self, item: CatalogItem) -> ConstraintCheck:
        """Check the item; the result carries the actual value and a readable reason."""
        actual: Any = getattr(item, self.field)
        if isinstance(actual, dt.date):
            actual = actual.isoformat()
        v = self.value
        satisfied: bool
        match self.op:
            case "<=":
                satisfied = actual <= v
                reason = f"{self.field} {actual} {'<=' if satisfied else '>'} {v}"
            case ">=":
                satisfied = actual >= v
                reason = f"{self.field} {actual} {'>=' if satisfied else '<'} {v}"
            case "==":
                satisfied = actual == v
                reason = f"{self.field} {actual!r} {'==' if satisfied else '!='} {v!r}"
            case "!=":
                satisfied = actual != v
                reason = f"{self.field} {actual!r} {'!=' if satisfied else '=='} {v!r}"
            case "contains":
                satisfied = v in actual
                verb = "includes" if satisfied else "does not include"
                reason = f"{self.field} {actual!r} {verb} {v!r}"
            case "not_contains":
                satisfied = v not in actual
                verb = "does not include" if satisfied else "includes"
                reason = f"{self.field} {actual!r} {verb} {v!r}"
            case "contains_any":
                assert isinstance(v, list)
                hits = [x for x in v if x in actual]
                satisfied = bool(hits)
                reason = (
                    f"{self.field} {actual!r} includes {hits[0]!r}"
                    if satisfied
                    else f"{self.field} {actual!r} includes none of {v!r}"
                )
            case "in":
                assert isinstance(v, list)
                satisfied = actual in v
                reason = f"{self.field} {actual!r} {'is' if satisfied else 'is not'} in {v!r}"
        return ConstraintCheck(
            field=self.field, op=self.op, value=v, satisfied=satisfied, actual=actual, reason=reason
        )

    def describe(self) -> str:
        return f"{self.field} {self.op} {self.value!r}"


class ConstraintCheck(BaseModel):
    """The outcome of one constraint on one item: satisfied, the value judged, and why."""

    model_config = ConfigDict(extra="forbid")

    field: str
    op: Op
    value: ConstraintValue
    satisfied: bool
    actual: Any
    reason: str


class TaskConstraint(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    constraint: Constraint
    reveal: Reveal


class UserHistory(BaseModel):
    model_config = ConfigDict(extra="forbid")

    watched: list[str] = Field(default_factory=list)
    ratings: dict[str, float] = Field(default_factory=dict)


class Retirement(BaseModel):
    model_config = ConfigDict(extra="forbid")

    since: dt.date = Field(description="Snapshot date from which the task is retired")
    reason: str = Field(min_length=1)


class Task(BaseModel):
    """One benchmark task. Every v1 task file loads unchanged; the extra fields are optional."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(pattern=r"^[A-Za-z0-9_.-]+$")
    persona: str
    constraints: list[TaskConstraint] = Field(min_length=1)
    soft_preferences: list[str] = Field(default_factory=list)
    policy_flags: list[PolicyName] = Field(default_factory=list)
    no_valid_recommendation: bool = False
    complexity: Complexity
    reveal_difficulty: RevealDifficulty
    user_id: str = "user_1"
    user_history: dict[str, UserHistory] = Field(default_factory=dict)
    user_services: list[str] = Field(default_factory=list)
    retired: Retirement | None = Field(
        default=None, description="Set to take the task out of scoring from a snapshot date on"
    )

    @property
    def watched(self) -> list[str]:
        history = self.user_history.get(self.user_id)
        return list(history.watched) if history else []

    def satisfies_all(self, item: CatalogItem) -> bool:
        return all(tc.constraint.evaluate(item).satisfied for tc in self.constraints)


def load_task(path: Path | str) -> Task:
    """Load one task file; any problem raises LoadError naming the file, task, field and value."""
    path = Path(path)
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise LoadError(path, [f"invalid JSON at line {exc.lineno}: {exc.msg}"]) from exc
    task_id = raw.get("id", path.stem) if isinstance(raw, dict) else path.stem
    try:
        return Task.model_validate(raw)
    except ValidationError as exc:
        raise LoadError(path, describe_validation_error(exc, prefix=f"task {task_id}: ")) from exc


def load_tasks(directory: Path | str) -> list[Task]:
    """Load every `*.json` task in a folder, sorted by id; collects all errors before raising."""
    directory = Path(directory)
    files = sorted(directory.glob("*.json"))
    if not files:
        raise LoadError(directory, ["no task files (*.json) found"])
    tasks: list[Task] = []
    problems: list[str] = []
    for file in files:
        try:
            tasks.append(load_task(file))
        except LoadError as exc:
            problems += [f"{exc.path}: {p}" for p in exc.problems]
    ids = [t.id for t in tasks]
    problems += [f"duplicate task id {i!r}" for i in sorted({i for i in ids if ids.count(i) > 1})]
    if problems:
        raise LoadError(directory, problems)
    return sorted(tasks, key=lambda t: t.id)


def suite_digest(tasks: list[Task]) -> str:
    """sha256 over the canonical JSON of the tasks (order-independent)."""
    payload = [t.model_dump(mode="json") for t in sorted(tasks, key=lambda t: t.id)]
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


def text_digest(path: Path | str) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()
