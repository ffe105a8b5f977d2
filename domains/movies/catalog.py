"""The movies domain's item model: the TMDB source's movie record and catalog
(`catalog_pipeline.tmdb.items`), and the typed field table its constraints are checked against."""

from __future__ import annotations

from catalog_pipeline.tmdb.items import (
    CATALOG_ADAPTER,
    RESTRICTED_RATINGS,
    Catalog,
    CatalogItem,
    ContentRating,
)
from runner.core.predicates import FieldKind, field_kinds

__all__ = [
    "CATALOG_ADAPTER",
    "FIELD_KINDS",
    "RESTRICTED_RATINGS",
    "Catalog",
    "CatalogItem",
    "ContentRating",
]

# The typed field table every constraint is checked against (one definition for the whole project).
FIELD_KINDS: dict[str, FieldKind] = field_kinds(CatalogItem, content_rating="rating")
