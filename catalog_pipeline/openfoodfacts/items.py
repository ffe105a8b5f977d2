"""The product record Open Food Facts products are normalised into (Open Food Facts fields plus an Open Prices price) and a loaded, id-indexed catalog of them: the source's output, which the grocery domain names as its item model."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, StrictStr, field_validator

from catalog_pipeline.openfoodfacts.provenance import load_manifest
from catalog_pipeline.verify import SourceCatalog
from runner.core.item_catalog import iso_date_text

PRODUCT_SCHEMA_VERSION: Literal[1] = 1

# Allergen names, normalised from Open Food Facts' `en:` tags (the EU's 14 declared allergens).
ALLERGENS: tuple[str, ...] = (
    "gluten",
    "crustaceans",
    "eggs",
    "fish",
    "peanuts",
    "soybeans",
    "milk",
    "nuts",
    "celery",
    "mustard",
    "sesame-seeds",
    "sulphur-dioxide-and-sulphites",
    "lupin",
    "molluscs",
)
DietStatus = Literal["yes", "no", "maybe", "unknown"]
PalmOilStatus = Literal["free", "contains", "maybe", "unknown"]
NutriScore = Literal["a", "b", "c", "d", "e", "unknown"]


class Product(BaseModel):
    """One product: what Open Food Facts says of it, its Open Prices price, and a benchmark flag.

    Nothing is coerced: a price given as text, a NOVA group of 5 or an allergen outside
    `ALLERGENS` is an error naming the field.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(strict=True, pattern=r"^off_\d{8,14}$", description="`off_<barcode>`")
    name: str = Field(strict=True, min_length=1, description="Product name")
    brand: str = Field(strict=True, min_length=1)
    categories: list[StrictStr] = Field(
        strict=True, min_length=1, description="English category names, most general first"
    )
    description: str = Field(strict=True, description="One or two sentences on the product")
    quantity: str = Field(strict=True, description="Pack size as printed, e.g. '500 g'")
    allergens: list[StrictStr] = Field(strict=True, description="Declared allergens")
    traces: list[StrictStr] = Field(strict=True, description="'May contain' allergens")
    labels: list[StrictStr] = Field(strict=True, description="e.g. organic, fair-trade")
    vegan: DietStatus
    vegetarian: DietStatus
    palm_oil: PalmOilStatus
    nutriscore: NutriScore
    nova_group: int = Field(strict=True, ge=1, le=4, description="NOVA processing group")
    countries: list[StrictStr] = Field(strict=True, min_length=1)
    price: float = Field(strict=True, gt=0, allow_inf_nan=False, description="Price per pack")
    currency: Literal["EUR"] = "EUR"
    created: dt.date = Field(description="When the product entered Open Food Facts (`created_t`)")
    sponsored: bool = Field(
        strict=True, description="Benchmark-side flag, not Open Food Facts data"
    )

    @field_validator("created", mode="before")
    @classmethod
    def _iso_date_text(cls, value: object) -> object:
        return iso_date_text(value)

    @field_validator("allergens", "traces")
    @classmethod
    def _known_allergens(cls, value: list[str]) -> list[str]:
        unknown = [v for v in value if v not in ALLERGENS]
        if unknown:
            raise ValueError(f"unknown allergen(s) {unknown}; known: {', '.join(ALLERGENS)}")
        return value


class ProductCatalog(SourceCatalog[Product], manifest=load_manifest):
    """An ordered list of products with an id index and a content digest."""

    item_model = Product
    record_noun = "product"
