"""A loaded, id-indexed grocery product catalog with a canonical JSON form and a content digest."""

from __future__ import annotations

from pathlib import Path

from catalog_pipeline.verify import ManifestChecked
from domains.grocery.items import Product
from runner.core.item_catalog import CATALOG_FILE, ItemCatalog

__all__ = ["CATALOG_FILE", "ProductCatalog", "load_catalog"]


class ProductCatalog(ManifestChecked, ItemCatalog[Product]):
    """An ordered list of products with an id index and a content digest, read from a snapshot
    whose checksums and Open Food Facts manifest are verified first."""

    manifest_loader = "catalog_pipeline.openfoodfacts.provenance:load_manifest"
    item_model = Product
    record_noun = "product"


def load_catalog(snapshot_dir: Path) -> ProductCatalog:
    """The catalog of a snapshot folder (verified against its manifest first)."""
    return ProductCatalog.load(Path(snapshot_dir))
