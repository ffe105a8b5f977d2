"""Fill the fifth movies reader corpus of issue 37: a tuning part (`chat_tuning5`) and a larger
held-out part (`chat_heldout3`), in the voices of the chat agents builders submit.

The shapes (one template a line with its labels, in the format of `reader_corpus_fresh.py`,
whose reading and filling this script reuses) live in two files next to this script:
`reader_corpus_fresh5_tuning.txt` and `reader_corpus_fresh5_heldout.txt`. They were written as
one set and split once, by shape, with `--split` (shapes in a fixed order, grouped by what they
do, each group shuffled with the seed and 70 % of it held out). A tuning shape is filled twice,
a held-out shape once (a shape without slots is written once), so a held-out figure counts
shapes, not copies. Each part draws its titles
from its own generator, so the tuning part is the same whether or not the held-out shapes are
present. Same shapes, same catalog, same seed: byte-identical files.

    python scripts/reader_corpus_fresh5.py [--root DIR] [--held-out-shapes FILE]
    python scripts/reader_corpus_fresh5.py --split ALL_SHAPES [--held-out-shapes FILE]

The first writes `DIR/corpora/reader/chat_tuning5/` and, when the held-out shapes file exists,
`DIR/corpora/reader/chat_heldout3/` (DIR defaults to the repository), each an
`agent_messages.jsonl` and a `README.md`. The second writes the two shape files from one file of
all shapes.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Any

from reader_corpus_fresh import (
    ACT_LETTERS,
    CATALOG,
    ROOT,
    Shape,
    counts_section,
    fill,
    give_ids,
    read_shapes,
    write_part,
)

from runner.core.reader_corpus import held_out_by_group

HERE = Path(__file__).resolve().parent
SEED = 3705
HELD_OUT_SHARE = 0.7
# part: (folder, id prefix, shapes file, fills per shape)
PARTS: dict[str, tuple[str, str, Path, int]] = {
    "tuning": ("chat_tuning5", "c5t", HERE / "reader_corpus_fresh5_tuning.txt", 2),
    "held_out": ("chat_heldout3", "c5h", HERE / "reader_corpus_fresh5_heldout.txt", 1),
}
# What a shape does, for the split: its first act in this order, then the field it asks (or
# "several" when it asks more than one), so each field's questions are split 70/30.
MAIN_ACTS = (
    "abstention",
    "preference_question",
    "reaction_request",
    "small_talk",
    "acknowledgement",
    "comparison",
    "proposal",
    "description",
)
SHAPES_HEADER = (
    "# voice | asks (comma-separated, or -) | acts (letters: p proposal, r reaction_request,\n"
    "# q preference_question, d description, c comparison, a abstention, s small_talk,\n"
    "# k acknowledgement) | text with slots: {T} {U} put forward, {C} compared, {W} seen, {X}\n"
    "# ruled out; {fact} or {U:fact} with fact g ag g2 rt score votes cr svc year actor actor2 dir\n"
)


def group_of(shape: Shape) -> tuple[str, ...]:
    """What a shape does: its main act and the field it asks."""
    main = next(a for a in MAIN_ACTS if a in shape.acts)
    asked = shape.asks if len(shape.asks) <= 1 else ("several",)
    return (main, *asked)


def canonical(shapes: list[Shape]) -> list[Shape]:
    """Shapes in the split's fixed order (independent of the files they were read from)."""
    return sorted(shapes, key=lambda s: (s.voice, s.text, s.asks, s.acts))


def split(shapes: list[Shape], seed: int = SEED) -> tuple[list[Shape], list[Shape]]:
    """(tuning, held out): each group of shapes that do the same thing shuffled with the seed,
    70 % of it (rounded half up) held out."""
    ordered = canonical(shapes)
    held = held_out_by_group(
        [group_of(s) for s in ordered], seed, lambda size: int(size * HELD_OUT_SHARE + 0.5)
    )
    tuning = [s for i, s in enumerate(ordered) if i not in held]
    return tuning, [s for i, s in enumerate(ordered) if i in held]


def _shape_line(shape: Shape) -> str:
    letters = {act: letter for letter, act in ACT_LETTERS.items()}
    acts = "".join(letters[a] for a in shape.acts)
    return f"{shape.voice} | {','.join(shape.asks) or '-'} | {acts} | {shape.text}\n"


def write_split(all_shapes: Path, held_out_shapes: Path, seed: int = SEED) -> list[Path]:
    """Split one file of shapes into the tuning shapes file and `held_out_shapes`."""
    tuning, held = split(read_shapes(all_shapes), seed)
    written = []
    for path, shapes in ((PARTS["tuning"][2], tuning), (held_out_shapes, held)):
        path.write_text(SHAPES_HEADER + "".join(map(_shape_line, shapes)), encoding="utf-8")
        written.append(path)
    return written


def fill_part(
    part: str, shapes: list[Shape], catalog: list[dict[str, Any]], seed: int = SEED
) -> list[dict[str, Any]]:
    """A part's messages: each shape filled its part's number of times with different titles,
    lines shuffled, ids given."""
    folder, prefix, path, fills = PARTS[part]
    rng = random.Random(f"{seed}-{folder}")
    messages: list[dict[str, Any]] = []
    for shape in shapes:
        used: set[str] = set()
        for _ in range(fills if shape.filled else 1):
            try:
                message = fill(shape, catalog, rng, used)
            except ValueError as exc:
                raise ValueError(f"{path}:{shape.number}: {exc}") from None
            used.update(message["proposes"])
            message["_shape"] = shape.number
            messages.append(message)
    give_ids(messages, prefix, rng)
    return messages


