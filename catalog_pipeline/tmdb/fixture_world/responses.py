"""TMDB-shaped JSON for the fixture world: discover, movie details with appends, changes, genres, errors."""

from __future__ import annotations

import datetime as dt
import hashlib
import math
from collections.abc import Callable, Mapping
from typing import Any

from catalog_pipeline.tmdb.fixture_world.world import (
    ADS_PROVIDERS,
    GENRES,
    PROVIDERS,
    RENT_BUY_PROVIDERS,
    Film,
    World,
)

PAGE_SIZE = 20
CHANGES_PAGE_SIZE = 100
TMDB_MAX_PAGES = 500
CHANGES_MAX_DAYS = 14
JSON = dict[str, Any]


class TmdbError(Exception):
    """A TMDB error response: HTTP status plus TMDB's own `status_code` and message."""

    def __init__(self, http_status: int, status_code: int, message: str) -> None:
        super().__init__(message)
        self.http_status = http_status
        self.status_code = status_code
        self.message = message

    def body(self) -> JSON:
        return {"success": False, "status_code": self.status_code, "status_message": self.message}


INVALID_KEY = TmdbError(401, 7, "Invalid API key: You must be granted a valid key.")
NOT_FOUND = TmdbError(404, 34, "The resource you requested could not be found.")
INVALID_PAGE = TmdbError(
    400, 22, "Invalid page: Pages start at 1 and max at 500. They are expected to be an integer."
)


def rate_limited(limit: float) -> TmdbError:
    return TmdbError(429, 25, f"Your request count (#) is over the allowed limit of ({limit:g}).")


def _image(kind: str, key: object) -> str:
    return "/" + hashlib.sha1(f"{kind}:{key}".encode()).hexdigest()[:27] + ".jpg"


def genre_list() -> JSON:
    return {"genres": [{"id": gid, "name": name} for gid, name in GENRES.items()]}


def _parse_date(params: Mapping[str, str], name: str) -> dt.date | None:
    raw = params.get(name)
    if raw is None or raw == "":
        return None
    try:
        return dt.date.fromisoformat(raw)
    except ValueError as exc:
        raise TmdbError(422, 47, f"The input is not valid: {name}={raw!r} is not a date.") from exc


def _parse_number(params: Mapping[str, str], name: str) -> float | None:
    raw = params.get(name)
    if raw is None or raw == "":
        return None
    try:
        return float(raw)
    except ValueError as exc:
        raise TmdbError(
            422, 47, f"The input is not valid: {name}={raw!r} is not a number."
        ) from exc


def _page(params: Mapping[str, str], max_page: int) -> int:
    raw = params.get("page", "1")
    try:
        page = int(raw)
    except ValueError:
        raise INVALID_PAGE from None
    if not 1 <= page <= max_page:
        raise INVALID_PAGE
    return page


def discover_item(film: Film, date: dt.date) -> JSON:
    return {
        "adult": False,
        "backdrop_path": _image("backdrop", film.id),
        "genre_ids": list(film.genre_ids),
        "id": film.id,
        "original_language": film.original_language,
        "original_title": film.title,
        "overview": film.overview,
        "popularity": film.popularity_on(date),
        "poster_path": _image("poster", film.id),
        "release_date": film.release_date.isoformat(),
        "title": film.title,
        "video": False,
        "vote_average": film.vote_average_on(date),
        "vote_count": film.vote_count_on(date),
    }


def _genre_filter(raw: str) -> Callable[[Film], bool]:
    """TMDB's with_genres: ',' means all of, '|' means any of."""
    if "|" in raw:
        wanted = {int(x) for x in raw.split("|") if x.strip()}
        return lambda f: bool(wanted & set(f.genre_ids))
    required = {int(x) for x in raw.split(",") if x.strip()}
    return lambda f: required <= set(f.genre_ids)


_SORT_KEYS: dict[str, Callable[[Film, dt.date], Any]] = {
    "popularity": lambda f, d: f.popularity_on(d),
    "primary_release_date": lambda f, d: f.release_date,
    "vote_average": lambda f, d: f.vote_average_on(d),
    "vote_count": lambda f, d: f.vote_count_on(d),
    "title": lambda f, d: f.title,
}


