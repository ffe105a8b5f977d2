"""Grocery's LLM mode (`litellm:<model>`): a model reader and writer around the scripted shopper's engine, over real loopback HTTP.

The reader and writer are the model server's stand-ins (`taurec-shopper-reader` / `-writer`, or
`taurec-shopper` for both), answering as a provider would; planted faults are a small handler
that wraps them. No mocks: every call goes through the client path a run uses.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from domains.grocery import GroceryDomain
from domains.grocery.agents import baselines
from domains.grocery.catalog import load_catalog
from domains.grocery.tasks import GroceryTask, load_tasks
from domains.grocery.user import UnknownUserError, build_user
from domains.grocery.user.leaks import audit_leaks
from domains.grocery.user.model import READER_PROMPT
from runner.core.protocols import AgentContext
from runner.core.rules import get_rules
from runner.core.transcript import MessageEvent, Transcript
from runner.models.llm_client import run_closing_clients as run
from runner.play.named_trial import play
from tests.domains.grocery.planted import MALFORMED, Planted

GROCERY = Path(__file__).resolve().parents[3] / "domains" / "grocery"
CATALOG = load_catalog(GROCERY / "snapshots" / "2026-11-01")
TASKS = {t.id: t for t in load_tasks(GROCERY / "tasks")}
FAST = {"max_attempts": 2, "initial_backoff_s": 0.0, "max_backoff_s": 0.0, "max_total_s": 10}
GREETING = "Hello! How can I help with your shopping?"


def _first(kind: str) -> GroceryTask:
    return next(t for t in TASKS.values() if t.kind == kind)


def trial(
    task: GroceryTask,
    seed: int,
    agent: str = "expert",
    simulator: str = "scripted",
    options: dict[str, Any] | None = None,
) -> Transcript:
    context = AgentContext(user_id=task.user_id, policy_text="", seed=seed)
    player = baselines()[agent](context, {})
    return run(
        play(GroceryDomain(), task, CATALOG, player, rules=get_rules("v2"), seed=seed,
             simulator=simulator, simulator_options=options)
    )  # fmt: skip


def acts(t: Transcript) -> list[str | None]:
    """The shopper's scored acts, message by message (its verdicts)."""
    return [m.act for m in t.messages if m.role == "user"]


@pytest.mark.parametrize("kind", ["order", "return", "substitution"])
@pytest.mark.parametrize("agent", ["expert", "heuristic", "bare-confirmer"])
def test_llm_mode_is_the_scripted_shopper_with_no_fallback_and_no_leak(
    server: str, kind: str, agent: str
) -> None:
    task = _first(kind)
    for seed in (0, 1):
        llm = trial(task, seed, agent, "litellm:openai/taurec-shopper", {"api_base": server})
        assert llm.simulator.name == "litellm"
        assert llm.simulator.args["reader"] == llm.simulator.args["writer"] == "model"
        assert llm.usage["user:openai/taurec-shopper"].calls >= 2
        assert llm.simulator_notes == [], llm.simulator_notes
        assert audit_leaks(task, llm).leaks == []
        # The engine decides and the stand-ins read as the rules and word as the templates: the
        # whole conversation, the shopper's verdicts included, is the scripted shopper's.
        scripted = trial(task, seed, agent)
        assert llm.messages == scripted.messages
        assert acts(llm) == acts(scripted)
        assert llm.stop_reason == scripted.stop_reason


def test_same_seed_same_transcript(server: str) -> None:
    task = _first("order")
    options = {"api_base": server}
    first = trial(task, 3, "heuristic", "litellm:openai/taurec-shopper", options)
    again = trial(task, 3, "heuristic", "litellm:openai/taurec-shopper", options)
    assert first.content_json() == again.content_json()


