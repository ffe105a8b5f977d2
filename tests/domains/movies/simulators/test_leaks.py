"""The leak audit: per-field value detection, a deliberately leaky simulator is caught, and the
scripted user has zero leaks over every v1 task (and our suite) x 8 seeds."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from domains.movies.catalog import Catalog
from domains.movies.simulators import ScriptedUser, audit_leaks, message_leaks
from domains.movies.simulators.templates import state_constraint
from domains.movies.tasks import Task, load_tasks
from domains.movies.tools import build_toolset
from runner.core.paths import TASKS_DIR
from runner.core.protocols import AgentReply, ChatMessage, ToolSchema
from runner.core.transcript import ComponentSpec, MessageEvent, Transcript
from runner.play.loop import GREETING, run_trial
from tests.movie_world import FixedUser

from .conftest import chat


def leaky_user(task: Task) -> FixedUser:
    """A user simulator that blurts out every constraint, hidden ones included, in every reply."""
    rng = random.Random(0)
    said = " ".join(state_constraint(tc.constraint, rng) for tc in task.constraints)
    return FixedUser(f"Hi! {said}", "leaky")


class AskingAgent:
    """Asks one question, then abstains."""

    @property
    def spec(self) -> ComponentSpec:
        return ComponentSpec(name="asker")

    async def step(self, messages: list[ChatMessage], tools: list[ToolSchema]) -> AgentReply:
        if sum(1 for m in messages if m["role"] == "user") < 2:
            return AgentReply(content="What are you in the mood for?")
        return AgentReply(
            tool_calls=[{"id": "r", "name": "recommend", "arguments": "{}"}]  # type: ignore[list-item]
        )


def audit(task: Task, *lines: str) -> list[str]:
    t = Transcript(task_id=task.id, agent=ComponentSpec(name="a"), simulator=ComponentSpec(name="u"),
                   events=chat(*lines))  # fmt: skip
    return [leak.reason for leak in audit_leaks(task, t).leaks]


def test_a_leaky_simulator_is_caught(v1_dir: Path) -> None:
    catalog = Catalog.load(v1_dir)
    caught = 0
    for task in load_tasks(v1_dir / "tasks"):
        protected = [tc for tc in task.constraints if tc.reveal != "volunteer"]
        transcript = asyncio.run(
            run_trial(task=task, catalog=catalog, agent=AskingAgent(), simulator=leaky_user(task),
                      toolset=build_toolset(catalog, task), seed=0)
        )  # fmt: skip
        assert transcript.leak_audit is not None
        flagged = {leak.field for leak in transcript.leak_audit.leaks}
        # Naming the user's services unasked counts too: it discloses a streaming constraint.
        expected = {tc.constraint.field for tc in protected}
        assert flagged == expected, task.id
        caught += bool(protected)
    assert caught > 40


@pytest.mark.parametrize(
    ("constraint", "leaky", "clean"),
    [
        (
            ("runtime", "<=", 110, "hidden"),
            "Nothing over 110 minutes.",
            "That sounds too long for tonight.",
        ),
        (
            ("runtime", "<=", 110, "hidden"),
            "I'd like it under 2 hours.",
            "It runs a bit long for me.",
        ),
        (
            ("rating", ">=", 6.5, "hidden"),
            "Something rated 6.5 or better.",
            "The reviews aren't great.",
        ),
        (
            ("content_rating", "in", ["R", "NR"], "hidden"),
            "An R-rated one please.",
            "That's too tame.",
        ),
        (
            ("genres", "not_contains", "Comedy", "hidden"),
            "No comedies please.",
            "Not my kind of movie.",
        ),
        (
            ("streaming_services", "contains_any", ["Hulu"], "hidden"),
            "It must be on Hulu.",
            "I can't watch that one.",
        ),
        (
            ("release_date", ">=", "2010-01-01", "hidden"),
            "Released in 2010 or later.",
            "That feels too old.",
        ),
        (
            ("director", "==", "Dee Rector", "hidden"),
            "Something by Dee Rector.",
            "Not the filmmaker I want.",
        ),
    ],
)
def test_value_mentions_per_field(
    make_task: Callable[..., Task], constraint: tuple[str, str, object, str], leaky: str, clean: str
) -> None:
    task = make_task([constraint], user_services=["Netflix", "Peacock"])
    assert audit(task, GREETING, leaky), leaky
    assert not audit(task, GREETING, clean), clean


def test_on_ask_may_be_stated_after_the_question(make_task: Callable[..., Task]) -> None:
    task = make_task([("runtime", "<=", 110, "on_ask")])
    assert audit(task, GREETING, "Nothing over 110 minutes.")
    assert not audit(task, GREETING, "Hi", "How long can it be?", "Nothing over 110 minutes.")


def test_echoes_and_subscription_lists_are_not_leaks(make_task: Callable[..., Task]) -> None:
    task = make_task([("runtime", "<=", 110, "hidden"), ("streaming_services", "contains_any", ["Netflix", "Hulu"], "hidden")],
                     user_services=["Netflix"])  # fmt: skip
    assert not audit(task, "It's 134 minutes long, okay?", "134 minutes is too much for me.")
    assert not audit(task, GREETING, "Hi", "Which services do you have?", "I have Netflix.")
    assert audit(task, GREETING, "It should be on Netflix or Hulu.")


def test_message_leaks_counts_volunteer_values_as_allowed(make_task: Callable[..., Task]) -> None:
    task = make_task([("runtime", ">=", 90, "volunteer"), ("runtime", "<=", 140, "on_ask")])
    assert not message_leaks(task, "At least 90 minutes long, please.", set())
    assert message_leaks(task, "Between 90 and 140 minutes.", set())


def _probe(task: Task, catalog: Catalog, seed: int) -> Transcript:
    """Propose a seed-dependent slice of the catalog before asking anything, then ask about every
    attribute, then propose a few more: exercises openings, hints and answers."""
    user = ScriptedUser(task, catalog, seed)
    items = catalog.items[seed::8][:20]
    events = [MessageEvent(role="agent", content=GREETING)]

    def say(text: str) -> None:
        events.append(MessageEvent(role="agent", content=text))
        events.append(MessageEvent(role="user", content=user.reply(events).content))

    events.append(MessageEvent(role="user", content=user.reply(events).content))
    for item in items[:16]:
        say(f"How about {item.title}?")
    say("What kind of movie? How long? Any age rating? How well reviewed? Which streaming services "
        "do you have? How recent? Any director or actors? How well known?")  # fmt: skip
    for item in items[16:]:
        say(f"How about {item.title}?")
    say("I couldn't find anything that fits, sorry.")
    say("Okay.")
    return Transcript(task_id=task.id, agent=ComponentSpec(name="probe"),
                      simulator=user.spec, events=events)  # fmt: skip


@pytest.mark.slow
def test_scripted_user_never_leaks_on_v1(v1_dir: Path) -> None:
    catalog = Catalog.load(v1_dir)
    for task in load_tasks(v1_dir / "tasks"):
        for seed in range(8):
            result = audit_leaks(task, _probe(task, catalog, seed))
            assert result.clean, (task.id, seed, result.leaks)


@pytest.mark.slow
def test_scripted_user_never_leaks_on_our_suite() -> None:
    from domains.movies.validate import resolve_catalog_path

    catalog = Catalog.load(resolve_catalog_path(None))
    for task in load_tasks(TASKS_DIR):
        for seed in range(8):
            result = audit_leaks(task, _probe(task, catalog, seed))
            assert result.clean, (task.id, seed, result.leaks)


def test_audits_are_remembered_per_task_object_never_across_tasks(
    make_task: Callable[..., Task],
) -> None:
    """Each user message is audited once per task; two tasks (even with the same id) and two
    positions in the talk (asked before or not) keep their own verdicts."""
    hidden = make_task([("runtime", "<=", 110, "hidden")])
    same_id_on_ask = make_task([("runtime", "<=", 110, "on_ask")])
    free = make_task([("genres", "contains", "Comedy", "volunteer")])
    line = "Nothing over 110 minutes."
    for _ in range(2):  # the second round answers from the memo
        assert audit(hidden, GREETING, line)
        assert audit(same_id_on_ask, GREETING, line)
        assert not audit(same_id_on_ask, GREETING, "Hi", "How long can it be?", line)
        assert not audit(free, GREETING, line)