def discover(world: World, params: Mapping[str, str], max_pages: int = TMDB_MAX_PAGES) -> JSON:
    """`GET /discover/movie`: filter, sort (ties broken by id), 20 per page, at most `max_pages`."""
    page = _page(params, TMDB_MAX_PAGES)
    date = world.date
    checks: list[Callable[[Film], bool]] = []

    def within(value: Any, low: Any, high: Any) -> bool:
        return (low is None or value >= low) and (high is None or value <= high)

    def bounds(name: str, parse: Callable[[Mapping[str, str], str], Any]) -> tuple[Any, Any]:
        return parse(params, f"{name}.gte"), parse(params, f"{name}.lte")

    region = params.get("region", "").upper()
    p_low, p_high = bounds("primary_release_date", _parse_date)
    r_low, r_high = bounds("release_date", _parse_date)
    v_low, v_high = bounds("vote_count", _parse_number)
    a_low, a_high = bounds("vote_average", _parse_number)
    checks.append(lambda f: within(f.release_date, p_low, p_high))
    if r_low is not None or r_high is not None:
        checks.append(
            lambda f: any(
                within(rel.date, r_low, r_high)
                for rel in f.releases
                if not region or rel.country == region
            )
        )
    checks.append(lambda f: within(f.vote_count_on(date), v_low, v_high))
    checks.append(lambda f: within(f.vote_average_on(date), a_low, a_high))
    if region:
        checks.append(lambda f: any(rel.country == region for rel in f.releases))
    if params.get("with_genres"):
        try:
            checks.append(_genre_filter(params["with_genres"]))
        except ValueError as exc:
            raise TmdbError(422, 47, "The input is not valid: with_genres.") from exc
    films = [f for f in world.films if all(check(f) for check in checks)]
    field, _, direction = params.get("sort_by", "popularity.desc").partition(".")
    key = _SORT_KEYS.get(field, _SORT_KEYS["popularity"])
    descending = direction != "asc"
    films.sort(key=lambda f: f.id)
    films.sort(key=lambda f: key(f, date), reverse=descending)
    total_pages = min(max(1, math.ceil(len(films) / PAGE_SIZE)), max_pages)
    start = (page - 1) * PAGE_SIZE
    shown = films[start : start + PAGE_SIZE] if page <= total_pages else []
    return {
        "page": page,
        "results": [discover_item(f, date) for f in shown],
        "total_pages": total_pages,
        "total_results": len(films),
    }


def _person(person_id: int, name: str, gender: int, department: str, popularity: float) -> JSON:
    return {
        "adult": False,
        "gender": gender,
        "id": person_id,
        "known_for_department": department,
        "name": name,
        "original_name": name,
        "popularity": popularity,
        "profile_path": _image("profile", person_id) if person_id % 5 else None,
    }


def credits(film: Film) -> JSON:
    cast = [
        {
            **_person(c.person.id, c.person.name, c.person.gender, "Acting", c.person.popularity),
            "cast_id": 10 + c.order,
            "character": c.character,
            "credit_id": c.credit_id,
            "order": c.order,
        }
        for c in film.cast
    ]
    crew = [
        {
            **_person(
                c.person.id,
                c.person.name,
                c.person.gender,
                c.person.department,
                c.person.popularity,
            ),
            "credit_id": c.credit_id,
            "department": c.department,
            "job": c.job,
        }
        for c in film.crew
    ]
    return {"id": film.id, "cast": cast, "crew": crew}


def release_dates(film: Film) -> JSON:
    countries: dict[str, list[JSON]] = {}
    for rel in film.releases:
        countries.setdefault(rel.country, []).append(
            {
                "certification": rel.certification,
                "descriptors": [],
                "iso_639_1": "",
                "note": rel.note,
                "release_date": f"{rel.date.isoformat()}T00:00:00.000Z",
                "type": rel.type,
            }
        )
    return {
        "id": film.id,
        "results": [
            {"iso_3166_1": country, "release_dates": entries}
            for country, entries in sorted(countries.items())
        ],
    }


