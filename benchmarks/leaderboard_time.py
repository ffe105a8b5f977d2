"""Time the whole `make leaderboard` path on two git revisions, each in a fresh clone, alternating runs.

Run: .venv/bin/python benchmarks/leaderboard_time.py                    # c25149e against HEAD, 2 runs each
     .venv/bin/python benchmarks/leaderboard_time.py --old c25149e --new l-speed --runs 3
     .venv/bin/python benchmarks/leaderboard_time.py --digests /tmp/lb-digests   # also digest each build

Issue 35 asks that `make leaderboard` build both splits (dev and a local test split) in no more
than 1.5x the time it took at c25149e. The machine is shared and its load changes by the minute,
so a time alone means little: each revision is cloned once (`git clone` of the repository, then
`git checkout REV`) and installed once (`make install`, not timed), then the builds alternate,
old, new, old, new, each from a clean tree (`git clean -fdx`, keeping the venv and the npm
packages `make install` put there), so both
revisions meet the same load. Printed: every run's wall time with the load average before it,
the per-pair ratios and the ratio of the means, and each build's CPU time (user + system of
every process it ran, which the load changes far less than the wall time). Both clones get the
same local split secret (`--secret`), so a revision that draws a test split draws the same one in every run; with
`--digests DIR` each build's outputs are digested (benchmarks/output_digest.py) into DIR.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from _common import ROOT

# The same secret in every clone (what `make leaderboard` would otherwise draw at random).
DEFAULT_SECRET = "leaderboard-time-benchmark-secret"


def _git(*args: str) -> str:
    return subprocess.run(["git", *args], check=True, capture_output=True, text=True).stdout


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("VIRTUAL_ENV")}
    env.pop("TAUREC_SPLIT_SECRET", None)  # the local secret, as `make leaderboard` offline
    return {**env, "LITELLM_LOCAL_MODEL_COST_MAP": "True", "PYTHONHASHSEED": "0"}


def prepare(source: str, rev: str, where: Path) -> str:
    """A fresh clone of `source` at `rev` in `where`, installed; its full commit id."""
    if where.exists():
        subprocess.run(["rm", "-rf", str(where)], check=True)
    _git("clone", "-q", source, str(where))
    _git("-C", str(where), "checkout", "-q", rev)
    started = time.perf_counter()
    done = subprocess.run(
        ["make", "install"], cwd=where, env=_env(), capture_output=True, text=True
    )
    if done.returncode != 0:
        raise SystemExit(f"make install failed in {where}:\n{done.stdout[-2000:]}{done.stderr}")
    commit = _git("-C", str(where), "rev-parse", "HEAD").strip()
    print(f"{where}: {commit[:10]} installed in {time.perf_counter() - started:.0f} s (not timed)")
    return commit


def build(where: Path, secret: str, log: Path) -> tuple[float, float]:
    """One `make leaderboard` from a clean tree; its wall time and the CPU time (user + system)
    of every process it ran, in seconds."""
    # What `make install` put there (the venv, the npm packages) stays; everything else goes.
    _git("-C", str(where), "clean", "-q", "-fdx", "-e", ".venv", "-e", "node_modules")
    secret_file = where / ".taurec-cache" / "split-secret"
    secret_file.parent.mkdir(parents=True, exist_ok=True)
    secret_file.write_text(secret + "\n")
    secret_file.chmod(0o600)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    with log.open("wb") as out:
        done = subprocess.run(
            ["make", "leaderboard"], cwd=where, env=_env(), stdout=out, stderr=subprocess.STDOUT
        )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"make leaderboard failed in {where} (exit {done.returncode}); see {log}")
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return wall, cpu


def _digest(where: Path, out: Path) -> None:
    subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "output_digest.py"),
            str(where),
            "--out",
            str(out),
        ],
        check=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", default=str(ROOT), help="repository to clone")
    parser.add_argument("--old", default="c25149e", help="the reference revision")
    parser.add_argument("--new", default="HEAD", help="the revision measured against it")
    parser.add_argument("--runs", type=int, default=2, help="builds of each revision")
    parser.add_argument("--root", type=Path, default=Path("/tmp"), help="where the clones go")
    parser.add_argument("--secret", default=DEFAULT_SECRET, help="the local split secret")
    parser.add_argument("--digests", type=Path, help="digest each build's outputs into here")
    parser.add_argument("--reuse", action="store_true", help="keep installed clones as they are")
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    new_rev = (
        _git("-C", str(ROOT), "rev-parse", args.new).strip() if args.new == "HEAD" else args.new
    )
    clones = {"old": args.root / "lb-old", "new": args.root / "lb-new"}
    for label, rev in (("old", args.old), ("new", new_rev)):
        where = clones[label]
        if args.reuse and (where / ".venv" / ".installed").is_file():
            _git("-C", str(where), "checkout", "-q", rev)
            if (where / "package-lock.json").is_file() and not (where / "node_modules").is_dir():
                subprocess.run(
                    ["npm", "ci", "--silent", "--no-audit", "--no-fund"], cwd=where, check=True
                )
            print(f"{where}: reused at {rev}")
        else:
            prepare(args.source, rev, where)
    if args.digests:
        args.digests.mkdir(parents=True, exist_ok=True)
    walls: dict[str, list[float]] = {"old": [], "new": []}
    cpus: dict[str, list[float]] = {"old": [], "new": []}
    for run in range(1, args.runs + 1):
        for label in ("old", "new"):
            load = os.getloadavg()
            log = args.root / f"lb-{label}-{run}.log"
            wall, cpu = build(clones[label], args.secret, log)
            walls[label].append(wall)
            cpus[label].append(cpu)
            print(
                f"run {run} {label:<3} wall {wall:6.1f} s   CPU {cpu:6.1f} s   load before "
                f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores   log {log}",
                flush=True,
            )
            if args.digests:
                _digest(clones[label], args.digests / f"{label}-{run}.json")
    pairs = [n / o for o, n in zip(walls["old"], walls["new"], strict=True)]
    mean_old, mean_new = statistics.mean(walls["old"]), statistics.mean(walls["new"])
    print(
        f"old {args.old}: "
        + ", ".join(f"{w:.1f}" for w in walls["old"])
        + f" s (mean {mean_old:.1f})"
    )
    print(
        f"new {args.new}: "
        + ", ".join(f"{w:.1f}" for w in walls["new"])
        + f" s (mean {mean_new:.1f})"
    )
    print("ratio per pair (new/old): " + ", ".join(f"{r:.2f}" for r in pairs))
    print(f"ratio of the means: {mean_new / mean_old:.2f} (issue 35: <= 1.5)")
    cpu_old, cpu_new = statistics.mean(cpus["old"]), statistics.mean(cpus["new"])
    print(
        f"CPU time (user + system, every process): old {cpu_old:.1f} s, new {cpu_new:.1f} s, "
        f"ratio {cpu_new / cpu_old:.2f} (on a loaded machine a build running more processes gets "
        "a larger share of the cores: the wall-time ratio under load favours it)"
    )
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
