"""The user's paraphrase pool: used (a constraint's sentence changes shape between seeds), large,
and safe - every sentence of a large sample passes the leak audit, is heard by the heuristic's
reader exactly as the constraint it states, and would be caught by the audit were that
constraint hidden (its value stays findable in every spelling)."""

from __future__ import annotations

import datetime as dt
import random
import re
from pathlib import Path

import pytest

from domains.movies.baselines.preferences import Preferences, read_preferences
from domains.movies.simulators.leaks import message_leaks
from domains.movies.simulators.templates import STATE_GRAMMAR, state_constraint
from domains.movies.tasks import Constraint, Task, TaskConstraint, load_tasks
from runner.core.paths import TASKS_DIR

# Values and value words masked: what is left is the sentence's shape.
_VALUE = re.compile(r"(?i)\b\d[\d.,/+]*\w*|\b(two|three|an hour( and a half)?|ten)\b")


def _shape(sentence: str, c: Constraint) -> str:
    values = c.value if isinstance(c.value, list) else [c.value]
    for v in values:
        sentence = re.sub(re.escape(str(v)), "<v>", sentence, flags=re.IGNORECASE)
    return _VALUE.sub("<n>", sentence.lower())


def _expected(c: Constraint) -> Preferences:
    """What a reader should hear from a sentence that states `c` and nothing else."""
    p = Preferences()
    v = c.value
    values = [str(x) for x in v] if isinstance(v, list) else [str(v)]
    match (c.field, c.op):
        case ("runtime", "<="):
            p.max_runtime = float(v)  # type: ignore[arg-type]
        case ("runtime", ">="):
            p.min_runtime = float(v)  # type: ignore[arg-type]
        case ("rating", ">="):
            p.min_rating = float(v)  # type: ignore[arg-type]
        case ("rating", "<="):
            p.max_rating = float(v)  # type: ignore[arg-type]
        case ("vote_count", ">="):
            p.min_votes = float(v)  # type: ignore[arg-type]
        case ("genres", "contains"):
            p.genres_all = set(values)
        case ("genres", "contains_any"):
            p.genres_any = [set(values)]
        case ("genres", "not_contains"):
            # "No family, please": "family" alone names no genre to this reader (so it was before
            # the pool too; saying "family film" would change what the heuristic agent hears).
            p.genres_none = set(values) - {"Family"}
        case ("content_rating", "==" | "in"):
            p.ratings_allowed = set(values)
        case ("content_rating", "!="):
            p.ratings_excluded = set(values)
        case ("streaming_services", "contains" | "contains_any"):
            p.services_required = set(values)
        case ("release_date", ">="):
            p.min_date = dt.date.fromisoformat(values[0])
        case ("release_date", "<="):
            p.max_date = dt.date.fromisoformat(values[0])
        case ("director", "=="):
            p.directors = set(values)
        case ("cast", "contains" | "contains_any"):
            p.cast_any = set(values)
        case _:
            pytest.fail(f"no expectation for {c.describe()}")
    return p


def _stated(tasks: list[Task]) -> list[tuple[Task, Constraint, set[str]]]:
    """Every constraint the user may state, with the fields asked when it does."""
    return [
        (task, tc.constraint, set() if tc.reveal == "volunteer" else {tc.constraint.field})
        for task in tasks
        for tc in task.constraints
        if tc.reveal != "hidden"
    ]


def test_a_constraint_is_said_in_a_different_shape_at_another_seed() -> None:
    stated = _stated(load_tasks(TASKS_DIR))
    differ = 0
    for task, c, _ in stated:
        shapes = [
            _shape(state_constraint(c, random.Random(f"write|{seed}|{task.id}|0")), c)
            for seed in (0, 1)
        ]
        differ += shapes[0] != shapes[1]
    assert differ / len(stated) > 0.9, differ / len(stated)


def test_every_constraint_kind_has_a_pool_of_thousands_of_sentences() -> None:
    assert (
        STATE_GRAMMAR.missing(
            slots=["n", "x", "g", "codes", "code", "s", "when", "p", "f", "op", "v"]
        )
        == {}
    )
    for rule in ("runtime_le", "runtime_ge", "rating_ge", "votes_ge", "genre_in", "genre_out"):
        assert STATE_GRAMMAR.count(rule) >= 5000, rule
    for rule in ("code_in", "code_out", "date"):
        assert STATE_GRAMMAR.count(rule) >= 1000, rule


@pytest.mark.parametrize("suite", ["ours", "v1"])
def test_a_large_sample_passes_the_leak_audit_and_reads_as_its_constraint(
    suite: str, v1_dir: Path
) -> None:
    tasks = load_tasks(TASKS_DIR if suite == "ours" else v1_dir / "tasks")
    checked = 0
    for task, c, asked in _stated(tasks):
        expected = _expected(c)
        # The same task with this constraint hidden: the audit must see its value said.
        kept = [tc for tc in task.constraints if tc.constraint is not c]
        hiding = task.model_copy(
            update={"constraints": [*kept, TaskConstraint(constraint=c, reveal="hidden")]}
        )
        for draw in range(40):
            sentence = state_constraint(c, random.Random(f"sample|{draw}|{task.id}"))
            assert message_leaks(task, sentence, asked) == [], sentence
            assert read_preferences([sentence]) == expected, sentence
            if c.field != "sponsored":
                assert message_leaks(hiding, sentence, set()), sentence
            checked += 1
    assert checked > 5000
