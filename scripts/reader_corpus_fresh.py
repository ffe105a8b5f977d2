"""Fill and split the fresh movies reader corpus of issue 37 (`chat_tuning4`, `chat_heldout2`).

The message shapes live in `reader_corpus_fresh_shapes.txt` next to this script: one template a
line with its labels (fields asked, acts) and title/fact slots. Each shape is filled one to three
times with different titles of the catalog snapshot and their real facts (a compared title shares
the pitched title's lead genre); a shape without slots is written once. The split is by shape, so
no held-out message is a filled twin of a tuning one: shapes are grouped by the acts they perform,
each group shuffled with a fixed seed, and half of each group (rounded up) held out. Same shapes,
same catalog, same seed: byte-identical files.

    python scripts/reader_corpus_fresh.py [--root DIR]

writes `DIR/corpora/reader/chat_tuning4/` and `DIR/corpora/reader/chat_heldout2/` (DIR defaults
to the repository), each an `agent_messages.jsonl` and a `README.md`.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from domains.movies.simulators.reader_score import CORPUS_FIELDS
from runner.core.reader_corpus import held_out_by_group

ROOT = Path(__file__).resolve().parents[1]
SHAPES = Path(__file__).with_name("reader_corpus_fresh_shapes.txt")
CATALOG = ROOT / "catalog_pipeline" / "snapshots" / "2026-11-01" / "catalog.json"
SEED = 3704
FIELDS = CORPUS_FIELDS
ACT_LETTERS = {
    "p": "proposal",
    "r": "reaction_request",
    "q": "preference_question",
    "d": "description",
    "c": "comparison",
    "a": "abstention",
    "s": "small_talk",
    "k": "acknowledgement",
}
PARTS = {"tuning": ("chat_tuning4", "c4t"), "held_out": ("chat_heldout2", "c4h")}
# {T} / {U:rt} / {rt}: a title slot (T, U put forward; C compared; W seen; X ruled out), or a
# fact of a title (of T when no title is named).
SLOT = re.compile(r"\{(?:([TUCWX])(?::([a-z0-9]+))?|([a-z][a-z0-9]*))\}")
TITLE_SLOTS = "TUCWX"
PUT_FORWARD = "TU"
FACT_FIELD = {
    "g": "genres",
    "ag": "genres",
    "g2": "genres",
    "rt": "runtime",
    "score": "rating",
    "votes": "vote_count",
    "cr": "content_rating",
    "svc": "streaming_services",
    "year": "release_date",
    "actor": "cast",
    "actor2": "cast",
    "dir": "director",
}
# Words that name a field without a fact slot, for the README's counts of messages that mention
# a field and ask nothing about it (a count, not a label).
FIELD_WORDS = {
    "genres": r"genre|comedy|thriller|horror|drama|funny|scary|mood|vibe|romantic",
    "runtime": r"minute|\bmin\b|long\b|length|short|hour|runtime|\bhrs\b",
    "rating": r"review|score|critic|\brating\b|stars",
    "vote_count": r"popular|votes|known|\bgem\b|obscure|ratings",
    "content_rating": r"rated|kids|children|family|adults|age rating|scary|violence",
    "streaming_services": r"stream|netflix|hulu|service|\bapps?\b|subscri|platform|prime",
    "release_date": r"year|recent|\bnew\b|\bold\b|released|\bera\b|came out",
    "cast": r"actor|actress|starring|\bstars\b|\bcast\b",
    "director": r"director|directed|\bdir\b|auteur|realised by|work of",
}
KID_RATINGS = {"G", "PG"}
KID_GENRES = {"Family", "Animation"}


@dataclass(frozen=True)
class Shape:
    number: int  # its line in the shapes file
    voice: str
    asks: tuple[str, ...]
    acts: tuple[str, ...]
    text: str

    @property
    def slots(self) -> list[tuple[str, str | None]]:
        """(title slot, fact or None) in the order they appear."""
        return [(m[1] or "T", m[2] or m[3]) for m in SLOT.finditer(self.text)]

    @property
    def filled(self) -> bool:
        return bool(self.slots)

    def mentions(self) -> set[str]:
        """Fields the shape names (by a fact slot or a field word) without asking them."""
        text = SLOT.sub(" ", self.text).replace("\\n", " ")
        found = {FACT_FIELD[fact] for _, fact in self.slots if fact}
        found |= {f for f, words in FIELD_WORDS.items() if re.search(words, text, re.IGNORECASE)}
        return found - set(self.asks)


def read_shapes(path: Path = SHAPES) -> list[Shape]:
    """Every shape of the file; a bad line names the file, the line and the bad value."""
    shapes: list[Shape] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = [p.strip() for p in line.split(" | ", 3)]
        if len(parts) != 4:
            raise ValueError(f"{path}:{number}: want 'voice | asks | acts | text', got {line!r}")
        voice, asks_text, letters, text = parts
        asks = () if asks_text == "-" else tuple(asks_text.split(","))
        for field in asks:
            if field not in FIELDS:
                raise ValueError(f"{path}:{number}: asks: unknown field {field!r}")
        for letter in letters:
            if letter not in ACT_LETTERS:
                raise ValueError(f"{path}:{number}: acts: unknown letter {letter!r}")
        shape = Shape(number, voice, asks, tuple(ACT_LETTERS[x] for x in letters), text)
        for _, fact in shape.slots:
            if fact is not None and fact not in FACT_FIELD:
                raise ValueError(f"{path}:{number}: text: unknown fact slot {fact!r}")
        shapes.append(shape)
    return shapes


def _fact(movie: dict[str, Any], fact: str) -> str:
    genres: list[str] = movie["genres"]
    if fact == "g":
        return genres[0].lower()
    if fact == "g2":
        return genres[1].lower()
    if fact == "ag":
        lead = genres[0].lower()
        return ("an " if lead[0] in "aeiou" else "a ") + lead
    if fact == "rt":
        return str(movie["runtime"])
    if fact == "score":
        return f"{movie['rating']:.1f}"
    if fact == "votes":
        return str(movie["vote_count"])
    if fact == "cr":
        return str(movie["content_rating"])
    if fact == "svc":
        return str(movie["streaming_services"][0])
    if fact == "year":
        return str(movie["release_date"][:4])
    if fact in ("actor", "actor2"):
        return str(movie["cast"][0 if fact == "actor" else 1])
    return str(movie["director"])


def _fits(movie: dict[str, Any], facts: set[str], voice: str) -> bool:
    if "svc" in facts and not movie["streaming_services"]:
        return False
    if "g2" in facts and len(movie["genres"]) < 2:
        return False
    if "actor2" in facts and len(movie["cast"]) < 2:
        return False
    if not movie["genres"] or not movie["cast"] or not movie["director"]:
        return False
    if voice == "kid" and not (
        movie["content_rating"] in KID_RATINGS or KID_GENRES & set(movie["genres"])
    ):
        return False
    return bool(movie["release_date"])


def fill(
    shape: Shape, catalog: list[dict[str, Any]], rng: random.Random, used: set[str]
) -> dict[str, Any]:
    """One message of a shape, its titles drawn from the catalog (`used`: ids this shape's other
    fills already put forward, never drawn again for {T})."""
    facts: dict[str, set[str]] = {s: set() for s in TITLE_SLOTS}
    for slot, fact in shape.slots:
        if fact:
            facts[slot].add(fact)
    chosen: dict[str, dict[str, Any]] = {}
    for slot in TITLE_SLOTS:
        if not any(s == slot for s, _ in shape.slots):
            continue
        taken = {m["id"] for m in chosen.values()} | (used if slot == "T" else set())
        pool = [
            m
            for m in catalog
            if m["id"] not in taken
            and _fits(m, facts[slot], shape.voice)
            and (slot != "C" or "T" not in chosen or m["genres"][0] == chosen["T"]["genres"][0])
        ]
        if not pool:
            raise ValueError(f"{SHAPES}:{shape.number}: no catalog title fits slot {slot}")
        chosen[slot] = rng.choice(pool)

    def render(match: re.Match[str]) -> str:
        slot, fact = match[1] or "T", match[2] or match[3]
        movie = chosen[slot]
        return str(movie["title"]) if fact is None else _fact(movie, fact)

    text = SLOT.sub(render, shape.text).replace("\\n", "\n")
    order = [s for s, f in shape.slots if f is None]
    proposes = [chosen[s]["id"] for s in dict.fromkeys(order) if s in PUT_FORWARD]
    return {
        "schema_version": 2,
        "id": "",
        "register": shape.voice,
        "text": text,
        "asks": list(shape.asks),
        "proposes": proposes,
        "watched": [chosen["W"]["id"]] if "W" in chosen else [],
        "abstain_phrase": "abstention" in shape.acts,
        "acts": list(shape.acts),
    }


def held_out(shapes: list[Shape], seed: int = SEED) -> set[int]:
    """Line numbers of the held-out shapes: half of each group of shapes with the same acts
    (rounded up), drawn with a fixed seed. Preference questions are grouped by the fields they
    ask as well, so that each field's questions are split in half, not at random."""
    groups = [(*sorted(shape.acts), "|", *shape.asks) for shape in shapes]
    held = held_out_by_group(groups, seed, lambda size: math.ceil(size / 2))
    return {shapes[position].number for position in held}


