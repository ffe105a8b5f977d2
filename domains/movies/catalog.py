"""The catalog item (the τ-Rec v1 movie record, field for field) and a loaded, id-indexed catalog."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictStr,
    TypeAdapter,
    ValidationError,
    field_validator,
)

from runner.errors import LoadError, describe_validation_error

ContentRating = Literal["G", "PG", "PG-13", "R", "NC-17", "NR"]
RESTRICTED_RATINGS: frozenset[str] = frozenset({"R", "NC-17"})


class CatalogItem(BaseModel):
    """One movie. Exactly the v1 fields; a v1 `catalog.json` record loads unchanged.

    Nothing is coerced: `runtime: true`, `rating: "7"`, `sponsored: 1` or a release date given
    as a number are errors, as is a NUL character in any text.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(strict=True, pattern=r"^tmdb_\d+$", description="`tmdb_<TMDB movie id>`")
    title: str = Field(strict=True, min_length=1)
    release_date: dt.date = Field(description="ISO date of the US (or primary) release")
    runtime: int = Field(strict=True, gt=0, description="Minutes")
    genres: list[StrictStr] = Field(strict=True, min_length=1, description="TMDB genre names")
    overview: str = Field(strict=True)
    cast: list[StrictStr] = Field(
        strict=True, max_length=5, description="Top-billed cast, at most five"
    )
    director: str = Field(strict=True, description="Director name(s); several are joined with ', '")
    rating: float = Field(
        strict=True, ge=0, le=10, allow_inf_nan=False, description="TMDB vote average"
    )
    vote_count: int = Field(strict=True, ge=0)
    streaming_services: list[StrictStr] = Field(
        strict=True, description="Normalized US flat-rate services; empty is a valid value"
    )
    sponsored: bool = Field(strict=True, description="Benchmark-side flag, not TMDB data")
    content_rating: ContentRating

    @field_validator("release_date", mode="before")
    @classmethod
    def _iso_date_text(cls, value: object) -> object:
        """JSON has no dates: an ISO `YYYY-MM-DD` string (or a date, from Python) and nothing else."""
        if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
            return value
        if not isinstance(value, str):
            raise ValueError(f"must be an ISO date string YYYY-MM-DD, not {type(value).__name__}")
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            raise ValueError(f"{value!r} is not an ISO date YYYY-MM-DD") from None

    @field_validator("id", "title", "overview", "director", "genres", "cast", "streaming_services")
    @classmethod
    def _no_nul(cls, value: str | list[str]) -> str | list[str]:
        if any("\x00" in v for v in ([value] if isinstance(value, str) else value)):
            raise ValueError("contains a NUL character")
        return value

    @field_validator("genres", "cast", "streaming_services")
    @classmethod
    def _no_blank_entries(cls, value: list[str]) -> list[str]:
        if any(not v.strip() for v in value):
            raise ValueError("entries must be non-empty strings")
        return value


CATALOG_ADAPTER: TypeAdapter[list[CatalogItem]] = TypeAdapter(list[CatalogItem])

# The typed field table every constraint is checked against (one definition for the whole project).
FieldKind = Literal["number", "text", "list", "bool", "date", "rating"]
FIELD_KINDS: dict[str, FieldKind] = {
    "id": "text",
    "title": "text",
    "release_date": "date",
    "runtime": "number",
    "genres": "list",
    "overview": "text",
    "cast": "list",
    "director": "text",
    "rating": "number",
    "vote_count": "number",
    "streaming_services": "list",
    "sponsored": "bool",
    "content_rating": "rating",
}
assert set(FIELD_KINDS) == set(CatalogItem.model_fields), "FIELD_KINDS must cover the item schema"


class Catalog:
    """An ordered list of catalog items with an id index and a content digest."""

    def __init__(self, items: list[CatalogItem], source: str = "<memory>") -> None:
        self.items: tuple[CatalogItem, ...] = tuple(items)
        self.source = source
        self._by_id: dict[str, CatalogItem] = {}
        for item in self.items:
            if item.id in self._by_id:
                raise LoadError(source, [f"duplicate id {item.id!r}"])
            self._by_id[item.id] = item

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self) -> Iterator[CatalogItem]:
        return iter(self.items)

    def __contains__(self, item_id: object) -> bool:
        return item_id in self._by_id

    def get(self, item_id: str) -> CatalogItem | None:
        return self._by_id.get(item_id)

    def to_json_bytes(self) -> bytes:
        """Canonical JSON of the catalog (what `catalog.json` holds and what the digest covers)."""
        data = [item.model_dump(mode="json") for item in self.items]
        return (json.dumps(data, ensure_ascii=False, indent=2) + "\n").encode("utf-8")

    def digest(self) -> str:
        """sha256 of the canonical JSON, independent of how the file on disk was formatted."""
        return hashlib.sha256(self.to_json_bytes()).hexdigest()

    @classmethod
    def load(cls, path: Path | str) -> Catalog:
        """Load a snapshot folder (its `catalog.json`) or a bare `catalog.json` (v1 loads unchanged)."""
        path = Path(path)
        file = path / "catalog.json" if path.is_dir() else path
        if not file.exists():
            raise LoadError(file, ["catalog file not found"])
        if (file.parent / "manifest.json").exists():  # a snapshot: verified before any use
            from catalog_pipeline.verify import verify_snapshot

            verify_snapshot(file.parent)
        try:
            raw = json.loads(file.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise LoadError(file, [f"invalid JSON at line {exc.lineno}: {exc.msg}"]) from exc
        if not isinstance(raw, list):
            raise LoadError(file, [f"expected a JSON list of items, got {type(raw).__name__}"])
        problems: list[str] = []
        items: list[CatalogItem] = []
        for index, record in enumerate(raw):
            label = record.get("id", f"#{index}") if isinstance(record, dict) else f"#{index}"
            try:
                items.append(CatalogItem.model_validate(record))
            except ValidationError as exc:
                problems += describe_validation_error(exc, prefix=f"item {label}: ")
        if problems:
            raise LoadError(file, problems)
        return cls(items, source=str(file))
