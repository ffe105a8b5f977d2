"""τ-Rec catalog pipeline: TMDB (or the fixture world) → discover → enrich → normalize → dated snapshot."""

from catalog_pipeline.client import (
    MissingCredentials,
    TMDBAuthError,
    TMDBClient,
    TMDBError,
    TMDBNotFound,
)
from catalog_pipeline.manifest import SnapshotManifest
from catalog_pipeline.normalize import Drop, SponsoredConfig, normalize_record
from catalog_pipeline.pipeline import RefreshResult, build_snapshot, hydrate, refresh
from catalog_pipeline.providers import normalize_provider, normalize_services
from catalog_pipeline.snapshot import SnapshotInfo, list_snapshots

__all__ = [
    "Drop",
    "MissingCredentials",
    "RefreshResult",
    "SnapshotInfo",
    "SnapshotManifest",
    "SponsoredConfig",
    "TMDBAuthError",
    "TMDBClient",
    "TMDBError",
    "TMDBNotFound",
    "build_snapshot",
    "hydrate",
    "list_snapshots",
    "normalize_provider",
    "normalize_record",
    "normalize_services",
    "refresh",
]
