"""Free-text BM25 ranking of catalog items (title, overview, genres, director, cast) with bm25s."""

from __future__ import annotations

import functools
import unicodedata
from typing import Any

import numpy as np

from domains.movies.catalog import Catalog, CatalogItem
from runner.core.bm25 import bm25s
from runner.core.memo import per_object

RESULT_FIELDS: tuple[str, ...] = ("id", "title", "genres", "release_date", "rating", "overview")
DEFAULT_TOP_K = 20


@functools.lru_cache(maxsize=65536)
def _fold_word(word: str) -> str:
    decomposed = unicodedata.normalize("NFKD", word)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).lower()


def _fold(text: str) -> str:
    """Lower-case and strip accents, so 'Saldana' finds 'Saldaña'."""
    if text.isascii():
        return text.lower()
    return " ".join(w.lower() if w.isascii() else _fold_word(w) for w in text.split())


def _tokenize_ids(texts: list[str]) -> bm25s.tokenization.Tokenized:
    return bm25s.tokenize(
        [_fold(t) for t in texts], lower=False, stopwords="en", return_ids=True, show_progress=False
    )


def _tokenize(texts: list[str]) -> list[list[str]]:
    tokens: list[list[str]] = bm25s.tokenize(
        [_fold(t) for t in texts],
        lower=False,
        stopwords="en",
        return_ids=False,
        show_progress=False,
    )
    return tokens


def _document(item: CatalogItem) -> str:
    return " ".join([item.title, item.overview, *item.genres, item.director, *item.cast])


def result_record(item: CatalogItem) -> dict[str, Any]:
    """The v1 search result shape: id, title, genres, release_date (ISO), rating, overview."""
    return {
        "id": item.id,
        "title": item.title,
        "genres": list(item.genres),
        "release_date": item.release_date.isoformat(),
        "rating": item.rating,
        "overview": item.overview,
    }


class CatalogSearch:
    """A BM25 index over one catalog; results are ranked by score, ties broken by catalog order."""

    def __init__(self, catalog: Catalog) -> None:
        self._items = catalog.items
        self._retriever = bm25s.BM25()
        self._vocab: dict[str, int] = {}
        if self._items:
            corpus = _tokenize_ids([_document(item) for item in self._items])
            if corpus.vocab:  # bm25s needs at least one token in the whole corpus
                self._retriever.index(corpus, show_progress=False)
                self._vocab = {t: i for t, i in corpus.vocab.items() if t}

    def scores(self, query: str) -> np.ndarray[Any, np.dtype[np.float32]]:
        """BM25 score of every item for the query, in catalog order (zeros when nothing matches)."""
        ids = [self._vocab[t] for t in _tokenize([query])[0] if t in self._vocab]
        if not ids:
            return np.zeros(len(self._items), dtype=np.float32)
        result: np.ndarray[Any, np.dtype[np.float32]] = self._retriever.get_scores_from_ids(
            sorted(set(ids))
        )
        return result

    def ranked_indices(self, query: str, top_k: int = DEFAULT_TOP_K) -> list[int]:
        """Indices of the best `top_k` items with a positive score: score desc, then catalog order."""
        if top_k <= 0:
            return []
        scores = self.scores(query)
        candidates = np.flatnonzero(scores > 0)
        if candidates.size > top_k:
            # The k-th best score; every item at or above it is a candidate, ties included.
            threshold = np.partition(scores[candidates], candidates.size - top_k)[
                candidates.size - top_k
            ]
            candidates = candidates[scores[candidates] >= threshold]
        order = np.lexsort((candidates, -scores[candidates]))
        return [int(i) for i in candidates[order][:top_k]]

    def search(self, query: str, top_k: int = DEFAULT_TOP_K) -> list[dict[str, Any]]:
        """Top `top_k` items for a free-text query, shaped like v1 results; zero-score items left out."""
        return [result_record(self._items[i]) for i in self.ranked_indices(query, top_k)]


@per_object
def search_index(catalog: Catalog) -> CatalogSearch:
    """The search index of a catalog object, built once and reused while the catalog lives."""
    return CatalogSearch(catalog)
