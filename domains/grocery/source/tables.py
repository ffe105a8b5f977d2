"""Parquet and CSV copies of a product catalog, written with polars so identical catalogs give identical bytes."""

from __future__ import annotations

import io

import polars as pl

from domains.grocery.catalog import ProductCatalog
from domains.grocery.items import Product

LIST_SEPARATOR = "|"
SCHEMA: dict[str, pl.DataType] = {
    "id": pl.String(),
    "name": pl.String(),
    "brand": pl.String(),
    "categories": pl.List(pl.String()),
    "description": pl.String(),
    "quantity": pl.String(),
    "allergens": pl.List(pl.String()),
    "traces": pl.List(pl.String()),
    "labels": pl.List(pl.String()),
    "vegan": pl.String(),
    "vegetarian": pl.String(),
    "palm_oil": pl.String(),
    "nutriscore": pl.String(),
    "nova_group": pl.Int64(),
    "countries": pl.List(pl.String()),
    "price": pl.Float64(),
    "currency": pl.String(),
    "created": pl.Date(),
    "sponsored": pl.Boolean(),
}
assert list(SCHEMA) == list(Product.model_fields), "table schema must follow the product schema"
LIST_COLUMNS = [name for name, kind in SCHEMA.items() if isinstance(kind, pl.List)]


def catalog_frame(catalog: ProductCatalog) -> pl.DataFrame:
    """One row per product, columns in the product schema's order."""
    rows = [item.model_dump() for item in catalog]
    return pl.DataFrame(rows, schema=SCHEMA, orient="row") if rows else pl.DataFrame(schema=SCHEMA)


def parquet_bytes(catalog: ProductCatalog) -> bytes:
    """The catalog as zstd Parquet."""
    buffer = io.BytesIO()
    catalog_frame(catalog).write_parquet(buffer, compression="zstd", statistics=True)
    return buffer.getvalue()


def csv_bytes(catalog: ProductCatalog) -> bytes:
    """CSV with list columns joined by `|` (no category, allergen, label or country holds one)."""
    frame = catalog_frame(catalog).with_columns(pl.col(LIST_COLUMNS).list.join(LIST_SEPARATOR))
    return frame.write_csv().encode("utf-8")
