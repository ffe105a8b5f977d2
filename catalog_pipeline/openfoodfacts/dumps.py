"""Download a published dump to a local file (streamed, hashed) and read gzip JSONL line by line."""

from __future__ import annotations

import gzip
import hashlib
import json
import urllib.error
import urllib.request
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from runner.core.errors import TaurecError

# The published nightly dump of every Open Food Facts product (one JSON object per line, gzip).
OFF_PRODUCTS_URL = "https://static.openfoodfacts.org/data/openfoodfacts-products.jsonl.gz"
# The published daily dump of every Open Prices price (one JSON object per line, gzip); the same
# data is also published as `prices.parquet` on Hugging Face (datasets/openfoodfacts/open-prices).
OPEN_PRICES_URL = "https://prices.openfoodfacts.org/data/prices.jsonl.gz"
USER_AGENT = "taurec-grocery-snapshot/1 (+https://github.com/; reads published dumps only)"
_CHUNK = 1 << 20


class DumpError(TaurecError):
    """A dump could not be downloaded or read."""


@dataclass(frozen=True)
class Downloaded:
    """A dump saved to disk: where it came from, where it is, its size and sha256."""

    url: str
    path: Path
    bytes: int
    sha256: str


def download(url: str, dest: Path, *, timeout_s: float = 60.0) -> Downloaded:
    """Stream `url` into `dest` in 1 MiB chunks (never held in memory), hashing as it goes."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    partial = dest.with_name(dest.name + ".partial")
    digest = hashlib.sha256()
    size = 0
    request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})
    try:
        with (
            urllib.request.urlopen(request, timeout=timeout_s) as response,
            partial.open("wb") as out,
        ):
            while chunk := response.read(_CHUNK):
                out.write(chunk)
                digest.update(chunk)
                size += len(chunk)
    except urllib.error.HTTPError as exc:
        exc.close()
        partial.unlink(missing_ok=True)
        raise DumpError(f"{url}: HTTP {exc.code} {exc.reason}") from None
    except (urllib.error.URLError, OSError) as exc:
        partial.unlink(missing_ok=True)
        reason = exc.reason if isinstance(exc, urllib.error.URLError) else exc
        raise DumpError(f"{url}: {reason}") from None
    partial.replace(dest)
    return Downloaded(url=url, path=dest, bytes=size, sha256=digest.hexdigest())


@dataclass(frozen=True)
class Line:
    """One line of a JSONL dump: its 1-based number and the parsed object, or why it did not parse."""

    number: int
    record: dict[str, Any] | None
    problem: str | None


def iter_jsonl_gz(path: Path) -> Iterator[Line]:
    """Each non-blank line of a gzip JSONL file, decoded one at a time (the file is never loaded)."""
    try:
        with gzip.open(path, "rb") as handle:
            for number, raw in enumerate(handle, start=1):
                if not raw.strip():
                    continue
                try:
                    value = json.loads(raw)
                except (json.JSONDecodeError, UnicodeDecodeError):
                    yield Line(number, None, "malformed_json")
                    continue
                if not isinstance(value, dict):
                    yield Line(number, None, "not_an_object")
                    continue
                yield Line(number, value, None)
    except (OSError, EOFError, zlib.error) as exc:
        raise DumpError(f"{path}: not a readable gzip file ({exc})") from None
