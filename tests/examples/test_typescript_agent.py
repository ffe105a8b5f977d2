"""The Node agent example, started with the system `node`, end to end through evaluate() and `taurec run`, in both domains."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from runner.batch import load_records, load_trial_transcript
from runner.core.paths import PROJECT_ROOT, TASKS_DIR
from runner.evaluation import evaluate
from runner.play.agent_config import HttpAgentConfig
from tests.entries import write_entry

GROCERY_TASKS = PROJECT_ROOT / "domains" / "grocery" / "tasks"

AGENT = PROJECT_ROOT / "examples" / "typescript-agent" / "agent.mjs"
TAUREC = Path(sys.executable).parent / "taurec"


@pytest.fixture(scope="module")
def node_agent() -> Iterator[str]:
    """`node agent.mjs --port 0`; the first line it prints names its address."""
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not installed (make test needs Node.js 20+)")
    process = subprocess.Popen([node, str(AGENT), "--port", "0"], stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline().strip()
        assert line.startswith("listening on http://127.0.0.1:"), line
        yield line.removeprefix("listening on ")
    finally:
        process.terminate()
        process.wait(timeout=10)
        if process.stdout is not None:
            process.stdout.close()


def _tasks(n: int) -> list[str]:
    return sorted(p.stem for p in TASKS_DIR.glob("*.json"))[:n]


def test_the_node_agent_through_evaluate(node_agent: str) -> None:
    result = evaluate(HttpAgentConfig(endpoint=node_agent), trials=2, tasks=_tasks(6))
    assert result.summary.counts.infra_error == 0, [t.line() for t in result.failures()]
    assert result.summary.counts.scored == 12
    # A reasonable agent, not a trivial one: it solves most of these tasks, and it never breaks
    # the policies it controls (a user who walks out still leaves `recommend` uncalled).
    p1 = result.pass_k(1)
    assert p1 is not None
    assert p1 >= 0.3, result.to_markdown()  # on the gated suite (single-winner volunteer tasks)
    rates = result.summary.policy_violation_rates
    for policy in ("watch_history", "sponsored", "age_restricted", "availability"):
        assert rates[policy].violations == 0, result.to_markdown()
    assert rates["single_recommendation"].violations == 0, result.to_markdown()


def test_the_node_agent_through_taurec_run(node_agent: str, tmp_path: Path) -> None:
    sub = write_entry(
        tmp_path / "subs" / "node-agent",
        {"kind": "http", "endpoint": node_agent},
        display_name="Node agent example",
        contact="Example",
        trials=1,
    )
    suite = tmp_path / "tasks"
    suite.mkdir()
    for task in _tasks(3):
        shutil.copy(TASKS_DIR / f"{task}.json", suite)
    shutil.copy(TASKS_DIR / "policy.md", suite)
    run = subprocess.run(
        [str(TAUREC), "run", str(sub), "--tasks", str(suite), "--concurrency", "3"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    [folder] = (sub / "results").iterdir()
    records = load_records(folder)
    assert [r.status for r in records] == ["scored"] * 3
    for record in records:
        transcript = load_trial_transcript(folder, record)
        names = [e.name for e in transcript.events if e.type == "tool_call"]
        # The policy's order: history first, then search and metadata, recommend last.
        assert names[0] == "get_user_history"
        assert "search_catalog" in names
        assert "get_metadata" in names
        if transcript.stop_reason in ("recommended", "abstained"):  # not when the user walked out
            assert names[-1] == "recommend"


def test_the_node_agent_refuses_what_is_not_a_protocol_request(node_agent: str) -> None:
    request = urllib.request.Request(
        node_agent, data=json.dumps({"hello": 1}).encode(), method="POST"
    )
    with pytest.raises(urllib.error.HTTPError) as caught:
        urllib.request.urlopen(request, timeout=10)
    with caught.value as response:
        assert response.code == 400
        assert "protocol_version" in json.loads(response.read())["error"]


# Returns (g001, g002), orders with allergies and budgets (g007, g010, g045), orders with nothing
# that fits (g013, g033, g056), substitutions (g014, g037, g059).
GROCERY_SLICE = [
    "task_g001",
    "task_g002",
    "task_g007",
    "task_g010",
    "task_g013",
    "task_g014",
    "task_g033",
    "task_g037",
    "task_g045",
    "task_g056",
    "task_g059",
]


def _kinds(tasks: list[str]) -> dict[str, tuple[str, bool]]:
    out = {}
    for task in tasks:
        data = json.loads((GROCERY_TASKS / f"{task}.json").read_text())
        out[task] = (data["kind"], data["no_valid_recommendation"])
    return out


def test_the_grocery_slice_covers_every_kind_of_request() -> None:
    kinds = set(_kinds(GROCERY_SLICE).values())
    assert {("return", False), ("order", False), ("order", True), ("substitution", False)} <= kinds


def test_the_node_agent_shops_through_evaluate(node_agent: str) -> None:
    result = evaluate(
        HttpAgentConfig(endpoint=node_agent), domain="grocery", trials=2, tasks=GROCERY_SLICE
    )
    assert result.summary.counts.infra_error == 0, [t.line() for t in result.failures()]
    assert result.summary.counts.scored == 2 * len(GROCERY_SLICE)
    # Measured 1.0 on all 60 grocery tasks x 2 trials; the floor leaves room for a harder suite.
    p1 = result.pass_k(1)
    assert p1 is not None
    assert p1 >= 0.85, result.to_markdown()
    # No policy broken at all, the critical ones (allergies asked about and heeded, consent to
    # order and return) first.
    rates = result.summary.policy_violation_rates
    for policy in (
        "allergy_question",
        "allergen_safety",
        "order_confirmation",
        "return_confirmation",
    ):
        assert rates[policy].active_trials > 0, policy
    for policy, rate in rates.items():
        assert rate.violations == 0, (policy, result.to_markdown())


def _grocery_request(opening: str) -> dict[str, object]:
    tools = [
        {"type": "function", "function": {"name": name, "parameters": {"type": "object"}}}
        for name in ("search_products", "get_product", "check_inventory", "place_order", "finish")
    ]
    return {
        "protocol_version": 1,
        "user_id": "u1",
        "policy": "",
        "messages": [
            {"role": "assistant", "content": "Hello! How can I help with your shopping today?"},
            {"role": "user", "content": opening},
        ],
        "tools": tools,
        "last_tool_results": [],
    }


def _calls(endpoint: str, body: dict[str, object]) -> list[tuple[str, dict[str, object]]]:
    """The tool calls (name, arguments) the agent answers one request with."""
    request = urllib.request.Request(endpoint, data=json.dumps(body).encode(), method="POST")
    with urllib.request.urlopen(request, timeout=10) as response:
        answer = json.loads(response.read())
    return [(c["name"], c["arguments"]) for c in answer.get("tool_calls", [])]


def test_the_node_agent_tells_the_domain_from_the_tools(node_agent: str) -> None:
    shop = _calls(node_agent, _grocery_request("I'm looking for oat milk today."))
    assert shop == [("search_products", {"query": "oat milk", "limit": 50})]
    movie = _grocery_request("Something funny, please.")
    movie["tools"] = [
        {"type": "function", "function": {"name": n, "parameters": {"type": "object"}}}
        for n in ("get_user_history", "search_catalog", "get_metadata", "recommend")
    ]
    assert _calls(node_agent, movie) == [("get_user_history", {"user_id": "u1"})]


NEEDS = PROJECT_ROOT / "examples" / "typescript-agent" / "needs.mjs"

# Wordings of our own (none from the simulated shopper's grammar): each need is heard from the
# store's vocabulary, whatever sentence carries it.
HEARD_CASES = [
    ("Dairy makes my daughter ill, she has an allergy.", {"allergies": ["milk"]}),
    ("I can't eat eggs or sesame.", {"allergies": ["eggs", "sesame-seeds"]}),
    ("We eat vegan at home.", {"vegan": True}),
    ("Ten packs? No: keep it to 12.50 euros for the whole basket.", {"budget": 12.5}),
    ("Nothing above €2 per pack, thanks.", {"maxPrice": 2.0}),
    ("A Nutri-Score of B or better, please.", {"nutri": ["a", "b"]}),
    ("Grade A on the Nutri-Score as a rule.", {"nutri": ["a"]}),
    ("Organic only, and no palm oil.", {"labels": ["organic"], "palmFree": True}),
    ("Please nothing by Acme Foods; it should be grown in Spain.",
     {"brandsOut": ["Acme Foods"], "country": "Spain"}),
    ("Not Vegan Oat Bites, sorry.", {}),  # a product's name, not a diet
    ("I don't mind about the budget, vegan or not.", {}),  # a topic waved away
]  # fmt: skip


@pytest.mark.parametrize(("sentence", "expected"), HEARD_CASES)
def test_the_node_agent_hears_needs_in_any_wording(
    sentence: str, expected: dict[str, object]
) -> None:
    node = shutil.which("node")
    assert node is not None, "node is not installed (make test needs Node.js 20+)"
    script = (
        f"import {{ statements }} from {json.dumps(NEEDS.as_uri())};\n"
        "const h = {allergies: new Set(), knownTopics: new Set(), labels: new Set(),"
        " brandsOut: new Set(), brandsOnly: new Set(), nutri: null, budget: null,"
        " maxPrice: null, novaMax: null, country: null, vegan: false, vegetarian: false,"
        " palmFree: false, productType: null, wantedName: null};\n"
        "statements(h, process.argv[1], new Set(['Acme Foods']), new Set(['Spain']),"
        " ['Vegan Oat Bites']);\n"
        "console.log(JSON.stringify(h, (k, v) => v instanceof Set ? [...v].sort() : v));"
    )
    run = subprocess.run(
        [node, "--input-type=module", "-e", script, sentence],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert run.returncode == 0, run.stderr
    heard = json.loads(run.stdout)
    stated = {k: v for k, v in heard.items() if k != "knownTopics" and v not in (None, False, [])}
    assert stated == expected


def test_the_node_agent_hears_a_return_in_other_words(node_agent: str) -> None:
    opening = "Could you refund the Oat Drink? It's in order o_7f3, and it came out of date."
    body = _grocery_request(opening)
    assert _calls(node_agent, body) == [("get_past_orders", {})]
    orders = {
        "orders": [
            {
                "order_id": "o_7f3",
                "lines": [
                    {"product_id": "p1", "name": "Oat Drink", "quantity": 2, "unit_price": 1.5},
                    {"product_id": "p2", "name": "Rye Bread", "quantity": 1, "unit_price": 2.0},
                ],
            }
        ]
    }
    call = {
        "id": "c1",
        "type": "function",
        "function": {"name": "get_past_orders", "arguments": "{}"},
    }
    messages = body["messages"]
    assert isinstance(messages, list)
    messages += [
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "c1", "content": json.dumps(orders)},
    ]
    request = urllib.request.Request(node_agent, data=json.dumps(body).encode(), method="POST")
    with urllib.request.urlopen(request, timeout=10) as response:
        answer = json.loads(response.read())
    assert not answer.get("tool_calls"), answer  # it asks before any return
    assert answer["message"].startswith("I found 2 × Oat Drink in order o_7f3 (refund €3.00)")
    assert "(reason: expired)" in answer["message"]
    # A plain yes to that question is consent; a yes with a but is not.
    for reply, consented in (("Yep, do it.", True), ("Yes, but wait: wrong order.", False)):
        then = [*messages, {"role": "assistant", "content": answer["message"]}]
        body["messages"] = [*then, {"role": "user", "content": reply}]
        names = [name for name, _ in _calls(node_agent, body)]
        assert (names == ["process_return"]) is consented, (reply, names)
