"""`refresh` and `hydrate`: discover → enrich → normalize → write a dated, checksummed snapshot."""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import importlib.metadata
import json
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Literal

from catalog_pipeline.dates import add_months
from catalog_pipeline.snapshot import file_entry, snapshot_dates, write_snapshot_folder
from catalog_pipeline.tables import csv_bytes, parquet_bytes
from catalog_pipeline.tmdb.cache import default_cache_dir
from catalog_pipeline.tmdb.changes import SnapshotChanges, diff_catalogs
from catalog_pipeline.tmdb.client import DEFAULT_RATE_LIMIT, TMDB_BASE_URL, TMDBClient
from catalog_pipeline.tmdb.discover import discover
from catalog_pipeline.tmdb.enrich import APPEND_TO_RESPONSE, DEFAULT_WORKERS, enrich
from catalog_pipeline.tmdb.items import Catalog, CatalogItem
from catalog_pipeline.tmdb.normalize import Drop, SponsoredConfig, drop_counts, normalize_record
from catalog_pipeline.tmdb.provenance import (
    RETENTION_MONTHS,
    RequestFigures,
    SnapshotCounts,
    SnapshotManifest,
    SnapshotParameters,
    load_manifest,
)
from catalog_pipeline.tmdb.query import DiscoveryParams
from catalog_pipeline.verify import sha256_bytes
from runner.core.errors import LoadError, TaurecError
from runner.core.json_files import read_json
from runner.core.paths import SNAPSHOTS_DIR

Source = Literal["tmdb", "fixture"]
DEFAULT_WINDOW_MONTHS = 18
DEFAULT_MIN_VOTE_COUNT = 10
PROVIDERS_REGION = "US"
FIXTURE_SOURCE_URL = "fixture-world"


def previous_snapshot(root: Path, date: dt.date) -> tuple[dt.date, Catalog] | None:
    """The latest snapshot strictly before `date` under `root`, loaded."""
    earlier = [d for d in snapshot_dates(root) if d < date]
    if not earlier:
        return None
    return earlier[-1], Catalog.load(root / earlier[-1].isoformat())


@dataclass
class RefreshResult:
    """What a refresh or hydrate wrote, plus this run's network telemetry (not stored in files)."""

    path: Path
    manifest: SnapshotManifest
    changes: SnapshotChanges
    files_rewritten: list[str]
    network: dict[str, Any]
    wall_s: float


def parse_date(value: dt.date | str | None) -> dt.date:
    """A snapshot date: a `date`, an ISO string, or None for today (UTC)."""
    if value is None:
        return dt.datetime.now(dt.UTC).date()
    if isinstance(value, dt.date):
        return value
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise ValueError(f"snapshot date must be YYYY-MM-DD, got {value!r}") from None


def _generator() -> str:
    try:
        return f"taurec {importlib.metadata.version('taurec')}"
    except importlib.metadata.PackageNotFoundError:
        return "taurec (not installed)"


def _fixture_world_digest() -> str:
    """Hash of the code the fixture server runs (its module and every fixture-world module it
    uses, followed through imports), so a changed world never reads a stale cache."""
    import catalog_pipeline.tmdb.fixture_world.server as server

    prefix = "catalog_pipeline.tmdb.fixture_world"
    seen: dict[str, ModuleType] = {}
    todo: list[ModuleType] = [server]
    while todo:
        module = todo.pop()
        if module.__name__ in seen:
            continue
        seen[module.__name__] = module
        for value in vars(module).values():
            name = (
                value.__name__
                if isinstance(value, ModuleType)
                else getattr(value, "__module__", None)
            )
            if isinstance(name, str) and name.startswith(prefix) and name not in seen:
                todo.append(sys.modules[name])
    digest = hashlib.sha256()
    for name, module in sorted(seen.items()):
        if module.__file__:
            digest.update(name.encode() + b"\0" + Path(module.__file__).read_bytes())
    return digest.hexdigest()[:16]


