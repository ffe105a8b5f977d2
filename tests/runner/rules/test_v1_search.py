"""Under `rules: v1`, search_catalog ranks exactly as the published harness did.

The reference is computed here, independently of `domains.movies.search_v1`: the published harness's
recipe (documents of whitespace tokens plus whole-name genre, director and cast tokens; the query
split on whitespace; scores sorted high to low with ties in catalog order; stop at the first
score <= 0; at most 20) over `rank_bm25.BM25Okapi`, the library it used, pinned in the dev extra.
The v1 catalog is read by path from the published data; the query corpus below is ours, and the
queries naming titles, people or overview words are taken from that catalog when the test runs.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from rank_bm25 import BM25Okapi

from domains.movies.catalog import Catalog, CatalogItem
from domains.movies.search import CatalogSearch
from domains.movies.search_v1 import OkapiSearch
from domains.movies.tasks import Task
from domains.movies.tools import build_toolset
from runner.core.rules import get_rules
from tests.movie_world import movie

# Our own query corpus: genres one word at a time, case and punctuation, several words, words
# the catalog does not hold, stop words only, blank, accents.
WRITTEN_QUERIES: tuple[str, ...] = (
    "horror",
    "comedy",
    "drama",
    "thriller",
    "romance",
    "animation",
    "documentary",
    "western",
    "fantasy",
    "crime",
    "war",
    "music",
    "mystery",
    "family",
    "history",
    "action",
    "adventure",
    "HORROR",
    "Horror!",
    "horror,",
    "comedy.",
    "sci-fi",
    "science fiction",
    "Science Fiction",
    "rom-com",
    "(war)",
    "mother's",
    "it's",
    "space adventure",
    "haunted house",
    "true story",
    "coming of age",
    "heist crime thriller",
    "love story in paris",
    "world war ii",
    "animated family film",
    "dark psychological thriller",
    "funny dog movie",
    "superhero team",
    "a detective solves a murder",
    "horror horror horror",
    "feel good comedy about friendship",
    "zyxwvut",
    "qwerty asdf",
    "blorptastic xenomorphic",
    "the",
    "a",
    "of the and a to in is",
    "",
    "   ",
    "amélie",
    "café",
    "über",
)


def catalog_queries(raw: list[dict[str, Any]]) -> list[str]:
    """Queries naming things in the catalog, read from it (titles, people, overview words)."""
    picks = raw[::17]
    queries: list[str] = []
    queries += [m["title"] for m in picks]  # titles verbatim
    queries += [m["title"].upper() for m in picks[:3]]
    queries += [m["director"] for m in picks]  # a full name: two query tokens, one doc token
    queries += [m["director"].split()[-1] for m in picks[:4]]  # a surname alone
    queries += [m["cast"][0] for m in picks if m["cast"]]
    queries += [" ".join(m["overview"].split()[:6]) for m in picks[:4]]  # with its punctuation
    queries += [m["genres"][0] for m in picks if m["genres"]]
    queries += [" ".join(g for m in picks[:3] for g in m["genres"])]
    return queries


def reference_order(bm25: BM25Okapi, raw: list[dict[str, Any]], query: str) -> list[str]:
    """The published ranking: sort (index, score) by score, high first, stably; cut at <= 0."""
    scores = bm25.get_scores(query.lower().split())
    ranked = sorted(enumerate(scores), key=lambda pair: pair[1], reverse=True)
    ids: list[str] = []
    for index, score in ranked[:20]:
        if score <= 0:
            break
        ids.append(raw[index]["id"])
    return ids


def published_document(movie: dict[str, Any]) -> list[str]:
    return (
        movie["title"].lower().split()
        + movie["overview"].lower().split()
        + [g.lower() for g in movie["genres"]]
        + [movie["director"].lower()]
        + [c.lower() for c in movie["cast"]]
    )


@pytest.fixture(scope="module")
def raw_catalog(v1_dir: Path) -> list[dict[str, Any]]:
    loaded: list[dict[str, Any]] = json.loads((v1_dir / "catalog.json").read_text("utf-8"))
    return loaded


@pytest.fixture(scope="module")
def reference(raw_catalog: list[dict[str, Any]]) -> BM25Okapi:
    return BM25Okapi([published_document(m) for m in raw_catalog])


@pytest.fixture(scope="module")
def queries(raw_catalog: list[dict[str, Any]]) -> list[str]:
    return [*WRITTEN_QUERIES, *catalog_queries(raw_catalog)]


def v1_search_tool(catalog: Catalog, task: Task, query: str) -> str:
    tools = build_toolset(catalog, task, rules=get_rules("v1"))
    outcome = tools.call("search_catalog", json.dumps({"query": query}))
    assert not outcome.is_error, outcome.content
    return outcome.content


def test_the_query_corpus_is_large_and_discriminating(
    queries: list[str],
    raw_catalog: list[dict[str, Any]],
    reference: BM25Okapi,
    v1_catalog: Catalog,
) -> None:
    """A corpus on which a near miss would show: our v2 ranking, ties, the floor and the cut."""
    assert len(queries) >= 50
    v2 = CatalogSearch(v1_catalog)
    published = {q: reference_order(reference, raw_catalog, q) for q in queries}
    differs = [q for q in queries if [r["id"] for r in v2.search(q)] != published[q]]
    assert len(differs) >= len(queries) // 3, "the v2 ranking is too close to prove anything"

    def has_ties(query: str) -> bool:
        positive = [s for s in reference.get_scores(query.lower().split()) if s > 0]
        return len(set(positive)) < len(positive)

    assert sum(map(has_ties, queries)) >= 5, "the corpus should rank tied scores"
    floor = reference.epsilon * reference.average_idf
    floored = [q for q in queries if any(reference.idf.get(t) == floor for t in q.lower().split())]
    assert floored, "the corpus should hit the idf floor of very common words"
    short = [q for q in queries if 0 < len(published[q]) < 20]
    empty = [q for q in queries if not published[q]]
    assert short, "the corpus should stop at the first zero score"
    assert empty, "the corpus should find nothing for some queries"


def test_v1_search_tool_returns_the_published_order_and_text(
    queries: list[str],
    raw_catalog: list[dict[str, Any]],
    reference: BM25Okapi,
    v1_catalog: Catalog,
    v1_task: Task,
) -> None:
    by_id = {m["id"]: m for m in raw_catalog}
    fields = ("id", "title", "genres", "release_date", "rating", "overview")
    for query in queries:
        expected = reference_order(reference, raw_catalog, query)
        text = v1_search_tool(v1_catalog, v1_task, query)
        assert [r["id"] for r in json.loads(text)] == expected, query
        # The published tool sent json.dumps of these six fields of each movie, as in the file.
        assert text == json.dumps([{f: by_id[i][f] for f in fields} for i in expected]), query


def test_v1_scores_are_the_librarys_doubles(
    queries: list[str], reference: BM25Okapi, v1_catalog: Catalog
) -> None:
    """Not just the order: every score is the very double BM25Okapi computes, so ties are ties."""
    index = OkapiSearch(v1_catalog.items)
    for query in queries:
        ours = index.scores(query)
        expected = [float(s) for s in reference.get_scores(query.lower().split())]
        assert [ours.get(i, 0.0) for i in range(len(expected))] == expected, query


def test_v2_keeps_its_own_ranking(v1_catalog: Catalog, v1_task: Task) -> None:
    """The rule set picks the ranking: v2 still folds accents and stems (bm25s)."""
    task = v1_task
    tools = build_toolset(v1_catalog, task, rules=get_rules("v2"))
    got = [r["id"] for r in json.loads(tools.call("search_catalog", '{"query": "horror"}').content)]
    assert got == [r["id"] for r in CatalogSearch(v1_catalog).search("horror")]


def item(n: int, title: str, overview: str, genres: list[str]) -> CatalogItem:
    plain = {"release_date": "2020-01-01", "runtime": 90, "rating": 6.0, "vote_count": 10}
    unlisted = {"streaming_services": [], "content_rating": "PG"}
    return movie(n, title, overview=overview, genres=genres, **plain, **unlisted)


def test_ties_keep_catalog_order_and_common_words_get_the_floor() -> None:
    """An invented catalog whose order is known by hand, checked against the library too."""
    items = [
        item(1, "Night Train", "one night on a train", ["Drama"]),
        item(2, "Paper Boats", "a story of paper boats", ["Drama"]),
        item(3, "Paper Boats", "a story of paper boats", ["Drama"]),  # ties with tmdb_2
        item(4, "Glass Harbor", "a harbor at night", ["Science Fiction"]),
        item(5, "Still Water", "a lake", ["Comedy"]),
    ]
    index = OkapiSearch(items)
    ids = lambda query: [items[i].id for i in index.ranked_indices(query)]  # noqa: E731
    assert ids("paper") == ["tmdb_2", "tmdb_3"]  # equal scores: catalog order
    assert ids("night") == ["tmdb_1", "tmdb_4"]  # twice in tmdb_1, once in tmdb_4
    # "a" is in every document: its idf is negative, so it is floored at 0.25 x the mean idf and
    # every movie scores above zero; the shortest document (tmdb_5) first.
    assert ids("a")[0] == "tmdb_5"
    assert len(ids("a")) == 5
    assert ids("science fiction") == []  # a genre is one token: "science fiction"
    assert ids("dee rector") == []  # so is the director's full name
    assert ids("Night!") == []  # punctuation stays on the token
    library = BM25Okapi([published_document(i.model_dump(mode="json")) for i in items])
    for query in ("paper", "night", "a", "a night", "drama", "paper paper night", "lake"):
        ours = index.scores(query)
        expected = library.get_scores(query.lower().split())
        assert [ours.get(i, 0.0) for i in range(len(items))] == list(expected), query
