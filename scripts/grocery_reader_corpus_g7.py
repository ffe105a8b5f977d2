"""Write the grocery reader's sixth held-out chat set, `chat_heldout5/`, from `shapes_g7_heldout.jsonl`.

Every shape was written blind for this set alone (issue 37: a fresh held-out share, no tuning
part) and is filled once, the way `grocery_reader_corpus_g6.py` fills its set (whose functions
this script calls with its own shapes, prefix and seed): slots and facts from
`grocery_reader_corpus_fresh.py`, numbering and shuffle from `grocery_reader_corpus_g4.py`'s
parts, ids `g7h…`. Same shapes, same seed: the same bytes.

    .venv/bin/python scripts/grocery_reader_corpus_g7.py
"""

from __future__ import annotations

import grocery_reader_corpus_g6 as g6

from domains.grocery.corpus import GROCERY_CORPORA, GroceryLabelledMessage

SHAPES = GROCERY_CORPORA / "shapes_g7_heldout.jsonl"
HELD_OUT_FILE = "chat_heldout5/messages.jsonl"
PREFIX = "g7h"
SEED = 7171


def messages() -> list[GroceryLabelledMessage]:
    """The set's messages: each shape filled once with `SEED`, shuffled, then numbered; the ids
    its second labelling dropped (`chat_heldout5/adjudication.jsonl`) left out."""
    return g6.messages(SHAPES, PREFIX, SEED, g6.dropped(HELD_OUT_FILE))


def main() -> None:
    g6.main(SHAPES, HELD_OUT_FILE, PREFIX, SEED)


if __name__ == "__main__":
    main()
