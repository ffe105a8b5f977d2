"""A trial's shopper may be vague: one taste it would volunteer is only cued (its value said when
asked), drawn from the trial seed; the task as written stays what the audit and gate read."""

from __future__ import annotations

from domains.grocery.user.engine import cued_topics
from domains.grocery.user.needs import MAX_CUES, VAGUE_SHARE, needs_of
from tests.domains.grocery.play import make_task, need

TASK = make_task(
    constraints=[
        need("categories", "contains", "Breakfast cereals"),
        need("nutriscore", "in", ["a"]),
        need("labels", "contains", "organic"),
    ],
    reveal_difficulty="volunteer",
)


def test_without_a_trial_the_needs_are_the_task_as_written() -> None:
    assert [n.reveal for n in needs_of(TASK)] == ["volunteer"] * 3


def test_a_vague_trial_cues_one_volunteered_taste_and_never_the_product_type() -> None:
    trials = [needs_of(TASK, seed) for seed in range(200)]
    vague = [t for t in trials if any(n.reveal == "on_ask" for n in t)]
    # About VAGUE_SHARE of the trials, each with exactly one taste turned into a cue.
    assert abs(len(vague) / len(trials) - VAGUE_SHARE) < 0.1
    for needs in vague:
        cued = [n.topic for n in needs if n.reveal == "on_ask"]
        assert len(cued) == 1
        assert cued[0] in ("nutriscore", "organic")
    # The same trial seed gives the same shopper.
    assert needs_of(TASK, 7) == needs_of(TASK, 7)
    # The opening names the cued topic, so an assistant that asks about cues learns the value.
    seed = next(s for s, t in enumerate(trials) if t in vague)
    assert cued_topics(TASK, seed) == [n.topic for n in trials[seed] if n.reveal == "on_ask"]


def test_a_shopper_with_max_cues_already_is_never_vague() -> None:
    full = make_task(
        constraints=[
            need("nutriscore", "in", ["a"], "on_ask"),
            need("labels", "contains", "organic", "on_ask"),
            need("brand", "==", "Greenpath", "on_ask"),
            need("countries", "contains", "France"),
        ],
        reveal_difficulty="mixed",
    )
    assert len(cued_topics(full)) == MAX_CUES
    assert all(needs_of(full, seed) == needs_of(full) for seed in range(50))
