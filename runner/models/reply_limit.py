"""The byte cap on every reply a model or agent endpoint sends us, counted in decoded bytes, and
the error past it.

Every client (the direct client on aiohttp, LiteLLM's httpx clients, the HTTP agent) asks for
`ACCEPT_ENCODING` only and reads the body through one `ReplyDecoder`: the raw bytes and the bytes
they decode to both count against the cap, and decompression is done a slice at a time
(`zlib`'s `max_length`), so a compressed body that would expand to gigabytes (a "gzip bomb":
~0.5 MB on the wire for 512 MiB of JSON) is refused once 4 MiB of it are decoded. An encoding
this module cannot decode a slice at a time (brotli, zstd, anything else) is refused before any
of it is read, whatever the client libraries installed could do with it.

Standard library only: the direct client and the HTTP agent raise these without importing httpx,
which loads its CLI's rich console and pygments with it (~70 modules; +15 MB of PSS in a bare
interpreter).
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator

__all__ = [
    "ACCEPT_ENCODING",
    "DECODABLE_ENCODINGS",
    "MAX_RESPONSE_BYTES",
    "ReplyDecoder",
    "ResponseTooLarge",
    "UnboundedEncoding",
    "UndecodableReply",
]

# One cap for every reply from a model or an agent endpoint; a chat reply is a few KiB.
MAX_RESPONSE_BYTES = 4 * 1024 * 1024

# The content codings the clients decode with a bound; the only ones they ask for.
DECODABLE_ENCODINGS = ("gzip", "deflate")
ACCEPT_ENCODING = ", ".join(DECODABLE_ENCODINGS)

# The most one decompression call may produce: the cap is checked between slices.
_SLICE = 64 * 1024


class ResponseTooLarge(Exception):
    """The body went past the cap (raw or decoded): the read stops there, so memory stays bounded.

    Kept apart from runner.models.response_cap (LiteLLM's httpx clients): the direct client and
    the HTTP agent raise it without importing httpx.
    """


class UnboundedEncoding(ResponseTooLarge):
    """The body is in a content coding we cannot decode a slice at a time, so its decoded size
    cannot be bounded: refused under the same rule as a body past the cap."""


class UndecodableReply(ValueError):
    """The body is not valid in the content coding its header names."""


def _codings(header: str | None) -> list[str]:
    """The codings of a Content-Encoding header in the order they were applied (identity dropped)."""
    found = [part.strip().lower() for part in (header or "").split(",")]
    return [c for c in found if c and c != "identity"]


class _Inflater:
    """One gzip or deflate layer, decompressed a slice at a time."""

    def __init__(self, coding: str) -> None:
        self._deflate = coding == "deflate"
        # deflate: its first two bytes say zlib-wrapped or raw (None once they are known)
        self._head: bytes | None = b"" if self._deflate else None
        wbits = zlib.MAX_WBITS if self._deflate else zlib.MAX_WBITS | 16
        self._inflater = zlib.decompressobj(wbits)

    def _wrapped(self, head: bytes) -> bool:
        """Whether a deflate body starts with a zlib header (the standard) rather than raw
        deflate data (what some servers send)."""
        return head[0] & 0x0F == 8 and (head[0] << 8 | head[1]) % 31 == 0

    def feed(self, data: bytes) -> Iterator[bytes]:
        if self._head is not None:
            self._head += data
            if len(self._head) < 2:
                return
            data, self._head = self._head, None
            if not self._wrapped(data):
                self._inflater = zlib.decompressobj(-zlib.MAX_WBITS)
        pending = data
        while True:
            piece = self._inflater.decompress(pending, _SLICE)
            pending = self._inflater.unconsumed_tail
            if piece:
                yield piece
            # Done with this input once it is consumed and the last slice was not full (a full
            # slice may leave decoded bytes inside zlib: ask again with no new input).
            if self._inflater.eof or (not pending and len(piece) < _SLICE):
                return

    def finish(self) -> Iterator[bytes]:
        if self._head:
            raise zlib.error("a deflate body of one byte")
        yield from self.feed(b"")


class ReplyDecoder:
    """Decode one reply body chunk by chunk, refusing it past `limit` raw or decoded bytes.

    `encoding` is the reply's Content-Encoding header (None: not sent). `where` names the
    endpoint in the messages. Raises UnboundedEncoding at once for a coding it cannot bound, and
    ResponseTooLarge (or `too_large`, for a client that must raise its own subclass) past the cap.
    """

    def __init__(
        self,
        encoding: str | None,
        where: str,
        limit: int = MAX_RESPONSE_BYTES,
        too_large: type[ResponseTooLarge] = ResponseTooLarge,
    ) -> None:
        codings = _codings(encoding)
        unknown = [c for c in codings if c not in (*DECODABLE_ENCODINGS, "x-gzip")]
        if unknown:
            raise UnboundedEncoding(
                f"the answer from {where} is encoded as {', '.join(unknown)!s}, which cannot be "
                f"decoded within the {limit}-byte cap (only {ACCEPT_ENCODING} are asked for): "
                "refused"
            )
        # Applied in header order, so removed in reverse.
        self._layers = [_Inflater(c) for c in reversed(codings)]
        self._where = where
        self._limit = limit
        self._too_large = too_large
        self.raw = 0
        self.decoded = 0

    def _refuse(self) -> ResponseTooLarge:
        what = "decodes to more" if self.decoded > self._limit else "is larger"
        return self._too_large(
            f"the answer from {self._where} {what} than {self._limit} bytes: refused"
        )

    def _through(self, data: bytes, depth: int, final: bool) -> Iterator[bytes]:
        if depth == len(self._layers):
            if data:
                self.decoded += len(data)
                if self.decoded > self._limit:
                    raise self._refuse()
                yield data
            return
        layer = self._layers[depth]
        for piece in layer.feed(data) if data else ():
            yield from self._through(piece, depth + 1, False)
        if final:
            for piece in layer.finish():
                yield from self._through(piece, depth + 1, False)
            yield from self._through(b"", depth + 1, True)

    def feed(self, chunk: bytes) -> Iterator[bytes]:
        """The decoded bytes of the next raw chunk, a slice at a time."""
        self.raw += len(chunk)
        if self.raw > self._limit:
            raise self._refuse()
        yield from self._guarded(chunk, final=False)

    def finish(self) -> Iterator[bytes]:
        """What the decoders still hold once the raw body has ended."""
        yield from self._guarded(b"", final=True)

    def _guarded(self, chunk: bytes, *, final: bool) -> Iterator[bytes]:
        try:
            yield from self._through(chunk, 0, final)
        except zlib.error as exc:
            raise UndecodableReply(
                f"the answer from {self._where} is not valid compressed data: {exc}"
            ) from None
