"""Which secret may go where: the one table of provider key variables and their hosts, and the entry-scoped key."""

from __future__ import annotations

import contextlib
import functools
import ipaddress
import json
import os
import re
import socket
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

from runner.core.errors import TaurecError

__all__ = [
    "ENTRY_KEY_PREFIX",
    "HOSTED_ENV",
    "LOCAL_PLACEHOLDER_KEY",
    "OWN_SERVER_ENV",
    "PROVIDER_KEYS",
    "KeyPolicyError",
    "ProviderKey",
    "RefusedEndpoint",
    "allowed_key_env",
    "check_header_env",
    "entry_environment",
    "entry_key_env",
    "entry_secret_names",
    "host_problem",
    "hosted",
    "is_provider_endpoint",
    "is_provider_host",
    "key_problems",
    "pinned_addresses",
    "provider_of_model",
    "simulator_key_env",
]

ENTRY_KEY_PREFIX = "TAUREC_KEY_"
# Sent when no secret may go to a host, so a client library never reaches for one by itself.
LOCAL_PLACEHOLDER_KEY = "taurec-local"
# Set (to anything but "" or "0") on hosted runs: endpoints on loopback or private addresses refused.
HOSTED_ENV = "TAUREC_HOSTED"
# `host:port` of the model server a hosted run starts for its own loopback baselines
# (scripts/run_shard.sh): the one loopback address a hosted run may call.
OWN_SERVER_ENV = "TAUREC_OWN_MODEL_SERVER"


@dataclass(frozen=True)
class ProviderKey:
    """One provider key variable: the LiteLLM provider it belongs to and the only hosts it may reach."""

    env: str
    provider: str
    hosts: tuple[str, ...]


# The one table: a maintainers' provider key is sent only to that provider's own endpoints.
PROVIDER_KEYS: dict[str, ProviderKey] = {
    k.env: k
    for k in (
        ProviderKey("OPENAI_API_KEY", "openai", ("api.openai.com",)),
        ProviderKey("ANTHROPIC_API_KEY", "anthropic", ("api.anthropic.com",)),
        ProviderKey("GEMINI_API_KEY", "gemini", ("generativelanguage.googleapis.com",)),
        ProviderKey("MISTRAL_API_KEY", "mistral", ("api.mistral.ai",)),
        ProviderKey("OPENROUTER_API_KEY", "openrouter", ("openrouter.ai",)),
        ProviderKey("GROQ_API_KEY", "groq", ("api.groq.com",)),
        ProviderKey("DEEPSEEK_API_KEY", "deepseek", ("api.deepseek.com",)),
        ProviderKey("XAI_API_KEY", "xai", ("api.x.ai",)),
        ProviderKey("TOGETHERAI_API_KEY", "together_ai", ("api.together.xyz",)),
        ProviderKey("FIREWORKS_AI_API_KEY", "fireworks_ai", ("api.fireworks.ai",)),
    )
}
_BY_PROVIDER = {k.provider: k for k in PROVIDER_KEYS.values()}
# Bare model names LiteLLM maps to a provider without a `provider/` prefix.
_BARE_PREFIXES = (
    ("gpt-", "openai"),
    ("o1", "openai"),
    ("o3", "openai"),
    ("o4", "openai"),
    ("chatgpt-", "openai"),
    ("claude-", "anthropic"),
    ("gemini-", "gemini"),
)


class KeyPolicyError(TaurecError):
    """A configuration would send a secret somewhere the key table does not allow."""


class RefusedEndpoint(KeyPolicyError):
    """A call the runner will not make: a provider whose path cannot be bounded, a prefix not on
    the list for a submitter's server (runner.models.provider_paths), or (hosted runs) a loopback,
    private or link-local address, named or resolved. A key-policy error: it is refused for the
    same reason, where the call (and its key) would go. Raised by an agent's step, it is the
    agent's error whatever the agent's kind (runner.play.attribution)."""


