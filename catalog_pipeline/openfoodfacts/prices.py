"""Open Prices records into one median recent EUR price per barcode."""

from __future__ import annotations

import datetime as dt
import statistics
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from catalog_pipeline.openfoodfacts.dumps import Line


@dataclass
class PriceTable:
    """Median EUR price per barcode, and how many price records were read, used and skipped why."""

    median: dict[str, float]
    read: int = 0
    used: int = 0
    skipped: Counter[str] = field(default_factory=Counter)


def _barcode(value: object) -> str | None:
    if isinstance(value, str) and value.isdigit() and 8 <= len(value) <= 14:
        return value
    return None


def _record_price(record: dict[str, Any], since: dt.date, before: dt.date) -> float | str:
    """The record's EUR pack price, or the reason it is not used."""
    if record.get("type", "PRODUCT") != "PRODUCT":
        return "not_a_product_price"
    if _barcode(record.get("product_code")) is None:
        return "no_barcode"
    if record.get("currency") != "EUR":
        return "not_eur"
    if record.get("price_per") not in (None, "UNIT"):
        return "per_weight"
    date = record.get("date")
    try:
        day = dt.date.fromisoformat(date[:10]) if isinstance(date, str) else None
    except ValueError:
        day = None
    if day is None:
        return "bad_date"
    if not since <= day < before:
        return "outside_window"
    value = _number(record.get("price"))
    if record.get("price_is_discounted") is True:
        # the shelf price, not a promotion
        value = _number(record.get("price_without_discount")) or value
    if value is None or not 0 < value < 1000:
        return "bad_price"
    return value


def _number(value: object) -> float | None:
    """A JSON number, or a decimal written as text (`"1.25"`, as a decimal field may be dumped)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str) and value.replace(".", "", 1).isdigit():
        return float(value)
    return None


def median_prices(lines: Iterable[Line], *, since: dt.date, before: dt.date) -> PriceTable:
    """Stream price lines; keep EUR per-unit product prices dated in [since, before); median each."""
    values: dict[str, list[float]] = defaultdict(list)
    table = PriceTable(median={})
    for line in lines:
        table.read += 1
        if line.record is None:
            table.skipped[line.problem or "malformed_json"] += 1
            continue
        price = _record_price(line.record, since, before)
        if isinstance(price, str):
            table.skipped[price] += 1
            continue
        code = _barcode(line.record["product_code"])
        assert code is not None
        values[code].append(price)
        table.used += 1
    table.median = {
        code: round(statistics.median(prices), 2) for code, prices in sorted(values.items())
    }
    return table
