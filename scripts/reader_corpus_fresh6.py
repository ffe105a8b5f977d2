"""Fill the sixth movies reader corpus of issue 37: a held-out set only (`chat_heldout4`), in the
voices of the chat agents builders submit.

The shapes (one template a line with its labels, in the format of `reader_corpus_fresh.py`, whose
reading, filling and writing this script reuses) live in `reader_corpus_fresh6_heldout.txt` next
to this script. Every shape is filled once, so a figure on this set counts shapes, not copies.
Same shapes, same catalog, same seed: byte-identical files.

    python scripts/reader_corpus_fresh6.py [--root DIR]

writes `DIR/corpora/reader/chat_heldout4/` (DIR defaults to the repository): an
`agent_messages.jsonl` and a `README.md`.

The set was labelled a second time, blind, and every disagreement decided against the labelling
rules (`corpora/reader/chat_heldout4/second_labelling/`): the shapes file keeps the author's
labels, and the decisions are applied to the filled messages by id (with the fifth set's
`adjudicated`), so the agreement before adjudication can be computed again from the files.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import reader_corpus_fresh as fresh
from reader_corpus_fresh import Shape
from reader_corpus_fresh5 import adjudicated

SHAPES = Path(__file__).with_name("reader_corpus_fresh6_heldout.txt")
FOLDER = "chat_heldout4"
PREFIX = "c6h"
SEED = 3706
SECOND_LABELLING_NOTES = (
    "Who: the session-6 engineer `ANM`, who did not write the set. They read the texts file",
    "(id, voice, text; no labels), `corpora/reader/final/README.md`, the acts section of",
    "`corpora/README.md` (and, by overreach, its section on the grocery resolver's",
    "reconciliation, which holds no movies rule or message), `runner/core/reader_corpus.py`, the",
    "label model and the catalog; no shape, script, reader, benchmark or test. Each line was",
    "checked with `LabelledMessage` before the freeze. `ra_blind.jsonl.sha256` is the file",
    "written at the freeze, copied unchanged. The acts are compared as a set: their order",
    "carries nothing, and the two labellers listed them in different orders in 115 messages.",
    "",
    "The decisions, by kind:",
    "",
    '- **Kept** (c6h0148, c6h0272, `watched`): "If Elsmyre Reckonings left you wanting',
    '  more, ..." and "If you liked the tone of Requiem of Emberlorn, you might like ...". The',
    "  second labeller listed the first title as seen. The rule lists the titles a message",
    '  presents as already seen ("Since you enjoyed ...") and keeps a compared title the user',
    "  has not said they saw out of both lists; a condition presents nothing as seen (decided",
    "  the same way for c5h0137 in `chat_heldout3`).",
    '- **Kept** (c6h0019, `acts`): "Instead, how about The Corvessa Outpost?" asks for a',
    "  verdict on the title it puts forward, a reaction request (the second labeller heard",
    '  "How about it?" so in c6h0174).',
    '- **Kept** (c6h0152, `acts`: `small_talk`): "Ooh, a movie night!" before a mood',
    '  question. Small talk is "greetings, thanks, closing pleasantries, progress notes", a list',
    "  of kinds that `chat_heldout3`'s adjudication reads as taking in a friendly opener before a",
    '  question (c5h0133 "Sounds like a cozy night in!", c5h0180 "Ooh, I love helping with movie',
    '  nights!"); the second labeller left it out.',
    "- **Changed** (c6h0143, c6h0251, `acts`: `small_talk` added): \"Let's find you the perfect",
    '  movie!" and "Happy to help you find something!" open a questionnaire, and "I\'ll take it',
    '  from there" and "Once I know that, I\'ll pull a few options" say what comes next: small',
    '  talk by the same reading (c5h0233 "Happy to help you find something to watch!"). The',
    "  author labelled these two without it and c6h0152 with it; the second labeller the",
    "  reverse. Both readings now follow the earlier decision.",
    '- **Changed** (c6h0232, `acts`: `acknowledgement` taken out): "Hidden gems, big directors,',
    "  every streaming app under the sun — I've got it all in my little database. Give me one",
    "  sec!\" says what the agent's database holds and that a search is under way; it repeats",
    "  nothing the user said, so it is small talk only.",
    '- **Changed** (c6h0233, `acts`: `reaction_request` becomes `small_talk`): "Shall I leave',
    '  you to it?" after a pitch the message already treats as settled ("you\'re going to have',
    '  such a nice time with ...") asks whether to end the chat, not what the user thinks of the',
    "  title: a closing pleasantry, which asks nothing.",
    "- **Dropped**: none. Each disagreement is settled by a definition's wording or, for the",
    "  openers, by the reading `chat_heldout3` already gave the same wording. None concerns a",
    "  field asked, a title put forward or an abstention, where both labellers agree on every",
    "  message.",
    "",
)


def fill_once(
    shapes: list[Shape],
    catalog: list[dict[str, Any]],
    seed: int = SEED,
    *,
    folder: str = FOLDER,
    prefix: str = PREFIX,
    shapes_path: Path = SHAPES,
) -> list[dict[str, Any]]:
    """One message per shape, its titles drawn from one generator seeded with `seed` and the
    set's `folder`; lines shuffled and ids `<prefix>0001`, ... given (a later held-out set passes
    its own folder, prefix and shapes file)."""
    rng = random.Random(f"{seed}-{folder}")
    messages: list[dict[str, Any]] = []
    for shape in shapes:
        try:
            message = fresh.fill(shape, catalog, rng, set())
        except ValueError as exc:
            raise ValueError(f"{shapes_path}:{shape.number}: {exc}") from None
        message["_shape"] = shape.number
        messages.append(message)
    fresh.give_ids(messages, prefix, rng)
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
labels were checked by a second, blind labeller before the set is measured, and every
disagreement decided by the rules (section "Second labelling").

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


def write_adjudicated(
    root: Path,
    shapes_path: Path,
    seed: int,
    names: tuple[str, str, str],
    notes: Sequence[str],
) -> list[Path]:
    """Write a held-out set filled once per shape under `root`, with its second labelling's
    decisions (`corpora/reader/<folder>/second_labelling/`) applied. `names` is the set's
    folder, id prefix and README opening (formatted with the counts); `notes` the set's own
    account of its decisions. Returns the files written."""
    folder, prefix, head = names
    catalog = sorted(json.loads(fresh.CATALOG.read_text(encoding="utf-8")), key=lambda m: m["id"])
    shapes = fresh.read_shapes(shapes_path)
    messages = fill_once(
        shapes, catalog, seed, folder=folder, prefix=prefix, shapes_path=shapes_path
    )
    labelling = fresh.ROOT / "corpora" / "reader" / folder / "second_labelling"
    blind, decisions = labelling / "ra_blind.jsonl", labelling / "ra_adjudication.jsonl"
    shapes, messages, tail = adjudicated(shapes, messages, blind, decisions, notes)
    opening = head.format(n_shapes=len(shapes), seed=seed, n=len(messages), prefix=prefix)
    readme = "\n".join([opening, *fresh.counts_section(shapes, messages), *tail])
    return fresh.write_part(root / "corpora" / "reader" / folder, messages, readme)


def write(root: Path, shapes_path: Path = SHAPES, seed: int = SEED) -> list[Path]:
    """The set under `root`, adjudicated (`write_adjudicated`); returns the files written."""
    return write_adjudicated(
        root, shapes_path, seed, (FOLDER, PREFIX, README_HEAD), SECOND_LABELLING_NOTES
    )


def run(write_set: Callable[[Path], list[Path]], doc: str) -> None:
    """A held-out set script's command line: write the set under `--root` and print the files;
    a bad shape, blind label or decision ends it with its file, line and value."""
    args = fresh.root_parser(doc).parse_args()
    try:
        written = write_set(args.root)
    except ValueError as exc:
        raise SystemExit(f"error: {exc}") from None
    for path in written:
        print(path)


def main() -> None:
    run(write, __doc__ or "")


if __name__ == "__main__":
    main()
