"""The catalog every domain loads: an ordered, id-indexed tuple of validated items with a canonical JSON form and a content digest."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar, Generic, Self, TypeVar

from pydantic import BaseModel, ValidationError

from runner.core.errors import LoadError, describe_validation_error
from runner.core.json_files import read_json

__all__ = ["CATALOG_FILE", "ItemCatalog", "iso_date_text"]

CATALOG_FILE = "catalog.json"


ItemT = TypeVar("ItemT", bound=BaseModel)


def iso_date_text(value: object) -> object:
    """An item's date field as JSON gives it: an ISO `YYYY-MM-DD` string (or a date, from
    Python) and nothing else (a `mode="before"` field validator's body)."""
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return value
    if not isinstance(value, str):
        raise ValueError(f"must be an ISO date string YYYY-MM-DD, not {type(value).__name__}")
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise ValueError(f"{value!r} is not an ISO date YYYY-MM-DD") from None


class ItemCatalog(Generic[ItemT]):
    """An ordered list of items with an id index and a content digest (a domain subclasses it).

    A subclass names its item model and what one record is called in errors, and may verify a
    snapshot folder against its manifest before the catalog is read (`verify_folder`)."""

    item_model: ClassVar[type[BaseModel]]
    record_noun: ClassVar[str] = "item"

    def __init__(self, items: list[ItemT], source: str = "<memory>") -> None:
        self.items: tuple[ItemT, ...] = tuple(items)
        self.source = source
        self._by_id: dict[str, ItemT] = {}
        for item in self.items:
            item_id: str = item.id  # type: ignore[attr-defined]
            if item_id in self._by_id:
                raise LoadError(source, [f"duplicate id {item_id!r}"])
            self._by_id[item_id] = item

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self) -> Iterator[ItemT]:
        return iter(self.items)

    def __contains__(self, item_id: object) -> bool:
        return item_id in self._by_id

    def get(self, item_id: str) -> ItemT | None:
        """The item with this id, or None."""
        return self._by_id.get(item_id)

    def to_json_bytes(self) -> bytes:
        """Canonical JSON of the catalog (what `catalog.json` holds and what the digest covers)."""
        data = [item.model_dump(mode="json") for item in self.items]
        return (json.dumps(data, ensure_ascii=False, indent=2) + "\n").encode("utf-8")

    def digest(self) -> str:
        """sha256 of the canonical JSON, independent of how the file on disk was formatted."""
        return hashlib.sha256(self.to_json_bytes()).hexdigest()

    @classmethod
    def verify_folder(cls, folder: Path) -> None:
        """Check a snapshot folder (one with a manifest.json) before its catalog is read; raise
        LoadError on any mismatch. The default checks nothing."""

    @classmethod
    def record_label(cls, index: int, record: object) -> str:
        """How an error names one record of the file."""
        if isinstance(record, dict) and isinstance(record.get("id"), str):
            return f"#{index} ({record['id']})"
        return f"#{index}"

    @classmethod
    def load(cls, path: Path | str) -> Self:
        """Load a snapshot folder (its `catalog.json`, verified first when it has a manifest) or a
        bare catalog file; every bad record is named with its field and value in one LoadError."""
        path = Path(path)
        file = path / CATALOG_FILE if path.is_dir() else path
        if not file.exists():
            raise LoadError(file, ["catalog file not found"])
        if (file.parent / "manifest.json").exists():
            cls.verify_folder(file.parent)
        raw = read_json(file)
        if not isinstance(raw, list):
            raise LoadError(
                file, [f"expected a JSON list of {cls.record_noun}s, got {type(raw).__name__}"]
            )
        problems: list[str] = []
        items: list[ItemT] = []
        for index, record in enumerate(raw):
            try:
                items.append(cls.item_model.model_validate(record))  # type: ignore[arg-type]
            except ValidationError as exc:
                label = cls.record_label(index, record)
                problems += describe_validation_error(exc, prefix=f"{cls.record_noun} {label}: ")
        if problems:
            raise LoadError(file, problems)
        return cls(items, source=str(file))
