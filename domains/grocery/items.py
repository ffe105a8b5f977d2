"""The grocery domain's item model: the Open Food Facts source's product record
(`catalog_pipeline.openfoodfacts.items`) and the typed field table its constraints are checked against."""

from __future__ import annotations

from catalog_pipeline.openfoodfacts.items import (
    ALLERGENS,
    PRODUCT_SCHEMA_VERSION,
    DietStatus,
    NutriScore,
    PalmOilStatus,
    Product,
)
from runner.core.predicates import FieldKind, field_kinds

__all__ = [
    "ALLERGENS",
    "FIELD_KINDS",
    "PRODUCT_SCHEMA_VERSION",
    "DietStatus",
    "NutriScore",
    "PalmOilStatus",
    "Product",
]

# The typed field table every grocery constraint is checked against.
FIELD_KINDS: dict[str, FieldKind] = field_kinds(Product)
