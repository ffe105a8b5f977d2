"""The user hears a chat assistant as a person would: a pitch is heard, a request for a reaction to
it is answered with the verdict (never as a preference question), small talk asks nothing."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from domains.movies.catalog import Catalog
from domains.movies.simulators import ScriptedUser
from domains.movies.simulators.templates import ASK_BACK, TOO_MANY_QUESTIONS
from domains.movies.tasks import Task
from runner.play.loop import GREETING

from .conftest import chat

PITCH = (
    "How about Velvet Static? It's a comedy and drama film where a radio host starts hearing "
    "a voice through the walls of her studio, and it runs 88 minutes. {ask}"
)
REACTIONS = (
    "Does that sound like your kind of thing?",
    "Want me to check where it streams?",
    "Shall I add it to your list?",
    "What do you think?",
    "Would that do?",
    "Could this be the one for tonight?",
)
SEEDS = range(12)


def _ask_back_starts() -> tuple[str, ...]:
    return tuple(line.split("{title}")[0] for line in ASK_BACK)


@pytest.mark.parametrize("ask", REACTIONS)
def test_a_reaction_request_after_a_pitch_gets_the_verdict_and_spends_no_question(
    ask: str, catalog: Catalog, make_task: Callable[..., Task]
) -> None:
    task = make_task(
        [("genres", "contains", "Comedy", "volunteer"), ("runtime", "<=", 100, "on_ask")]
    )
    for seed in SEEDS:
        user = ScriptedUser(task, catalog, seed)
        first = user.reply(chat(GREETING)).content
        turn = user.reply(chat(GREETING, first, PITCH.format(ask=ask)))
        # Velvet Static (88 minutes, a comedy) fits: accepted at once, not asked back about.
        assert turn.verdict == "accept", (seed, turn.content)
        assert not turn.content.startswith(_ask_back_starts()), turn.content
        assert user.answered == frozenset(), (seed, user.answered)
        assert not any(turn.content in bank for bank in TOO_MANY_QUESTIONS.values())


def test_a_declined_pitch_gives_the_reason_a_plain_proposal_gets(
    catalog: Catalog, make_task: Callable[..., Task]
) -> None:
    """The words of the request change nothing: the verdict and the reason class of the decline
    are those of the same proposal with no question at the end."""
    task = make_task(
        [("genres", "contains", "Comedy", "volunteer"), ("runtime", "<=", 100, "volunteer")]
    )
    pitch = "How about Long Night Parade? It's a comedy film about a parade that never ends."
    for seed in SEEDS:
        plain = ScriptedUser(task, catalog, seed)
        first = plain.reply(chat(GREETING)).content
        want = plain.reply(chat(GREETING, first, pitch))
        asking = ScriptedUser(task, catalog, seed)
        got = asking.reply(
            chat(GREETING, first, f"{pitch} Does that sound like your kind of thing?")
        )
        assert (got.verdict, got.content) == (want.verdict, want.content)
        assert got.verdict == "decline"
        assert asking.answered == frozenset()


def test_a_described_title_is_not_asked_back_and_a_bare_one_may_be(
    catalog: Catalog, make_task: Callable[..., Task]
) -> None:
    task = make_task([("genres", "contains", "Comedy", "volunteer")])
    bare_asked_back = 0
    for seed in range(40):
        user = ScriptedUser(task, catalog, seed)
        first = user.reply(chat(GREETING)).content
        described = user.reply(chat(GREETING, first, PITCH.format(ask="Sound good?")))
        assert not described.content.startswith(_ask_back_starts()), described.content
        user = ScriptedUser(task, catalog, seed)
        bare = user.reply(chat(GREETING, first, "How about Velvet Static?"))
        bare_asked_back += bare.content.startswith(_ask_back_starts())
    assert bare_asked_back > 0  # the ask-back itself is kept for a title put forward bare


def test_a_pitch_told_earlier_is_remembered(
    catalog: Catalog, make_task: Callable[..., Task]
) -> None:
    task = make_task([("genres", "contains", "Comedy", "volunteer")])
    told = "Velvet Static is a comedy and drama film where a radio host hears voices. Any thoughts on length?"
    for seed in SEEDS:
        user = ScriptedUser(task, catalog, seed)
        first = user.reply(chat(GREETING)).content
        answer = user.reply(chat(GREETING, first, told)).content
        turn = user.reply(chat(GREETING, first, told, answer, "So: Velvet Static?"))
        assert not turn.content.startswith(_ask_back_starts()), (seed, turn.content)


@pytest.mark.parametrize("text", ["Have a good one!", "Enjoy the movie, have a great night!"])
def test_small_talk_asks_nothing(
    text: str, catalog: Catalog, make_task: Callable[..., Task]
) -> None:
    task = make_task([("genres", "contains", "Comedy", "volunteer"), ("rating", ">=", 7, "on_ask")])
    user = ScriptedUser(task, catalog, 0)
    first = user.reply(chat(GREETING)).content
    user.reply(chat(GREETING, first, text))
    assert user.answered == frozenset()
