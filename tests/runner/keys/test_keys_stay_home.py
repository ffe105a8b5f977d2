"""Keys stay home: every provider key planted in the environment, a loopback stand-in for a submitter's
server records what arrives, and only the entry's own secret (or a placeholder) ever does."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from runner.agents.http_agent import HttpAgent
from runner.agents.litellm_agent import LOCAL_PLACEHOLDER_KEY, LiteLLMAgent
from runner.core.errors import InfraFailure
from runner.core.protocols import AgentContext
from runner.models.keys import (
    PROVIDER_KEYS,
    KeyPolicyError,
    allowed_key_env,
    entry_environment,
    entry_key_env,
    host_problem,
)
from runner.models.llm_client import run_closing_clients
from runner.play.agent_config import HttpAgentConfig, LiteLLMAgentConfig, RetryConfig
from runner.submissions.config import check_submission
from tests.loopback import QuietHandler, completion, send_json, serving

FAST = RetryConfig(max_attempts=1, initial_backoff_s=0.001, max_backoff_s=0.002, max_total_s=10)
CONTEXT = AgentContext(user_id="u1", policy_text="Be kind.", seed=0)
ENTRY_SECRET = "entry-scoped-secret-value-0001"
MESSAGES: list[Any] = [{"role": "user", "content": "Something short."}]


def planted(name: str) -> str:
    return f"planted-{name.lower()}-value"


@pytest.fixture
def all_keys_planted(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in PROVIDER_KEYS:
        monkeypatch.setenv(name, planted(name))
    monkeypatch.setenv("TAUREC_KEY_OTHER_ENTRY", planted("TAUREC_KEY_OTHER_ENTRY"))
    monkeypatch.setenv("TAUREC_KEY_MY_ENTRY", ENTRY_SECRET)


class Recorder:
    """A loopback HTTP server answering chat completions and agent steps; it keeps every request."""

    server: ThreadingHTTPServer
    url: str

    def __init__(self) -> None:
        self.requests: list[tuple[dict[str, str], bytes]] = []
        recorder = self

        class Handler(QuietHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                headers = {k.lower(): v for k, v in self.headers.items()}
                recorder.requests.append((headers, body))
                if self.path.endswith("/chat/completions"):
                    send_json(self, completion("Hello."))
                else:
                    send_json(self, {"message": "Hello."})

        self.handler = Handler

    def everything(self) -> str:
        return "\n".join(json.dumps(h) + body.decode() for h, body in self.requests)


@pytest.fixture
def recorder() -> Iterator[Recorder]:
    rec = Recorder()
    with serving(rec.handler) as server:
        rec.server, rec.url = server, f"http://127.0.0.1:{server.server_port}"
        yield rec


def step(agent: LiteLLMAgent | HttpAgent) -> None:
    run_closing_clients(agent.step(list(MESSAGES), []))


def assert_no_planted_key(rec: Recorder) -> None:
    text = rec.everything()
    for name in [*PROVIDER_KEYS, "TAUREC_KEY_OTHER_ENTRY"]:
        assert planted(name) not in text, name


@pytest.mark.usefixtures("all_keys_planted")
# Prefixes allowed at a custom api_base (runner.models.provider_paths); every other one is refused there.
@pytest.mark.parametrize(
    "model", ["openai/any", "anthropic/claude-x", "gpt-5-mini", "hosted_vllm/m", "litellm_proxy/m"]
)
def test_custom_api_base_without_a_key_gets_the_placeholder_not_a_provider_default(
    recorder: Recorder, model: str
) -> None:
    # Before: no api_key_env made LiteLLM fall back to OPENAI_API_KEY etc. on the submitter's host.
    config = LiteLLMAgentConfig(model=model, api_base=f"{recorder.url}/v1", retry=FAST)
    with contextlib.suppress(InfraFailure):  # a non-OpenAI provider cannot parse the reply
        step(LiteLLMAgent(config, CONTEXT))
    assert recorder.requests, "the stand-in server was never called"
    auth = recorder.requests[0][0]
    assert LOCAL_PLACEHOLDER_KEY in auth.get("authorization", "") + auth.get("x-api-key", "")
    assert_no_planted_key(recorder)


@pytest.mark.usefixtures("all_keys_planted")
def test_custom_api_base_gets_the_entry_scoped_secret(recorder: Recorder) -> None:
    config = LiteLLMAgentConfig(
        model="openai/any", api_base=f"{recorder.url}/v1", api_key_env="TAUREC_KEY_MY_ENTRY"
    )
    step(LiteLLMAgent(config, CONTEXT))
    assert recorder.requests[0][0]["authorization"] == f"Bearer {ENTRY_SECRET}"
    assert_no_planted_key(recorder)


@pytest.mark.usefixtures("all_keys_planted")
@pytest.mark.parametrize("env", ["ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GITHUB_TOKEN"])
def test_a_provider_key_for_a_custom_api_base_is_refused_before_any_request(
    recorder: Recorder, env: str
) -> None:
    # Before: api_base on any host plus api_key_env: ANTHROPIC_API_KEY sent the key there.
    config = LiteLLMAgentConfig(model="openai/any", api_base=f"{recorder.url}/v1", api_key_env=env)
    with pytest.raises(KeyPolicyError):
        step(LiteLLMAgent(config, CONTEXT))
    assert recorder.requests == []


@pytest.mark.usefixtures("all_keys_planted")
@pytest.mark.parametrize("env", ["OPENAI_API_KEY", "GEMINI_API_KEY", "TAUREC_KEY_OTHER"])
def test_http_agent_headers_carry_only_the_entry_secret(recorder: Recorder, env: str) -> None:
    # Before: headers_env {X: OPENAI_API_KEY} sent the maintainers' key to the submitter.
    config = HttpAgentConfig(endpoint=f"{recorder.url}/step", headers_env={"X": env}, retry=FAST)
    # Another entry's TAUREC_KEY_ name is the check's to refuse; at run time it is simply unset
    # (the workflow exports only this entry's secret).
    refusal = InfraFailure if env.startswith("TAUREC_KEY_") else KeyPolicyError
    with pytest.raises(refusal):
        step(HttpAgent(config, CONTEXT))
    assert recorder.requests == []


@pytest.mark.usefixtures("all_keys_planted")
def test_http_agent_with_its_own_secret_gets_it_and_nothing_else(recorder: Recorder) -> None:
    config = HttpAgentConfig(
        endpoint=f"{recorder.url}/step", headers_env={"X-Key": "TAUREC_KEY_MY_ENTRY"}, retry=FAST
    )
    step(HttpAgent(config, CONTEXT))
    assert recorder.requests[0][0]["x-key"] == ENTRY_SECRET
    assert_no_planted_key(recorder)


def test_the_key_table_routes_provider_keys_to_their_own_hosts_only() -> None:
    assert allowed_key_env("openai/gpt-5", None, None) == "OPENAI_API_KEY"
    assert allowed_key_env("claude-sonnet-4", None, "ANTHROPIC_API_KEY") == "ANTHROPIC_API_KEY"
    assert (
        allowed_key_env("openai/gpt-5", "https://api.openai.com/v1", "OPENAI_API_KEY")
        == "OPENAI_API_KEY"
    )
    assert allowed_key_env("openai/x", "https://evil.example/v1", None) is None
    with pytest.raises(KeyPolicyError, match="is the anthropic key"):
        allowed_key_env("openai/gpt-5", None, "ANTHROPIC_API_KEY")
    with pytest.raises(KeyPolicyError, match="unknown provider"):
        allowed_key_env("bedrock/some-model", None, None)
    assert entry_key_env("my-entry-2") == "TAUREC_KEY_MY_ENTRY_2"


def entry(tmp_path: Path, slug: str, agent: str) -> Path:
    folder = tmp_path / "submissions" / slug
    folder.mkdir(parents=True)
    text = (
        f"schema_version: 1\nslug: {slug}\ndisplay_name: X\ncontact: {{name: A, github: a}}\n"
        f"agent:\n{textwrap.indent(agent, '  ')}trials: 4\n"
    )
    (folder / "submission.yaml").write_text(text)
    return folder


@pytest.mark.parametrize(
    ("agent", "field", "reason"),
    [
        (
            "kind: litellm\nmodel: openai/x\napi_base: https://evil.example/v1\n"
            "api_key_env: ANTHROPIC_API_KEY\n",
            "agent.api_key_env",
            "is the anthropic key",
        ),
        (
            "kind: litellm\nmodel: openai/x\napi_base: https://evil.example/v1\n"
            "api_key_env: OPENAI_API_KEY\n",
            "agent.api_key_env",
            "goes only to api.openai.com",
        ),
        (
            "kind: litellm\nmodel: bedrock/x\n",
            "agent.api_key_env",
            "unknown provider",
        ),
        (
            "kind: http\nendpoint: https://evil.example/step\nheaders_env: {X: OPENAI_API_KEY}\n",
            "agent.headers_env.X",
            "only the entry's TAUREC_KEY_<SLUG>",
        ),
        (
            "kind: http\nendpoint: https://evil.example/step\n"
            "headers_env: {X: TAUREC_KEY_SOMEONE_ELSE}\n",
            "agent.headers_env.X",
            "another entry's secret: use TAUREC_KEY_MY_ENTRY",
        ),
        (
            "kind: http\nendpoint: https://169.254.169.254/latest\n",
            "agent.endpoint",
            "private or link-local",
        ),
        (
            "kind: litellm\nmodel: openai/x\napi_base: https://10.1.2.3/v1\n",
            "agent.api_base",
            "private or link-local",
        ),
    ],
)
def test_check_refuses_every_combination_that_leaks_a_key(
    tmp_path: Path, agent: str, field: str, reason: str
) -> None:
    problems = check_submission(entry(tmp_path, "my-entry", agent))
    assert [p.field for p in problems if p.severity == "error"] == [field], problems
    assert reason in problems[0].reason


def test_hosted_check_refuses_loopback(tmp_path: Path) -> None:
    folder = entry(tmp_path, "my-entry", "kind: http\nendpoint: http://127.0.0.1:9/step\n")
    assert check_submission(folder) == []
    [problem] = check_submission(folder, hosted_run=True)
    assert "loopback: refused on hosted runs" in problem.reason
    assert host_problem("http://[::1]:9/x", hosted_run=True)
    assert host_problem("https://api.openai.com/v1", hosted_run=True) is None


def test_entry_environment_keeps_only_the_allowed_secret() -> None:
    environ = {name: planted(name) for name in PROVIDER_KEYS}
    environ |= {"PATH": "/bin", "TAUREC_KEY_OTHER": "o"}
    secrets = json.dumps({"TAUREC_KEY_MY_ENTRY": ENTRY_SECRET, "OPENAI_API_KEY": "from-json"})
    http = {
        "kind": "http",
        "endpoint": "https://a.example",
        "headers_env": {"X": "TAUREC_KEY_MY_ENTRY"},
    }
    env = entry_environment(http, "my-entry", environ, secrets)
    assert env == {"PATH": "/bin", "TAUREC_KEY_MY_ENTRY": ENTRY_SECRET}
    openai = {"kind": "litellm", "model": "openai/gpt-5"}
    env = entry_environment(openai, "my-entry", environ, secrets)
    assert env == {"PATH": "/bin", "OPENAI_API_KEY": "from-json"}
    builtin = {"kind": "builtin", "name": "oracle"}
    assert entry_environment(builtin, "my-entry", environ, None) == {"PATH": "/bin"}


def test_submission_env_command_runs_the_entry_with_only_its_secret(tmp_path: Path) -> None:
    folder = entry(
        tmp_path,
        "my-entry",
        "kind: http\nendpoint: https://a.example/step\nheaders_env: {X: TAUREC_KEY_MY_ENTRY}\n",
    )
    taurec = str(Path(sys.executable).with_name("taurec"))
    env = {name: planted(name) for name in PROVIDER_KEYS} | {
        "PATH": "/usr/bin:/bin",
        "ALL_SECRETS": json.dumps({"TAUREC_KEY_MY_ENTRY": ENTRY_SECRET, "OPENAI_API_KEY": "x"}),
    }
    names = subprocess.run(
        [taurec, "submission", "env", str(folder)], env=env, capture_output=True, text=True
    )
    assert names.stdout.split() == ["TAUREC_KEY_MY_ENTRY"]
    done = subprocess.run(
        [taurec, "submission", "env", "--secrets-json-env", "ALL_SECRETS", str(folder), "env"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    lines = dict(line.split("=", 1) for line in done.stdout.splitlines())
    assert lines["TAUREC_KEY_MY_ENTRY"] == ENTRY_SECRET
    assert not set(lines) & {*PROVIDER_KEYS, "ALL_SECRETS"}


def test_check_masks_a_pasted_key_and_never_echoes_it(tmp_path: Path) -> None:
    # Before: a key pasted as a value was quoted in full in the log and the step summary.
    key = "sk-proj-" + "Q1w2E3r4T5y6U7i8O9p0AsDf"
    folder = entry(tmp_path, "my-entry", "kind: http\nendpoint: https://a.example/step\n")
    text = (folder / "submission.yaml").read_text().replace("trials: 4", f"trials: {key}")
    (folder / "submission.yaml").write_text(text + f"notes: '{key}: [oops'\n")
    summary = tmp_path / "summary.md"
    env = {"PATH": "/usr/bin:/bin", "GITHUB_ACTIONS": "true"}
    taurec = str(Path(sys.executable).with_name("taurec"))
    done = subprocess.run(
        [taurec, "submission", "check", str(folder), "--summary", str(summary)],
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert f"::add-mask::{key}" == lines[0]
    assert all(key not in line for line in lines[1:]), done.stdout
    assert key not in summary.read_text()
    assert "[redacted]" in done.stdout


def test_only_a_providers_own_endpoint_counts_as_the_maintainers_side() -> None:
    from runner.models.keys import is_provider_endpoint

    assert is_provider_endpoint("openai/gpt-5", None)
    assert is_provider_endpoint("openai/gpt-5", "https://api.openai.com/v1")
    assert not is_provider_endpoint("openai/gpt-5", "https://my-proxy.example/v1")
    # A server on this machine is the operator's own (hosted runs refuse loopback entries).
    assert is_provider_endpoint("custom/thing", "http://127.0.0.1:9/v1")


def _resolves_to_a_local_address(host: str) -> bool:
    import ipaddress
    import socket

    addresses = {info[4][0] for info in socket.getaddrinfo(host, None)}
    return any(
        ipaddress.ip_address(a).is_loopback or ipaddress.ip_address(a).is_private for a in addresses
    )


@pytest.mark.parametrize("kind", ["litellm", "http"])
def test_a_hosted_run_refuses_a_name_that_resolves_to_this_machine(
    recorder: Recorder, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    import socket

    # Before: only literal addresses were checked, so `http://<a name for 127.0.0.1>` (or the
    # runner's own hostname, or a cloud metadata name) passed on a hosted run.
    name = socket.gethostname()
    assert _resolves_to_a_local_address(name), f"{name} should resolve to a local address here"
    port = recorder.server.server_port
    monkeypatch.setenv("TAUREC_HOSTED", "1")

    def call() -> None:  # both check the address at each step, before any request
        if kind == "litellm":
            config = LiteLLMAgentConfig(
                model="openai/any", api_base=f"http://{name}:{port}/v1", retry=FAST
            )
            step(LiteLLMAgent(config, CONTEXT))
        else:
            step(HttpAgent(HttpAgentConfig(endpoint=f"https://{name}:{port}/step"), CONTEXT))

    with pytest.raises(KeyPolicyError, match=r"resolves to .* refused"):
        call()
    assert recorder.requests == []
    assert host_problem(f"http://{name}:{port}/v1", hosted_run=False) is None  # local runs may


def test_a_hosted_run_may_call_only_its_own_model_server_on_loopback(
    recorder: Recorder, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TAUREC_HOSTED", "1")
    port = recorder.server.server_port
    config = LiteLLMAgentConfig(model="openai/any", api_base=f"{recorder.url}/v1", retry=FAST)
    with pytest.raises(KeyPolicyError, match="loopback: refused on hosted runs"):
        step(LiteLLMAgent(config, CONTEXT))
    assert recorder.requests == []
    # scripts/run_shard.sh names the server it started for the loopback baselines.
    monkeypatch.setenv("TAUREC_OWN_MODEL_SERVER", f"127.0.0.1:{port}")
    step(LiteLLMAgent(config, CONTEXT))
    assert len(recorder.requests) == 1
    assert host_problem(f"http://127.0.0.1:{port + 1}/v1", hosted_run=True)
