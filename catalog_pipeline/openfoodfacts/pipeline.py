"""Build a dated grocery snapshot from the Open Food Facts and Open Prices dumps (download, filter, join, write)."""

from __future__ import annotations

import datetime as dt
import hashlib
import importlib.metadata
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from pydantic import ValidationError

from catalog_pipeline.manifest import MANIFEST_NAME
from catalog_pipeline.openfoodfacts.dumps import (
    OFF_PRODUCTS_URL,
    OPEN_PRICES_URL,
    Downloaded,
    download,
    iter_jsonl_gz,
)
from catalog_pipeline.openfoodfacts.items import Product, ProductCatalog
from catalog_pipeline.openfoodfacts.normalise import Draft, normalise
from catalog_pipeline.openfoodfacts.prices import median_prices
from catalog_pipeline.openfoodfacts.provenance import (
    BuildParameters,
    Counts,
    DumpSource,
    GroceryManifest,
    IdsFile,
    licence_notice_for,
)
from catalog_pipeline.snapshot import file_entry, write_snapshot_folder
from catalog_pipeline.tables import csv_bytes, parquet_bytes

Source = Literal["openfoodfacts", "fixture"]
DEFAULT_CUTOFF = dt.date(2026, 1, 1)
DEFAULT_MAX_PRODUCTS = 450
DEFAULT_PRICE_DAYS = 365
DEFAULT_SPONSORED_RATE = 0.08
DEFAULT_SPONSORED_SEED = 20261101
PRODUCTS_FILE = "openfoodfacts-products.jsonl.gz"
PRICES_FILE = "prices.jsonl.gz"


@dataclass(frozen=True)
class BuildResult:
    """What `build_snapshot` wrote: the folder, its manifest and catalog."""

    path: Path
    manifest: GroceryManifest
    catalog: ProductCatalog


def is_sponsored(barcode: str, *, seed: int, rate: float) -> bool:
    """A seeded-hash coin per barcode: the same barcode, seed and rate always give the same flag."""
    digest = hashlib.sha256(f"{seed}:{barcode}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64 < rate


def _generator() -> str:
    try:
        return f"taurec {importlib.metadata.version('taurec')}"
    except importlib.metadata.PackageNotFoundError:
        return "taurec (not installed)"


def _shown_url(url: str, source: Source) -> str:
    """The URL kept in the manifest: a fixture server's random port is left out."""
    if source == "fixture":
        return f"fixture-world:{urlsplit(url).path}"
    return url


def _dump_source(got: Downloaded, source: Source) -> DumpSource:
    return DumpSource(url=_shown_url(got.url, source), bytes=got.bytes, sha256=got.sha256)


def _product(draft: Draft, price: float, sponsored: bool) -> Product:
    return Product(
        id=f"off_{draft.barcode}",
        name=draft.name,
        brand=draft.brand,
        categories=draft.categories,
        description=draft.description,
        quantity=draft.quantity,
        allergens=draft.allergens,
        traces=draft.traces,
        labels=draft.labels,
        vegan=draft.vegan,
        vegetarian=draft.vegetarian,
        palm_oil=draft.palm_oil,
        nutriscore=draft.nutriscore,
        nova_group=draft.nova_group,
        countries=draft.countries,
        price=price,
        created=draft.created,
        sponsored=sponsored,
    )


def select_products(
    products_dump: Path,
    prices: dict[str, float],
    params: BuildParameters,
) -> tuple[list[Product], Counter[str], int, int]:
    """Stream the products dump; keep priced, complete, post-cutoff products (first of each barcode).

    Returns (products sorted by barcode and capped, drops by reason, lines read, eligible count).
    """
    dropped: Counter[str] = Counter()
    kept: dict[str, Product] = {}
    read = 0
    for line in iter_jsonl_gz(products_dump):
        read += 1
        if line.record is None:
            dropped[line.problem or "malformed_json"] += 1
            continue
        draft = normalise(line.record, cutoff=params.cutoff, before=params.created_before)
        if isinstance(draft, str):
            dropped[draft] += 1
            continue
        if draft.barcode in kept:
            dropped["duplicate_barcode"] += 1
            continue
        price = prices.get(draft.barcode)
        if price is None:
            dropped["no_recent_eur_price"] += 1
            continue
        sponsored = is_sponsored(
            draft.barcode, seed=params.sponsored_seed, rate=params.sponsored_rate
        )
        try:
            kept[draft.barcode] = _product(draft, price, sponsored)
        except ValidationError:
            dropped["invalid_product"] += 1
    ordered = [kept[code] for code in sorted(kept)]
    return ordered[: params.max_products], dropped, read, len(ordered)


def build_snapshot(
    *,
    date: dt.date,
    out: Path,
    source: Source,
    products_url: str = OFF_PRODUCTS_URL,
    prices_url: str = OPEN_PRICES_URL,
    cutoff: dt.date = DEFAULT_CUTOFF,
    max_products: int = DEFAULT_MAX_PRODUCTS,
    price_days: int = DEFAULT_PRICE_DAYS,
    sponsored_rate: float = DEFAULT_SPONSORED_RATE,
    sponsored_seed: int = DEFAULT_SPONSORED_SEED,
    work_dir: Path | None = None,
) -> BuildResult:
    """Download both dumps, build the catalog and write `<out>/<date>/` (byte-identical on re-runs)."""
    params = BuildParameters(
        cutoff=cutoff,
        created_before=date,
        price_since=date - dt.timedelta(days=price_days),
        max_products=max_products,
        sponsored_rate=sponsored_rate,
        sponsored_seed=sponsored_seed,
    )
    with tempfile.TemporaryDirectory(prefix="taurec-grocery-") as tmp:
        where = work_dir or Path(tmp)
        prices_got = download(prices_url, where / PRICES_FILE)
        products_got = download(products_url, where / PRODUCTS_FILE)
        table = median_prices(iter_jsonl_gz(prices_got.path), since=params.price_since, before=date)
        products, dropped, read, eligible = select_products(products_got.path, table.median, params)
    catalog = ProductCatalog(products, source=f"{source} {date.isoformat()}")
    ids = IdsFile(snapshot_date=date, source=source, barcodes=[p.id[4:] for p in products])
    files = {
        "catalog.json": catalog.to_json_bytes(),
        "catalog.parquet": parquet_bytes(catalog, Product),
        "catalog.csv": csv_bytes(catalog, Product),
        "ids.json": ids.to_json_bytes(),
    }
    manifest = GroceryManifest(
        date=date,
        source=source,
        generator=_generator(),
        products_dump=_dump_source(products_got, source),
        prices_dump=_dump_source(prices_got, source),
        parameters=params,
        counts=Counts(
            products_read=read,
            prices_read=table.read,
            prices_used=table.used,
            priced_barcodes=len(table.median),
            eligible=eligible,
            dropped=sum(dropped.values()),
            capped=eligible - len(products),
            items=len(products),
            sponsored=sum(p.sponsored for p in products),
        ),
        dropped_by_reason=dict(sorted(dropped.items())),
        prices_skipped_by_reason=dict(sorted(table.skipped.items())),
        catalog_digest=catalog.digest(),
        files={name: file_entry(data) for name, data in sorted(files.items())},
        licence_notice=licence_notice_for(source),
    )
    folder = Path(out) / date.isoformat()
    write_snapshot_folder(folder, {**files, MANIFEST_NAME: manifest.to_json_bytes()})
    return BuildResult(path=folder, manifest=manifest, catalog=catalog)
