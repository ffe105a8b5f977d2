"""Trial identity helpers: per-trial seeds derived from the run seed, and hash-based shards of the (task, trial) keys."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from runner.core.errors import TaurecError


def trial_seed(run_seed: int, task_id: str, trial_index: int) -> int:
    """The seed of one trial: a stable function of the run seed, the task id and the trial index."""
    digest = hashlib.sha256(f"taurec-trial:{run_seed}:{task_id}:{trial_index}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


@dataclass(frozen=True)
class Shard:
    """Shard `index` of `count` (1-based, as written on the command line: `--shard 2/3`)."""

    index: int
    count: int

    def __post_init__(self) -> None:
        if self.count < 1 or not 1 <= self.index <= self.count:
            raise TaurecError(
                f"shard {self.index}/{self.count}: expected I/N with 1 <= I <= N (e.g. 2/3)"
            )

    @classmethod
    def parse(cls, text: str) -> Shard:
        match = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text)
        if not match:
            raise TaurecError(f"--shard {text!r}: expected I/N with 1 <= I <= N (e.g. 2/3)")
        return cls(int(match.group(1)), int(match.group(2)))

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"

    def owns(self, task_id: str, trial_index: int) -> bool:
        return shard_of(task_id, trial_index, self.count) == self.index


def shard_of(task_id: str, trial_index: int, count: int) -> int:
    """Which shard (1-based) of `count` owns a (task, trial) key: hash-based, stable across runs."""
    digest = hashlib.sha256(f"taurec-shard:{task_id}:{trial_index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % count + 1


def transcript_name(task_id: str, trial_index: int, seed: int) -> str:
    """A trial's own transcript file, relative to the results folder (folders written before the
    archive held one per trial; a merge names a transcript it could not copy this way)."""
    return f"transcripts/{task_id}.trial{trial_index}.seed{seed}.json.gz"