def build(seed: int = SEED) -> dict[str, tuple[list[Shape], list[dict[str, Any]]]]:
    """Each part's shapes and messages (ids given, lines shuffled)."""
    shapes = read_shapes()
    catalog = sorted(json.loads(CATALOG.read_text(encoding="utf-8")), key=lambda m: m["id"])
    rng = random.Random(seed)
    held = held_out(shapes, seed)
    parts: dict[str, tuple[list[Shape], list[dict[str, Any]]]] = {p: ([], []) for p in PARTS}
    for shape in shapes:
        part = "held_out" if shape.number in held else "tuning"
        parts[part][0].append(shape)
        used: set[str] = set()
        for _ in range(rng.choice((2, 3, 3, 3, 3)) if shape.filled else 1):
            message = fill(shape, catalog, rng, used)
            used.update(message["proposes"])
            message["_shape"] = shape.number
            parts[part][1].append(message)
    for part, (_, messages) in parts.items():
        give_ids(messages, PARTS[part][1], rng)
    return parts


def give_ids(messages: list[dict[str, Any]], prefix: str, rng: random.Random) -> None:
    """Shuffle a part's messages with `rng` and number them `<prefix>0001`, ... in that order."""
    rng.shuffle(messages)
    for number, message in enumerate(messages, 1):
        message["id"] = f"{prefix}{number:04d}"


