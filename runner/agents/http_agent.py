"""The `http` agent: an external agent system behind a URL, called once per step (see http_protocol)."""

from __future__ import annotations

import asyncio
import ipaddress
import json
import os
import random
from typing import Any
from urllib.parse import urlsplit

import httpx
from pydantic import BaseModel, ValidationError

from runner.agents.http_protocol import AgentStepRequest, AgentStepResponse, StepToolResult
from runner.core.errors import AgentFailure, InfraFailure, TaurecError
from runner.core.protocols import (
    AgentContext,
    AgentReply,
    ChatMessage,
    ModelCall,
    ToolCallRequest,
    ToolSchema,
)
from runner.core.redact import redact_config
from runner.core.transcript import ComponentSpec
from runner.models.keys import RefusedEndpoint, check_header_env, host_problem, hosted
from runner.models.pinned_http import PinnedTransport, verifying_context
from runner.models.reply_limit import MAX_RESPONSE_BYTES
from runner.models.response_cap import bounded_client
from runner.models.retry import call_with_retry
from runner.play.agent_config import HttpAgentConfig
from runner.play.attribution import endpoint_failure, report_infra

__all__ = ["HttpAgent", "address_problem", "check_endpoint", "last_tool_results"]

_LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost"})


def _is_loopback(host: str) -> bool:
    if host.lower() in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_endpoint(url: str) -> None:
    """Refuse an endpoint that is not an absolute URL, or not https (loopback http excepted).

    Where it points (a loopback, private or link-local address) is judged at each step instead
    (`address_problem`), as for every model call: a refused address is the agent's error."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if not host:
        raise TaurecError(f"http agent endpoint {url!r}: not an absolute URL with a host")
    if parts.scheme == "https":
        return
    if parts.scheme == "http" and _is_loopback(host):
        return
    raise TaurecError(
        f"http agent endpoint {url!r}: must use https (plain http is allowed only on a "
        "loopback address such as 127.0.0.1)"
    )


def address_problem(url: str) -> RefusedEndpoint | None:
    """The refusal of an endpoint's address on this run (private addresses always; loopback, and
    names resolving to either, on hosted runs), or None. The connection itself then goes only to
    the addresses judged here (runner.models.pinned_http)."""
    problem = host_problem(url, hosted_run=hosted())
    return RefusedEndpoint(f"http agent endpoint {url!r}: {problem}") if problem else None


def last_tool_results(messages: list[ChatMessage]) -> list[StepToolResult]:
    """The tool messages after the last assistant message, with each call's tool name."""
    names: dict[str, str] = {}
    results: list[StepToolResult] = []
    for message in messages:
        role = message.get("role")
        if role == "assistant":
            results = []
            for call in message.get("tool_calls") or []:
                function = call.get("function") or {}
                names[str(call.get("id", ""))] = str(function.get("name", ""))
        elif role == "tool":
            call_id = str(message.get("tool_call_id", ""))
            content = message.get("content")
            results.append(
                StepToolResult(
                    tool_call_id=call_id,
                    name=str(message.get("name") or names.get(call_id, "")),
                    content=content if isinstance(content, str) else json.dumps(content),
                )
            )
        else:
            results = []
    return results


class _StatusError(Exception):
    """A non-2xx answer; carries the status and headers so the retry policy can classify it."""

    def __init__(self, response: httpx.Response, body: bytes) -> None:
        self.response = response
        self.status_code = response.status_code
        text = body.decode("utf-8", "replace").strip().replace("\n", " ")
        if len(text) > 200:
            text = text[:197] + "..."
        super().__init__(f"HTTP {response.status_code} from the agent endpoint: {text}")


async def _read_capped(response: httpx.Response, limit: int, *, cut: bool = False) -> bytes:
    """The body, never more than `limit` bytes in memory: beyond it, cut (`cut`) or refuse."""
    chunks: list[bytes] = []
    size = 0
    async for chunk in response.aiter_bytes():
        size += len(chunk)
        if size > limit:
            if cut:
                chunks.append(chunk[: limit - (size - len(chunk))])
                break
            raise AgentFailure(
                "ResponseTooLarge", f"the agent's reply is larger than {limit} bytes: refused"
            )
        chunks.append(chunk)
    return b"".join(chunks)


def _describe(error: ValidationError) -> str:
    problems = []
    for item in error.errors():
        where = ".".join(str(p) for p in item["loc"]) or "(root)"
        problems.append(f"field {where!r}: {item['msg']}")
    return "; ".join(problems[:5])


def _rule(loc: tuple[int | str, ...], kind: str) -> str:
    """The protocol rule behind one validation error, from the response models themselves."""
    model: type[BaseModel] = AgentStepResponse
    path: list[str] = []
    for part in loc[:-1]:
        if isinstance(part, int):
            path[-1] += "[]"
            continue
        annotation = model.model_fields.get(part)
        inner = getattr(annotation, "annotation", None)
        args = getattr(inner, "__args__", ())
        nested = next((a for a in args if isinstance(a, type) and issubclass(a, BaseModel)), None)
        if nested is None:
            break
        model = nested
        path.append(part)
    last = str(loc[-1]) if loc else ""
    where = ".".join([*path, last]) if last else ".".join(path) or "the reply"
    fields = ", ".join(model.model_fields)
    if kind == "extra_forbidden":
        return f"protocol rule: {'.'.join(path) or 'the reply'} has only the fields {fields}"
    found = model.model_fields.get(last)
    if found is None:
        return f"protocol rule: {where}: see the response schema"
    required = " (required)" if found.is_required() else ""
    return f"protocol rule: {where}{required}: {found.description or 'see the response schema'}"


