"""Normalization and validation: a TMDB details record becomes a `CatalogItem` or a counted drop."""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from catalog_pipeline.extract import EnrichedMovie, FieldProblem, extract_movie
from catalog_pipeline.providers import normalize_services
from runner.catalog import CatalogItem
from runner.errors import describe_validation_error

DropReason = Literal[
    "missing_runtime",
    "missing_genres",
    "missing_rating",
    "missing_field",
    "malformed_field",
    "not_found",
]


class Drop(BaseModel):
    """One title left out of the snapshot, with the field and a readable reason."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    tmdb_id: int | None = Field(description="TMDB id (None when the record had no usable id)")
    reason: DropReason
    field: str
    detail: str


class SponsoredConfig(BaseModel):
    """Which titles carry `sponsored=true`: benchmark-side, stable per title across snapshots.

    A title is sponsored when its TMDB id is listed in `ids`, or when a hash of `seed` and its
    id falls below `fraction` (independent of the snapshot date, so the flag never flips).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    ids: tuple[int, ...] = Field(default=(), description="TMDB ids always sponsored")
    fraction: float = Field(default=0.05, ge=0, le=1, description="Seeded share of other titles")
    seed: str = Field(default="taurec-sponsored-v1", description="Seed of the per-title hash")

    def is_sponsored(self, tmdb_id: int) -> bool:
        if tmdb_id in self.ids:
            return True
        digest = hashlib.sha256(f"{self.seed}:{tmdb_id}".encode()).digest()
        return int.from_bytes(digest[:8], "big") / 2**64 < self.fraction


def _dedupe(values: Iterable[str]) -> list[str]:
    seen: list[str] = []
    for value in values:
        if value not in seen:
            seen.append(value)
    return seen


def to_catalog_item(movie: EnrichedMovie, sponsored: SponsoredConfig) -> CatalogItem | Drop:
    """Apply the drop rules (runtime, genres, rating) and build the validated item."""
    if not movie.runtime:
        return Drop(
            tmdb_id=movie.tmdb_id,
            reason="missing_runtime",
            field="runtime",
            detail=f"runtime is {movie.runtime!r}",
        )
    if not movie.genres:
        return Drop(
            tmdb_id=movie.tmdb_id, reason="missing_genres", field="genres", detail="no genres"
        )
    if not movie.vote_count or not movie.vote_average:
        return Drop(
            tmdb_id=movie.tmdb_id,
            reason="missing_rating",
            field="vote_average",
            detail=f"vote_average {movie.vote_average!r}, vote_count {movie.vote_count!r}",
        )
    try:
        return CatalogItem(
            id=f"tmdb_{movie.tmdb_id}",
            title=movie.title,
            release_date=movie.release_date,
            runtime=movie.runtime,
            genres=_dedupe(movie.genres),
            overview=movie.overview,
            cast=list(movie.cast),
            director=movie.director,
            rating=movie.vote_average,
            vote_count=movie.vote_count,
            streaming_services=normalize_services(movie.providers),
            sponsored=sponsored.is_sponsored(movie.tmdb_id),
            content_rating=movie.certification,
        )
    except ValidationError as exc:
        problems = describe_validation_error(exc)
        field = str(exc.errors()[0]["loc"][0]) if exc.errors()[0]["loc"] else "(record)"
        return Drop(
            tmdb_id=movie.tmdb_id, reason="malformed_field", field=field, detail="; ".join(problems)
        )


def normalize_record(
    raw: object, sponsored: SponsoredConfig, *, expected_id: int | None = None, region: str = "US"
) -> CatalogItem | Drop:
    """One raw details record → item or drop; never raises for bad data."""
    raw_id = raw.get("id") if isinstance(raw, dict) else None
    fallback_id = (
        expected_id
        if expected_id is not None
        else (raw_id if isinstance(raw_id, int) and not isinstance(raw_id, bool) else None)
    )
    try:
        movie = extract_movie(raw, region=region)
    except FieldProblem as problem:
        reason: DropReason = "missing_field" if problem.kind == "missing" else "malformed_field"
        return Drop(tmdb_id=fallback_id, reason=reason, field=problem.field, detail=problem.detail)
    if expected_id is not None and movie.tmdb_id != expected_id:
        return Drop(
            tmdb_id=expected_id,
            reason="malformed_field",
            field="id",
            detail=f"asked for {expected_id}, the record says {movie.tmdb_id}",
        )
    return to_catalog_item(movie, sponsored)


def drop_counts(drops: Iterable[Drop]) -> dict[str, int]:
    """Drops counted by reason, sorted by reason name."""
    counts = Counter(d.reason for d in drops)
    return dict(sorted(counts.items()))
