"""The scripted user: each reveal rule, hints without values, services, pushes, NVR, determinism."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from domains.movies.catalog import Catalog
from domains.movies.simulators import ScriptedUser, build_simulator
from domains.movies.simulators.reader import FIELD_PATTERNS, fields_asked
from domains.movies.simulators.scripted import persona_line, title_index
from domains.movies.simulators.templates import NOT_FOR_ME as TEMPLATES_NOT_FOR_ME
from domains.movies.simulators.templates import TOO_MANY_QUESTIONS
from domains.movies.tasks import Task
from runner.core.errors import TaurecError
from runner.core.protocols import UserTurn
from runner.play.loop import GREETING

from .conftest import chat

ASK_ALL = (
    "What kind of movie are you in the mood for? How long can it be? Any age rating needs? "
    "How well reviewed should it be? Which streaming services do you have? How recent should it be? "
    "Any director you like?"
)


def opening(task: Task, catalog: Catalog, seed: int = 0) -> str:
    return ScriptedUser(task, catalog, seed).reply(chat(GREETING)).content


def verdict_on(user: ScriptedUser, *lines: str) -> UserTurn:
    """The user's verdict on the title named in the last line, answering an ask-back if it comes."""
    turn = user.reply(chat(*lines))
    if turn.verdict == "continue" and turn.content.endswith("?"):
        turn = user.reply(chat(*lines, turn.content, "It's a solid pick, I think."))
    return turn


def test_greeting_asks_about_nothing() -> None:
    assert fields_asked(GREETING) == ()


def test_opening_states_volunteer_only(catalog: Catalog, make_task: Callable[..., Task]) -> None:
    task = make_task(
        [
            ("genres", "contains", "Comedy", "volunteer"),
            ("runtime", "<=", 100, "on_ask"),
            ("rating", ">=", 6.5, "hidden"),
        ]
    )
    for seed in range(8):
        text = opening(task, catalog, seed)
        assert "comedy" in text.lower()
        assert "100" not in text
        assert "6.5" not in text
        assert "baker" in text, "a persona sentence naming no attribute is kept, in first person"


def test_persona_sentence_naming_a_value_is_left_out(make_task: Callable[..., Task]) -> None:
    task = make_task(
        [("genres", "contains", "Drama", "volunteer")],
        persona="You are a parent with exactly 2 hours after the kids sleep. You are tired.",
    )
    assert persona_line(task) is None
    assert persona_line(make_task([("genres", "contains", "Drama", "volunteer")])) == (
        "I'm a night-shift baker who wants to unwind."
    )


@pytest.mark.parametrize(
    ("constraint", "question", "expected"),
    [
        (("runtime", "<=", 110, "on_ask"), "How long can the movie be?", "110"),
        (("genres", "contains", "Thriller", "on_ask"), "What genre do you like?", "thriller"),
        (("content_rating", "in", ["PG", "G"], "on_ask"), "Any age rating requirements?", "PG"),
        (("rating", ">=", 6.5, "on_ask"), "How well reviewed should it be?", "6.5"),
        (
            ("streaming_services", "contains_any", ["Hulu"], "on_ask"),
            "Which services do you use?",
            "Hulu",
        ),
        (("release_date", ">=", "2010-01-01", "on_ask"), "How recent should it be?", "2010"),
        (("director", "==", "Dee Rector", "on_ask"), "Any director you like?", "Dee Rector"),
    ],
)
def test_on_ask_is_stated_only_once_asked(
    catalog: Catalog,
    make_task: Callable[..., Task],
    constraint: tuple[str, str, object, str],
    question: str,
    expected: str,
) -> None:
    task = make_task(
        [constraint],
        user_services=["Netflix"],
    )
    user = ScriptedUser(task, catalog, 3)
    first = user.reply(chat(GREETING)).content
    assert expected.lower() not in first.lower()
    unrelated = user.reply(chat(GREETING, first, "Do you like popcorn with it?")).content
    assert expected.lower() not in unrelated.lower()
    answer = user.reply(chat(GREETING, first, question)).content
    if expected.lower() not in answer.lower():  # a vague first answer: the number when pressed
        assert constraint[0] in user.temperament.vague_first
        assert not re.search(r"\d", answer)
        answer = user.reply(chat(GREETING, first, question, answer, question)).content
    assert expected.lower() in answer.lower()


