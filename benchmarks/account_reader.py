"""Benchmark: the account shopper's rule reader on the labelled account-desk corpus (`corpora/grocery/account/`), the tuning share and the held-out share reported apart.

A message counts as read right when its reading (topics asked, a yes asked for, a result
reported, a transfer offered) equals its label; per label, recall and precision. The held-out
share is never tuned on, and its wrong messages are never listed (`--errors` lists the tuning
share's only).

    .venv/bin/python -m benchmarks.account_reader [--errors]
"""

from __future__ import annotations

import argparse

from domains.grocery.account_corpus import load_account_share, score_account_share


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--errors", action="store_true", help="list the tuning share's errors")
    args = parser.parse_args()
    for share in ("tuning", "heldout"):
        score = score_account_share(load_account_share(share))
        print(f"{share}: {score.messages} messages, exact {score.exact:.3f}")
        for label, (recall, precision) in score.rates.items():
            r = f"{recall:.2f}" if recall is not None else "n/a"
            p = f"{precision:.2f}" if precision is not None else "n/a"
            print(f"  {label:<9} recall {r}  precision {p}")
        if args.errors and share == "tuning":
            print("  wrong:", ", ".join(score.wrong) or "none")


if __name__ == "__main__":
    main()
