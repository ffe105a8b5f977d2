"""Movies' `taurec catalog refresh | hydrate | list | prune` (`verify` is every domain's, in runner.cli.catalog): parse options, call one pipeline function, print."""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal, cast

import click

from catalog_pipeline.options import DATE, day, out_option, refresh_options
from catalog_pipeline.snapshot import list_snapshots
from catalog_pipeline.tmdb.client import DEFAULT_RATE_LIMIT
from catalog_pipeline.tmdb.pipeline import RefreshResult, hydrate, refresh
from runner.core.cli_flags import F, count_option, folder_option
from runner.core.paths import SNAPSHOTS_DIR


def _report(result: RefreshResult) -> None:
    m, c, net = result.manifest, result.changes, result.network
    click.echo(f"snapshot {m.date} ({m.source}, {m.parameters.mode}) → {result.path}")
    click.echo(
        f"  items {m.counts.items} of {m.counts.requested} titles; "
        f"dropped {sum(m.drops_by_reason.values())}"
        + (
            f" ({', '.join(f'{k} {v}' for k, v in m.drops_by_reason.items())})"
            if m.drops_by_reason
            else ""
        )
    )
    since = f"since {c.previous}" if c.previous else "(no earlier snapshot)"
    click.echo(f"  changes {since}: +{c.counts.added} -{c.counts.removed} ~{c.counts.changed}")
    click.echo(
        f"  requests needed {m.requests.total} ({m.requests.discover_pages} discover pages, "
        f"{m.requests.details} details); sent {net['sent']}, cache hits {net['cache_hits']}, "
        f"retries {net['retries']}, rate-limited {net['rate_limited']}; {result.wall_s:.1f} s"
    )
    rewritten = (
        ", ".join(result.files_rewritten) if result.files_rewritten else "none (no byte changed)"
    )
    click.echo(f"  files rewritten: {rewritten}")
    click.echo(f"  catalog sha256 {m.catalog_digest}; keep until {m.retention_until}")


def _client_options(no_cache: str, rate_limit: str | None, base_url: str) -> Callable[[F], F]:
    """`--no-cache`, `--rate-limit` and `--base-url` (each with its help text), given to the
    command as one `client` argument: the pipeline's use_cache / rate_limit_per_s / base_url."""

    def decorate(command: F) -> F:
        @functools.wraps(command)
        def with_client(**params: Any) -> Any:
            params["client"] = {
                "use_cache": not params.pop("no_cache"),
                "rate_limit_per_s": params.pop("rate_limit"),
                "base_url": params.pop("base_url"),
            }
            return command(**params)

        flags = (
            click.option("--no-cache", is_flag=True, help=no_cache),
            click.option(
                "--rate-limit",
                type=click.FloatRange(min=0, min_open=True),
                default=DEFAULT_RATE_LIMIT,
                show_default=True,
                help=rate_limit,
            ),
            click.option("--base-url", envvar="TMDB_BASE_URL", default=None, help=base_url),
        )
        for flag in reversed(flags):
            with_client = flag(with_client)
        return cast(F, with_client)

    return decorate


@click.group()
def group() -> None:
    """Movies' snapshots: build, rebuild and list dated TMDB snapshots (or the offline fixture world)."""


@group.command("refresh")
@refresh_options(
    ["tmdb", "fixture"],
    "tmdb: the real API (TMDB_API_TOKEN or TMDB_API_KEY); fixture: the offline fictional world.",
    "At most N titles (most popular first).",
)
@_client_options(
    "Send every request again (the cache is still refreshed).",
    "Client-side requests per second.",
    "TMDB API base URL (--source tmdb) [env TMDB_BASE_URL].",
)
@out_option(SNAPSHOTS_DIR)
@count_option("--min-votes", "Discover's vote_count.gte.", default=10, low=0)
@count_option("--months", "Release-date window up to the snapshot date.", default=18)
@count_option("--workers", "Concurrent enrichment requests.", default=8)
def refresh_command(
    source: Literal["tmdb", "fixture"],
    date: dt.datetime | None,
    limit: int | None,
    client: dict[str, Any],
    out: Path,
    min_votes: int,
    months: int,
    workers: int,
) -> None:
    """Discover, enrich and normalize titles into <out>/<date>/ (byte-identical on re-runs)."""
    result = refresh(
        source,
        day(date),
        out=out,
        limit=limit,
        min_vote_count=min_votes,
        window_months=months,
        workers=workers,
        **client,
    )
    _report(result)


