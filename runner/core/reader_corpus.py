"""A simulated user's reader scored on a share of labelled agent messages: per-field question recall and precision, reaction requests kept apart from preference questions, proposals, false leaves.

Every domain's corpora are split into a **tuning share** (messages the reader's rules may be
written against) and a **held-out share** (never tuned on; the figures the site publishes). A
domain reads its own label files and hands each message here as a `Judged`: what it was labelled
with and what the reader heard. The acts a message performs (label schema version 2) are the
closed set `ACTS`; a *reaction request* ("Does that sound like your kind of thing?") asks for a
verdict on what was put forward and must never be heard as a preference question.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, TypeVar, get_args

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "ACTS",
    "LABEL_SCHEMA_VERSION",
    "SHARES",
    "Act",
    "Judged",
    "ShareName",
    "ShareScore",
    "check_acts",
    "load_labelled",
    "score_share",
]

Act = Literal[
    "proposal",  # puts an item forward
    "reaction_request",  # asks for a verdict on what was put forward ("sound good?")
    "preference_question",  # asks about one or more preference fields (the labelled asks)
    "description",  # states facts about an item (genre, plot, runtime, price, ...)
    "comparison",  # likens an item to another one
    "abstention",  # says that nothing fits
    "small_talk",  # greetings, thanks, closing pleasantries, progress notes
    "acknowledgement",  # repeats back what the user said, asking nothing
    "confirmation",  # asks leave to act: place the order, make the return, substitute
]
ACTS: tuple[str, ...] = get_args(Act)
# Version 1: fields asked and items put forward only; version 2 adds the acts.
LABEL_SCHEMA_VERSION = 2
ShareName = Literal["tuning", "held_out"]
SHARES: tuple[ShareName, ...] = get_args(ShareName)


Label = TypeVar("Label", bound=BaseModel)


def held_out_by_group(
    groups: Sequence[tuple[str, ...]], seed: int, take: Callable[[int], int]
) -> set[int]:
    """The positions held out of a corpus split by shape: `groups[i]` is shape i's group, each
    group (in sorted order) is shuffled by one generator seeded with `seed`, and its first
    `take(size)` members are held out - so no filled twin of a held-out shape is tuned on."""
    members: dict[tuple[str, ...], list[int]] = {}
    for position, group in enumerate(groups):
        members.setdefault(group, []).append(position)
    rng = random.Random(seed)
    held: set[int] = set()
    for group in sorted(members):
        drawn = members[group]
        rng.shuffle(drawn)
        held.update(drawn[: take(len(drawn))])
    return held


def load_labelled(model: type[Label], *paths: Path) -> list[Label]:
    """Every labelled message of the given JSONL files as `model` (a bad line names its file and
    line; blank lines are skipped)."""
    out: list[Label] = []
    for path in paths:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                out.append(model.model_validate(json.loads(line)))
            except ValueError as exc:
                raise ValueError(f"{path}:{number}: {exc}") from None
    return out


def check_acts(acts: Sequence[str], asks: bool, proposes: bool, abstains: bool) -> None:
    """Raise ValueError when a version-2 label's acts disagree with its other labels."""
    if not acts:
        raise ValueError("a version-2 label lists the acts the message performs (acts: [...])")
    if asks != ("preference_question" in acts):
        raise ValueError(f"acts {list(acts)}: 'preference_question' must be listed iff it asks")
    if proposes and "proposal" not in acts:
        raise ValueError(f"acts {list(acts)}: a message that puts an item forward is a 'proposal'")
    if abstains != ("abstention" in acts):
        raise ValueError(f"acts {list(acts)}: 'abstention' must be listed iff it says none fits")


@dataclass(frozen=True)
class Judged:
    """One labelled message and what the reader heard in it."""

    id: str
    text: str
    acts: tuple[str, ...]  # empty for a version-1 label
    want_asks: frozenset[str]
    got_asks: frozenset[str]
    want_proposed: frozenset[str]
    got_proposed: frozenset[str]
    abstain_labelled: bool = False
    abstain_found: bool = False
    want_confirm: str | None = None
    got_confirm: str | None = None


