"""Search relevance sanity, v1 result shape, zero-score exclusion, ties and the per-catalog cache."""

from __future__ import annotations

from domains.movies.catalog import Catalog, CatalogItem
from domains.movies.search import RESULT_FIELDS, CatalogSearch, search_index
from tests.movie_world import movie


def make_items_with_same_text(count: int) -> list[CatalogItem]:
    text = {"overview": "identical words everywhere", "cast": [], "director": "Same Person"}
    facts = {"release_date": "2021-05-05", "runtime": 90, "rating": 5.0, "vote_count": 1}
    unlisted = {"streaming_services": [], "content_rating": "NR"}
    return [movie(n, "Identical", **text, **facts, **unlisted) for n in range(1, count + 1)]


def test_results_have_the_v1_shape(tiny_catalog: Catalog) -> None:
    results = CatalogSearch(tiny_catalog).search("lantern festival bakers")
    assert results[0]["id"] == "tmdb_1"
    assert tuple(results[0]) == RESULT_FIELDS
    assert results[0]["release_date"] == "2020-01-01"


def test_every_indexed_field_is_searchable(tiny_catalog: Catalog) -> None:
    index = CatalogSearch(tiny_catalog)
    assert index.search("Midnight Ledger")[0]["id"] == "tmdb_3"  # title
    assert index.search("greenhouse")[0]["id"] == "tmdb_6"  # overview
    assert index.search("animation")[0]["id"] == "tmdb_4"  # genre
    assert {r["id"] for r in index.search("Petra Lind")} == {"tmdb_2", "tmdb_3"}  # director
    assert [r["id"] for r in index.search("Nell Orr")] == ["tmdb_4"]  # cast


def test_accents_and_case_are_folded(tiny_catalog: Catalog) -> None:
    assert [r["id"] for r in CatalogSearch(tiny_catalog).search("zoe SALDANO")] == ["tmdb_2"]


def test_zero_score_items_are_left_out(tiny_catalog: Catalog) -> None:
    index = CatalogSearch(tiny_catalog)
    assert index.search("xylophone") == []
    assert index.search("") == []
    assert index.search("the and of") == []  # stopwords only
    assert {r["id"] for r in index.search("harbor")} == {"tmdb_1", "tmdb_5"}


def test_ties_follow_catalog_order_and_top_k_caps() -> None:
    catalog = Catalog(make_items_with_same_text(30))
    index = CatalogSearch(catalog)
    results = index.search("identical", top_k=20)
    assert [r["id"] for r in results] == [f"tmdb_{n}" for n in range(1, 21)]
    assert index.search("identical", top_k=0) == []


def test_more_relevant_ranks_first(v1_catalog: Catalog) -> None:
    index = search_index(v1_catalog)
    for result in index.search("horror")[:5]:
        item = v1_catalog.get(result["id"])
        assert item is not None
        assert "Horror" in item.genres or "horror" in item.overview.lower()
    assert len(index.search("comedy")) == 20


def test_index_is_cached_per_catalog_object(tiny_catalog: Catalog) -> None:
    assert search_index(tiny_catalog) is search_index(tiny_catalog)
    other = Catalog(list(tiny_catalog.items))
    assert search_index(other) is not search_index(tiny_catalog)
