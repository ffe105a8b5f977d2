"""A loaded, id-indexed grocery product catalog with a canonical JSON form and a content digest."""

from __future__ import annotations

from pathlib import Path

from catalog_pipeline.openfoodfacts.items import ProductCatalog
from runner.core.item_catalog import CATALOG_FILE

__all__ = ["CATALOG_FILE", "ProductCatalog", "load_catalog"]


def load_catalog(snapshot_dir: Path) -> ProductCatalog:
    """The catalog of a snapshot folder (verified against its manifest first)."""
    return ProductCatalog.load(Path(snapshot_dir))