class ShareScore(BaseModel):
    """How a reader did on one share (or one corpus) of labelled messages."""

    model_config = ConfigDict(extra="forbid")

    schema_version: Literal[1] = 1
    share: str = Field(description="The share or corpus scored, e.g. 'held_out'")
    corpora: list[str] = Field(description="The label files (or folders) it is made of")
    messages: int
    recall: dict[str, float] = Field(description="Per field: asked and found / asked")
    precision: dict[str, float] = Field(description="Per field: asked and found / found")
    support: dict[str, int] = Field(description="Per field: messages labelled as asking it")
    proposals_exact: float = Field(description="Share of messages whose proposed set is exact")
    false_leaves: int = Field(description="Messages proposing at most one item read as several")
    reaction_requests: int = Field(
        description="Messages labelled as reaction requests that ask no preference field"
    )
    reaction_requests_as_questions: int = Field(
        description="Of those, messages the reader heard as asking some preference field"
    )
    nothing_fits_found: int
    nothing_fits_labelled: int
    confirm_exact: float | None = Field(
        default=None, description="Share with the right confirm request (domains that have them)"
    )
    errors: list[str] = Field(description="One line per disagreement")

    @property
    def false_leave_share(self) -> float:
        return self.false_leaves / self.messages if self.messages else 0.0

    @property
    def reaction_requests_kept(self) -> float:
        """Share of the reaction requests not heard as preference questions (1.0 when none)."""
        if not self.reaction_requests:
            return 1.0
        return 1 - self.reaction_requests_as_questions / self.reaction_requests

    def format_text(self) -> str:
        lines = [
            f"{self.share}: {self.messages} messages ({', '.join(self.corpora)})",
            "field                recall  precision  support",
        ]
        for field in self.recall:
            lines.append(
                f"{field:<20} {self.recall[field]:>6.3f}  {self.precision[field]:>9.3f}  "
                f"{self.support[field]:>7}"
            )
        lines.append(f"proposed set exact: {self.proposals_exact:.3f}")
        lines.append(
            f"false leaves: {self.false_leaves} ({self.false_leave_share:.2%} of messages)"
        )
        lines.append(
            f"reaction requests heard as preference questions: "
            f"{self.reaction_requests_as_questions}/{self.reaction_requests} "
            f"(kept apart {self.reaction_requests_kept:.1%})"
        )
        if self.confirm_exact is not None:
            lines.append(f"confirm request exact: {self.confirm_exact:.3f}")
        lines.append(
            f"nothing-fits wording recognised: {self.nothing_fits_found}/"
            f"{self.nothing_fits_labelled} (it shapes the reply only; the agent's tool decides)"
        )
        return "\n".join(lines)


def score_share(
    share: str,
    corpora: Sequence[str],
    fields: Sequence[str],
    judged: Sequence[Judged],
    *,
    confirms: bool = False,
) -> ShareScore:
    """Compare what the reader heard with the labels, message by message (`confirms`: the domain
    labels confirm requests, and their accuracy is reported)."""
    tp: Counter[str] = Counter()
    fp: Counter[str] = Counter()
    fn: Counter[str] = Counter()
    errors: list[str] = []
    exact = leaves = reactions = reactions_asked = found_nf = labelled_nf = confirm_ok = 0
    for m in judged:
        got = m.got_asks & set(fields)
        for f in got & m.want_asks:
            tp[f] += 1
        for f in sorted(got - m.want_asks):
            fp[f] += 1
            errors.append(f"{m.id}: read as asking {f}: {m.text!r}")
        for f in sorted(m.want_asks - got):
            fn[f] += 1
            errors.append(f"{m.id}: missed a question on {f}: {m.text!r}")
        if m.got_proposed == m.want_proposed:
            exact += 1
        else:
            errors.append(
                f"{m.id}: proposed {sorted(m.got_proposed)}, labelled {sorted(m.want_proposed)}"
            )
        if len(m.got_proposed) > 1 and len(m.want_proposed) <= 1:
            leaves += 1
        if "reaction_request" in m.acts and not m.want_asks:
            reactions += 1
            if got:
                reactions_asked += 1
                errors.append(f"{m.id}: reaction request heard as a question: {m.text!r}")
        labelled_nf += m.abstain_labelled
        found_nf += m.abstain_labelled and m.abstain_found
        if m.got_confirm == m.want_confirm:
            confirm_ok += 1
        elif confirms:
            errors.append(f"{m.id}: confirm {m.got_confirm}, labelled {m.want_confirm}")
    n = len(judged)
    return ShareScore(
        share=share,
        corpora=list(corpora),
        messages=n,
        recall={f: tp[f] / (tp[f] + fn[f]) if tp[f] + fn[f] else 1.0 for f in fields},
        precision={f: tp[f] / (tp[f] + fp[f]) if tp[f] + fp[f] else 1.0 for f in fields},
        support={f: tp[f] + fn[f] for f in fields},
        proposals_exact=exact / n if n else 1.0,
        false_leaves=leaves,
        reaction_requests=reactions,
        reaction_requests_as_questions=reactions_asked,
        nothing_fits_found=found_nf,
        nothing_fits_labelled=labelled_nf,
        confirm_exact=(confirm_ok / n if n else 1.0) if confirms else None,
        errors=errors,
    )