@contextlib.contextmanager
def open_client(
    source: Source,
    date: dt.date,
    *,
    base_url: str | None = None,
    use_cache: bool = True,
    cache_dir: Path | None = None,
    rate_limit_per_s: float | None = DEFAULT_RATE_LIMIT,
    workers: int = DEFAULT_WORKERS,
    fixture_rate_limit_per_s: float | None = None,
) -> Iterator[tuple[TMDBClient, str]]:
    """A client for `source` (starting and stopping the fixture server), and the URL to record.

    The cache is namespaced by source and snapshot date: a re-run of the same date reuses every
    response; a new date fetches fresh data. `use_cache=False` skips reads but still refreshes it.
    """
    cache_root = cache_dir if cache_dir is not None else default_cache_dir()
    options: dict[str, Any] = {
        "rate_limit_per_s": rate_limit_per_s,
        "cache_dir": cache_root,
        "read_cache": use_cache,
        "pool_size": max(workers, 1),
    }
    if source == "fixture":
        from catalog_pipeline.tmdb.fixture_world import FIXTURE_TOKEN, serve_fixture_world

        namespace = f"fixture:{date.isoformat()}:{_fixture_world_digest()}"
        with (
            serve_fixture_world(date, rate_limit_per_s=fixture_rate_limit_per_s) as url,
            TMDBClient(
                base_url=url, token=FIXTURE_TOKEN, cache_namespace=namespace, **options
            ) as client,
        ):
            yield client, FIXTURE_SOURCE_URL
        return
    url = (base_url or TMDB_BASE_URL).rstrip("/")
    namespace = f"tmdb:{url}:{date.isoformat()}"
    with TMDBClient.from_env(base_url=url, cache_namespace=namespace, **options) as client:
        yield client, url


def _normalize_all(
    client_records: dict[int, Any], not_found: list[int], ids: list[int], sponsored: SponsoredConfig
) -> tuple[list[CatalogItem], list[Drop]]:
    items: list[CatalogItem] = []
    drops = [
        Drop(tmdb_id=i, reason="not_found", field="id", detail="TMDB answered 404 (status 34)")
        for i in not_found
    ]
    for movie_id in sorted(client_records):
        result = normalize_record(
            client_records[movie_id], sponsored, expected_id=movie_id, region=PROVIDERS_REGION
        )
        if isinstance(result, Drop):
            drops.append(result)
        else:
            items.append(result)
    drops.sort(key=lambda d: (d.tmdb_id or 0, d.reason, d.field))
    return items, drops


