"""Fill the seventh movies reader corpus of issue 37: a held-out set only (`chat_heldout5`), in the
voices of the chat agents builders submit.

The shapes (one template a line with its labels, in the format of `reader_corpus_fresh.py`) live
in `reader_corpus_fresh7_heldout.txt` next to this script; they are filled once each by the sixth
set's `fill_once` and written by `reader_corpus_fresh.py`'s `write_part`, so a figure on this set
counts shapes, not copies. Same shapes, same catalog, same seed: byte-identical files.

    python scripts/reader_corpus_fresh7.py [--root DIR]

writes `DIR/corpora/reader/chat_heldout5/` (DIR defaults to the repository): an
`agent_messages.jsonl` and a `README.md`.

A second, blind labeller's labels and the decision on each disagreement sit in the set's
`second_labelling/` folder; `reader_corpus_fresh5.adjudicated` applies the decisions by id after
the fill, while the shapes keep their author's labels (so the agreement figures can be recomputed).
"""

from __future__ import annotations

from pathlib import Path

from reader_corpus_fresh6 import run, write_adjudicated

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
shuffled). Regenerate with the script; a test checks the files are exactly what it writes.
Before any measurement a second labeller labelled every message again, blind, and each
disagreement was settled by the written rules (section "Second labelling").

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


# The README's account of the second labelling's decisions, after its agreement figures.
SECOND_LABELLING_NOTES = (
    "Who: the session-7 engineer `ANM`, who did not write the set. They read the texts file",
    "(id, voice, text; no labels), `corpora/reader/final/README.md`, the acts section and the",
    "reconciliation section of `corpora/README.md` (the latter holds no movies rule),",
    "`runner/core/reader_corpus.py`, the label model and the catalog; no shape, script, reader,",
    "benchmark or test. Each line was checked with `LabelledMessage` before the freeze.",
    "`ra_blind.jsonl.sha256` is the file written at the freeze, copied unchanged. The acts are",
    "compared as a set: their order carries nothing. The earlier sets' adjudications were read",
    "only after the freeze, to decide alike what they had already decided.",
    "",
    "The decisions, by kind (each line of `second_labelling/ra_adjudication.jsonl` quotes its",
    "rule):",
    "",
    '- **Kept** (c7h0050, c7h0117, `watched`): "If you enjoyed the atmosphere of ..., you',
    '  might really like ..." and "If you liked the tension in ..., ... could scratch the same',
    '  itch". The second labeller listed the first title as seen. The rule lists the titles a',
    '  message presents as already seen ("Since you enjoyed ...") and keeps a compared title the',
    "  user has not said they saw out of both lists; a condition presents nothing as seen (the",
    "  reading of c5h0137 and c6h0148, c6h0272).",
    "- **Kept** (c7h0050, c7h0117, c7h0206, c7h0253, c7h0342, `acts`: `reaction_request`):",
    '  offers to act on the title just pitched ("Want me to find a couple more like it?",',
    '  "Would you like me to pull up the trailer?"), the kind `corpora/README.md` names among',
    '  the reaction requests after a pitch ("Want me to check where it streams?").',
    '- **Kept** (c7h0042, c7h0275, c7h0159, `acts`: `reaction_request`): "how about ...?" and',
    '  "... maybe?" ask the user\'s verdict on the title they put forward (c6h0019 alike).',
    "- **Kept** (c7h0064, c7h0101, c7h0220, c7h0227, c7h0239, c7h0280, c7h0288, c7h0329,",
    '  `acts`: `small_talk`): "I search now.", "Searching.", "Let me go find you something",',
    '  "I\'ve got a few belters lined up": progress notes, a listed kind of small talk',
    '  ("greetings, thanks, closing pleasantries, progress notes").',
    '- **Kept** (c7h0116, `acts`: `small_talk`): the opener "Movie roulette time!" before a mood',
    "  question, small talk by the reading the earlier adjudications gave friendly openers",
    '  (c5h0133, c6h0152). The closest call: "Time machine question!" (c7h0216), which both',
    "  labellers left without small talk, is not a disagreement and was not adjudicated.",
    '- **Kept** (c7h0051, `acts`: `acknowledgement`): "Oh, a rainy Sunday and a cup of tea"',
    "  repeats back what the user said and asks nothing.",
    "- **Changed**: none. **Dropped**: none. Every decision keeps the author's label; each is",
    "  settled by a definition's wording or by the reading an earlier set's adjudication gave",
    "  the same wording. None concerns a field asked, a title put forward or an abstention,",
    "  where both labellers agree on every message.",
    "",
)


def write(root: Path, shapes_path: Path = SHAPES, seed: int = SEED) -> list[Path]:
    """The set under `root`, adjudicated (`write_adjudicated`); returns the files written."""
    return write_adjudicated(
        root, shapes_path, seed, (FOLDER, PREFIX, README_HEAD), SECOND_LABELLING_NOTES
    )


def main() -> None:
    run(write, __doc__ or "")


if __name__ == "__main__":
    main()
