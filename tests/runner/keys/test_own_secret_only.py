"""An entry's secret is only its own TAUREC_KEY_<SLUG>: the check, the run, the agents and
`submission env` agree. The board's user simulator goes through the same key table, and
leaderboard.yaml is read with the bounded YAML loader."""

from __future__ import annotations

import contextlib
import subprocess
import sys
import time
from pathlib import Path

import pytest

from domains.movies.catalog import Catalog
from domains.movies.simulators import build_simulator
from domains.movies.tasks import load_tasks
from runner.agents.http_agent import HttpAgent
from runner.agents.litellm_agent import LOCAL_PLACEHOLDER_KEY, LiteLLMAgent
from runner.batch.entrant import Entrant
from runner.core.board import load_board
from runner.core.errors import InfraFailure, LoadError
from runner.core.paths import SNAPSHOTS_DIR, TASKS_DIR
from runner.core.protocols import AgentContext, UserSimulator
from runner.core.transcript import MessageEvent
from runner.models.keys import PROVIDER_KEYS, KeyPolicyError
from runner.models.llm_client import run_closing_clients
from runner.play.agent_config import HttpAgentConfig, LiteLLMAgentConfig
from runner.submissions.config import check_submission
from tests.runner.keys.test_keys_stay_home import (
    ENTRY_SECRET,
    FAST,
    Recorder,
    all_keys_planted,
    assert_no_planted_key,
    entry,
    planted,
    recorder,
    step,
)

MINE = AgentContext(user_id="u1", policy_text="Be kind.", seed=0, entry="my-entry")
OTHER = "TAUREC_KEY_OTHER_ENTRY"

pytestmark = pytest.mark.usefixtures("all_keys_planted")
__all__ = ["all_keys_planted", "recorder"]  # fixtures shared with test_keys_stay_home


def test_a_litellm_agent_never_sends_another_entrys_secret(recorder: Recorder) -> None:
    # Before: the check flagged it, but the run read TAUREC_KEY_OTHER_ENTRY and sent it.
    config = LiteLLMAgentConfig(
        model="openai/any", api_base=f"{recorder.url}/v1", api_key_env=OTHER, retry=FAST
    )
    with pytest.raises(KeyPolicyError, match="another entry's secret: entry 'my-entry' may use"):
        step(LiteLLMAgent(config, MINE))
    assert recorder.requests == []
    own = config.model_copy(update={"api_key_env": "TAUREC_KEY_MY_ENTRY"})
    step(LiteLLMAgent(own, MINE))
    assert recorder.requests[0][0]["authorization"] == f"Bearer {ENTRY_SECRET}"
    assert_no_planted_key(recorder)


def test_an_http_agent_never_sends_another_entrys_secret(recorder: Recorder) -> None:
    config = HttpAgentConfig(endpoint=f"{recorder.url}/step", headers_env={"X": OTHER}, retry=FAST)
    with pytest.raises(KeyPolicyError, match="another entry's secret"):
        step(HttpAgent(config, MINE))
    assert recorder.requests == []


LITELLM_OTHER = (
    f"kind: litellm\nmodel: openai/x\napi_base: https://a.example/v1\napi_key_env: {OTHER}\n"
)
HTTP_OTHER = f"kind: http\nendpoint: https://a.example/step\nheaders_env: {{X: {OTHER}}}\n"


@pytest.mark.parametrize("agent", [LITELLM_OTHER, HTTP_OTHER], ids=["litellm", "http"])
def test_the_check_and_the_run_refuse_another_entrys_secret(tmp_path: Path, agent: str) -> None:
    folder = entry(tmp_path, "my-entry", agent)
    problems = [p for p in check_submission(folder) if p.severity == "error"]
    assert any("another entry's secret" in p.reason for p in problems), problems
    with pytest.raises(KeyPolicyError) as refused:
        Entrant.from_folder(folder)  # what `taurec run` loads before anything runs
    assert str(folder / "submission.yaml") in str(refused.value)
    assert "TAUREC_KEY_MY_ENTRY" in str(refused.value)


