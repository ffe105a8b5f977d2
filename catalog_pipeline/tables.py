"""Parquet and CSV copies of any domain's catalog, written with polars so identical catalogs give identical bytes.

The columns are the item model's fields, in order, typed from their annotations (so a source
declares no table schema of its own); list columns are joined by `|` in the CSV.
"""

from __future__ import annotations

import datetime as dt
import io
import types
import typing
from collections.abc import Iterable
from typing import Any

import polars as pl
from pydantic import BaseModel

LIST_SEPARATOR = "|"
_SCALARS: dict[Any, pl.DataType] = {
    str: pl.String(),
    int: pl.Int64(),
    float: pl.Float64(),
    bool: pl.Boolean(),
    dt.date: pl.Date(),
}


def _column_type(annotation: Any, where: str) -> pl.DataType:
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Annotated:
        return _column_type(args[0], where)
    if origin is typing.Literal and all(isinstance(a, str) for a in args):
        return pl.String()
    if origin is list and len(args) == 1:
        return pl.List(_column_type(args[0], where))
    if origin in (typing.Union, types.UnionType):
        kinds = {_column_type(a, where) for a in args if a is not type(None)}
        if len(kinds) == 1:
            return kinds.pop()  # `str | None`: a nullable column of its one type
    if annotation in _SCALARS:
        return _SCALARS[annotation]
    raise TypeError(f"{where}: no table column type for {annotation!r}")


def columns_of(item: type[BaseModel]) -> dict[str, pl.DataType]:
    """The table columns of an item model: its fields in order, each typed from its annotation."""
    return {
        name: _column_type(field.annotation, f"{item.__name__}.{name}")
        for name, field in item.model_fields.items()
    }


def catalog_frame(items: Iterable[BaseModel], item: type[BaseModel]) -> pl.DataFrame:
    """One row per item, columns in the item schema's order."""
    columns = columns_of(item)
    rows = [entry.model_dump() for entry in items]
    if not rows:
        return pl.DataFrame(schema=columns)
    return pl.DataFrame(rows, schema=columns, orient="row")


def parquet_bytes(items: Iterable[BaseModel], item: type[BaseModel]) -> bytes:
    """The catalog as zstd Parquet."""
    buffer = io.BytesIO()
    catalog_frame(items, item).write_parquet(buffer, compression="zstd", statistics=True)
    return buffer.getvalue()


def csv_bytes(items: Iterable[BaseModel], item: type[BaseModel]) -> bytes:
    """CSV with list columns joined by `|` (no value of a shipped catalog's lists holds one)."""
    frame = catalog_frame(items, item)
    lists = [name for name, kind in frame.schema.items() if isinstance(kind, pl.List)]
    return frame.with_columns(pl.col(lists).list.join(LIST_SEPARATOR)).write_csv().encode("utf-8")