def test_hidden_is_never_stated_even_when_asked(
    catalog: Catalog, make_task: Callable[..., Task]
) -> None:
    task = make_task(
        [
            ("genres", "contains", "Comedy", "volunteer"),
            ("runtime", "<=", 100, "hidden"),
            ("rating", ">=", 6.0, "hidden"),
            ("content_rating", "==", "PG-13", "hidden"),
        ]
    )
    for seed in range(8):
        user = ScriptedUser(task, catalog, seed)
        first = user.reply(chat(GREETING)).content
        answer = user.reply(chat(GREETING, first, ASK_ALL)).content
        assert not re.search(r"\b(100|6|PG-13)\b", answer), answer
        for question, topic in (
            ("How long can it be?", "length"),
            ("How well reviewed should it be?", "reviewed"),
            ("Any age rating needs?", "age rating"),
        ):
            fresh = ScriptedUser(task, catalog, seed)
            answer = fresh.reply(chat(GREETING, first, question)).content
            assert not re.search(r"\b(100|6|PG-13)\b", answer), answer
            assert topic in answer, answer  # "nothing specific about the length"


def test_decline_hint_for_a_hidden_limit_gives_direction_not_value(
    catalog: Catalog, make_task: Callable[..., Task]
) -> None:
    task = make_task(
        [("genres", "contains", "Comedy", "volunteer"), ("runtime", "<=", 100, "hidden")]
    )
    user = ScriptedUser(task, catalog, 1)
    first = user.reply(chat(GREETING)).content
    turn = verdict_on(user, GREETING, first, "How about Long Night Parade (1995)?")
    assert turn.verdict in ("decline", "leave")
    assert "long" in turn.content.lower()
    assert not re.search(r"\d", turn.content)


def test_a_decline_never_states_the_violated_value(
    catalog: Catalog, make_task: Callable[..., Task]
) -> None:
    task = make_task([("runtime", "<=", 100, "volunteer")])
    for seed in range(8):
        user = ScriptedUser(task, catalog, seed)
        first = user.reply(chat(GREETING)).content
        turn = verdict_on(user, GREETING, first, "How about The Quiet Orchard?")
        assert turn.verdict in ("decline", "leave")
        assert not re.search(r"\d", turn.content), turn.content


@pytest.mark.parametrize(
    ("constraint", "title", "word"),
    [
        (("rating", ">=", 7.0, "hidden"), "Copper Lanterns", "review"),
        (("content_rating", "in", ["G", "PG"], "hidden"), "Velvet Static", "intense"),
        (("content_rating", "in", ["R"], "hidden"), "Velvet Static", "tame"),
        (("genres", "not_contains", "Comedy", "hidden"), "Velvet Static", "kind of movie"),
        (("release_date", ">=", "2000-01-01", "hidden"), "Long Night Parade", "old"),
        (("streaming_services", "contains_any", ["Hulu"], "hidden"), "Velvet Static", "watch"),
    ],
)
def test_hints_name_no_value(
    catalog: Catalog,
    make_task: Callable[..., Task],
    constraint: tuple[str, str, object, str],
    title: str,
    word: str,
) -> None:
    task = make_task([constraint])
    user = ScriptedUser(task, catalog, 2)
    first = user.reply(chat(GREETING)).content
    turn = verdict_on(user, GREETING, first, f"How about {title}?")
    assert turn.verdict in ("decline", "leave")
    assert word in turn.content.lower()
    assert not re.search(r"\d|\bPG\b|\bR\b|\bG\b|comedy|Hulu", turn.content), turn.content