def write_part(folder: Path, messages: list[dict[str, Any]], readme_text: str) -> list[Path]:
    """Write one part: its messages as JSON lines (without the `_shape` they carry) and its
    README; returns the two files."""
    folder.mkdir(parents=True, exist_ok=True)
    jsonl = folder / "agent_messages.jsonl"
    jsonl.write_text(
        "".join(
            json.dumps({k: v for k, v in m.items() if k != "_shape"}, ensure_ascii=False) + "\n"
            for m in messages
        ),
        encoding="utf-8",
    )
    (folder / "README.md").write_text(readme_text, encoding="utf-8")
    return [jsonl, folder / "README.md"]


README_HEAD = """# Reader corpus — {title}

{role}

Written for issue 37 by a fourth author, blind: before and while writing it the author read only
`corpora/README.md`, `corpora/reader/final/README.md` (the labelling rules, followed here),
`runner/core/reader_corpus.py` (the acts and `check_acts`), the label model `LabelledMessage` of
`domains/movies/simulators/reader_score.py`, the catalog snapshot
`catalog_pipeline/snapshots/2026-11-01/catalog.json` and the first lines of
`corpora/reader/chat_tuning3/agent_messages.jsonl` for the line format. No reader code, vocabulary,
agent wording, benchmark or reader test was opened, and the reader was never run on these messages.

The messages come from {n_shapes} hand-written shapes (`scripts/reader_corpus_fresh_shapes.txt`),
each a template with title and fact slots and one label, filled one to three times by
`scripts/reader_corpus_fresh.py` (seed {seed}) with catalog titles and their real facts; a compared
title shares the pitched title's lead genre; a shape with no slot is written once. The split is by
shape: shapes grouped by the acts they perform (and a question's shapes by the fields it asks),
each group shuffled with the seed, half of each group (rounded up) held out, so no message here
has a filled twin in the other part. The two parts together hold {n_all_shapes} shapes and {n_all} messages; this part {n_shapes} shapes and {n}
messages (`{prefix}0001` …, lines shuffled). Regenerate with the script; a test checks the files
are exactly what it writes.

Voices (none of them in the earlier corpora): `gpt` (a chat model's default register: headings,
bold, bullet options, "Would you like me to…"), `voice` (a smart-speaker transcript, no
punctuation), `email` (a formal letter), `sms` (lowercase, abbreviations), `fr`, `ja`, `pt`
(English written by a French, Japanese and Portuguese speaker), `kid` (a children's app; its
titles are rated G or PG or are family or animation films), `cinephile` (film-school jargon),
`friend` (a casual friend, some typos), `hotel` (a concierge), `quiz` (numbered or lettered
multiple choice), `dev` (a developer's bot: key: value lines, JSON).

Registers (issue 37, bullet 5): reaction requests after a pitch in many forms, offers to act
("Would you like me to check where it's streaming?"), long pitches stating genre, runtime, year,
age rating, score, votes, cast and director, checks folded into a pitch straight after one fact,
mood and vibe menus, bullet questionnaires with a closing line, loosening offers that name
fields, "nothing fits" abstentions (some with a near miss), comparisons, choices between two
titles, acknowledgements and recaps full of field words that ask nothing, small talk and closing
pleasantries, typos and non-native English.
"""


