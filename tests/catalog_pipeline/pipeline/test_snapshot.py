"""End to end over HTTP: refresh/hydrate write byte-identical, checksummed snapshots with diffs."""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from catalog_pipeline.snapshot import list_snapshots
from catalog_pipeline.tables import parquet_bytes
from catalog_pipeline.tmdb import hydrate, refresh
from catalog_pipeline.tmdb.client import MissingCredentials, TMDBAuthError
from catalog_pipeline.tmdb.fixture_world import FIXTURE_TOKEN, FixtureServer
from catalog_pipeline.tmdb.provenance import TMDB_ATTRIBUTION, SnapshotManifest
from domains.movies.catalog import Catalog, CatalogItem
from runner.cli import cli
from runner.core.errors import LoadError, TaurecError

FAST = {"rate_limit_per_s": None, "workers": 8}
FILES = ["catalog.csv", "catalog.json", "catalog.parquet", "changes.json", "ids.json"]


def _bytes(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_refresh_writes_a_complete_checksummed_snapshot(tmp_path: Path) -> None:
    result = refresh("fixture", "2026-11-01", out=tmp_path, limit=30, **FAST)
    folder = tmp_path / "2026-11-01"
    assert result.path == folder
    assert sorted(p.name for p in folder.iterdir()) == sorted([*FILES, "manifest.json"])
    manifest = SnapshotManifest.model_validate_json((folder / "manifest.json").read_bytes())
    assert next(iter(json.loads((folder / "manifest.json").read_text()))) == "schema_version"
    assert manifest.source == "fixture"
    assert manifest.source_url == "fixture-world"
    assert manifest.parameters.discovery is not None
    assert manifest.parameters.discovery.start.isoformat() == "2025-05-01"  # 18 months back
    assert manifest.retention_until.isoformat() == "2027-05-01"
    assert manifest.attribution.tmdb == TMDB_ATTRIBUTION
    assert "JustWatch" in manifest.attribution.justwatch
    assert sorted(manifest.files) == FILES
    for name, entry in manifest.files.items():
        data = (folder / name).read_bytes()
        assert entry.sha256 == hashlib.sha256(data).hexdigest()
        assert entry.bytes == len(data)
    catalog = Catalog.load(folder)
    counts = manifest.counts
    assert counts.requested == 30 == counts.enriched
    assert len(catalog) == counts.items == 30 - counts.dropped
    assert sum(manifest.drops_by_reason.values()) == counts.dropped == len(manifest.dropped)
    assert manifest.catalog_digest == catalog.digest()
    assert manifest.requests.details == 30
    assert manifest.requests.discover_pages == 2
    ids = [int(item.id.removeprefix("tmdb_")) for item in catalog]
    assert ids == sorted(ids)
    assert json.loads((folder / "ids.json").read_text())["tmdb_ids"] == ids
    assert result.network["sent"] == manifest.requests.total  # nothing cached yet


def test_parquet_and_csv_copies_match_the_catalog(tmp_path: Path) -> None:
    refresh("fixture", "2026-11-01", out=tmp_path, limit=25, **FAST)
    folder = tmp_path / "2026-11-01"
    catalog = Catalog.load(folder)
    assert (
        parquet_bytes(catalog, CatalogItem)
        == parquet_bytes(catalog, CatalogItem)
        == (folder / "catalog.parquet").read_bytes()
    )
    frame = pl.read_parquet(folder / "catalog.parquet")
    assert frame["id"].to_list() == [item.id for item in catalog]
    assert frame["streaming_services"].to_list() == [item.streaming_services for item in catalog]
    csv = pl.read_csv(io.BytesIO((folder / "catalog.csv").read_bytes()))
    assert csv.columns == list(catalog.items[0].model_dump())
    first = catalog.items[0]
    assert csv["genres"][0] == "|".join(first.genres)
    assert csv["cast"][0] == "|".join(first.cast)


def test_reruns_are_byte_identical_and_a_cached_run_sends_nothing(tmp_path: Path) -> None:
    first = refresh("fixture", "2026-11-01", out=tmp_path, limit=20, **FAST)
    before = _bytes(first.path)
    cached = refresh("fixture", "2026-11-01", out=tmp_path, limit=20, **FAST)
    assert cached.network["sent"] == 0
    assert cached.network["hits_by_endpoint"] == {"details": 20, "discover": 1}
    assert cached.files_rewritten == []
    forced = refresh("fixture", "2026-11-01", out=tmp_path, limit=20, use_cache=False, **FAST)
    assert forced.network["sent"] == first.manifest.requests.total
    assert forced.files_rewritten == []
    assert _bytes(first.path) == before
    elsewhere = refresh(
        "fixture", "2026-11-01", out=tmp_path / "b", limit=20, use_cache=False, **FAST
    )
    assert _bytes(elsewhere.path) == before  # a fresh folder, fresh fetch: the same bytes


def test_changes_between_two_dates(tmp_path: Path) -> None:
    october = refresh("fixture", "2026-10-01", out=tmp_path, limit=60, **FAST)
    assert october.changes.previous is None
    assert october.changes.counts.added == october.manifest.counts.items
    november = refresh("fixture", "2026-11-01", out=tmp_path, limit=60, **FAST)
    changes = json.loads((november.path / "changes.json").read_text())
    assert changes["previous"] == "2026-10-01"
    assert changes["date"] == "2026-11-01"
    old = {item.id: item for item in Catalog.load(october.path)}
    new = {item.id: item for item in Catalog.load(november.path)}
    assert [t["id"] for t in changes["added"]] == sorted(
        new.keys() - old.keys(), key=lambda i: int(i[5:])
    )
    assert {t["id"] for t in changes["removed"]} == old.keys() - new.keys()
    assert (
        changes["counts"]["added"] + changes["counts"]["removed"] + changes["counts"]["changed"] > 0
    )
    for title in changes["changed"]:
        before, after = (
            old[title["id"]].model_dump(mode="json"),
            new[title["id"]].model_dump(mode="json"),
        )
        assert title["fields"] == {
            k: {"before": before[k], "after": after[k]} for k in before if before[k] != after[k]
        }
    unchanged = [i for i in new.keys() & old.keys() if new[i] == old[i]]
    assert changes["counts"]["unchanged"] == len(unchanged)
    # Re-running October after November exists still diffs against nothing earlier.
    again = refresh("fixture", "2026-10-01", out=tmp_path, limit=60, **FAST)
    assert again.files_rewritten == []


def test_hydrate_rebuilds_the_same_catalog_from_ids(tmp_path: Path) -> None:
    made = refresh("fixture", "2026-11-01", out=tmp_path / "published", limit=30, **FAST)
    ids_file = made.path / "ids.json"
    rebuilt = hydrate(ids_file, out=tmp_path / "mine", use_cache=False, **FAST)
    assert rebuilt.manifest.date.isoformat() == "2026-11-01"  # date and source read from ids.json
    assert rebuilt.manifest.source == "fixture"
    assert rebuilt.manifest.parameters.mode == "hydrate"
    assert rebuilt.manifest.requests.discover_pages == 0
    assert rebuilt.network["sent_by_endpoint"] == {"details": made.manifest.counts.items}
    assert (rebuilt.path / "catalog.json").read_bytes() == (made.path / "catalog.json").read_bytes()
    assert (rebuilt.path / "catalog.parquet").read_bytes() == (
        made.path / "catalog.parquet"
    ).read_bytes()


def test_hydrate_never_replaces_a_refreshed_snapshot(tmp_path: Path) -> None:
    made = refresh("fixture", "2026-11-01", out=tmp_path, limit=3, **FAST)
    before = _bytes(made.path)
    with pytest.raises(TaurecError, match="already holds a refreshed snapshot"):
        hydrate(made.path / "ids.json", out=tmp_path, **FAST)
    assert _bytes(made.path) == before


def test_hydrate_counts_ids_tmdb_no_longer_knows(tmp_path: Path) -> None:
    ids_file = tmp_path / "ids.json"
    ids_file.write_text(json.dumps([1, 2]))
    result = hydrate(ids_file, "2026-11-01", source="fixture", out=tmp_path, **FAST)
    assert result.manifest.counts.items == 0
    assert result.manifest.counts.not_found == 2
    assert result.manifest.drops_by_reason == {"not_found": 2}


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ('{"tmdb_ids": [1, "2", -3]}', "tmdb_ids[1]"),
        ('{"tmdb_ids": 5}', "tmdb_ids: expected a list"),
        ("[1, 2", "invalid JSON"),
        ('{"tmdb_ids": [1], "snapshot_date": "soon"}', "snapshot_date"),
    ],
)
def test_hydrate_rejects_a_bad_ids_file(tmp_path: Path, content: str, problem: str) -> None:
    ids_file = tmp_path / "ids.json"
    ids_file.write_text(content)
    with pytest.raises(LoadError, match=r"ids\.json") as caught:
        hydrate(ids_file, source="fixture", out=tmp_path, **FAST)
    assert problem in str(caught.value)


