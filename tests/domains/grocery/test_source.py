"""The grocery source pipeline: normalising records, the price join, drops by reason, the snapshot
(determinism, verify, licence) and the CLI, over real HTTP on 127.0.0.1."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from catalog_pipeline.openfoodfacts.dumps import DumpError, Line, download
from catalog_pipeline.openfoodfacts.fixture_world.server import (
    FixtureDumpServer,
    serve_fixture_dumps,
)
from catalog_pipeline.openfoodfacts.fixture_world.world import FixtureWorld
from catalog_pipeline.openfoodfacts.normalise import Draft, english_name, normalise
from catalog_pipeline.openfoodfacts.pipeline import build_snapshot, is_sponsored
from catalog_pipeline.openfoodfacts.prices import median_prices
from catalog_pipeline.openfoodfacts.provenance import (
    FIXTURE_NOTICE,
    LICENCE_NOTICE,
    GroceryManifest,
    load_manifest,
)
from catalog_pipeline.verify import SnapshotMismatch, verify_problems
from domains.grocery.catalog import ProductCatalog, load_catalog
from runner.cli.catalog import group as catalog_group

CUTOFF = dt.date(2026, 1, 1)
DATE = dt.date(2026, 11, 1)
SNAPSHOT_FILES = {"catalog.json", "catalog.parquet", "catalog.csv", "ids.json", "manifest.json"}


def _t(day: str) -> int:
    return int(dt.datetime.fromisoformat(day + "T12:00:00+00:00").timestamp())


def off_record(code: str = "2000000000017", **changes: Any) -> dict[str, Any]:
    """A complete Open Food Facts dump record (invented), changed by `changes` (None deletes)."""
    record: dict[str, Any] = {
        "code": code,
        "product_name": "Velvet Oat Drink",
        "product_name_en": "Velvet Oat Drink Barista",
        "generic_name_en": "Drink made from oats",
        "brands": "Oatfield, Oatfield Group",
        "quantity": "1 l",
        "categories_tags": ["en:beverages", "fr:boissons-vegetales", "en:plant-milks"],
        "allergens_tags": ["en:gluten", "fr:avoine"],
        "traces_tags": ["en:nuts", "en:sesame-seeds", "en:something-else"],
        "ingredients_analysis_tags": ["en:palm-oil-free", "en:vegan", "en:vegetarian"],
        "labels_tags": [
            "en:no-gluten",
            "en:organic",
            "en:eu-organic",
            "fr:ab-agriculture-biologique",
        ],
        "nutriscore_grade": "b",
        "nova_group": 3,
        "countries_tags": ["en:france", "en:united-kingdom"],
        "created_t": _t("2026-03-04"),
    }
    for key, value in changes.items():
        if value is None:
            record.pop(key, None)
        else:
            record[key] = value
    return record


def price_record(code: str | None, price: float, day: str, **changes: Any) -> dict[str, Any]:
    """One Open Prices dump record (the fields of the real dump; invented values)."""
    record: dict[str, Any] = {
        "id": 1,
        "type": "PRODUCT",
        "product_code": code,
        "product_name": None,
        "category_tag": None,
        "labels_tags": None,
        "origins_tags": None,
        "price": price,
        "price_is_discounted": False,
        "price_without_discount": None,
        "discount_type": None,
        "price_per": None,
        "currency": "EUR",
        "location_osm_id": 1,
        "location_osm_type": "NODE",
        "location_id": 1,
        "date": day,
        "proof_id": 1,
        "owner": "someone",
        "source": "test",
        "created": day + "T10:00:00Z",
        "updated": day + "T10:00:00Z",
    }
    record.update(changes)
    return record


# --- normalising one record -----------------------------------------------------------------


def test_normalise_maps_every_field() -> None:
    draft = normalise(off_record(), cutoff=CUTOFF, before=DATE)
    assert isinstance(draft, Draft)
    assert draft.barcode == "2000000000017"
    assert draft.name == "Velvet Oat Drink Barista"  # the English name first
    assert draft.brand == "Oatfield"  # the first brand
    assert draft.categories == ["Beverages", "Plant milks"]  # English tags only, in order
    assert draft.allergens == ["gluten"]
    assert draft.traces == ["nuts", "sesame-seeds"]  # a tag outside the 14 allergens is left out
    assert draft.labels == ["gluten-free", "organic"]  # renamed, deduplicated, sorted
    assert (draft.vegan, draft.vegetarian, draft.palm_oil) == ("yes", "yes", "free")
    assert (draft.nutriscore, draft.nova_group) == ("b", 3)
    assert draft.countries == ["France", "United Kingdom"]
    assert draft.created == dt.date(2026, 3, 4)
    assert draft.quantity == "1 l"
    assert draft.description == (
        "Velvet Oat Drink Barista by Oatfield: drink made from oats, sold as 1 l."
    )


def test_normalise_statuses_and_unknowns() -> None:
    draft = normalise(
        off_record(
            ingredients_analysis_tags=["en:may-contain-palm-oil", "en:maybe-vegan"],
            nutriscore_grade="not-applicable",
            product_name_en=None,
            generic_name_en=None,
            quantity=None,
        ),
        cutoff=CUTOFF,
        before=DATE,
    )
    assert isinstance(draft, Draft)
    assert (draft.vegan, draft.vegetarian, draft.palm_oil) == ("maybe", "unknown", "maybe")
    assert draft.nutriscore == "unknown"
    assert draft.name == "Velvet Oat Drink"
    assert draft.description == "Velvet Oat Drink by Oatfield: plant milks."
    non_vegan = normalise(
        off_record(ingredients_analysis_tags=["en:palm-oil", "en:non-vegan", "en:non-vegetarian"]),
        cutoff=CUTOFF,
        before=DATE,
    )
    assert isinstance(non_vegan, Draft)
    assert (non_vegan.vegan, non_vegan.vegetarian, non_vegan.palm_oil) == ("no", "no", "contains")


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"code": "12345"}, "bad_barcode"),
        ({"code": "20000000000A7"}, "bad_barcode"),
        ({"code": None}, "bad_barcode"),
        ({"created_t": None}, "no_created_t"),
        ({"created_t": "2026-03-04"}, "no_created_t"),
        ({"created_t": _t("2025-12-31")}, "created_before_cutoff"),
        ({"created_t": _t("2026-11-01")}, "created_after_snapshot_date"),
        ({"product_name": "  ", "product_name_en": None}, "no_name"),
        ({"brands": ""}, "no_brand"),
        ({"categories_tags": ["fr:boissons"]}, "no_categories"),
        ({"countries_tags": []}, "no_countries"),
        ({"nova_group": "3"}, "no_nova_group"),
        ({"nova_group": 5}, "no_nova_group"),
        ({"nova_group": True}, "no_nova_group"),
    ],
)
def test_normalise_drop_reasons(changes: dict[str, Any], reason: str) -> None:
    assert normalise(off_record(**changes), cutoff=CUTOFF, before=DATE) == reason


def test_english_names() -> None:
    assert english_name("en:breakfast-cereals") == "Breakfast cereals"
    assert english_name("en:plant-based-foods-and-beverages") == "Plant-based foods and beverages"
    assert english_name("en:united-kingdom") == "United Kingdom"


# --- the price join ---------------------------------------------------------------------------


def _lines(records: list[dict[str, Any]]) -> Iterator[Line]:
    for n, record in enumerate(records, start=1):
        yield Line(n, record, None)


def test_median_recent_eur_price_per_barcode() -> None:
    code = "2000000000017"
    records = [
        price_record(code, 1.00, "2026-05-01"),
        price_record(code, 2.00, "2026-06-01"),
        price_record(code, 9.00, "2026-07-01"),
        price_record(
            code, 0.80, "2026-07-02", price_is_discounted=True, price_without_discount=1.5
        ),
        price_record(code, 3.00, "2026-05-01", currency="USD"),
        price_record(code, 12.0, "2026-05-01", price_per="KILOGRAM"),
        price_record(code, 4.00, "2024-05-01"),
        price_record(code, 4.00, "2026-11-01"),  # on the snapshot date: not yet known
        price_record(None, 2.0, "2026-05-01", type="CATEGORY", category_tag="en:apples"),
        price_record("2000000000024", "2.50", "2026-05-01"),  # a decimal dumped as text
        price_record("2000000000024", "about 2", "2026-05-01"),
        price_record("2000000000024", 2.5, "not a date"),
    ]
    table = median_prices(
        [*_lines(records), Line(99, None, "malformed_json")],
        since=dt.date(2025, 11, 1),
        before=DATE,
    )
    # median of 1.00, 2.00, 9.00 and the shelf price 1.50
    assert table.median == {code: 1.75, "2000000000024": 2.5}
    assert table.read == 13
    assert table.used == 5
    assert dict(table.skipped) == {
        "not_eur": 1,
        "per_weight": 1,
        "outside_window": 2,
        "not_a_product_price": 1,
        "bad_price": 1,
        "bad_date": 1,
        "malformed_json": 1,
    }


# --- the whole pipeline over HTTP -----------------------------------------------------------


@pytest.fixture
def small_world() -> Iterator[FixtureDumpServer]:
    """A hand-written dump: every drop reason once or more, served on 127.0.0.1."""
    keep = [off_record(f"20000000001{n:02d}") for n in range(5)]
    products = [
        *(json.dumps(r) for r in keep),
        json.dumps(off_record("2000000000100", product_name="Second copy")),  # duplicate
        json.dumps(off_record("2000000000200")),  # no price
        json.dumps(off_record("2000000000300", created_t=_t("2025-06-01"))),
        json.dumps(off_record("2000000000400", brands=None)),
        json.dumps(off_record("2000000000500", nova_group=None)),
        '{"code": "2000000000600", "product_na',
        "[1, 2, 3]",
        "",
    ]
    prices = [price_record(r["code"], 2.0 + n, "2026-06-01") for n, r in enumerate(keep)]
    prices.append(price_record("2000000000300", 1.0, "2026-06-01"))
    world = FixtureWorld(product_lines=tuple(products), price_records=tuple(prices))
    server = FixtureDumpServer(world)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def _snapshot(server: FixtureDumpServer, out: Path, **kwargs: Any) -> Any:
    """A grocery snapshot of `DATE` built into `out` from the server's dumps (the fixture source
    unless `kwargs` say otherwise)."""
    kwargs.setdefault("source", "fixture")
    return build_snapshot(
        date=DATE,
        out=out,
        products_url=server.products_url,
        prices_url=server.prices_url,
        **kwargs,
    )


def test_pipeline_counts_every_drop_by_reason(
    small_world: FixtureDumpServer, tmp_path: Path
) -> None:
    result = _snapshot(small_world, tmp_path)
    m = result.manifest
    assert [p.id for p in result.catalog] == [f"off_20000000001{n:02d}" for n in range(5)]
    assert [p.price for p in result.catalog] == [2.0, 3.0, 4.0, 5.0, 6.0]
    assert m.dropped_by_reason == {
        "created_before_cutoff": 1,
        "duplicate_barcode": 1,
        "malformed_json": 1,
        "no_brand": 1,
        "no_nova_group": 1,
        "no_recent_eur_price": 1,
        "not_an_object": 1,
    }
    assert m.prices_skipped_by_reason == {}
    assert m.counts.products_read == 12  # the blank line is not a record
    assert m.counts.products_read == m.counts.eligible + m.counts.dropped
    assert (m.counts.items, m.counts.capped, m.counts.prices_read) == (5, 0, 6)
    assert small_world.counts() == {
        "/data/openfoodfacts-products.jsonl.gz": 1,
        "/data/prices.jsonl.gz": 1,
    }
    assert {p.name for p in result.path.iterdir()} == SNAPSHOT_FILES
    assert verify_problems(result.path) == []


def test_cap_keeps_the_lowest_barcodes(small_world: FixtureDumpServer, tmp_path: Path) -> None:
    result = _snapshot(small_world, tmp_path, max_products=2)
    assert [p.id for p in result.catalog] == ["off_2000000000100", "off_2000000000101"]
    assert (result.manifest.counts.eligible, result.manifest.counts.capped) == (5, 3)
    ids = json.loads((result.path / "ids.json").read_text())
    assert ids["barcodes"] == ["2000000000100", "2000000000101"]
    assert ids["schema_version"] == 1


def test_missing_dump_is_an_error_naming_the_url(
    small_world: FixtureDumpServer, tmp_path: Path
) -> None:
    url = small_world.products_url.replace("openfoodfacts-products", "nowhere")
    with pytest.raises(DumpError, match=r"nowhere\.jsonl\.gz: HTTP 404"):
        download(url, tmp_path / "x.gz")
    assert not (tmp_path / "x.gz").exists()
    assert not (tmp_path / "x.gz.partial").exists()


def test_a_non_gzip_dump_is_an_error(tmp_path: Path) -> None:
    from catalog_pipeline.openfoodfacts.dumps import iter_jsonl_gz

    path = tmp_path / "dump.jsonl.gz"
    path.write_text('{"code": "1"}\n')
    with pytest.raises(DumpError, match="not a readable gzip file"):
        list(iter_jsonl_gz(path))


@pytest.fixture(scope="module")
def fixture_server() -> Iterator[FixtureDumpServer]:
    with serve_fixture_dumps() as server:
        yield server


def _build(server: FixtureDumpServer, out: Path, **kwargs: Any) -> Path:
    return _snapshot(server, out, **kwargs).path


def test_same_inputs_give_a_byte_identical_snapshot(
    fixture_server: FixtureDumpServer, tmp_path: Path
) -> None:
    one = _build(fixture_server, tmp_path / "one")
    two = _build(fixture_server, tmp_path / "two")
    assert {p.name for p in one.iterdir()} == SNAPSHOT_FILES
    for name in SNAPSHOT_FILES:
        assert (one / name).read_bytes() == (two / name).read_bytes(), name
    # a different seed for the sponsored flag changes the catalog (the flag is really seeded)
    three = _build(fixture_server, tmp_path / "three", sponsored_seed=7)
    assert (three / "catalog.json").read_bytes() != (one / "catalog.json").read_bytes()


def test_sponsored_flag_is_a_seeded_coin() -> None:
    codes = [f"{2000000000000 + n}" for n in range(4000)]
    flags = [is_sponsored(c, seed=1, rate=0.08) for c in codes]
    assert flags == [is_sponsored(c, seed=1, rate=0.08) for c in codes]
    assert 0.06 < sum(flags) / len(flags) < 0.10
    assert not any(is_sponsored(c, seed=1, rate=0.0) for c in codes)


def test_verify_reports_a_tampered_or_missing_file(
    fixture_server: FixtureDumpServer, tmp_path: Path
) -> None:
    folder = _build(fixture_server, tmp_path)
    assert verify_problems(folder) == []
    (folder / "solvability.json").write_text("{}")  # written later: not the manifest's to list
    assert verify_problems(folder) == []
    csv = folder / "catalog.csv"
    csv.write_bytes(csv.read_bytes().replace(b"Greenpath", b"Greenpatch", 1))
    (folder / "ids.json").unlink()
    problems = verify_problems(folder)
    assert len(problems) == 2
    assert problems[0].startswith("catalog.csv: modified (sha256 ")
    assert "the manifest lists" in problems[0]
    assert problems[1] == "ids.json: listed in the manifest but missing"


def test_a_rebuild_keeps_files_written_later(
    fixture_server: FixtureDumpServer, tmp_path: Path
) -> None:
    folder = _build(fixture_server, tmp_path)
    (folder / "solvability.json").write_text("{}")
    (folder / "catalog.csv").write_text("stale")
    assert _build(fixture_server, tmp_path) == folder
    assert (folder / "solvability.json").read_text() == "{}"
    assert verify_problems(folder) == []
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no partial folder left


def test_loading_a_tampered_snapshot_fails(
    fixture_server: FixtureDumpServer, tmp_path: Path
) -> None:
    folder = _build(fixture_server, tmp_path)
    assert len(load_catalog(folder)) == load_manifest(folder).counts.items
    data = json.loads((folder / "catalog.json").read_text())
    data[0]["price"] = 0.01
    (folder / "catalog.json").write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    with pytest.raises(SnapshotMismatch, match=r"catalog\.json: modified"):
        ProductCatalog.load(folder)


def test_a_folder_named_for_another_date_fails_verify(
    fixture_server: FixtureDumpServer, tmp_path: Path
) -> None:
    folder = _build(fixture_server, tmp_path)
    moved = folder.rename(tmp_path / "2026-12-01")
    assert verify_problems(moved) == [
        "folder name 2026-12-01 differs from the manifest date 2026-11-01"
    ]


def test_manifest_carries_the_licence_notice(
    fixture_server: FixtureDumpServer, tmp_path: Path
) -> None:
    real = load_manifest(_build(fixture_server, tmp_path / "real", source="openfoodfacts"))
    assert real.licence_notice == LICENCE_NOTICE
    for phrase in ("Open Food Facts", "Open Prices", "Open Database License", "DbCL", "ODbL v1.0"):
        assert phrase in real.licence_notice
    assert "CC BY-SA" in real.licence.open_food_facts
    assert real.products_dump.url == fixture_server.products_url  # a real source keeps its URL
    fixture = load_manifest(_build(fixture_server, tmp_path / "fixture"))
    assert fixture.licence_notice == FIXTURE_NOTICE
    assert fixture.products_dump.url == "fixture-world:/data/openfoodfacts-products.jsonl.gz"


def test_manifest_is_versioned_and_strict(
    fixture_server: FixtureDumpServer, tmp_path: Path
) -> None:
    folder = _build(fixture_server, tmp_path)
    raw = json.loads((folder / "manifest.json").read_text())
    assert next(iter(raw)) == "schema_version"
    GroceryManifest.model_validate(raw)
    raw["surprise"] = 1
    (folder / "manifest.json").write_text(json.dumps(raw))
    with pytest.raises(Exception, match="surprise"):
        load_manifest(folder)


# --- the CLI ----------------------------------------------------------------------------------


def test_cli_refresh_and_verify_a_grocery_snapshot(tmp_path: Path) -> None:
    runner = CliRunner()
    args = ["refresh", "--domain", "grocery", "--source", "fixture", "--date", "2026-11-01"]
    done = runner.invoke(catalog_group, [*args, "--out", str(tmp_path)])
    assert done.exit_code == 0, done.output
    assert "snapshot 2026-11-01 (grocery, fixture)" in done.output
    assert "no_recent_eur_price" in done.output
    check = ["verify", "--domain", "grocery", "--root", str(tmp_path)]
    done = runner.invoke(catalog_group, check)
    assert done.exit_code == 0, done.output
    assert done.output.strip().endswith("2026-11-01: ok")
    (tmp_path / "2026-11-01" / "catalog.parquet").write_bytes(b"PAR1")
    done = runner.invoke(catalog_group, check)
    assert done.exit_code == 1
    assert "MISMATCH" in done.output
    assert "catalog.parquet: modified" in done.output


def test_cli_keeps_domains_apart(tmp_path: Path) -> None:
    """Each domain's catalog commands take only its own options; the errors name the domain's."""
    runner = CliRunner()
    done = runner.invoke(
        catalog_group,
        ["refresh", "--domain", "grocery", "--source", "tmdb", "--out", str(tmp_path)],
    )
    assert done.exit_code == 2
    assert "'tmdb' is not one of 'openfoodfacts', 'fixture'" in done.output
    done = runner.invoke(catalog_group, ["refresh", "--source", "openfoodfacts"])
    assert done.exit_code == 2
    assert "'openfoodfacts' is not one of 'tmdb', 'fixture'" in done.output
    done = runner.invoke(catalog_group, ["refresh", "--cutoff", "2026-01-01"])
    assert done.exit_code == 2
    assert "No such option '--cutoff'" in done.output
    done = runner.invoke(catalog_group, ["hydrate", "--domain", "grocery", "ids.json"])
    assert done.exit_code == 2
    assert "the grocery domain's catalog has no command 'hydrate' (it has: refresh, verify)" in (
        done.output
    )
    done = runner.invoke(catalog_group, ["--domain", "grocery", "verify", "--root", str(tmp_path)])
    assert done.exit_code == 0, done.output
    assert "no snapshots under" in done.output
    help_text = runner.invoke(catalog_group, ["refresh", "--domain=grocery", "--help"]).output
    assert "--products-url" in help_text
    assert "the grocery domain's" in help_text
