"""Discovery: `/discover/movie` over a release-date window, split so no query passes the page cap."""

from __future__ import annotations

import datetime as dt
import heapq
import math
import threading
from collections.abc import Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from catalog_pipeline.tmdb.client import TMDBClient, TMDBError
from catalog_pipeline.tmdb.query import DiscoveryParams

DEFAULT_WORKERS = 8
PAGE_SIZE = 20  # TMDB's fixed discover page size


class DiscoveryError(TMDBError):
    """A discover page did not have TMDB's shape (page, results, total_pages, total_results)."""


@dataclass(frozen=True)
class Window:
    """One leaf query window with what its first page said."""

    start: dt.date
    end: dt.date
    total_pages: int
    total_results: int
    truncated: bool


@dataclass
class DiscoveryResult:
    """Titles in popularity order (de-duplicated) and how many pages it took."""

    ids: list[int]
    pages: int
    windows: list[Window]
    split_queries: int
    skipped_results: int = 0
    notes: list[str] = field(default_factory=list)


@dataclass
class _Page:
    results: list[tuple[float, int]]
    total_pages: int
    total_results: int
    skipped: int


def _parse_page(body: Mapping[str, Any], where: str) -> _Page:
    results = body.get("results")
    total_pages = body.get("total_pages")
    total_results = body.get("total_results", 0)
    if not isinstance(results, list):
        raise DiscoveryError(f"{where}: field 'results' is {results!r}, expected a list")
    if not isinstance(total_pages, int) or isinstance(total_pages, bool) or total_pages < 0:
        raise DiscoveryError(f"{where}: field 'total_pages' is {total_pages!r}, expected a count")
    if not isinstance(total_results, int) or isinstance(total_results, bool):
        raise DiscoveryError(f"{where}: field 'total_results' is {total_results!r}")
    parsed: list[tuple[float, int]] = []
    skipped = 0
    for entry in results:
        movie_id = entry.get("id") if isinstance(entry, Mapping) else None
        if not isinstance(movie_id, int) or isinstance(movie_id, bool) or movie_id <= 0:
            skipped += 1
            continue
        popularity = entry.get("popularity")
        score = float(popularity) if isinstance(popularity, int | float) else 0.0
        parsed.append((score, movie_id))
    return _Page(parsed, total_pages, total_results, skipped)


class _Discovery:
    def __init__(self, client: TMDBClient, params: DiscoveryParams) -> None:
        self.client = client
        self.params = params
        self.pages = 0
        self.split_queries = 0
        self.skipped = 0
        self.notes: list[str] = []
        self.prefetched: dict[tuple[dt.date, dt.date, int], _Page] = {}
        self._lock = threading.Lock()

    def fetch(self, start: dt.date, end: dt.date, page: int) -> _Page:
        query = self.params.query(start, end, page)
        body = self.client.discover_movies(query)
        parsed = _parse_page(body, f"/discover/movie {start}..{end} page {page}")
        with self._lock:
            self.pages += 1
            self.skipped += parsed.skipped
        return parsed

    def leaves(self, start: dt.date, end: dt.date) -> list[tuple[Window, _Page]]:
        """Leaf windows (in date order) each needing at most `max_pages` pages, with page 1."""
        first = self.fetch(start, end, 1)
        cap = self.params.max_pages
        # TMDB reports the true page count but serves only `cap` pages; a server that caps
        # total_pages itself still tells the truth in total_results (20 per page).
        needed = max(first.total_pages, math.ceil(first.total_results / PAGE_SIZE))
        if needed <= cap:
            return [(Window(start, end, first.total_pages, first.total_results, False), first)]
        if start == end:
            self.notes.append(
                f"{start}: {needed} pages on one day; only the first {cap} are reachable"
            )
            return [(Window(start, end, cap, first.total_results, True), first)]
        self.split_queries += 1
        middle = start + (end - start) // 2
        return self.leaves(start, middle) + self.leaves(middle + dt.timedelta(days=1), end)

    def prefetch(self, leaves: list[tuple[Window, _Page]], workers: int) -> None:
        """Fetch concurrently the pages certain to be read: all of them without a limit; with a
        limit and one window, the pages the limit covers (several windows stay lazy)."""
        wanted: list[tuple[dt.date, dt.date, int]] = []
        for window, _ in leaves:
            last = window.total_pages
            if self.params.limit is not None:
                if len(leaves) > 1:
                    return
                last = min(last, math.ceil(self.params.limit / PAGE_SIZE))
            wanted += [(window.start, window.end, page) for page in range(2, last + 1)]
        if not wanted:
            return
        with ThreadPoolExecutor(max_workers=max(1, workers), thread_name_prefix="discover") as pool:
            pages = list(pool.map(lambda key: self.fetch(*key), wanted))
        self.prefetched.update(zip(wanted, pages, strict=True))

    def stream(self, window: Window, first: _Page) -> Iterator[tuple[float, int]]:
        """Every (popularity, id) of one window, page by page, fetched only when needed."""
        yield from first.results
        for page in range(2, window.total_pages + 1):
            cached = self.prefetched.pop((window.start, window.end, page), None)
            yield from (cached or self.fetch(window.start, window.end, page)).results


def discover(
    client: TMDBClient, params: DiscoveryParams, *, workers: int = DEFAULT_WORKERS
) -> DiscoveryResult:
    """Titles of the window, most popular first, de-duplicated; stops at `params.limit`.

    Leaf windows are merged by popularity (ties by id), so a limit keeps the globally most
    popular titles while fetching only the pages that can still contribute.
    """
    if params.start > params.end:
        raise ValueError(f"discovery window starts {params.start} after it ends {params.end}")
    run = _Discovery(client, params)
    leaves = run.leaves(params.start, params.end)
    run.prefetch(leaves, workers)
    streams = [run.stream(window, first) for window, first in leaves]
    merged = heapq.merge(*[((-pop, movie_id) for pop, movie_id in stream) for stream in streams])
    ids: list[int] = []
    seen: set[int] = set()
    for _, movie_id in merged:
        if movie_id in seen:
            continue
        seen.add(movie_id)
        ids.append(movie_id)
        if params.limit is not None and len(ids) >= params.limit:
            break
    return DiscoveryResult(
        ids=ids,
        pages=run.pages,
        windows=[window for window, _ in leaves],
        split_queries=run.split_queries,
        skipped_results=run.skipped,
        notes=run.notes,
    )
