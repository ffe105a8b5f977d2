"""`SnapshotManifest`: the versioned, self-describing `manifest.json` of one dated TMDB (movies) snapshot."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Literal

from pydantic import Field

from catalog_pipeline.manifest import (
    FileEntry,
    ManifestModel,
    SnapshotManifestBase,
    load_manifest_as,
)
from catalog_pipeline.tmdb.query import DiscoveryParams
from catalog_pipeline.tmdb.settings import Drop, SponsoredConfig

TMDB_ATTRIBUTION = "This product uses the TMDB API but is not endorsed or certified by TMDB."
JUSTWATCH_ATTRIBUTION = (
    "Streaming availability (watch providers) data is provided by JustWatch, through TMDB."
)
RETENTION_MONTHS = 6


class SnapshotParameters(ManifestModel):
    """Everything the snapshot's content depends on besides TMDB's data."""

    mode: Literal["refresh", "hydrate"]
    discovery: DiscoveryParams | None = Field(description="None for hydrate (ids come from a file)")
    ids_file_sha256: str | None = Field(default=None, description="Hydrate: the ids.json used")
    append_to_response: str
    providers_region: str
    sponsored: SponsoredConfig


class SnapshotCounts(ManifestModel):
    requested: int = Field(description="Titles discovered (refresh) or listed (hydrate)")
    enriched: int = Field(description="Details records received")
    not_found: int
    dropped: int = Field(description="Records dropped by normalization (see drops_by_reason)")
    items: int
    with_services: int
    sponsored: int


class RequestFigures(ManifestModel):
    """Logical API requests the snapshot needs (what an uncached run sends, retries aside).

    Deterministic for identical inputs; what actually went over the network on one run
    (cache hits, retries, 429s, wall time) is run telemetry and is printed, never stored here.
    """

    discover_pages: int
    details: int
    total: int


class Attribution(ManifestModel):
    tmdb: str = TMDB_ATTRIBUTION
    justwatch: str = JUSTWATCH_ATTRIBUTION


class SnapshotManifest(SnapshotManifestBase):
    """`manifest.json`: what a snapshot is, how it was made, and checksums of every file."""

    schema_version: Literal[1] = 1
    domain: Literal["movies"] = "movies"
    date: dt.date
    source: Literal["tmdb", "fixture"]
    source_url: str = Field(description="TMDB base URL, or `fixture-world` (its port is not kept)")
    generator: str = Field(description="`taurec <version>` that wrote the snapshot")
    parameters: SnapshotParameters
    counts: SnapshotCounts
    drops_by_reason: dict[str, int]
    dropped: list[Drop]
    requests: RequestFigures
    catalog_digest: str = Field(description="sha256 of the canonical catalog JSON")
    files: dict[str, FileEntry]
    attribution: Attribution = Attribution()
    retention_until: dt.date = Field(description="Delete the TMDB-derived files after this date")
    notes: list[str] = Field(default_factory=list)


def load_manifest(folder: Path) -> SnapshotManifest:
    """The folder's `manifest.json` as this source's manifest (LoadError naming field and value)."""
    return load_manifest_as(folder, SnapshotManifest)