def test_accepts_a_fitting_proposal_and_declines_watched_or_unavailable(
    catalog: Catalog, make_task: Callable[..., Task]
) -> None:
    task = make_task(
        [("genres", "contains", "Comedy", "volunteer")],
        user_history={"user_1": {"watched": ["tmdb_1"], "ratings": {}}},
    )
    user = ScriptedUser(task, catalog, 0)
    first = user.reply(chat(GREETING)).content
    assert verdict_on(user, GREETING, first, "How about Velvet Static?").verdict == "accept"
    seen = verdict_on(user, GREETING, first, "How about Copper Lanterns?")
    assert seen.verdict == "decline"
    assert re.search(r"seen|watched", seen.content)
    away = verdict_on(user, GREETING, first, "What about Nowhere Signal?")
    assert away.verdict == "decline"
    assert re.search(r"services|subscriptions", away.content)


def test_services_answer_lists_subscriptions(
    catalog: Catalog, make_task: Callable[..., Task]
) -> None:
    task = make_task(
        [("genres", "contains", "Comedy", "volunteer")], user_services=["Hulu", "Peacock"]
    )
    user = ScriptedUser(task, catalog, 0)
    first = user.reply(chat(GREETING)).content
    answer = user.reply(chat(GREETING, first, "Which streaming services do you have?")).content
    assert "Hulu" in answer
    assert "Peacock" in answer
    none = make_task([("genres", "contains", "Comedy", "volunteer")], user_services=[])
    user = ScriptedUser(none, catalog, 0)
    answer = user.reply(chat(GREETING, first, "Which streaming services do you have?")).content
    assert "major" in answer or "big" in answer


def test_pushes_a_stalling_agent_and_wants_one_title_at_a_time(
    catalog: Catalog, make_task: Callable[..., Task]
) -> None:
    task = make_task([("genres", "contains", "Comedy", "volunteer")])
    user = ScriptedUser(task, catalog, 0)
    first = user.reply(chat(GREETING)).content
    stall = user.reply(chat(GREETING, first, "Let me think about that for a moment."))
    assert stall.verdict == "continue"
    assert stall.content
    listing = user.reply(chat(GREETING, first, "Velvet Static or Copper Lanterns, maybe."))
    assert listing.verdict == "leave"


def _propose_in_turn(user: ScriptedUser, titles: list[str]) -> list[str]:
    lines = [GREETING, user.reply(chat(GREETING)).content]
    verdicts = []
    for title in titles:
        lines.append(f"How about {title}?")
        turn = user.reply(chat(*lines))
        if turn.content.endswith("?") and turn.verdict == "continue":  # asked back
            lines += [turn.content, "It's a solid pick, I think."]
            turn = user.reply(chat(*lines))
        lines.append(turn.content)
        verdicts.append(turn.verdict)
        if turn.verdict == "leave":
            break
    return verdicts


def test_a_learner_never_runs_out_of_patience_on_a_hidden_bound(
    catalog: Catalog, make_task: Callable[..., Task]
) -> None:
    # Ratings 5.1 < 6.4 < 7.2 < 8.1: each proposal moves the way the last hint pointed, so no
    # decline is a strike, and the cap (3 + 2 per hidden constraint) leaves room for all four.
    task = make_task([("rating", ">=", 9.5, "hidden")])
    rising = ["Long Night Parade", "Copper Lanterns", "Velvet Static", "The Quiet Orchard"]
    for seed in range(12):
        user = ScriptedUser(task, catalog, seed)
        assert user.temperament.decline_cap == 5
        assert _propose_in_turn(user, rising) == ["decline"] * 4, seed


