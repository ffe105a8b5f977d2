"""Read a JSON Lines file into validated models, naming every bad line and field in one error."""

from __future__ import annotations

from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from runner.core.errors import LoadError, describe_validation_error

__all__ = ["load_jsonl"]

M = TypeVar("M", bound=BaseModel)


def load_jsonl(path: Path, model: type[M]) -> list[M]:
    """Every non-blank line of `path` as a `model`; a LoadError lists each bad line's fields."""
    rows: list[M] = []
    problems: list[str] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.strip():
            try:
                rows.append(model.model_validate_json(line))
            except ValidationError as exc:
                problems += describe_validation_error(exc, prefix=f"line {number}: ")
    if problems:
        raise LoadError(path, problems)
    return rows
