"""Batch running: many trials of many submissions at once, crash-safe resume, shards and their merge."""

from __future__ import annotations

from runner.batch.archive import TranscriptMissing, load_trial_transcript
from runner.batch.engine import AgentFactory, RunResult, run_submissions, run_submissions_async
from runner.batch.entrant import Entrant, MakeAgent, agent_name
from runner.batch.inputs import RunInputs, Snapshot, find_policy, load_inputs, resolve_snapshot
from runner.batch.keys import Shard, shard_of, trial_seed
from runner.batch.merge import MergeReport, merge_shards
from runner.batch.progress import BarProgress, PlainProgress, ProgressSink, ProgressStats
from runner.batch.store import LoadedTrials, load_records, read_manifest, read_trials
from runner.core.redact import Redactor, redact_config

__all__ = [
    "AgentFactory",
    "BarProgress",
    "Entrant",
    "LoadedTrials",
    "MakeAgent",
    "MergeReport",
    "PlainProgress",
    "ProgressSink",
    "ProgressStats",
    "Redactor",
    "RunInputs",
    "RunResult",
    "Shard",
    "Snapshot",
    "TranscriptMissing",
    "agent_name",
    "find_policy",
    "load_inputs",
    "load_records",
    "load_trial_transcript",
    "merge_shards",
    "read_manifest",
    "read_trials",
    "redact_config",
    "resolve_snapshot",
    "run_submissions",
    "run_submissions_async",
    "shard_of",
    "trial_seed",
]
