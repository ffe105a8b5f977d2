"""A loaded, id-indexed grocery product catalog with a canonical JSON form and a content digest."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path

from pydantic import ValidationError

from domains.grocery.items import Product
from runner.errors import LoadError, describe_validation_error

CATALOG_FILE = "catalog.json"


class ProductCatalog:
    """An ordered list of products with an id index and a content digest."""

    def __init__(self, items: list[Product], source: str = "<memory>") -> None:
        self.items: tuple[Product, ...] = tuple(items)
        self.source = source
        self._by_id: dict[str, Product] = {}
        for item in self.items:
            if item.id in self._by_id:
                raise LoadError(source, [f"duplicate id {item.id!r}"])
            self._by_id[item.id] = item

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self) -> Iterator[Product]:
        return iter(self.items)

    def __contains__(self, item_id: object) -> bool:
        return item_id in self._by_id

    def get(self, item_id: str) -> Product | None:
        """The product with this id, or None."""
        return self._by_id.get(item_id)

    def to_json_bytes(self) -> bytes:
        """Canonical JSON of the catalog (what `catalog.json` holds and what the digest covers)."""
        data = [item.model_dump(mode="json") for item in self.items]
        return (json.dumps(data, ensure_ascii=False, indent=2) + "\n").encode("utf-8")

    def digest(self) -> str:
        """sha256 of the canonical JSON, independent of how the file on disk was formatted."""
        return hashlib.sha256(self.to_json_bytes()).hexdigest()

    @classmethod
    def load(cls, path: Path | str) -> ProductCatalog:
        """Load a snapshot folder (its `catalog.json`, verified against its manifest) or a bare file."""
        path = Path(path)
        file = path / CATALOG_FILE if path.is_dir() else path
        if not file.exists():
            raise LoadError(file, ["catalog file not found"])
        if file.name == CATALOG_FILE and (file.parent / "manifest.json").exists():
            from domains.grocery.source.snapshot import verify_or_raise

            verify_or_raise(file.parent)
        try:
            raw = json.loads(file.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise LoadError(file, [f"invalid JSON at line {exc.lineno}: {exc.msg}"]) from exc
        except UnicodeDecodeError as exc:
            raise LoadError(file, [f"not UTF-8 text: {exc.reason} at byte {exc.start}"]) from exc
        if not isinstance(raw, list):
            raise LoadError(file, [f"expected a JSON list of products, got {type(raw).__name__}"])
        problems: list[str] = []
        items: list[Product] = []
        for index, record in enumerate(raw):
            label = f"#{index}"
            if isinstance(record, dict) and isinstance(record.get("id"), str):
                label = f"#{index} ({record['id']})"
            try:
                items.append(Product.model_validate(record))
            except ValidationError as exc:
                problems += describe_validation_error(exc, prefix=f"product {label}: ")
        if problems:
            raise LoadError(file, problems)
        return cls(items, source=str(file))


def load_catalog(snapshot_dir: Path) -> ProductCatalog:
    """The catalog of a snapshot folder (verified against its manifest first)."""
    return ProductCatalog.load(Path(snapshot_dir))
