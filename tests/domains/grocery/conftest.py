"""Fixtures of the grocery tests: the model server and its planted stand-ins (LLM mode)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from runner.models.model_server import serve_model
from tests.domains.grocery.planted import Planted
from tests.loopback import serving


@pytest.fixture
def planted() -> Iterator[tuple[str, type[Planted]]]:
    Planted.mode, Planted.leak, Planted.requests = "ok", "", []
    with serving(Planted) as httpd:
        yield f"http://127.0.0.1:{httpd.server_port}/v1", Planted


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """The local model server (its stand-ins answer as the rules and the templates would)."""
    with serve_model() as url:
        yield url
