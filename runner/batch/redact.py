"""Keep secrets out of everything the runner writes: redact config values and scrub known key values from text."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Mapping
from typing import Any

REDACTED = "[redacted]"
# Config keys whose values are secrets (matched case-insensitively anywhere in the key).
SECRET_KEY_PATTERN = re.compile(
    r"api[_-]?key|token|secret|password|passwd|authorization|cookie", re.I
)
# Environment variables whose values are treated as secrets wherever they appear in text.
SECRET_ENV_PATTERN = re.compile(
    r"(API[_-]?KEY|TOKEN|SECRET|PASSWORD|PASSWD|AUTHORIZATION|CREDENTIALS?)", re.I
)
# Values shorter than this are not scrubbed from text (too likely to be ordinary words).
MIN_SECRET_LENGTH = 8


def redact_config(value: Any) -> Any:
    """Copy a config tree with every value under a secret-like key replaced by `[redacted]`.

    Keys ending in `_env` hold the *name* of an environment variable (never the secret itself), so
    their plain string values are kept; secret-like keys nested inside them are still redacted.
    """
    if isinstance(value, Mapping):
        out: dict[str, Any] = {}
        for key, item in value.items():
            name = str(key)
            if SECRET_KEY_PATTERN.search(name) and not name.endswith("_env"):
                out[name] = REDACTED if item not in (None, "") else item
            else:
                out[name] = redact_config(item)
        return out
    if isinstance(value, list | tuple):
        return [redact_config(v) for v in value]
    return value


class Redactor:
    """Replaces the values of secret environment variables with `[redacted:NAME]` in any text."""

    def __init__(self, secrets: Mapping[str, str]) -> None:
        # Longest first, so a secret containing another is replaced whole.
        pairs: list[tuple[str, str]] = []
        for name, value in secrets.items():
            if len(value) < MIN_SECRET_LENGTH:
                continue
            pairs.append((value, name))
            escaped = json.dumps(value)[1:-1]  # how the value looks inside JSON text
            if escaped != value:
                pairs.append((escaped, name))
        self._pairs = sorted(set(pairs), key=lambda p: (-len(p[0]), p[1]))

    @classmethod
    def from_environment(
        cls,
        extra_names: Iterable[str] = (),
        environ: Mapping[str, str] | None = None,
        *,
        extra_secrets: Mapping[str, str] | None = None,
    ) -> Redactor:
        """Provider-key-like variables, the named ones (a config's `*_env`), and literal secrets."""
        env = os.environ if environ is None else environ
        wanted = set(extra_names)
        secrets = {
            name: value
            for name, value in env.items()
            if value and (name in wanted or SECRET_ENV_PATTERN.search(name))
        }
        for name, value in (extra_secrets or {}).items():
            secrets.setdefault(name, value)
        return cls(secrets)

    @property
    def names(self) -> list[str]:
        return sorted({name for _, name in self._pairs})

    def scrub(self, text: str) -> str:
        for secret, name in self._pairs:
            if secret in text:
                text = text.replace(secret, f"[redacted:{name}]")
        return text

    def scrub_bytes(self, data: bytes) -> bytes:
        if not self._pairs:
            return data
        return self.scrub(data.decode("utf-8")).encode("utf-8")


def secret_env_names(config: Any) -> set[str]:
    """Names of environment variables a config points at (`*_env` values), whose values are secret."""
    names: set[str] = set()
    if isinstance(config, Mapping):
        for key, item in config.items():
            if str(key).endswith("_env"):
                if isinstance(item, str):
                    names.add(item)
                elif isinstance(item, Mapping):
                    names.update(str(v) for v in item.values() if isinstance(v, str))
            else:
                names |= secret_env_names(item)
    elif isinstance(config, list | tuple):
        for item in config:
            names |= secret_env_names(item)
    return names


def secret_values(config: Any, path: str = "config") -> dict[str, str]:
    """Literal values under secret-like keys of a config (they must not reach any output either)."""
    found: dict[str, str] = {}
    if isinstance(config, Mapping):
        for key, item in config.items():
            name = str(key)
            where = f"{path}.{name}"
            if name.endswith("_env"):
                continue  # names of environment variables, not secrets
            if SECRET_KEY_PATTERN.search(name):
                if isinstance(item, str | int | float) and not isinstance(item, bool):
                    found[where] = str(item)
                else:
                    found |= secret_values(item, where)
            else:
                found |= secret_values(item, where)
    elif isinstance(config, list | tuple):
        for index, item in enumerate(config):
            found |= secret_values(item, f"{path}.{index}")
    return found
