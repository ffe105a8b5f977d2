"""Time the site's aggregation and full build on 100 entries × 60 tasks × 16 trials; print peak memory.

Run: .venv/bin/python benchmarks/site_build.py [--entries 100 --tasks 60 --trials 16]
Trial records only (no transcripts), as on a board whose transcripts are not kept: the build then
emits the home, entry, tasks, snapshots and static pages, and links no trial pages.
"""

from __future__ import annotations

import argparse
import resource
import tempfile
import time
from pathlib import Path

from runner.sitegen import aggregate_runs, build_site, load_inputs
from runner.sitegen.synth import SynthSpec, synthesize


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--entries", type=int, default=100)
    parser.add_argument("--tasks", type=int, default=60)
    parser.add_argument("--trials", type=int, default=16)
    parser.add_argument("--snapshots", type=int, default=1, help="1 or 2 dated snapshots")
    args = parser.parse_args()
    labels = ("2026-10-01", "2026-11-01")[-args.snapshots :]
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        start = time.perf_counter()
        spec = SynthSpec(
            entries=args.entries,
            tasks=args.tasks,
            trials=args.trials,
            items=150,
            snapshots=labels,
            transcripts=False,
            xss_probes=False,
        )
        world = synthesize(root / "world", spec)
        print(
            f"synthesized {args.entries} entries × {args.tasks} tasks × {args.trials} trials "
            f"× {len(labels)} snapshot(s) in {time.perf_counter() - start:.1f}s"
        )

        start = time.perf_counter()
        inputs = load_inputs(world.submissions, world.snapshots, world.tasks)
        load_s = time.perf_counter() - start
        trials = sum(r.frame.height for r in inputs.runs)
        start = time.perf_counter()
        agg = aggregate_runs(inputs.runs)
        agg_s = time.perf_counter() - start
        print(
            f"load ({trials} trial records parsed by polars with a typed schema, + configs, snapshots): {load_s:.2f}s"
        )
        print(
            f"aggregation ({agg.entries.height} rows, pass^k k=1..{agg.pass_k['k'].max()} "
            f"with bootstrap CIs): {agg_s:.2f}s   [target < 5 s]"
        )

        start = time.perf_counter()
        report = build_site(
            submissions=world.submissions,
            snapshots=world.snapshots,
            tasks=world.tasks,
            out=root / "public",
            docs=root / "docs",
        )
        build_s = time.perf_counter() - start
        print(report.summary())
        print(f"full site build: {build_s:.2f}s   [target < 60 s]")
        size = sum(p.stat().st_size for p in (root / "public").rglob("*") if p.is_file())
        print(
            f"public/: {sum(1 for _ in (root / 'public').rglob('*.html'))} html files, "
            f"{size / 1e6:.1f} MB"
        )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (max RSS): {peak:.0f} MB")


if __name__ == "__main__":
    main()
