"""Check a LiteLLM model string against the installed LiteLLM: a known provider prefix, a known model."""

from __future__ import annotations

import difflib
from typing import Literal

__all__ = ["check_model_string"]

Severity = Literal["error", "warning"]


def check_model_string(model: str, *, custom_base: bool = False) -> list[tuple[Severity, str]]:
    """Problems with `provider/model`: an unknown provider is an error; a model name the installed
    LiteLLM does not list is a warning (skipped for a custom api_base, which serves its own names)."""
    from runner.models.llm_client import import_litellm

    litellm = import_litellm()
    providers = sorted(str(getattr(p, "value", p)) for p in litellm.provider_list)
    provider, _, name = model.partition("/") if "/" in model else ("", "", model)
    if provider and provider not in providers:
        close = difflib.get_close_matches(provider, providers, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else " (see LiteLLM's provider list)"
        return [("error", f"unknown LiteLLM provider {provider!r} in {model!r}{hint}")]
    if not provider:
        try:
            litellm.get_llm_provider(model)
        except Exception:
            return [
                (
                    "error",
                    f"{model!r} has no provider prefix and LiteLLM cannot infer one; write "
                    "provider/model, e.g. openai/gpt-5-mini",
                )
            ]
    if custom_base:
        return []
    known = litellm.model_cost
    if model in known or name in known or f"{provider}/{name}" in known:
        return []
    names = [k for k in known if "/" not in k or k.startswith(f"{provider}/")]
    close = difflib.get_close_matches(name, names, n=1) or difflib.get_close_matches(
        model, names, n=1
    )
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return [
        (
            "warning",
            f"model {model!r} is not in the installed LiteLLM's model list{hint} (a new model "
            "may be fine; a typo fails every trial)",
        )
    ]
