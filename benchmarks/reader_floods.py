"""Benchmark: how long the simulated users' readers take on one flooding agent message.

The loop lets an agent reply of up to 250,000 characters through. Each kind of run below (a
symbol, a word, a product name, bare newlines, ...) is repeated to `--chars` characters and read
once by the movies rule reader, the grocery shopper's reader and the grocery product resolver;
the seconds each took are printed (more than `--timeout` prints ">"). Every reader reads only the
first `runner.kits.user.reader.READ_LIMIT` characters, so no run should take long.

    .venv/bin/python -m benchmarks.reader_floods [--chars 250000] [--timeout 20]
"""

from __future__ import annotations

import argparse
import signal
import time
from collections.abc import Callable
from types import FrameType

from domains.grocery.mentions import resolver
from domains.grocery.testing import tiny_catalog
from domains.grocery.user.scripted import shopper_reader
from domains.movies.catalog import Catalog
from domains.movies.simulators.reader import rule_reader
from domains.movies.simulators.reader_score import CORPUS_SNAPSHOT
from runner.core.paths import SNAPSHOTS_DIR

RUNS = ("&", "a ", "a", "1", " ", "?", "a.", "a,", "- ", "ab-", "please ", "1 x ", "é", "\n")
RUNS_AFTER = ("- a\n", "**", "| a ", "genre ", "not ", "out of stock ")


class _TooLong(Exception):
    pass


def _alarm(_signum: int, _frame: FrameType | None) -> None:
    raise _TooLong


def _seconds(read: Callable[[], object], timeout: int) -> str:
    signal.alarm(timeout)
    start = time.perf_counter()
    try:
        read()
        return f"{time.perf_counter() - start:.2f}"
    except _TooLong:
        return f">{timeout}"
    finally:
        signal.alarm(0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--chars", type=int, default=250_000, help="length of each message")
    parser.add_argument("--timeout", type=int, default=20, help="seconds before giving up")
    args = parser.parse_args()
    signal.signal(signal.SIGALRM, _alarm)
    movies = rule_reader(Catalog.load(SNAPSHOTS_DIR / CORPUS_SNAPSHOT))
    catalog = tiny_catalog()
    shopper, products = shopper_reader(catalog), resolver(catalog)
    name = catalog.items[0].name
    print(f"{'run':16} {'movies':>8} {'shopper':>8} {'resolver':>8}")
    for unit in (*RUNS, *RUNS_AFTER, name + " ", name + ", "):
        text = unit * (args.chars // len(unit))
        row = [
            _seconds(lambda text=text: movies.read(text), args.timeout),  # type: ignore[misc]
            _seconds(lambda text=text: shopper.read(text), args.timeout),  # type: ignore[misc]
            _seconds(lambda text=text: products.resolve(text), args.timeout),  # type: ignore[misc]
        ]
        print(f"{unit[:14]!r:16} " + " ".join(f"{cell:>8}" for cell in row))


if __name__ == "__main__":
    main()