def readme(
    part: str, shapes: list[Shape], messages: list[dict[str, Any]], total: tuple[int, int]
) -> str:
    title, role = (
        (
            "fresh tuning part (`chat_tuning4`)",
            "**May be tuned on.** Its held-out twin set is `chat_heldout2`.",
        )
        if part == "tuning"
        else (
            "fresh held-out part (`chat_heldout2`)",
            "**Held out: never tuned on.** Read its figures only after a reader version is\n"
            "frozen; do not copy or paraphrase its messages into a tuning file.",
        )
    )
    head = README_HEAD.format(
        title=title,
        role=role,
        n_shapes=len(shapes),
        n_all_shapes=total[0],
        n_all=total[1],
        n=len(messages),
        seed=SEED,
        prefix=PARTS[part][1],
    )
    return "\n".join([head, *counts_section(shapes, messages)])


def counts_section(shapes: list[Shape], messages: list[dict[str, Any]]) -> list[str]:
    """A README's lines counting, per field, the shapes and messages that ask it and those that
    name it without asking, then the acts and voices (messages carry their shape's `_shape`)."""
    by_number = {s.number: s for s in shapes}
    counts = _counts(by_number, messages)
    lines = [
        "## Counts",
        "",
        "Per field: shapes and messages that ask it, and shapes and messages that name it (by a",
        "fact or a field word, counted by the script) without asking it.",
        "",
        "| field | asking shapes | asking messages | non-asking shapes | non-asking messages |",
        "|---|---|---|---|---|",
    ]
    for field in FIELDS:
        a_s, a_m, n_s, n_m = counts[field]
        lines.append(f"| `{field}` | {a_s} | {a_m} | {n_s} | {n_m} |")
    acts = Counter(a for m in messages for a in m["acts"])
    voices = Counter(m["register"] for m in messages)
    lines += [
        "",
        "Acts (messages): " + ", ".join(f"`{a}` {acts[a]}" for a in sorted(acts)) + ".",
        "Reaction requests that ask no field: "
        f"{sum(1 for m in messages if 'reaction_request' in m['acts'] and not m['asks'])}.",
        "Voices (messages): " + ", ".join(f"`{v}` {voices[v]}" for v in sorted(voices)) + ".",
        "",
    ]
    return lines


def _counts(
    by_number: dict[int, Shape], messages: list[dict[str, Any]]
) -> dict[str, tuple[int, int, int, int]]:
    shapes = list(by_number.values())
    out: dict[str, tuple[int, int, int, int]] = {}
    fills = Counter(int(m["_shape"]) for m in messages)
    for field in FIELDS:
        asking = [s for s in shapes if field in s.asks]
        naming = [s for s in shapes if field in s.mentions()]
        out[field] = (
            len(asking),
            sum(fills[s.number] for s in asking),
            len(naming),
            sum(fills[s.number] for s in naming),
        )
    return out


def write(root: Path, seed: int = SEED) -> list[Path]:
    """Write both parts under `root`; returns the files written."""
    parts = build(seed)
    total = (
        sum(len(s) for s, _ in parts.values()),
        sum(len(m) for _, m in parts.values()),
    )
    written: list[Path] = []
    for part, (shapes, messages) in parts.items():
        folder = root / "corpora" / "reader" / PARTS[part][0]
        written += write_part(folder, messages, readme(part, shapes, messages, total))
    return written


def root_parser(doc: str) -> argparse.ArgumentParser:
    """A corpus script's command line: `--root`, where `corpora/` is written."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="where corpora/ is written")
    return parser


def main() -> None:
    for path in write(root_parser(__doc__ or "").parse_args().root):
        print(path)


if __name__ == "__main__":
    main()
