"""The fixture world is deterministic, fictional, realistically spread, and changes with its date."""

from __future__ import annotations

import datetime as dt
from collections import Counter

from catalog_pipeline.tmdb.fixture_world import build_world, universe, words
from catalog_pipeline.tmdb.fixture_world.responses import movie_details
from catalog_pipeline.tmdb.fixture_world.world import ANNOUNCE_DAYS, FIRST_MOVIE_ID

OCT, NOV, DEC = dt.date(2026, 10, 1), dt.date(2026, 11, 1), dt.date(2026, 12, 1)


def test_universe_is_deterministic_when_generated_again() -> None:
    again = universe.__wrapped__()
    assert again == universe()
    assert [movie_details(f, NOV, ["credits"]) for f in again[:25]] == [
        movie_details(f, NOV, ["credits"]) for f in universe()[:25]
    ]


def test_titles_and_people_are_invented() -> None:
    films = universe()
    assert len({f.title for f in films}) == len(films)
    invented = set(words.INVENTED_WORDS) | set(words.GIVEN_NAMES)
    for film in films:
        assert invented & set(film.title.replace(":", " ").split()), film.title
        for credit in film.cast:
            given, family = credit.person.name.split(" ", 1)
            assert given in words.GIVEN_NAMES
            assert family in words.FAMILY_NAMES
    assert all(f.id >= FIRST_MOVIE_ID for f in films)


def test_no_plot_names_another_film_by_its_one_word_title() -> None:
    """A place in a plot ("the river city of Lumwater") never reads as a film's title."""
    films = universe()
    one_word = {f.title for f in films if len(f.title.split()) == 1}
    assert one_word, "the world still has one-word titles"
    assert words.PLOT_WORDS, "plots use invented place names"
    assert not one_word & words.PLOT_WORDS
    for film in films:
        overview = film.overview.replace(",", " ").replace(".", " ").split()
        assert not one_word & set(overview), (film.title, film.overview)


def test_world_on_december_holds_about_480_released_titles_across_2025_and_2026() -> None:
    released = build_world(DEC).released()
    assert 440 <= len(released) <= 520
    years = Counter(f.release_date.year for f in released)
    assert set(years) == {2025, 2026}
    assert min(years.values()) > 150


def test_realistic_spreads_and_pipeline_edge_cases() -> None:
    films = build_world(DEC).released()
    us_certs = []
    for film in films:
        certs = [r.certification for r in film.releases if r.country == "US" and r.certification]
        us_certs.append(certs[0] if certs else "NR")
    shares = {c: n / len(films) for c, n in Counter(us_certs).items()}
    assert 0.2 <= shares["NR"] <= 0.4
    assert {"G", "PG", "PG-13", "R", "NR"} <= set(shares)
    assert shares["R"] > shares["PG"]
    runtimes = [f.runtime for f in films if f.runtime]
    assert min(runtimes) < 45
    assert max(runtimes) > 165
    assert 0.2 <= sum(not f.flatrate_on(DEC) for f in films) / len(films) <= 0.6
    edge = {
        "missing runtime": sum(f.runtime is None for f in films),
        "no genres": sum(not f.genre_ids for f in films),
        "no votes": sum(f.vote_count == 0 for f in films),
    }
    for reason, count in edge.items():
        assert 0.01 * len(films) <= count <= 0.06 * len(films), reason
    raw = {name for f in films for epoch in f.provider_epochs for name in epoch.flatrate}
    assert {"Netflix Standard with Ads", "Starz Amazon Channel", "Disney Plus", "Max"} <= raw


def test_a_later_date_adds_releases_and_moves_providers() -> None:
    october, november = build_world(OCT), build_world(NOV)
    before = {f.id for f in october.released()}
    after = {f.id for f in november.released()}
    assert before < after
    assert len(after - before) >= 10
    moved = [f for f in october.released() if f.flatrate_on(OCT) != f.flatrate_on(NOV)]
    assert len(moved) >= 5
    grew = [f for f in october.released() if f.vote_count_on(NOV) > f.vote_count_on(OCT)]
    assert grew


def test_announced_titles_are_listed_but_not_released() -> None:
    world = build_world(NOV)
    announced = [f for f in world.films if f.release_date > NOV]
    assert announced
    assert all(f.release_date <= NOV + dt.timedelta(days=ANNOUNCE_DAYS) for f in announced)
    assert all(f.vote_count_on(NOV) == 0 and f.status_on(NOV) != "Released" for f in announced)
    assert all(not f.flatrate_on(NOV) for f in announced)
