"""The submission schema names exactly the registered movie built-in agents (one list, two places)."""

from __future__ import annotations

from typing import get_args

from domains.movies.adversaries import ADVERSARY_NAMES
from domains.movies.builtins import BUILTIN_AGENTS
from runner.play.agent_config import BuiltinName


def test_schema_literal_matches_the_registry() -> None:
    literal = set(get_args(BuiltinName))
    assert literal == set(BUILTIN_AGENTS)
    assert set(ADVERSARY_NAMES) <= literal


def test_the_registry_names_the_panel_as_the_panel_module_does() -> None:
    from domains.movies.adversaries.panel import PANEL_ADVERSARIES
    from domains.movies.builtins import PANEL_NAMES

    assert PANEL_NAMES == PANEL_ADVERSARIES
