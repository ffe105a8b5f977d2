"""Write the grocery reader's fifth held-out chat set, `chat_heldout4/`, from `shapes_g6_heldout.jsonl`.

Every shape was written blind for this set alone (issue 37: a fresh held-out share, no tuning
part) and is filled once; the shapes and their slots follow `grocery_reader_corpus_fresh.py`,
whose filling this script reuses, and the numbering and shuffle are those of
`grocery_reader_corpus_g4.py`'s parts (ids `g6h…`). Same shapes, same seed: the same bytes.

    .venv/bin/python scripts/grocery_reader_corpus_g6.py
"""

from __future__ import annotations

from pathlib import Path

import grocery_reader_corpus_fresh as g3
import grocery_reader_corpus_g4 as g4

from domains.grocery.corpus import GROCERY_CORPORA, GroceryLabelledMessage

SHAPES = GROCERY_CORPORA / "shapes_g6_heldout.jsonl"
HELD_OUT_FILE = "chat_heldout4/messages.jsonl"
PREFIX = "g6h"
SEED = 6161


def messages(
    shapes: Path = SHAPES, prefix: str = PREFIX, seed: int = SEED
) -> list[GroceryLabelledMessage]:
    """The set's messages: each shape filled once with `seed`, shuffled, then numbered (a later
    held-out set written the same way passes its own shapes, prefix and seed)."""
    return g4.part_messages(g3.load_shapes(shapes), prefix, 1, seed)


def main(
    shapes: Path = SHAPES,
    held_out_file: str = HELD_OUT_FILE,
    prefix: str = PREFIX,
    seed: int = SEED,
) -> None:
    """Write the set's file and print, per topic, the shapes asking it and naming it only."""
    share = messages(shapes, prefix, seed)
    path = GROCERY_CORPORA / held_out_file
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(g3.line(m) + "\n" for m in share), encoding="utf-8")
    print(f"{held_out_file}: {len(share)} messages")
    for topic, (asking, naming) in g3.shape_topic_counts(g3.load_shapes(shapes), seed).items():
        print(f"{topic:<12} asking {asking:>3}  naming without asking {naming:>3}")


if __name__ == "__main__":
    main()
