"""LLM mode (`litellm:<model>`): a model reader and writer around the scripted user's engine, over real loopback HTTP.

The reader and writer are the model server's stand-ins (`taurec-user-reader` / `-writer`, or
`taurec-user` for both), answering as a provider would; planted faults are small handlers that
wrap them. No mocks: every call goes through the client path a run uses.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest

from domains.movies.catalog import Catalog
from domains.movies.served import reader_policy, writer_policy
from domains.movies.simulators import audit_leaks, build_simulator
from domains.movies.simulators.acts import ReplyAct
from domains.movies.simulators.model_reader import READER_PROMPT
from domains.movies.simulators.model_writer import GuardContext, check_words
from domains.movies.tasks import Task, load_tasks
from domains.movies.tools import build_toolset
from domains.movies.validate import resolve_catalog_path
from runner.agents import build_builtin
from runner.core.errors import InfraFailure, TaurecError
from runner.core.paths import TASKS_DIR
from runner.core.protocols import AgentContext
from runner.core.transcript import Transcript
from runner.models.llm_client import CLIENT_ENV
from runner.models.llm_client import run_closing_clients as run
from runner.models.model_server import serve_model
from runner.play.loop import GREETING, run_trial
from tests.loopback import QuietHandler, completion, send_json, serving

from .conftest import chat

FAST = {"max_attempts": 2, "initial_backoff_s": 0.0, "max_backoff_s": 0.0, "max_total_s": 10}
TASK_IDS = ("task_001", "task_007", "task_013", "task_024")


@pytest.fixture(scope="module")
def suite_catalog() -> Catalog:
    return Catalog.load(resolve_catalog_path(None))


@pytest.fixture(scope="module")
def suite() -> dict[str, Task]:
    return {t.id: t for t in load_tasks(TASKS_DIR)}


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with serve_model() as url:
        yield url


def trial(
    task: Task, catalog: Catalog, simulator: str, seed: int, options: dict[str, Any] | None = None
) -> Transcript:
    policy = (TASKS_DIR / "policy.md").read_text(encoding="utf-8")
    context = AgentContext(user_id=task.user_id, policy_text=policy, seed=seed, task=task)
    user = build_simulator(simulator, task=task, catalog=catalog, seed=seed, options=options)
    return run(
        run_trial(task=task, catalog=catalog, agent=build_builtin("heuristic", context),
                  simulator=user, toolset=build_toolset(catalog, task), seed=seed)
    )  # fmt: skip


def verdicts(t: Transcript) -> list[str]:
    return [m.content for m in t.messages if m.role == "user"]


def test_llm_mode_end_to_end_is_the_scripted_user_with_no_fallback_and_no_leak(
    server: str, suite: dict[str, Task], suite_catalog: Catalog
) -> None:
    for task_id in TASK_IDS:
        task = suite[task_id]
        for seed in (0, 1):
            llm = trial(
                task, suite_catalog, "litellm:openai/taurec-user", seed, {"api_base": server}
            )
            assert llm.stop_reason in ("recommended", "abstained", "user_left"), llm.error
            assert llm.simulator.name == "litellm"
            assert llm.simulator.args["reader"] == llm.simulator.args["writer"] == "model"
            assert llm.usage["user:openai/taurec-user"].calls >= 2
            assert llm.simulator_notes == [], llm.simulator_notes
            assert audit_leaks(task, llm).leaks == []
            # Decisions are the engine's and the stand-ins say the template's words: the whole
            # conversation, verdicts included, is the scripted user's.
            scripted = trial(task, suite_catalog, "scripted", seed)
            assert llm.messages == scripted.messages
            assert llm.stop_reason == scripted.stop_reason
            assert llm.recommendations == scripted.recommendations


def test_same_seed_same_transcript(
    server: str, suite: dict[str, Task], suite_catalog: Catalog
) -> None:
    task = suite["task_013"]
    options = {"api_base": server}
    first = trial(task, suite_catalog, "litellm:openai/taurec-user", 3, options)
    again = trial(task, suite_catalog, "litellm:openai/taurec-user", 3, options)
    assert first.content_json() == again.content_json()


@pytest.mark.slow
def test_separate_reader_and_writer_models_and_the_litellm_client(
    server: str, suite: dict[str, Task], suite_catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The JSON-schema request and the writer's go through LiteLLM itself when it is chosen."""
    monkeypatch.setenv(CLIENT_ENV, "litellm")
    task = suite["task_001"]
    options = {
        "api_base": server,
        "reader_model": "openai/taurec-user-reader",
        "writer_model": "openai/taurec-user-writer",
    }
    llm = trial(task, suite_catalog, "litellm:openai/taurec-user", 0, options)
    assert llm.simulator_notes == []
    assert {"user:openai/taurec-user-reader", "user:openai/taurec-user-writer"} <= set(llm.usage)
    assert llm.simulator.args["reader_model"] == "openai/taurec-user-reader"
    assert llm.simulator.args["writer_model"] == "openai/taurec-user-writer"
    assert llm.messages == trial(task, suite_catalog, "scripted", 0).messages


