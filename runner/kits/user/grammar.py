"""A small paraphrase grammar: the writer's sentences drawn from rules, so their shape varies by seed.

A domain gives its grammar as data: rule name -> alternatives, each alternative a string whose
`{name}` parts are other rules or slots the caller fills with a value's spellings (several ways to
say the same value: "120 minutes", "two hours", "2h"). `Grammar.say` draws one alternative per
rule with the writer's rng, depth first in text order, so the same rng gives the same sentence;
`Grammar.count` says how many sentences a rule can make (the size of the pool a learner would
have to see). Openers, hedges, connectors and clause orders are rules like any other.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

__all__ = ["Grammar", "GrammarError", "Spellings"]

# A slot's spellings: every way to say one value (all mean the same).
Spellings = Sequence[str]

_REF = re.compile(r"\{([a-z_][a-z0-9_]*)\}")
_MAX_DEPTH = 12


class GrammarError(ValueError):
    """A rule or slot that is missing, empty or recursive."""


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
