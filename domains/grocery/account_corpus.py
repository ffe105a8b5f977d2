"""The account shopper's reader scored on the labelled account-desk corpus (`corpora/grocery/account/`), share by share (tuning, held out).

A message is read right when the reading equals its label: the topics asked (as a set), whether
it asks for a yes, reports a result and offers a transfer. Also per topic recall and precision.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from domains.grocery.user.account_reader import ACCOUNT_TOPICS, AccountReader, AccountTopic
from runner.core.paths import PROJECT_ROOT

__all__ = [
    "ACCOUNT_CORPUS",
    "SHARE_FILES",
    "AccountLabelledMessage",
    "AccountShareScore",
    "load_account_share",
    "score_account_share",
]

ACCOUNT_CORPUS = PROJECT_ROOT / "corpora" / "grocery" / "account"
AccountShare = Literal["tuning", "heldout"]
# The files of each share, read in this order. `tuning-b` was the first held-out share: measured
# once, then tuned on; `tuning-c` is the second set's tuning part.
SHARE_FILES: dict[AccountShare, tuple[str, ...]] = {
    "tuning": ("tuning.jsonl", "tuning-b.jsonl", "tuning-c.jsonl"),
    "heldout": ("heldout.jsonl",),
}
_MAX_LINES = 10_000


class AccountLabelledMessage(BaseModel):
    """One account-desk agent message and what it does."""

    model_config = ConfigDict(extra="forbid")

    schema_version: Literal[1] = 1
    id: str
    shape: str
    group: str
    voice: str
    text: str
    asked: list[AccountTopic]
    asks_yes: bool
    reports: bool
    transfer: bool


def load_account_share(
    share: AccountShare, root: Path = ACCOUNT_CORPUS
) -> list[AccountLabelledMessage]:
    """The messages of one share (its files in `SHARE_FILES` order); a bad line is an error
    naming the file and line."""
    out = []
    for name in SHARE_FILES[share]:
        path = root / name
        lines = path.read_text(encoding="utf-8").splitlines()[:_MAX_LINES]
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                out.append(AccountLabelledMessage.model_validate_json(line))
            except ValidationError as exc:
                raise ValueError(f"{path} line {number}: {exc.errors()[0]['msg']}") from None
    return out


@dataclass(frozen=True)
class AccountShareScore:
    """How the rule reader reads one share: the messages it read wrong and, per label (each
    topic, `asks_yes`, `reports`, `transfer`), recall and precision (None where undefined)."""

    messages: int
    wrong: list[str]
    rates: dict[str, tuple[float | None, float | None]]

    @property
    def exact(self) -> float:
        """Share of messages whose whole reading equals the label."""
        return 1 - len(self.wrong) / self.messages if self.messages else 0.0


def score_account_share(messages: list[AccountLabelledMessage]) -> AccountShareScore:
    """The reader's exact-match rate and per-label recall and precision on `messages`."""
    labels = (*ACCOUNT_TOPICS, "asks_yes", "reports", "transfer")
    tp = dict.fromkeys(labels, 0)
    fp = dict.fromkeys(labels, 0)
    fn = dict.fromkeys(labels, 0)
    wrong = []
    for m in messages:
        reading = AccountReader().read(m.text)
        said = set(reading.asked) | {f for f in labels[-3:] if getattr(reading, f)}
        meant = set(m.asked) | {f for f in labels[-3:] if getattr(m, f)}
        for label in labels:
            tp[label] += label in said and label in meant
            fp[label] += label in said and label not in meant
            fn[label] += label not in said and label in meant
        if said != meant:
            wrong.append(m.id)
    rates = {
        x: (
            tp[x] / (tp[x] + fn[x]) if tp[x] + fn[x] else None,
            tp[x] / (tp[x] + fp[x]) if tp[x] + fp[x] else None,
        )
        for x in labels
    }
    return AccountShareScore(len(messages), wrong, rates)
