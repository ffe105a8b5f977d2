"""Fill the seventh movies reader corpus of issue 37: a held-out set only (`chat_heldout5`), in the
voices of the chat agents builders submit.

The shapes (one template a line with its labels, in the format of `reader_corpus_fresh.py`) live
in `reader_corpus_fresh7_heldout.txt` next to this script; they are filled once each by the sixth
set's `fill_once` and written by `reader_corpus_fresh.py`'s `write_part`, so a figure on this set
counts shapes, not copies. Same shapes, same catalog, same seed: byte-identical files.

    python scripts/reader_corpus_fresh7.py [--root DIR]

writes `DIR/corpora/reader/chat_heldout5/` (DIR defaults to the repository): an
`agent_messages.jsonl` and a `README.md`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import reader_corpus_fresh as fresh
from reader_corpus_fresh import Shape
from reader_corpus_fresh6 import fill_once

SHAPES = Path(__file__).with_name("reader_corpus_fresh7_heldout.txt")
FOLDER = "chat_heldout5"
PREFIX = "c7h"
SEED = 3707

README_HEAD = """# Movies reader corpus, issue 37 — seventh fresh held-out set (`chat_heldout5`)

**Held out: never tuned on, measured once by the lead.** Nobody tuning a reader may read these
messages; do not copy or paraphrase them into a tuning file, and do not run a reader on them
while its rules are still being written. The set has no tuning twin.

Author and method: the session-7 engineer `ra` wrote it blind, for this set alone. Before and
while writing, the author opened only: `corpora/reader/final/README.md` (the labelling rules the
labels follow); `runner/core/reader_corpus.py` (the acts, `check_acts`, `held_out_by_group`);
`scripts/reader_corpus_fresh.py` and `scripts/reader_corpus_fresh6.py`, whose shape format,
filling and writing this set reuses by import; the label model `LabelledMessage` and its loader
in `domains/movies/simulators/reader_score.py`; one record of the catalog snapshot
`catalog_pipeline/snapshots/2026-11-01/catalog.json` for its keys; the text of issue 37; and
the corpus tests of `tests/corpora/test_reader_corpus_fresh.py`, to add this set to them. No
reader code, vocabulary, agent wording, benchmark, reader test, earlier shapes file or earlier
corpus message was opened, and the reader was never run on these messages.

The messages come from {n_shapes} hand-written shapes (`scripts/reader_corpus_fresh7_heldout.txt`),
each a template with title and fact slots and one label, filled once each by
`scripts/reader_corpus_fresh7.py` (seed {seed}) with catalog titles and their real facts (a
compared title shares the pitched title's lead genre): {n} messages (`{prefix}0001` …, lines
shuffled). Regenerate with the script; a test checks the files are exactly what it writes. The
labels are to be checked by a second, blind labeller before the set is measured.

Voices, as the LLM chat agents builders submit write to someone choosing a film: `chatgpt` (a
chat model's default register: markdown, bold, bullets, emoji, "Would you like me to…"),
`terse` (a tool-using agent: filters, results, y/n), `warm` (friendly and cosy), `formal` (a
formal assistant), `playful` (jokes, emoji, games), `verbose` (an explainer who gives reasons),
`gentle` (soft and hedged, offers a way out), `es`, `de`, `fr`, `hi`, `ja`, `ru`, `tr`, `zh`
(English written by speakers of Spanish, German, French, Hindi, Japanese, Russian, Turkish and
Chinese), `hurried` (lowercase, abbreviations, typos), `numbered` (numbers its questions and
options), `pitcher` (long pitches), `recap` (a recap of what the user said, then the next
question).

Registers (issue 37, bullet 5): reaction requests after a pitch, with offers to act ("Shall I
save it to your list?", "Want me to look up a few similar titles too?"); long pitches stating
genre, runtime, year, age rating, score, votes, cast, director and service; mood and vibe
menus; bullet and numbered questionnaires with a closing line; questions straight after one
stated fact ("{{title}}: {{votes}} votes. Enough?"); loosening offers after "nothing fits" that
name the fields; near misses offered after an abstention; comparisons and choices between two
titles; titles already seen and titles ruled out; acknowledgements and notes full of field
words that ask nothing; greetings, small talk, goodbyes and offers to wrap up that do not
leave; typos and non-native English.
"""


def readme(shapes: list[Shape], messages: list[dict[str, Any]]) -> str:
    head = README_HEAD.format(n_shapes=len(shapes), seed=SEED, n=len(messages), prefix=PREFIX)
    return "\n".join([head, *fresh.counts_section(shapes, messages)])


def write(root: Path, shapes_path: Path = SHAPES, seed: int = SEED) -> list[Path]:
    """Write the held-out set under `root`; returns the files written."""
    catalog = sorted(json.loads(fresh.CATALOG.read_text(encoding="utf-8")), key=lambda m: m["id"])
    shapes = fresh.read_shapes(shapes_path)
    messages = fill_once(
        shapes, catalog, seed, folder=FOLDER, prefix=PREFIX, shapes_path=shapes_path
    )
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
