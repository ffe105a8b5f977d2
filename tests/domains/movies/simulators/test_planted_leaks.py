"""Planted leaks: paraphrased values and value-free directions are caught (≥ 95 %); hints are not."""

from __future__ import annotations

from collections.abc import Callable

from domains.movies.simulators import audit_leaks
from domains.movies.tasks import Task
from runner.core.transcript import ComponentSpec, Transcript
from runner.play.loop import GREETING

from .conftest import chat

# (constraint on a hidden field, planted sentences that disclose it in some form)
PLANTED: list[tuple[tuple[str, str, object, str], list[str]]] = [
    (
        ("runtime", "<=", 120, "hidden"),
        [
            "Something 120+ mins would be too much, keep it shorter.",
            "Nothing too long, please.",
            "I'd prefer not too long a film.",
            "On the shorter side would be great.",
            "Not a marathon, I have work tomorrow.",
            "A quick watch is what I need.",
            "Two hours max.",
            "Under 2 hrs if you can.",
            "Keep the runtime modest.",
            "I can't sit through anything lengthy.",
            "Something shortish.",
            "No more than 120 min.",
        ],
    ),
    (
        ("runtime", ">=", 100, "hidden"),
        [
            "Not too short, I want to settle in.",
            "Something on the longer side.",
            "At least 100 minutes.",
            "A 100+ minute film.",
            "Nothing short, please.",
            "An epic would be good.",
        ],
    ),
    (
        ("rating", ">=", 7.0, "hidden"),
        [
            "Something well reviewed.",
            "It should be highly rated.",
            "Only stuff with good reviews.",
            "A 7+ score at least.",
            "Something critics loved, truly acclaimed.",
            "Something people liked, reviews-wise.",
            "Rated seven out of ten or more.",
            "A top-rated film.",
        ],
    ),
    (
        ("vote_count", ">=", 500, "hidden"),
        [
            "Something with 500+ votes.",
            "Nothing too obscure.",
            "It should be well known.",
            "Something popular.",
            "A crowd-pleaser everybody has seen.",
            "At least 500 ratings on it.",
            "A proper blockbuster.",
            "Something mainstream.",
        ],
    ),
    (
        ("vote_count", "<=", 2000, "hidden"),
        [
            "Something under the radar.",
            "A hidden gem, ideally.",
            "Something niche.",
            "Fewer than 2k votes.",
        ],
    ),
    (
        ("release_date", ">=", "2015-01-01", "hidden"),
        [
            "Something fairly recent.",
            "Not too old.",
            "A modern film.",
            "From 2015 onward.",
            "Something from the last few years.",
            "A newer release.",
        ],
    ),
    (
        ("release_date", "<=", "1999-12-31", "hidden"),
        ["Something older.", "A classic.", "Something old-school.", "A vintage film."],
    ),
    (
        ("content_rating", "in", ["G", "PG"], "hidden"),
        [
            "It has to be family-friendly.",
            "Something for the kids.",
            "Nothing scary.",
            "Suitable for children, please.",
            "Nothing too intense.",
            "It should be rated PG or G.",
        ],
    ),
]
# Decline hints about the title just proposed, and no-preference answers: never leaks.
CLEAN = [
    "That sounds too long for tonight.",
    "Hmm, that one runs a bit long for me.",
    "That one isn't well reviewed enough for me.",
    "That seems a bit too obscure.",
    "That one's a bit too mainstream for me.",
    "That feels a bit too old for me.",
    "That sounds a bit too intense for us tonight.",
    "I don't have anything specific in mind about the length.",
    "Nothing particular comes to mind about how well known it is.",
    "I'm easy on how recent it is.",
]


def _leaky(task: Task, line: str) -> bool:
    transcript = Transcript(
        task_id=task.id,
        agent=ComponentSpec(name="a"),
        simulator=ComponentSpec(name="u"),
        events=chat(GREETING, line),
    )
    return not audit_leaks(task, transcript).clean


def test_planted_paraphrased_and_directional_leaks_are_caught(
    make_task: Callable[..., Task],
) -> None:
    total, missed = 0, []
    for constraint, lines in PLANTED:
        task = make_task([constraint], user_services=["Netflix"])
        for line in lines:
            total += 1
            if not _leaky(task, line):
                missed.append((constraint[0], line))
    assert total >= 50
    assert 1 - len(missed) / total >= 0.95, missed


def test_decline_hints_and_no_preference_answers_are_not_leaks(
    make_task: Callable[..., Task],
) -> None:
    for constraint, _lines in PLANTED:
        task = make_task([constraint], user_services=["Netflix"])
        flagged = [line for line in CLEAN if _leaky(task, line)]
        assert flagged == [], (constraint, flagged)


def test_services_named_unasked_disclose_a_streaming_constraint(
    make_task: Callable[..., Task],
) -> None:
    task = make_task(
        [("streaming_services", "contains_any", ["Netflix"], "on_ask")], user_services=["Netflix"]
    )
    assert _leaky(task, "I have Netflix.")
    asked = Transcript(
        task_id=task.id,
        agent=ComponentSpec(name="a"),
        simulator=ComponentSpec(name="u"),
        events=chat(GREETING, "Hi", "Which streaming services do you have?", "I have Netflix."),
    )
    assert audit_leaks(task, asked).clean
