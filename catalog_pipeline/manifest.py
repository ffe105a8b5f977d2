"""What every snapshot's `manifest.json` says, whatever its source: schema version, domain, date, files and checksums.

Each source adds its own fields in a subclass of `SnapshotManifestBase` (`catalog_pipeline.tmdb.
provenance.SnapshotManifest`, `catalog_pipeline.openfoodfacts.provenance.GroceryManifest`); the
snapshot core reads any of them through `SnapshotHead`, which holds only the shared fields, so
`taurec catalog verify <folder>` needs no `--domain`: the manifest says its domain.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from runner.core.errors import LoadError, describe_validation_error

DATE_DIR = re.compile(r"^\d{4}-\d{2}-\d{2}$")
MANIFEST_NAME = "manifest.json"
# Manifests written before the `domain` field: the domain follows from the source that built them.
DOMAIN_OF_SOURCE = {"tmdb": "movies", "openfoodfacts": "grocery"}


class ManifestModel(BaseModel):
    """A part of a manifest: unknown fields are refused, values never change once loaded."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    def to_json_bytes(self) -> bytes:
        """The file as written to disk (indent 2, trailing newline)."""
        return (self.model_dump_json(indent=2) + "\n").encode("utf-8")


class FileEntry(ManifestModel):
    """One file of the snapshot folder: size and sha256 of its bytes."""

    bytes: int = Field(ge=0)
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")


class SnapshotManifestBase(ManifestModel):
    """The fields every source's manifest starts with (in this order on disk)."""

    schema_version: int
    domain: str = Field(description="The domain whose catalog this is (`movies`, `grocery`, …)")
    date: dt.date


class SnapshotHead(BaseModel):
    """The part of any manifest the snapshot core reads: enough to verify, list and prune it.

    Source-specific fields are left to the source's own model (extra fields are ignored here).
    """

    model_config = ConfigDict(extra="ignore", frozen=True)

    schema_version: int
    domain: str
    date: dt.date
    source: str
    catalog_digest: str | None = None
    files: dict[str, FileEntry]
    counts: dict[str, int] = Field(default_factory=dict)
    retention_until: dt.date | None = None


def domain_of(raw: dict[str, Any], path: Path) -> str:
    """The domain a manifest says, or for one written before the field, the one its source implies.

    TMDB snapshots (and the TMDB fixture world's, which carry `source_url`) are movies'; Open Food
    Facts snapshots (and their fixture world's, which carry `products_dump`) are grocery's.
    """
    domain = raw.get("domain")
    if isinstance(domain, str) and domain:
        return domain
    source = raw.get("source")
    if source in DOMAIN_OF_SOURCE:
        return DOMAIN_OF_SOURCE[str(source)]
    if source == "fixture" and "source_url" in raw:
        return "movies"
    if source == "fixture" and "products_dump" in raw:
        return "grocery"
    raise LoadError(
        path,
        [f"domain: missing, and source {source!r} does not say which domain the snapshot is for"],
    )


def read_manifest_json(folder: Path) -> dict[str, Any]:
    """`<folder>/manifest.json` as a JSON object, migrated: an old manifest gains its `domain`."""
    path = folder / MANIFEST_NAME
    try:
        raw = json.loads(path.read_bytes())
    except FileNotFoundError:
        raise LoadError(path, ["manifest not found"]) from None
    except NotADirectoryError:
        raise LoadError(path, [f"{folder} is not a folder"]) from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise LoadError(path, [f"not JSON: {exc}"]) from None
    if not isinstance(raw, dict):
        raise LoadError(path, [f"expected a JSON object, got {type(raw).__name__}"])
    if "domain" not in raw:
        # Keep the on-disk field order: the domain follows the schema version.
        first = {k: raw[k] for k in list(raw)[:1] if k == "schema_version"}
        raw = {**first, "domain": domain_of(raw, path), **raw}
    return raw


M = TypeVar("M", bound=BaseModel)


def load_manifest_as(folder: Path, model: type[M]) -> M:
    """The folder's manifest validated as `model` (LoadError naming the file, field and value)."""
    raw = read_manifest_json(folder)
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        raise LoadError(folder / MANIFEST_NAME, describe_validation_error(exc)) from None


def load_head(folder: Path) -> SnapshotHead:
    """The shared fields of any domain's manifest in `folder`."""
    return load_manifest_as(folder, SnapshotHead)
