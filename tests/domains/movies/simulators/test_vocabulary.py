"""The vocabulary's genre and service finders skip a phrase's scan when the phrase is not in the
text: they must find exactly what scanning every phrase finds."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from domains.movies.simulators.vocabulary import (
    GENRE_WORDS,
    SERVICE_ALIASES,
    Mention,
    genre_mentions,
    service_mentions,
)

TUNING = Path(__file__).resolve().parents[4] / "corpora" / "reader" / "tuning"


def _word(phrase: str) -> re.Pattern[str]:
    return re.compile(r"(?<![A-Za-z0-9])" + re.escape(phrase) + r"(?![A-Za-z0-9])")


def every_genre_scan(text: str, extra: list[str]) -> list[Mention]:
    """Every genre's words scanned over the whole text, longest first (the specification)."""
    table = dict(GENRE_WORDS)
    for genre in extra:
        table.setdefault(genre, (genre.lower(),))
    found, lowered = [], text.lower()
    for genre, words in table.items():
        phrases = sorted({w.lower() for w in (*words, genre)}, key=len, reverse=True)
        pattern = re.compile("|".join(_word(p).pattern for p in phrases))
        found += [Mention(genre, m.start(), m.end(), text[m.start() : m.end()]) for m in pattern.finditer(lowered)]  # fmt: skip
    return sorted(found, key=lambda m: (m.start, str(m.value)))


def every_service_scan(text: str, extra: list[str]) -> list[Mention]:
    """Every alias scanned, longest first, a span taken once (the specification)."""
    table = {s: {s.lower(), *a} for s, a in SERVICE_ALIASES.items()}
    for service in extra:
        table.setdefault(service, set()).add(service.lower())
    pairs = sorted(
        ((a, s) for s, aliases in table.items() for a in aliases), key=lambda p: -len(p[0])
    )
    lowered, taken, found = text.lower(), [False] * len(text), []
    for alias, service in pairs:
        for m in _word(alias).finditer(lowered):
            if not any(taken[m.start() : m.end()]):
                taken[m.start() : m.end()] = [True] * (m.end() - m.start())
                found.append(Mention(service, m.start(), m.end(), text[m.start() : m.end()]))
    return sorted(found, key=lambda m: m.start)


def texts() -> list[str]:
    out = []
    for name in ("agent_messages.jsonl", "human_questions.jsonl"):
        for line in (TUNING / name).read_text(encoding="utf-8").splitlines():
            if line.strip():
                out.append(json.loads(line)["text"])
    # Services and genres side by side, overlapping aliases, odd case.
    out += ["Apple TV+ or apple tv? HULU, Max, HBO Max; sci-fi / Science Fiction, rom-com"]
    return out


Finder = Callable[[str, list[str]], list[Mention]]
# (the finder, its specification, extra names it is given, mentions the corpus must hold)
CASES: list[tuple[Finder, Finder, list[str], int]] = [
    *(
        (genre_mentions, every_genre_scan, e, 100)
        for e in ([], ["Film-Noir"], ["Drama", "Western"])
    ),
    *(
        (service_mentions, every_service_scan, e, 50)
        for e in ([], ["Crunchyroll"], ["Hulu", "Mubi"])
    ),
]


@pytest.mark.parametrize(("finder", "spec", "extra", "least"), CASES)
def test_the_finders_equal_a_scan_of_every_phrase(
    finder: Finder, spec: Finder, extra: list[str], least: int
) -> None:
    corpus = texts()
    assert sum(len(finder(t, extra)) for t in corpus) > least  # the corpus names some
    for text in corpus:
        assert finder(text, extra) == spec(text, extra), text
