"""Misbehaving HTTP servers on 127.0.0.1 for the tests and benchmarks that bound model clients.

`StandIn` serves a handler on a free loopback port and records what it was asked; handlers built
on `StandInHandler` answer whole, chunked or one byte at a time; `Hostile` is the OpenAI-compatible
server that streams an endless body, drips, or redirects, as its `mode` says.
"""

from __future__ import annotations

import contextlib
import functools
import threading
import time
import zlib
from collections.abc import Awaitable, Iterable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self

__all__ = ["HEAD", "Hostile", "MiB", "StandIn", "StandInHandler"]

MiB = 1024 * 1024
# The start of a chat completion whose content never closes.
HEAD = b'{"id":"x","object":"chat.completion","choices":[{"message":{"content":"'


@functools.cache
def compressed_bomb(coding: str, decoded_bytes: int) -> bytes:
    """HEAD and then `decoded_bytes` of `a`, compressed as `coding` (gzip or deflate) says: about
    a thousandth of the size on the wire (built once per process)."""
    wbits = zlib.MAX_WBITS | 16 if coding == "gzip" else zlib.MAX_WBITS
    packer = zlib.compressobj(9, zlib.DEFLATED, wbits)
    block = b"a" * MiB
    parts = [packer.compress(HEAD)]
    parts += [packer.compress(block) for _ in range(decoded_bytes // MiB)]
    parts.append(packer.flush())
    return b"".join(parts)


class StandIn:
    """`handler` on 127.0.0.1 (a free port); `paths` the requests reached, `sent` the body bytes
    streamed so far. Serve it with `running()`."""

    def __init__(self, handler: type[BaseHTTPRequestHandler]) -> None:
        self.paths: list[str] = []
        self.sent = 0
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.server.daemon_threads = True
        self.server.stand_in = self  # type: ignore[attr-defined]
        self.where = f"127.0.0.1:{self.server.server_port}"
        self.url = f"http://{self.where}/v1"

    @contextlib.contextmanager
    def running(self, poll_s: float = 0.5) -> Iterator[Self]:
        """Served by a background thread (polling for shutdown every `poll_s`), closed on exit."""
        thread = threading.Thread(target=self.server.serve_forever, args=(poll_s,), daemon=True)
        thread.start()
        try:
            yield self
        finally:
            self.server.shutdown()
            self.server.server_close()


class StandInHandler(BaseHTTPRequestHandler):
    """A quiet HTTP/1.1 handler of a `StandIn`, with the ways of answering the tests need."""

    protocol_version = "HTTP/1.1"

    @property
    def stand_in(self) -> Any:
        return self.server.stand_in  # type: ignore[attr-defined]

    def take_request(self) -> None:
        """Read the request's body and record its path."""
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.stand_in.paths.append(self.path)

    def answer(
        self,
        body: bytes,
        *,
        coding: str | None = None,
        chunked: bool = False,
        pace_s: float = 0.0,
    ) -> None:
        """A 200 JSON answer of `body` (labelled with Content-Encoding `coding`): chunked in 16 KiB
        pieces, or with a Content-Length, one byte every `pace_s` seconds if that is set. A client
        that hangs up ends it quietly; the connection closes after it."""
        if chunked:
            step = 16 * 1024
            self.answer_chunks((body[i : i + step] for i in range(0, len(body), step)), coding)
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        if coding:
            self.send_header("Content-Encoding", coding)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        with contextlib.suppress(OSError):  # the client hung up
            if not pace_s:
                self.wfile.write(body)
            for byte in body if pace_s else b"":
                self.wfile.write(bytes([byte]))
                self.wfile.flush()
                time.sleep(pace_s)
        self.close_connection = True

    def answer_chunks(
        self, parts: Iterable[bytes], coding: str | None = None, *, end: bool = True
    ) -> None:
        """A 200 JSON answer sent chunk by chunk (counted in the stand-in's `sent`); `end=False`
        leaves the body open. A client that hangs up ends it quietly."""
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        if coding:
            self.send_header("Content-Encoding", coding)
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        with contextlib.suppress(OSError):  # the client hung up: what the tests want
            for data in parts:
                self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
                self.stand_in.sent += len(data)
            if end:
                self.wfile.write(b"0\r\n\r\n")
        self.close_connection = True

    def redirect(self, location: str) -> None:
        self.send_response(307)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


class _HostileHandler(StandInHandler):
    def do_POST(self) -> None:
        self.take_request()
        hostile: Hostile = self.stand_in
        if self.path.startswith("/elsewhere"):  # reached only by following the redirect
            self.answer(b'{"choices": []}')
        elif hostile.mode == "redirect":
            self.redirect(f"/elsewhere{self.path}")
        elif hostile.mode == "drip":
            body = b'{"id":"x","object":"chat.completion","choices":[]}' + b" " * 200
            self.answer(body, pace_s=hostile.drip_s)
        else:
            whole = [HEAD, *([b"a" * MiB] * (hostile.huge // MiB))]
            self.answer_chunks([*whole, *hostile.ending], end=bool(hostile.ending))

    do_GET = do_POST


class Hostile(StandIn):
    """An OpenAI-compatible server that misbehaves as `mode` says, on any path: `huge` streams a
    completion of `huge` bytes (left open unless `ending` closes it), `drip` sends a small answer
    one byte every `drip_s` seconds, `redirect` answers 307 to /elsewhere (which answers an empty
    completion)."""

    def __init__(self, huge: int, drip_s: float = 0.1, ending: bytes = b"") -> None:
        super().__init__(_HostileHandler)
        self.mode = "huge"
        self.huge = huge
        self.drip_s = drip_s
        self.ending = [ending] if ending else []


def ask_litellm(litellm: Any, prefix: str, api_base: str) -> Awaitable[Any]:
    """One bare `litellm.acompletion` of model `<prefix>/m` at `api_base`: five seconds, no retry."""
    messages = [{"role": "user", "content": "hi"}]
    return litellm.acompletion(
        model=f"{prefix}/m",
        messages=messages,
        api_base=api_base,
        api_key="x",
        timeout=5,
        max_retries=0,
    )
