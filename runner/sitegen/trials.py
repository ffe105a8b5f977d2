"""Read a results folder's `trials.jsonl` straight into a flat polars frame (fast path), or from TrialRecords."""

from __future__ import annotations

import io
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import polars as pl

from runner.batch.store import TRIALS_FILE, read_trials
from runner.core.records import TrialRecord

# One row per trial record: what the aggregation and the entry pages read.
TRIALS_SCHEMA: dict[str, pl.DataType | type[pl.DataType]] = {
    "submission": pl.String,
    "snapshot": pl.String,
    "task_id": pl.String,
    "trial_index": pl.Int64,
    "seed": pl.Int64,
    "status": pl.String,
    "complexity": pl.String,
    "reveal_difficulty": pl.String,
    "no_valid_recommendation": pl.Boolean,
    "reward": pl.Float64,
    "constraint_score": pl.Float64,
    "policy_score": pl.Float64,
    "weighted_policy_score": pl.Float64,
    "no_rec": pl.Boolean,
    "turns": pl.Int64,
    "tool_calls": pl.Int64,
    "proposals": pl.Int64,
    "step_latencies_s": pl.List(pl.Float64),
    "cost_usd": pl.Float64,
    "tokens": pl.Int64,
    "policy": pl.List(pl.String),
    "policy_passed": pl.List(pl.Boolean),
    "leak_audit_clean": pl.Boolean,
    "transcript": pl.String,
    "transcript_offset": pl.Int64,
    "transcript_length": pl.Int64,
}

_KEY = pl.Struct(
    {
        "submission": pl.String,
        "snapshot_sha256": pl.String,
        "task_id": pl.String,
        "trial_index": pl.Int64,
        "seed": pl.Int64,
    }
)
# The subset of the TrialRecord JSON the site needs (other fields are skipped while parsing).
RAW_SCHEMA: dict[str, pl.DataType | type[pl.DataType]] = {
    "key": _KEY,
    "status": pl.String,
    "complexity": pl.String,
    "reveal_difficulty": pl.String,
    "no_valid_recommendation": pl.Boolean,
    "score": pl.Struct(
        {
            "recommendation": pl.String,
            "reward": pl.Float64,
            "constraint_score": pl.Float64,
            "policy_score": pl.Float64,
            "weighted_policy_score": pl.Float64,
            "policies": pl.List(pl.Struct({"policy": pl.String, "passed": pl.Boolean})),
        }
    ),
    "efficiency": pl.Struct(
        {
            "turns": pl.Int64,
            "tool_calls": pl.Int64,
            "proposals": pl.Int64,
            "step_latencies_s": pl.List(pl.Float64),
        }
    ),
    "cost_usd": pl.Float64,
    "usage": pl.String,  # the JSON object as text: its keys (role:model) vary by entry
    "leak_audit_clean": pl.Boolean,
    "transcript": pl.String,
    "transcript_span": pl.Struct({"offset": pl.Int64, "length": pl.Int64}),
}
_REQUIRED = ("task_id", "trial_index", "status", "complexity", "reveal_difficulty", "turns")


def _agent_tokens(usage: pl.Expr) -> pl.Expr:
    """Prompt + completion tokens of the agent's models (`agent:<model>` keys of ModelUsage, flat objects)."""
    one = pl.element()
    return (
        usage.fill_null("{}")
        .str.extract_all(r'"agent:[^"]*":\s*\{[^}]*\}')
        .list.eval(
            one.str.extract(r'"prompt_tokens":\s*(\d+)').cast(pl.Int64).fill_null(0)
            + one.str.extract(r'"completion_tokens":\s*(\d+)').cast(pl.Int64).fill_null(0)
        )
        .list.sum()
    )


