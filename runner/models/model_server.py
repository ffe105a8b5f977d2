"""An OpenAI-compatible chat-completions server whose "models" are the built-in baseline policies."""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import random
import socket
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from runner.core.errors import TaurecError
from runner.core.protocols import AgentReply, ChatMessage, ChatPolicy, ToolSchema

__all__ = [
    "FAULT_KINDS",
    "Fault",
    "ModelServer",
    "ServerOptions",
    "derive_seed",
    "model_names",
    "parse_fault",
    "serve_model",
    "served_model",
]

# What a fault makes the server do instead of (or to) a normal answer.
FAULT_KINDS = ("400", "401", "404", "429", "500", "502", "503", "hang", "malformed_tool_json")
FAULT_HEADER = "X-Taurec-Fault"

Policy = ChatPolicy


@dataclass(frozen=True)
class Fault:
    """Inject `kind` on a share `rate` of requests; `once` = only the first call per conversation."""

    kind: str
    rate: float = 1.0
    once: bool = False

    @property
    def label(self) -> str:
        return ("once" if self.once else "") + self.kind


def parse_fault(spec: str) -> Fault:
    """Parse `KIND[:RATE]`, KIND one of FAULT_KINDS optionally prefixed by `once` (e.g. once429)."""
    kind, _, rate_text = spec.strip().partition(":")
    once = kind.startswith("once")
    if once:
        kind = kind[len("once") :]
    if kind not in FAULT_KINDS:
        raise ValueError(
            f"fault {spec!r}: unknown kind {kind!r}; use one of {', '.join(FAULT_KINDS)} "
            "(optionally prefixed by 'once')"
        )
    rate = 1.0
    if rate_text:
        try:
            rate = float(rate_text)
        except ValueError:
            raise ValueError(f"fault {spec!r}: rate {rate_text!r} is not a number") from None
        if not 0.0 <= rate <= 1.0:
            raise ValueError(f"fault {spec!r}: rate {rate} is not between 0 and 1")
    return Fault(kind=kind, rate=rate, once=once)


@dataclass
class ServerOptions:
    """How the server behaves: latency, injected faults and their parameters.

    `latency_ms` is each answer's latency: it is sent that long after its request arrived, the
    policy's work included (as a provider's latency includes its compute), or when ready if the
    work took longer. A fault answers after the same latency; a hang starts after it."""

    latency_ms: float = 0.0
    faults: Sequence[Fault] = ()
    retry_after_s: float = 1.0
    hang_s: float = 600.0
    fault_seed: int = 0


@cache
def _served_models() -> dict[str, Policy]:
    """Every model the server answers, by name: each registered domain's `served_models()`."""
    from runner.core.domains import domain_names, get_domain

    models: dict[str, Policy] = {}
    for domain_name in domain_names():
        for name, policy in get_domain(domain_name).served_models().items():
            if name in models:
                raise TaurecError(f"model {name!r} is served by two domains (one is {domain_name})")
            models[name] = policy
    return models


def model_names() -> tuple[str, ...]:
    """The names of the models the server answers (the movie baselines and users today)."""
    return tuple(_served_models())


def served_model(name: str) -> Policy:
    """The chat-completion function the server answers model `name` with."""
    policy = _served_models().get(name)
    if policy is None:
        raise TaurecError(f"model {name!r} not found; available: {', '.join(model_names())}")
    return policy


