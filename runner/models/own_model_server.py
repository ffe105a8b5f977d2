"""The run's own model server: a LiteLLM entry whose `api_base` is loopback port 0
(`http://127.0.0.1:0/v1`) is served by `taurec serve-model`'s policies on a free port that this
process starts the first time an agent needs it, so no entry, script or test names a fixed port.

The recorded config keeps port 0 (results stay comparable and resumable across runs); only the
agent built for a trial gets the real address.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import threading
from urllib.parse import urlsplit, urlunsplit

from runner.models.keys import OWN_SERVER_ENV
from runner.play.agent_config import LiteLLMAgentConfig

__all__ = ["OWN_SERVER_HOST", "is_own_server", "own_server_url", "resolve_own_server"]

OWN_SERVER_HOST = "127.0.0.1"
_lock = threading.Lock()
_url: str | None = None
_owner_pid: int | None = None
_stack = contextlib.ExitStack()


def is_own_server(api_base: str | None) -> bool:
    """Whether `api_base` asks for the run's own model server (127.0.0.1 or localhost, port 0)."""
    if not api_base:
        return False
    parts = urlsplit(api_base)
    try:
        port = parts.port
    except ValueError:
        return False
    return parts.hostname in (OWN_SERVER_HOST, "localhost") and port == 0


def own_server_url() -> str:
    """The base URL (`http://127.0.0.1:PORT/v1`) of this process's model server, started on a
    free port on first use and stopped at exit. A forked helper keeps using its parent's."""
    global _url, _owner_pid
    with _lock:
        if _url is None:
            from runner.models.model_server import serve_model

            _url = _stack.enter_context(serve_model(OWN_SERVER_HOST, 0))
            _owner_pid = os.getpid()
            atexit.register(_close)
            parts = urlsplit(_url)
            # Hosted runs refuse loopback hosts except this one address.
            os.environ[OWN_SERVER_ENV] = f"{parts.hostname}:{parts.port}"
        return _url


def _close() -> None:
    if _owner_pid == os.getpid():
        _stack.close()


def resolve_own_server(config: LiteLLMAgentConfig) -> LiteLLMAgentConfig:
    """`config` with a port-0 loopback `api_base` pointed at the running own server (same path)."""
    if not is_own_server(config.api_base):
        return config
    assert config.api_base is not None
    served = urlsplit(own_server_url())
    asked = urlsplit(config.api_base)
    api_base = urlunsplit((asked.scheme, served.netloc, asked.path, asked.query, asked.fragment))
    return config.model_copy(update={"api_base": api_base})