def _offers(names: tuple[str, ...], table: Mapping[str, tuple[int, int]]) -> list[JSON]:
    offers = [
        {
            "logo_path": _image("logo", table[name][0]),
            "provider_id": table[name][0],
            "provider_name": name,
            "display_priority": table[name][1],
        }
        for name in names
    ]
    return sorted(offers, key=lambda o: (o["display_priority"], o["provider_id"]))


def watch_providers(film: Film, date: dt.date) -> JSON:
    """`watch/providers`: US flat-rate on the date (plus rent/buy/ads, which are not flat-rate)."""
    if date < film.release_date:
        return {"id": film.id, "results": {}}
    us: JSON = {"link": f"https://www.themoviedb.org/movie/{film.id}/watch?locale=US"}
    flatrate = film.flatrate_on(date)
    if flatrate:
        us["flatrate"] = _offers(flatrate, PROVIDERS)
    if film.rent_buy and date >= film.release_date + dt.timedelta(days=21):
        us["rent"] = _offers(film.rent_buy, RENT_BUY_PROVIDERS)
        us["buy"] = _offers(film.rent_buy, RENT_BUY_PROVIDERS)
    if film.ads:
        us["ads"] = _offers(film.ads, ADS_PROVIDERS)
    results: JSON = {"US": us}
    if flatrate:  # other countries exist too; the pipeline must read only US
        results["GB"] = {
            "link": f"https://www.themoviedb.org/movie/{film.id}/watch?locale=GB",
            "flatrate": _offers(flatrate[:1], PROVIDERS),
        }
    return {"id": film.id, "results": results}


def movie_details(film: Film, date: dt.date, append: list[str]) -> JSON:
    """`GET /movie/{id}` with `append_to_response` (credits, release_dates, watch/providers)."""
    runtime = 0 if film.runtime is None and film.runtime_zero else film.runtime
    body: JSON = {
        "adult": False,
        "backdrop_path": _image("backdrop", film.id),
        "belongs_to_collection": None,
        "budget": film.budget,
        "genres": [{"id": g, "name": GENRES[g]} for g in film.genre_ids],
        "homepage": "",
        "id": film.id,
        "imdb_id": None,
        "origin_country": ["US"],
        "original_language": film.original_language,
        "original_title": film.title,
        "overview": film.overview,
        "popularity": film.popularity_on(date),
        "poster_path": _image("poster", film.id),
        "production_companies": [],
        "production_countries": [{"iso_3166_1": "US", "name": "United States of America"}],
        "release_date": film.release_date.isoformat(),
        "revenue": 0,
        "runtime": runtime,
        "spoken_languages": [],
        "status": film.status_on(date),
        "tagline": film.tagline,
        "title": film.title,
        "video": False,
        "vote_average": film.vote_average_on(date),
        "vote_count": film.vote_count_on(date),
    }
    builders: dict[str, Callable[[], JSON]] = {
        "credits": lambda: credits(film),
        "release_dates": lambda: release_dates(film),
        "watch/providers": lambda: watch_providers(film, date),
    }
    for name in append:
        if name in builders:
            part = builders[name]()
            part.pop("id", None)
            body[name] = part
    return body


def changes(world: World, params: Mapping[str, str]) -> JSON:
    """`GET /movie/changes`: ids whose data changed in [start_date, end_date] (default: last day)."""
    end = _parse_date(params, "end_date") or world.date
    start = _parse_date(params, "start_date") or end - dt.timedelta(days=1)
    if start > end or (end - start).days > CHANGES_MAX_DAYS:
        raise TmdbError(
            422, 47, f"The input is not valid: a date range of at most {CHANGES_MAX_DAYS} days."
        )
    end = min(end, world.date)
    ids = sorted(f.id for f in world.films if any(start <= d <= end for d in f.change_dates))
    total_pages = max(1, math.ceil(len(ids) / CHANGES_PAGE_SIZE))
    page = _page(params, 1000)
    chunk = ids[(page - 1) * CHANGES_PAGE_SIZE : page * CHANGES_PAGE_SIZE]
    return {
        "results": [{"id": i, "adult": False} for i in chunk],
        "page": page,
        "total_pages": total_pages,
        "total_results": len(ids),
    }
