"""A small paraphrase grammar: the writer's sentences drawn from rules, so their shape varies by seed.

A domain gives its grammar as data, a text file beside its templates (`Grammar.load`):

    # a comment
    opener = ~ | honestly, | oh, and
    runtime_le = {opener} it should run under {n} {end}
               | {opener} keep it under {n} {end}

one rule a line (`name = alternative | alternative`, a line starting with `|` continues the rule
above, `~` is the empty alternative). An alternative's `{name}` parts are other rules or slots
the caller fills with a value's spellings (several ways to say one value: "120 minutes", "two
hours", "2h"). `Grammar.say` draws one alternative per rule with the writer's rng, depth first in
text order, so the same rng gives the same sentence, and mends the spacing (words are joined by
one space, none before punctuation), 'a'/'an' and the first letter; `Grammar.count` says how
many sentences a rule can make (the pool a learner would have to see). Openers, hedges,
connectors and clause orders are rules like any other.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Grammar", "GrammarError", "Spellings"]

# A slot's spellings: every way to say one value (all mean the same).
Spellings = Sequence[str]

_REF = re.compile(r"\{([a-z_][a-z0-9_]*)\}")
_RULE_LINE = re.compile(r"([a-z_][a-z0-9_]*)\s*=(.*)")
_MAX_DEPTH = 12
_MAX_FILE_BYTES = 1_000_000


class GrammarError(ValueError):
    """A rule or slot that is missing, empty or recursive."""


def _alternatives(text: str) -> list[str]:
    return ["" if a.strip() == "~" else a.strip() for a in text.split("|")]


def _tidy(text: str) -> str:
    """Collapse the spaces left by empty alternatives, fix 'a'/'an' and capitalise the start."""
    text = re.sub(r"\s+", " ", text).strip()
    text = re.sub(r"\s+([,.!?;:])", r"\1", text)
    text = re.sub(r",([,.!?])", r"\1", text)
    text = re.sub(r"\ba (?=(?!one\b|use|uni|eu)[aeiou])", "an ", text)
    return text[:1].upper() + text[1:]


@dataclass(frozen=True)
class Grammar:
    """Rules as data (name -> alternatives); `say` expands one with the caller's slots."""

    rules: Mapping[str, tuple[str, ...]]
    _names: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for name, alternatives in self.rules.items():
            if not alternatives:
                raise GrammarError(f"grammar rule {name!r} has no alternatives")
        object.__setattr__(self, "_names", frozenset(self.rules))

    @classmethod
    def parse(cls, text: str, source: str = "<grammar>") -> Grammar:
        """A grammar from its text (see the module docstring); errors name `source` and the line."""
        rules: dict[str, list[str]] = {}
        current: str | None = None
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            if line.startswith("|"):
                if current is None:
                    raise GrammarError(f"{source} line {number}: '|' before any rule: {raw!r}")
                rules[current] += _alternatives(line[1:])
                continue
            match = _RULE_LINE.fullmatch(line)
            if match is None:
                raise GrammarError(f"{source} line {number}: not 'name = a | b': {raw!r}")
            current = match.group(1)
            if current in rules:
                raise GrammarError(f"{source} line {number}: rule {current!r} given twice")
            rules[current] = _alternatives(match.group(2))
        try:
            return cls({name: tuple(alts) for name, alts in rules.items()})
        except GrammarError as e:
            raise GrammarError(f"{source}: {e}") from None

    @classmethod
    def load(cls, path: Path) -> Grammar:
        """The grammar in a text file (at most 1 MB)."""
        if path.stat().st_size > _MAX_FILE_BYTES:
            raise GrammarError(f"{path}: larger than {_MAX_FILE_BYTES} bytes")
        return cls.parse(path.read_text(encoding="utf-8"), str(path))

    def missing(self, slots: Iterable[str] = ()) -> dict[str, list[str]]:
        """Rule -> the names it uses that are neither rules nor one of `slots` (empty: complete)."""
        known = self._names | set(slots)
        out = {}
        for name, alternatives in self.rules.items():
            unknown = sorted({r for alt in alternatives for r in _REF.findall(alt)} - known)
            if unknown:
                out[name] = unknown
        return out

    def say(self, start: str, rng: random.Random, **slots: Spellings) -> str:
        """One sentence from rule `start`, its `{slot}`s spelled from `slots` (one spelling drawn)."""
        for name, spellings in slots.items():
            if not spellings:
                raise GrammarError(f"slot {name!r} has no spellings")
        return _tidy(self._expand(f"{{{start}}}", rng, slots, 0))

    def _expand(
        self, text: str, rng: random.Random, slots: Mapping[str, Spellings], depth: int
    ) -> str:
        if depth > _MAX_DEPTH:
            raise GrammarError(f"grammar nests deeper than {_MAX_DEPTH} at {text!r}")

        def pick(match: re.Match[str]) -> str:
            name = match.group(1)
            choices = slots.get(name) or self.rules.get(name)
            if choices is None:
                raise GrammarError(f"grammar has no rule or slot {name!r} (in {text!r})")
            return self._expand(rng.choice(tuple(choices)), rng, slots, depth + 1)

        return _REF.sub(pick, text)

    def count(self, start: str, **slot_sizes: int) -> int:
        """How many sentences rule `start` can make (slots count `slot_sizes[name]` spellings, 1
        if not given); alternatives are counted as distinct."""
        memo: dict[str, int] = {}

        def of_text(text: str, depth: int) -> int:
            total = 1
            for name in _REF.findall(text):
                total *= of_rule(name, depth + 1)
            return total

        def of_rule(name: str, depth: int) -> int:
            if depth > _MAX_DEPTH:
                raise GrammarError(f"grammar rule {name!r} nests deeper than {_MAX_DEPTH}")
            if name not in self._names:
                return slot_sizes.get(name, 1)
            if name not in memo:
                memo[name] = sum(of_text(alt, depth) for alt in self.rules[name])
            return memo[name]

        return of_rule(start, 0)
