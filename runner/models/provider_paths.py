"""Which LiteLLM provider prefixes a model call may use: a closed list at a custom api_base, and
none whose client path cannot be bounded.

Every model call (agent and simulated user) reads at most `runner.models.response_cap`'s byte cap,
follows no redirect, ends at its deadline and, on hosted runs, never reaches a loopback or private
address. The deadline and the address check are `runner.models.llm_client.chat_completion`'s, whichever
client serves the call; the cap and no redirects are the client's: our direct client
(`runner.models.openai_compat`), and in LiteLLM only the clients `runner.models.response_cap.install` bounds
(its own HTTP handler, and the client it gives the OpenAI SDK). Which client each prefix takes
was measured on LiteLLM 1.103.5 (the pinned one) against a loopback server answering a 12 MiB
body or a redirect, for every provider in `litellm.provider_list`; `benchmarks/provider_paths.py`
repeats the survey after an upgrade.

A submitter's server (any `api_base` not on the model's own provider's hosts, runner.models.keys) is
reached only through `CUSTOM_BASE_PROVIDERS`, each tested against such a server
(tests/runner/agents/test_provider_paths.py); every other prefix there is refused before a call.
`UNBOUNDED_PROVIDERS` bring a client of their own and are refused everywhere.
"""

from __future__ import annotations

import functools

from runner.models.keys import (
    RefusedEndpoint,
    host_problem,
    is_provider_host,
    provider_of_model,
)

__all__ = [
    "CUSTOM_BASE_PROVIDERS",
    "UNBOUNDED_PROVIDERS",
    "RefusedEndpoint",
    "call_problem",
    "config_problem",
    "path_problem",
    "prefix_of",
]

# The closed allow-list: provider prefix -> the bounded client its calls take at a custom base.
CUSTOM_BASE_PROVIDERS: dict[str, str] = {
    "openai": "the direct client (runner.models.openai_compat); with TAUREC_LLM_CLIENT=litellm, "
    "LiteLLM's HTTP handler or the OpenAI SDK on LiteLLM's client, both bounded",
    "hosted_vllm": "LiteLLM's HTTP handler (OpenAI chat completions, e.g. vLLM), bounded",
    "litellm_proxy": "LiteLLM's HTTP handler or the OpenAI SDK on LiteLLM's client, both bounded",
    "anthropic": "LiteLLM's HTTP handler (Anthropic's Messages API), bounded",
    "ollama_chat": "LiteLLM's HTTP handler (Ollama's /api/chat), bounded",
}

# Prefixes whose LiteLLM path bypasses the bounded clients (measured with both clients bounded: a
# 12 MiB answer read whole and a 307 followed; nlp_cloud also blocked the event loop for 40 s).
_OWN_SYNC = (
    "LiteLLM calls it with a blocking HTTP client of its own: no byte cap, redirects followed"
)
UNBOUNDED_PROVIDERS: dict[str, str] = {
    "aiohttp_openai": "LiteLLM calls it with an aiohttp session of its own: no byte cap, "
    "redirects followed (openai/ speaks the same protocol, bounded)",
    "amazon_nova": _OWN_SYNC,
    "custom": _OWN_SYNC,
    "maritalk": _OWN_SYNC,
    "nlp_cloud": f"{_OWN_SYNC}, and it blocks every trial past the deadline",
    "oobabooga": _OWN_SYNC,
    "petals": _OWN_SYNC,
}


def prefix_of(model: str) -> str | None:
    """The provider LiteLLM routes `model` to, as far as its prefix says: the text before the first
    `/` exactly as written (LiteLLM matches it case-sensitively), else the provider of a bare
    model name LiteLLM maps by itself (`gpt-…`, `claude-…`); None when the string does not say."""
    return model.split("/", 1)[0] if "/" in model else provider_of_model(model)


@functools.lru_cache(maxsize=256)  # pure, and asked on every model call
def path_problem(model: str, api_base: str | None) -> str | None:
    """Why LiteLLM's path for `model` at `api_base` cannot be bounded, or None when it can."""
    provider = prefix_of(model)
    if provider in UNBOUNDED_PROVIDERS:
        return f"provider {provider!r} is refused: {UNBOUNDED_PROVIDERS[provider]}"
    if not api_base or is_provider_host(model, api_base):
        return None  # the provider's own endpoint, on a bounded client
    if provider in CUSTOM_BASE_PROVIDERS:
        return None
    allowed = ", ".join(f"{p}/" for p in CUSTOM_BASE_PROVIDERS)
    named = f"provider {provider!r}" if provider else "a model string without a provider prefix"
    return (
        f"{named} is refused at a custom api_base: only {allowed} are called there through a "
        "client with the byte cap, the deadline and no redirects (an OpenAI-compatible server "
        "is openai/<model>)"
    )


def call_problem(model: str, api_base: str | None, *, hosted_run: bool) -> str | None:
    """Why a call to `model` at `api_base` may not be made (its path, then its address), or None."""
    problem = path_problem(model, api_base)
    if problem is None and api_base:
        address = host_problem(api_base, hosted_run=hosted_run)
        if address:
            problem = f"api_base {address}"
    return problem


def config_problem(model: str, api_base: str | None) -> str | None:
    """`path_problem` worded for a config: the value it judged, then why (None when allowed)."""
    problem = path_problem(model, api_base)
    if problem is None:
        return None
    at = f" at api_base {api_base!r}" if api_base else ""
    return f"{model!r}{at}: {problem}"
