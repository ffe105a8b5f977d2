"""Grocery's `taurec catalog refresh --domain grocery`: build snapshots from the Open Food Facts and Open Prices dumps (`verify` is every domain's)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import click

from catalog_pipeline.openfoodfacts.dumps import OFF_PRODUCTS_URL, OPEN_PRICES_URL
from catalog_pipeline.openfoodfacts.pipeline import (
    DEFAULT_CUTOFF,
    DEFAULT_MAX_PRODUCTS,
    BuildResult,
    Source,
    build_snapshot,
)
from catalog_pipeline.options import DATE, day, out_option, refresh_options

GROCERY_SNAPSHOTS_DIR = Path(__file__).resolve().parent / "snapshots"


def report(result: BuildResult) -> None:
    """Print what a build wrote: counts, drops by reason, prices, digest and the licence."""
    m = result.manifest
    c = m.counts
    click.echo(f"snapshot {m.date} (grocery, {m.source}) → {result.path}")
    drops = ", ".join(f"{k} {v}" for k, v in m.dropped_by_reason.items())
    click.echo(
        f"  products {c.items} of {c.products_read} records read "
        f"(eligible {c.eligible}, capped {c.capped}); dropped {c.dropped}"
        + (f" ({drops})" if drops else "")
    )
    click.echo(
        f"  prices {c.prices_read} read, {c.prices_used} used; {c.priced_barcodes} barcodes "
        f"priced; {c.sponsored} sponsored"
    )
    click.echo(f"  catalog sha256 {m.catalog_digest}")
    click.echo(f"  licence notice (manifest.json): {m.licence_notice.split('. ')[0]}.")


def refresh(
    source: Source,
    date: dt.date,
    *,
    out: Path | None,
    limit: int | None,
    cutoff: dt.date | None,
    products_url: str | None,
    prices_url: str | None,
) -> BuildResult:
    """Build `<out>/<date>/` from the real dumps, or from the fixture world served on 127.0.0.1."""
    folder = out or GROCERY_SNAPSHOTS_DIR
    since = cutoff or DEFAULT_CUTOFF
    cap = limit or DEFAULT_MAX_PRODUCTS
    if source == "fixture" and not (products_url or prices_url):
        from catalog_pipeline.openfoodfacts.fixture_world.server import serve_fixture_dumps

        with serve_fixture_dumps() as server:
            return build_snapshot(
                date=date,
                out=folder,
                source="fixture",
                products_url=server.products_url,
                prices_url=server.prices_url,
                cutoff=since,
                max_products=cap,
            )
    return build_snapshot(
        date=date,
        out=folder,
        source=source,
        products_url=products_url or OFF_PRODUCTS_URL,
        prices_url=prices_url or OPEN_PRICES_URL,
        cutoff=since,
        max_products=cap,
    )


@click.group()
def group() -> None:
    """Grocery's snapshots: build dated Open Food Facts snapshots (or the offline fixture world)."""


@group.command("refresh")
@refresh_options(
    ["openfoodfacts", "fixture"],
    "openfoodfacts: the published Open Food Facts and Open Prices dumps; fixture: the offline "
    "fictional world.",
    f"At most N products (the lowest barcodes) [default: {DEFAULT_MAX_PRODUCTS}].",
)
@out_option(GROCERY_SNAPSHOTS_DIR)
@click.option(
    "--cutoff",
    type=DATE,
    default=None,
    help=f"Keep products created on or after this day [default: {DEFAULT_CUTOFF}].",
)
@click.option(
    "--products-url",
    envvar="TAUREC_OFF_PRODUCTS_URL",
    default=None,
    help="The Open Food Facts products JSONL dump [env TAUREC_OFF_PRODUCTS_URL; default: the "
    "published nightly dump].",
)
@click.option(
    "--prices-url",
    envvar="TAUREC_OPEN_PRICES_URL",
    default=None,
    help="The Open Prices JSONL dump [env TAUREC_OPEN_PRICES_URL; default: the published daily "
    "dump].",
)
def refresh_command(
    source: Source,
    date: dt.datetime | None,
    limit: int | None,
    out: Path,
    cutoff: dt.datetime | None,
    products_url: str | None,
    prices_url: str | None,
) -> None:
    """Filter, price and normalize products into <out>/<date>/ (byte-identical on re-runs)."""
    report(
        refresh(
            source,
            day(date) or dt.datetime.now(dt.UTC).date(),
            out=out,
            limit=limit,
            cutoff=day(cutoff),
            products_url=products_url,
            prices_url=prices_url,
        )
    )
