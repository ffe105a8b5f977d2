"""The discover query's parameters as a snapshot manifest records them (no HTTP client needed)."""

from __future__ import annotations

import datetime as dt

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["TMDB_MAX_PAGES", "DiscoveryParams"]

TMDB_MAX_PAGES = 500


class DiscoveryParams(BaseModel):
    """The discover query (recorded verbatim in the snapshot manifest)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    start: dt.date = Field(description="primary_release_date.gte")
    end: dt.date = Field(description="primary_release_date.lte")
    region: str = "US"
    language: str = "en-US"
    sort_by: str = "popularity.desc"
    min_vote_count: int = Field(default=10, ge=0, description="vote_count.gte")
    limit: int | None = Field(default=None, gt=0, description="At most this many titles")
    max_pages: int = Field(
        default=TMDB_MAX_PAGES, gt=0, le=TMDB_MAX_PAGES, description="Page cap per query"
    )

    def query(self, start: dt.date, end: dt.date, page: int) -> dict[str, object]:
        return {
            "include_adult": "false",
            "include_video": "false",
            "language": self.language,
            "page": page,
            "primary_release_date.gte": start.isoformat(),
            "primary_release_date.lte": end.isoformat(),
            "region": self.region,
            "sort_by": self.sort_by,
            "vote_count.gte": self.min_vote_count,
        }
