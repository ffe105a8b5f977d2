"""The built-in baseline agents (oracle, heuristic, random); heuristic and random are also pure policies."""

from __future__ import annotations

from domains.movies.baselines.heuristic import HeuristicAgent, heuristic_policy
from domains.movies.baselines.oracle import OracleAgent, winning_items
from domains.movies.baselines.random_agent import (
    RandomAgent,
    blind_reward,
    expected_pass1,
    random_policy,
)

__all__ = [
    "HeuristicAgent",
    "OracleAgent",
    "RandomAgent",
    "blind_reward",
    "expected_pass1",
    "heuristic_policy",
    "random_policy",
    "winning_items",
]
