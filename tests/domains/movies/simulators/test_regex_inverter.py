"""The inverting adversary: a lookup of the user's sentences built from some seeds fails on others.

It learns, from the transcripts of seeds 0-3, every sentence the user said with the constraint
values masked (numbers, genre and service names), mapped to the constraint it stated. On held-out
seeds 4-7 most constraint sentences are new surface forms it cannot decode, so a fixed list of
regexes built from a sample does not invert the user.
"""

from __future__ import annotations

import re

from domains.movies.catalog import Catalog
from domains.movies.simulators import ScriptedUser
from domains.movies.simulators.vocabulary import GENRE_WORDS, SERVICE_ALIASES, sentences
from domains.movies.tasks import load_tasks
from domains.movies.validate import resolve_catalog_path
from runner.core.paths import TASKS_DIR
from runner.core.transcript import MessageEvent
from runner.play.loop import GREETING

ASK_ALL = (
    "What kind of movie do you want? How long can it be? Any age rating? How well reviewed? "
    "Which streaming services do you have? How recent? How well known? Any director or cast?"
)
_VALUES = re.compile(
    r"(?i)\b(\d[\d,./+-]*|"
    + "|".join(re.escape(w) for ws in GENRE_WORDS.values() for w in ws)
    + "|"
    + "|".join(re.escape(s) for s in SERVICE_ALIASES)
    + r"|G|PG|PG-13|R|NC-17|NR)\b"
)


def _shape(sentence: str) -> str:
    return _VALUES.sub("<v>", sentence.strip().lower())


def _constraint_sentences(seed: int) -> list[tuple[str, str]]:
    """(sentence shape, what it states) for every constraint sentence the user says at `seed`."""
    catalog = Catalog.load(resolve_catalog_path(None))
    out = []
    for task in load_tasks(TASKS_DIR):
        user = ScriptedUser(task, catalog, seed)
        events = [MessageEvent(role="agent", content=GREETING)]
        events.append(MessageEvent(role="user", content=user.reply(events).content))
        for _ in range(2):  # asked twice: the second answer gives the numbers of vague ones
            events.append(MessageEvent(role="agent", content=ASK_ALL))
            events.append(MessageEvent(role="user", content=user.reply(events).content))
        said = [s for e in events if e.role == "user" for s in sentences(e.content)]
        for tc in task.constraints:
            if tc.reveal == "hidden":
                continue
            values = (
                tc.constraint.value
                if isinstance(tc.constraint.value, list)
                else [tc.constraint.value]
            )
            needle = str(values[0]).lower()
            if needle.endswith(".0"):
                needle = needle[:-2]
            for sentence in said:
                if needle and needle in sentence.lower():
                    out.append((_shape(sentence), f"{tc.constraint.field} {tc.constraint.op}"))
                    break
    return out


def test_a_sentence_table_from_some_seeds_does_not_decode_the_others() -> None:
    learned: dict[str, str] = {}
    for seed in range(4):
        learned.update(_constraint_sentences(seed))
    held_out = [pair for seed in range(4, 8) for pair in _constraint_sentences(seed)]
    assert len(held_out) > 100
    decoded = sum(1 for shape, meaning in held_out if learned.get(shape) == meaning)
    assert decoded / len(held_out) < 0.6, decoded / len(held_out)
