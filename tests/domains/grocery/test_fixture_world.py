"""The grocery fixture world: deterministic dumps, served on 127.0.0.1, that make a rich catalog; and
the committed snapshots built from it."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
import urllib.error
import urllib.request
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from catalog_pipeline.openfoodfacts.fixture_world.server import (
    PRICES_PATH,
    PRODUCTS_PATH,
    serve_fixture_dumps,
)
from catalog_pipeline.openfoodfacts.fixture_world.world import build_world
from catalog_pipeline.openfoodfacts.pipeline import build_snapshot
from catalog_pipeline.openfoodfacts.provenance import load_manifest
from catalog_pipeline.verify import verify_problems
from domains.grocery.catalog import ProductCatalog, load_catalog
from domains.grocery.cli import GROCERY_SNAPSHOTS_DIR

COMMITTED = ("2026-10-01", "2026-11-01")


@pytest.fixture(scope="module")
def latest() -> ProductCatalog:
    return load_catalog(GROCERY_SNAPSHOTS_DIR / "2026-11-01")


def test_world_is_deterministic_and_has_enough_raw_records() -> None:
    one, two = build_world(), build_world()
    assert one.products_dump() == two.products_dump()
    assert one.prices_dump() == two.prices_dump()
    assert build_world("another seed").products_dump() != one.products_dump()
    assert 1500 <= len(one.product_lines) <= 2500
    parsed = []
    broken = 0
    for line in gzip.decompress(one.products_dump()).decode().splitlines():
        try:
            value = json.loads(line)
        except json.JSONDecodeError:
            broken += 1
            continue
        if isinstance(value, dict):
            parsed.append(value)
    assert broken >= 5
    codes = [r["code"] for r in parsed if r.get("code", "").isdigit() and len(r["code"]) in (8, 13)]
    # restricted-circulation barcodes (prefix 2): never a real trade item
    assert all(code.startswith("2") for code in codes)


def test_prices_dump_is_in_the_open_prices_format() -> None:
    records = [
        json.loads(line)
        for line in gzip.decompress(build_world().prices_dump()).decode().splitlines()
    ]
    for key in ("id", "type", "product_code", "price", "currency", "date", "price_per"):
        assert all(key in r for r in records), key
    assert {r["type"] for r in records} == {"PRODUCT", "CATEGORY"}
    assert {"EUR", "USD", "GBP", "CHF"} <= {r["currency"] for r in records}
    assert len({r["id"] for r in records}) == len(records)


def test_server_serves_both_dumps_and_404s_the_rest() -> None:
    with serve_fixture_dumps() as server:
        assert server.products_url.startswith("http://127.0.0.1:")
        with urllib.request.urlopen(server.products_url) as response:
            assert response.read() == build_world().products_dump()
        with urllib.request.urlopen(server.prices_url) as response:
            assert response.headers["Content-Type"] == "application/gzip"
        with pytest.raises(urllib.error.HTTPError) as info:
            urllib.request.urlopen(server.prices_url.replace("prices", "other"))
        assert info.value.code == 404
        info.value.close()
        assert server.counts() == {"/data/other.jsonl.gz": 1, PRICES_PATH: 1, PRODUCTS_PATH: 1}


def test_the_catalog_is_rich_enough_for_a_task_suite(latest: ProductCatalog) -> None:
    products = list(latest)
    assert 300 <= len(products) <= 450
    shelves = Counter(p.categories[-1] for p in products)
    assert len(shelves) >= 12
    assert all(15 <= n <= 40 for n in shelves.values()), shelves
    assert {p.vegan for p in products} >= {"yes", "no", "maybe", "unknown"}
    assert {p.palm_oil for p in products} >= {"free", "contains", "maybe"}
    assert {p.nutriscore for p in products} >= {"a", "b", "c", "d", "e"}
    assert {p.nova_group for p in products} == {1, 2, 3, 4}
    allergens = Counter(a for p in products for a in p.allergens)
    traces = Counter(a for p in products for a in p.traces)
    for name in ("nuts", "peanuts", "milk", "gluten", "eggs", "soybeans", "sesame-seeds"):
        assert allergens[name] >= 10, name
        assert traces[name] >= 10, name
    labels = Counter(label for p in products for label in p.labels)
    assert all(labels[name] >= 10 for name in ("organic", "fair-trade", "gluten-free"))
    assert len({c for p in products for c in p.countries}) >= 5
    prices = [p.price for p in products]
    assert min(prices) < 1.0
    assert max(prices) > 9.0
    assert all(0.5 <= price <= 15 for price in prices)
    assert 0.03 < sum(p.sponsored for p in products) / len(products) < 0.13


def test_every_shelf_has_near_duplicates(latest: ProductCatalog) -> None:
    # A need such as "a vegan plant milk without nuts" must have a few answers, not one.
    groups: dict[tuple[str, str, tuple[str, ...]], int] = defaultdict(int)
    for p in latest:
        groups[(p.categories[-1], p.vegan, tuple(p.allergens))] += 1
    for shelf in {p.categories[-1] for p in latest}:
        best = max(n for (s, _, _), n in groups.items() if s == shelf)
        assert best >= 3, shelf


@pytest.mark.parametrize("date", COMMITTED)
def test_committed_snapshots_verify_and_load(date: str) -> None:
    folder = GROCERY_SNAPSHOTS_DIR / date
    assert verify_problems(folder) == []
    catalog = load_catalog(folder)
    manifest = load_manifest(folder)
    assert catalog.digest() == manifest.catalog_digest
    assert len(catalog) == manifest.counts.items
    assert all(manifest.parameters.cutoff <= p.created < manifest.date for p in catalog)
    assert sum(f.stat().st_size for f in folder.iterdir()) < 1_500_000
    assert manifest.licence_notice
    skipped = manifest.prices_skipped_by_reason
    assert {"not_eur", "per_weight", "outside_window", "not_a_product_price"} <= set(skipped)
    assert manifest.counts.prices_read == manifest.counts.prices_used + sum(skipped.values())


def test_the_later_snapshot_adds_newer_products() -> None:
    older, newer = (load_catalog(GROCERY_SNAPSHOTS_DIR / d) for d in COMMITTED)
    older_ids = {p.id for p in older}
    added = [p for p in newer if p.id not in older_ids]
    assert older_ids <= {p.id for p in newer}
    assert len(added) >= 50
    assert any(p.created.month == 10 for p in added)


def test_the_committed_snapshot_rebuilds_byte_for_byte(tmp_path: Path) -> None:
    with serve_fixture_dumps() as server:
        manifest = load_manifest(GROCERY_SNAPSHOTS_DIR / "2026-11-01")
        rebuilt = build_snapshot(
            date=manifest.date,
            out=tmp_path,
            source="fixture",
            products_url=server.products_url,
            prices_url=server.prices_url,
            cutoff=manifest.parameters.cutoff,
            max_products=manifest.parameters.max_products,
        ).path
    for path in sorted((GROCERY_SNAPSHOTS_DIR / "2026-11-01").iterdir()):
        assert (rebuilt / path.name).read_bytes() == path.read_bytes(), path.name


def test_grocery_modules_import_no_movie_module() -> None:
    code = (
        "import importlib, pkgutil, sys, domains.grocery as g\n"
        "for m in pkgutil.walk_packages(g.__path__, 'domains.grocery.'):\n"
        "    importlib.import_module(m.name)\n"
        "bad = sorted(n for n in sys.modules if n.startswith('catalog_pipeline.tmdb') or n in (\n"
        "    'domains.movies.catalog', 'domains.movies.tasks', 'domains.movies.tools', 'domains.movies.scoring'))\n"
        "print(','.join(bad))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert done.stdout.strip() == ""
