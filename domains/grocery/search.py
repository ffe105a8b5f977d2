"""Free-text BM25 ranking of products (name, brand, categories, labels, description) with bm25s, one index per catalog."""

from __future__ import annotations

import functools
import unicodedata
from typing import Any

import numpy as np

from domains.grocery.items import Product
from runner.core.bm25 import bm25s
from runner.core.memo import per_object

__all__ = ["DEFAULT_LIMIT", "ProductSearch", "product_record", "search_index"]

DEFAULT_LIMIT = 10


def _fold(text: str) -> str:
    """Lower-case and strip accents, so 'creme' finds 'Crème'."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).lower()


def _document(product: Product) -> str:
    return " ".join(
        [product.name, product.brand, *product.categories, *product.labels, product.description]
    )


def product_record(product: Product) -> dict[str, Any]:
    """What a search result shows of a product: the typed fields an agent checks needs against."""
    return {
        "id": product.id,
        "name": product.name,
        "brand": product.brand,
        "price": product.price,
        "quantity": product.quantity,
        "categories": list(product.categories),
        "labels": list(product.labels),
        "vegan": product.vegan,
        "vegetarian": product.vegetarian,
        "palm_oil": product.palm_oil,
        "allergens": list(product.allergens),
        "traces": list(product.traces),
        "nutriscore": product.nutriscore,
        "nova_group": product.nova_group,
        "countries": list(product.countries),
        "sponsored": product.sponsored,
    }


class ProductSearch:
    """A BM25 index over one catalog's products; ties keep catalog order; results are memoised."""

    def __init__(self, products: tuple[Product, ...] | list[Product]) -> None:
        self._items = tuple(products)
        self._retriever = bm25s.BM25()
        self._vocab: dict[str, int] = {}
        if self._items:
            corpus = bm25s.tokenize(
                [_fold(_document(p)) for p in self._items],
                lower=False,
                stopwords="en",
                return_ids=True,
                show_progress=False,
            )
            if corpus.vocab:
                self._retriever.index(corpus, show_progress=False)
                self._vocab = {t: i for t, i in corpus.vocab.items() if t}
        self.search = functools.lru_cache(maxsize=4096)(self._search)

    def _query_ids(self, query: str) -> list[int]:
        tokens: list[list[str]] = bm25s.tokenize(
            [_fold(query)], lower=False, stopwords="en", return_ids=False, show_progress=False
        )
        return sorted({self._vocab[t] for t in tokens[0] if t in self._vocab})

    def ranked(self, query: str, limit: int) -> list[Product]:
        """The best `limit` products with a positive score: score descending, then catalog order."""
        ids = self._query_ids(query)
        if not ids or limit <= 0:
            return []
        scores: np.ndarray[Any, np.dtype[np.float32]] = self._retriever.get_scores_from_ids(ids)
        candidates = np.flatnonzero(scores > 0)
        order = np.lexsort((candidates, -scores[candidates]))
        return [self._items[int(i)] for i in candidates[order][:limit]]

    def _search(self, query: str, limit: int) -> tuple[dict[str, Any], ...]:
        return tuple(product_record(p) for p in self.ranked(query, limit))


@per_object
def search_index(catalog: Any) -> ProductSearch:
    """The search index of a catalog object, built once and kept while the catalog lives."""
    return ProductSearch(catalog.items)
