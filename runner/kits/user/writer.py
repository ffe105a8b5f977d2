"""The template writer's machinery: a decided act in, the user's words out, for any domain.

A domain's writer subclasses `TemplateWriterBase` and gives, per act part kind, either a bank of
paraphrases in `banks` (one is drawn with the trial's writer rng) or a `word_<kind>` method for
parts whose words need the part's facts. `merge` may fuse consecutive parts said in one sentence.
The same act and rng give the same words; each part draws from the rng in order.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from runner.kits.user.acts import ActPartBase, ReplyActBase

__all__ = ["Bank", "Keyed", "TemplateWriterBase", "join_list"]

# Paraphrases of one thing to say; the writer draws one.
Bank = tuple[str, ...]


@dataclass(frozen=True)
class Keyed:
    """Banks chosen by the value of one field of the part (e.g. a `Leave`'s reason)."""

    field: str
    banks: Mapping[str, Bank]


def join_list(words: Sequence[str], last: str) -> str:
    """'a', 'a <last> b', 'a, b <last> c'."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + f" {last} " + words[-1]


class TemplateWriterBase:
    """Words every part of an act from the domain's banks and `word_<kind>` methods."""

    banks: ClassVar[Mapping[str, Bank | Keyed]] = {}

    def write(self, act: ReplyActBase, rng: random.Random) -> str:
        """The user's message for one act: the words of its parts, in order, joined."""
        words: list[str] = []
        for part in self.merge(list(getattr(act, "parts"))):  # noqa: B009 - a domain's field
            words += self.word(part, rng)
        return " ".join(w for w in words if w)

    def merge(self, parts: list[Any]) -> list[Any]:
        """The parts as they are said (by default one by one)."""
        return parts

    def word(self, part: ActPartBase, rng: random.Random) -> list[str]:
        """The sentences of one part."""
        kind: str = getattr(part, "kind")  # noqa: B009 - every part has a literal kind
        method = getattr(self, f"word_{kind}", None)
        if method is not None:
            words: list[str] = method(part, rng)
            return words
        entry = self.banks.get(kind)
        if entry is None:
            raise TypeError(f"no template for act part {part!r}")
        if isinstance(entry, Keyed):
            return [rng.choice(entry.banks[getattr(part, entry.field)])]
        return [rng.choice(entry)]
