"""Reading JSON and JSON-lines files that cross a boundary: whatever is wrong is a LoadError
naming the file (and the line)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from runner.core.errors import LoadError, describe_validation_error

ModelT = TypeVar("ModelT", bound=BaseModel)


def read_json(path: Path) -> Any:
    """A JSON file's content; a LoadError naming the file when it is missing, is not UTF-8 text
    or is not JSON (with the line)."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise LoadError(path, ["file not found"]) from None
    except json.JSONDecodeError as exc:
        raise LoadError(path, [f"invalid JSON at line {exc.lineno}: {exc.msg}"]) from exc
    except UnicodeDecodeError as exc:
        raise LoadError(path, [f"not UTF-8 text: {exc.reason} at byte {exc.start}"]) from exc


def read_jsonl(path: Path, model: type[ModelT]) -> list[ModelT]:
    """Every record of a JSON-lines file in order (none when the file does not exist; blank lines
    are skipped); a record that does not fit `model` names the line, the field and the value."""
    if not path.exists():
        return []
    records: list[ModelT] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            records.append(model.model_validate_json(line))
        except ValidationError as exc:
            raise LoadError(path, describe_validation_error(exc, f"line {number}: ")) from exc
    return records