def test_list_snapshots_verifies_checksums_and_retention(tmp_path: Path) -> None:
    refresh("fixture", "2026-10-01", out=tmp_path, limit=5, **FAST)
    refresh("fixture", "2026-11-01", out=tmp_path, limit=5, **FAST)
    infos = list_snapshots(tmp_path)
    assert [i.date.isoformat() for i in infos] == ["2026-10-01", "2026-11-01"]
    assert all(i.checksums_ok and i.items is not None and i.total_bytes > 0 for i in infos)
    assert infos[0].retention_until is not None
    assert infos[0].retention_until.isoformat() == "2027-04-01"
    (tmp_path / "2026-10-01" / "catalog.csv").write_text("tampered\n")
    tampered = list_snapshots(tmp_path)[0]
    assert not tampered.checksums_ok
    assert {f.name: f.status for f in tampered.files}["catalog.csv"] == "modified"
    import datetime as dt

    assert list_snapshots(tmp_path, today=dt.date(2027, 6, 1))[1].expired


def test_tmdb_source_runs_unchanged_against_any_base_url(
    tmp_path: Path, world_server: FixtureServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TMDB_API_KEY", FIXTURE_TOKEN)
    result = refresh(
        "tmdb", "2026-11-01", out=tmp_path, limit=10, base_url=world_server.base_url, **FAST
    )
    assert result.manifest.source == "tmdb"
    assert result.manifest.source_url == world_server.base_url
    assert result.manifest.counts.requested == 10
    monkeypatch.setenv("TMDB_API_TOKEN", "expired-token")
    with pytest.raises(TMDBAuthError, match="status_code 7"):
        refresh(
            "tmdb",
            "2026-11-01",
            out=tmp_path / "x",
            limit=10,
            base_url=world_server.base_url,
            use_cache=False,
            **FAST,
        )
    assert not (tmp_path / "x" / "2026-11-01").exists()  # nothing half-written


def test_cli_refresh_and_list(tmp_path: Path) -> None:
    runner = CliRunner()
    out = str(tmp_path)
    made = runner.invoke(
        cli,
        [
            "catalog",
            "refresh",
            "--date",
            "2026-11-01",
            "--limit",
            "5",
            "--rate-limit",
            "500",
            "--out",
            out,
        ],
    )
    assert made.exit_code == 0, made.output
    assert "snapshot 2026-11-01 (fixture, refresh)" in made.output
    again = runner.invoke(
        cli, ["catalog", "refresh", "--date", "2026-11-01", "--limit", "5", "--out", out]
    )
    assert "sent 0" in again.output
    assert "no byte changed" in again.output
    listed = runner.invoke(cli, ["catalog", "list", "--root", out])
    assert listed.exit_code == 0
    assert "2026-11-01  fixture" in listed.output
    assert " ok" in listed.output


def test_cli_tmdb_without_a_credential_says_which_variable_to_set(tmp_path: Path) -> None:
    done = CliRunner().invoke(
        cli, ["catalog", "refresh", "--source", "tmdb", "--out", str(tmp_path)]
    )
    assert isinstance(
        done.exception, MissingCredentials
    )  # `taurec` prints it as "error: ..", exit 2
    assert "set TMDB_API_TOKEN" in str(done.exception)
    assert "TMDB_API_KEY" in str(done.exception)
    assert not any(tmp_path.iterdir())
