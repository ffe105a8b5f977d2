"""Port 0 in a loopback api_base is the run's own model server, started once on a free port."""

from __future__ import annotations

import json
import urllib.request

from runner.models.keys import host_problem
from runner.models.own_model_server import is_own_server, own_server_url, resolve_own_server
from runner.play.agent_config import LiteLLMAgentConfig


def test_only_loopback_port_0_asks_for_the_own_server() -> None:
    assert is_own_server("http://127.0.0.1:0/v1")
    assert is_own_server("http://localhost:0/v1")
    assert not is_own_server("http://127.0.0.1:9/v1")
    assert not is_own_server("http://127.0.0.1/v1")
    assert not is_own_server("https://api.example.com:0/v1")
    assert not is_own_server(None)


def test_the_config_gets_a_live_free_port_and_keeps_its_path() -> None:
    config = LiteLLMAgentConfig(model="openai/heuristic", api_base="http://127.0.0.1:0/v1")
    resolved = resolve_own_server(config)
    assert resolved.api_base == own_server_url()  # one server per process
    assert resolved.api_base is not None
    assert not resolved.api_base.startswith("http://127.0.0.1:0/")
    with urllib.request.urlopen(f"{resolved.api_base}/models", timeout=10) as answer:
        models = json.load(answer)
    assert any(m["id"] == "heuristic" for m in models["data"])
    assert config.api_base == "http://127.0.0.1:0/v1"  # what is recorded stays port 0
    other = LiteLLMAgentConfig(model="openai/x", api_base="http://127.0.0.1:9/v1")
    assert resolve_own_server(other) is other


def test_a_hosted_run_may_call_its_own_server_and_no_other_loopback() -> None:
    assert host_problem("http://127.0.0.1:0/v1", hosted_run=True) is None
    assert host_problem(own_server_url(), hosted_run=True) is None
    assert host_problem("http://127.0.0.1:9/v1", hosted_run=True) is not None
