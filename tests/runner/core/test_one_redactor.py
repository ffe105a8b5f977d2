"""One secret redactor: every writer of a config blanks the same keys, so one config reads the same everywhere."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path
from typing import Any

import pytest

from runner.core.redact import REDACTED, Redactor, is_secret_key, redact_config, secret_values
from tests.code_scan import ROOT, found_outside

# The modules that write a config somewhere (run records, site pages, agent provenance).
WRITERS = (
    "runner.batch.engine",
    "runner.sitegen.pages",
    "runner.agents.http_agent",
    "runner.agents.litellm_agent",
)

CONFIGS: list[tuple[dict[str, Any], dict[str, Any]]] = [
    # token counts stay readable: the two old redactors disagreed on exactly this
    ({"model": "openai/x", "max_tokens": 512}, {"model": "openai/x", "max_tokens": 512}),
    (
        {"max_completion_tokens": 64, "auth_token": "t0ken-value"},
        {"max_completion_tokens": 64, "auth_token": REDACTED},
    ),
    (
        {"api_key": "hunter2hunter2", "Authorization": "Bearer abc"},
        {"api_key": REDACTED, "Authorization": REDACTED},
    ),
    # `*_env` values name environment variables, not secrets
    (
        {"api_key_env": "OPENAI_API_KEY", "headers_env": {"Authorization": "AGENT_TOKEN"}},
        {"api_key_env": "OPENAI_API_KEY", "headers_env": {"Authorization": "AGENT_TOKEN"}},
    ),
    # a subtree under a secret key is blanked leaf by leaf; empty values stay empty
    (
        {"credentials": {"user": "u-1", "pin": 1234, "none": None}, "password": ""},
        {"credentials": {"user": REDACTED, "pin": REDACTED, "none": None}, "password": ""},
    ),
    ({"secret": 42, "tags": ["a", "b"]}, {"secret": REDACTED, "tags": ["a", "b"]}),
    (
        {"api_base": "https://user:pw@llm.example/v1?key=abc123&region=eu"},
        {"api_base": "https://[redacted]@llm.example/v1?key=%5Bredacted%5D&region=eu"},
    ),
    ({"system_prompt": "use sk-abcdefghijkl0123"}, {"system_prompt": "use [redacted]"}),
]


@pytest.mark.parametrize(("config", "expected"), CONFIGS)
def test_one_config_one_answer(config: dict[str, Any], expected: dict[str, Any]) -> None:
    assert redact_config(config) == expected
    # what a writer shows is final: redacting it again changes nothing
    assert redact_config(expected) == expected


@pytest.mark.parametrize("module", WRITERS)
def test_every_writer_uses_the_one_redactor(module: str) -> None:
    assert importlib.import_module(module).redact_config is redact_config


def _secret_patterns(path: Path) -> list[str]:
    """Regular expressions compiled in `path` that pick out secrets by name (a redactor's core)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "compile"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            text = node.args[0].value.lower()
            if "secret" in text or "passw" in text:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_no_second_redactor_is_written_anywhere() -> None:
    """No module but runner/core/redact.py compiles a pattern of secret names or values."""
    ours = ROOT / "runner" / "core" / "redact.py"
    assert _secret_patterns(ours)  # the check sees the one redactor's patterns
    assert found_outside(ours, _secret_patterns) == []


def test_secret_keys_and_literal_secrets_agree_with_the_redactor() -> None:
    config = {"max_tokens": 512, "extra_body": {"api_key": "literal-secret-1"}, "key_env": "K"}
    assert secret_values(config) == {"config.extra_body.api_key": "literal-secret-1"}
    assert [k for k in ("max_tokens", "api_key", "key_env", "x-api-key") if is_secret_key(k)] == [
        "api_key",
        "x-api-key",
    ]
    redactor = Redactor.from_environment(environ={"MY_API_KEY": "value-of-the-key"})
    assert redactor.scrub("got value-of-the-key") == "got [redacted:MY_API_KEY]"
