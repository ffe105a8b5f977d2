"""The one secret redactor: which config keys hold secrets, a config with them blanked, and text scrubbed of secret values.

Every writer of a config (run records, the site's submission pages, agent provenance, retry
messages) goes through `redact_config`, so one config reads the same wherever it is shown; one
list of secret-looking environment variable names serves `redact` (error messages) and
`Redactor` (everything a run writes, labelled with the variable's name).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

REDACTED = "[redacted]"

# Config keys whose values are secrets. `token` only when not followed by `s`, so the counts
# `max_tokens` / `max_completion_tokens` stay readable while `auth_token` is blanked.
_SECRET_KEY = re.compile(
    r"(api[_-]?key|(^|[_-])key$|secret|passw(or)?d|token(?!s)|credential|authorization|cookie)",
    re.IGNORECASE,
)
# Environment variables whose values are treated as secrets wherever they appear in text.
_SECRET_ENV_NAME = re.compile(r"(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH)", re.IGNORECASE)
_USERINFO = re.compile(r"//[^/?#]*@")
# Values shorter than this are not scrubbed from records by `Redactor` (too likely ordinary words).
MIN_SECRET_LENGTH = 8
_SECRET_PATTERNS = (
    re.compile(r"\bsk-[A-Za-z0-9_\-]{6,}"),  # OpenAI/Anthropic style keys
    re.compile(r"(?i)\b(bearer|basic)\s+[A-Za-z0-9._~+/=\-]{6,}"),
    re.compile(r"(?i)\b(api[_-]?key|token|secret|password)(\s*[=:]\s*)['\"]?[^\s'\",}]{4,}"),
)


def is_secret_key(name: str) -> bool:
    """Whether a config key holds a secret: `api_key`, `Authorization`, `auth_token`, … but not a
    key ending in `_env` (it names an environment variable) nor a count such as `max_tokens`."""
    return bool(_SECRET_KEY.search(name)) and not name.lower().endswith("_env")


def redact(text: str, secrets: Iterable[str] = ()) -> str:
    """Remove secret values (given ones, secret-looking env vars, key-shaped tokens) from `text`."""
    values = {s for s in secrets if s and len(s) >= 4}
    values.update(
        value
        for name, value in os.environ.items()
        if _SECRET_ENV_NAME.search(name) and value and len(value) >= 6
    )
    for value in sorted(values, key=len, reverse=True):
        text = text.replace(value, REDACTED)
    text = _SECRET_PATTERNS[0].sub(REDACTED, text)
    text = _SECRET_PATTERNS[1].sub(lambda m: f"{m.group(1)} {REDACTED}", text)
    return _SECRET_PATTERNS[2].sub(lambda m: f"{m.group(1)}{m.group(2)}{REDACTED}", text)


def _redact_url(url: str) -> str:
    try:
        parts = urlsplit(url)
    except ValueError:  # e.g. brackets that are no IPv6 host: blank whatever precedes an `@`
        return _USERINFO.sub(f"//{REDACTED}@", url)
    netloc = parts.netloc
    if "@" in netloc:
        netloc = f"{REDACTED}@" + netloc.rsplit("@", 1)[1]
    query = urlencode(
        [(k, REDACTED if is_secret_key(k) else v) for k, v in parse_qsl(parts.query, True)]
    )
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def _blank(value: Any) -> Any:
    """A value under a secret key: every non-empty leaf blanked, the shape kept."""
    if isinstance(value, Mapping):
        return {str(k): _blank(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_blank(v) for v in value]
    if value is None or value == "" or isinstance(value, bool):
        return value
    return REDACTED


def redact_config(value: Any, key: str = "") -> Any:
    """A copy of a config (mappings, lists, scalars) with its secrets removed.

    Values under a secret key (`is_secret_key`) are blanked, whole subtrees included; a key ending
    in `_env` names environment variables and is kept as is; URLs lose user:password and
    secret-named query values; other strings lose secret values and key-shaped tokens (`redact`).
    """
    if key and is_secret_key(key):
        return _blank(value)
    if isinstance(value, Mapping):
        if key.lower().endswith("_env"):
            return dict(value)  # names of environment variables, not their values
        return {str(k): redact_config(v, str(k)) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [redact_config(v, key) for v in value]
    if isinstance(value, str):
        if value.startswith(("http://", "https://")):
            return redact(_redact_url(value))
        return redact(value)
    return value


def secret_values(config: Any, path: str = "config") -> dict[str, str]:
    """Literal values under secret keys of a config, by path (they must not reach any output)."""
    found: dict[str, str] = {}
    if isinstance(config, Mapping):
        for key, item in config.items():
            name = str(key)
            where = f"{path}.{name}"
            if name.lower().endswith("_env"):
                continue  # names of environment variables, not secrets
            if is_secret_key(name) and isinstance(item, str | int | float):
                if not isinstance(item, bool):
                    found[where] = str(item)
            else:
                found |= secret_values(item, where)
    elif isinstance(config, list | tuple):
        for index, item in enumerate(config):
            found |= secret_values(item, f"{path}.{index}")
    return found


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
            if value and (name in wanted or _SECRET_ENV_NAME.search(name))
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
