"""The snapshot's own settings and records that its manifest names: drops by reason, and the sponsored flag's rule."""

from __future__ import annotations

import hashlib
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

DropReason = Literal[
    "missing_runtime",
    "missing_genres",
    "missing_rating",
    "missing_field",
    "malformed_field",
    "not_found",
]


class Drop(BaseModel):
    """One title left out of the snapshot, with the field and a readable reason."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    tmdb_id: int | None = Field(description="TMDB id (None when the record had no usable id)")
    reason: DropReason
    field: str
    detail: str


class SponsoredConfig(BaseModel):
    """Which titles carry `sponsored=true`: benchmark-side, stable per title across snapshots.

    A title is sponsored when its TMDB id is listed in `ids`, or when a hash of `seed` and its
    id falls below `fraction` (independent of the snapshot date, so the flag never flips).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    ids: tuple[int, ...] = Field(default=(), description="TMDB ids always sponsored")
    fraction: float = Field(default=0.05, ge=0, le=1, description="Seeded share of other titles")
    seed: str = Field(default="taurec-sponsored-v1", description="Seed of the per-title hash")

    def is_sponsored(self, tmdb_id: int) -> bool:
        if tmdb_id in self.ids:
            return True
        digest = hashlib.sha256(f"{self.seed}:{tmdb_id}".encode()).digest()
        return int.from_bytes(digest[:8], "big") / 2**64 < self.fraction
