"""Enrichment fields pulled out of one TMDB movie-details record, with field-named problems."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeGuard

# US release types in TMDB: 1 premiere, 2 theatrical (limited), 3 theatrical, 4 digital,
# 5 physical, 6 TV. Certification comes from the first non-empty one in this order.
CERTIFICATION_TYPE_ORDER: tuple[int, ...] = (3, 2, 4, 5, 6)
CERTIFICATIONS: dict[str, str] = {
    "G": "G",
    "PG": "PG",
    "PG-13": "PG-13",
    "R": "R",
    "NC-17": "NC-17",
    "NR": "NR",
    "UR": "NR",
    "UNRATED": "NR",
    "NOT RATED": "NR",
    "X": "NC-17",
    "TV-Y": "G",
    "TV-Y7": "G",
    "TV-G": "G",
    "TV-PG": "PG",
    "TV-14": "PG-13",
    "TV-MA": "R",
}
CAST_SIZE = 5


class FieldProblem(ValueError):
    """A field of an API record is missing or malformed (`kind` is `missing` or `malformed`)."""

    def __init__(self, field: str, kind: str, detail: str) -> None:
        self.field = field
        self.kind = kind
        self.detail = detail
        super().__init__(f"{field}: {detail}")


@dataclass(frozen=True)
class EnrichedMovie:
    """What enrichment keeps from one details record (before normalization and the drop rules)."""

    tmdb_id: int
    title: str
    release_date: dt.date
    runtime: int | None
    genres: tuple[str, ...]
    overview: str
    cast: tuple[str, ...]
    director: str
    vote_average: float | None
    vote_count: int | None
    certification: str
    providers: tuple[str, ...]


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: object) -> TypeGuard[int | float]:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _mapping(raw: Mapping[str, Any], key: str, where: str) -> Mapping[str, Any]:
    if key not in raw or raw[key] is None:
        raise FieldProblem(where, "missing", "absent from the record")
    value = raw[key]
    if not isinstance(value, Mapping):
        raise FieldProblem(where, "malformed", f"expected an object, got {type(value).__name__}")
    return value


def _list(raw: Mapping[str, Any], key: str, where: str, *, default_empty: bool) -> list[Any]:
    value = raw.get(key)
    if value is None:
        if default_empty:
            return []
        raise FieldProblem(where, "missing", "absent from the record")
    if not isinstance(value, list):
        raise FieldProblem(where, "malformed", f"expected a list, got {type(value).__name__}")
    return value


def _text(entry: object, where: str) -> str:
    if not isinstance(entry, Mapping):
        raise FieldProblem(where, "malformed", f"expected an object, got {type(entry).__name__}")
    name = entry.get("name") if "name" in entry else entry.get("provider_name")
    if not isinstance(name, str) or not name.strip():
        raise FieldProblem(where, "malformed", f"expected a non-empty name, got {name!r}")
    return " ".join(name.split())


def us_certification(release_dates: Mapping[str, Any]) -> str:
    """First non-empty US certification among release types 3, 2, then 4/5/6; none → NR."""
    results = _list(release_dates, "results", "release_dates.results", default_empty=True)
    by_type: dict[int, list[tuple[str, str]]] = {}
    for i, country in enumerate(results):
        if not isinstance(country, Mapping):
            raise FieldProblem(f"release_dates.results[{i}]", "malformed", "expected an object")
        if country.get("iso_3166_1") != "US":
            continue
        dates = _list(
            country,
            "release_dates",
            f"release_dates.results[{i}].release_dates",
            default_empty=True,
        )
        for j, entry in enumerate(dates):
            where = f"release_dates.results[{i}].release_dates[{j}]"
            if not isinstance(entry, Mapping):
                raise FieldProblem(where, "malformed", "expected an object")
            kind, cert = entry.get("type"), entry.get("certification") or ""
            if not _is_int(kind) or not isinstance(cert, str):
                raise FieldProblem(where, "malformed", f"type {kind!r}, certification {cert!r}")
            when = entry.get("release_date") if isinstance(entry.get("release_date"), str) else ""
            by_type.setdefault(kind, []).append((str(when), cert.strip()))
    for kind in CERTIFICATION_TYPE_ORDER:
        for _, cert in sorted(by_type.get(kind, []), key=lambda pair: pair[0]):
            mapped = CERTIFICATIONS.get(cert.upper())
            if mapped:
                return mapped
    return "NR"


def _cast(credits: Mapping[str, Any]) -> tuple[str, ...]:
    entries = _list(credits, "cast", "credits.cast", default_empty=True)
    ranked: list[tuple[float, int, str]] = []
    for i, entry in enumerate(entries):
        name = _text(entry, f"credits.cast[{i}]")
        order = entry.get("order")
        ranked.append((float(order) if _is_number(order) else float("inf"), i, name))
    names: list[str] = []
    for _, _, name in sorted(ranked):
        if name not in names:
            names.append(name)
        if len(names) == CAST_SIZE:
            break
    return tuple(names)


def _directors(credits: Mapping[str, Any]) -> str:
    entries = _list(credits, "crew", "credits.crew", default_empty=True)
    names: list[str] = []
    for i, entry in enumerate(entries):
        if not isinstance(entry, Mapping):
            raise FieldProblem(f"credits.crew[{i}]", "malformed", "expected an object")
        if entry.get("job") == "Director":
            name = _text(entry, f"credits.crew[{i}]")
            if name not in names:
                names.append(name)
    return ", ".join(names)


def _providers(raw: Mapping[str, Any], region: str) -> tuple[str, ...]:
    block = _mapping(raw, "watch/providers", "watch/providers")
    results = block.get("results")
    results = {} if results is None else results
    if not isinstance(results, Mapping):
        raise FieldProblem("watch/providers.results", "malformed", "expected an object")
    country = results.get(region)
    country = {} if country is None else country
    if not isinstance(country, Mapping):
        raise FieldProblem(f"watch/providers.results.{region}", "malformed", "expected an object")
    where = f"watch/providers.results.{region}.flatrate"
    flatrate = _list(country, "flatrate", where, default_empty=True)
    return tuple(_text(entry, f"{where}[{i}]") for i, entry in enumerate(flatrate))


def extract_movie(raw: object, *, region: str = "US") -> EnrichedMovie:
    """The enrichment fields of one `/movie/{id}?append_to_response=credits,release_dates,watch/providers`.

    Raises `FieldProblem` naming the field when the record is missing or malformed. Missing
    runtime, genres or rating are *not* problems here: the normalizer drops those by reason.
    """
    if not isinstance(raw, Mapping):
        raise FieldProblem("(record)", "malformed", f"expected an object, got {type(raw).__name__}")
    tmdb_id = raw.get("id")
    if not _is_int(tmdb_id) or tmdb_id <= 0:
        raise FieldProblem("id", "malformed" if "id" in raw else "missing", f"got {tmdb_id!r}")
    title = raw.get("title")
    if not isinstance(title, str) or not title.strip():
        kind = "missing" if title in (None, "") else "malformed"
        raise FieldProblem("title", kind, f"expected a non-empty string, got {title!r}")
    released = raw.get("release_date")
    if released in (None, ""):
        raise FieldProblem("release_date", "missing", "no release date")
    if not isinstance(released, str):
        raise FieldProblem("release_date", "malformed", f"expected YYYY-MM-DD, got {released!r}")
    try:
        release_date = dt.date.fromisoformat(released)
    except ValueError:
        raise FieldProblem(
            "release_date", "malformed", f"expected YYYY-MM-DD, got {released!r}"
        ) from None
    runtime = raw.get("runtime")
    if runtime is not None and not (_is_int(runtime) and runtime >= 0):
        if not (isinstance(runtime, float) and runtime.is_integer() and runtime >= 0):
            raise FieldProblem("runtime", "malformed", f"expected whole minutes, got {runtime!r}")
        runtime = int(runtime)
    genres = tuple(
        _text(g, f"genres[{i}]")
        for i, g in enumerate(_list(raw, "genres", "genres", default_empty=True))
    )
    overview = raw.get("overview")
    if overview is not None and not isinstance(overview, str):
        raise FieldProblem(
            "overview", "malformed", f"expected a string, got {type(overview).__name__}"
        )
    average, count = raw.get("vote_average"), raw.get("vote_count")
    if average is not None and not (_is_number(average) and 0 <= average <= 10):
        raise FieldProblem("vote_average", "malformed", f"expected 0..10, got {average!r}")
    if count is not None and not (_is_int(count) and count >= 0):
        raise FieldProblem("vote_count", "malformed", f"expected a count, got {count!r}")
    credits = _mapping(raw, "credits", "credits")
    release_dates = _mapping(raw, "release_dates", "release_dates")
    return EnrichedMovie(
        tmdb_id=tmdb_id,
        title=" ".join(title.split()),
        release_date=release_date,
        runtime=runtime,
        genres=genres,
        overview=(overview or "").strip(),
        cast=_cast(credits),
        director=_directors(credits),
        vote_average=float(average) if average is not None else None,
        vote_count=count,
        certification=us_certification(release_dates),
        providers=_providers(raw, region),
    )
