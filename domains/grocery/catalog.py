"""A loaded, id-indexed grocery product catalog with a canonical JSON form and a content digest."""

from __future__ import annotations

from pathlib import Path

from domains.grocery.items import Product
from runner.core.item_catalog import CATALOG_FILE, ItemCatalog

__all__ = ["CATALOG_FILE", "ProductCatalog", "load_catalog"]


class ProductCatalog(ItemCatalog[Product]):
    """An ordered list of products with an id index and a content digest."""

    item_model = Product
    record_noun = "product"

    @classmethod
    def verify_folder(cls, folder: Path) -> None:
        """Checksums first (any domain's manifest), then every field of an Open Food Facts one."""
        from catalog_pipeline.openfoodfacts.provenance import load_manifest
        from catalog_pipeline.verify import verify_snapshot

        verify_snapshot(folder)
        load_manifest(folder)


def load_catalog(snapshot_dir: Path) -> ProductCatalog:
    """The catalog of a snapshot folder (verified against its manifest first)."""
    return ProductCatalog.load(Path(snapshot_dir))
