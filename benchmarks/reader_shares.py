"""Benchmark: the simulated users' rule readers on the labelled corpora, the tuning share and the held-out share reported apart (issue 37, 2).

For movies (`corpora/reader/`) and grocery (`corpora/grocery/reader/`), each share as
`domains.movies.simulators.reader_score.SHARE_CORPORA` and `domains.grocery.corpus.SHARE_FILES`
define it (`corpora/README.md` says which sets are in which share, and why): per-field question
recall and precision, reaction requests heard as preference questions, proposals, false leaves,
"nothing fits" wording (and, for grocery, confirm requests). The held-out share is never tuned
on; its figures are the ones the Methodology page publishes (movies) and the ones to quote.
`--errors` prints the tuning share alone, its figures and its disagreements: a tuning session
never sees the held-out share, not even its figures (reading its errors would be tuning on it,
and its figures are read once, after the reader is frozen, by running without `--errors`).

    .venv/bin/python benchmarks/reader_shares.py [--errors]
"""

from __future__ import annotations

import argparse

from domains.grocery.corpus import score_grocery_shares
from domains.movies.catalog import Catalog
from domains.movies.simulators.reader import rule_reader
from domains.movies.simulators.reader_score import CORPUS_SNAPSHOT, score_shares
from runner.core.paths import SNAPSHOTS_DIR
from runner.core.reader_corpus import ShareScore


def _bar(score: ShareScore) -> str:
    """The issue's bar on a share: every field >= 0.95 both ways, reaction requests kept apart
    >= 99 %, no false leave (a share with no messages measures nothing)."""
    if not score.messages:
        return "no messages yet: nothing measured"
    ok = (
        min(score.recall.values()) >= 0.95
        and min(score.precision.values()) >= 0.95
        and score.reaction_requests_kept >= 0.99
        and score.false_leaves == 0
    )
    return "meets the bar ✓" if ok else "below the bar ✗"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--errors",
        action="store_true",
        help="print the tuning share alone, with its disagreements (never the held-out share)",
    )
    args = parser.parse_args()
    movies = score_shares(rule_reader(Catalog.load(SNAPSHOTS_DIR / CORPUS_SNAPSHOT)))
    for domain, shares in (("movies", movies), ("grocery", score_grocery_shares())):
        for share, score in shares.items():
            if args.errors and share != "tuning":
                continue
            print(f"== {domain}, {share} share: {_bar(score)} ==")
            if not score.messages:
                print()
                continue
            print(score.format_text())
            if args.errors:
                print("\n".join(f"  {e}" for e in score.errors))
            print()


if __name__ == "__main__":
    main()
