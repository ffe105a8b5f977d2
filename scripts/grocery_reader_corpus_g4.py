"""Write the grocery reader's fourth chat set: `chat_tuning4/` (may be tuned on) and `chat_heldout3/` (held out), from two shapes files.

A shape is one way a chat shop assistant might write one thing, in one voice, with product slots
and one label; the slots and their facts are those of `grocery_reader_corpus_fresh.py` (whose
filling this script reuses), and so is the format of a shape. The set was written as one list of
shapes and then split once, by shape, with `--split ALL_SHAPES`: the shapes are grouped by what
they do (their acts and the first topic they ask), each group is shuffled with a fixed seed and
70 % of it (rounded) held out. The split writes `shapes_g4_tuning.jsonl` and
`shapes_g4_heldout.jsonl`; the held-out file is committed only after the tuning part has been
handed over, so the script also runs with the tuning shapes alone and then writes the tuning part
only.

A tuning shape that names a product is filled twice, a held-out one once (more messages per shape,
fewer shapes, would let one missed shape weigh more); a shape that names no product is written
once. Each part's lines are shuffled by their own seeded generator before they get their ids
(`g4t…`, `g4h…`), so the tuning part is the same bytes with or without the held-out shapes.

    .venv/bin/python scripts/grocery_reader_corpus_g4.py
    .venv/bin/python scripts/grocery_reader_corpus_g4.py --split /path/to/all_shapes.jsonl
"""

from __future__ import annotations

import argparse
import json
import math
import random
from pathlib import Path
from typing import Any

import grocery_reader_corpus_fresh as g3

from domains.grocery.corpus import GROCERY_CORPORA, GroceryLabelledMessage
from runner.core.reader_corpus import held_out_by_group

TUNING_SHAPES = GROCERY_CORPORA / "shapes_g4_tuning.jsonl"
HELD_OUT_SHAPES = GROCERY_CORPORA / "shapes_g4_heldout.jsonl"
TUNING_FILE = "chat_tuning4/messages.jsonl"
HELD_OUT_FILE = "chat_heldout3/messages.jsonl"
SEED = 4141
HELD_OUT_SHARE = 0.7
# Per part: its shapes file, its message file, its id prefix, fills per shape and fill seed (the
# line shuffle uses the fill seed + 1).
PARTS: tuple[tuple[Path, str, str, int, int], ...] = (
    (TUNING_SHAPES, TUNING_FILE, "g4t", 2, SEED),
    (HELD_OUT_SHAPES, HELD_OUT_FILE, "g4h", 1, SEED + 2),
)


def shape_group(shape: dict[str, Any]) -> tuple[str, ...]:
    """What a shape does, for the split: its acts and the first topic it asks."""
    return (*shape["acts"], f"asks:{shape['asked'][0] if shape['asked'] else '-'}")


def held_out_count(size: int) -> int:
    """How many of a group of `size` shapes are held out: 70 %, rounded half up."""
    return math.floor(HELD_OUT_SHARE * size + 0.5)


def split(shapes: list[dict[str, Any]], seed: int = SEED) -> tuple[list[int], list[int]]:
    """The positions of the tuning shapes and of the held-out shapes, each in the list's order."""
    held = held_out_by_group([shape_group(s) for s in shapes], seed, held_out_count)
    return [i for i in range(len(shapes)) if i not in held], sorted(held)


def write_split(all_shapes: Path) -> None:
    """Split one file of every shape into the tuning and the held-out shapes files."""
    shapes = g3.load_shapes(all_shapes)
    for path, positions in zip((TUNING_SHAPES, HELD_OUT_SHAPES), split(shapes), strict=True):
        path.write_text(
            "".join(json.dumps(shapes[i], ensure_ascii=False) + "\n" for i in positions),
            encoding="utf-8",
        )
        print(f"{path.name}: {len(positions)} shapes")


def part_messages(
    shapes: list[dict[str, Any]], prefix: str, fills: int, seed: int
) -> list[GroceryLabelledMessage]:
    """One part's messages: every shape filled, the lines shuffled, then numbered."""
    out = [m for i, s in enumerate(shapes) for m in g3.shape_messages(s, i, seed, fills)]
    random.Random(seed + 1).shuffle(out)
    return [m.model_copy(update={"id": f"{prefix}{n:04d}"}) for n, m in enumerate(out, 1)]


def messages() -> dict[str, list[GroceryLabelledMessage]]:
    """Each part's messages by file name, for every part whose shapes file is present."""
    return {
        name: part_messages(g3.load_shapes(path), prefix, fills, seed)
        for path, name, prefix, fills, seed in PARTS
        if path.exists()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", type=Path, help="split this file of every shape first")
    args = parser.parse_args()
    if args.split:
        write_split(args.split)
    for name, share in messages().items():
        path = GROCERY_CORPORA / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(g3.line(m) + "\n" for m in share), encoding="utf-8")
        print(f"{name}: {len(share)} messages")


if __name__ == "__main__":
    main()