def _protocol_problem(where: str, problem: str, rule: str, body: Any) -> AgentFailure:
    try:
        shown = json.dumps(body, ensure_ascii=False)
    except (TypeError, ValueError):
        shown = repr(body)
    if len(shown) > 300:
        shown = shown[:299] + "…"
    return AgentFailure(
        "MalformedResponse", f"{where}: invalid response: {problem}\n{rule}\nreply: {shown}"
    )


@report_infra
class HttpAgent:
    """Calls an external agent's endpoint once per step; retries with the one retry policy."""

    def __init__(self, config: HttpAgentConfig, context: AgentContext) -> None:
        check_endpoint(config.endpoint)
        self._config = config
        self._context = context
        self._rng = random.Random(context.seed)

    @property
    def spec(self) -> ComponentSpec:
        args = redact_config(self._config.model_dump(mode="json", exclude={"kind"}))
        return ComponentSpec(name="http", args=args)

    def _headers(self) -> tuple[dict[str, str], list[str]]:
        headers = {"Content-Type": "application/json", "User-Agent": "taurec-http-agent"}
        secrets: list[str] = []
        for header, env_name in self._config.headers_env.items():
            check_header_env(header, env_name, entry=self._context.entry)
            value = os.environ.get(env_name)
            if value is None:
                raise InfraFailure(
                    "MissingSecret",
                    f"http agent header {header!r}: environment variable {env_name} is not set",
                )
            headers[header] = value
            secrets.append(value)
        return headers, secrets

    async def step(self, messages: list[ChatMessage], tools: list[ToolSchema]) -> AgentReply:
        request = AgentStepRequest(
            user_id=self._context.user_id,
            policy=self._context.policy_text,
            messages=[m for m in messages if m.get("role") != "system"],
            tools=tools,
            last_tool_results=last_tool_results(messages),
        )
        refused = address_problem(self._config.endpoint)
        if refused is not None:  # before any request: the agent's error (attribution)
            raise refused
        payload = request.model_dump_json().encode()
        headers, secrets = self._headers()
        timeout = self._config.timeout_s

        async def post() -> bytes:
            # One deadline for the whole exchange (connect, headers and every body byte): a
            # server dripping a byte at a time cannot stretch a step past timeout_s. The body is
            # decoded under the cap by the model clients' rule (runner.models.response_cap).
            async with (
                asyncio.timeout(timeout),
                bounded_client(
                    httpx.AsyncClient(
                        timeout=timeout,
                        follow_redirects=False,
                        transport=PinnedTransport(verifying_context()),
                    )
                ) as client,
                client.stream(
                    "POST", self._config.endpoint, content=payload, headers=headers
                ) as response,
            ):
                if response.status_code >= 300:
                    raise _StatusError(response, await _read_capped(response, 4096, cut=True))
                return await _read_capped(response, MAX_RESPONSE_BYTES)

        where = f"http agent {self._config.endpoint}"
        try:
            body = await call_with_retry(
                post, self._config.retry, what=where, rng=self._rng, secrets=secrets
            )
        except InfraFailure as exc:  # the submitter's endpoint: its failure is the agent's
            raise endpoint_failure(exc, ours=False) from None
        try:
            return self._parse(body)
        except (RecursionError, ValueError) as exc:  # e.g. JSON nested 100k deep
            raise AgentFailure(
                "MalformedResponse", f"{where}: the response cannot be read ({type(exc).__name__})"
            ) from None

    def _parse(self, data: bytes) -> AgentReply:
        where = f"http agent {self._config.endpoint}"
        try:
            body: Any = json.loads(data)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            text = data[:300].decode("utf-8", "replace")
            raise AgentFailure(
                "MalformedResponse",
                f"{where}: the response body is not JSON ({exc})\nprotocol rule: the body is one "
                f"JSON object (AgentStepResponse)\nreply: {text}",
            ) from None
        try:
            reply = AgentStepResponse.model_validate(body)
        except ValidationError as exc:
            first = exc.errors()[0]
            raise _protocol_problem(
                where, _describe(exc), _rule(tuple(first["loc"]), first["type"]), body
            ) from None
        if reply.message is None and not reply.tool_calls:
            raise _protocol_problem(
                where,
                "neither field 'message' nor field 'tool_calls' is set",
                "protocol rule: every reply sets `message`, `tool_calls`, or both",
                body,
            )
        return AgentReply(
            content=reply.message,
            tool_calls=[
                ToolCallRequest(id=c.id, name=c.name, arguments=c.arguments_text())
                for c in reply.tool_calls
            ],
            usage=[ModelCall(**u.model_dump()) for u in reply.usage],
        )
