"""Build the site from a synthesized world with the real `taurec site build`; print wall time, peak memory and size.

Run: .venv/bin/python benchmarks/site_build.py             # issue 13: 100 entries × 12 snapshots × 60 tasks × 4 trials
     .venv/bin/python benchmarks/site_build.py --issue12   # issue 12: 300 entries × 1 snapshot × 60 tasks × 16 trials
     .venv/bin/python benchmarks/site_build.py --default-board   # issue 22: the board `make leaderboard` ran
     .venv/bin/python benchmarks/site_build.py --realistic --entries 20 --snapshots 1
                                                           # issue 22: transcripts as long as real ones
     (or any --entries/--snapshots/--tasks/--trials; --transcripts/--no-transcripts)

Every run prints the site's KB per trial (issue 22: <= 15 on the default board's real
transcripts). The synthesized transcripts are ~4x shorter than real ones unless --realistic.

Targets: issue 13, `public/` ≤ 300 MB and built in under 60 s on 2 cores; issue 12, under 1 GB
peak and under 30 s on 2 cores. The world is synthesized first (not timed), then the build runs
as its own process (`taurec site build`), so the figures are the command's alone: wall time,
and peak memory of its whole process tree (mkdocs runs inside it; the trial-page workers are
its children), sampled every 20 ms as the sum of RSS (an upper bound: forked workers share
pages) and of PSS (shared pages split between processes).
Transcripts are synthesized for the latest snapshot only: older snapshots get no trial pages,
so their transcripts are never read. The issue 12 configuration defaults to trial records
only (no transcripts, so no trial pages): pass --transcripts to add the 288,000 transcripts.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from domains.movies.site_synth import SynthSpec, synthesize

TAUREC = Path(sys.executable).with_name("taurec")


def _labels(count: int) -> tuple[str, ...]:
    """`count` monthly snapshot dates ending 2026-11-01."""
    out = []
    year, month = 2026, 11
    for _ in range(count):
        out.append(dt.date(year, month, 1).isoformat())
        year, month = (year, month - 1) if month > 1 else (year - 1, 12)
    return tuple(reversed(out))


def _tree(root: int) -> list[int]:
    """`root` and every descendant process."""
    children: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", encoding="utf-8") as stat:
                parent = int(stat.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(parent, []).append(int(entry.name))
    found, stack = [], [root]
    while stack:
        pid = stack.pop()
        found.append(pid)
        stack.extend(children.get(pid, []))
    return found


def _memory(pid: int) -> tuple[int, int]:
    """(RSS, PSS) in bytes of one process, 0 when it is gone."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", encoding="utf-8") as rollup:
            fields = dict(line.split(":", 1) for line in rollup if ":" in line)
    except OSError:
        return 0, 0

    def kib(name: str) -> int:
        return int(fields.get(name, "0 kB").split()[0]) * 1024

    return kib("Rss"), kib("Pss")


class PeakSampler(threading.Thread):
    """Samples a process tree's summed RSS and PSS until told to stop; keeps the peaks."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid = pid
        self.rss = 0
        self.pss = 0
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            sums = [_memory(p) for p in _tree(self.pid)]
            self.rss = max(self.rss, sum(r for r, _ in sums))
            self.pss = max(self.pss, sum(p for _, p in sums))
            self.stop.wait(0.02)


def _build(source: list[str], out: Path, budget_mb: float) -> None:
    """Run `taurec site build` on `source` (default: the repository's board) into `out`; print
    its output, wall time, peak memory, size and KB per trial."""
    command = [str(TAUREC), "site", "build", *source, "--out", str(out)]
    command += ["--max-size-mb", str(budget_mb)]
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    sampler = PeakSampler(process.pid)
    sampler.start()
    output, _ = process.communicate()
    wall = time.perf_counter() - start
    sampler.stop.set()
    sampler.join()
    lines = output.decode("utf-8", "replace").rstrip().splitlines()
    notes = [line for line in lines if line.startswith("note: ")]
    if notes:  # e.g. older runs' transcripts, which the synthesizer does not write
        print(f"{len(notes)} notes from the build, the first: {notes[0]}")
    print("\n".join(line for line in lines if not line.startswith("note: ")))
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    trials = re.search(r"(\d+) trials,", output.decode("utf-8", "replace"))
    per_trial = f"; {size / int(trials.group(1)) / 1e3:.1f} KB per trial" if trials else ""
    print(
        f"taurec site build: exit {process.returncode}, wall {wall:.1f}s on "
        f"{os.cpu_count()} cores; peak memory of its process tree: RSS {sampler.rss / 2**20:.0f} MiB, "
        f"PSS {sampler.pss / 2**20:.0f} MiB; public/ {size / 1e6:.1f} MB{per_trial} "
        "(issue 22 target: <= 15 KB per trial)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--issue12", action="store_true", help="300 entries × 1 × 60 × 16")
    parser.add_argument("--entries", type=int, default=None)
    parser.add_argument("--snapshots", type=int, default=None)
    parser.add_argument("--tasks", type=int, default=60)
    parser.add_argument("--trials", type=int, default=None)
    parser.add_argument("--transcripts", action=argparse.BooleanOptionalAction, default=None)
    parser.add_argument("--budget-mb", type=float, default=300.0)
    parser.add_argument(
        "--realistic",
        action="store_true",
        help="transcripts as long as the board's real ones (SynthSpec.realistic_transcripts)",
    )
    parser.add_argument(
        "--default-board",
        action="store_true",
        help="build the repository's own board (submissions/, after `make leaderboard`) instead",
    )
    args = parser.parse_args()
    if args.default_board:
        with tempfile.TemporaryDirectory() as tmp:
            _build([], Path(tmp) / "public", args.budget_mb)
        return
    entries = args.entries or (300 if args.issue12 else 100)
    snapshots = args.snapshots or (1 if args.issue12 else 12)
    trials = args.trials or (16 if args.issue12 else 4)
    transcripts = args.transcripts if args.transcripts is not None else not args.issue12
    labels = _labels(snapshots)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        start = time.perf_counter()
        spec = SynthSpec(
            entries=entries,
            tasks=args.tasks,
            trials=trials,
            items=150,
            snapshots=labels,
            transcripts=transcripts,
            transcript_snapshots=1,
            xss_probes=False,
            reference_entries=("oracle", "random"),
            realistic_transcripts=args.realistic,
        )
        world = synthesize(root / "world", spec)
        print(
            f"synthesized {entries} entries (+2 reference rows) × {len(labels)} snapshots × "
            f"{args.tasks} tasks × {trials} trials "
            f"({'with transcripts for the latest snapshot' if transcripts else 'trial records only'}) "
            f"in {time.perf_counter() - start:.1f}s"
        )
        _build(world.source_options(), root / "public", args.budget_mb)
        if args.issue12:
            print("targets (issue 12): wall < 30 s, peak < 1 GB")
        else:
            print(f"targets (issue 13): wall < 60 s, public/ <= {args.budget_mb:g} MB")


if __name__ == "__main__":
    main()
