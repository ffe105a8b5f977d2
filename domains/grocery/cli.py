"""Grocery's `taurec catalog refresh|verify --domain grocery`: build or check snapshots from the Open Food Facts and Open Prices dumps."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import click

from domains.grocery.source.dumps import OFF_PRODUCTS_URL, OPEN_PRICES_URL
from domains.grocery.source.pipeline import (
    DEFAULT_CUTOFF,
    DEFAULT_MAX_PRODUCTS,
    BuildResult,
    Source,
    build_snapshot,
)
from domains.grocery.source.snapshot import DATE_DIR, verify
from runner.cli.catalog import echo_verified
from runner.core.errors import LoadError

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
        from domains.grocery.fixture.server import serve_fixture_dumps

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


def verify_folders(root: Path | None, refs: list[str]) -> list[tuple[str, list[str]]]:
    """(folder, problems) for each grocery snapshot named (a date under root, or a path), else all."""
    base = root or GROCERY_SNAPSHOTS_DIR
    if refs:
        folders = [base / ref if DATE_DIR.match(ref) else Path(ref) for ref in refs]
    else:
        folders = (
            sorted(p for p in base.iterdir() if p.is_dir() and DATE_DIR.match(p.name))
            if base.is_dir()
            else []
        )
    out: list[tuple[str, list[str]]] = []
    for folder in folders:
        try:
            problems = verify(folder)
        except LoadError as exc:
            problems = exc.problems
        except FileNotFoundError:
            problems = ["snapshot folder not found"]
        out.append((str(folder.resolve()), problems))
    return out


_DATE = click.DateTime(formats=["%Y-%m-%d"])


def _day(value: dt.datetime | None) -> dt.date | None:
    return value.date() if value is not None else None


@click.group()
def group() -> None:
    """Grocery's snapshots: build and check dated Open Food Facts snapshots (or the offline fixture world)."""


@group.command("refresh")
@click.option(
    "--source",
    type=click.Choice(["openfoodfacts", "fixture"]),
    default="fixture",
    show_default=True,
    help="openfoodfacts: the published Open Food Facts and Open Prices dumps; fixture: the "
    "offline fictional world.",
)
@click.option(
    "--date", "date", type=_DATE, default=None, help="Snapshot date [default: today, UTC]."
)
@click.option(
    "--limit",
    type=click.IntRange(min=1),
    default=None,
    help=f"At most N products (the lowest barcodes) [default: {DEFAULT_MAX_PRODUCTS}].",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=GROCERY_SNAPSHOTS_DIR,
    show_default=True,
    help="Folder holding the dated snapshot folders.",
)
@click.option(
    "--cutoff",
    type=_DATE,
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
            _day(date) or dt.datetime.now(dt.UTC).date(),
            out=out,
            limit=limit,
            cutoff=_day(cutoff),
            products_url=products_url,
            prices_url=prices_url,
        )
    )


@group.command("verify")
@click.argument("snapshots", nargs=-1)
@click.option(
    "--root",
    type=click.Path(file_okay=False, path_type=Path),
    default=GROCERY_SNAPSHOTS_DIR,
    show_default=True,
    help="Folder holding the dated snapshot folders.",
)
def verify_command(snapshots: tuple[str, ...], root: Path) -> None:
    """Check snapshot folders (dates or paths; default: all under --root) against their
    manifests: every listed file's sha256, and the folder name against the manifest date.
    Exit 1 on any mismatch."""
    echo_verified(verify_folders(root, list(snapshots)), root)