class _Planted(QuietHandler):
    """The stand-ins, with a fault planted in one of them (`mode`), served on loopback."""

    mode: ClassVar[str] = "ok"
    requests: ClassVar[list[dict[str, Any]]] = []
    # "overlap" mode: the reader answers once a writer request has come in (or after 10 s), and
    # records which.
    writer_came = threading.Event()
    overlapped: ClassVar[list[bool]] = []

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).requests.append(body)
        messages = body["messages"]
        reading = messages[0]["content"] == READER_PROMPT
        if not reading:
            type(self).writer_came.set()
        if reading:
            content = reader_policy(messages, [], 0).content or ""
            if self.mode == "overlap":
                type(self).overlapped.append(type(self).writer_came.wait(10))
            if self.mode == "malformed_reader":
                content = '{"asked": ["mood"], "proposed": [], "nothing_fits": false}'
            elif self.mode == "deaf_reader":  # valid, and not what the rules read
                content = '{"asked": [], "proposed": [], "nothing_fits": false}'
            elif self.mode == "garbled_reader":
                content = "sure, they asked about the length"
        else:
            content = writer_policy(messages, [], 0).content or ""
            act = json.loads(messages[-1]["content"])["act"]
            hints = [p for p in act["parts"] if p["kind"] == "decline" and p["reason"] == "hint"]
            if self.mode == "leaky_writer" and hints:
                c = hints[0]["constraint"]
                content += f" Honestly, my limit is {c['field']} {c['op']} {c['value']}."
                if c["field"] == "runtime":
                    content += f" Under {c['value']} minutes."
        send_json(self, completion(content, body["model"], 10, 5))


@pytest.fixture
def planted() -> Iterator[tuple[str, type[_Planted]]]:
    _Planted.mode, _Planted.requests, _Planted.overlapped = "ok", [], []
    _Planted.writer_came = threading.Event()
    with serving(_Planted) as httpd:
        yield f"http://127.0.0.1:{httpd.server_port}/v1", _Planted


@pytest.fixture
def hidden_runtime(make_task: Callable[..., Task]) -> Task:
    return make_task(
        [("genres", "contains", "Comedy", "volunteer"), ("runtime", "<=", 100, "hidden")],
        user_services=["Netflix", "Hulu"],
    )


def _model_and_scripted(url: str, task: Task, catalog: Catalog) -> tuple[Any, Any]:
    """The model-backed user at `url` (fast retries) and the scripted user, on the same task."""
    options = {"api_base": url, "retry": FAST}
    user = build_simulator("litellm:openai/x", task=task, catalog=catalog, seed=0, options=options)
    return user, build_simulator("scripted", task=task, catalog=catalog, seed=0)


def test_a_leaking_writer_is_caught_and_the_template_words_are_said(
    planted: tuple[str, type[_Planted]], catalog: Catalog, hidden_runtime: Task
) -> None:
    url, handler = planted
    handler.mode = "leaky_writer"
    user, scripted = _model_and_scripted(url, hidden_runtime, catalog)
    # "Long Night Parade" (131 min) breaks the hidden runtime <= 100: a hint decline.
    conversation = chat(GREETING, "Hi! I want a comedy.", "How about Long Night Parade?")
    turn = run(user.respond(conversation))
    said = run(scripted.respond(conversation))
    assert turn.verdict == said.verdict == "decline"
    assert turn.content == said.content, "the template's words, not the leaking ones"
    assert "100" not in turn.content
    [note] = [n for n in turn.notes if n.component == "writer"]
    assert note.reason == "leak"
    assert "runtime" in note.detail


