"""Enrichment: one details request per title (credits, release dates, providers) on a thread pool."""

from __future__ import annotations

from concurrent.futures import FIRST_EXCEPTION, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import Any

from catalog_pipeline.tmdb.client import TMDBClient, TMDBNotFound

APPEND_TO_RESPONSE = "credits,release_dates,watch/providers"
DEFAULT_WORKERS = 8


@dataclass
class EnrichResult:
    """Raw details records by TMDB id, and the ids TMDB no longer knows."""

    records: dict[int, Any]
    not_found: list[int]


def _one(client: TMDBClient, movie_id: int) -> Any:
    try:
        return client.movie_details(movie_id, APPEND_TO_RESPONSE)
    except TMDBNotFound:
        return None


def enrich(client: TMDBClient, ids: list[int], *, workers: int = DEFAULT_WORKERS) -> EnrichResult:
    """Fetch every id's details concurrently; the shared rate limiter sets the pace.

    Any error other than "not found" (a rejected credential, retries exhausted) cancels the
    queued requests and is raised: a snapshot is complete or it is not written.
    """
    records: dict[int, Any] = {}
    not_found: list[int] = []
    with ThreadPoolExecutor(max_workers=max(1, workers), thread_name_prefix="enrich") as pool:
        futures: dict[Future[Any], int] = {pool.submit(_one, client, i): i for i in ids}
        done, pending = wait(futures, return_when=FIRST_EXCEPTION)
        failed = [f for f in done if f.exception() is not None]
        if failed:
            for future in pending:
                future.cancel()
            pool.shutdown(wait=True, cancel_futures=True)
            error = failed[0].exception()
            assert error is not None
            raise error
    for future, movie_id in futures.items():
        record = future.result()
        if record is None:
            not_found.append(movie_id)
        else:
            records[movie_id] = record
    return EnrichResult(records=records, not_found=sorted(not_found))
