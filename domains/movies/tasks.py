"""Tasks: typed constraints with reveal tags, policy flags, user history and services (a superset of v1)."""

from __future__ import annotations

import datetime as dt
import hashlib
from pathlib import Path
from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

from domains.movies.catalog import FIELD_KINDS, CatalogItem
from runner.core.domain import task_loaders, tasks_digest
from runner.core.predicates import (
    Complexity,
    FieldConstraint,
    RevealDifficulty,
    RevealedConstraint,
)

PolicyName = Literal[
    "watch_history",
    "sponsored",
    "age_restricted",
    "availability",
    "single_recommendation",
    "transparency",
    "recommend_tool",
]
POLICY_NAMES: tuple[PolicyName, ...] = get_args(PolicyName)
_RATINGS = ("G", "PG", "PG-13", "R", "NC-17", "NR")
_CHOICES = {"content_rating": _RATINGS}


class Constraint(FieldConstraint):
    """A typed predicate `field op value` over one catalog field."""

    field_kinds = FIELD_KINDS
    choices = _CHOICES


class TaskConstraint(RevealedConstraint[Constraint]):
    """One constraint of the user and when the user says it."""


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
        return all(tc.constraint.holds(item) for tc in self.constraints)


# One task file, and every task of a suite folder sorted by id (problems named by file and field).
load_task, load_tasks = task_loaders(Task)
# sha256 over the canonical JSON of the tasks (order-independent).
suite_digest = tasks_digest


def text_digest(path: Path | str) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()