README_HEAD = """# Movies reader corpus, issue 37 — {title}

{role}

A fifth author wrote this set blind. The files read before and during the writing were:
`corpora/README.md`; `corpora/reader/final/README.md`, whose labelling rules the labels follow;
`runner/core/reader_corpus.py` (the acts, `check_acts`, `held_out_by_group`);
`scripts/reader_corpus_fresh.py`, whose shape format and filling this set reuses; the label
model `LabelledMessage` of `domains/movies/simulators/reader_score.py`; the catalog snapshot
`catalog_pipeline/snapshots/2026-11-01/catalog.json`; and the test that loads the earlier fresh
set. No reader code, vocabulary, agent wording, benchmark or reader test was opened, no earlier
corpus file was read, and the reader was never run on these messages. Two short shapes turned
out to repeat an older corpus message word for word (a test now checks for that) and were
reworded before the split was final.

All shapes were written first, as one set, in the voices of the LLM chat agents builders
submit, then split once by shape with `scripts/reader_corpus_fresh5.py --split` (seed {seed}):
shapes grouped by what they do (main act, and the field asked, or "several"), each group
shuffled, 70 % of it held out. The held-out shapes stayed outside the repository until the
tuning part had been committed. This part: {n_shapes} shapes in
`scripts/{shapes_file}`, each shape with a slot filled {fills} by the script with catalog
titles and their real facts (a compared title shares the pitched title's lead genre), a shape
with no slot written once: {n} messages
(`{prefix}0001` …, lines shuffled). Regenerate with the script; a test checks the files are
exactly what it writes.

Voices: `chatgpt` (a chat model's default register: markdown, bold, bullets, emoji, "Great
choice!", "Would you like me to…"), `terse` (a tool-using agent: filters, results, y/n),
`warm` (friendly and cosy), `formal` (a formal assistant), `playful` (jokes and games),
`verbose` (an explainer who gives reasons), `es`, `de`, `zh`, `ru` (English written by Spanish,
German, Chinese and Russian speakers), `hurried` (lowercase, abbreviations, typos), `numbered`
(numbers its questions and options), `pitcher` (long pitches), `recap` (a recap of what the user
said, then the next question).

Registers (issue 37, bullet 5, whose own examples are quoted here): reaction requests after a
pitch ("does that sound good?", "want me to check where it streams?"); long pitches that state
genre, runtime, year, age rating, cast, director, votes and score; mood and vibe menus; bullet
and numbered questionnaires with a closing line; questions straight after one stated fact
("It runs 2h10. Too long?"); loosening offers after "nothing fits" that name
the fields; comparisons and choices between two titles; "nothing fits" abstentions;
acknowledgements and recaps full of field words that ask nothing; small talk and goodbyes;
typos and non-native English; offers to act on the pick.
"""


def readme(part: str, shapes: list[Shape], messages: list[dict[str, Any]]) -> str:
    _, prefix, path, fills = PARTS[part]
    title, role = (
        (
            "fifth fresh tuning part (`chat_tuning5`)",
            "**May be tuned on.** Its held-out twin set is `chat_heldout3`, the same voices'\n"
            "other shapes.",
        )
        if part == "tuning"
        else (
            "fresh held-out part (`chat_heldout3`)",
            "**Held out: never tuned on.** Read its figures only after a reader version is\n"
            "frozen; do not copy or paraphrase its messages into a tuning file. Its labels are\n"
            "to be checked by a second, blind labeller before it is measured.",
        )
    )
    head = README_HEAD.format(
        title=title,
        role=role,
        seed=SEED,
        n_shapes=len(shapes),
        shapes_file=path.name,
        fills="twice" if fills == 2 else "once",
        n=len(messages),
        prefix=prefix,
    )
    return "\n".join([head, *counts_section(shapes, messages)])


def write(root: Path, held_out_shapes: Path, seed: int = SEED) -> list[Path]:
    """Write the tuning part, and the held-out part when its shapes exist; returns the files."""
    catalog = sorted(json.loads(CATALOG.read_text(encoding="utf-8")), key=lambda m: m["id"])
    sources = {"tuning": PARTS["tuning"][2], "held_out": held_out_shapes}
    written: list[Path] = []
    for part, source in sources.items():
        if not source.exists():
            continue
        shapes = read_shapes(source)
        messages = fill_part(part, shapes, catalog, seed)
        folder = root / "corpora" / "reader" / PARTS[part][0]
        written += write_part(folder, messages, readme(part, shapes, messages))
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="where corpora/ is written")
    parser.add_argument(
        "--held-out-shapes",
        type=Path,
        default=PARTS["held_out"][2],
        help="the held-out shapes file (the held-out part is skipped when it does not exist)",
    )
    parser.add_argument(
        "--split", type=Path, help="split this file of all shapes into the two shape files"
    )
    args = parser.parse_args()
    if args.split:
        written = write_split(args.split, args.held_out_shapes)
    else:
        written = write(args.root, args.held_out_shapes)
    for path in written:
        print(path)


if __name__ == "__main__":
    main()
