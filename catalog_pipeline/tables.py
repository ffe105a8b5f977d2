"""Parquet and CSV copies of a catalog, written with polars so identical catalogs give identical bytes."""

from __future__ import annotations

import io

import polars as pl

from domains.movies.catalog import Catalog, CatalogItem

LIST_SEPARATOR = "|"
SCHEMA: dict[str, pl.DataType] = {
    "id": pl.String(),
    "title": pl.String(),
    "release_date": pl.Date(),
    "runtime": pl.Int64(),
    "genres": pl.List(pl.String()),
    "overview": pl.String(),
    "cast": pl.List(pl.String()),
    "director": pl.String(),
    "rating": pl.Float64(),
    "vote_count": pl.Int64(),
    "streaming_services": pl.List(pl.String()),
    "sponsored": pl.Boolean(),
    "content_rating": pl.String(),
}
assert list(SCHEMA) == list(CatalogItem.model_fields), "table schema must follow the item schema"
LIST_COLUMNS = [name for name, kind in SCHEMA.items() if isinstance(kind, pl.List)]


def catalog_frame(catalog: Catalog) -> pl.DataFrame:
    """One row per item, columns in the item schema's order."""
    rows = [item.model_dump() for item in catalog]
    return pl.DataFrame(rows, schema=SCHEMA, orient="row") if rows else pl.DataFrame(schema=SCHEMA)


def parquet_bytes(catalog: Catalog) -> bytes:
    buffer = io.BytesIO()
    catalog_frame(catalog).write_parquet(buffer, compression="zstd", statistics=True)
    return buffer.getvalue()


def csv_bytes(catalog: Catalog) -> bytes:
    """CSV with list columns joined by `|` (no service or genre name contains one)."""
    frame = catalog_frame(catalog).with_columns(pl.col(LIST_COLUMNS).list.join(LIST_SEPARATOR))
    return frame.write_csv().encode("utf-8")
