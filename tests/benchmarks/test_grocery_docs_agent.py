"""The third-party grocery agent (benchmarks/third_party) plays real dev tasks over loopback HTTP."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator

import pytest

import runner
from benchmarks.third_party.grocery_docs_agent import running
from runner.play.agent_config import HttpAgentConfig


@pytest.fixture(scope="module")
def endpoint() -> Iterator[str]:
    with running() as url:
        yield url


@pytest.mark.parametrize(
    "task",
    [
        "task_g001",  # a return from an earlier order
        "task_g009",  # an order: questions first, then one product at a time and the basket
        "task_h001",  # account work: find the shopper, ask which order, state, yes, change
    ],
)
def test_plays_a_dev_task_end_to_end_over_http(endpoint: str, task: str) -> None:
    result = runner.evaluate(
        HttpAgentConfig(endpoint=endpoint), domain="grocery", tasks=[task], trials=1, seed=0
    )
    assert result.pass_k(1) == 1.0, result.to_markdown()


def test_refuses_a_body_that_is_not_a_protocol_request(endpoint: str) -> None:
    request = urllib.request.Request(
        endpoint,
        data=json.dumps({"protocol_version": 2}).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with pytest.raises(urllib.error.HTTPError) as caught:
        urllib.request.urlopen(request, timeout=10)
    assert caught.value.code == 400
    assert "protocol_version 1" in json.loads(caught.value.read())["error"]
