"""Benchmark: a 400-title catalog refresh against the fixture TMDB server limited to 40 requests/s.

Prints, for a cold run, a cached re-run and a forced (--no-cache) re-run: requests sent by
endpoint, cache hits, 429s, wall time and achieved requests/s against the limit, and whether
the snapshot bytes are identical. Writes only to a temporary folder.

    .venv/bin/python benchmarks/catalog_refresh.py [--titles 400] [--rate 40]
"""

from __future__ import annotations

import argparse
import hashlib
import tempfile
from pathlib import Path

from catalog_pipeline.tmdb import refresh
from catalog_pipeline.tmdb.pipeline import RefreshResult


def _digest(folder: Path) -> str:
    digest = hashlib.sha256()
    for file in sorted(folder.iterdir()):
        digest.update(file.name.encode() + b"\0" + file.read_bytes())
    return digest.hexdigest()


def _line(label: str, result: RefreshResult, rate: float) -> None:
    net = result.network
    sent = net["sent"]
    achieved = sent / result.wall_s if result.wall_s else 0.0
    by_endpoint = ", ".join(f"{k} {v}" for k, v in net["sent_by_endpoint"].items()) or "none"
    print(
        f"{label:<8} sent {sent:>4} ({by_endpoint}); cache hits {net['cache_hits']:>4}; "
        f"429s {net['rate_limited']}; wall {result.wall_s:6.2f} s; "
        + (
            f"achieved {achieved:5.1f} req/s = {100 * achieved / rate:5.1f} % of {rate:g}"
            if sent
            else "no request sent"
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--titles", type=int, default=400)
    parser.add_argument("--rate", type=float, default=40.0, help="client and server limit, req/s")
    parser.add_argument("--date", default="2026-11-01")
    parser.add_argument("--workers", type=int, default=8)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="taurec-refresh-bench-") as tmp:
        root = Path(tmp)
        options = {
            "out": root / "snapshots",
            "cache_dir": root / "cache",
            "limit": args.titles,
            "rate_limit_per_s": args.rate,
            "fixture_rate_limit_per_s": args.rate,
            "workers": args.workers,
            # The whole fixture world back to its first release, so 400 titles exist.
            "window_months": 24,
            "min_vote_count": 1,
        }
        cold = refresh("fixture", args.date, **options)  # type: ignore[arg-type]
        m = cold.manifest
        print(
            f"refresh {args.date}: {m.counts.requested} titles discovered, {m.counts.items} kept "
            f"(dropped {m.drops_by_reason}); requests needed {m.requests.total} = "
            f"{m.requests.discover_pages} discover pages + {m.requests.details} details"
        )
        first = _digest(cold.path)
        _line("cold", cold, args.rate)
        cached = refresh("fixture", args.date, **options)  # type: ignore[arg-type]
        _line("cached", cached, args.rate)
        forced = refresh("fixture", args.date, use_cache=False, **options)  # type: ignore[arg-type]
        _line("no-cache", forced, args.rate)
        same = first == _digest(cached.path) == _digest(forced.path)
        print(f"snapshot bytes identical across the three runs: {same}")
        enrich_on_rerun = cached.network["sent_by_endpoint"].get("details", 0)
        print(f"enrich requests on the unchanged re-run: {enrich_on_rerun} (target 0)")


if __name__ == "__main__":
    main()
