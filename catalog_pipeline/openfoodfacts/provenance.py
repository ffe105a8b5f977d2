"""`GroceryManifest`: the versioned, self-describing `manifest.json` of one grocery snapshot."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Literal

from pydantic import Field

from catalog_pipeline.manifest import (
    FileEntry,
    ManifestModel,
    SnapshotManifestBase,
    load_manifest_as,
)

GROCERY_MANIFEST_SCHEMA_VERSION: Literal[1] = 1

# The statement every copy of a snapshot (site page, download, archive) must carry verbatim.
LICENCE_NOTICE = (
    "Product data © Open Food Facts contributors; prices © Open Prices contributors. "
    "This product catalog is a derived database built from the Open Food Facts database "
    "(https://world.openfoodfacts.org), made available under the Open Database License (ODbL) "
    "v1.0, whose individual contents are under the Database Contents License (DbCL) v1.0, and "
    "from the Open Prices database (https://prices.openfoodfacts.org), made available under the "
    "ODbL v1.0. It contains no product images. The derived catalog (catalog.json, catalog.csv, "
    "catalog.parquet, ids.json) is itself offered under the ODbL v1.0 "
    "(https://opendatacommons.org/licenses/odbl/1-0/): keep this notice with any copy, and "
    "share any adapted database you publish under the same licence. The `sponsored` flag and "
    "the one-sentence descriptions are added by τ-Rec and are not Open Food Facts data."
)
FIXTURE_NOTICE = (
    "This catalog was built from τ-Rec's offline fixture world: every brand, product name, "
    "description and price is invented (written in the Open Food Facts and Open Prices dump "
    "formats so the pipeline runs the same code path as on the real dumps) and it contains no "
    "Open Food Facts or Open Prices data. Catalogs built from the real dumps carry the ODbL "
    "notice instead."
)


def licence_notice_for(source: str) -> str:
    """The statement a snapshot built from `source` must show with every copy."""
    return FIXTURE_NOTICE if source == "fixture" else LICENCE_NOTICE


class DumpSource(ManifestModel):
    """One published dump the snapshot was read from."""

    url: str = Field(description="Where it was downloaded (a fixture's port is not kept)")
    bytes: int = Field(ge=0, description="Size of the downloaded (compressed) file")
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$", description="sha256 of the downloaded file")


class BuildParameters(ManifestModel):
    """Everything the snapshot's content depends on besides the dumps' bytes."""

    cutoff: dt.date = Field(description="Keep products created (`created_t`) on or after this")
    created_before: dt.date = Field(description="...and strictly before this (the snapshot date)")
    price_since: dt.date = Field(description="Median over Open Prices EUR prices on or after this")
    max_products: int = Field(gt=0, description="Cap, after sorting by barcode")
    sponsored_rate: float = Field(ge=0, le=1)
    sponsored_seed: int


class Counts(ManifestModel):
    """Record counts through the pipeline."""

    products_read: int = Field(description="JSONL lines read from the products dump")
    prices_read: int = Field(description="Price records read from the prices dump")
    prices_used: int = Field(description="EUR product prices in the window, before the join")
    priced_barcodes: int
    eligible: int = Field(description="Products that passed every check, before the cap")
    dropped: int = Field(description="Sum of dropped_by_reason")
    capped: int = Field(description="Eligible products left out by max_products")
    items: int
    sponsored: int


class Licence(ManifestModel):
    """Licences of the sources and the statement to show with every copy."""

    open_food_facts: str = (
        "Open Database License (ODbL) v1.0; contents: Database Contents License (DbCL) v1.0; "
        "images: CC BY-SA (none are used)"
    )
    open_prices: str = "Open Database License (ODbL) v1.0"
    derived_catalog: str = "Open Database License (ODbL) v1.0 (share-alike, attribution kept)"


class GroceryManifest(SnapshotManifestBase):
    """`manifest.json`: what a grocery snapshot is, how it was made, and every file's checksum."""

    schema_version: Literal[1] = GROCERY_MANIFEST_SCHEMA_VERSION
    domain: Literal["grocery"] = "grocery"
    date: dt.date
    source: Literal["openfoodfacts", "fixture"]
    generator: str = Field(description="`taurec <version>` that wrote the snapshot")
    products_dump: DumpSource
    prices_dump: DumpSource
    parameters: BuildParameters
    counts: Counts
    dropped_by_reason: dict[str, int] = Field(description="Product records dropped, by reason")
    prices_skipped_by_reason: dict[str, int] = Field(
        description="Price records not used for the median, by reason"
    )
    catalog_digest: str = Field(description="sha256 of the canonical catalog JSON")
    files: dict[str, FileEntry]
    licence: Licence = Licence()
    licence_notice: str = Field(
        min_length=1, description="Show verbatim with every copy (site page, download, archive)"
    )
    notes: list[str] = Field(default_factory=list)


class IdsFile(ManifestModel):
    """`ids.json`: the snapshot's barcodes, so anyone can rebuild it from the public dumps."""

    schema_version: Literal[1] = 1
    snapshot_date: dt.date
    source: Literal["openfoodfacts", "fixture"]
    note: str = (
        "Open Food Facts barcodes of the products in catalog.json, in catalog order "
        "(each product's id is `off_<barcode>`)."
    )
    barcodes: list[str]


def load_manifest(folder: Path) -> GroceryManifest:
    """The folder's `manifest.json` as this source's manifest (LoadError naming field and value)."""
    return load_manifest_as(folder, GroceryManifest)
