"""`taurec leaderboard` plumbing: which local model servers the shipped entries need, and clear failures."""

from __future__ import annotations

import json
import socket
import urllib.request

import pytest

from runner.core.errors import TaurecError
from runner.play.agent_config import BuiltinAgentConfig, LiteLLMAgentConfig
from runner.publish.leaderboard import (
    build_leaderboard,
    lane_processes,
    local_model_servers,
    loopback_servers,
    shard_workers,
    shipped_submissions,
)
from runner.submissions.config import Contact, Submission, load_submission


def entry(slug: str, api_base: str | None) -> Submission:
    agent = (
        LiteLLMAgentConfig(model="openai/heuristic", api_base=api_base)
        if api_base
        else BuiltinAgentConfig(name="random")
    )
    return Submission(slug=slug, display_name=slug, contact=Contact(name="x"), agent=agent)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_the_shipped_entries_name_no_fixed_port() -> None:
    # The loopback entry says port 0: each run starts its own model server on a free port.
    submissions = [load_submission(f) for f in shipped_submissions()]
    assert loopback_servers(submissions) == []
    assert any(
        s.agent.kind == "litellm" and s.agent.api_base == "http://127.0.0.1:0/v1"
        for s in submissions
    )


def test_only_loopback_litellm_entries_get_a_server() -> None:
    found = loopback_servers(
        [
            entry("a", "http://127.0.0.1:9001/v1"),
            entry("b", "http://127.0.0.1:9001/v1"),
            entry("c", "https://api.example.com/v1"),
            entry("d", None),
        ]
    )
    assert found == [("127.0.0.1", 9001)]


def test_local_model_servers_serve_the_baselines() -> None:
    port = free_port()
    with local_model_servers([entry("a", f"http://127.0.0.1:{port}/v1")]) as urls:
        assert urls == [f"http://127.0.0.1:{port}/v1"]
        with urllib.request.urlopen(f"{urls[0]}/models", timeout=5) as response:
            models = {m["id"] for m in json.load(response)["data"]}
    assert "heuristic" in models


def test_a_busy_port_is_a_clear_error() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        with (
            pytest.raises(TaurecError, match=f"127.0.0.1:{port}"),
            local_model_servers([entry("a", f"http://127.0.0.1:{port}/v1")]),
        ):
            pass


def test_unknown_steps_are_refused() -> None:
    with pytest.raises(TaurecError, match="unknown step"):
        build_leaderboard(steps=["run", "publish"], echo=lambda _: None)


def test_every_run_starts_at_once_within_two_processes_per_core() -> None:
    assert lane_processes(4, cores=2) == 4  # both dev runs and both test splits
    assert lane_processes(6, cores=2) == 4  # bounded: memory
    assert lane_processes(1, cores=8) == 1
    assert lane_processes(3, cores=1) == 2


def test_only_the_largest_run_is_sharded_and_only_with_a_second_core() -> None:
    sizes = {"movies run": 2400, "movies test": 1200, "grocery run": 3840, "grocery test": 960}
    assert shard_workers(sizes, cores=2) == {
        "movies run": 1,
        "movies test": 1,
        "grocery run": 2,
        "grocery test": 1,
    }
    assert set(shard_workers(sizes, cores=1).values()) == {1}
    assert shard_workers({"movies run": 2400}, cores=2) == {"movies run": 1}
