"""Fill the sixth movies reader corpus of issue 37: a held-out set only (`chat_heldout4`), in the
voices of the chat agents builders submit.

The shapes (one template a line with its labels, in the format of `reader_corpus_fresh.py`, whose
reading, filling and writing this script reuses) live in `reader_corpus_fresh6_heldout.txt` next
to this script. Every shape is filled once, so a figure on this set counts shapes, not copies.
Same shapes, same catalog, same seed: byte-identical files.

    python scripts/reader_corpus_fresh6.py [--root DIR]

writes `DIR/corpora/reader/chat_heldout4/` (DIR defaults to the repository): an
`agent_messages.jsonl` and a `README.md`.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import reader_corpus_fresh as fresh
from reader_corpus_fresh import Shape

SHAPES = Path(__file__).with_name("reader_corpus_fresh6_heldout.txt")
FOLDER = "chat_heldout4"
PREFIX = "c6h"
SEED = 3706


def fill_once(
    shapes: list[Shape], catalog: list[dict[str, Any]], seed: int = SEED
) -> list[dict[str, Any]]:
    """One message per shape, its titles drawn from one generator seeded with `seed`; lines
    shuffled and ids given."""
    rng = random.Random(f"{seed}-{FOLDER}")
    messages: list[dict[str, Any]] = []
    for shape in shapes:
        try:
            message = fresh.fill(shape, catalog, rng, set())
        except ValueError as exc:
            raise ValueError(f"{SHAPES}:{shape.number}: {exc}") from None
        message["_shape"] = shape.number
        messages.append(message)
    fresh.give_ids(messages, PREFIX, rng)
    return messages


README_HEAD = """# Movies reader corpus, issue 37 — sixth fresh held-out set (`chat_heldout4`)

**Held out: never tuned on, measured once by the lead.** Read its figures only after a reader
version is frozen; do not copy or paraphrase its messages into a tuning file, and do not run a
reader on it while its rules are still being written. It has no tuning twin.

A sixth author (the session-6 engineer `ra`) wrote this set blind, for this set alone. The
files read before and during the writing were: `corpora/README.md`;
`corpora/reader/final/README.md`, whose labelling rules the labels follow;
`runner/core/reader_corpus.py` (the acts, `check_acts`, `held_out_by_group`);
`scripts/reader_corpus_fresh.py` and `scripts/reader_corpus_fresh5.py`, whose shape format,
filling and writing this set reuses by import; the label model `LabelledMessage` and its loader
in `domains/movies/simulators/reader_score.py`; the catalog snapshot
`catalog_pipeline/snapshots/2026-11-01/catalog.json`; three lines of
`corpora/reader/chat_tuning5/agent_messages.jsonl` for the line format; and the part of
`tests/corpora/test_reader_corpus_fresh.py` that loads the corpora. No reader code, vocabulary,
agent wording, benchmark, reader test or earlier shapes file was opened, no earlier corpus
message was read beyond those three lines, and the reader was never run on these messages.

The messages come from {n_shapes} hand-written shapes (`scripts/reader_corpus_fresh6_heldout.txt`),
each a template with title and fact slots and one label, filled once each by
`scripts/reader_corpus_fresh6.py` (seed {seed}) with catalog titles and their real facts (a
compared title shares the pitched title's lead genre): {n} messages (`{prefix}0001` …, lines
shuffled). Regenerate with the script; a test checks the files are exactly what it writes. The
labels will be checked by a second, blind labeller before the set is measured.

Voices, as the LLM chat agents builders submit write to someone looking for a film: `chatgpt`
(a chat model's default register: markdown, bold, bullets, emoji, "Would you like me to…"),
`terse` (a tool-using agent: filters, results, y/n), `warm` (friendly and cosy), `formal` (a
formal assistant), `playful` (jokes, emoji, games), `verbose` (an explainer who gives reasons),
`gentle` (soft, hedged, offers a way out), `es`, `de`, `it`, `hi`, `pl`, `ko`, `pt` (English
written by Spanish, German, Italian, Hindi, Polish, Korean and Portuguese speakers), `hurried`
(lowercase, abbreviations, typos), `numbered` (numbers its questions and options), `pitcher`
(long pitches), `recap` (a recap of what the user said, then the next question).

Registers (issue 37, bullet 5): reaction requests after a pitch, including offers to act ("Would
you like me to check where it's streaming?", "Want me to save it for you?"); long pitches that
state genre, runtime, year, age rating, score, votes, cast, director and service; mood and vibe
menus; bullet and numbered questionnaires with a closing line; questions straight after one
stated fact ("it runs 128 minutes. Does that length work tonight?"); loosening offers after
"nothing fits" that name the fields; near misses offered after an abstention; comparisons and
choices between two titles; titles already seen and titles ruled out; acknowledgements and
recaps full of field words that ask nothing; small talk, goodbyes and offers to wrap up that do
not leave; typos and non-native English.
"""


def readme(shapes: list[Shape], messages: list[dict[str, Any]]) -> str:
    head = README_HEAD.format(n_shapes=len(shapes), seed=SEED, n=len(messages), prefix=PREFIX)
    return "\n".join([head, *fresh.counts_section(shapes, messages)])


def write(root: Path, shapes_path: Path = SHAPES, seed: int = SEED) -> list[Path]:
    """Write the held-out set under `root`; returns the files written."""
    catalog = sorted(json.loads(fresh.CATALOG.read_text(encoding="utf-8")), key=lambda m: m["id"])
    shapes = fresh.read_shapes(shapes_path)
    messages = fill_once(shapes, catalog, seed)
    folder = root / "corpora" / "reader" / FOLDER
    return fresh.write_part(folder, messages, readme(shapes, messages))


def main() -> None:
    args = fresh.root_parser(__doc__ or "").parse_args()
    try:
        written = write(args.root)
    except ValueError as exc:  # a bad shape: its file, line and value
        raise SystemExit(f"error: {exc}") from None
    for path in written:
        print(path)


if __name__ == "__main__":
    main()
