"""On hosted runs, httpx clients connect to the address the address check judged, not to a
second lookup's answer: a network backend that turns the host name into its pinned addresses
(runner.models.keys.pinned_addresses) where the socket is opened, and only there. The URL, the
Host header, the TLS server name and the certificate check all keep the host name, and the
connection pool stays keyed by it (so a connection verified for one name is never reused for
another that shares its address).

Used by the HTTP agent's client and, on hosted runs, by every client LiteLLM builds
(runner.models.response_cap); the direct client pins through its resolver
(runner.models.openai_compat).
"""

from __future__ import annotations

import functools
import ssl
from collections.abc import Iterable
from typing import Any

import httpcore
import httpx

from runner.models.keys import hosted, pinned_addresses

__all__ = ["HostedPinning", "PinnedBackend", "PinnedTransport", "verifying_context"]


@functools.cache
def verifying_context() -> ssl.SSLContext:
    """One verifying TLS context for the pinned clients (building one loads the CA bundle:
    ~0.1 s)."""
    return httpx.create_ssl_context()


class PinnedBackend(httpcore.AsyncNetworkBackend):
    """httpcore's network backend, connecting a host name only to its pinned addresses on hosted
    runs (tried in order); elsewhere the name is resolved as usual."""

    def __init__(self) -> None:
        self._inner = httpcore.AnyIOBackend()

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        if not hosted():
            return await self._inner.connect_tcp(host, port, timeout, local_address, socket_options)
        addresses = pinned_addresses(host, port)
        if not addresses:
            raise httpcore.ConnectError(f"{host!r} does not resolve")
        failure: Exception | None = None
        for address in addresses:
            try:
                return await self._inner.connect_tcp(
                    address, port, timeout, local_address, socket_options
                )
            except (httpcore.ConnectError, httpcore.ConnectTimeout) as exc:
                failure = exc
        assert failure is not None
        raise failure

    async def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        return await self._inner.connect_unix_socket(path, timeout, socket_options)

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)


class PinnedTransport(httpx.AsyncHTTPTransport):
    """httpx's own transport (same defaults, HTTP/1.1) on a pool that connects through
    PinnedBackend."""

    def __init__(self, ssl_context: ssl.SSLContext) -> None:
        super().__init__(verify=ssl_context)
        limits = httpx.Limits(max_connections=100, max_keepalive_connections=20)
        self._pool = httpcore.AsyncConnectionPool(
            ssl_context=ssl_context,
            max_connections=limits.max_connections,
            max_keepalive_connections=limits.max_keepalive_connections,
            keepalive_expiry=5.0,
            network_backend=PinnedBackend(),
        )


class HostedPinning(httpx.AsyncBaseTransport):
    """A client's transport as it was, except on hosted runs, where every request goes through a
    PinnedTransport instead (built on first use). LiteLLM's own transport (aiohttp) resolves host
    names by itself and so cannot be pinned."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self._pinned: PinnedTransport | None = None

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if not hosted():
            return await self.inner.handle_async_request(request)
        if self._pinned is None:
            self._pinned = PinnedTransport(verifying_context())
        return await self._pinned.handle_async_request(request)

    async def aclose(self) -> None:
        await self.inner.aclose()
        if self._pinned is not None:
            await self._pinned.aclose()
