"""The shopper's reader scored on the labelled grocery corpora, share by share (tuning, held out): per-topic recall and precision, reaction requests, products put forward, confirm requests, false leaves."""

from __future__ import annotations

from pathlib import Path
from typing import Literal, Protocol, get_args

from pydantic import BaseModel, ConfigDict, Field, model_validator

from domains.grocery.testing import tiny_catalog
from domains.grocery.user import shopper_reader
from domains.grocery.user.vocabulary import Topic
from runner.core import reader_corpus as rc
from runner.core.paths import PROJECT_ROOT
from runner.core.reader_corpus import Act, ShareName, ShareScore

__all__ = [
    "GROCERY_CORPORA",
    "SHARE_FILES",
    "TOPIC_FIELDS",
    "GroceryLabelledMessage",
    "judge_grocery",
    "load_grocery_corpus",
    "score_grocery_shares",
]

GROCERY_CORPORA = PROJECT_ROOT / "corpora" / "grocery" / "reader"
# messages.jsonl: the first 155 (the reader was written against them); chat_tuning and
# chat_heldout: issue 37's registers, split by message shape; chat_heldout was held out until
# its figures had guided chat_tuning2, then moved to the tuning share (corpora/README.md).
# chat_tuning3 and chat_heldout2: a fresh set written blind by another author, split by shape;
# chat_heldout2 was held out until it had been measured twice (ddce1ae, 1af899c), then moved to
# the tuning share. chat_tuning4: the tuning part of a fourth set written blind by another
# author; chat_heldout3: its held-out part (each shape filled once, labelled a second time blind
# and adjudicated before it was first measured), held out until its one measurement (5c6d1ad),
# then moved to the tuning share when the sixth round tuned against it. chat_heldout4: a fifth
# author's set written blind, each shape filled once, labelled a second time blind and
# adjudicated before it was first measured, held out until its one measurement (e051dd3), then
# moved to the tuning share when the seventh round tuned against it. chat_heldout5: a sixth
# author's set written blind, each shape filled once, labelled a second time blind and adjudicated
# before it was first measured: the held-out share, never tuned on.
# Labelled on `tiny_catalog()`.
SHARE_FILES: dict[ShareName, tuple[str, ...]] = {
    "tuning": (
        "messages.jsonl",
        "chat_tuning/messages.jsonl",
        "chat_heldout/messages.jsonl",
        "chat_tuning2/messages.jsonl",
        "chat_tuning3/messages.jsonl",
        "chat_heldout2/messages.jsonl",
        "chat_tuning4/messages.jsonl",
        "chat_heldout3/messages.jsonl",
        "chat_heldout4/messages.jsonl",
    ),
    "held_out": ("chat_heldout5/messages.jsonl",),
}
TOPIC_FIELDS: tuple[str, ...] = get_args(Topic)
Confirm = Literal["order", "return", "substitution"]


class GroceryLabelledMessage(BaseModel):
    """One shop-assistant message with the topics it asks, the products it puts forward (by
    name), the confirm request it makes and (version 2) the acts it performs."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    schema_version: Literal[1, 2] = 1
    id: str = ""
    style: str = Field(default="", alias="register", description="The way it is written")
    text: str
    asked: list[Topic]
    proposed: list[str]
    confirm: Confirm | None
    acts: list[Act] = Field(default_factory=list)

    @model_validator(mode="after")
    def _acts_agree(self) -> GroceryLabelledMessage:
        if self.schema_version == 1 and self.acts:
            raise ValueError("acts are labelled from schema_version 2 on")
        if self.schema_version == 2:
            if not self.id:
                raise ValueError("a version-2 label has an id")
            rc.check_acts(
                self.acts, bool(self.asked), bool(self.proposed), "abstention" in self.acts
            )
            if (self.confirm is not None) != ("confirmation" in self.acts):
                raise ValueError(f"acts {self.acts}: 'confirmation' must be listed iff confirm")
        return self


def load_grocery_corpus(*paths: Path) -> list[GroceryLabelledMessage]:
    """Every labelled message of the given JSONL files (a bad line names its file and line); a
    version-1 line without an id is named by its file and line."""
    out: list[GroceryLabelledMessage] = []
    for path in paths:
        rows = rc.load_labelled(GroceryLabelledMessage, path)
        out += [
            r if r.id else r.model_copy(update={"id": f"{path.name}:{n}"})
            for n, r in enumerate(rows, 1)
        ]
    return out


class _Reading(Protocol):
    @property
    def asked(self) -> tuple[str, ...]: ...
    @property
    def proposed(self) -> tuple[str, ...]: ...
    @property
    def confirm(self) -> str | None: ...
    @property
    def nothing_fits(self) -> bool: ...


class _Reader(Protocol):
    def read(self, text: str) -> _Reading: ...


def judge_grocery(reader: _Reader, corpus: list[GroceryLabelledMessage]) -> list[rc.Judged]:
    """Each labelled message beside what the reader heard in it (for `rc.score_share`)."""
    by_name = {p.name: p.id for p in tiny_catalog().items}
    judged = []
    for m in corpus:
        unknown = [n for n in m.proposed if n not in by_name]
        if unknown:
            raise ValueError(f"{m.id}: proposed {unknown} are not products of tiny_catalog()")
        reading = reader.read(m.text)
        judged.append(
            rc.Judged(
                id=m.id,
                text=m.text,
                acts=tuple(m.acts),
                want_asks=frozenset(m.asked),
                got_asks=frozenset(reading.asked),
                want_proposed=frozenset(by_name[n] for n in m.proposed),
                got_proposed=frozenset(reading.proposed),
                abstain_labelled="abstention" in m.acts,
                abstain_found=reading.nothing_fits,
                want_confirm=m.confirm,
                got_confirm=reading.confirm,
            )
        )
    return judged


def score_grocery_shares(
    reader: _Reader | None = None, root: Path = GROCERY_CORPORA
) -> dict[ShareName, ShareScore]:
    """The shopper's reader (the offline one by default) on the tuning and the held-out share."""
    reader = reader or shopper_reader(tiny_catalog())
    out: dict[ShareName, ShareScore] = {}
    for share, files in SHARE_FILES.items():
        corpus = load_grocery_corpus(*(root / f for f in files))
        out[share] = rc.score_share(
            share, list(files), TOPIC_FIELDS, judge_grocery(reader, corpus), confirms=True
        )
    return out
