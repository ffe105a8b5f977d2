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
        [--adjudication FILE]
    python scripts/reader_corpus_fresh5.py --split ALL_SHAPES [--tuning-shapes FILE]
        [--held-out-shapes FILE]

The first writes `DIR/corpora/reader/chat_tuning5/` and, when the held-out shapes file exists,
`DIR/corpora/reader/chat_heldout3/` (DIR defaults to the repository), each an
`agent_messages.jsonl` and a `README.md`. The second writes the two shape files from one file of
all shapes.

The held-out part was labelled a second time, blind, and every disagreement decided against the
labelling rules (`corpora/reader/chat_heldout3/second_labelling/`): the shape files keep the
labels the split was drawn on, and the decisions are applied to the filled messages by id (a
changed label replaced, a dropped message left out), so the ids stay those both labellers read.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict
from reader_corpus_fresh import (
    ACT_LETTERS,
    CATALOG,
    FIELDS,
    ROOT,
    Shape,
    counts_section,
    fill,
    give_ids,
    read_shapes,
    root_parser,
    write_part,
)

from runner.core.reader_corpus import ACTS, held_out_by_group, load_labelled

HERE = Path(__file__).resolve().parent
SECOND_LABELLING = ROOT / "corpora" / "reader" / "chat_heldout3" / "second_labelling"
ADJUDICATION = SECOND_LABELLING / "adjudication.jsonl"
BLIND_LABELS = SECOND_LABELLING / "blind_labels.jsonl"
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


def write_split(
    all_shapes: Path, tuning_shapes: Path, held_out_shapes: Path, seed: int = SEED
) -> list[Path]:
    """Split one file of shapes into `tuning_shapes` and `held_out_shapes`."""
    tuning, held = split(read_shapes(all_shapes), seed)
    written = []
    for path, shapes in ((tuning_shapes, tuning), (held_out_shapes, held)):
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


LabelKey = Literal["asks", "proposes", "watched", "abstain_phrase", "acts"]
LABEL_KEYS: tuple[LabelKey, ...] = ("asks", "proposes", "watched", "abstain_phrase", "acts")
LabelValue = list[str] | bool


class Decision(BaseModel):
    """One disagreement between the author's and the second labeller's label of one field of one
    held-out message, and how it was decided against the labelling rules."""

    model_config = ConfigDict(extra="forbid")

    # In the order of the file's keys (id, field, both labels, decision, final label, reasons).
    id: str
    field: LabelKey
    author: LabelValue
    annotator: LabelValue
    decision: Literal["keep", "change", "drop"]
    label: LabelValue | None  # the final value (None when the message is dropped)
    rule: str  # the written rule that decides it, quoted briefly
    why: str
    schema_version: Literal[1] = 1  # lines without it are version 1


class BlindLabel(BaseModel):
    """The second labeller's label of one held-out message, written without the author's."""

    model_config = ConfigDict(extra="forbid")

    schema_version: Literal[1] = 1
    id: str
    asks: list[str]
    proposes: list[str]
    watched: list[str]
    abstain_phrase: bool
    acts: list[str]


def _same(key: LabelKey, a: LabelValue | None, b: LabelValue | None) -> bool:
    """Labels equal; the acts are a set (their order carries nothing)."""
    if key == "acts" and isinstance(a, list) and isinstance(b, list):
        return sorted(a) == sorted(b)
    return a == b


def adjudicate(messages: list[dict[str, Any]], path: Path) -> list[dict[str, Any]]:
    """The messages with the decisions of `path` applied: each decision must be about a message
    of the part whose label is the author's value it quotes; a changed field takes the decided
    label, a dropped message is left out."""
    by_id = {m["id"]: m for m in messages}
    dropped: set[str] = set()
    for number, decision in enumerate(load_labelled(Decision, path), 1):
        where = f"{path}:{number}: id {decision.id!r}, field {decision.field!r}"
        message = by_id.get(decision.id)
        if message is None:
            raise ValueError(f"{where}: no message of the part has this id")
        if not _same(decision.field, message[decision.field], decision.author):
            raise ValueError(
                f"{where}: the author's label is {message[decision.field]!r}, "
                f"not {decision.author!r}"
            )
        if decision.decision == "drop":
            dropped.add(decision.id)
        elif decision.label is None:
            raise ValueError(f"{where}: a {decision.decision} decision gives the final label")
        elif decision.decision == "keep" and not _same(
            decision.field, decision.label, decision.author
        ):
            raise ValueError(f"{where}: a kept label is the author's, not {decision.label!r}")
        else:
            message[decision.field] = decision.label
    return [m for m in messages if m["id"] not in dropped]


