"""Per-trial seeds, hash-based shards, and secret redaction of configs and text."""

from __future__ import annotations

import pytest

from runner.batch.keys import Shard, shard_of, trial_seed
from runner.core.errors import TaurecError
from runner.core.redact import REDACTED, Redactor, redact_config, secret_values


def test_trial_seed_is_stable_and_depends_on_every_part() -> None:
    assert trial_seed(0, "task_001", 0) == trial_seed(0, "task_001", 0)
    seeds = {trial_seed(s, t, i) for s in (0, 1) for t in ("a", "b") for i in (0, 1)}
    assert len(seeds) == 8


def test_shards_partition_the_keys() -> None:
    keys = [(f"task_{n:03d}", i) for n in range(60) for i in range(4)]
    shards = [Shard(i, 3) for i in (1, 2, 3)]
    owned = [[k for k in keys if s.owns(*k)] for s in shards]
    assert sum(len(o) for o in owned) == len(keys)
    assert set().union(*map(set, owned)) == set(keys)
    assert all(o for o in owned)
    assert shard_of("task_001", 0, 3) == shard_of("task_001", 0, 3)


@pytest.mark.parametrize("text", ["0/3", "4/3", "x", "1/0"])
def test_bad_shard_specs_are_refused(text: str) -> None:
    with pytest.raises(TaurecError, match="I/N"):
        Shard.parse(text)


def test_config_values_under_secret_keys_are_redacted() -> None:
    config = {
        "agent": {
            "api_key_env": "OPENAI_API_KEY",
            "extra_body": {"api_key": "literal-secret-1", "Authorization": "Bearer x"},
            "headers_env": {"Authorization": "AGENT_TOKEN"},
            "model": "openai/x",
        }
    }
    out = redact_config(config)
    assert out["agent"]["api_key_env"] == "OPENAI_API_KEY"
    assert out["agent"]["extra_body"] == {"api_key": REDACTED, "Authorization": REDACTED}
    # `*_env` values name environment variables (the secret stays in the variable): kept
    assert out["agent"]["headers_env"]["Authorization"] == "AGENT_TOKEN"
    assert out["agent"]["model"] == "openai/x"
    assert secret_values(config) == {
        "config.agent.extra_body.api_key": "literal-secret-1",
        "config.agent.extra_body.Authorization": "Bearer x",
    }


def test_redactor_scrubs_env_values_and_their_json_form() -> None:
    env = {"OPENAI_API_KEY": 'sk-"quoted"-secret', "MY_HEADER": "hdr-secret-42", "HOME": "/root"}
    redactor = Redactor.from_environment(["MY_HEADER"], environ=env)
    assert redactor.names == ["MY_HEADER", "OPENAI_API_KEY"]
    text = 'raw sk-"quoted"-secret json "sk-\\"quoted\\"-secret" hdr-secret-42 /root'
    scrubbed = redactor.scrub(text)
    assert "quoted" not in scrubbed
    assert "hdr-secret-42" not in scrubbed
    assert "/root" in scrubbed
