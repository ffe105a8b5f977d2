"""Bound every HTTP answer LiteLLM reads for us: a byte cap on the body, and no redirects followed."""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator
from typing import Any

import httpx

from runner.models.reply_limit import MAX_RESPONSE_BYTES, ResponseTooLarge

__all__ = ["StreamTooLarge", "install"]


class StreamTooLarge(httpx.TransportError, ResponseTooLarge):
    """The cap, raised inside an httpx stream: a transport error to httpx and LiteLLM."""


class _CappedStream(httpx.AsyncByteStream):
    def __init__(self, inner: httpx.AsyncByteStream, limit: int, url: str) -> None:
        self._inner = inner
        self._limit = limit
        self._url = url

    async def __aiter__(self) -> AsyncIterator[bytes]:
        size = 0
        async for chunk in self._inner:
            size += len(chunk)
            if size > self._limit:
                raise StreamTooLarge(
                    f"the answer from {self._url} is larger than {self._limit} bytes: refused"
                )
            yield chunk

    async def aclose(self) -> None:
        await self._inner.aclose()


async def _cap(response: httpx.Response) -> None:
    """httpx response hook: runs once the headers are in, before any of the body is read."""
    stream = response.stream
    if isinstance(stream, httpx.AsyncByteStream) and not isinstance(stream, _CappedStream):
        url = f"{response.request.url.scheme}://{response.request.url.netloc.decode()}"
        response.stream = _CappedStream(stream, MAX_RESPONSE_BYTES, url)


def _bounded(client: httpx.AsyncClient) -> httpx.AsyncClient:
    client.follow_redirects = False  # a redirect would carry the key's header to another URL
    hooks = client.event_hooks
    if _cap not in hooks["response"]:
        hooks["response"] = [*hooks["response"], _cap]
        client.event_hooks = hooks
    return client


@functools.cache
def install() -> None:
    """Make every async HTTP client LiteLLM builds cap the bytes it reads and follow no redirect:
    its own handler's (most providers) and the one it gives the OpenAI SDK (the SDK path: the
    `openai` family when the lean switch is off, `azure`, the text-completion providers).
    Providers that bring a client of their own are not covered: runner.models.provider_paths refuses
    them. Idempotent."""
    from litellm.llms.custom_httpx.http_handler import AsyncHTTPHandler
    from litellm.llms.openai.common_utils import BaseOpenAILLM

    create = AsyncHTTPHandler.create_client

    @functools.wraps(create)
    def create_client(self: Any, *args: Any, **kwargs: Any) -> httpx.AsyncClient:
        return _bounded(create(self, *args, **kwargs))

    AsyncHTTPHandler.create_client = create_client  # type: ignore[method-assign]

    sdk_client = BaseOpenAILLM._get_async_http_client

    @functools.wraps(sdk_client)
    def get_sdk_client(*args: Any, **kwargs: Any) -> httpx.AsyncClient | None:
        client = sdk_client(*args, **kwargs)
        return _bounded(client) if client is not None else None

    BaseOpenAILLM._get_async_http_client = staticmethod(get_sdk_client)  # type: ignore[method-assign]
