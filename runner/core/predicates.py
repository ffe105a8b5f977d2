"""Typed predicates `field op value` over an item's fields: operators, value checks, evaluation, and the outcome record (domain-free)."""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Mapping
from types import UnionType
from typing import (
    Annotated,
    Any,
    ClassVar,
    Generic,
    Literal,
    Self,
    TypeVar,
    Union,
    get_args,
    get_origin,
)

from pydantic import BaseModel, ConfigDict, Field, model_validator

Op = Literal["<=", ">=", "==", "!=", "contains", "contains_any", "not_contains", "in"]
Reveal = Literal["volunteer", "on_ask", "hidden"]
Complexity = Literal["simple", "medium", "complex"]
RevealDifficulty = Literal["volunteer", "mixed", "hidden"]
ConstraintValue = bool | int | float | str | list[str] | list[int] | list[float]
# What a constraint may do with a field depends on its kind (`_OPS_BY_KIND`).
FieldKind = Literal["number", "date", "text", "rating", "enum", "list", "bool"]

# Which operators fit which kind of field, and what value each expects. A domain's field table
# maps each field to one of these kinds; `enum` (and movies' `rating`) take one of a closed set.
_OPS_BY_KIND: dict[str, frozenset[str]] = {
    "number": frozenset({"<=", ">=", "==", "!=", "in"}),
    "date": frozenset({"<=", ">=", "==", "!="}),
    "text": frozenset({"==", "!=", "in", "contains", "not_contains"}),
    "rating": frozenset({"==", "!=", "in"}),
    "enum": frozenset({"==", "!=", "in"}),
    "list": frozenset({"contains", "not_contains", "contains_any"}),
    "bool": frozenset({"==", "!="}),
}


def field_kinds(model: type[BaseModel], **overrides: FieldKind) -> dict[str, FieldKind]:
    """The field table of an item model, read from its annotations (lists, Literals as `enum`,
    bools, numbers, dates, text; an optional type as its inner type), in field order; `overrides`
    name the fields of another kind (movies' age ratings are an ordered `rating`). A type it
    cannot read raises TypeError naming the field."""
    table: dict[str, FieldKind] = {}
    for name, info in model.model_fields.items():
        table[name] = overrides.get(name) or _kind_of(name, info.annotation)
    return table


def _kind_of(name: str, annotation: Any) -> FieldKind:
    origin, args = get_origin(annotation), get_args(annotation)
    if origin in (Union, UnionType):
        inner = [a for a in args if a is not type(None)]
        if len(inner) == 1:
            return _kind_of(name, inner[0])
    elif origin is Annotated:
        return _kind_of(name, args[0])
    elif origin is list:
        return "list"
    elif origin is Literal:
        return "enum"
    elif annotation is bool:
        return "bool"
    elif annotation in (int, float):
        return "number"
    elif annotation is dt.date:
        return "date"
    elif annotation is str:
        return "text"
    raise TypeError(f"field {name!r}: no constraint kind for the type {annotation!r}")


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


class ConstraintCheck(BaseModel):
    """The outcome of one constraint on one item: satisfied, the value judged, and why."""

    model_config = ConfigDict(extra="forbid")

    field: str
    op: Op
    value: ConstraintValue
    satisfied: bool
    actual: Any
    reason: str


def check_predicate(
    field: str,
    op: Op,
    value: ConstraintValue,
    kinds: Mapping[str, str],
    choices: Mapping[str, tuple[str, ...]] | None = None,
) -> None:
    """Raise ValueError (naming field, operator and value) unless `field op value` fits the field's
    kind in `kinds`; `choices` gives the closed value set of each `enum` / `rating` field."""
    kind = kinds.get(field)
    if kind is None:
        raise ValueError(
            f"field {field!r} is not in the catalog schema (known: {', '.join(sorted(kinds))})"
        )
    if op not in _OPS_BY_KIND[kind]:
        allowed = ", ".join(sorted(_OPS_BY_KIND[kind]))
        raise ValueError(
            f"operator {op!r} does not fit {kind} field {field!r} (allowed: {allowed})"
        )
    closed = (choices or {}).get(field, ())
    v = value
    numbers = v if isinstance(v, list) else [v]
    if any(isinstance(x, float) and not math.isfinite(x) for x in numbers):
        raise ValueError(
            f"value {v!r} on field {field!r}: NaN and infinities are not numbers a "
            "catalog value can be compared with"
        )
    ok: bool
    if op in ("in", "contains_any"):
        ok = isinstance(v, list) and len(v) > 0
        if ok and isinstance(v, list):
            if kind == "number":
                ok = all(_is_number(x) for x in v)
            elif kind in ("rating", "enum"):
                ok = all(x in closed for x in v)
            else:
                ok = all(isinstance(x, str) for x in v)
    elif kind == "number":
        ok = _is_number(v)
    elif kind == "date":
        ok = _is_iso_date(v)
    elif kind in ("rating", "enum"):
        ok = v in closed
    elif kind in ("text", "list"):
        ok = isinstance(v, str)
    else:  # bool
        ok = isinstance(v, bool)
    if not ok:
        raise ValueError(f"value {v!r} does not fit operator {op!r} on {kind} field {field!r}")