def test_ignoring_a_hint_is_a_strike_and_strikes_run_out_by_seed(
    catalog: Catalog, make_task: Callable[..., Task]
) -> None:
    # After "not well reviewed enough" on 8.1, proposing 7.2 and then 6.4 ignores the hint.
    task = make_task([("rating", ">=", 9.5, "hidden")])
    falling = ["The Quiet Orchard", "Velvet Static", "Copper Lanterns", "Long Night Parade"]
    seen = set()
    for seed in range(12):
        user = ScriptedUser(task, catalog, seed)
        strikes = user.temperament.strikes
        verdicts = _propose_in_turn(user, falling)
        assert verdicts == ["decline"] * strikes + ["leave"], (seed, verdicts)
        seen.add(strikes)
    assert seen == {2, 3}


def test_an_unasked_on_ask_preference_declines_without_a_reason(
    catalog: Catalog, make_task: Callable[..., Task]
) -> None:
    task = make_task([("runtime", "<=", 90, "on_ask")])
    for seed in range(8):
        user = ScriptedUser(task, catalog, seed)
        lines = [GREETING, user.reply(chat(GREETING)).content, "How about The Quiet Orchard?"]
        turn = user.reply(chat(*lines))
        if turn.verdict == "continue":
            lines += [turn.content, "It's a slow, lovely drama."]
            turn = user.reply(chat(*lines))
        assert turn.verdict == "decline"
        assert turn.content in TEMPLATES_NOT_FOR_ME, turn.content


def test_nothing_fits_gets_the_same_neutral_reply_on_nvr_and_normal_tasks(
    catalog: Catalog, make_task: Callable[..., Task]
) -> None:
    honest = "I couldn't find anything that meets all of that, sorry."
    nvr = make_task([("rating", ">=", 9.9, "volunteer")], no_valid_recommendation=True)
    normal = make_task([("genres", "contains", "Comedy", "volunteer")])
    for seed in range(8):
        a = ScriptedUser(nvr, catalog, seed).reply(chat(GREETING, "hi", honest))
        b = ScriptedUser(normal, catalog, seed).reply(chat(GREETING, "hi", honest))
        assert (a.content, a.verdict) == (b.content, b.verdict) == (a.content, "continue")


def test_same_seed_same_words(catalog: Catalog, make_task: Callable[..., Task]) -> None:
    task = make_task(
        [("genres", "contains", "Comedy", "volunteer"), ("runtime", "<=", 100, "on_ask")]
    )
    convo = chat(GREETING, "hi", ASK_ALL)
    assert ScriptedUser(task, catalog, 4).reply(convo) == ScriptedUser(task, catalog, 4).reply(
        convo
    )
    assert len({ScriptedUser(task, catalog, s).reply(convo).content for s in range(8)}) > 1


def test_every_field_has_ask_keywords() -> None:
    for field in (
        "runtime",
        "genres",
        "content_rating",
        "rating",
        "streaming_services",
        "release_date",
        "director",
        "cast",
    ):
        assert FIELD_PATTERNS[field]


def test_build_simulator_names(catalog: Catalog, make_task: Callable[..., Task]) -> None:
    task = make_task([("genres", "contains", "Comedy", "volunteer")])
    assert build_simulator("scripted", task=task, catalog=catalog, seed=0).spec.name == "scripted"
    llm = build_simulator("litellm:openai/some-model", task=task, catalog=catalog, seed=0)
    assert llm.spec.args["model"] == "openai/some-model"
    with pytest.raises(TaurecError, match="did you mean 'scripted'"):
        build_simulator("scriptd", task=task, catalog=catalog, seed=0)


# -- patience for questions ------------------------------------------------------------------

_ONE_PER_TOPIC = {
    "runtime": "How long can it be?",
    "rating": "How well reviewed should it be?",
    "release_date": "How recent should it be, any release year?",
    "content_rating": "Any age rating needs?",
    "vote_count": "How popular or well known should it be?",
}