def test_a_whole_trial_with_a_leaking_writer_has_no_leak_and_counts_the_catches(
    planted: tuple[str, type[_Planted]], suite: dict[str, Task], suite_catalog: Catalog
) -> None:
    url, handler = planted
    handler.mode = "leaky_writer"
    task = suite["task_042"]  # the heuristic agent meets two hint declines here (seed 0)
    leaky = trial(task, suite_catalog, "litellm:openai/x", 0, {"api_base": url})
    caught = [n for n in leaky.simulator_notes if n.reason == "leak"]
    assert len(caught) == 2
    assert all(leaky.events[n.message_index or 0].type == "message" for n in caught)
    assert audit_leaks(task, leaky).leaks == []
    # The words said are the templates', so the trial is the scripted one.
    assert leaky.messages == trial(task, suite_catalog, "scripted", 0).messages


@pytest.mark.parametrize(("mode", "reason"), [("malformed_reader", "invalid_answer"),
                                              ("garbled_reader", "invalid_json")])  # fmt: skip
def test_an_unusable_reading_falls_back_to_the_rules_and_is_counted(
    planted: tuple[str, type[_Planted]],
    catalog: Catalog,
    hidden_runtime: Task,
    mode: str,
    reason: str,
) -> None:
    url, handler = planted
    handler.mode = mode
    user = build_simulator(
        "litellm:openai/x", task=hidden_runtime, catalog=catalog, seed=0, options={"api_base": url}
    )
    scripted = build_simulator("scripted", task=hidden_runtime, catalog=catalog, seed=0)
    conversation = chat(GREETING, "Hi! I want a comedy.", "How long can it be, at most?")
    turn = run(user.respond(conversation))
    assert turn.content == run(scripted.respond(conversation)).content
    [note] = turn.notes
    assert (note.component, note.reason) == ("reader", reason)
    # Each trial has its own reader: the next trial asks the model again.
    before = sum(1 for r in handler.requests if r["messages"][0]["content"] == READER_PROMPT)
    again = build_simulator(
        "litellm:openai/x", task=hidden_runtime, catalog=catalog, seed=0, options={"api_base": url}
    )
    assert [n.reason for n in run(again.respond(conversation)).notes] == [reason]
    after = sum(1 for r in handler.requests if r["messages"][0]["content"] == READER_PROMPT)
    assert after == before + 1


def test_the_reader_request_carries_a_closed_json_schema(
    planted: tuple[str, type[_Planted]], catalog: Catalog, hidden_runtime: Task
) -> None:
    url, handler = planted
    user = build_simulator(
        "litellm:openai/x", task=hidden_runtime, catalog=catalog, seed=0, options={"api_base": url}
    )
    run(user.respond(chat(GREETING, "Hi!", "Is Velvet Static or Copper Lanterns more your thing?")))
    [request] = [r for r in handler.requests if r["messages"][0]["content"] == READER_PROMPT]
    schema = request["response_format"]["json_schema"]["schema"]
    assert schema["additionalProperties"] is False
    assert set(schema["properties"]["asked"]["items"]["enum"]) >= {"genres", "runtime", "cast"}
    assert schema["properties"]["proposed"]["items"]["enum"] == ["tmdb_3", "tmdb_1"]


def test_a_model_that_fails_every_retry_is_a_fallback_not_an_infra_error(
    catalog: Catalog, hidden_runtime: Task
) -> None:
    class Down(QuietHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers["Content-Length"]))
            send_json(self, {"error": {"message": "boom", "type": "server_error"}}, 500)

    with serving(Down) as httpd:
        url = f"http://127.0.0.1:{httpd.server_port}/v1"
        user, scripted = _model_and_scripted(url, hidden_runtime, catalog)
        conversation = chat(GREETING, "Hi!", "What genres do you like?")
        turn = run(user.respond(conversation))
    assert turn.content == run(scripted.respond(conversation)).content
    assert sorted((n.component, n.reason) for n in turn.notes) == [
        ("reader", "model_error"),
        ("writer", "model_error"),
    ]


