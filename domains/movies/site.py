"""What the leaderboard site shows of movies beyond the common pages: result shapes, TMDB links, prunes, the verify command and the reader's accuracy."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from catalog_pipeline.prune import read_prune_log
from domains.movies.catalog import Catalog, CatalogItem
from domains.movies.search import RESULT_FIELDS
from domains.movies.simulators.reader import rule_reader
from domains.movies.simulators.reader_score import (
    CORPUS_FIELDS,
    CORPUS_SNAPSHOT,
    SHARE_CORPORA,
    score_corpora,
    score_shares,
)
from domains.movies.tools import V2_SEARCH_FIELDS
from runner.core.domain import ReaderAccuracy
from runner.core.paths import SNAPSHOTS_DIR

# The field sets (id aside) the movie tools return whole: a full record, a search record, a v2 one.
RESULT_SHAPES: Mapping[frozenset[str], str] = {
    frozenset(CatalogItem.model_fields) - {"id"}: "every field",
    frozenset(RESULT_FIELDS) - {"id"}: "search record",
    frozenset(RESULT_FIELDS) - {"id"} | set(V2_SEARCH_FIELDS): "v2 search record",
}


def tmdb_url(item_id: str) -> str | None:
    """The title's TMDB page (a `tmdb_<number>` id), where its data may be read."""
    number = item_id.removeprefix("tmdb_")
    return f"https://www.themoviedb.org/movie/{number}" if number.isdigit() else None


def prune_records(snapshots_dir: Path) -> list[Any]:
    """The snapshot folder's prune log (TMDB snapshots deleted past their retention date)."""
    return list(read_prune_log(snapshots_dir)) if snapshots_dir.is_dir() else []


def reader_accuracy() -> ReaderAccuracy:
    """The simulated user's rule reader on each labelled corpus (with the share it belongs to),
    and per field on the held-out share (the corpora never tuned on: the published figures;
    None while that share has no messages)."""
    reader = rule_reader(Catalog.load(SNAPSHOTS_DIR / CORPUS_SNAPSHOT))
    held_out = score_shares(reader)["held_out"]
    return ReaderAccuracy(
        score_corpora(reader),
        held_out if held_out.messages else None,
        CORPUS_FIELDS,
        {name: share for share, names in SHARE_CORPORA.items() for name in names},
    )
