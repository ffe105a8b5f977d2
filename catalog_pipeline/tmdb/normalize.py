"""Normalization and validation: a TMDB details record becomes a `CatalogItem` or a counted drop."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from pydantic import ValidationError

from catalog_pipeline.tmdb.extract import EnrichedMovie, FieldProblem, extract_movie
from catalog_pipeline.tmdb.items import CatalogItem
from catalog_pipeline.tmdb.providers import normalize_services
from catalog_pipeline.tmdb.settings import Drop as Drop
from catalog_pipeline.tmdb.settings import DropReason as DropReason
from catalog_pipeline.tmdb.settings import SponsoredConfig as SponsoredConfig
from runner.core.errors import describe_validation_error


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
