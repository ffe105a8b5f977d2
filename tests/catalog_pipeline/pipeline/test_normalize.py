"""Normalization on hand-built TMDB-shaped records: the provider table, certifications, drops."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from catalog_pipeline.tmdb.normalize import Drop, SponsoredConfig, drop_counts, normalize_record
from catalog_pipeline.tmdb.providers import normalize_provider, normalize_services
from domains.movies.catalog import CatalogItem

SPONSORED = SponsoredConfig(fraction=0.0)


def tmdb_record(**overrides: Any) -> dict[str, Any]:
    """A complete details record in TMDB's shape (append_to_response=credits,release_dates,watch/providers)."""
    record: dict[str, Any] = {
        "id": 4242,
        "title": "  The Quiet   Orchard ",
        "release_date": "2026-03-13",
        "runtime": 104,
        "genres": [{"id": 18, "name": "Drama"}, {"id": 9648, "name": "Mystery"}],
        "overview": "A beekeeper counts what the frost left behind.",
        "vote_average": 7.25,
        "vote_count": 812,
        "credits": {
            "cast": [
                {"name": f"Player {n}", "order": order, "character": "x"}
                for n, order in [(1, 3), (2, 0), (3, 6), (4, 1), (5, 2), (6, 4), (7, 5)]
            ],
            "crew": [
                {"name": "Ada Brine", "job": "Director", "department": "Directing"},
                {"name": "Cole Marsh", "job": "Screenplay", "department": "Writing"},
                {"name": "Ines Vale", "job": "Director", "department": "Directing"},
                {"name": "Ada Brine", "job": "Director", "department": "Directing"},
            ],
        },
        "release_dates": {
            "results": [
                {"iso_3166_1": "GB", "release_dates": [{"certification": "15", "type": 3}]},
                {
                    "iso_3166_1": "US",
                    "release_dates": [
                        {
                            "certification": "",
                            "type": 3,
                            "release_date": "2026-03-13T00:00:00.000Z",
                        },
                        {
                            "certification": "R",
                            "type": 2,
                            "release_date": "2026-03-01T00:00:00.000Z",
                        },
                        {
                            "certification": "PG-13",
                            "type": 4,
                            "release_date": "2026-05-01T00:00:00.000Z",
                        },
                    ],
                },
            ]
        },
        "watch/providers": {
            "results": {
                "US": {
                    "link": "https://example.invalid/watch",
                    "flatrate": [
                        {"provider_name": "Netflix Standard with Ads", "provider_id": 1796},
                        {"provider_name": "Netflix", "provider_id": 8},
                        {"provider_name": "Starz Amazon Channel", "provider_id": 1855},
                    ],
                    "rent": [{"provider_name": "Apple TV", "provider_id": 2}],
                },
                "GB": {"flatrate": [{"provider_name": "BBC iPlayer", "provider_id": 38}]},
            }
        },
    }
    record.update(overrides)
    return record


def test_complete_record_becomes_an_item() -> None:
    item = normalize_record(tmdb_record(), SPONSORED, expected_id=4242)
    assert isinstance(item, CatalogItem)
    assert item.id == "tmdb_4242"
    assert item.title == "The Quiet Orchard"
    assert item.genres == ["Drama", "Mystery"]
    assert item.cast == ["Player 2", "Player 4", "Player 5", "Player 1", "Player 6"]
    assert item.director == "Ada Brine, Ines Vale"
    assert item.content_rating == "R"  # type 3 empty → type 2
    assert item.streaming_services == ["Netflix", "Starz"]  # rent and other countries ignored
    assert item.rating == 7.25
    assert item.vote_count == 812
    assert item.runtime == 104
    assert item.sponsored is False


