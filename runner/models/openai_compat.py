"""The direct client for a custom OpenAI-compatible endpoint: one POST per call, no LiteLLM."""

from __future__ import annotations

import asyncio
import functools
import importlib.util
import json
import socket
import sys
import weakref
from pathlib import Path
from typing import Any

import aiohttp
import orjson
from aiohttp.abc import AbstractResolver, ResolveResult

from runner.models.keys import hosted, pinned_addresses
from runner.models.reply_limit import (
    ACCEPT_ENCODING,
    MAX_RESPONSE_BYTES,
    ReplyDecoder,
    ResponseTooLarge,
    UndecodableReply,
)

__all__ = [
    "EndpointError",
    "MalformedReply",
    "aclose_sessions",
    "chat_completion",
    "price_per_token",
]

# Request fields the caller may set; every other keyword is the client's own (timeout, key, base).
_BODY_FIELDS = (
    "messages",
    "tools",
    "temperature",
    "max_tokens",
    "reasoning_effort",
    "seed",
    "response_format",
)

# One pool per event loop (an aiohttp session belongs to the loop that made it).
_SESSIONS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, aiohttp.ClientSession] = (
    weakref.WeakKeyDictionary()
)


class EndpointError(Exception):
    """The endpoint answered with an HTTP error status; `status_code` and `headers` feed the retry
    policy (runner.models.retry reads them as it reads LiteLLM's exceptions), `code` is the body's
    `error.code` when it has one."""

    def __init__(self, status_code: int, headers: Any, message: str, code: str | None) -> None:
        super().__init__(message)
        self.status_code = status_code
        self.headers = headers
        self.code = code


class MalformedReply(Exception):
    """A 2xx answer whose body is not a JSON object."""


class _PinnedResolver(AbstractResolver):
    """aiohttp's resolver, except on hosted runs: a host name resolves to the addresses the
    address check judged (runner.models.keys.pinned_addresses: one lookup, every address
    checked), so the connection goes where the check looked. aiohttp keeps the host name for
    TLS and the Host header."""

    def __init__(self) -> None:
        self._default = aiohttp.DefaultResolver()

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[ResolveResult]:
        if not hosted():
            return await self._default.resolve(host, port, family)
        return [
            ResolveResult(
                hostname=host,
                host=address,
                port=port,
                family=socket.AF_INET6 if ":" in address else socket.AF_INET,
                proto=0,
                flags=socket.AI_NUMERICHOST,
            )
            for address in pinned_addresses(host, port)
        ]

    async def close(self) -> None:
        await self._default.close()


def _session() -> aiohttp.ClientSession:
    loop = asyncio.get_running_loop()
    session = _SESSIONS.get(loop)
    if session is None or session.closed:
        # No connection limit of our own: the runner's concurrency is the limit.
        connector = aiohttp.TCPConnector(limit=0, ttl_dns_cache=300, resolver=_PinnedResolver())
        # The body is decoded by _read_capped, a slice at a time under the cap, not by aiohttp.
        session = _SESSIONS[loop] = aiohttp.ClientSession(
            connector=connector, auto_decompress=False
        )
    return session


async def aclose_sessions() -> None:
    """Close this event loop's pool; call it before a loop that made calls ends."""
    session = _SESSIONS.pop(asyncio.get_running_loop(), None)
    if session is not None:
        await session.close()


def _error_detail(raw: bytes) -> tuple[str, str | None]:
    """The error body's message and code (OpenAI's `{"error": {...}}` shape), else its text."""
    text = raw.decode("utf-8", "replace").strip()
    try:
        parsed = json.loads(text)
    except ValueError:
        return text[:300], None
    error = parsed.get("error") if isinstance(parsed, dict) else None
    if isinstance(error, dict):
        code = error.get("code")
        return str(error.get("message") or text)[:300], str(code) if code else None
    if isinstance(error, str):
        return error[:300], None
    return text[:300], None


async def _read_capped(response: aiohttp.ClientResponse, origin: str) -> bytes:
    """The body decoded, never more than the cap: raw or decoded (runner.models.reply_limit)."""
    if response.content_length is not None and response.content_length > MAX_RESPONSE_BYTES:
        raise ResponseTooLarge(
            f"the answer from {origin} is larger than {MAX_RESPONSE_BYTES} bytes: refused"
        )
    decoder = ReplyDecoder(response.headers.get("Content-Encoding"), origin)
    body = bytearray()
    try:
        async for chunk in response.content.iter_any():
            for piece in decoder.feed(chunk):
                body += piece
        for piece in decoder.finish():
            body += piece
    except UndecodableReply as exc:
        raise MalformedReply(str(exc)) from None
    return bytes(body)


