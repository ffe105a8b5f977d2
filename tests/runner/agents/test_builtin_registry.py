"""The submission schema names exactly the registered built-in agents (one list, two places)."""

from __future__ import annotations

from typing import get_args

from runner.agent_config import BuiltinAgentConfig, BuiltinName, DomainBuiltinName
from runner.agents import BUILTIN_AGENTS
from runner.agents.adversaries import ADVERSARY_NAMES


def test_schema_literal_matches_the_registry() -> None:
    literal = set(get_args(BuiltinName))
    assert literal == set(BUILTIN_AGENTS)
    assert set(ADVERSARY_NAMES) <= literal


def test_the_schema_names_movies_and_other_domains_builtins() -> None:
    schema = set(get_args(BuiltinAgentConfig.model_fields["name"].annotation))
    assert schema == set(get_args(BuiltinName)) | set(get_args(DomainBuiltinName))
    assert not set(get_args(DomainBuiltinName)) & set(BUILTIN_AGENTS)