def _four_on_ask(make_task: Callable[..., Task]) -> Task:
    return make_task(
        [
            ("genres", "contains", "Comedy", "volunteer"),
            ("runtime", "<=", 100, "on_ask"),
            ("rating", ">=", 6.5, "on_ask"),
            ("release_date", ">=", "2026-01-01", "on_ask"),
            ("vote_count", ">=", 200, "on_ask"),
        ],
        user_services=["Netflix"],
    )


_TASTE = {"runtime", "rating", "release_date", "vote_count", "content_rating", "director"}


def test_a_questionnaire_gets_only_its_first_answers_and_then_no_more(
    catalog: Catalog, make_task: Callable[..., Task]
) -> None:
    task = _four_on_ask(make_task)
    form = (
        "How long can it be? How well reviewed should it be? How recent should it be? "
        "How popular or well known should it be? Any age rating needs? Any director you like?"
    )
    for seed in range(8):
        user = ScriptedUser(task, catalog, seed)
        first = user.reply(chat(GREETING)).content
        answer = user.reply(chat(GREETING, first, form)).content
        mood = user.temperament
        # The first topics of the form, up to what it answers in one message and its patience.
        first_topics = ["runtime", "rating", "release_date", "vote_count", "content_rating"]
        expect = first_topics[: min(mood.topics_per_message, mood.question_patience)]
        assert user.answered == set(expect), (seed, user.answered, answer)
        assert "100" in answer or "runtime" in user.temperament.vague_first
        # A form uses up the user's patience for new topics: asked singly now, nothing more.
        later = user.reply(chat(GREETING, first, form, answer, _ONE_PER_TOPIC["vote_count"]))
        assert "200" not in later.content
        assert "popular" not in later.content.lower()
        assert later.content in TOO_MANY_QUESTIONS["patience"], later.content


def test_asking_every_on_ask_field_singly_is_always_answered(
    catalog: Catalog, make_task: Callable[..., Task]
) -> None:
    # The question budget is the task's on_ask fields plus two (at least four), on every seed:
    # an agent that asks the right questions one by one always hears every answer.
    task = _four_on_ask(make_task)
    for seed in range(16):
        user = ScriptedUser(task, catalog, seed)
        assert user.temperament.question_patience == 6
        lines = [GREETING, user.reply(chat(GREETING)).content]
        for question in (
            "Which streaming services do you have?",
            _ONE_PER_TOPIC["runtime"],
            _ONE_PER_TOPIC["runtime"],  # asked again (a vague answer made precise): free
            _ONE_PER_TOPIC["content_rating"],  # no preference: it still costs a topic
            _ONE_PER_TOPIC["rating"],
            _ONE_PER_TOPIC["release_date"],
            _ONE_PER_TOPIC["vote_count"],
            "Which streaming services do you have?",  # a plain fact: always answered
        ):
            lines.append(question)
            reply = user.reply(chat(*lines)).content
            lines.append(reply)
            if question.startswith("Which streaming"):
                assert "Netflix" in reply, reply
        got = user.answered & _TASTE
        assert got == {"runtime", "content_rating", "rating", "release_date", "vote_count"}, (
            seed,
            lines,
        )


def test_question_limits_are_the_same_for_the_same_seed(
    catalog: Catalog, make_task: Callable[..., Task]
) -> None:
    task = _four_on_ask(make_task)
    convo = chat(GREETING, "hi", ASK_ALL)
    assert ScriptedUser(task, catalog, 5).reply(convo) == ScriptedUser(task, catalog, 5).reply(
        convo
    )


def test_title_spans_are_fresh_lists_from_the_memo(catalog: Catalog) -> None:
    index = title_index(catalog)
    text = "How about Copper Lanterns or Velvet Static?"
    first = index.spans(text)
    first.clear()  # a caller mutating its answer must not change the next one
    assert [item_id for _s, _e, item_id in index.spans(text)] == ["tmdb_1", "tmdb_3"]
