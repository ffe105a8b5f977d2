"""Under `rules: v1` the tools say what the published harness said; the one cap kept is shown.

The first tests hold hand-written expectations and always run. The last compares every tool's
text with the published harness itself, byte for byte, over every v1 task: its source is taken
from the local mirror of its repository (TAUREC_V1_SOURCE, a git directory, overrides) into a
temporary folder and imported from there; without the mirror that one test is skipped.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from domains.movies.catalog import Catalog
from domains.movies.scoring import score_transcript
from domains.movies.tasks import Task, load_task, load_tasks
from domains.movies.tools import CatalogTools, build_toolset
from runner.core.protocols import AgentReply, ChatMessage, ToolCallRequest, ToolSchema
from runner.core.rules import V1_GREETING, V2_GREETING, get_rules
from runner.core.transcript import ComponentSpec
from runner.play.loop import run_trial
from tests.movie_world import FixedUser

PUBLISHED_MIRROR = Path(
    os.environ.get("TAUREC_V1_SOURCE", "/work/.mirror/nbharaths+tau-rec/repo")
).expanduser()


@pytest.fixture(scope="module")
def v1_task(v1_dir: Path) -> Task:
    """A v1 task whose user has watched something (so the history has entries)."""
    return next(t for t in load_tasks(v1_dir / "tasks") if t.watched)


def tools_for(catalog: Catalog, task: Task, rules: str) -> CatalogTools:
    return build_toolset(catalog, task, rules=get_rules(rules))


def text(tools: CatalogTools, name: str, arguments: dict[str, Any]) -> str:
    return tools.call(name, json.dumps(arguments)).content


def test_v1_errors_are_the_published_texts(v1_catalog: Catalog, v1_task: Task) -> None:
    v1 = tools_for(v1_catalog, v1_task, "v1")
    assert text(v1, "get_metadata", {"item_id": "tmdb_0"}) == '{"error": "Movie not found: tmdb_0"}'
    assert text(v1, "check_availability", {"item_id": "x", "services": []}) == (
        '{"error": "Movie not found: x"}'
    )
    assert text(v1, "get_user_history", {"user_id": "nobody"}) == (
        '{"error": "User not found: nobody"}'
    )
    assert text(v1, "search_catalog", {}) == ('{"error": "Missing required argument: \'query\'"}')
    assert text(v1, "find_movie", {"q": 1}) == '{"error": "Unknown tool: find_movie"}'
    v2 = tools_for(v1_catalog, v1_task, "v2")
    assert "use search_catalog" in text(v2, "get_metadata", {"item_id": "tmdb_0"})
    assert "did you mean" in text(v2, "search_catalgo", {"query": "x"})


def test_v1_rates_an_unknown_rating_as_not_restricted(v1_catalog: Catalog, v1_task: Task) -> None:
    v1 = tools_for(v1_catalog, v1_task, "v1")
    for rating in ("PG-14", "r", "TV-MA"):
        outcome = v1.call("check_content_preference", json.dumps({"content_rating": rating}))
        assert not outcome.is_error
        assert json.loads(outcome.content) == {
            "restricted": False,
            "rating": rating,
            "message": "This rating is not age-restricted.",
        }
    assert json.loads(text(v1, "check_content_preference", {"content_rating": "NC-17"}))[
        "restricted"
    ]
    v2 = tools_for(v1_catalog, v1_task, "v2")
    assert v2.call("check_content_preference", '{"content_rating": "PG-14"}').is_error


def test_v1_history_has_no_extra_fields(v1_catalog: Catalog, v1_task: Task) -> None:
    arguments = {"user_id": v1_task.user_id}
    published = json.loads(
        text(tools_for(v1_catalog, v1_task, "v1"), "get_user_history", arguments)
    )
    assert list(published) == ["watched", "ratings"]
    assert {tuple(entry) for entry in published["watched"]} == {("id", "title")}
    assert [e["id"] for e in published["watched"]] == v1_task.watched
    ours = json.loads(text(tools_for(v1_catalog, v1_task, "v2"), "get_user_history", arguments))
    assert ours["user_id"] == v1_task.user_id
    assert any("user_rating" in entry for entry in ours["watched"]) == bool(
        set(v1_task.watched) & set(ours["ratings"])
    )


def test_v1_json_escapes_letters_as_published(v1_catalog: Catalog, v1_task: Task) -> None:
    accented = next(i for i in v1_catalog.items if not i.overview.isascii())
    word = next(w for w in accented.overview.split() if not w.isascii())
    v1 = text(tools_for(v1_catalog, v1_task, "v1"), "get_metadata", {"item_id": accented.id})
    assert word in v1  # get_metadata was pydantic's JSON: letters as they are, no spaces
    assert v1.startswith('{"id":"')
    found = text(tools_for(v1_catalog, v1_task, "v1"), "search_catalog", {"query": word})
    assert word not in found  # search results were json.dumps: escaped
    assert json.dumps(word)[1:-1] in found


class OneReplyAgent:
    """Replies once with the given tool calls, then keeps saying it is thinking."""

    def __init__(self, calls: list[tuple[str, dict[str, Any]]]) -> None:
        self.calls = calls
        self.seen: list[ChatMessage] = []

    @property
    def spec(self) -> ComponentSpec:
        return ComponentSpec(name="one-reply")

    async def step(self, messages: list[ChatMessage], tools: list[ToolSchema]) -> AgentReply:
        if self.seen:
            return AgentReply(content="Still thinking.")
        self.seen = list(messages)
        return AgentReply(
            tool_calls=[
                ToolCallRequest(id=f"c{i}", name=name, arguments=json.dumps(arguments))
                for i, (name, arguments) in enumerate(self.calls)
            ]
        )


def trial(catalog: Catalog, task: Task, rules: str, agent: OneReplyAgent) -> Any:
    return asyncio.run(
        run_trial(
            task=task,
            catalog=catalog,
            agent=agent,
            simulator=FixedUser("Something good, please.", "plain"),
            toolset=build_toolset(catalog, task, rules=get_rules(rules)),
            seed=0,
            max_turns=3,
            rules=get_rules(rules),
        )
    )


def a_winning_title(catalog: Catalog, task: Task) -> str:
    return next(
        i.id
        for i in catalog.items
        if all(c.constraint.evaluate(i).satisfied for c in task.constraints)
        and i.id not in task.watched
        and i.content_rating not in ("R", "NC-17")
        and not i.sponsored
    )


def test_each_rule_set_opens_with_its_greeting(v1_catalog: Catalog, v1_task: Task) -> None:
    for rules, greeting in (("v1", V1_GREETING), ("v2", V2_GREETING)):
        agent = OneReplyAgent([("recommend", {})])
        transcript = trial(v1_catalog, v1_task, rules, agent)
        assert transcript.messages[0].content == greeting
        assert agent.seen[0] == {"role": "assistant", "content": greeting}


def test_the_tool_call_cap_ends_a_v1_trial_the_published_harness_scored(
    v1_catalog: Catalog, v1_dir: Path
) -> None:
    """The documented difference: 65 calls in one reply, then the right answer, scores 0 here."""
    task = next(
        t
        for t in load_tasks(v1_dir / "tasks")
        if not t.no_valid_recommendation and "watch_history" not in t.policy_flags
    )
    winner = a_winning_title(v1_catalog, task)
    calls = [("get_metadata", {"item_id": winner})] * 63 + [("recommend", {"item_id": winner})]
    under_cap = trial(v1_catalog, task, "v1", OneReplyAgent(calls))
    assert under_cap.stop_reason == "recommended"
    assert score_transcript(task, under_cap, v1_catalog).reward == 1.0
    over_cap = trial(v1_catalog, task, "v1", OneReplyAgent([calls[0], *calls]))  # 65 calls
    assert over_cap.stop_reason == "agent_error"
    assert over_cap.error is not None
    assert over_cap.error.kind == "ToolCallCap"
    assert score_transcript(task, over_cap, v1_catalog).reward == 0.0


def test_a_value_the_v1_tool_cannot_use_fails_the_trial(v1_catalog: Catalog, v1_task: Task) -> None:
    """The published tool raised on a list as an id; v1 fails the trial (the agent's), v2 says why."""
    calls = [("get_metadata", {"item_id": ["tmdb_1"]})]
    failed = trial(v1_catalog, v1_task, "v1", OneReplyAgent(calls))
    assert failed.stop_reason == "agent_error"
    assert failed.error is not None
    assert failed.error.kind == "MalformedToolArguments"
    assert score_transcript(v1_task, failed, v1_catalog).reward == 0.0
    told = trial(v1_catalog, v1_task, "v2", OneReplyAgent(calls))
    assert told.stop_reason != "agent_error"
    assert told.tool_calls[0].is_error


def test_a_blank_id_abstains_under_v2_only(v1_catalog: Catalog, v1_task: Task) -> None:
    """As documented: v2 reads a blank id like null; v1 ends the trial with it as the answer."""
    for blank in (" ", "  \t"):
        ours = tools_for(v1_catalog, v1_task, "v2").call(
            "recommend", json.dumps({"item_id": blank})
        )
        assert ours.stop == "abstained"
        published = tools_for(v1_catalog, v1_task, "v1").call(
            "recommend", json.dumps({"item_id": blank})
        )
        assert published.stop == "recommended"
        assert published.item_id == blank
        assert published.content == json.dumps({"error": f"Movie not found: {blank}"})


# -- the published harness itself ------------------------------------------------------------


@pytest.fixture(scope="module")
def published_toolkit(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[..., Any]]:
    """`make(catalog_path, user_histories)` -> the published ToolKit, imported from its source."""
    if not (PUBLISHED_MIRROR / "HEAD").exists():
        pytest.skip(
            f"the published harness's source is not at {PUBLISHED_MIRROR} (TAUREC_V1_SOURCE)"
        )
    tree = tmp_path_factory.mktemp("published")
    archive = subprocess.run(
        ["git", f"--git-dir={PUBLISHED_MIRROR}", "archive", "HEAD", "src/tau_rec"],
        check=True,
        capture_output=True,
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    sys.path.insert(0, str(tree / "src"))
    try:
        catalog_module = importlib.import_module("tau_rec.data_model.catalog")
        search_module = importlib.import_module("tau_rec.catalog.search")
        tools_module = importlib.import_module("tau_rec.environment.tools")

        def make(catalog_path: Path, user_histories: dict[str, Any]) -> Any:
            catalog = catalog_module.Catalog.from_json(str(catalog_path))
            search = search_module.CatalogSearch(catalog)
            return tools_module.ToolKit(catalog, search, user_histories=user_histories)

        yield make
    finally:
        sys.path.remove(str(tree / "src"))
        for name in [m for m in sys.modules if m == "tau_rec" or m.startswith("tau_rec.")]:
            del sys.modules[name]


def call_corpus(catalog: Catalog, raw_task: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Calls of every tool, with good and bad arguments, for one task."""
    ids = [i.id for i in catalog.items]
    calls: list[tuple[str, dict[str, Any]]] = [
        ("search_catalog", {"query": q})
        for q in ("horror", "Love story", "the", "space, adventure", "zzz", "")
    ]
    calls += [("get_metadata", {"item_id": i}) for i in ids]
    calls += [("get_metadata", {"item_id": "tmdb_0"}), ("get_metadata", {})]
    calls += [
        ("check_availability", {"item_id": ids[3], "services": ["Netflix", "Hulu", "Max"]}),
        ("check_availability", {"item_id": "tmdb_0", "services": ["Netflix"]}),
        ("check_availability", {"item_id": ids[3]}),
        ("get_user_history", {"user_id": raw_task["user_id"]}),
        ("get_user_history", {"user_id": "nobody"}),
        ("get_user_history", {}),
    ]
    calls += [
        ("check_content_preference", {"content_rating": r})
        for r in ("G", "PG", "PG-13", "R", "NC-17", "NR", "PG-14", "r")
    ]
    calls += [
        ("recommend", {}),
        ("recommend", {"item_id": None}),
        ("recommend", {"item_id": ""}),
        ("recommend", {"item_id": "tmdb_0"}),
        ("recommend", {"item_id": ids[5]}),
        ("find_movie", {"query": "x"}),
    ]
    return calls


def test_every_v1_tool_text_is_the_published_harness_s(
    published_toolkit: Callable[..., Any], v1_dir: Path, v1_catalog: Catalog
) -> None:
    compared = 0
    for path in sorted((v1_dir / "tasks").glob("*.json")):
        raw = json.loads(path.read_text("utf-8"))
        published = published_toolkit(v1_dir / "catalog.json", raw["user_history"] or {})
        ours = tools_for(v1_catalog, load_task(path), "v1")
        for name, arguments in call_corpus(v1_catalog, raw):
            assert text(ours, name, arguments) == published.call(name, arguments), (name, arguments)
            compared += 1
    assert compared >= 60 * 180
