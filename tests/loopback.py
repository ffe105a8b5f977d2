"""Loopback HTTP servers for tests: a handler class served on 127.0.0.1, and the JSON it answers."""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Iterator, Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["QuietHandler", "completion", "send_json", "serving"]


class QuietHandler(BaseHTTPRequestHandler):
    """A request handler that keeps the test output free of access-log lines."""

    def log_message(self, *args: Any) -> None:
        pass


def send_json(
    handler: BaseHTTPRequestHandler,
    payload: Any,
    status: int = 200,
    headers: Mapping[str, str] | None = None,
) -> None:
    """Answer the handler's request with `payload` as JSON (bytes are sent as they are);
    `headers` are sent too, a Content-Type among them replacing the JSON one."""
    data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    handler.send_response(status)
    sent = {"Content-Type": "application/json", "Content-Length": str(len(data)), **(headers or {})}
    for name, value in sent.items():
        handler.send_header(name, value)
    handler.end_headers()
    handler.wfile.write(data)


def completion(
    content: str, model: str = "m", prompt_tokens: int = 1, completion_tokens: int = 1
) -> dict[str, Any]:
    """An OpenAI chat-completion answer holding one assistant message."""
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop",
            }
        ],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }


@contextlib.contextmanager
def serving(
    handler: type[BaseHTTPRequestHandler], poll_s: float = 0.5
) -> Iterator[ThreadingHTTPServer]:
    """`handler` served on 127.0.0.1 (a free port) by a background thread polling for shutdown
    every `poll_s`, shut down on exit."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, args=(poll_s,), daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
