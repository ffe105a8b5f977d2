"""The grocery domain's item model: the Open Food Facts source's product record
(`catalog_pipeline.openfoodfacts.items`) and the typed field table its constraints are checked against."""

from __future__ import annotations

import re

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
    "pack_amount",
]

# The typed field table every grocery constraint is checked against.
FIELD_KINDS: dict[str, FieldKind] = field_kinds(Product)

# Pack sizes as printed ("500 g", "1.5 l", "6 x 33 cl"): grams or millilitres per unit.
_UNIT = {"g": 1.0, "kg": 1000.0, "mg": 0.001, "ml": 1.0, "cl": 10.0, "dl": 100.0, "l": 1000.0}
_PACK = re.compile(r"(?i)(?:(\d+)\s*[x×]\s*)?(\d+(?:[.,]\d+)?)\s*(kg|mg|g|ml|cl|dl|l)\b")


def pack_amount(quantity: str) -> float:
    """How much a pack holds, in grams or millilitres ("6 x 33 cl" -> 1980); a size with no
    weight or volume (e.g. "12 pieces") counts its number, and an unreadable one 0."""
    m = _PACK.search(quantity)
    if m is None:
        count = re.search(r"\d+", quantity)
        return float(count.group()) if count else 0.0
    units = int(m.group(1)) if m.group(1) else 1
    return units * float(m.group(2).replace(",", ".")) * _UNIT[m.group(3).lower()]
