"""The movies domain's source: TMDB (or its offline fixture world) → discover → enrich → normalize → dated snapshot."""

# Names load on first use (PEP 562): importing the whole pipeline would pull requests and polars
# into every process that only needs one name.
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from catalog_pipeline.tmdb.client import (
        MissingCredentials,
        TMDBAuthError,
        TMDBClient,
        TMDBError,
        TMDBNotFound,
    )
    from catalog_pipeline.tmdb.normalize import Drop, SponsoredConfig, normalize_record
    from catalog_pipeline.tmdb.pipeline import RefreshResult, build_snapshot, hydrate, refresh
    from catalog_pipeline.tmdb.provenance import SnapshotManifest
    from catalog_pipeline.tmdb.providers import normalize_provider, normalize_services

_WHERE = {
    "MissingCredentials": "client",
    "TMDBAuthError": "client",
    "TMDBClient": "client",
    "TMDBError": "client",
    "TMDBNotFound": "client",
    "SnapshotManifest": "provenance",
    "Drop": "normalize",
    "SponsoredConfig": "normalize",
    "normalize_record": "normalize",
    "RefreshResult": "pipeline",
    "build_snapshot": "pipeline",
    "hydrate": "pipeline",
    "refresh": "pipeline",
    "normalize_provider": "providers",
    "normalize_services": "providers",
}

__all__ = [
    "Drop",
    "MissingCredentials",
    "RefreshResult",
    "SnapshotManifest",
    "SponsoredConfig",
    "TMDBAuthError",
    "TMDBClient",
    "TMDBError",
    "TMDBNotFound",
    "build_snapshot",
    "hydrate",
    "normalize_provider",
    "normalize_record",
    "normalize_services",
    "refresh",
]


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module 'catalog_pipeline.tmdb' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(f"catalog_pipeline.tmdb.{_WHERE[name]}"), name)