def predicate_holds(op: Op, value: ConstraintValue, actual: Any) -> bool:
    """Does `actual` (a date as its ISO string) meet `op value`? What `evaluate_predicate` judges,
    without the reason: searches and audits ask it of every item of a catalog."""
    match op:
        case "<=":
            return bool(actual <= value)
        case ">=":
            return bool(actual >= value)
        case "==":
            return bool(actual == value)
        case "!=":
            return bool(actual != value)
        case "contains":
            return value in actual
        case "not_contains":
            return value not in actual
        case "contains_any":
            assert isinstance(value, list)
            return any(x in actual for x in value)
        case "in":
            assert isinstance(value, list)
            return actual in value


def evaluate_predicate(field: str, op: Op, value: ConstraintValue, actual: Any) -> ConstraintCheck:
    """Judge `actual` (the item's value of `field`); the result carries it and a readable reason."""
    if isinstance(actual, dt.date):
        actual = actual.isoformat()
    v = value
    satisfied = predicate_holds(op, v, actual)
    match op:
        case "<=":
            reason = f"{field} {actual} {'<=' if satisfied else '>'} {v}"
        case ">=":
            reason = f"{field} {actual} {'>=' if satisfied else '<'} {v}"
        case "==":
            reason = f"{field} {actual!r} {'==' if satisfied else '!='} {v!r}"
        case "!=":
            reason = f"{field} {actual!r} {'!=' if satisfied else '=='} {v!r}"
        case "contains":
            verb = "includes" if satisfied else "does not include"
            reason = f"{field} {actual!r} {verb} {v!r}"
        case "not_contains":
            verb = "does not include" if satisfied else "includes"
            reason = f"{field} {actual!r} {verb} {v!r}"
        case "contains_any":
            assert isinstance(v, list)
            hits = [x for x in v if x in actual]
            reason = (
                f"{field} {actual!r} includes {hits[0]!r}"
                if satisfied
                else f"{field} {actual!r} includes none of {v!r}"
            )
        case "in":
            assert isinstance(v, list)
            reason = f"{field} {actual!r} {'is' if satisfied else 'is not'} in {v!r}"
    return ConstraintCheck(
        field=field, op=op, value=v, satisfied=satisfied, actual=actual, reason=reason
    )


class FieldConstraint(BaseModel):
    """A typed predicate `field op value` over one item field; a domain's subclass names its field
    table (`field_kinds`, field -> kind) and the closed value sets of its enum fields (`choices`)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    field_kinds: ClassVar[Mapping[str, str]] = {}
    choices: ClassVar[Mapping[str, tuple[str, ...]]] = {}

    field: str = Field(description="An item field name, e.g. 'runtime' or 'vegan'")
    op: Op
    value: ConstraintValue

    @model_validator(mode="after")
    def _fits_field(self) -> Self:
        check_predicate(self.field, self.op, self.value, self.field_kinds, self.choices)
        return self

    def evaluate(self, item: Any) -> ConstraintCheck:
        """Check the item; the result carries the actual value and a readable reason."""
        actual: Any = getattr(item, self.field)
        if isinstance(actual, dt.date):
            actual = actual.isoformat()
        return evaluate_predicate(self.field, self.op, self.value, actual)

    def holds(self, item: Any) -> bool:
        """`evaluate(item).satisfied`, without building the check and its reason."""
        actual: Any = getattr(item, self.field)
        if isinstance(actual, dt.date):
            actual = actual.isoformat()
        return predicate_holds(self.op, self.value, actual)

    def describe(self) -> str:
        return f"{self.field} {self.op} {self.value!r}"


ConstraintT = TypeVar("ConstraintT", bound=FieldConstraint)


class RevealedConstraint(BaseModel, Generic[ConstraintT]):
    """One constraint of a task's user and when the user says it (a domain's subclass names its
    constraint type: `class TaskConstraint(RevealedConstraint[Constraint])`)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    constraint: ConstraintT
    reveal: Reveal
