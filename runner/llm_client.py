"""The one LiteLLM chat call both roles make: which HTTP path it takes, its shared pool, its price read once."""

from __future__ import annotations

import functools
import os
import sys
from typing import Any

__all__ = [
    "LEAN_HTTP_ENV",
    "SDK_PATH_PROVIDERS",
    "aclose_litellm_clients",
    "chat_completion",
    "import_litellm",
    "response_cost",
    "uses_sdk_path",
]

# LiteLLM 1.106.2's switch (read from the environment on every call, `litellm/main.py`,
# `_complete_custom_openai`): True sends OpenAI-compatible chat calls through LiteLLM's own HTTP
# handler instead of the OpenAI SDK client. Same request body and headers, same exception mapping
# (RateLimitError etc. with the provider's headers), but it skips the SDK's per-request transform
# that walks every message against its TypedDicts (~5 ms of CPU per call on a 20-message
# conversation), and every call of a provider shares one cached aiohttp pool in the process.
# On by default; a value set by the user in the environment wins (False = the SDK path everywhere).
LEAN_HTTP_ENV = "EXPERIMENTAL_OPENAI_BASE_LLM_HTTP_HANDLER"

# Providers whose calls must keep the OpenAI SDK path. `github_copilot` adds its authentication
# headers as `extra_headers`, which LiteLLM only hands to the SDK path (the lean path drops them).
# LiteLLM reads the switch per process, not per call (the call's set-up runs in an executor thread),
# so the first call to such a provider turns the lean path off for the rest of the process; the SDK
# path serves every provider, so that direction is always safe.
SDK_PATH_PROVIDERS = frozenset({"github_copilot"})


@functools.cache
def import_litellm() -> Any:
    """Import LiteLLM once, offline and quiet (no price-map download, no feedback banners)."""
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    os.environ.setdefault(LEAN_HTTP_ENV, "True")
    import litellm

    litellm.suppress_debug_info = True
    litellm.telemetry = False
    from runner.response_cap import install

    install()  # every reply byte-capped, no redirect followed
    return litellm


def uses_sdk_path(model: str) -> bool:
    """Whether calls to `model` (`provider/name`) must go through the OpenAI SDK client.

    Read from the model string's provider prefix, without asking LiteLLM: resolving some providers
    (github_copilot) starts an authentication flow over the network.
    """
    provider, slash, _ = model.partition("/")
    return bool(slash) and provider in SDK_PATH_PROVIDERS


async def chat_completion(**kwargs: Any) -> Any:
    """`litellm.acompletion(**kwargs)` on the path this process uses for that provider."""
    litellm = import_litellm()
    if uses_sdk_path(kwargs["model"]):
        os.environ[LEAN_HTTP_ENV] = "False"
    return await litellm.acompletion(**kwargs)


def response_cost(response: Any, model: str) -> float:
    """The response's price in USD: LiteLLM prices every response once as it returns it
    (`_hidden_params["response_cost"]`, None for a model without prices); reuse that, price it
    here only when it is missing. 0 for an unknown model. Never raises."""
    hidden = getattr(response, "_hidden_params", None)
    if isinstance(hidden, dict) and "response_cost" in hidden:
        cost = hidden["response_cost"]
    else:
        try:
            cost = import_litellm().completion_cost(completion_response=response, model=model)
        except Exception:
            return 0.0
    return float(cost) if isinstance(cost, int | float) and cost >= 0 else 0.0


async def aclose_litellm_clients() -> None:
    """Close LiteLLM's cached HTTP clients; call it before an event loop that used models ends.

    LiteLLM keeps one client per event loop and never closes it, so without this every finished
    loop leaves open sockets behind (ResourceWarning at garbage collection).
    """
    if "litellm" not in sys.modules:
        return
    litellm = import_litellm()
    await litellm.close_litellm_async_clients()
    litellm.in_memory_llm_clients_cache.flush_cache()
