"""The report credits a skill only when the agent used it: the lookup adversary wins the dev split
without asking, and gets no elicitation; the expert, who asks, does."""

from __future__ import annotations

import pytest

from runner.core.domains import get_domain
from runner.evaluation import evaluate
from runner.evaluation.feedback import SkillRow


def _skill(rows: list[SkillRow], name: str) -> SkillRow:
    return next(r for r in rows if r.skill == name)


def _withheld_tasks(domain: str, count: int) -> list[str]:
    """Task ids of the dev suite that hold a constraint back (on_ask or hidden)."""
    owner = get_domain(domain)
    tasks = owner.load_tasks(owner.tasks_dir)
    chosen = [
        t.id
        for t in tasks
        if not getattr(t, "no_valid_recommendation", False)
        and any(str(c.reveal) in {"on_ask", "hidden"} for c in t.constraints)
    ]
    assert len(chosen) >= count, domain
    return chosen[:count]


@pytest.mark.parametrize("domain", ["movies", "grocery"])
def test_the_lookup_agent_wins_the_dev_split_and_is_credited_no_elicitation(domain: str) -> None:
    tasks = _withheld_tasks(domain, 6)
    lookup = evaluate("lookup", domain=domain, tasks=tasks, trials=2, concurrency=2)
    # The exploit a private test split closes: every public id maps to its public task.
    assert lookup.pass_k(1) == 1.0
    elicitation = _skill(lookup.feedback.skills, "elicitation")
    assert elicitation.of == 12
    assert elicitation.held == 0
    report = lookup.to_markdown()
    assert "| elicitation | 0/12 |" in report


def test_an_agent_that_asks_is_credited_elicitation() -> None:
    tasks = _withheld_tasks("movies", 6)
    expert = evaluate("expert", domain="movies", tasks=tasks, trials=2, concurrency=2)
    elicitation = _skill(expert.feedback.skills, "elicitation")
    assert elicitation.of > 0
    assert elicitation.held > 0


def test_elicitation_is_tested_only_where_the_user_holds_something_back() -> None:
    owner = get_domain("movies")
    volunteer_only = [
        t.id
        for t in owner.load_tasks(owner.tasks_dir)
        if not t.no_valid_recommendation
        and all(str(c.reveal) == "volunteer" for c in t.constraints)
    ][:3]
    result = evaluate("expert", domain="movies", tasks=volunteer_only, trials=1, concurrency=2)
    assert _skill(result.feedback.skills, "elicitation").of == 0


def test_a_described_proposal_that_asks_for_a_reaction_is_no_preference_question() -> None:
    """The no-question prober's proposals ("**X** (2026) is a drama film, 111 minutes long,
    rated PG-13. Would that work for you?") were credited as asking about genre, length and
    rating; a message that puts a title forward asks for a reaction, not a preference."""
    from runner.core.domains import get_domain

    movies = get_domain("movies")
    proposal = (
        "**Fenna and the Velvet Masquerade** (2026) is a drama film, 111 minutes long, rated "
        "PG-13. Would that work for you?"
    )
    assert movies.preference_questions(proposal) == ()
    assert "runtime" in movies.preference_questions("How long a film would you like to watch?")