def build_snapshot(
    client: TMDBClient,
    *,
    date: dt.date,
    source: Source,
    source_url: str,
    out: Path,
    discovery: DiscoveryParams | None = None,
    ids: list[int] | None = None,
    ids_file_sha256: str | None = None,
    sponsored: SponsoredConfig | None = None,
    workers: int = DEFAULT_WORKERS,
) -> RefreshResult:
    """Run the stages with `client` and write `<out>/<date>/`; exactly one of discovery/ids."""
    if (discovery is None) == (ids is None):
        raise ValueError("give either discovery parameters (refresh) or a list of ids (hydrate)")
    started = time.perf_counter()
    sponsored = sponsored or SponsoredConfig()
    notes: list[str] = []
    pages = 0
    if discovery is not None:
        found = discover(client, discovery, workers=workers)
        wanted, pages = found.ids, found.pages
        notes += found.notes
        if found.skipped_results:
            notes.append(f"{found.skipped_results} discover results without a usable id skipped")
    else:
        wanted = list(dict.fromkeys(ids or []))
    enriched = enrich(client, wanted, workers=workers)
    items, drops = _normalize_all(enriched.records, enriched.not_found, wanted, sponsored)
    catalog = Catalog(items, source=f"{source}:{date}")
    folder = out / date.isoformat()
    earlier = previous_snapshot(out, date)
    changes = diff_catalogs(
        catalog,
        earlier[1] if earlier else None,
        date=date,
        previous_date=earlier[0] if earlier else None,
    )
    ids_doc = {
        "schema_version": 1,
        "snapshot_date": date.isoformat(),
        "source": source,
        "note": "TMDB ids only; rebuild the catalog with `taurec catalog hydrate ids.json`.",
        "tmdb_ids": sorted(int(item.id.removeprefix("tmdb_")) for item in catalog),
    }
    files: dict[str, bytes] = {
        "catalog.json": catalog.to_json_bytes(),
        "catalog.parquet": parquet_bytes(catalog, CatalogItem),
        "catalog.csv": csv_bytes(catalog, CatalogItem),
        "ids.json": (json.dumps(ids_doc, indent=2) + "\n").encode("utf-8"),
        "changes.json": changes.to_json_bytes(),
    }
    manifest = SnapshotManifest(
        date=date,
        source=source,
        source_url=source_url,
        generator=_generator(),
        parameters=SnapshotParameters(
            mode="refresh" if discovery is not None else "hydrate",
            discovery=discovery,
            ids_file_sha256=ids_file_sha256,
            append_to_response=APPEND_TO_RESPONSE,
            providers_region=PROVIDERS_REGION,
            sponsored=sponsored,
        ),
        counts=SnapshotCounts(
            requested=len(wanted),
            enriched=len(enriched.records),
            not_found=len(enriched.not_found),
            dropped=len(drops) - len(enriched.not_found),
            items=len(catalog),
            with_services=sum(1 for item in catalog if item.streaming_services),
            sponsored=sum(1 for item in catalog if item.sponsored),
        ),
        drops_by_reason=drop_counts(drops),
        dropped=drops,
        requests=RequestFigures(
            discover_pages=pages, details=len(wanted), total=pages + len(wanted)
        ),
        catalog_digest=catalog.digest(),
        files={name: file_entry(data) for name, data in sorted(files.items())},
        retention_until=add_months(date, RETENTION_MONTHS),
        notes=notes,
    )
    files["manifest.json"] = manifest.to_json_bytes()
    rewritten = write_snapshot_folder(folder, files)
    return RefreshResult(
        path=folder,
        manifest=manifest,
        changes=changes,
        files_rewritten=rewritten,
        network=client.stats.as_dict(),
        wall_s=time.perf_counter() - started,
    )


def refresh(
    source: Source = "fixture",
    date: dt.date | str | None = None,
    *,
    out: Path | str = SNAPSHOTS_DIR,
    limit: int | None = None,
    use_cache: bool = True,
    rate_limit_per_s: float | None = DEFAULT_RATE_LIMIT,
    cache_dir: Path | None = None,
    workers: int = DEFAULT_WORKERS,
    window_months: int = DEFAULT_WINDOW_MONTHS,
    min_vote_count: int = DEFAULT_MIN_VOTE_COUNT,
    max_pages: int | None = None,
    sponsored: SponsoredConfig | None = None,
    base_url: str | None = None,
    fixture_rate_limit_per_s: float | None = None,
) -> RefreshResult:
    """Build the snapshot of `date` (default today) from TMDB or the fixture world.

    Discovery covers the `window_months` up to `date` (US region, most popular first,
    `vote_count.gte=min_vote_count`), at most `limit` titles. `source="fixture"` starts the
    fixture TMDB server for the world of `date` and stops it afterwards; `source="tmdb"` reads
    `TMDB_API_TOKEN` or `TMDB_API_KEY` (and `base_url`, default TMDB's).
    """
    day = parse_date(date)
    discovery = DiscoveryParams(
        start=add_months(day, -window_months),
        end=day,
        min_vote_count=min_vote_count,
        limit=limit,
        **({"max_pages": max_pages} if max_pages is not None else {}),
    )
    return _fetch_snapshot(
        source,
        day,
        Path(out),
        {"discovery": discovery, "sponsored": sponsored, "workers": workers},
        base_url=base_url,
        use_cache=use_cache,
        cache_dir=cache_dir,
        rate_limit_per_s=rate_limit_per_s,
        fixture_rate_limit_per_s=fixture_rate_limit_per_s,
    )


def _fetch_snapshot(
    source: Source, day: dt.date, out: Path, build: dict[str, Any], **client: Any
) -> RefreshResult:
    """Open `source`'s client for `day` (`client`: `open_client`'s options; the workers are the
    build's) and build the snapshot `build` asks for (`build_snapshot`'s discovery or ids)."""
    with open_client(source, day, workers=build["workers"], **client) as (tmdb, source_url):
        return build_snapshot(
            tmdb, date=day, source=source, source_url=source_url, out=out, **build
        )


