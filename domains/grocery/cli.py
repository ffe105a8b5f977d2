"""The grocery side of `taurec catalog refresh|verify --domain grocery`: build or check grocery snapshots."""

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
from runner.errors import LoadError

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
