"""What the feedback report says of movie trials: titles beside ids, each constraint's reveal tag, and what wins a task."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from domains.movies.catalog import Catalog
from domains.movies.tasks import Task
from runner.core.predicates import ConstraintCheck


def _value(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)


def item_text(catalog: Catalog, item_id: str) -> str:
    """The title and id of a movie (or that the id is not in the catalog)."""
    item = catalog.get(item_id)
    return f"{item.title!r} ({item_id})" if item is not None else f"unknown id {item_id!r}"


def constraint_reveal(task: Task, check: ConstraintCheck) -> str | None:
    """The reveal tag of the task's constraint that `check` judged (None: not one of the task's)."""
    for c in task.constraints:
        k = c.constraint
        if k.field == check.field and k.op == check.op and k.value == check.value:
            return str(c.reveal)
    return None


def _finder(task: Task, tools: Sequence[str]) -> str:
    predicates = [c.constraint.model_dump(mode="json") for c in task.constraints]
    call = "filter_catalog(predicates=" + _value(predicates) + ")"
    if "filter_catalog" in tools:
        return call
    stated = "; ".join(
        f"{c.constraint.field} {c.constraint.op} {_value(c.constraint.value)} ({c.reveal})"
        for c in task.constraints
    )
    return f"the task's constraints {stated}: check them with get_metadata, or on the custom track {call}"


def winning_hint(task: Task, catalog: Catalog, tools: Sequence[str]) -> list[str]:
    """A winning title, how many win, the call that finds it, and the constraints said only late."""
    from domains.movies.validate import check_task

    winning = check_task(task, catalog).winning_solutions
    if not winning:
        return []
    lines = [
        f"a winning title: {item_text(catalog, winning[0])} "
        f"({len(winning)} winning in all); what finds it: {_finder(task, tools)}"
    ]
    unasked = [c.constraint.field for c in task.constraints if c.reveal in ("on_ask", "hidden")]
    if unasked:
        lines.append(
            "the user states these only when asked or after a decline: " + ", ".join(unasked)
        )
    return lines