def entry_key_env(slug: str) -> str:
    """The entry-scoped secret's variable name: `TAUREC_KEY_` + the slug upper-cased, `-` → `_`."""
    return ENTRY_KEY_PREFIX + re.sub(r"[^A-Z0-9]", "_", slug.upper())


def _own_entry_key(name: str, entry: str | None) -> None:
    """An entry-scoped variable is only ever the entry's own (`entry`: its slug, None when the
    caller runs no entry, e.g. `taurec trial` on the operator's own config)."""
    if entry is not None and name != entry_key_env(entry):
        raise KeyPolicyError(
            f"{name!r} is another entry's secret: entry {entry!r} may use only "
            f"{entry_key_env(entry)}"
        )


def provider_of_model(model: str) -> str | None:
    """The provider of a LiteLLM model string (`openai/gpt-5` → openai), None when unknown."""
    if "/" in model:
        return model.split("/", 1)[0].lower()
    for prefix, provider in _BARE_PREFIXES:
        if model.lower().startswith(prefix):
            return provider
    return None


def _provider_key(model: str) -> ProviderKey | None:
    provider = provider_of_model(model)
    return _BY_PROVIDER.get(provider) if provider else None


@functools.lru_cache(maxsize=256)  # pure, and asked on every model call
def _host(url: str | None) -> str:
    return (urlsplit(url).hostname or "").lower() if url else ""


def allowed_key_env(
    model: str, api_base: str | None, api_key_env: str | None, entry: str | None = None
) -> str | None:
    """The variable whose value a LiteLLM agent may send (None: send a placeholder, no secret).

    A provider variable goes only to its provider's hosts (default endpoint or an `api_base` on
    one of them); anything else gets only the entry-scoped `TAUREC_KEY_…` variable of `entry`
    (its slug; any such variable when None). Raises KeyPolicyError for every other combination.
    """
    own = _provider_key(model)
    host = _host(api_base)
    if api_key_env is None:
        if api_base is None:
            if own is None:
                raise KeyPolicyError(
                    f"model {model!r}: unknown provider, so no provider key may be sent; set "
                    f"api_key_env to the entry's {ENTRY_KEY_PREFIX}<SLUG> variable"
                )
            return own.env
        return own.env if own is not None and host in own.hosts else None
    if api_key_env.startswith(ENTRY_KEY_PREFIX):
        _own_entry_key(api_key_env, entry)
        return api_key_env
    key = PROVIDER_KEYS.get(api_key_env)
    if key is None:
        raise KeyPolicyError(
            f"api_key_env {api_key_env!r}: only a provider key variable of the key table or the "
            f"entry's own {ENTRY_KEY_PREFIX}<SLUG> variable may be named"
        )
    if own is None or own.provider != key.provider:
        raise KeyPolicyError(
            f"api_key_env {api_key_env!r} is the {key.provider} key; model {model!r} is not a "
            f"{key.provider} model"
        )
    if api_base is not None and host not in key.hosts:
        raise KeyPolicyError(
            f"api_key_env {api_key_env!r} goes only to {', '.join(key.hosts)}, not to {host!r}: "
            f"a custom api_base gets only the entry's {ENTRY_KEY_PREFIX}<SLUG> variable"
        )
    return api_key_env


def simulator_key_env(model: str, api_base: str | None, api_key_env: str | None) -> str | None:
    """The variable a LiteLLM user simulator may send: the same key table as entries (a provider
    key only to its provider's hosts, None: a placeholder), and never an entry's secret."""
    if api_key_env is not None and api_key_env.startswith(ENTRY_KEY_PREFIX):
        raise KeyPolicyError(
            f"api_key_env {api_key_env!r} is an entry's secret: the user simulator may use only a "
            "provider key of the key table, on its provider's hosts"
        )
    return allowed_key_env(model, api_base, api_key_env)


def is_provider_host(model: str, api_base: str) -> bool:
    """Whether `api_base` is on one of the model's own provider's hosts (api.openai.com for
    `openai/…`)."""
    own = _provider_key(model)
    return own is not None and _host(api_base) in own.hosts


