"""Serve a built site folder on 127.0.0.1 with the standard library (no reload, no network beyond loopback)."""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        return


def make_server(folder: Path, port: int = 0, quiet: bool = True) -> http.server.ThreadingHTTPServer:
    """A threading HTTP server for `folder` bound to 127.0.0.1 (`port=0` picks a free port)."""
    if not (Path(folder) / "index.html").exists():
        from runner.core.errors import TaurecError

        raise TaurecError(f"{folder}: no index.html; run `taurec site build` first")
    base = _QuietHandler if quiet else http.server.SimpleHTTPRequestHandler
    handler = functools.partial(base, directory=str(folder))
    return http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)


@contextmanager
def serving(folder: Path, port: int = 0) -> Iterator[str]:
    """Serve `folder` in a background thread; yields the base URL and stops the server after."""
    server = make_server(folder, port)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
