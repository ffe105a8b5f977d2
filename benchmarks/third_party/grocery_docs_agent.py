"""A third-party grocery agent written from the public documentation only (issue 38).

An honest, rule-based shopping assistant served over the HTTP agent protocol
(`site/pages/http-agent-protocol.md`). It was written as an outside builder would write it:
from the README, the protocol, Integrate, Submit and Methodology pages, the grocery policy the
request carries, `docs/cli.md` and the example agents -- never from the benchmark's own agents,
simulated shopper or scorer. Everything it knows comes from the request: the whole conversation
is re-read at every step (the protocol is stateless), tool results included.

It follows the policy step by step: asks about allergies and budget before suggesting anything,
searches, checks every candidate's allergens and traces, stock and price, puts forward one
product per message by brand, name and pack size, says when one is sponsored, learns from each
decline, fills the basket and states every line, quantity and the total before ordering; asks
before a return; on account requests finds the shopper first, asks which order is meant, states
each change with its money and payment method, waits for a yes, makes one change at a time and
reports its outcome; ends with `finish` (or `transfer_to_human` when only a person can help).

Run:  python -m benchmarks.third_party.grocery_docs_agent [--port 0]
then: taurec eval http:http://127.0.0.1:PORT/ --domain grocery --trials 4
"""

from __future__ import annotations

import argparse
import contextlib
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from benchmarks.third_party.grocery_account import account_step, is_account_request
from benchmarks.third_party.grocery_reading import Conversation
from benchmarks.third_party.grocery_shopping import shopping_step

__all__ = ["main", "make_server", "running", "step"]

MAX_BODY = 8 * 1024 * 1024


def step(request: dict[str, Any]) -> dict[str, Any]:
    """One agent step: the protocol request in, the protocol response out (pure)."""
    tools = request.get("tools") or []
    if not tools:
        # The runner's preflight: one plain request with no tools.
        return {"message": "Hello, I am ready to help."}
    conversation = Conversation.from_messages(request.get("messages") or [])
    if is_account_request(conversation.opening):
        return account_step(conversation)
    return shopping_step(conversation)


class _Handler(BaseHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        return

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        if length <= 0 or length > MAX_BODY:
            self._answer(400, {"error": f"Content-Length {length} is not in 1..{MAX_BODY}"})
            return
        try:
            request = json.loads(self.rfile.read(length))
            if not isinstance(request, dict) or request.get("protocol_version") != 1:
                raise ValueError("expected a protocol_version 1 request object")
            body = step(request)
        except (ValueError, KeyError, TypeError) as error:
            self._answer(400, {"error": f"bad request: {error}"})
            return
        self._answer(200, body)

    def _answer(self, status: int, body: dict[str, Any]) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def make_server(host: str = "127.0.0.1", port: int = 0) -> ThreadingHTTPServer:
    """The agent as a threading HTTP server (port 0: any free port)."""
    server = ThreadingHTTPServer((host, port), _Handler)
    server.daemon_threads = True
    return server


@contextlib.contextmanager
def running(host: str = "127.0.0.1", port: int = 0) -> Iterator[str]:
    """Serve the agent on a background thread for the `with` block; yields its endpoint URL."""
    server = make_server(host, port)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://{host}:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args(argv)
    server = make_server(args.host, args.port)
    print(f"listening on http://{args.host}:{server.server_address[1]}/", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
