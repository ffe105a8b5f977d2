"""τ-Rec catalog pipeline: TMDB (or the fixture world) → discover → enrich → normalize → dated snapshot."""

# Names load on first use (PEP 562): `runner` needs only `catalog_pipeline.snapshot` to verify a
# snapshot, and importing the whole pipeline would pull requests and polars into every `taurec run`.
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

_WHERE = {
    "MissingCredentials": "client",
    "TMDBAuthError": "client",
    "TMDBClient": "client",
    "TMDBError": "client",
    "TMDBNotFound": "client",
    "SnapshotManifest": "manifest",
    "Drop": "normalize",
    "SponsoredConfig": "normalize",
    "normalize_record": "normalize",
    "RefreshResult": "pipeline",
    "build_snapshot": "pipeline",
    "hydrate": "pipeline",
    "refresh": "pipeline",
    "normalize_provider": "providers",
    "normalize_services": "providers",
    "SnapshotInfo": "snapshot",
    "list_snapshots": "snapshot",
}

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


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module 'catalog_pipeline' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(f"catalog_pipeline.{_WHERE[name]}"), name)