SECOND_LABELLING_NOTES = (
    "The decisions, by kind:",
    "",
    "- **Changed, `description` taken out** (c5h0029, c5h0063, c5h0072, c5h0125, c5h0128,",
    "  c5h0135, c5h0224, c5h0241, c5h0242, c5h0267): a pitch that names its title and asks for a",
    '  verdict but states no fact about the film ("Best fit: ... Accept?", "... or ..., both',
    '  solid. wich one?", "... would be perfect for a cosy night"). A description "states facts',
    '  about an item"; an opinion or a ranking is none (the author already labels the same bare',
    "  pitch in c5h0102 without it).",
    "- **Changed, `small_talk` added** (c5h0033, c5h0039, c5h0058, c5h0079, c5h0084, c5h0143,",
    "  c5h0153, c5h0174, c5h0258; c5h0114, c5h0133, c5h0180, c5h0233): a progress note after a",
    '  recap ("I search now.", "on it", "Leave it with me!", "Let me have a look.") or a',
    '  greeting or friendly opener before a question ("Hello!", "Happy to help you find',
    '  something to watch!"). Small talk is "greetings, thanks, closing pleasantries, progress',
    '  notes"; the author labels the same kind of close ("give me just a moment!") small talk in',
    "  c5h0240.",
    '- **Kept** (c5h0137, `watched`): "If you liked ..., this is similar style: ...". The second',
    "  labeller listed the liked title as seen; the rule lists the titles a message presents as",
    '  already seen ("Since you enjoyed ...") and keeps a compared title the user has not said',
    "  they saw out of both lists. A conditional presents nothing as seen.",
    '- **Dropped**: none. The closest call, the opener "Sounds like a cozy night in!" (c5h0133),',
    "  is decided by the act's name and list: social talk that states, asks and repeats back",
    "  nothing (an acknowledgement asks nothing, and this message asks), as in c5h0180.",
    "",
    "Every decision concerns the acts `description` and `small_talk` but one, which keeps the",
    "author's label: no field asked, title put forward or seen, abstention or reaction request",
    "differs from the author's labels.",
    "",
)


def _kappa(pairs: Sequence[tuple[bool, bool]]) -> str:
    """Cohen's kappa of two labellers' yes/no decisions ("n/a" when chance agreement is 1)."""
    n = len(pairs)
    observed = sum(a == b for a, b in pairs) / n
    yes_a = sum(a for a, _ in pairs) / n
    yes_b = sum(b for _, b in pairs) / n
    chance = yes_a * yes_b + (1 - yes_a) * (1 - yes_b)
    return "n/a" if chance == 1 else f"{(observed - chance) / (1 - chance):.3f}"


def second_labelling_section(
    author: list[dict[str, Any]],
    blind_path: Path,
    adjudication_path: Path,
    notes: Sequence[str] = SECOND_LABELLING_NOTES,
) -> list[str]:
    """A README's lines on the second, blind labelling: agreement before adjudication (the
    author's labels are the messages as filled from the shapes), the decisions' counts, then
    `notes` (the set's own account of its decisions). Both files sit in the README's
    `second_labelling/` folder."""
    blind = {b.id: b.model_dump() for b in load_labelled(BlindLabel, blind_path)}
    if sorted(blind) != sorted(m["id"] for m in author):
        raise ValueError(f"{blind_path}: its ids are not the held-out part's")
    pairs = [(m, blind[m["id"]]) for m in author]
    total = len(pairs)
    decisions = load_labelled(Decision, adjudication_path)
    lines = [
        "## Second labelling",
        "",
        "A second engineer labelled every message of this part again, blind: they saw only the",
        "messages' ids, voices and texts (not the shapes, labels or script) and the labelling rules",
        "(`corpora/reader/final/README.md`, the acts of `runner/core/reader_corpus.py`, the label",
        "model, the catalog), opened no reader code, and froze their labels by sha256",
        f"(`second_labelling/{blind_path.name}` and its `.sha256`, checked by a test) before reading",
        "the author's. Every disagreement, per message and field, was then decided by the written",
        "rules: the author right (keep), the second labeller right (change: the message takes the",
        "second label), or the rules undecided (drop: the message leaves the held-out share). The",
        "decisions, each with the rule that settles it, are "
        f"`second_labelling/{adjudication_path.name}`",
        "(kept in a folder of its own because every `.jsonl` beside this README is read as corpus",
        "lines); the script applies them to the filled messages by id.",
        "",
        "Agreement before adjudication (kappa: Cohen's, over the yes/no decisions the field is",
        "made of; not applicable to the proposed ids, an open set):",
        "",
        "| field | both labels equal | Cohen's kappa |",
        "|---|---|---|",
    ]
    for key in LABEL_KEYS:
        equal = sum(_same(key, m[key], b[key]) for m, b in pairs)
        if key in ("asks", "acts"):
            names = FIELDS if key == "asks" else ACTS
            kappa = _kappa([(n in m[key], n in b[key]) for m, b in pairs for n in names])
            made_of = "each field asked or not" if key == "asks" else "each act performed or not"
            kappa = f"{kappa} ({made_of}, {len(names)} × {total} decisions)"
        elif key == "proposes":
            kappa = "n/a"
        else:
            kappa = _kappa([(bool(m[key]), bool(b[key])) for m, b in pairs])
        lines.append(f"| `{key}` | {equal} / {total} | {kappa} |")
    lines += ["", "Per act, performed or not:", ""]
    lines += [
        f"- `{act}`: {sum((act in m['acts']) == (act in b['acts']) for m, b in pairs)} / {total},"
        f" kappa {_kappa([(act in m['acts'], act in b['acts']) for m, b in pairs])}"
        for act in ACTS
        if any(act in m["acts"] or act in b["acts"] for m, b in pairs)
    ]
    counts = {
        kind: sum(d.decision == kind for d in decisions) for kind in ("keep", "change", "drop")
    }
    lines += [
        "",
        f"Disagreements: {len(decisions)} (message and field) in "
        f"{len({d.id for d in decisions})} messages; kept {counts['keep']}, changed "
        f"{counts['change']}, dropped {counts['drop']}.",
        "",
        *notes,
    ]
    return lines