@group.command("hydrate")
@click.argument("ids_json", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--date", "date", type=DATE, default=None, help="Snapshot date [default: the one in IDS_JSON]."
)
@click.option(
    "--source",
    type=click.Choice(["tmdb", "fixture"]),
    default=None,
    help="[default: the one in IDS_JSON, else tmdb]",
)
@folder_option(
    "--out",
    default=SNAPSHOTS_DIR,
)
@_client_options("Send every request again.", None, "TMDB API base URL [env TMDB_BASE_URL].")
def hydrate_command(
    ids_json: Path,
    date: dt.datetime | None,
    source: Literal["tmdb", "fixture"] | None,
    out: Path,
    client: dict[str, Any],
) -> None:
    """Rebuild a snapshot from its ids.json with your own TMDB credential."""
    result = hydrate(ids_json, day(date), source=source, out=out, **client)
    _report(result)


_root_option = folder_option(
    "--root",
    text="Folder of dated snapshots.",
    default=SNAPSHOTS_DIR,
)


@group.command("list")
@_root_option
def list_command(root: Path) -> None:
    """Snapshots with size, catalog checksum, verified file checksums and retention date."""
    infos = list_snapshots(root)
    if not infos:
        click.echo(f"no snapshots under {root}")
        return
    click.echo(
        f"{'date':<10}  {'source':<7}  {'items':>5}  {'size':>9}  {'catalog sha256':<16}  {'keep until':<10}  status"
    )
    for info in infos:
        status = "ok" if info.checksums_ok else "CHECKSUM MISMATCH"
        bad = [f"{f.name} {f.status}" for f in info.files if f.status in ("modified", "missing")]
        if bad:
            status += f" ({'; '.join(bad)})"
        if info.problem:
            status = f"unreadable manifest: {info.problem.splitlines()[0]}"
        if info.expired:
            status += ", EXPIRED"
        click.echo(
            f"{info.date!s:<10}  {info.source or '-':<7}  {info.items if info.items is not None else '-':>5}  "
            f"{info.total_bytes / 1024:>7.0f} K  {(info.catalog_digest or '-')[:16]:<16}  "
            f"{info.retention_until or '-'!s:<10}  {status}"
        )
    if any(not info.checksums_ok for info in infos):
        raise click.exceptions.Exit(1)


@group.command("prune")
@_root_option
@folder_option(
    "--submissions",
    text="Also delete the transcripts (which quote the catalog) of runs on pruned snapshots under "
    "this folder, e.g. submissions/. Scores stay, but the ledger no longer vouches for those runs.",
)
@click.option("--today", type=DATE, default=None, help="Judge retention as of this day.")
@click.option("--dry-run", is_flag=True, help="Print what would go; remove and log nothing.")
def prune_command(
    root: Path, submissions: Path | None, today: dt.datetime | None, dry_run: bool
) -> None:
    """Remove TMDB snapshots past their retention date (ids and manifest kept); log each prune."""
    from catalog_pipeline.prune import PRUNE_LOG, prune_snapshots

    records = prune_snapshots(root, submissions=submissions, today=day(today), dry_run=dry_run)
    if not records:
        click.echo(f"nothing to prune under {root}")
        return
    verb = "would prune" if dry_run else "pruned"
    for record in records:
        click.echo(f"{verb} {record.snapshot} ({record.reason}): {', '.join(record.removed)}")
    if not dry_run:
        click.echo(f"logged in {root / PRUNE_LOG}")