@pytest.mark.parametrize(
    ("mode", "reason", "kind"),
    [
        ("malformed_reader", "invalid_answer", "order"),
        ("garbled_reader", "invalid_json", "order"),
        ("inventing_reader", "unknown_product", "order"),
        # The account shopper's reader (an account task with several requests) falls back alike.
        ("malformed_reader", "invalid_answer", "multi"),
        ("garbled_reader", "invalid_json", "multi"),
    ],
)
def test_an_unusable_reading_falls_back_to_the_rule_reader_and_is_counted(
    planted: tuple[str, type[Planted]], mode: str, reason: str, kind: str
) -> None:
    url, handler = planted
    handler.mode = mode
    task = _first(kind)
    options = {"api_base": url, "retry": FAST}
    llm = trial(task, 0, "expert", "litellm:openai/x", options)
    scripted = trial(task, 0, "expert")
    # Every reading fell back to the rules, so the shopper decided exactly as the scripted one.
    assert llm.messages == scripted.messages
    assert acts(llm) == acts(scripted)
    readings = [r for r in handler.requests if r["messages"][0]["content"] in MALFORMED]
    notes = [n for n in llm.simulator_notes if n.component == "reader"]
    assert len(notes) == len(readings) >= 2
    assert {n.reason for n in notes} == {reason}
    assert [n for n in llm.simulator_notes if n.component == "writer"] == []


def test_a_leaking_writer_is_caught_and_the_template_words_are_said(
    planted: tuple[str, type[Planted]],
) -> None:
    url, handler = planted
    # An on_ask allergy (the first committed order with one): a leak until allergies are asked.
    task = next(
        t
        for t in TASKS.values()
        if t.kind == "order" and t.allergy_reveal == "on_ask" and t.allergies[:1] == ["celery"]
    )
    handler.mode, handler.leak = "leaky_writer", "Also, I can't have celery."
    options = {"api_base": url, "retry": FAST}
    user = build_user("litellm:openai/x", task=task, catalog=CATALOG, seed=0, options=options)
    scripted = build_user("scripted", task=task, catalog=CATALOG, seed=0)
    conversation = [MessageEvent(role="agent", content=GREETING)]
    turn = run(user.respond(conversation))
    assert turn.content == run(scripted.respond(conversation)).content
    assert "celery" not in turn.content
    [note] = turn.notes
    assert (note.component, note.reason) == ("writer", "leak")
    assert "celery" in note.detail
    # A whole trial: the catches are counted, the audit finds nothing, the verdicts are the same.
    leaky = trial(task, 0, "expert", "litellm:openai/x", options)
    assert any(n.reason == "leak" for n in leaky.simulator_notes)
    assert audit_leaks(task, leaky).leaks == []
    scripted_trial = trial(task, 0, "expert")
    assert acts(leaky) == acts(scripted_trial)
    assert leaky.stop_reason == scripted_trial.stop_reason


def test_the_reader_request_shows_every_namesake_and_a_closed_schema(
    planted: tuple[str, type[Planted]],
) -> None:
    url, handler = planted
    task = _first("order")
    user = build_user(
        "litellm:openai/x", task=task, catalog=CATALOG, seed=0, options={"api_base": url}
    )
    # A name several products share: the request carries all of them, the ids it may answer
    # are the ones the message names unambiguously (none), and the shopper asks which one.
    names: dict[str, list[str]] = {}
    for p in CATALOG.items:
        names.setdefault(p.name, []).append(p.id)
    shared, ids = next((n, i) for n, i in sorted(names.items()) if len(i) >= 2)
    conversation = [
        MessageEvent(role="agent", content=GREETING),
        MessageEvent(
            role="user",
            content=run(user.respond([MessageEvent(role="agent", content=GREETING)])).content,
        ),
        MessageEvent(role="agent", content=f"How about the {shared}?"),
    ]
    turn = run(user.respond(conversation))
    request = handler.requests[-2]  # the reading, then the writing
    assert request["messages"][0]["content"] == READER_PROMPT
    payload = json.loads(request["messages"][1]["content"])
    assert set(ids) <= {p["id"] for p in payload["products"]}
    schema = request["response_format"]["json_schema"]["schema"]
    assert schema["required"] == ["asked", "proposed", "confirm", "nothing_fits"]
    assert "allergies" in schema["properties"]["asked"]["items"]["enum"]
    assert turn.notes == []


def test_bad_options_and_unknown_modes_are_named(server: str) -> None:
    # (Account tasks have an LLM mode too: tests/domains/grocery/test_llm_account_shopper.py.)
    order = _first("order")
    with pytest.raises(Exception, match=r"unknown option.*speculate"):
        build_user(
            "litellm:openai/x", task=order, catalog=CATALOG, seed=0, options={"speculate": True}
        )
    with pytest.raises(UnknownUserError, match="litellm:<model>"):
        build_user("llm", task=order, catalog=CATALOG, seed=0)
