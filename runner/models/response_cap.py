"""Bound every HTTP answer LiteLLM (and the HTTP agent) reads for us: a cap on the decoded body, and no redirects followed."""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator
from typing import Any

import httpx

from runner.models.pinned_http import HostedPinning, PinnedTransport
from runner.models.reply_limit import (
    ACCEPT_ENCODING,
    ReplyDecoder,
    ResponseTooLarge,
    UnboundedEncoding,
    UndecodableReply,
)

__all__ = ["StreamTooLarge", "StreamUnboundedEncoding", "bounded_client", "install"]


class StreamTooLarge(httpx.TransportError, ResponseTooLarge):
    """The cap, raised inside an httpx stream: a transport error to httpx and LiteLLM."""


class StreamUnboundedEncoding(httpx.TransportError, UnboundedEncoding):
    """A content coding the cap cannot bound, refused once the headers are in."""


class _DecodedStream(httpx.AsyncByteStream):
    """The body decoded by the one ReplyDecoder, so the cap counts decoded bytes; httpx, told the
    body has no content coding left, passes it on as it is."""

    def __init__(self, inner: httpx.AsyncByteStream, decoder: ReplyDecoder) -> None:
        self._inner = inner
        self._decoder = decoder

    async def __aiter__(self) -> AsyncIterator[bytes]:
        try:
            async for chunk in self._inner:
                for piece in self._decoder.feed(chunk):
                    yield piece
            for piece in self._decoder.finish():
                yield piece
        except UndecodableReply as exc:
            raise httpx.DecodingError(str(exc)) from None

    async def aclose(self) -> None:
        await self._inner.aclose()


async def _cap(response: httpx.Response) -> None:
    """httpx response hook: runs once the headers are in, before any of the body is read."""
    stream = response.stream
    if isinstance(stream, httpx.AsyncByteStream) and not isinstance(stream, _DecodedStream):
        url = f"{response.request.url.scheme}://{response.request.url.netloc.decode()}"
        try:
            decoder = ReplyDecoder(
                response.headers.get("content-encoding"), url, too_large=StreamTooLarge
            )
        except UnboundedEncoding as exc:
            raise StreamUnboundedEncoding(str(exc)) from None
        response.stream = _DecodedStream(stream, decoder)
        # Decoded here, a slice at a time: httpx must not decode it again (whole, unbounded).
        if "content-encoding" in response.headers:
            del response.headers["content-encoding"]


def bounded_client(client: httpx.AsyncClient) -> httpx.AsyncClient:
    """`client` with the reply rules of every model call: the cap counted in decoded bytes, only
    the codings it can bound asked for, no redirect followed, and on hosted runs connections
    only to the address the address check judged."""
    return _bounded(client)


def _bounded(client: httpx.AsyncClient) -> httpx.AsyncClient:
    client.follow_redirects = False  # a redirect would carry the key's header to another URL
    client.headers["Accept-Encoding"] = ACCEPT_ENCODING  # never a coding the cap cannot bound
    if not isinstance(client._transport, HostedPinning | PinnedTransport):
        # Hosted runs: connect to the checked address only (runner.models.pinned_http).
        client._transport = HostedPinning(client._transport)
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
