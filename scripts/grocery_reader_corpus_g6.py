"""Write the grocery reader's fifth held-out chat set, `chat_heldout4/`, from `shapes_g6_heldout.jsonl`.

Every shape was written blind for this set alone (issue 37: a fresh held-out share, no tuning
part) and is filled once; the shapes and their slots follow `grocery_reader_corpus_fresh.py`,
whose filling this script reuses, and the numbering and shuffle are those of
`grocery_reader_corpus_g4.py`'s parts (ids `g6h…`). Same shapes, same seed: the same bytes.

    .venv/bin/python scripts/grocery_reader_corpus_g6.py
"""

from __future__ import annotations

import json
from pathlib import Path

import grocery_reader_corpus_fresh as g3
import grocery_reader_corpus_g4 as g4

from domains.grocery.corpus import GROCERY_CORPORA, GroceryLabelledMessage

SHAPES = GROCERY_CORPORA / "shapes_g6_heldout.jsonl"
HELD_OUT_FILE = "chat_heldout4/messages.jsonl"
PREFIX = "g6h"
SEED = 6161


def dropped(held_out_file: str = HELD_OUT_FILE) -> frozenset[str]:
    """The ids the set's second labelling dropped (`decision: drop` in the `adjudication.jsonl`
    beside the file): messages whose label the written rules do not decide."""
    path = (GROCERY_CORPORA / held_out_file).parent / "adjudication.jsonl"
    if not path.exists():
        return frozenset()
    decisions = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    return frozenset(d["id"] for d in decisions if d["decision"] == "drop")


def messages(
    shapes: Path = SHAPES,
    prefix: str = PREFIX,
    seed: int = SEED,
    drop: frozenset[str] = frozenset(),
) -> list[GroceryLabelledMessage]:
    """The set's messages: each shape filled once with `seed`, shuffled, then numbered (a later
    held-out set written the same way passes its own shapes, prefix and seed); the ids in `drop`
    are left out after numbering, so every other message keeps its id, text and fill."""
    share = g4.part_messages(g3.load_shapes(shapes), prefix, 1, seed)
    return [m for m in share if m.id not in drop]


def main(
    shapes: Path = SHAPES,
    held_out_file: str = HELD_OUT_FILE,
    prefix: str = PREFIX,
    seed: int = SEED,
) -> None:
    """Write the set's file and print, per topic, the shapes asking it and naming it only."""
    share = messages(shapes, prefix, seed, dropped(held_out_file))
    path = GROCERY_CORPORA / held_out_file
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(g3.line(m) + "\n" for m in share), encoding="utf-8")
    print(f"{held_out_file}: {len(share)} messages")
    for topic, (asking, naming) in g3.shape_topic_counts(g3.load_shapes(shapes), seed).items():
        print(f"{topic:<12} asking {asking:>3}  naming without asking {naming:>3}")


if __name__ == "__main__":
    main()