PROVIDER_TABLE = [
    ("Netflix Standard with Ads", "Netflix"),
    ("Netflix basic with Ads", "Netflix"),
    ("Amazon Prime Video with Ads", "Amazon Prime Video"),
    ("Starz Amazon Channel", "Starz"),
    ("AMC+ Amazon Channel", "AMC+"),
    ("AMC Plus Apple TV Channel", "AMC+"),
    ("Shudder Amazon Channel", "Shudder"),
    ("Disney Plus", "Disney+"),
    ("Max", "HBO Max"),
    ("HBO Max", "HBO Max"),
    ("Max Amazon Channel", "HBO Max"),
    ("Paramount Plus", "Paramount+"),
    ("Paramount Plus Essential", "Paramount+"),
    ("Paramount+ with Showtime", "Paramount+"),
    ("Paramount Plus Apple TV Channel", "Paramount+"),
    ("Apple TV Plus", "Apple TV+"),
    ("Peacock Premium", "Peacock"),
    ("Peacock Premium Plus", "Peacock"),
    ("MGM Plus", "MGM+"),
    ("The Roku Channel", "The Roku Channel"),
    ("Criterion Channel", "Criterion Channel"),
    ("fuboTV", "fuboTV"),
    ("Hulu", "Hulu"),
    ("Kanopy", "Kanopy"),
    ("  Some   New Service ", "Some New Service"),
]


@pytest.mark.parametrize(("raw", "service"), PROVIDER_TABLE)
def test_provider_table(raw: str, service: str) -> None:
    assert normalize_provider(raw) == service


def test_services_are_deduplicated_and_sorted() -> None:
    raw = [
        "Peacock Premium Plus",
        "amc+",
        "Max",
        "Peacock Premium",
        "HBO Max",
        "AMC+ Amazon Channel",
    ]
    assert normalize_services(raw) == ["AMC+", "HBO Max", "Peacock"]
    assert normalize_services([]) == []


def _with_us_dates(*entries: tuple[int, str]) -> dict[str, Any]:
    return {
        "results": [
            {
                "iso_3166_1": "US",
                "release_dates": [{"type": t, "certification": c} for t, c in entries],
            }
        ]
    }


@pytest.mark.parametrize(
    ("entries", "expected"),
    [
        ([(3, "PG-13"), (2, "R")], "PG-13"),
        ([(3, ""), (2, ""), (4, "PG")], "PG"),
        ([(6, "TV-MA"), (1, "G")], "R"),  # premiere (type 1) never rates
        ([(5, "NC-17"), (4, "")], "NC-17"),
        ([(4, "Unrated")], "NR"),
        ([(3, ""), (1, "PG")], "NR"),
        ([], "NR"),
    ],
)
def test_us_certification_order(entries: list[tuple[int, str]], expected: str) -> None:
    item = normalize_record(tmdb_record(release_dates=_with_us_dates(*entries)), SPONSORED)
    assert isinstance(item, CatalogItem)
    assert item.content_rating == expected


@pytest.mark.parametrize(
    ("overrides", "reason", "field"),
    [
        ({"runtime": 0}, "missing_runtime", "runtime"),
        ({"runtime": None}, "missing_runtime", "runtime"),
        ({"genres": []}, "missing_genres", "genres"),
        ({"vote_count": 0, "vote_average": 0.0}, "missing_rating", "vote_average"),
        ({"vote_average": 0}, "missing_rating", "vote_average"),
        ({"vote_count": None}, "missing_rating", "vote_average"),
        ({"runtime": "104 min"}, "malformed_field", "runtime"),
        ({"genres": [{"id": 18}]}, "malformed_field", "genres[0]"),
        ({"genres": "Drama"}, "malformed_field", "genres"),
        ({"title": ""}, "missing_field", "title"),
        ({"title": 12}, "malformed_field", "title"),
        ({"release_date": ""}, "missing_field", "release_date"),
        ({"release_date": "13/03/2026"}, "malformed_field", "release_date"),
        ({"vote_average": 11.5}, "malformed_field", "vote_average"),
        ({"vote_count": -3}, "malformed_field", "vote_count"),
        ({"vote_count": True}, "malformed_field", "vote_count"),
        ({"overview": ["a"]}, "malformed_field", "overview"),
        ({"credits": None}, "missing_field", "credits"),
        ({"credits": {"cast": [{"order": 0}], "crew": []}}, "malformed_field", "credits.cast[0]"),
        ({"credits": {"cast": "x", "crew": []}}, "malformed_field", "credits.cast"),
        ({"release_dates": "R"}, "malformed_field", "release_dates"),
        (
            {"release_dates": _with_us_dates((3, 17))},  # type: ignore[arg-type]
            "malformed_field",
            "release_dates.results[0].release_dates[0]",
        ),
        (
            {"watch/providers": {"results": {"US": {"flatrate": [{"provider_id": 8}]}}}},
            "malformed_field",
            "watch/providers.results.US.flatrate[0]",
        ),
        ({"watch/providers": {"results": []}}, "malformed_field", "watch/providers.results"),
    ],
)
def test_bad_records_are_dropped_with_id_reason_and_field(
    overrides: dict[str, Any], reason: str, field: str
) -> None:
    result = normalize_record(tmdb_record(**overrides), SPONSORED, expected_id=4242)
    assert isinstance(result, Drop), result
    assert (result.tmdb_id, result.reason, result.field) == (4242, reason, field)
    assert result.detail