def test_a_missing_key_is_a_configuration_error(
    catalog: Catalog, hidden_runtime: Task, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    user = build_simulator(
        "litellm:openai/gpt-4.1-mini", task=hidden_runtime, catalog=catalog, seed=0
    )
    with pytest.raises(InfraFailure) as failure:
        run(user.respond(chat(GREETING)))
    assert failure.value.kind == "AuthenticationError"


def test_options_are_checked(catalog: Catalog, hidden_runtime: Task) -> None:
    build = lambda options: build_simulator(  # noqa: E731
        "litellm:openai/x", task=hidden_runtime, catalog=catalog, seed=0, options=options
    )
    with pytest.raises(TaurecError, match="unknown option"):
        build({"nonsense": 1})
    with pytest.raises(TaurecError, match="writer must be one of"):
        build({"writer": "poetry"})
    with pytest.raises(TaurecError, match="speculate must be true or false"):
        build({"speculate": "sometimes"})
    rules = build({"reader": "rules", "writer": "templates"})
    assert rules.spec.args["reader"] == "rules"
    assert rules.spec.args["writer"] == "templates"
    assert "speculate" not in rules.spec.args
    assert build({"speculate": False}).spec.args["speculate"] is False


def _user(task: Task, catalog: Catalog, url: str, **options: Any) -> Any:
    """An LLM-mode user of `task` against `url`, seed 0, with these options."""
    return build_simulator(
        "litellm:openai/x", task=task, catalog=catalog, seed=0, options={"api_base": url, **options}
    )


def _writer_acts(requests: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        json.loads(r["messages"][-1]["content"])["act"]
        for r in requests
        if r["messages"][0]["content"] != READER_PROMPT
    ]


def test_the_reply_is_worded_while_the_model_reads(
    planted: tuple[str, type[_Planted]], catalog: Catalog, hidden_runtime: Task
) -> None:
    """The writer's request goes out before the reader has answered (one wait per turn, not
    two), and the words are the ones the one-after-the-other user says."""
    url, handler = planted
    handler.mode = "overlap"
    conversation = chat(GREETING, "Hi! I want a comedy.", "How long can it be, at most?")
    turn = run(_user(hidden_runtime, catalog, url).respond(conversation))
    assert handler.overlapped == [True]
    assert [u.model for u in turn.usage] == ["openai/x", "openai/x"]
    handler.mode = "ok"
    plain = _user(hidden_runtime, catalog, url, speculate=False)
    handler.requests.clear()
    said = run(plain.respond(conversation))
    assert (turn.content, turn.verdict, turn.usage) == (said.content, said.verdict, said.usage)
    scripted = build_simulator("scripted", task=hidden_runtime, catalog=catalog, seed=0)
    assert turn.content == run(scripted.respond(conversation)).content


def test_a_wrong_guess_is_paid_for_and_never_said(
    planted: tuple[str, type[_Planted]], catalog: Catalog, hidden_runtime: Task
) -> None:
    """When the model reads the message otherwise than the rules, the reply to the model's
    reading is written and said; the guess's call is counted in the usage, its words are not."""
    url, handler = planted
    handler.mode = "deaf_reader"
    conversation = chat(GREETING, "Hi! I want a comedy.", "How long can it be, at most?")
    turn = run(_user(hidden_runtime, catalog, url).respond(conversation))
    # Two writer calls: the guess (sent while the model reads) and the one after its reading.
    # They run at once, so the server may see them in either order on a busy machine.
    both = _writer_acts(handler.requests)
    handler.requests.clear()
    plain = _user(hidden_runtime, catalog, url, speculate=False)
    said = run(plain.respond(conversation))
    (written,) = _writer_acts(handler.requests)
    assert len(both) == 2
    assert written in both
    (guessed,) = [act for act in both if act != written]
    assert guessed != written
    assert (turn.content, turn.verdict, turn.notes) == (said.content, said.verdict, said.notes)
    assert len(turn.usage) == len(said.usage) + 1 == 3
    # The rules would have answered the length question; the model heard none, and its reading
    # is the one the user acts on.
    rules = _user(hidden_runtime, catalog, url, reader="rules", writer="templates")
    assert turn.content != run(rules.respond(conversation)).content


def test_whole_trials_are_the_same_with_and_without_the_guess(
    server: str, suite: dict[str, Task], suite_catalog: Catalog
) -> None:
    task = suite["task_024"]
    for seed in (0, 1):
        on = trial(task, suite_catalog, "litellm:openai/taurec-user", seed, {"api_base": server})
        off = trial(
            task,
            suite_catalog,
            "litellm:openai/taurec-user",
            seed,
            {"api_base": server, "speculate": False},
        )
        assert off.simulator.args.pop("speculate") is False
        assert on.content_json() == off.content_json()


def test_the_guard_checks(catalog: Catalog, hidden_runtime: Task) -> None:
    """Each check on its own, against the template wording of the same act."""
    guard = GuardContext(hidden_runtime, frozenset(), "")
    opening = ReplyAct.model_validate(
        {"parts": [{"kind": "opening", "constraints": [
            {"field": "genres", "op": "contains", "value": "Comedy"}]}]}
    )  # fmt: skip
    reference = "Hi! I'm looking for a comedy."
    assert (
        check_words("Hello, a comedy tonight please.", opening, reference, catalog, guard) is None
    )
    assert check_words("Hello, any film.", opening, reference, catalog, guard) == (
        "missing_value",
        "genres 'Comedy' is not stated",
    )
    leak = check_words("A comedy under 100 minutes.", opening, reference, catalog, guard)
    assert leak is not None
    assert leak[0] == "leak"
    title = check_words("A comedy like Velvet Static.", opening, reference, catalog, guard)
    assert title is not None
    assert title[0] == "extra_title"
    accept = ReplyAct.model_validate(
        {"verdict": "accept", "parts": [{"kind": "accept", "title": "Velvet Static"}]}
    )
    ok = "That sounds great, let's go with it."
    assert check_words("Velvet Static it is, lovely.", accept, ok, catalog, guard) is None
    contrary = check_words("No thanks, not for me.", accept, ok, catalog, guard)
    assert contrary is not None
    assert contrary[0] == "contrary"
    assert check_words("  ", accept, ok, catalog, guard) == ("empty", "no words")


def test_the_trial_record_counts_the_notes(tmp_path: Path) -> None:
    from runner.core.records import simulator_error_counts
    from runner.core.transcript import ComponentSpec, SimulatorNote

    t = Transcript(
        task_id="t",
        agent=ComponentSpec(name="a"),
        simulator=ComponentSpec(name="litellm"),
        simulator_notes=[
            SimulatorNote(component="writer", reason="leak"),
            SimulatorNote(component="reader", reason="invalid_json"),
            SimulatorNote(component="writer", reason="leak"),
        ],
    )
    assert simulator_error_counts(t) == {"reader:invalid_json": 1, "writer:leak": 2}
    # Schema 2 transcripts (before the notes) load as schema 3 with none.
    old = json.loads(t.model_dump_json())
    old.update(schema_version=2)
    del old["simulator_notes"]
    assert Transcript.model_validate(old).simulator_notes == []


def test_an_engine_state_copy_holds_every_field_and_shares_nothing() -> None:
    """The guess reacts on a copy: a field missing from `EngineState.copy` would leak the guess's
    decisions into the real conversation."""
    import dataclasses
    from collections import Counter

    from domains.movies.simulators.engine import EngineState

    state = EngineState(
        asked={"genres"}, named={"tmdb_1"}, accepted={"tmdb_2"}, pending="runtime", declines=2,
        strikes=1, form=True, times=Counter({"x": 2}), hinted={3: [1.0]}, described={"tmdb_1"},
    )  # fmt: skip
    defaults = EngineState()
    for f in dataclasses.fields(EngineState):
        assert getattr(state, f.name) != getattr(defaults, f.name), f"set {f.name} in this test"
    copy = state.copy()
    assert copy == state
    for f in dataclasses.fields(EngineState):
        value = getattr(copy, f.name)
        if isinstance(value, set | dict | list):
            assert value is not getattr(state, f.name), f.name
    copy.hinted[3].append(2.0)
    assert state.hinted == {3: [1.0]}
