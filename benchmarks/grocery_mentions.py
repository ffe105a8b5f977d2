"""The grocery product resolver on the labelled corpus: exact resolution and ruled-out mentions counted, per share (tuning shares apart from the held-out one).

.venv/bin/python benchmarks/grocery_mentions.py [--misses]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from domains.grocery.catalog import load_catalog
from domains.grocery.mention_corpus import load_examples, score_resolver
from domains.grocery.mentions import Resolver

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "corpora" / "grocery" / "mentions"
SNAPSHOT = ROOT / "domains" / "grocery" / "snapshots" / "2026-11-01"
SHARES = ("tuning", "tuning-b", "tuning-c", "heldout")
EXACT_TARGET = 0.98


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--misses", action="store_true", help="print the tuning shares' misses")
    args = parser.parse_args(argv)
    resolver = Resolver(load_catalog(SNAPSHOT).items)
    print(f"{'share':10} {'messages':>8} {'exact':>7} {'ruled-out counted':>18}")
    for share in SHARES:
        path = CORPUS / f"{share}.jsonl"
        if not path.is_file():
            continue
        result = score_resolver(resolver, load_examples(path))
        marks = (
            "ok"
            if result.exact_rate >= EXACT_TARGET and not result.ruled_out_counted
            else "BELOW TARGET"
        )
        print(
            f"{share:10} {result.messages:8} {result.exact_rate:7.3f} "
            f"{result.ruled_out_counted:18}  {marks}"
        )
        if args.misses and share != "heldout":
            for text, want, got in result.misses:
                print(f"  {text!r}: labelled {want}, read {got}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