def test_absent_fields_and_non_objects_never_crash() -> None:
    for key in ["id", "title", "release_date", "credits", "release_dates", "watch/providers"]:
        record = tmdb_record()
        del record[key]
        result = normalize_record(record, SPONSORED, expected_id=4242)
        assert isinstance(result, Drop), key
        assert result.tmdb_id == 4242
        assert result.field == key
        assert result.reason == "missing_field"
    for junk in [None, [], "movie", 42]:
        dropped = normalize_record(junk, SPONSORED, expected_id=7)
        assert isinstance(dropped, Drop)
        assert dropped.tmdb_id == 7
    mismatched = normalize_record(tmdb_record(id=99), SPONSORED, expected_id=4242)
    assert isinstance(mismatched, Drop)
    assert mismatched.field == "id"


def test_empty_services_are_valid() -> None:
    for providers in [{"results": {}}, {"results": {"US": {"rent": []}}}, {"results": None}]:
        item = normalize_record(tmdb_record(**{"watch/providers": providers}), SPONSORED)
        assert isinstance(item, CatalogItem)
        assert item.streaming_services == []


def test_missing_genres_runtime_absent_and_overview_null_are_tolerated_where_valid() -> None:
    record = tmdb_record(overview=None)
    record["credits"] = {"cast": [], "crew": []}
    item = normalize_record(record, SPONSORED)
    assert isinstance(item, CatalogItem)
    assert item.overview == ""
    assert item.cast == []
    assert item.director == ""
    no_genres = tmdb_record()
    del no_genres["genres"]
    dropped = normalize_record(no_genres, SPONSORED)
    assert isinstance(dropped, Drop)
    assert dropped.reason == "missing_genres"


def test_drop_counts_by_reason() -> None:
    records = [
        tmdb_record(runtime=0),
        tmdb_record(genres=[]),
        tmdb_record(runtime=None),
        tmdb_record(),
    ]
    results = [normalize_record(copy.deepcopy(r), SPONSORED) for r in records]
    drops = [r for r in results if isinstance(r, Drop)]
    assert drop_counts(drops) == {"missing_genres": 1, "missing_runtime": 2}


def test_sponsored_is_deterministic_listed_and_near_the_fraction() -> None:
    config = SponsoredConfig(fraction=0.05, seed="s")
    flags = [config.is_sponsored(i) for i in range(1, 4001)]
    assert flags == [
        SponsoredConfig(fraction=0.05, seed="s").is_sponsored(i) for i in range(1, 4001)
    ]
    assert 0.03 < sum(flags) / len(flags) < 0.07
    listed = SponsoredConfig(ids=(4242,), fraction=0.0)
    assert listed.is_sponsored(4242)
    assert not listed.is_sponsored(4243)
    item = normalize_record(tmdb_record(), listed)
    assert isinstance(item, CatalogItem)
    assert item.sponsored is True
