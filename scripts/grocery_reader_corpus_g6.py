"""Write the grocery reader's fifth held-out chat set, `chat_heldout4/`, from `shapes_g6_heldout.jsonl`.

Every shape was written blind for this set alone (issue 37: a fresh held-out share, no tuning
part) and is filled once; the shapes and their slots follow `grocery_reader_corpus_fresh.py`,
whose filling this script reuses, and the numbering and shuffle are those of
`grocery_reader_corpus_g4.py`'s parts (ids `g6h…`). Same shapes, same seed: the same bytes.

    .venv/bin/python scripts/grocery_reader_corpus_g6.py
"""

from __future__ import annotations

import grocery_reader_corpus_fresh as g3
import grocery_reader_corpus_g4 as g4

from domains.grocery.corpus import GROCERY_CORPORA, GroceryLabelledMessage

SHAPES = GROCERY_CORPORA / "shapes_g6_heldout.jsonl"
HELD_OUT_FILE = "chat_heldout4/messages.jsonl"
PREFIX = "g6h"
SEED = 6161


def messages() -> list[GroceryLabelledMessage]:
    """The set's messages: each shape filled once with `SEED`, shuffled, then numbered."""
    return g4.part_messages(g3.load_shapes(SHAPES), PREFIX, 1, SEED)


def main() -> None:
    share = messages()
    path = GROCERY_CORPORA / HELD_OUT_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(g3.line(m) + "\n" for m in share), encoding="utf-8")
    print(f"{HELD_OUT_FILE}: {len(share)} messages")
    for topic, (asking, naming) in g3.shape_topic_counts(g3.load_shapes(SHAPES), SEED).items():
        print(f"{topic:<12} asking {asking:>3}  naming without asking {naming:>3}")


if __name__ == "__main__":
    main()
