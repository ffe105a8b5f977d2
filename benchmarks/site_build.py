"""Build the site for 100 entries × 12 snapshots × 60 tasks × 4 trials; print the size report and the time.

Run: .venv/bin/python benchmarks/site_build.py [--entries 100 --snapshots 12 --tasks 60 --trials 4]
Targets (issue 13): `public/` ≤ 300 MB and the build under 60 s on 2 cores. Transcripts are
synthesized for the latest snapshot only: older snapshots get no trial pages (their trials are
published as JSONL/Parquet), so their transcripts are never read by the build.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import resource
import tempfile
import time
from pathlib import Path

from runner.sitegen import build_site
from runner.sitegen.synth import SynthSpec, synthesize


def _labels(count: int) -> tuple[str, ...]:
    """`count` monthly snapshot dates ending 2026-11-01."""
    out = []
    year, month = 2026, 11
    for _ in range(count):
        out.append(dt.date(year, month, 1).isoformat())
        year, month = (year, month - 1) if month > 1 else (year - 1, 12)
    return tuple(reversed(out))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--entries", type=int, default=100)
    parser.add_argument("--snapshots", type=int, default=12)
    parser.add_argument("--tasks", type=int, default=60)
    parser.add_argument("--trials", type=int, default=4)
    parser.add_argument("--budget-mb", type=float, default=300.0)
    args = parser.parse_args()
    labels = _labels(args.snapshots)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        start = time.perf_counter()
        spec = SynthSpec(
            entries=args.entries,
            tasks=args.tasks,
            trials=args.trials,
            items=150,
            snapshots=labels,
            transcript_snapshots=1,
            xss_probes=False,
            reference_entries=("oracle", "random"),
        )
        world = synthesize(root / "world", spec)
        print(
            f"synthesized {args.entries} entries (+2 reference rows) × {len(labels)} snapshots × "
            f"{args.tasks} tasks × {args.trials} trials in {time.perf_counter() - start:.1f}s"
        )
        start = time.perf_counter()
        report = build_site(
            submissions=world.submissions,
            snapshots=world.snapshots,
            tasks=world.tasks,
            out=root / "public",
            docs=root / "docs",
            max_size_mb=args.budget_mb,
        )
        build_s = time.perf_counter() - start
        print(report.summary())
        assert report.size is not None
        print(
            f"full site build: {build_s:.1f}s on {os.cpu_count()} cores   [target < 60 s]; "
            f"public/ {report.size.total / 1e6:.1f} MB   [target <= {args.budget_mb:g} MB]"
        )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (max RSS): {peak:.0f} MB")


if __name__ == "__main__":
    main()
