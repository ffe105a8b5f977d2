"""Every LiteLLM provider prefix at a submitter's server (a custom `api_base`).

The allowed ones (runner.models.provider_paths.CUSTOM_BASE_PROVIDERS) are called, on every client they
can take, against a loopback stand-in that misbehaves: an oversized answer is cut at the byte cap
and is the agent's error, a redirect is not followed, a dripping answer ends at the deadline, and
a hosted run refuses the loopback address before any request. Every other prefix in the installed
LiteLLM's provider list is refused by `submission check` and at run time, naming the file, the
field, the value and the reason, before any request. Prefixes whose path cannot be bounded at all
are refused at their provider's own URL too, and LiteLLM is shown following a redirect for each.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from runner.agents.litellm_agent import LiteLLMAgent
from runner.batch.entrant import Entrant
from runner.core.board import load_board
from runner.core.errors import AgentFailure, InfraFailure, LoadError
from runner.core.protocols import AgentContext
from runner.evaluation import evaluate
from runner.models import llm_client
from runner.models.keys import HOSTED_ENV, OWN_SERVER_ENV, allowed_key_env
from runner.models.llm_client import CLIENT_ENV, LEAN_HTTP_ENV, import_litellm, run_closing_clients
from runner.models.provider_paths import (
    CUSTOM_BASE_PROVIDERS,
    UNBOUNDED_PROVIDERS,
    RefusedEndpoint,
    call_problem,
    path_problem,
)
from runner.models.reply_limit import MAX_RESPONSE_BYTES
from runner.models.user_model import ModelEndpoint
from runner.play.agent_config import LiteLLMAgentConfig, RetryConfig
from runner.play.attribution import attribute
from runner.submissions.config import check_submission
from tests.stand_ins import Hostile, MiB, ask_litellm

CONTEXT = AgentContext(user_id="u1", policy_text="Be kind.", seed=0)
TWO_TRIES = RetryConfig(
    max_attempts=2, initial_backoff_s=0.001, max_backoff_s=0.002, max_total_s=30
)
HUGE = 64 * MiB

# Every provider the installed LiteLLM routes by prefix; a new one in an upgrade is refused at a
# custom api_base until it is measured and allowed.
PROVIDERS = sorted(str(getattr(p, "value", p)) for p in import_litellm().provider_list)
REFUSED = [p for p in PROVIDERS if p not in CUSTOM_BASE_PROVIDERS]

# (prefix, client): `direct` is runner.models.openai_compat; `lean` LiteLLM's own HTTP handler; `sdk`
# the OpenAI SDK on the client LiteLLM gives it (the lean switch off). Every client a prefix can
# take is tried.
CASES = [("openai", "direct")] + [
    (prefix, client) for prefix in CUSTOM_BASE_PROVIDERS for client in ("lean", "sdk")
]


@pytest.fixture
def hostile() -> Iterator[Hostile]:
    # A short poll, so shutting the server down after each of ~200 tests takes no 0.5 s.
    with Hostile(HUGE).running(poll_s=0.01) as server:
        yield server


@pytest.fixture
def submitters_server(hostile: Hostile, monkeypatch: pytest.MonkeyPatch) -> Hostile:
    """The stand-in as a submitter's server on a hosted run: the hosted address check lets it
    through (as the run's own server, the one loopback address a hosted run may call) and a
    failure there is the agent's, as on any host that is not the model's provider."""
    monkeypatch.setenv(HOSTED_ENV, "1")
    monkeypatch.setenv(OWN_SERVER_ENV, hostile.where)
    return hostile


def use_client(monkeypatch: pytest.MonkeyPatch, client: str) -> None:
    monkeypatch.setenv(CLIENT_ENV, "auto" if client == "direct" else "litellm")
    monkeypatch.setenv(LEAN_HTTP_ENV, "False" if client == "sdk" else "True")


def agent(prefix: str, api_base: str | None, **config: Any) -> LiteLLMAgent:
    settings = {"retry": TWO_TRIES, **config}
    return LiteLLMAgent(
        LiteLLMAgentConfig(model=f"{prefix}/m", api_base=api_base, **settings), CONTEXT
    )


def step(subject: LiteLLMAgent) -> None:
    run_closing_clients(subject.step([{"role": "user", "content": "hi"}], []))


# ------------------------------------------------------------------ allowed at a custom api_base


@pytest.mark.parametrize(("prefix", "client"), CASES)
def test_an_oversized_answer_is_cut_at_the_cap_and_is_the_agents_error(
    submitters_server: Hostile, monkeypatch: pytest.MonkeyPatch, prefix: str, client: str
) -> None:
    use_client(monkeypatch, client)
    with pytest.raises(AgentFailure) as caught:
        step(agent(prefix, submitters_server.url))
    assert caught.value.kind == "ResponseTooLarge", caught.value
    assert f"larger than {MAX_RESPONSE_BYTES} bytes" in caught.value.message
    assert len(submitters_server.paths) == 1  # refused, not retried (two attempts allowed)
    assert submitters_server.sent < HUGE // 2  # the client hung up near the cap
    assert attribute(caught.value, source="agent", trusted=True).stop_reason == "agent_error"


@pytest.mark.parametrize(("prefix", "client"), CASES)
def test_a_redirect_is_not_followed(
    submitters_server: Hostile, monkeypatch: pytest.MonkeyPatch, prefix: str, client: str
) -> None:
    use_client(monkeypatch, client)
    submitters_server.mode = "redirect"
    with pytest.raises(AgentFailure):
        step(
            agent(
                prefix,
                submitters_server.url,
                retry=TWO_TRIES.model_copy(update={"max_attempts": 1}),
            )
        )
    assert submitters_server.paths, "the stand-in was never called"
    assert not [p for p in submitters_server.paths if p.startswith("/elsewhere")]


@pytest.mark.parametrize(("prefix", "client"), CASES)
def test_a_dripping_answer_ends_at_the_deadline(
    submitters_server: Hostile, monkeypatch: pytest.MonkeyPatch, prefix: str, client: str
) -> None:
    use_client(monkeypatch, client)
    monkeypatch.setattr(llm_client, "DEADLINE_SLACK_S", 0.5)  # the real slack is 5 s
    submitters_server.mode = "drip"  # the whole body would take 25 s
    started = time.monotonic()
    with pytest.raises(AgentFailure, match="Timeout"):
        step(
            agent(
                prefix,
                submitters_server.url,
                timeout_s=0.5,
                retry=TWO_TRIES.model_copy(update={"max_attempts": 1}),
            )
        )
    assert time.monotonic() - started < 5


@pytest.mark.parametrize("prefix", CUSTOM_BASE_PROVIDERS)
def test_a_hosted_run_refuses_a_loopback_api_base_before_any_request(
    hostile: Hostile, monkeypatch: pytest.MonkeyPatch, prefix: str
) -> None:
    monkeypatch.setenv(HOSTED_ENV, "1")
    with pytest.raises(RefusedEndpoint, match="loopback: refused on hosted runs"):
        step(agent(prefix, hostile.url))
    private = "http://10.1.2.3:8000/v1"
    with pytest.raises(RefusedEndpoint, match="private or link-local address: refused"):
        step(agent(prefix, private))  # refused before connecting: no 10.x host needed here
    assert hostile.paths == []


# ------------------------------------------------------------------ refused


def make_entry(root: Path, model: str, api_base: str | None, key: str | None = None) -> Path:
    folder = root / "submissions" / "an-entry"
    folder.mkdir(parents=True)
    base = f"  api_base: {api_base}\n" if api_base else ""
    base += f"  api_key_env: {key}\n" if key else ""  # a hosted model names its key variable
    (folder / "submission.yaml").write_text(
        "schema_version: 1\nslug: an-entry\ndisplay_name: An entry\n"
        "contact:\n  name: A Submitter\n  github: a-submitter\n"
        f"agent:\n  kind: litellm\n  model: {model}\n{base}trials: 4\n",
        encoding="utf-8",
    )
    return folder


@pytest.mark.parametrize("prefix", REFUSED)
def test_every_other_prefix_is_refused_at_a_custom_api_base(
    hostile: Hostile, tmp_path: Path, prefix: str
) -> None:
    model, base = f"{prefix}/m", "https://models.example.org/v1"
    folder = make_entry(tmp_path, model, base)
    file = str(folder / "submission.yaml")
    found = [p for p in check_submission(folder) if p.field == "agent.model"]
    assert [p.severity for p in found] == ["error"], found
    shown = str(found[0])  # `error: <file>: agent.model: '<model>' at api_base '<url>': <reason>`
    assert shown.startswith(f"error: {file}: agent.model: {model!r} at api_base {base!r}: ")
    assert "refused" in shown
    with pytest.raises(RefusedEndpoint) as caught:
        Entrant.from_folder(folder)  # a run refuses the entry before anything runs
    assert str(caught.value).startswith(f"{file}: agent.model: {model!r} at api_base {base!r}: ")
    with pytest.raises(RefusedEndpoint, match="refused"):
        step(agent(prefix, hostile.url))  # a config built in Python: refused at the call
    assert hostile.paths == []


@pytest.mark.parametrize("prefix", UNBOUNDED_PROVIDERS)
def test_an_unbounded_provider_is_refused_at_its_own_url_too(tmp_path: Path, prefix: str) -> None:
    folder = make_entry(tmp_path, f"{prefix}/m", None)
    reasons = [p.reason for p in check_submission(folder) if p.field == "agent.model"]
    assert any(UNBOUNDED_PROVIDERS[prefix] in r for r in reasons), reasons
    with pytest.raises(RefusedEndpoint, match=f"provider {prefix!r} is refused"):
        step(agent(prefix, None))  # refused before any request: no network needed


@pytest.mark.parametrize("agent_given", ["config", "string"])
def test_evaluate_refuses_a_config_it_cannot_bound_before_any_trial(
    tmp_path: Path, agent_given: str
) -> None:
    config = LiteLLMAgentConfig(model="aiohttp_openai/m", api_base="https://models.example.org/v1")
    source = config if agent_given == "config" else "litellm:aiohttp_openai/m"
    with pytest.raises(RefusedEndpoint, match=r"agent\.model: 'aiohttp_openai/m'.* is refused"):
        evaluate(source, trials=1, results=tmp_path / "results", preflight=False)
    assert not (tmp_path / "results").exists()  # nothing ran, nothing was written


@pytest.mark.parametrize("prefix", UNBOUNDED_PROVIDERS)
def test_litellm_itself_follows_a_redirect_for_each_unbounded_provider(
    hostile: Hostile, prefix: str
) -> None:
    # Why they are refused: with the bounds installed, LiteLLM's own path for these still
    # follows a redirect. When an upgrade makes this fail, measure the prefix again.
    litellm = import_litellm()
    hostile.mode = "redirect"

    async def call() -> None:
        await ask_litellm(litellm, prefix, hostile.url)

    with contextlib.suppress(Exception):  # the page it was sent to is no chat answer
        run_closing_clients(asyncio.wait_for(call(), 10))
    assert [p for p in hostile.paths if p.startswith("/elsewhere")], hostile.paths


# ------------------------------------------------------------------ unchanged


@pytest.mark.parametrize(
    ("model", "api_base", "key"),
    [
        ("anthropic/claude-sonnet-4-5", None, "ANTHROPIC_API_KEY"),
        ("claude-sonnet-4-5", None, "ANTHROPIC_API_KEY"),
        ("gemini/gemini-2.5-flash", None, "GEMINI_API_KEY"),
        ("mistral/mistral-large-latest", None, "MISTRAL_API_KEY"),
        ("mistral/mistral-large-latest", "https://api.mistral.ai/v1", "MISTRAL_API_KEY"),
        ("groq/llama-3.3-70b-versatile", None, "GROQ_API_KEY"),
        ("openai/gpt-5-mini", "https://api.openai.com/v1", "OPENAI_API_KEY"),
    ],
)
def test_a_hosted_provider_at_its_own_url_is_not_refused(
    tmp_path: Path, model: str, api_base: str | None, key: str
) -> None:
    assert call_problem(model, api_base, hosted_run=True) is None
    assert allowed_key_env(model, api_base, key) == key  # its key goes there, as before
    folder = make_entry(tmp_path, model, api_base, key)
    assert [p for p in check_submission(folder) if p.severity == "error"] == []


# ------------------------------------------------------------------ the simulated user


def user_model(model: str, api_base: str) -> ModelEndpoint:
    return ModelEndpoint(
        model=model, api_base=api_base, retry=TWO_TRIES.model_copy(update={"max_attempts": 1})
    )


def complete(endpoint: ModelEndpoint) -> None:
    import random

    run_closing_clients(
        endpoint.complete([{"role": "user", "content": "hi"}], what="test", rng=random.Random(0))
    )


def test_the_user_model_has_the_agents_limits(
    hostile: Hostile, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(RefusedEndpoint, match="'mistral' is refused at a custom api_base"):
        complete(user_model("mistral/m", hostile.url))
    monkeypatch.setenv(HOSTED_ENV, "1")  # before: the user model had no hosted address check
    with pytest.raises(RefusedEndpoint, match="loopback: refused on hosted runs"):
        complete(user_model("openai/m", hostile.url))
    assert hostile.paths == []
    monkeypatch.setenv(OWN_SERVER_ENV, hostile.where)
    for client in ("direct", "lean", "sdk"):
        use_client(monkeypatch, client)
        with pytest.raises(InfraFailure, match="ResponseTooLarge"):
            complete(user_model("openai/m", hostile.url))


def test_a_board_file_refuses_a_user_model_it_cannot_bound(tmp_path: Path) -> None:
    board = tmp_path / "leaderboard.yaml"
    board.write_text(
        "schema_version: 1\nsimulator:\n  kind: litellm\n  model: openai/u\n"
        "  writer_model: aiohttp_openai/u\n  api_base: https://models.example.org/v1\n",
        encoding="utf-8",
    )
    with pytest.raises(LoadError) as caught:
        load_board(board)
    assert caught.value.path == str(board)
    assert caught.value.problems[0].startswith(
        "simulator.writer_model: 'aiohttp_openai/u' at api_base 'https://models.example.org/v1': "
        "provider 'aiohttp_openai' is refused"
    )


def test_the_rule_over_every_provider() -> None:
    # Refused: an unbounded provider anywhere; any other not on the list at a custom api_base.
    for prefix in PROVIDERS:
        for base in (None, "https://models.example.org/v1"):
            expected = prefix in UNBOUNDED_PROVIDERS or (
                base is not None and prefix not in CUSTOM_BASE_PROVIDERS
            )
            assert (path_problem(f"{prefix}/m", base) is not None) == expected, (prefix, base)


def test_the_integrations_page_names_every_allowed_and_every_unbounded_prefix() -> None:
    from runner.core.paths import SITE_DIR

    page = (SITE_DIR / "pages" / "integrations.md").read_text(encoding="utf-8")
    for prefix in [*CUSTOM_BASE_PROVIDERS, *UNBOUNDED_PROVIDERS]:
        assert f"`{prefix}/`" in page, prefix