async def chat_completion(
    *,
    model: str,
    api_base: str,
    api_key: str | None = None,
    timeout: float | None = None,
    extra_body: dict[str, Any] | None = None,
    **fields: Any,
) -> dict[str, Any]:
    """POST one chat completion to `{api_base}/chat/completions`; the parsed JSON answer.

    `model` is sent without its `openai/` prefix, as LiteLLM sends it. Redirects are not followed
    (a redirect would carry the key to another URL) and the body is read up to the reply cap,
    counted in decoded bytes. Raises EndpointError for an HTTP error status, MalformedReply for a
    body that is not a JSON object, ResponseTooLarge past the cap or in a coding it cannot bound; aiohttp's and asyncio's own errors pass through.
    """
    body: dict[str, Any] = {"model": model.split("/", 1)[1] if "/" in model else model}
    for name in _BODY_FIELDS:
        if fields.get(name) is not None:
            body[name] = fields[name]
    unknown = set(fields) - set(_BODY_FIELDS) - {"max_retries"}
    if unknown:
        raise TypeError(f"unexpected chat completion arguments: {sorted(unknown)}")
    if extra_body:
        body.update(extra_body)
    headers = {
        "Content-Type": "application/json",
        "Accept": "application/json",
        "Accept-Encoding": ACCEPT_ENCODING,  # only codings the cap can bound
    }
    if api_key:
        headers["Authorization"] = f"Bearer {api_key}"
    url = api_base.rstrip("/") + "/chat/completions"
    where = "/".join(url.split("/")[:3])  # scheme://host:port, for messages
    payload = _encode(body)
    client_timeout = aiohttp.ClientTimeout(total=timeout)
    async with _session().post(
        url, data=payload, headers=headers, allow_redirects=False, timeout=client_timeout
    ) as response:
        raw = await _read_capped(response, where)
        if response.status >= 300:
            message, code = _error_detail(raw)
            raise EndpointError(
                response.status,
                response.headers,
                f"HTTP {response.status} from {where}: {message or response.reason}",
                code,
            )
    try:
        parsed = json.loads(raw)
    except ValueError as exc:
        raise MalformedReply(f"the answer from {where} is not JSON: {exc}") from None
    if not isinstance(parsed, dict):
        raise MalformedReply(f"the answer from {where} is not a JSON object")
    return parsed


def _encode(body: dict[str, Any]) -> bytes:
    """The request body as UTF-8 JSON bytes.

    orjson encodes an agent's late-conversation body (~34 KB, the catalog's tool results
    included) in a fourteenth of `json.dumps`'s CPU: a direct run of 60 v1 tasks × 4 trials
    (3,194 calls, benchmarks/head_to_head.py) spent ~1.9 s of its ~11 s of CPU in `json.dumps`.
    A value orjson refuses and `json` takes (an integer past 64 bits, a non-string key) is
    encoded by `json` as before, so no body that used to be sent is refused now.
    """
    try:
        return orjson.dumps(body)
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return json.dumps(body, ensure_ascii=False).encode()


@functools.cache  # read once per process, however many models are priced from it
def _price_map_text() -> str | None:
    """LiteLLM's bundled price map as text, read from its package folder without importing it."""
    spec = importlib.util.find_spec("litellm")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        path = Path(folder) / "model_prices_and_context_window_backup.json"
        if path.is_file():
            return path.read_text(encoding="utf-8")
    return None


def _entry_prices(entry: Any) -> tuple[float, float] | None:
    if isinstance(entry, dict):
        given = entry.get("input_cost_per_token"), entry.get("output_cost_per_token")
        if all(isinstance(v, int | float) for v in given):
            return float(given[0]), float(given[1])  # type: ignore[arg-type]
    return None


@functools.cache
def _bundled_prices(keys: tuple[str, ...]) -> tuple[float, float] | None:
    """The first of `keys` with prices in the bundled map. The 2.8 MB map is parsed only when one
    of them occurs in it, so an unlisted model (every local server's) costs one substring search,
    once per process."""
    text = _price_map_text()
    if text is None or not any(f'"{key}"' in text for key in keys):
        return None
    table = json.loads(text)
    return next((p for p in map(_entry_prices, map(table.get, keys)) if p is not None), None)


def price_per_token(model: str) -> tuple[float, float] | None:
    """(input, output) USD per token for `model` as LiteLLM prices an `openai/` model at a custom
    base: the full string, then its bare name, in LiteLLM's price table (the live one, with any
    `register_model` additions, once LiteLLM is imported; else its bundled map, read without
    importing it). None when it is not listed."""
    keys = _price_keys(model)
    litellm = sys.modules.get("litellm")
    table = getattr(litellm, "model_cost", None)
    if isinstance(table, dict):
        return next((p for p in (_entry_prices(table.get(k)) for k in keys) if p is not None), None)
    return _bundled_prices(keys)


@functools.lru_cache(maxsize=256)  # asked on every direct call
def _price_keys(model: str) -> tuple[str, ...]:
    name = model.split("/", 1)[1] if "/" in model else model
    return tuple(dict.fromkeys((model, name, f"openai/{name}")))