def _text(content: Any) -> str:
    """Message content as text (OpenAI allows a list of typed parts)."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for part in content:
            if isinstance(part, dict) and isinstance(part.get("text"), str):
                parts.append(part["text"])
            elif isinstance(part, str):
                parts.append(part)
        return "".join(parts)
    return str(content)


def _normalise_messages(messages: list[Any]) -> list[ChatMessage]:
    normalised: list[ChatMessage] = []
    for message in messages:
        if not isinstance(message, dict):
            raise ValueError("every message must be an object")
        copy = dict(message)
        if "content" in copy and copy["content"] is not None:
            copy["content"] = _text(copy["content"])
        normalised.append(copy)
    return normalised


def conversation_key(messages: list[ChatMessage]) -> str:
    """Identifies a conversation across its calls: the system and the first user message."""
    system = next((_text(m.get("content")) for m in messages if m.get("role") == "system"), "")
    first_user = next((_text(m.get("content")) for m in messages if m.get("role") == "user"), "")
    return hashlib.sha256(f"{system}\x00{first_user}".encode()).hexdigest()


def derive_seed(messages: list[ChatMessage]) -> int:
    """A deterministic seed for a request without one: from its conversation key."""
    return int(conversation_key(messages)[:8], 16)


def _estimate_tokens(text: str) -> int:
    return max(1, math.ceil(len(text) / 4))


def _break_json(arguments: str) -> str:
    """Valid JSON arguments cut short so they no longer parse (never empty)."""
    text = arguments.strip() or "{}"
    return text[:-1] if len(text) > 1 else "{"


@dataclass
class _State:
    options: ServerOptions
    stop: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)
    counts: Counter[str] = field(default_factory=Counter)
    seen: set[tuple[str, str]] = field(default_factory=set)
    rng: random.Random = field(default_factory=random.Random)
    policies: dict[str, Policy] = field(default_factory=dict)

    def policy(self, name: str) -> Policy:
        with self.lock:
            if name not in self.policies:
                self.policies[name] = served_model(name)
            return self.policies[name]

    in_flight: int = 0

    def count(self, key: str) -> None:
        with self.lock:
            self.counts[key] += 1

    def enter(self) -> None:
        with self.lock:
            self.in_flight += 1
            self.counts["max_in_flight"] = max(self.counts["max_in_flight"], self.in_flight)

    def leave(self) -> None:
        with self.lock:
            self.in_flight -= 1

    def first_time(self, conversation: str, fault: str) -> bool:
        with self.lock:
            if (conversation, fault) in self.seen:
                return False
            self.seen.add((conversation, fault))
            return True

    def roll(self, rate: float) -> bool:
        if rate >= 1.0:
            return True
        with self.lock:
            return self.rng.random() < rate


@dataclass(frozen=True)
class _ModelName:
    policy: str
    faults: tuple[Fault, ...]
    latency_ms: float | None
    retry_after_s: float | None


def _parse_model_name(model: str) -> _ModelName:
    """`heuristic+fault=once429+latency_ms=50+retry_after=0.1`: a policy plus per-request options."""
    base, *options = model.split("+")
    faults: list[Fault] = []
    latency_ms: float | None = None
    retry_after: float | None = None
    for option in options:
        key, _, value = option.partition("=")
        if key == "fault":
            faults.append(parse_fault(value))
        elif key == "latency_ms":
            latency_ms = float(value)
        elif key == "retry_after":
            retry_after = float(value)
        else:
            raise ValueError(
                f"model option {key!r} is unknown (use fault=, latency_ms=, retry_after=)"
            )
    return _ModelName(base, tuple(faults), latency_ms, retry_after)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body go out in two writes; with Nagle on, the body of every kept-alive reply
    # waits for the client's delayed ACK (~40 ms per call).
    disable_nagle_algorithm = True
    server_version = "taurec-model-server"
    sys_version = ""
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        return  # quiet: the CLI prints the URL once, tests read /taurec/stats

    # --- plumbing -------------------------------------------------------------------------
    def _send_json(
        self, status: int, body: dict[str, Any], headers: dict[str, str] | None = None
    ) -> None:
        payload = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        with contextlib.suppress(OSError):
            self.wfile.write(payload)
        self.server.state.count(f"status:{status}")

    def _send_error(
        self, status: int, message: str, code: str, headers: dict[str, str] | None = None
    ) -> None:
        error_type = "invalid_request_error" if status < 500 else "server_error"
        if status == 429:
            error_type = "rate_limit_error"
        body = {"error": {"message": message, "type": error_type, "param": None, "code": code}}
        self._send_json(status, body, headers)

    def _read_body(self) -> bytes:
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length > 0 else b""

    # --- routes ---------------------------------------------------------------------------
    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0].rstrip("/")
        if path == "/v1/models":
            data = [{"id": name, "object": "model", "owned_by": "taurec"} for name in model_names()]
            self._send_json(200, {"object": "list", "data": data})
        elif path == "/taurec/stats":
            with self.server.state.lock:
                counts = dict(sorted(self.server.state.counts.items()))
            self._send_json(200, {"counts": counts})
        else:
            self._send_error(404, f"no route GET {path}", "not_found")

    def do_POST(self) -> None:
        self.server.state.enter()
        try:
            self._post()
        finally:
            self.server.state.leave()

    def _post(self) -> None:
        arrived = time.monotonic()
        raw = self._read_body()
        path = self.path.split("?", 1)[0].rstrip("/")
        if path != "/v1/chat/completions":
            self._send_error(404, f"no route POST {path}", "not_found")
            return
        state = self.server.state
        state.count("requests")
        try:
            body = json.loads(raw)
            if not isinstance(body, dict):
                raise ValueError("the request body must be a JSON object")
            messages = _normalise_messages(list(body.get("messages") or []))
            tools = list(body.get("tools") or [])
            model = _parse_model_name(str(body.get("model", "")))
        except (ValueError, TypeError) as exc:
            self._send_error(400, f"bad request: {exc}", "bad_request")
            return
        if body.get("stream"):
            self._send_error(400, "streaming is not supported by this server", "bad_request")
            return
        if model.policy not in model_names():
            self._send_error(
                404,
                f"model {model.policy!r} not found; available: {', '.join(model_names())}",
                "model_not_found",
            )
            return

        state.count(f"model:{model.policy}")
        options = state.options
        latency_ms = options.latency_ms if model.latency_ms is None else model.latency_ms
        conversation = conversation_key(messages)
        fault = self._pick_fault(model, conversation)
        retry_after = options.retry_after_s if model.retry_after_s is None else model.retry_after_s
        if fault is not None:
            state.count(f"fault:{fault.label}")
            if not self._wait_latency(arrived, latency_ms):
                return
            if fault.kind == "hang":
                state.stop.wait(options.hang_s)
                if state.stop.is_set():
                    return
            elif fault.kind.isdigit():
                status = int(fault.kind)
                headers = {"Retry-After": f"{retry_after:g}"} if status in (429, 503) else None
                message = f"injected fault: {status} {HTTPStatus(status).phrase}"
                if status == 401:
                    # Like some real providers, echo the credential: callers must scrub it.
                    message += f" (credential sent: {self.headers.get('Authorization', '')})"
                self._send_error(status, message, fault.label, headers)
                return

        seed = body.get("seed")
        if not isinstance(seed, int) or isinstance(seed, bool):
            seed = derive_seed(messages)
        try:
            reply = state.policy(model.policy)(messages, tools, seed)
        except Exception as exc:  # a policy bug must show up as a 500, not a dropped connection
            if self._wait_latency(arrived, latency_ms):
                self._send_error(500, f"policy {model.policy!r} failed: {exc!r}", "policy_error")
            return
        malformed = fault is not None and fault.kind == "malformed_tool_json"
        completion = self._completion(body, model.policy, messages, tools, reply, malformed)
        if fault is None and not self._wait_latency(arrived, latency_ms):
            return
        self._send_json(200, completion)

    def _wait_latency(self, arrived: float, latency_ms: float) -> bool:
        """Wait until `latency_ms` after the request `arrived` (the policy's own work and parsing
        count towards it, as a provider's latency includes its compute); False when the server
        is stopping. An answer whose work took longer goes out at once."""
        remaining = latency_ms / 1000.0 - (time.monotonic() - arrived)
        return remaining <= 0 or not self.server.state.stop.wait(remaining)

    def _pick_fault(self, model: _ModelName, conversation: str) -> Fault | None:
        state = self.server.state
        header = self.headers.get(FAULT_HEADER)
        candidates = list(model.faults)
        if header:
            with contextlib.suppress(ValueError):
                candidates.append(parse_fault(header))
        candidates.extend(state.options.faults)
        for fault in candidates:
            if fault.once and not state.first_time(conversation, fault.label):
                continue
            if state.roll(fault.rate):
                return fault
        return None

    @staticmethod
    def _completion(
        body: dict[str, Any],
        policy: str,
        messages: list[ChatMessage],
        tools: list[ToolSchema],
        reply: AgentReply,
        malformed: bool,
    ) -> dict[str, Any]:
        calls = [(c.id, c.name, c.arguments) for c in reply.tool_calls]
        if malformed:
            if calls:
                first = calls[0]
                calls[0] = (first[0], first[1], _break_json(first[2]))
            else:
                name = str(tools[0].get("function", {}).get("name", "tool")) if tools else "tool"
                calls = [("", name, "{")]
        digest = hashlib.sha256(
            json.dumps([messages, body.get("seed")], sort_keys=True, default=str).encode()
        ).hexdigest()[:24]
        tool_calls = [
            {
                "id": call_id or f"call_{digest[:12]}_{index}",
                "type": "function",
                "function": {"name": name, "arguments": arguments},
            }
            for index, (call_id, name, arguments) in enumerate(calls)
        ]
        message: dict[str, Any] = {"role": "assistant", "content": reply.content}
        if tool_calls:
            message["tool_calls"] = tool_calls
        prompt_tokens = _estimate_tokens(json.dumps(messages) + json.dumps(tools))
        completion_tokens = _estimate_tokens(
            (reply.content or "") + "".join(name + args for _, name, args in calls)
        )
        return {
            "id": f"chatcmpl-{digest}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": policy,
            "choices": [
                {
                    "index": 0,
                    "message": message,
                    "finish_reason": "tool_calls" if tool_calls else "stop",
                }
            ],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            },
        }


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 512

    def __init__(self, address: tuple[str, int], state: _State) -> None:
        self.state = state
        self._connections: set[socket.socket] = set()
        self._connections_lock = threading.Lock()
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        super().__init__(address, _Handler)

    def process_request(self, request: Any, client_address: Any) -> None:
        with self._connections_lock:
            self._connections.add(request)
        super().process_request(request, client_address)

    def shutdown_request(self, request: Any) -> None:
        with self._connections_lock:
            self._connections.discard(request)
        super().shutdown_request(request)

    def close_connections(self) -> None:
        """Wake every handler blocked on a kept-alive connection so its thread ends."""
        with self._connections_lock:
            connections = list(self._connections)
        for connection in connections:
            with contextlib.suppress(OSError):
                connection.shutdown(socket.SHUT_RDWR)


class ModelServer:
    """The server on a background thread; `url` is the OpenAI base URL (…/v1) once started."""

    def __init__(
        self, host: str = "127.0.0.1", port: int = 0, options: ServerOptions | None = None
    ) -> None:
        opts = options or ServerOptions()
        model_names()  # every domain's models found now, not while the first request waits
        self._state = _State(options=opts, rng=random.Random(opts.fault_seed))
        self._httpd = _Server((host, port), self._state)
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        name = host.decode() if isinstance(host, bytes) else str(host)
        shown = f"[{name}]" if ":" in name else name
        return f"http://{shown}:{port}/v1"

    def start(self) -> str:
        self._thread = threading.Thread(
            target=self._httpd.serve_forever,
            kwargs={"poll_interval": 0.05},
            name="taurec-model-server",
            daemon=True,
        )
        self._thread.start()
        return self.url

    def serve_forever(self) -> None:
        """Serve on the calling thread until interrupted (the CLI's Ctrl-C)."""
        try:
            self._httpd.serve_forever(poll_interval=0.2)
        finally:
            self.close()

    def close(self) -> None:
        self._state.stop.set()
        if self._thread is not None:
            self._httpd.shutdown()
            self._thread.join(timeout=5)
            self._thread = None
        self._httpd.close_connections()
        self._httpd.server_close()


@contextlib.contextmanager
def serve_model(
    host: str = "127.0.0.1",
    port: int = 0,
    *,
    latency_ms: float = 0.0,
    faults: Sequence[Fault | str] = (),
    retry_after_s: float = 1.0,
    hang_s: float = 600.0,
    fault_seed: int = 0,
) -> Iterator[str]:
    """Run the model server on a background thread; yields its base URL `http://HOST:PORT/v1`."""
    options = ServerOptions(
        latency_ms=latency_ms,
        faults=tuple(parse_fault(f) if isinstance(f, str) else f for f in faults),
        retry_after_s=retry_after_s,
        hang_s=hang_s,
        fault_seed=fault_seed,
    )
    server = ModelServer(host, port, options)
    try:
        yield server.start()
    finally:
        server.close()


def serve_model_forever(
    host: str = "127.0.0.1",
    port: int = 0,
    options: ServerOptions | None = None,
    *,
    ready: Callable[[str], None] | None = None,
) -> None:
    """Serve on the calling thread until interrupted; `ready(url)` is called once it listens."""
    server = ModelServer(host, port, options)
    if ready is not None:
        ready(server.url)
    server.serve_forever()