def adjudicated(
    shapes: list[Shape],
    messages: list[dict[str, Any]],
    blind_path: Path,
    adjudication_path: Path,
    notes: Sequence[str] = SECOND_LABELLING_NOTES,
) -> tuple[list[Shape], list[dict[str, Any]], list[str]]:
    """A held-out part after its second labelling: the shapes still in it, its messages with
    the decisions applied, and the README section on the agreement before them."""
    tail = second_labelling_section(copy.deepcopy(messages), blind_path, adjudication_path, notes)
    messages = adjudicate(messages, adjudication_path)
    kept = {m["_shape"] for m in messages}
    return [s for s in shapes if s.number in kept], messages, tail


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


def readme(
    part: str, shapes: list[Shape], messages: list[dict[str, Any]], tail: Sequence[str] = ()
) -> str:
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
            "frozen; do not copy or paraphrase its messages into a tuning file. Its labels were\n"
            "checked by a second, blind labeller and every disagreement decided by the rules\n"
            '(section "Second labelling"). Its shapes entered the repository only after the\n'
            "tuning part's commit (96a1979).",
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
    return "\n".join([head, *counts_section(shapes, messages), *tail])


def write(
    root: Path, held_out_shapes: Path, seed: int = SEED, adjudication: Path = ADJUDICATION
) -> list[Path]:
    """Write the tuning part, and the held-out part when its shapes exist (with the second
    labelling's decisions applied); returns the files."""
    catalog = sorted(json.loads(CATALOG.read_text(encoding="utf-8")), key=lambda m: m["id"])
    sources = {"tuning": PARTS["tuning"][2], "held_out": held_out_shapes}
    written: list[Path] = []
    for part, source in sources.items():
        if not source.exists():
            continue
        shapes = read_shapes(source)
        messages = fill_part(part, shapes, catalog, seed)
        tail: list[str] = []
        if part == "held_out":
            shapes, messages, tail = adjudicated(shapes, messages, BLIND_LABELS, adjudication)
        folder = root / "corpora" / "reader" / PARTS[part][0]
        written += write_part(folder, messages, readme(part, shapes, messages, tail))
    return written


def main() -> None:
    parser = root_parser(__doc__ or "")
    parser.add_argument(
        "--held-out-shapes",
        type=Path,
        default=PARTS["held_out"][2],
        help="the held-out shapes file (the held-out part is skipped when it does not exist)",
    )
    parser.add_argument(
        "--adjudication",
        type=Path,
        default=ADJUDICATION,
        help="the decided disagreements of the second labelling, applied to the held-out part",
    )
    parser.add_argument(
        "--split", type=Path, help="split this file of all shapes into the two shape files"
    )
    parser.add_argument(
        "--tuning-shapes",
        type=Path,
        default=PARTS["tuning"][2],
        help="with --split: where the tuning shapes are written",
    )
    args = parser.parse_args()
    if args.split:
        written = write_split(args.split, args.tuning_shapes, args.held_out_shapes)
    else:
        try:
            written = write(args.root, args.held_out_shapes, adjudication=args.adjudication)
        except ValueError as exc:  # a bad shape, blind label or decision: its file and line
            raise SystemExit(f"error: {exc}") from None
    for path in written:
        print(path)


if __name__ == "__main__":
    main()