def is_provider_endpoint(model: str, api_base: str | None) -> bool:
    """Whether calls go to the maintainers' side (the model's provider, or a server on this
    machine: hosted runs refuse loopback entries, so one there is the operator's own) rather
    than a submitter's server."""
    if api_base is None:
        return True
    host = _host(api_base)
    if _is_loopback(host) and not hosted():
        return True
    return is_provider_host(model, api_base)


def _is_loopback(host: str) -> bool:
    if host in ("localhost", "localhost.localdomain", "ip6-localhost"):
        return True
    address = _address(host)
    return address is not None and address.is_loopback


@functools.lru_cache(maxsize=256)  # pure, and asked on every model call
def _address(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The host as an IP address, None for a name."""
    try:
        return ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return None


def check_header_env(header: str, env_name: str, entry: str | None = None) -> None:
    """An HTTP agent header may carry only the entry's own secret, never a provider key."""
    if not env_name.startswith(ENTRY_KEY_PREFIX):
        raise KeyPolicyError(
            f"headers_env.{header} names {env_name!r}: an http agent gets only the entry's "
            f"{ENTRY_KEY_PREFIX}<SLUG> variable"
        )
    _own_entry_key(env_name, entry)


def hosted() -> bool:
    return os.environ.get(HOSTED_ENV, "") not in ("", "0")


def host_problem(url: str, *, hosted_run: bool) -> str | None:
    """Why a run may not call this URL's host (private addresses always, loopback when hosted).

    On hosted runs a host name is resolved too: a name that points at a loopback, private or
    link-local address (the runner's metadata service, a sibling container) is refused like
    the address itself. The hosted run's own model server (OWN_SERVER_ENV) is the one exception.
    """
    host = _host(url)
    if hosted_run and _is_own_server(url):
        return None
    if _is_loopback(host):
        return f"{host!r} is loopback: refused on hosted runs" if hosted_run else None
    address = _address(host)
    if address is None:
        if not hosted_run:
            return None
        for resolved in _resolve(host):
            if resolved.is_loopback or _is_private(resolved):
                return f"{host!r} resolves to {resolved}, a loopback or private address: refused"
        return None
    if _is_private(address):
        return f"{host!r} is a private or link-local address: refused"
    return None


def _is_private(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    return address.is_private or address.is_link_local or address.is_reserved


def _is_own_server(url: str) -> bool:
    own = os.environ.get(OWN_SERVER_ENV, "")
    parts = urlsplit(url)
    try:
        port = parts.port
    except ValueError:
        return False
    if port == 0 and parts.hostname in ("127.0.0.1", "localhost"):
        return True  # port 0: the run's own model server (runner.models.own_model_server)
    return bool(own) and f"{parts.hostname}:{port}" == own


@functools.lru_cache(maxsize=256)
def _resolve(host: str) -> tuple[ipaddress.IPv4Address | ipaddress.IPv6Address, ...]:
    """Every address a host name resolves to (none when it does not resolve: the call fails)."""
    try:
        infos = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError):
        return ()
    found = []
    for info in infos:
        with contextlib.suppress(ValueError):
            found.append(ipaddress.ip_address(str(info[4][0]).split("%", 1)[0]))
    return tuple(found)


def pinned_addresses(host: str, port: int | None) -> tuple[str, ...]:
    """The addresses a client may connect to for `host`:`port` on a hosted run: the very answer
    the address check judged (`_resolve`, one lookup per host name per process), each of them
    checked, so no second lookup can point the connection elsewhere (DNS rebinding, e.g. to the
    runner's link-local metadata service). Every client connects through this on hosted runs
    (runner.models.pinned_http, and the direct client's resolver); the host name stays the client's for TLS and the Host header.

    Raises RefusedEndpoint for a refused address; () for a name that does not resolve.
    """
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{port}" if port else f"http://{shown}"
    literal = _address(host)
    if _is_own_server(url):
        return (str(literal),) if literal is not None else tuple(map(str, _resolve(host)))
    if literal is not None or _is_loopback(host):
        problem = host_problem(url, hosted_run=True)
        if problem:
            raise RefusedEndpoint(problem)
    if literal is not None:
        return (str(literal),)
    resolved = _resolve(host)
    for address in resolved:
        if address.is_loopback or _is_private(address):
            raise RefusedEndpoint(
                f"{host!r} resolves to {address}, a loopback or private address: refused"
            )
    return tuple(map(str, resolved))


def key_problems(agent: Mapping[str, object], slug: str | None) -> list[tuple[str, str]]:
    """(field, reason) for every key a submission's agent block would send where it may not."""
    found: list[tuple[str, str]] = []
    mine = entry_key_env(slug) if slug else None

    def named(value: object) -> str | None:  # values that are not names are reported elsewhere
        return (
            value if isinstance(value, str) and re.fullmatch(r"[A-Z_][A-Z0-9_]*", value) else None
        )

    def scoped(field: str, name: str) -> None:
        if name.startswith(ENTRY_KEY_PREFIX) and mine is not None and name != mine:
            found.append((field, f"{name!r} is another entry's secret: use {mine}"))

    kind = agent.get("kind")
    if kind == "litellm":
        model, base, env = agent.get("model"), agent.get("api_base"), agent.get("api_key_env")
        if not isinstance(model, str):
            return found
        base = base if isinstance(base, str) else None
        if env is not None and named(env) is None:
            return found
        env = named(env)
        try:
            allowed_key_env(model, base, env)
        except KeyPolicyError as exc:
            found.append(("agent.api_key_env", str(exc)))
        if env is not None:
            scoped("agent.api_key_env", env)
    elif kind == "http":
        headers = agent.get("headers_env")
        for header, env in headers.items() if isinstance(headers, dict) else []:
            if named(env) is None:
                continue
            assert isinstance(env, str)
            try:
                check_header_env(str(header), env)
            except KeyPolicyError as exc:
                found.append((f"agent.headers_env.{header}", str(exc)))
            scoped(f"agent.headers_env.{header}", env)
    return found


def entry_secret_names(agent: Mapping[str, object], slug: str) -> list[str]:
    """The secret variables one entry's run may see (none for built-ins)."""
    kind = agent.get("kind")
    if kind == "litellm":
        model, base, env = agent.get("model"), agent.get("api_base"), agent.get("api_key_env")
        name = allowed_key_env(
            str(model),
            base if isinstance(base, str) else None,
            env if isinstance(env, str) else None,
            entry=slug,
        )
        return [name] if name else []
    if kind == "http":
        headers = agent.get("headers_env")
        names = sorted({str(v) for v in (headers.values() if isinstance(headers, dict) else [])})
        for name in names:
            check_header_env("(any)", name, entry=slug)
        return names
    return []


def _is_secret_name(name: str) -> bool:
    return name in PROVIDER_KEYS or name.startswith(ENTRY_KEY_PREFIX)


def entry_environment(
    agent: Mapping[str, object], slug: str, environ: Mapping[str, str], secrets_json: str | None
) -> dict[str, str]:
    """The environment one entry runs in: every key-table and `TAUREC_KEY_` variable removed,
    then only the ones this entry may use put back (from `environ` or the `secrets_json` map)."""
    secrets: dict[str, str] = {}
    if secrets_json:
        try:
            loaded = json.loads(secrets_json)
        except json.JSONDecodeError as exc:
            raise TaurecError(f"the secrets JSON is not valid JSON: {exc.msg}") from None
        if not isinstance(loaded, dict):
            raise TaurecError("the secrets JSON must be an object of name → value")
        secrets = {str(k): str(v) for k, v in loaded.items()}
    env = {k: v for k, v in environ.items() if not _is_secret_name(k)}
    for name in entry_secret_names(agent, slug):
        value = secrets.get(name, environ.get(name))
        if value:
            env[name] = value
    return env