@dataclass(frozen=True)
class IdsFile:
    """The content of an `ids.json`: TMDB ids, and the date and source when recorded."""

    ids: list[int]
    date: dt.date | None
    source: Source | None


def read_ids_file(path: Path) -> IdsFile:
    """TMDB ids (with the snapshot date and source when recorded) from `ids.json` or a bare list."""
    raw = read_json(path)
    date: dt.date | None = None
    source: Source | None = None
    if isinstance(raw, dict):
        values = raw.get("tmdb_ids")
        if raw.get("source") in ("tmdb", "fixture"):
            source = raw["source"]
        if isinstance(raw.get("snapshot_date"), str):
            try:
                date = dt.date.fromisoformat(raw["snapshot_date"])
            except ValueError:
                raise LoadError(
                    path, [f"snapshot_date: expected YYYY-MM-DD (got: {raw['snapshot_date']!r})"]
                ) from None
        field = "tmdb_ids"
    else:
        values, field = raw, "(root)"
    if not isinstance(values, list):
        raise LoadError(path, [f"{field}: expected a list of TMDB ids (got: {values!r:.80})"])
    problems = [
        f"{field}[{i}]: expected a positive integer TMDB id (got: {v!r})"
        for i, v in enumerate(values)
        if not isinstance(v, int) or isinstance(v, bool) or v <= 0
    ]
    if problems:
        raise LoadError(path, problems)
    return IdsFile(ids=list(values), date=date, source=source)


def hydrate(
    ids_json: Path | str,
    date: dt.date | str | None = None,
    *,
    source: Source | None = None,
    out: Path | str = SNAPSHOTS_DIR,
    use_cache: bool = True,
    rate_limit_per_s: float | None = DEFAULT_RATE_LIMIT,
    cache_dir: Path | None = None,
    workers: int = DEFAULT_WORKERS,
    sponsored: SponsoredConfig | None = None,
    base_url: str | None = None,
) -> RefreshResult:
    """Rebuild a snapshot from its `ids.json` with your own TMDB credential (enrich + normalize).

    The date and source default to those recorded in the ids file (else today and `tmdb`).
    Sharing ids and hydrating locally is how a snapshot travels without redistributing TMDB's
    data.
    """
    path = Path(ids_json)
    ids_sha = sha256_bytes(path.read_bytes())
    beside = path.parent / "manifest.json"
    if beside.exists():  # an ids.json inside a snapshot folder must be the one it lists
        entry = load_manifest(path.parent).files.get(path.name)
        if entry is not None and entry.sha256 != ids_sha:
            raise TaurecError(
                f"{path}: sha256 differs from {beside}: the ids file was changed after the "
                "snapshot was written; refusing to hydrate it under that snapshot's date"
            )
    listed = read_ids_file(path)
    day = parse_date(date) if date is not None else (listed.date or parse_date(None))
    source = source or listed.source or "tmdb"
    target = Path(out) / day.isoformat()
    if (target / "manifest.json").exists():
        existing = load_manifest(target)
        if existing.parameters.mode == "refresh":
            raise TaurecError(
                f"{target} already holds a refreshed snapshot; hydrating would replace its "
                "manifest. Pass --out with another folder."
            )
        recorded = existing.parameters.ids_file_sha256
        if recorded is not None and recorded != ids_sha:
            raise TaurecError(
                f"{target} was hydrated from a different ids.json (sha256 {recorded[:12]}…, this "
                f"one {ids_sha[:12]}…): one date, one id list. Pass --out or another --date."
            )
    wanted = {"ids": listed.ids, "ids_file_sha256": ids_sha}
    return _fetch_snapshot(
        source,
        day,
        Path(out),
        {**wanted, "sponsored": sponsored, "workers": workers},
        base_url=base_url,
        use_cache=use_cache,
        cache_dir=cache_dir,
        rate_limit_per_s=rate_limit_per_s,
    )
