"""An on-disk cache of raw TMDB responses keyed by request (namespace, method, path, params)."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from catalog_pipeline.snapshot import write_atomic
from runner.core.paths import PROJECT_ROOT

DEFAULT_CACHE_DIR = PROJECT_ROOT / ".taurec-cache" / "tmdb"
CACHE_FORMAT = 1


def default_cache_dir() -> Path:
    """`TAUREC_CACHE_DIR` when set, else `.taurec-cache/tmdb` in the project (git-ignored)."""
    override = os.environ.get("TAUREC_CACHE_DIR")
    return Path(override) / "tmdb" if override else DEFAULT_CACHE_DIR


def request_key(namespace: str, method: str, path: str, params: Mapping[str, object]) -> str:
    """sha256 of the request's identity; the credential is never part of `params`."""
    identity = {
        "format": CACHE_FORMAT,
        "namespace": namespace,
        "method": method.upper(),
        "path": path,
        "params": {k: str(v) for k, v in sorted(params.items())},
    }
    blob = json.dumps(identity, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class ResponseCache:
    """Raw JSON bodies of definitive responses (200 and 404), one file per request key."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)

    def _file(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def get(self, key: str) -> tuple[int, Any] | None:
        """(HTTP status, parsed body) when cached; None when absent or unreadable."""
        file = self._file(key)
        try:
            entry = json.loads(file.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            return None
        if not isinstance(entry, dict) or "status" not in entry or "body" not in entry:
            return None
        return int(entry["status"]), entry["body"]

    def put(self, key: str, request: Mapping[str, object], status: int, body: Any) -> None:
        """Write atomically (temp file + rename) so a crash never leaves a torn entry."""
        entry = {"request": dict(request), "status": status, "body": body}
        data = json.dumps(entry, ensure_ascii=False, sort_keys=True)
        write_atomic(self._file(key), data.encode("utf-8"), durable=False)
