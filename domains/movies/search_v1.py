"""The published v1 search, reproduced: Okapi BM25 over lower-cased whitespace tokens.

Under `rules: v1`, `search_catalog` must rank as the original harness did, because the order is
what an agent sees. The original used `rank_bm25.BM25Okapi` (k1 = 1.5, b = 0.75, epsilon = 0.25)
over one token list per movie, built from:

- the title and the overview, lower-cased and split on whitespace (punctuation stays attached:
  "alien," and "alien" are different tokens);
- each genre, each cast member and the director as ONE token each, lower-cased whole ("science
  fiction" is a single token that no whitespace-split query can match);

and a query lower-cased and split on whitespace (repeated words count again). Items are ordered by
score, highest first, ties in catalog order; the list stops at the first score <= 0 and holds at
most `top_k` items.

The formula is computed here in plain Python with the operations in the library's order, so every
score is the same double the library computes and ties break identically:

- idf(t) = ln(N - n(t) + 0.5) - ln(n(t) + 0.5), for the N documents and the n(t) holding t;
- a term in more than half of the documents has a negative idf, replaced by epsilon times the
  mean idf of the whole vocabulary (summed in order of first appearance, as the library does);
- a document's score adds, per query token in query order,
  idf * (f * (k1 + 1) / (f + k1 * (1 - b + b * |d| / avgdl))) for the token's frequency f in it.

A document without any query token scores exactly 0.0 and is left out, so only documents holding
a token are scored (adding the library's 0.0 terms changes no double).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from domains.movies.catalog import CatalogItem
from domains.movies.search import result_record

__all__ = ["EPSILON", "K1", "B", "OkapiSearch", "tokens_of"]

K1 = 1.5
B = 0.75
EPSILON = 0.25
DEFAULT_TOP_K = 20


def tokens_of(item: CatalogItem) -> list[str]:
    """The v1 document of one movie: its tokens in the original's order."""
    return (
        item.title.lower().split()
        + item.overview.lower().split()
        + [genre.lower() for genre in item.genres]
        + [item.director.lower()]
        + [name.lower() for name in item.cast]
    )


class OkapiSearch:
    """A v1 BM25Okapi index over a catalog's items, in catalog order (`OkapiSearch(catalog.items)`)."""

    def __init__(self, items: Sequence[CatalogItem]) -> None:
        self._items = tuple(items)
        documents = [tokens_of(item) for item in self._items]
        # term -> [(document index, frequency in it)], documents in catalog order
        self._postings: dict[str, list[tuple[int, int]]] = {}
        total_length = 0
        for index, document in enumerate(documents):
            total_length += len(document)
            frequencies: dict[str, int] = {}
            for token in document:
                frequencies[token] = frequencies.get(token, 0) + 1
            for token, frequency in frequencies.items():
                self._postings.setdefault(token, []).append((index, frequency))
        n = len(documents)
        self._idf: dict[str, float] = {}
        if n == 0 or not self._postings:
            self._norm: list[float] = []
            return
        avgdl = total_length / n
        # k1 * (1 - b + b * |d| / avgdl), evaluated as the library does: ((b * |d|) / avgdl) first.
        self._norm = [K1 * (1 - B + B * len(document) / avgdl) for document in documents]
        idf_sum = 0.0
        negative: list[str] = []
        for token, posting in self._postings.items():  # first-appearance order, as the library
            holding = len(posting)
            idf = math.log(n - holding + 0.5) - math.log(holding + 0.5)
            self._idf[token] = idf
            idf_sum += idf
            if idf < 0:
                negative.append(token)
        floor = EPSILON * (idf_sum / len(self._idf))
        for token in negative:
            self._idf[token] = floor

    def scores(self, query: str) -> dict[int, float]:
        """Score of every item holding at least one query token (every other item scores 0.0)."""
        scores: dict[int, float] = {}
        for token in query.lower().split():
            idf = self._idf.get(token) or 0
            for index, frequency in self._postings.get(token, ()):
                term = idf * (frequency * (K1 + 1) / (frequency + self._norm[index]))
                scores[index] = scores.get(index, 0.0) + term
        return scores

    def ranked_indices(self, query: str, top_k: int = DEFAULT_TOP_K) -> list[int]:
        """Indices of the best `top_k` items with a positive score: score desc, then catalog order."""
        if top_k <= 0:
            return []
        scores = self.scores(query)
        positive = sorted(i for i, s in scores.items() if s > 0)
        positive.sort(key=lambda i: scores[i], reverse=True)  # stable: ties keep catalog order
        return positive[:top_k]

    def search(self, query: str, top_k: int = DEFAULT_TOP_K) -> list[dict[str, Any]]:
        """Top `top_k` items as v1 results (id, title, genres, release_date, rating, overview)."""
        return [result_record(self._items[i]) for i in self.ranked_indices(query, top_k)]
