"""One Open Food Facts dump record into the fields of a `Product` (or the reason it is dropped)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from catalog_pipeline.openfoodfacts.items import ALLERGENS, DietStatus, NutriScore, PalmOilStatus

# Tag names whose plain English form is not "dashes to spaces" (a short list, not a taxonomy).
_NAME_OVERRIDES = {
    "plant-based-foods-and-beverages": "Plant-based foods and beverages",
    "plant-based-foods": "Plant-based foods",
    "plant-based-beverages": "Plant-based beverages",
    "plant-based-spreads": "Plant-based spreads",
    "ready-to-eat-soups": "Ready-to-eat soups",
    "frozen-ready-made-meals": "Frozen ready-made meals",
    "fruit-based-beverages": "Fruit-based beverages",
    "united-kingdom": "United Kingdom",
    "united-states": "United States",
}
# Label tags renamed to the words shoppers use; every other `en:` label keeps its tag name.
_LABEL_RENAMES = {
    "no-gluten": "gluten-free",
    "no-lactose": "lactose-free",
    "fairtrade-international": "fair-trade",
    "eu-organic": "organic",
}
_VEGAN: dict[str, DietStatus] = {
    "en:vegan": "yes",
    "en:non-vegan": "no",
    "en:maybe-vegan": "maybe",
}
_VEGETARIAN: dict[str, DietStatus] = {
    "en:vegetarian": "yes",
    "en:non-vegetarian": "no",
    "en:maybe-vegetarian": "maybe",
}
_PALM_OIL: dict[str, PalmOilStatus] = {
    "en:palm-oil-free": "free",
    "en:palm-oil": "contains",
    "en:may-contain-palm-oil": "maybe",
}
_NUTRISCORES = ("a", "b", "c", "d", "e")


@dataclass(frozen=True)
class Draft:
    """A product's Open Food Facts fields, before its price and sponsored flag are joined."""

    barcode: str
    name: str
    brand: str
    categories: list[str]
    description: str
    quantity: str
    allergens: list[str]
    traces: list[str]
    labels: list[str]
    vegan: DietStatus
    vegetarian: DietStatus
    palm_oil: PalmOilStatus
    nutriscore: NutriScore
    nova_group: int
    countries: list[str]
    created: dt.date


def english_name(tag: str) -> str:
    """`en:breakfast-cereals` → `Breakfast cereals` (the tag without its language, in words)."""
    slug = tag.split(":", 1)[-1]
    if slug in _NAME_OVERRIDES:
        return _NAME_OVERRIDES[slug]
    words = slug.replace("-", " ").strip()
    return words[:1].upper() + words[1:]


def _text(record: dict[str, Any], key: str) -> str:
    value = record.get(key)
    return " ".join(value.split()) if isinstance(value, str) else ""


def _tags(record: dict[str, Any], key: str) -> list[str]:
    """The record's `en:` tags under `key`, without the prefix, in order, each once."""
    value = record.get(key)
    if not isinstance(value, list):
        return []
    out: list[str] = []
    for tag in value:
        if isinstance(tag, str) and tag.startswith("en:") and len(tag) > 3 and tag[3:] not in out:
            out.append(tag[3:])
    return out


def _allergens(record: dict[str, Any], key: str) -> list[str]:
    return [a for a in _tags(record, key) if a in ALLERGENS]


def _status(tags: object, table: dict[str, Any], unknown: str) -> Any:
    if isinstance(tags, list):
        for tag in tags:
            if isinstance(tag, str) and tag in table:
                return table[tag]
    return unknown


def _labels(record: dict[str, Any]) -> list[str]:
    out: list[str] = []
    for label in _tags(record, "labels_tags"):
        name = _LABEL_RENAMES.get(label, label)
        if name not in out:
            out.append(name)
    return sorted(out)


def describe(name: str, brand: str, generic: str, category: str, quantity: str) -> str:
    """One plain factual sentence built from the product's fields (never copied product prose)."""
    kind = generic or category
    kind = kind[:1].lower() + kind[1:]
    pack = f", sold as {quantity}" if quantity else ""
    return f"{name} by {brand}: {kind}{pack}."


def normalise(record: dict[str, Any], *, cutoff: dt.date, before: dt.date) -> Draft | str:
    """The record's product fields, or the reason it is dropped (checked cheapest first)."""
    code = record.get("code")
    if not isinstance(code, str) or not code.isdigit() or not 8 <= len(code) <= 14:
        return "bad_barcode"
    created_t = record.get("created_t")
    if isinstance(created_t, bool) or not isinstance(created_t, int) or created_t <= 0:
        return "no_created_t"
    created = dt.datetime.fromtimestamp(created_t, tz=dt.UTC).date()
    if created < cutoff:
        return "created_before_cutoff"
    if created >= before:
        return "created_after_snapshot_date"
    name = _text(record, "product_name_en") or _text(record, "product_name")
    if not name:
        return "no_name"
    brand = _text(record, "brands").split(",")[0].strip()
    if not brand:
        return "no_brand"
    categories = [english_name(t) for t in _tags(record, "categories_tags")]
    if not categories:
        return "no_categories"
    countries = [english_name(t) for t in _tags(record, "countries_tags")]
    if not countries:
        return "no_countries"
    nova = record.get("nova_group")
    if isinstance(nova, bool) or nova not in (1, 2, 3, 4):
        return "no_nova_group"
    grade = record.get("nutriscore_grade")
    nutriscore: NutriScore = grade if grade in _NUTRISCORES else "unknown"
    analysis = record.get("ingredients_analysis_tags")
    quantity = _text(record, "quantity")
    generic = _text(record, "generic_name_en") or _text(record, "generic_name")
    return Draft(
        barcode=code,
        name=name,
        brand=brand,
        categories=categories,
        description=describe(name, brand, generic, categories[-1], quantity),
        quantity=quantity,
        allergens=_allergens(record, "allergens_tags"),
        traces=_allergens(record, "traces_tags"),
        labels=_labels(record),
        vegan=_status(analysis, _VEGAN, "unknown"),
        vegetarian=_status(analysis, _VEGETARIAN, "unknown"),
        palm_oil=_status(analysis, _PALM_OIL, "unknown"),
        nutriscore=nutriscore,
        nova_group=int(nova),
        countries=countries,
        created=created,
    )