@pytest.mark.parametrize("agent", [LITELLM_OTHER, HTTP_OTHER], ids=["litellm", "http"])
def test_submission_env_exports_nothing_else(tmp_path: Path, agent: str) -> None:
    # Before: `submission env` printed and exported TAUREC_KEY_OTHER_ENTRY.
    folder = entry(tmp_path, "my-entry", agent)
    taurec = str(Path(sys.executable).with_name("taurec"))
    env = {"PATH": "/usr/bin:/bin", OTHER: planted(OTHER), "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    names = subprocess.run(
        [taurec, "submission", "env", str(folder)], env=env, capture_output=True, text=True
    )
    assert names.returncode != 0
    assert names.stdout == ""
    assert "another entry's secret" in names.stderr
    ran = subprocess.run(
        [taurec, "submission", "env", str(folder), "env"], env=env, capture_output=True, text=True
    )
    assert ran.returncode != 0
    assert planted(OTHER) not in ran.stdout


def board(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "leaderboard.yaml"
    path.write_text(text)
    return path


def test_an_anchor_bomb_in_leaderboard_yaml_is_refused_quickly(tmp_path: Path) -> None:
    lines = ['a0: &a0 ["x", "x", "x", "x", "x", "x", "x", "x", "x", "x"]']
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 10)]
    path = board(tmp_path, "\n".join(lines) + "\n")
    start = time.perf_counter()
    with pytest.raises(LoadError) as refused:
        load_board(path)
    assert time.perf_counter() - start < 1.0
    assert str(path) in str(refused.value)
    assert "anchors and aliases are not allowed" in str(refused.value)


SIMULATOR = "simulator:\n  kind: litellm\n  model: openai/gpt-4.1-mini\n"


@pytest.mark.parametrize(
    ("extra", "reason"),
    [
        ("  api_base: https://evil.example/v1\n  api_key_env: OPENAI_API_KEY\n", "goes only to"),
        ("  api_key_env: ANTHROPIC_API_KEY\n", "is the anthropic key"),
        ("  api_key_env: TAUREC_KEY_SOME_ENTRY\n", "is an entry's secret"),
    ],
)
def test_the_board_simulator_goes_through_the_key_table(
    tmp_path: Path, extra: str, reason: str
) -> None:
    path = board(tmp_path, SIMULATOR + extra)
    with pytest.raises(LoadError) as refused:
        load_board(path)
    assert str(path) in str(refused.value)
    assert "simulator.api_key_env" in str(refused.value)
    assert reason in str(refused.value)
    assert load_board(board(tmp_path, SIMULATOR)).simulator.name == "litellm:openai/gpt-4.1-mini"


def _user(api_base: str, api_key_env: str | None) -> UserSimulator:
    task = load_tasks(TASKS_DIR)[0]
    catalog = Catalog.load(SNAPSHOTS_DIR / "2026-11-01" / "catalog.json")
    options: dict[str, object] = {"api_base": api_base, "retry": FAST}
    if api_key_env is not None:
        options["api_key_env"] = api_key_env
    return build_simulator(
        "litellm:openai/any", task=task, catalog=catalog, seed=0, options=options
    )


def test_the_user_simulator_never_sends_the_openai_key_to_another_host(recorder: Recorder) -> None:
    # Before: api_key_env: OPENAI_API_KEY with any api_base sent the key there.
    user = _user(f"{recorder.url}/v1", "OPENAI_API_KEY")
    conversation = [MessageEvent(role="agent", content="Hi! What would you like to watch?")]
    with pytest.raises(KeyPolicyError, match=r"goes only to api\.openai\.com"):
        run_closing_clients(user.respond(conversation))
    assert recorder.requests == []
    # Without a key variable it gets the placeholder, never a provider key from the environment.
    plain = _user(f"{recorder.url}/v1", None)
    with contextlib.suppress(InfraFailure):  # the stand-in's reply is not a user turn
        run_closing_clients(plain.respond(conversation))
    assert recorder.requests[0][0]["authorization"] == f"Bearer {LOCAL_PLACEHOLDER_KEY}"
    text = recorder.everything()
    assert all(planted(name) not in text for name in PROVIDER_KEYS)
