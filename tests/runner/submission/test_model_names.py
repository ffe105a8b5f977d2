"""`submission check` validates the LiteLLM provider prefix and warns on model names LiteLLM does not know."""

from __future__ import annotations

from runner.models.model_names import check_model_string


def test_a_misspelt_provider_is_refused_with_a_suggestion() -> None:
    [(severity, reason)] = check_model_string("opneai/gpt-5-mini")
    assert severity == "error"
    assert "unknown LiteLLM provider 'opneai'" in reason
    assert "did you mean 'openai'?" in reason


def test_a_misspelt_model_name_is_a_warning_with_a_suggestion() -> None:
    [(severity, reason)] = check_model_string("openai/gpt-5-mni")
    assert severity == "warning"
    assert "'openai/gpt-5-mni' is not in the installed LiteLLM's model list" in reason
    assert "did you mean 'gpt-5-mini'?" in reason


def test_known_models_pass_and_custom_servers_name_their_own() -> None:
    assert check_model_string("openai/gpt-5-mini") == []
    assert check_model_string("anthropic/claude-sonnet-4-5") == []
    assert check_model_string("gpt-5-mini") == []  # LiteLLM infers the provider
    assert check_model_string("openai/heuristic", custom_base=True) == []


def test_no_prefix_and_nothing_to_infer_is_an_error() -> None:
    [(severity, reason)] = check_model_string("mystery-model-9000")
    assert severity == "error"
    assert "no provider prefix" in reason
