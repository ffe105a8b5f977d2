"""Compare two results folders trial by trial, ignoring wall-clock fields: are scores and transcripts byte-identical?

    python scripts/compare_results.py OLD_RESULTS_ROOT NEW_RESULTS_ROOT

Each root holds `<slug>/results/<snapshot>/` folders (as `taurec run --out ROOT` writes them).
Every trial record and every transcript is compared as canonical JSON with the timing fields
(step latencies, wall time) removed: those are measured, never reproducible. Prints one line per
run and exits 1 on the first difference it reports.
"""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path
from typing import Any

_TIMING_KEYS = {"timing", "step_latencies_s", "wall_time_s", "transcript_span"}


def _strip(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _strip(v) for k, v in value.items() if k not in _TIMING_KEYS}
    if isinstance(value, list):
        return [_strip(v) for v in value]
    return value


def _records(folder: Path) -> dict[str, str]:
    out = {}
    for line in (folder / "trials.jsonl").read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        key = record["key"]
        out[f"{key['task_id']}#{key['trial_index']}"] = json.dumps(_strip(record), sort_keys=True)
    return out


def _transcripts(folder: Path) -> dict[str, str]:
    out = {}
    for archive in sorted((folder / "transcripts").glob("*.jsonl.gz")):
        with gzip.open(archive, "rt", encoding="utf-8") as handle:
            for line in handle:
                if not line.strip():
                    continue
                transcript = json.loads(line)
                key = f"{transcript['task_id']}#{transcript['trial_index']}"
                out[key] = json.dumps(_strip(transcript), sort_keys=True)
    return out


def main(old_root: Path, new_root: Path) -> int:
    runs = sorted(p.parent for p in old_root.glob("*/results/*/trials.jsonl"))
    if not runs:
        print(f"no results under {old_root}")
        return 1
    for old in runs:
        new = new_root / old.relative_to(old_root)
        if not (new / "trials.jsonl").is_file():
            print(f"{old.relative_to(old_root)}: missing in {new_root}")
            return 1
        for what, read in (("records", _records), ("transcripts", _transcripts)):
            a, b = read(old), read(new)
            if not a:
                print(f"{old.relative_to(old_root)}: no {what} found")
                return 1
            if a.keys() != b.keys():
                print(f"{old.relative_to(old_root)}: {what} differ in keys")
                return 1
            differing = sorted(k for k in a if a[k] != b[k])
            if differing:
                print(
                    f"{old.relative_to(old_root)}: {len(differing)} {what} differ, e.g. {differing[0]}"
                )
                return 1
        print(f"{old.relative_to(old_root)}: {len(a)} trials identical (records and transcripts)")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2])))
