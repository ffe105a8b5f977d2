"""`SnapshotManifest`: the versioned, self-describing `manifest.json` of one dated snapshot."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from catalog_pipeline.query import DiscoveryParams
from catalog_pipeline.settings import Drop, SponsoredConfig

TMDB_ATTRIBUTION = "This product uses the TMDB API but is not endorsed or certified by TMDB."
JUSTWATCH_ATTRIBUTION = (
    "Streaming availability (watch providers) data is provided by JustWatch, through TMDB."
)
RETENTION_MONTHS = 6


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class FileEntry(_Model):
    """One file of the snapshot folder: size and sha256 of its bytes."""

    bytes: int = Field(ge=0)
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")


class SnapshotParameters(_Model):
    """Everything the snapshot's content depends on besides TMDB's data."""

    mode: Literal["refresh", "hydrate"]
    discovery: DiscoveryParams | None = Field(description="None for hydrate (ids come from a file)")
    ids_file_sha256: str | None = Field(default=None, description="Hydrate: the ids.json used")
    append_to_response: str
    providers_region: str
    sponsored: SponsoredConfig


class SnapshotCounts(_Model):
    requested: int = Field(description="Titles discovered (refresh) or listed (hydrate)")
    enriched: int = Field(description="Details records received")
    not_found: int
    dropped: int = Field(description="Records dropped by normalization (see drops_by_reason)")
    items: int
    with_services: int
    sponsored: int


class RequestFigures(_Model):
    """Logical API requests the snapshot needs (what an uncached run sends, retries aside).

    Deterministic for identical inputs; what actually went over the network on one run
    (cache hits, retries, 429s, wall time) is run telemetry and is printed, never stored here.
    """

    discover_pages: int
    details: int
    total: int


class Attribution(_Model):
    tmdb: str = TMDB_ATTRIBUTION
    justwatch: str = JUSTWATCH_ATTRIBUTION


class SnapshotManifest(_Model):
    """`manifest.json`: what a snapshot is, how it was made, and checksums of every file."""

    schema_version: Literal[1] = 1
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

    def to_json_bytes(self) -> bytes:
        return (self.model_dump_json(indent=2) + "\n").encode("utf-8")
