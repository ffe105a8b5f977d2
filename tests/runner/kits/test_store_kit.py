"""The store kit on its own, over a tiny counter store: plumbing, replay and state comparison."""

from __future__ import annotations

from typing import Annotated, Any

import pytest
from pydantic import BaseModel, Field

from runner.core.toolkit import ToolError, definition_of, tool
from runner.core.transcript import MessageEvent, ToolCallEvent, Transcript
from runner.kits.store.store import (
    Action,
    ReplayError,
    StoreError,
    StoreTools,
    replay,
    state_differences,
    trial_writes,
)


class _State(BaseModel):
    counts: dict[str, int]
    log: list[str]


class _Tools(StoreTools):
    write_tools = frozenset({"bump"})

    def __init__(self) -> None:
        self.counts: dict[str, int] = {"a": 0}
        self.log: list[str] = []
        self._definitions = {
            d.name: d for d in (definition_of(_Tools.bump), definition_of(_Tools.peek))
        }

    @tool
    def bump(
        self, key: Annotated[str, Field(description="The counter")], by: int = 1
    ) -> dict[str, Any]:
        """Add `by` to a counter (at most 3 in all)."""
        if key not in self.counts:
            raise ToolError(f"unknown counter {key!r}")
        if self.counts[key] + by > 3:
            raise StoreError(f"{key} would pass 3")
        self.counts[key] += by
        self.log.append(f"{key}+{by}")
        return {"key": key, "now": self.counts[key]}

    @tool
    def peek(self, key: str) -> dict[str, Any]:
        """Read a counter."""
        return {"key": key, "now": self.counts.get(key)}

    def final_state(self) -> _State:
        return _State(counts=dict(self.counts), log=list(self.log))


def test_bad_calls_become_error_results_that_change_nothing() -> None:
    tools = _Tools()
    assert tools.names == ["bump", "peek"]
    assert tools.call("bmup", "{}").content.startswith(
        "{\"error\": \"unknown tool 'bmup'; did you mean 'bump'?\""
    )
    assert tools.call("bump", "[1]").is_error
    assert "missing required argument 'key'" in tools.call("bump", {}).content
    assert "unknown counter" in tools.call("bump", {"key": "z"}).content
    assert tools.call("bump", {"key": "a", "by": 2}).is_error is False
    refused = tools.call("bump", {"key": "a", "by": 2})
    assert refused.is_error
    assert "would pass 3" in refused.content
    assert tools.final_state() == _State(counts={"a": 2}, log=["a+2"])


def test_a_trial_replays_on_a_fresh_store_to_the_same_state() -> None:
    live = _Tools()
    events: list[Any] = [MessageEvent(role="agent", content="hi")]
    calls: list[tuple[str, dict[str, Any]]] = [
        ("bump", {"key": "a"}),
        ("peek", {"key": "a"}),
        ("bump", {"key": "a", "by": 9}),
        ("bump", {"key": "a", "by": 2}),
    ]
    for name, args in calls:
        outcome = live.call(name, args)
        events.append(
            ToolCallEvent(
                name=name, arguments=args, result=outcome.content, is_error=outcome.is_error
            )
        )
    transcript = Transcript(
        task_id="t", agent={"name": "a"}, simulator={"name": "u"}, events=events
    )
    writes = list(trial_writes(transcript, _Tools.write_tools))
    assert [(i, a.arguments) for i, a in writes] == [(1, {"key": "a"}), (4, {"key": "a", "by": 2})]
    fresh = _Tools()
    done = replay(fresh, writes)
    assert [w.result for w in done] == [{"key": "a", "now": 1}, {"key": "a", "now": 3}]
    assert state_differences(live.final_state(), fresh.final_state()) == []


def test_a_gold_sequence_that_fails_on_a_fresh_store_raises_and_states_differ_by_path() -> None:
    gold = [
        Action(name="bump", arguments={"key": "a", "by": 3}),
        Action(name="bump", arguments={"key": "a"}),
    ]
    with pytest.raises(ReplayError, match="bump at 1 fails on a fresh store"):
        replay(_Tools(), enumerate(gold))
    expected = _State(counts={"a": 3}, log=["a+3"])
    got = _State(counts={"a": 1, "b": 0}, log=["a+1"])
    assert state_differences(expected, got) == [
        "counts.a: expected 3, got 1",
        "counts.b: expected null, got 0",
        'log[0]: expected "a+3", got "a+1"',
    ]
