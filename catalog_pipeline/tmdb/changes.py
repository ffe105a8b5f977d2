"""`changes.json`: titles added, removed and changed (field by field) since the previous snapshot."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from catalog_pipeline.tmdb.items import Catalog, CatalogItem


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class TitleRef(_Model):
    id: str
    title: str


class FieldChange(_Model):
    before: Any
    after: Any


class TitleChange(_Model):
    id: str
    title: str
    fields: dict[str, FieldChange]


class ChangeCounts(_Model):
    added: int
    removed: int
    changed: int
    unchanged: int


class SnapshotChanges(_Model):
    """The diff of a snapshot against the latest earlier snapshot in the same folder."""

    schema_version: Literal[1] = 1
    date: dt.date
    previous: dt.date | None = Field(description="None: no earlier snapshot, every title is added")
    counts: ChangeCounts
    added: list[TitleRef]
    removed: list[TitleRef]
    changed: list[TitleChange]

    def to_json_bytes(self) -> bytes:
        return (
            json.dumps(self.model_dump(mode="json"), ensure_ascii=False, indent=2) + "\n"
        ).encode("utf-8")


def _order(item_id: str) -> tuple[int, str]:
    digits = item_id.removeprefix("tmdb_")
    return (int(digits) if digits.isdigit() else -1, item_id)


def _fields(before: CatalogItem, after: CatalogItem) -> dict[str, FieldChange]:
    old, new = before.model_dump(mode="json"), after.model_dump(mode="json")
    return {
        name: FieldChange(before=old[name], after=new[name])
        for name in CatalogItem.model_fields
        if old[name] != new[name]
    }


def diff_catalogs(
    current: Catalog, previous: Catalog | None, *, date: dt.date, previous_date: dt.date | None
) -> SnapshotChanges:
    """Added, removed and per-field changes, every list sorted by numeric TMDB id."""
    old = {item.id: item for item in previous} if previous is not None else {}
    new = {item.id: item for item in current}
    added = [
        TitleRef(id=i, title=new[i].title) for i in sorted(new.keys() - old.keys(), key=_order)
    ]
    removed = [
        TitleRef(id=i, title=old[i].title) for i in sorted(old.keys() - new.keys(), key=_order)
    ]
    changed: list[TitleChange] = []
    unchanged = 0
    for item_id in sorted(new.keys() & old.keys(), key=_order):
        fields = _fields(old[item_id], new[item_id])
        if fields:
            changed.append(TitleChange(id=item_id, title=new[item_id].title, fields=fields))
        else:
            unchanged += 1
    return SnapshotChanges(
        date=date,
        previous=previous_date,
        counts=ChangeCounts(
            added=len(added), removed=len(removed), changed=len(changed), unchanged=unchanged
        ),
        added=added,
        removed=removed,
        changed=changed,
    )
