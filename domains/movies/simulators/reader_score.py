"""Scores a reader against a labelled corpus of agent messages: per-field recall and precision, proposals, false leaves."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Literal, Protocol, get_args

from pydantic import BaseModel, ConfigDict, Field

from domains.movies.simulators.reader import Reading
from runner.core.paths import PROJECT_ROOT

__all__ = [
    "CORPUS_FIELDS",
    "CORPUS_NAMES",
    "CORPUS_SNAPSHOT",
    "READER_CORPORA",
    "LabelledMessage",
    "ReaderScore",
    "load_corpus",
    "score_corpora",
    "score_reader",
]

READER_CORPORA = PROJECT_ROOT / "corpora" / "reader"
# tuning: the rules were written against it; heldout: measured once, then tuned against;
# final: never tuned against (the published figure).
CORPUS_NAMES: tuple[str, ...] = ("tuning", "heldout", "final")
# The snapshot whose titles, ids and people the corpora were written on.
CORPUS_SNAPSHOT = "2026-11-01"

CorpusField = Literal[
    "genres",
    "runtime",
    "rating",
    "vote_count",
    "content_rating",
    "streaming_services",
    "release_date",
    "cast",
    "director",
]
# The labelled fields, in the order the scores list them (one definition: the Literal).
CORPUS_FIELDS: tuple[str, ...] = get_args(CorpusField)


class LabelledMessage(BaseModel):
    """One agent message with what it asks and proposes, labelled by hand."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    id: str
    style: str = Field(alias="register", description="The way the message is written")
    text: str
    asks: list[CorpusField]
    proposes: list[str]
    watched: list[str] = Field(default_factory=list)
    abstain_phrase: bool = False


class _Reader(Protocol):
    def read(
        self, text: str, *, watched: frozenset[str] = ..., pending: str | None = ...
    ) -> Reading: ...


class ReaderScore(BaseModel):
    """How a reader did on a corpus."""

    model_config = ConfigDict(extra="forbid")

    messages: int
    recall: dict[str, float] = Field(description="Per field: asked and found / asked")
    precision: dict[str, float] = Field(description="Per field: asked and found / found")
    support: dict[str, int] = Field(description="Per field: messages labelled as asking it")
    proposals_exact: float = Field(description="Share of messages whose proposed set is exact")
    false_leaves: int = Field(description="Messages proposing at most one title read as several")
    nothing_fits_found: int
    nothing_fits_labelled: int
    reaction_requests: int = Field(
        default=0,
        description="Messages that put a title forward and ask a question, labelled as asking no "
        'field: they ask for a reaction to the title ("does that sound good?")',
    )
    reactions_as_questions: int = Field(
        default=0, description="Reaction requests the reader read as preference questions"
    )
    errors: list[str] = Field(description="One line per disagreement")

    @property
    def false_leave_share(self) -> float:
        return self.false_leaves / self.messages if self.messages else 0.0

    @property
    def reactions_heard(self) -> float:
        """Share of reaction requests not read as preference questions (1.0 with none)."""
        if not self.reaction_requests:
            return 1.0
        return 1 - self.reactions_as_questions / self.reaction_requests

    def format_text(self) -> str:
        lines = [f"messages: {self.messages}", "field                recall  precision  support"]
        for field in CORPUS_FIELDS:
            lines.append(
                f"{field:<20} {self.recall[field]:>6.3f}  {self.precision[field]:>9.3f}  "
                f"{self.support[field]:>7}"
            )
        lines.append(f"proposed set exact: {self.proposals_exact:.3f}")
        lines.append(
            f"false leaves: {self.false_leaves} ({self.false_leave_share:.2%} of messages)"
        )
        lines.append(
            f"reaction requests read as preference questions: {self.reactions_as_questions}/"
            f"{self.reaction_requests} ({self.reactions_heard:.1%} heard as reactions)"
        )
        lines.append(
            f"nothing-fits wording recognised: {self.nothing_fits_found}/"
            f"{self.nothing_fits_labelled} (it shapes the reply only; recommend() decides)"
        )
        return "\n".join(lines)


def load_corpus(*paths: Path) -> list[LabelledMessage]:
    """Every labelled message of the given JSONL files (a bad line names its file and line)."""
    out: list[LabelledMessage] = []
    for path in paths:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                out.append(LabelledMessage.model_validate(json.loads(line)))
            except ValueError as exc:
                raise ValueError(f"{path}:{number}: {exc}") from None
    return out


def score_reader(reader: _Reader, corpus: list[LabelledMessage]) -> ReaderScore:
    """Read every message and compare with its labels."""
    tp: Counter[str] = Counter()
    fp: Counter[str] = Counter()
    fn: Counter[str] = Counter()
    errors: list[str] = []
    exact = leaves = found_nf = labelled_nf = reactions = misread = 0
    for m in corpus:
        reading = reader.read(m.text, watched=frozenset(m.watched))
        got = set(reading.asked) & set(CORPUS_FIELDS)
        want = set(m.asks)
        for f in got & want:
            tp[f] += 1
        for f in sorted(got - want):
            fp[f] += 1
            errors.append(f"{m.id}: read as asking {f}: {m.text!r}")
        for f in sorted(want - got):
            fn[f] += 1
            errors.append(f"{m.id}: missed a question on {f}: {m.text!r}")
        if set(reading.proposed) == set(m.proposes):
            exact += 1
        else:
            errors.append(f"{m.id}: proposed {list(reading.proposed)}, labelled {m.proposes}")
        if len(reading.proposed) > 1 and len(m.proposes) <= 1:
            leaves += 1
        if m.proposes and not m.asks and "?" in m.text:
            reactions += 1
            misread += bool(got)
        labelled_nf += m.abstain_phrase
        found_nf += m.abstain_phrase and reading.nothing_fits
    return ReaderScore(
        messages=len(corpus),
        recall={f: tp[f] / (tp[f] + fn[f]) if tp[f] + fn[f] else 1.0 for f in CORPUS_FIELDS},
        precision={f: tp[f] / (tp[f] + fp[f]) if tp[f] + fp[f] else 1.0 for f in CORPUS_FIELDS},
        support={f: tp[f] + fn[f] for f in CORPUS_FIELDS},
        proposals_exact=exact / len(corpus) if corpus else 1.0,
        false_leaves=leaves,
        nothing_fits_found=found_nf,
        nothing_fits_labelled=labelled_nf,
        reaction_requests=reactions,
        reactions_as_questions=misread,
        errors=errors,
    )


def score_corpora(reader: _Reader, root: Path = READER_CORPORA) -> dict[str, ReaderScore]:
    """The reader's score on each corpus folder present under `root` (tuning, heldout, final)."""
    out: dict[str, ReaderScore] = {}
    for name in CORPUS_NAMES:
        paths = sorted((root / name).glob("*.jsonl"))
        if paths:
            out[name] = score_reader(reader, load_corpus(*paths))
    return out
