"""The one chat call both roles make: which client serves it (direct or LiteLLM), its pool, its price read once."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import sys
import warnings
from collections.abc import Coroutine, Iterable
from typing import Any, TypeVar

from runner.models.keys import hosted
from runner.models.provider_paths import RefusedEndpoint, call_problem

__all__ = [
    "BASE64_LOGGING_ENV",
    "CLIENT_ENV",
    "DEADLINE_SLACK_S",
    "DEFAULT_TIMEOUT_S",
    "LEAN_HTTP_ENV",
    "SDK_PATH_PROVIDERS",
    "aclose_clients",
    "chat_completion",
    "import_litellm",
    "prepare_litellm",
    "register_prices",
    "response_cost",
    "response_field",
    "run_closing_clients",
    "uses_direct_path",
    "uses_sdk_path",
]

# `litellm` sends every call through LiteLLM, custom OpenAI-compatible endpoints included (an
# escape hatch for a server that needs LiteLLM's handling); unset or `auto` is the default below.
CLIENT_ENV = "TAUREC_LLM_CLIENT"

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
# path serves every provider, on a client bounded like the lean one (runner.models.response_cap), so that
# direction is always safe.
SDK_PATH_PROVIDERS = frozenset({"github_copilot"})

# A call's deadline: its client timeout (this when the caller gives none) plus this slack, after
# which we stop waiting whatever the client does (a body that drips one byte at a time).
DEFAULT_TIMEOUT_S = 120.0
DEADLINE_SLACK_S = 5.0


# LiteLLM's documented switch (read once, at its import): how many characters of a base64 data
# URI its logging payload keeps; 0 turns the truncation off. Every successful call otherwise
# copies the whole conversation and runs a regex over every string of it (~8 % of LiteLLM's CPU
# per call measured here) to build a logging payload no callback of ours reads; we send no
# images. A value set by the user in the environment wins.
BASE64_LOGGING_ENV = "MAX_BASE64_LENGTH_FOR_LOGGING"


@functools.cache
def import_litellm() -> Any:
    """Import LiteLLM once, offline and quiet (no price-map download, no feedback banners)."""
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    os.environ.setdefault(LEAN_HTTP_ENV, "True")
    os.environ.setdefault(BASE64_LOGGING_ENV, "0")
    import litellm

    litellm.suppress_debug_info = True
    litellm.telemetry = False
    with warnings.catch_warnings():
        # Pydantic builds LiteLLM's response models on their first use and warns (UserWarning)
        # about a `ReadOnly` TypedDict item; build them here, once, so no call ever sees it.
        warnings.filterwarnings("ignore", message=".*`ReadOnly` qualifier", category=UserWarning)
        litellm.ModelResponse()
    from runner.models.response_cap import install

    install()  # every reply byte-capped, no redirect followed
    return litellm


def uses_sdk_path(model: str) -> bool:
    """Whether calls to `model` (`provider/name`) must go through the OpenAI SDK client.

    Read from the model string's provider prefix, without asking LiteLLM: resolving some providers
    (github_copilot) starts an authentication flow over the network.
    """
    provider, slash, _ = model.partition("/")
    return bool(slash) and provider in SDK_PATH_PROVIDERS


def uses_direct_path(model: str, api_base: str | None) -> bool:
    """Whether a call goes straight to the endpoint (runner.models.openai_compat) instead of LiteLLM.

    Direct: an `openai/` model at a custom `api_base` that is not OpenAI's own host, i.e. a
    server that speaks OpenAI's chat-completions protocol as it is (this project's model server,
    vLLM, llama.cpp, a submitter's proxy). LiteLLM stays for every hosted provider, OpenAI
    included, where it maps parameters per model (e.g. `max_tokens` for reasoning models). The
    direct client costs ~0.7 ms of CPU per call where LiteLLM costs ~7 ms (measured by
    benchmarks/client_overhead.py), and a run that makes only direct calls never imports LiteLLM
    (~160 MB).
    """
    if not api_base or os.environ.get(CLIENT_ENV, "auto").strip().lower() == "litellm":
        return False
    return _openai_compatible(model, api_base)


@functools.lru_cache(maxsize=256)  # pure, and asked on every call
def _openai_compatible(model: str, api_base: str) -> bool:
    from runner.models.keys import is_provider_host, provider_of_model

    return provider_of_model(model) == "openai" and not is_provider_host(model, api_base)


async def chat_completion(**kwargs: Any) -> Any:
    """One chat completion: the direct client's parsed JSON (a dict) for an OpenAI-compatible
    endpoint, else `litellm.acompletion(**kwargs)` on the path this process uses for that provider.

    Every call is bounded here, whoever makes it: a provider whose path cannot be bounded, a
    prefix not allowed at a custom `api_base` and (hosted runs) a loopback or private `api_base`
    are refused before any request (RefusedEndpoint, runner.models.provider_paths); the call ends at
    its `timeout` (DEFAULT_TIMEOUT_S when not given) plus DEADLINE_SLACK_S whatever the client
    does; the byte cap and no redirects are the clients' own (runner.models.openai_compat,
    runner.models.response_cap)."""
    model, api_base = kwargs["model"], kwargs.get("api_base")
    problem = call_problem(model, api_base, hosted_run=hosted())
    if problem:
        raise RefusedEndpoint(f"model {model}: {problem}")
    timeout = kwargs["timeout"] = float(kwargs.get("timeout") or DEFAULT_TIMEOUT_S)
    async with asyncio.timeout(timeout + DEADLINE_SLACK_S):
        if uses_direct_path(model, api_base):
            from runner.models import openai_compat

            return await openai_compat.chat_completion(**kwargs)
        litellm = import_litellm()
        if uses_sdk_path(model):
            os.environ[LEAN_HTTP_ENV] = "False"
        register_prices(model)
        return await litellm.acompletion(**kwargs)


@functools.lru_cache(maxsize=256)
def register_prices(model: str) -> None:
    """Give LiteLLM a price entry for `model` when its price map has none, once per process.

    LiteLLM prices every response it returns (twice: for the response and for its logging
    payload), and for a model missing from its map each pricing walks the map's fallback rules
    and fails (~13 % of LiteLLM's CPU per call measured here). Registered (`litellm.register_model`)
    at zero, the lookup hits at once and the price stays what it was: `response_cost` reads 0
    for an unknown model either way, and configured `prices` win over LiteLLM's. A model LiteLLM
    knows, exactly or by a fallback rule, keeps its own prices.
    """
    if uses_sdk_path(model):
        return  # (resolving such a provider may start its authentication flow)
    litellm = import_litellm()
    try:
        litellm.get_model_info(model)
        return
    except Exception:
        pass
    try:
        _, provider, _, _ = litellm.get_llm_provider(model)
    except Exception:
        return  # LiteLLM cannot route it either; the call itself will say why
    litellm.register_model(
        {
            model: {
                "input_cost_per_token": 0.0,
                "output_cost_per_token": 0.0,
                # (without these LiteLLM warns that cache reads are priced at 0: so is all of it)
                "cache_creation_input_token_cost": 0.0,
                "cache_read_input_token_cost": 0.0,
                "litellm_provider": provider,
                "mode": "chat",
            }
        }
    )


async def prepare_litellm(endpoints: Iterable[tuple[str, str | None]]) -> bool:
    """Load LiteLLM for the `(model, api_base)` pairs a run will call through it, before the run
    forks its helpers; False (and nothing loaded) when every call takes the direct path.

    A helper forked after this shares the parent's LiteLLM pages (~150 MB) copy-on-write instead
    of importing its own copy; one mocked call per model (`mock_response`: no socket, no cost)
    also loads what LiteLLM imports lazily on its first call and registers the model's prices.
    """
    models = sorted(
        {model for model, api_base in endpoints if not uses_direct_path(model, api_base)}
    )
    if not models:
        return False
    litellm = import_litellm()
    for model in models:
        register_prices(model)
        if uses_sdk_path(model):
            continue  # (resolving such a provider may start its authentication flow)
        with contextlib.suppress(Exception):  # a model LiteLLM cannot route fails on its call
            await litellm.acompletion(
                model=model, messages=[{"role": "user", "content": "hi"}], mock_response="ok"
            )
    return True


def response_field(obj: Any, name: str) -> Any:
    """A field of a response or any part of it: a direct answer is plain JSON (dicts), LiteLLM's
    is objects with attributes. None when it is missing."""
    if isinstance(obj, dict):
        return obj.get(name)
    return getattr(obj, name, None)


def response_cost(response: Any, model: str) -> float:
    """The response's price in USD: LiteLLM prices every response once as it returns it
    (`_hidden_params["response_cost"]`, None for a model without prices); reuse that, price it
    here only when it is missing. A direct answer (a dict) is priced from its usage and LiteLLM's
    price map. 0 for an unknown model. Never raises."""
    if isinstance(response, dict):
        return _direct_cost(response, model)
    hidden = getattr(response, "_hidden_params", None)
    if isinstance(hidden, dict) and "response_cost" in hidden:
        cost = hidden["response_cost"]
    else:
        try:
            cost = import_litellm().completion_cost(completion_response=response, model=model)
        except Exception:
            return 0.0
    return float(cost) if isinstance(cost, int | float) and cost >= 0 else 0.0


def _direct_cost(response: dict[str, Any], model: str) -> float:
    from runner.models.openai_compat import price_per_token

    usage = response.get("usage")
    prices = price_per_token(model)
    if prices is None or not isinstance(usage, dict):
        return 0.0
    prompt, completion = usage.get("prompt_tokens"), usage.get("completion_tokens")
    if not (isinstance(prompt, int) and isinstance(completion, int)) or min(prompt, completion) < 0:
        return 0.0
    return prompt * prices[0] + completion * prices[1]


async def aclose_clients() -> None:
    """Close the HTTP pools this event loop used (the direct client's and LiteLLM's cached
    clients); call it before an event loop that used models ends.

    LiteLLM keeps one client per event loop and never closes it, so without this every finished
    loop leaves open sockets behind (ResourceWarning at garbage collection).
    """
    if "runner.models.openai_compat" in sys.modules:
        from runner.models.openai_compat import aclose_sessions

        await aclose_sessions()
    if "litellm" not in sys.modules:
        return
    litellm = import_litellm()
    await litellm.close_litellm_async_clients()
    litellm.in_memory_llm_clients_cache.flush_cache()


T = TypeVar("T")


def run_closing_clients(coro: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run(coro)`, closing the HTTP pools its models used before the event loop ends."""

    async def main() -> T:
        try:
            return await coro
        finally:
            await aclose_clients()

    return asyncio.run(main())
