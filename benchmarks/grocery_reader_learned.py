"""Benchmark: would a learned component help the grocery reader hear topics? Rules alone against rules plus a per-topic word model, leave one corpus out.

For each corpus of the grocery tuning share (`domains.grocery.corpus.SHARE_FILES["tuning"]`), a
logistic model per topic (word and word-pair features of the message, product names blanked;
numpy, full-batch gradient descent, no randomness) is trained on every other tuning corpus and
adds the topics it gives more than even odds to what the rule reader heard; both readings of the
left-out corpus are scored (`runner.core.reader_corpus.score_share`). The learned part is worth
shipping only if it wins here (issue 37: fewer topic errors, no field below what the rules
read). The threshold and training settings are fixed, never tuned to these figures.

The rules were written against every tuning corpus, so on this share they start near 1.000 and
the comparison can only show what a learned part costs; what it would gain on a set the rules
have not seen is measured by pointing `--root` at a checkout of an older reader and holding out
the set it had not seen (`--held-out chat_tuning4/messages.jsonl`, `corpora/README.md`).

    .venv/bin/python -m benchmarks.grocery_reader_learned [--held-out FILE]
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Sequence
from itertools import pairwise

import numpy as np

from domains.grocery.corpus import (
    GROCERY_CORPORA,
    SHARE_FILES,
    TOPIC_FIELDS,
    GroceryLabelledMessage,
    judge_grocery,
    load_grocery_corpus,
)
from domains.grocery.testing import tiny_catalog
from domains.grocery.user import shopper_reader
from runner.core import reader_corpus as rc

_STEPS, _RATE, _L2, _ODDS = 300, 1.0, 1e-3, 0.5
_NAMES = sorted((p.name for p in tiny_catalog().items), key=len, reverse=True)


def _features(text: str) -> set[str]:
    for name in _NAMES:
        text = text.replace(name, " item ")
    words = re.findall(r"[a-z€]+|\?", text.lower())
    return set(words) | {f"{a}_{b}" for a, b in pairwise(words)}


def _matrix(rows: Sequence[set[str]], vocab: dict[str, int]) -> np.ndarray:
    x = np.zeros((len(rows), len(vocab)))
    for i, feats in enumerate(rows):
        for feat in feats:
            if feat in vocab:
                x[i, vocab[feat]] = 1.0
    return x


def _fit(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, float]:
    w, b = np.zeros(x.shape[1]), 0.0
    for _ in range(_STEPS):
        p = 1 / (1 + np.exp(-(x @ w + b)))
        w -= _RATE * (x.T @ (p - y) / len(y) + _L2 * w)
        b -= _RATE * float(np.mean(p - y))
    return w, b


def compare(
    train: list[GroceryLabelledMessage], test: list[GroceryLabelledMessage], name: str
) -> tuple[rc.ShareScore, rc.ShareScore]:
    """The rule reader's score on `test`, and that of the rules plus word models fitted on
    `train`."""
    rows = [_features(m.text) for m in train]
    counts: dict[str, int] = {}
    for feats in rows:
        for feat in feats:
            counts[feat] = counts.get(feat, 0) + 1
    vocab = {f: i for i, f in enumerate(sorted(f for f, n in counts.items() if n >= 2))}
    x = _matrix(rows, vocab)
    models = {
        t: _fit(x, np.array([t in m.asked for m in train], dtype=float)) for t in TOPIC_FIELDS
    }
    judged = judge_grocery(shopper_reader(tiny_catalog()), test)
    xt = _matrix([_features(m.text) for m in test], vocab)
    odds = {t: 1 / (1 + np.exp(-(xt @ w + b))) for t, (w, b) in models.items()}
    both = [
        rc.Judged(
            **{
                **j.__dict__,
                "got_asks": j.got_asks | {t for t in TOPIC_FIELDS if odds[t][i] > _ODDS},
            }
        )
        for i, j in enumerate(judged)
    ]
    return (
        rc.score_share("rules", [name], TOPIC_FIELDS, judged),
        rc.score_share("rules+learned", [name], TOPIC_FIELDS, both),
    )


def _line(score: rc.ShareScore) -> str:
    errors = sum(1 for e in score.errors if "question on" in e or "read as asking" in e)
    low = min(min(score.recall.values()), min(score.precision.values()))
    return f"lowest field {low:.3f}, topic errors {errors:>2}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--held-out", default="", help="score only this tuning file, trained on all the others"
    )
    args = parser.parse_args()
    files = list(SHARE_FILES["tuning"])
    left_out = [args.held_out] if args.held_out else files
    totals = {"rules": 0, "rules+learned": 0}
    for name in left_out:
        train = load_grocery_corpus(*(GROCERY_CORPORA / f for f in files if f != name))
        rules, both = compare(train, load_grocery_corpus(GROCERY_CORPORA / name), name)
        for score in (rules, both):
            totals[score.share] += sum(
                1 for e in score.errors if "question on" in e or "read as asking" in e
            )
        print(f"{name:<32} rules: {_line(rules)} | rules+learned: {_line(both)}")
    print(f"topic errors over the left-out corpora: {totals}")


if __name__ == "__main__":
    main()
