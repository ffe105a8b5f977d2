"""The movie record TMDB titles are normalised into (the τ-Rec v1 movie record, field for field) and a loaded, id-indexed catalog of them: the source's output, which the movies domain names as its item model."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictStr,
    TypeAdapter,
    field_validator,
)

from catalog_pipeline.tmdb.provenance import load_manifest
from catalog_pipeline.verify import SourceCatalog
from runner.core.item_catalog import iso_date_text

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
        return iso_date_text(value)

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


class Catalog(SourceCatalog[CatalogItem], manifest=load_manifest):
    """An ordered list of catalog items with an id index and a content digest (v1's catalog.json loads unchanged)."""

    item_model = CatalogItem
    record_noun = "item"

    @classmethod
    def record_label(cls, index: int, record: object) -> str:
        return str(record.get("id", f"#{index}")) if isinstance(record, dict) else f"#{index}"