def _flatten(raw: pl.LazyFrame, slug: str, snapshot: str) -> pl.LazyFrame:
    key, score, eff = pl.col("key"), pl.col("score"), pl.col("efficiency")
    policies = score.struct.field("policies")
    return (
        raw.unique(subset=["key"], keep="last", maintain_order=True)  # a later record supersedes
        .select(
            pl.lit(slug).alias("submission"),
            pl.lit(snapshot).alias("snapshot"),
            key.struct.field("task_id"),
            key.struct.field("trial_index"),
            key.struct.field("seed"),
            "status",
            "complexity",
            "reveal_difficulty",
            "no_valid_recommendation",
            score.struct.field("reward"),
            score.struct.field("constraint_score"),
            score.struct.field("policy_score"),
            score.struct.field("weighted_policy_score"),
            pl.when(score.is_not_null())
            .then(score.struct.field("recommendation").is_null())
            .alias("no_rec"),
            eff.struct.field("turns"),
            eff.struct.field("tool_calls"),
            eff.struct.field("proposals").fill_null(0),
            eff.struct.field("step_latencies_s").fill_null(pl.lit([], dtype=pl.List(pl.Float64))),
            "cost_usd",
            _agent_tokens(pl.col("usage")).alias("tokens"),
            # Through Categorical and back: fresh strings, so the frame stops pinning the
            # parsed records' buffers (~1.2 MB of RSS per run otherwise).
            policies.list.eval(pl.element().struct.field("policy"))
            .cast(pl.List(pl.Categorical))
            .cast(pl.List(pl.String))
            .fill_null(pl.lit([], dtype=pl.List(pl.String)))
            .alias("policy"),
            policies.list.eval(pl.element().struct.field("passed"))
            .fill_null(pl.lit([], dtype=pl.List(pl.Boolean)))
            .alias("policy_passed"),
            "leak_audit_clean",
            "transcript",
            pl.col("transcript_span").struct.field("offset").alias("transcript_offset"),
            pl.col("transcript_span").struct.field("length").alias("transcript_length"),
        )
        .cast(TRIALS_SCHEMA)  # type: ignore[arg-type]
    )


def records_frame(records: Iterable[TrialRecord], slug: str, snapshot: str) -> pl.DataFrame:
    """The same flat frame built from validated TrialRecords."""
    include: dict[str, Any] = dict.fromkeys(RAW_SCHEMA, True)
    include["score"] = {
        "recommendation": True,
        "reward": True,
        "constraint_score": True,
        "policy_score": True,
        "weighted_policy_score": True,
        "policies": {"__all__": {"policy", "passed"}},
    }
    include["efficiency"] = {"turns", "tool_calls", "proposals", "step_latencies_s"}
    rows = []
    for r in records:
        row = r.model_dump(mode="json", include=include)
        row["usage"] = json.dumps(row["usage"])
        rows.append(row)
    raw = pl.DataFrame(rows, schema=RAW_SCHEMA) if rows else pl.DataFrame(schema=RAW_SCHEMA)
    return _flatten(raw.lazy(), slug, snapshot).collect()


def read_trials_frame(run_dir: Path, slug: str, snapshot: str, notes: list[str]) -> pl.DataFrame:
    """Parse `trials.jsonl` with polars; a torn last line is dropped (and noted).

    Anything the fast path cannot read cleanly goes through the runner's own loader, which
    validates every record and names the file and line of a bad one.
    """
    path = Path(run_dir) / TRIALS_FILE
    data = path.read_bytes() if path.exists() else b""
    if data and not data.endswith(b"\n"):
        cut = data.rfind(b"\n") + 1
        notes.append(f"{path}: discarded a torn last line ({len(data) - cut} bytes)")
        data = data[:cut]
    if not data.strip():
        return pl.DataFrame(schema=TRIALS_SCHEMA)
    try:
        raw = pl.read_ndjson(io.BytesIO(data), schema=RAW_SCHEMA)
        if raw.select(pl.col("key").is_duplicated().any()).item():
            # Only the runner's loader may decide which of two records of a key stands (it
            # refuses a second verdict on a scored key).
            raise ValueError("a key has more than one record")
        frame = _flatten(raw.lazy(), slug, snapshot).collect()
        if frame.select(pl.any_horizontal(pl.col(c).is_null() for c in _REQUIRED).any()).item():
            raise ValueError("a record lacks a required field")
        return frame
    except (pl.exceptions.PolarsError, ValueError):
        loaded = read_trials(run_dir)
        notes.extend(loaded.notes())
        return records_frame(loaded.records, slug, snapshot)
