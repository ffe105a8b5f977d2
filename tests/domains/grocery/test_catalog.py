"""ProductCatalog: loading, the id index, canonical JSON, and errors naming file, product and field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from domains.grocery.catalog import ProductCatalog, load_catalog
from domains.grocery.items import ALLERGENS, FIELD_KINDS
from domains.grocery.testing import tiny_catalog, tiny_products
from runner.core.errors import LoadError


def test_tiny_catalog_covers_every_field_kind_and_value() -> None:
    catalog = tiny_catalog()
    assert 25 <= len(catalog) <= 40
    products = list(catalog)
    assert {p.vegan for p in products} == {"yes", "no", "maybe", "unknown"}
    assert {p.nutriscore for p in products} >= {"a", "b", "c", "d", "e"}
    assert {p.nova_group for p in products} == {1, 2, 3, 4}
    assert {p.palm_oil for p in products} >= {"free", "contains", "maybe"}
    assert {"organic", "fair-trade", "gluten-free"} <= {lab for p in products for lab in p.labels}
    seen = {a for p in products for a in p.allergens + p.traces}
    assert {"milk", "gluten", "nuts", "peanuts", "eggs", "soybeans", "sesame-seeds"} <= seen
    assert seen <= set(ALLERGENS)
    assert min(p.price for p in products) == 0.6
    assert max(p.price for p in products) <= 12
    assert len({p.categories[-1] for p in products}) >= 8
    assert any(p.sponsored for p in products)
    assert set(FIELD_KINDS) == set(products[0].model_dump())


def test_index_contains_len_iter() -> None:
    catalog = tiny_catalog()
    first = catalog.items[0]
    assert first.id in catalog
    assert catalog.get(first.id) == first
    assert catalog.get("off_99999999") is None
    assert "off_99999999" not in catalog
    assert [p.id for p in catalog] == [p.id for p in catalog.items]


def test_duplicate_id_is_refused() -> None:
    products = tiny_products()
    with pytest.raises(LoadError, match="duplicate id"):
        ProductCatalog([*products, products[0]])


def test_round_trip_through_file_keeps_digest(tmp_path: Path) -> None:
    catalog = tiny_catalog()
    data = catalog.to_json_bytes()
    assert data.endswith(b"]\n")
    path = tmp_path / "catalog.json"
    path.write_bytes(data)
    loaded = ProductCatalog.load(path)
    assert loaded.digest() == catalog.digest()
    assert loaded.source == str(path)
    assert load_catalog(tmp_path).items == catalog.items  # a folder without a manifest


def test_reformatted_file_has_the_same_digest(tmp_path: Path) -> None:
    path = tmp_path / "catalog.json"
    path.write_text(json.dumps(json.loads(tiny_catalog().to_json_bytes())), encoding="utf-8")
    assert ProductCatalog.load(path).digest() == tiny_catalog().digest()


def test_bad_record_names_file_index_id_field_and_value(tmp_path: Path) -> None:
    records = json.loads(tiny_catalog().to_json_bytes())
    records[3]["nova_group"] = 5
    records[7]["price"] = "1.20"
    records[9]["allergens"] = ["milk", "walnuts"]
    path = tmp_path / "catalog.json"
    path.write_text(json.dumps(records), encoding="utf-8")
    with pytest.raises(LoadError) as info:
        ProductCatalog.load(path)
    message = str(info.value)
    assert str(path) in message
    assert f"product #3 ({records[3]['id']}): nova_group" in message
    assert "(got: 5)" in message
    assert f"product #7 ({records[7]['id']}): price" in message
    assert "'1.20'" in message
    assert f"product #9 ({records[9]['id']}): allergens" in message
    assert "walnuts" in message
    assert len(info.value.problems) == 3


def test_record_without_id_is_named_by_index(tmp_path: Path) -> None:
    path = tmp_path / "catalog.json"
    path.write_text(json.dumps([{"name": "x"}]), encoding="utf-8")
    with pytest.raises(LoadError, match=r"product #0: id: Field required"):
        ProductCatalog.load(path)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("{not json", "invalid JSON at line 1"),
        ('{"id": "off_12345678"}', "expected a JSON list of products, got dict"),
    ],
)
def test_unreadable_file(tmp_path: Path, text: str, problem: str) -> None:
    path = tmp_path / "catalog.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(LoadError, match=problem) as info:
        ProductCatalog.load(path)
    assert info.value.path == str(path)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(LoadError, match="catalog file not found"):
        ProductCatalog.load(tmp_path / "nowhere.json")
