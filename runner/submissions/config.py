"""The submission config (`submissions/<slug>/submission.yaml`): its model, loading, and every check a PR must pass."""

from __future__ import annotations

import datetime as dt
import difflib
import ipaddress
import json
import math
import os
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from dataclasses import field as dc_field
from pathlib import Path, PurePosixPath
from typing import Any, Literal, get_args
from urllib.parse import parse_qsl, urlsplit

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from runner.core.bounded_yaml import YamlLimitError, safe_load_bounded
from runner.core.errors import LoadError, describe_validation_error
from runner.core.redact import is_secret_key
from runner.play.agent_config import AgentConfig, BuiltinAgentConfig, BuiltinName, ToolsetOptions
from runner.publish import display_names
from runner.publish.ledger import LEDGER_FILE
from runner.submissions.entry_files import MAX_CONFIG_BYTES, entry_file_problems
from runner.submissions.links import linked_paths

SUBMISSION_SCHEMA_VERSION: Literal[1] = 1
SUBMISSION_FILE = "submission.yaml"
SLUG_PATTERN = r"^[a-z0-9]+(-[a-z0-9]+)*$"
MIN_BOARD_TRIALS = 4
MAX_FILE_BYTES = MAX_CONFIG_BYTES


class Contact(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1)
    organization: str = Field(default="", description="Empty for individuals")
    email: str | None = Field(default=None, description="Public contact address")
    github: str | None = Field(default=None, description="GitHub handle of the submitter")


class ModelMetadata(BaseModel):
    model_config = ConfigDict(extra="forbid")

    release_date: dt.date | None = None
    training_cutoff: dt.date | None = Field(
        default=None, description="Used to flag contamination when a snapshot predates it"
    )
    open_weights: bool | None = None
    links: list[str] = Field(default_factory=list)


class Submission(BaseModel):
    """One leaderboard entry. No secrets: keys come from the environment of whoever runs it."""

    model_config = ConfigDict(extra="forbid")

    schema_version: Literal[1] = SUBMISSION_SCHEMA_VERSION
    slug: str = Field(pattern=SLUG_PATTERN, description="Equals the folder name")
    display_name: str = Field(
        min_length=1,
        max_length=80,
        description="Shown on the board; NFKC-normalised, no control, invisible or bidi characters, "
        "and unlike every other entry's name",
    )
    contact: Contact
    agent: AgentConfig
    tools: ToolsetOptions = Field(default_factory=ToolsetOptions)
    trials: int = Field(default=4, ge=1, le=64, description="Trials per task (≥ 4 for the board)")
    domains: list[str] = Field(
        default_factory=lambda: ["movies"],
        min_length=1,
        description="The domains this entry enters (registry names: movies, grocery); each has "
        "its own board",
    )
    track: Literal["standard", "custom"] = "standard"
    notes: str = ""
    model: ModelMetadata = Field(default_factory=ModelMetadata)

    @field_validator("domains")
    @classmethod
    def _registered(cls, value: list[str]) -> list[str]:
        from runner.core.domains import registered_domains

        return registered_domains(value)

    @model_validator(mode="after")
    def _builtin_of_every_domain(self) -> Submission:
        """A built-in agent must be one of each entered domain's (their names differ)."""
        if isinstance(self.agent, BuiltinAgentConfig):
            from runner.agents import builtin_names

            for domain in self.domains:
                known = list(_BUILTIN_NAMES) if domain == "movies" else builtin_names(domain)
                if self.agent.name not in known:
                    where = "" if domain == "movies" else f" of the {domain} domain"
                    raise ValueError(
                        f"{UNKNOWN_BUILTIN} {self.agent.name!r}{_suggest(self.agent.name, known)}; "
                        f"built-ins{where} are {', '.join(known)}"
                    )
        return self

    @field_validator("display_name")
    @classmethod
    def _one_visible_form(cls, value: str) -> str:
        return display_names.normalize(value)


def load_submission(path: Path | str) -> Submission:
    """Load `submission.yaml` (or the folder holding it); errors name the file and the field."""
    path = Path(path)
    file = path / SUBMISSION_FILE if path.is_dir() else path
    if not file.exists():
        raise LoadError(file, ["submission file not found"])
    try:
        raw = safe_load_bounded(file.read_text(encoding="utf-8"))
    except YamlLimitError as exc:
        raise LoadError(file, [f"refused YAML: {exc}"]) from None
    except yaml.YAMLError as exc:
        raise LoadError(file, [f"invalid YAML: {exc}"]) from exc
    try:
        return Submission.model_validate(raw)
    except ValidationError as exc:
        raise LoadError(file, describe_validation_error(exc)) from exc


# --------------------------------------------------------------------------- the schema file


def submission_schema_text() -> str:
    """`submissions/schema.json` exactly as it is committed (stable key order, trailing newline)."""
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        **Submission.model_json_schema(),
        "title": "τ-Rec submission (submissions/<slug>/submission.yaml)",
    }
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def schema_is_current(path: Path) -> bool:
    """True when the committed schema file matches the model byte for byte."""
    return path.is_file() and path.read_text(encoding="utf-8") == submission_schema_text()


# --------------------------------------------------------------------------- problems


@dataclass(frozen=True)
class Problem:
    """One finding of `check_submission`: which file, which field, why, and how bad."""

    file: str
    field: str
    reason: str
    severity: Literal["error", "warning"] = "error"

    def __str__(self) -> str:
        return f"{self.severity}: {self.file}: {self.field}: {self.reason}"


def has_errors(problems: Iterable[Problem]) -> bool:
    return any(p.severity == "error" for p in problems)


# --------------------------------------------------------------------------- secrets

# Provider key shapes. The first group is the name shown in the reason.
_SECRET_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("an Anthropic API key", re.compile(r"sk-ant-[A-Za-z0-9_\-]{8,}")),
    ("an OpenAI-style API key", re.compile(r"\bsk-(?!ant-)[A-Za-z0-9_\-]{16,}")),
    ("a Google API key", re.compile(r"AIza[0-9A-Za-z_\-]{20,}")),
    (
        "a GitHub token",
        re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{16,}|github_pat_[A-Za-z0-9_]{20,})"),
    ),
    ("a Hugging Face token", re.compile(r"\bhf_[A-Za-z0-9]{20,}")),
    ("an AWS access key id", re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b")),
    ("a Slack token", re.compile(r"\bxox[abpors]-[A-Za-z0-9\-]{10,}")),
    (
        "a JSON web token",
        re.compile(r"\beyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}"),
    ),
    ("a bearer token", re.compile(r"\bBearer\s+[A-Za-z0-9\-._~+/]{8,}=*", re.IGNORECASE)),
    ("a private key", re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----")),
)
_URL = re.compile(r"\b[a-z][a-z0-9+.\-]*://\S+", re.IGNORECASE)
_TOKEN_RUN = re.compile(r"[A-Za-z0-9+=]{32,}")


def _entropy(text: str) -> float:
    counts = Counter(text)
    return -sum(n / len(text) * math.log2(n / len(text)) for n in counts.values())


def secret_values(text: str) -> list[str]:
    """The credential-looking substrings of `text` themselves (to mask them, never to show)."""
    values = [m.group(0) for _, pattern in _SECRET_PATTERNS for m in pattern.finditer(text)]
    for run in _TOKEN_RUN.findall(_URL.sub(" ", text)):
        mixed = any(c.isdigit() for c in run) and any(c.isalpha() for c in run)
        if mixed and _entropy(run) >= 3.0:
            values.append(run)
    return sorted(set(values), key=len, reverse=True)


def mask_secrets(text: str, values: Iterable[str]) -> str:
    for value in values:
        text = text.replace(value, "[redacted]")
    return text


def find_secrets(text: str) -> list[str]:
    """What in `text` looks like a credential (a description each; never the secret itself)."""
    found = [name for name, pattern in _SECRET_PATTERNS if pattern.search(text)]
    if found:
        return found
    # Long random-looking runs (hex or base64 keys such as a TMDB v3 key). URL paths are skipped:
    # commit hashes and model ids in links are not secrets.
    for run in _TOKEN_RUN.findall(_URL.sub(" ", text)):
        mixed = any(c.isdigit() for c in run) and any(c.isalpha() for c in run)
        if mixed and _entropy(run) >= 3.0:
            return [f"a long high-entropy token ({len(run)} characters)"]
    return []


# --------------------------------------------------------------------------- YAML reading


class _StrictLoader(yaml.SafeLoader):
    """A safe loader that refuses duplicate keys (PyYAML silently keeps the last one)."""


def _construct_mapping(loader: _StrictLoader, node: yaml.MappingNode) -> dict[Any, Any]:
    loader.flatten_mapping(node)
    seen: set[Any] = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=True)  # type: ignore[no-untyped-call]
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key {key!r}", key_node.start_mark
            )
        seen.add(key)
    return loader.construct_mapping(node, deep=True)


_StrictLoader.add_constructor(
    yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG,
    _construct_mapping,
)


def _walk(value: Any, where: str = "") -> Iterator[tuple[str, str]]:
    """Every string in a parsed YAML document (keys included) with its dotted field path."""
    if isinstance(value, dict):
        for key, child in value.items():
            path = f"{where}.{key}" if where else str(key)
            if isinstance(key, str):
                yield path, key
            yield from _walk(child, path)
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from _walk(child, f"{where}[{index}]")
    elif isinstance(value, str):
        yield where or "(root)", value


# --------------------------------------------------------------------------- checks

_ENV_NAME = re.compile(r"^[A-Z_][A-Z0-9_]*$")
_PARENT_SEGMENT = re.compile(r"(^|[/\\])\.\.([/\\]|$)")
_ABSOLUTE_PATH = re.compile(r"^(/|~[/\\]|[A-Za-z]:[/\\]|\\\\)")
_AGENT_KINDS = ("litellm", "http", "builtin")
_URL_FIELDS = ("agent.endpoint", "agent.api_base")
_BUILTIN_NAMES: tuple[str, ...] = get_args(BuiltinName)
UNKNOWN_BUILTIN = "unknown builtin"


def is_loopback_host(host: str | None) -> bool:
    """`localhost` or an address in 127.0.0.0/8 or ::1."""
    if not host:
        return False
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _known_fields(model: type[BaseModel]) -> list[str]:
    return list(model.model_fields)


def _suggest(word: str, choices: Iterable[str]) -> str:
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


# Words submitters use for a key under another name: tried when spelling finds nothing close.
_SAME_MEANING: dict[str, tuple[str, ...]] = {
    "endpoint": ("api_base",),
    "url": ("endpoint", "api_base"),
    "base_url": ("api_base", "endpoint"),
    "api_url": ("api_base", "endpoint"),
    "api_base": ("endpoint",),
    "api_key": ("api_key_env", "headers_env"),
    "key": ("api_key_env", "headers_env"),
    "headers": ("headers_env",),
    "token": ("api_key_env", "headers_env"),
    "model_name": ("model",),
    "builtin": ("name",),
    "timeout": ("timeout_s",),
}


def _nearest_key(word: str, model: type[BaseModel]) -> str:
    """' (did you mean …?)' with the valid key nearest to `word`: by spelling, else by meaning
    (`endpoint` in a LiteLLM agent is its `api_base`), else the keys there are."""
    known = _known_fields(model)
    close = difflib.get_close_matches(word, known, n=1, cutoff=0.6)
    if close:
        return f" (did you mean {close[0]!r}?)"
    meant = [k for k in _SAME_MEANING.get(word.lower(), ()) if k in known]
    if meant:
        owner = _kind_with_field(word)
        elsewhere = f" {word!r} is a key of kind: {owner} agents" if owner else ""
        return f" (did you mean {meant[0]!r}?{elsewhere})"
    return f" (valid keys here: {', '.join(known)})"


def _kind_with_field(word: str) -> str | None:
    from runner.play.agent_config import HttpAgentConfig, LiteLLMAgentConfig

    for kind, model in (("http", HttpAgentConfig), ("litellm", LiteLLMAgentConfig)):
        if word in model.model_fields:
            return kind
    return None


def _model_for(loc: tuple[int | str, ...]) -> type[BaseModel] | None:
    """The pydantic model that owns the field at `loc` (used for 'did you mean')."""
    from runner.play.agent_config import HttpAgentConfig, LiteLLMAgentConfig, Prices, RetryConfig

    by_kind: dict[str, type[BaseModel]] = {
        "litellm": LiteLLMAgentConfig,
        "http": HttpAgentConfig,
        "builtin": BuiltinAgentConfig,
    }
    parent = loc[:-1]
    if not parent:
        return Submission
    top: dict[str, type[BaseModel]] = {
        "contact": Contact,
        "model": ModelMetadata,
        "tools": ToolsetOptions,
    }
    if len(parent) == 1 and isinstance(parent[0], str):
        return top.get(parent[0])
    if parent[0] == "agent" and isinstance(parent[1], str):
        agent_model = by_kind.get(parent[1])
        if len(parent) == 2:
            return agent_model
        nested: dict[str, type[BaseModel]] = {"retry": RetryConfig, "prices": Prices}
        if len(parent) == 3 and isinstance(parent[2], str):
            return nested.get(parent[2])
    return None


def _describe(item: Any) -> tuple[str, str]:
    """(field, reason) for one pydantic error, in a submitter's words."""
    loc: tuple[int | str, ...] = tuple(item["loc"])
    # Discriminated unions put the tag in the location: agent.builtin.name -> agent.name.
    shown_loc = loc
    if len(loc) >= 2 and loc[0] == "agent" and loc[1] in _AGENT_KINDS:
        shown_loc = (loc[0], *loc[2:])
    field = ".".join(str(p) for p in shown_loc) or "(root)"
    value = item.get("input")
    got = repr(value)
    if len(got) > 60:
        got = got[:57] + "..."
    kind = item["type"]
    if kind == "extra_forbidden":
        model = _model_for(loc)
        hint = _nearest_key(str(loc[-1]), model) if model else ""
        return field, f"unknown key{hint}"
    if kind == "missing":
        return field, "required field is missing"
    if kind == "union_tag_invalid":
        tag = repr(item.get("ctx", {}).get("tag"))
        return f"{field}.kind", f"unknown agent kind {tag}; use one of {', '.join(_AGENT_KINDS)}"
    if kind == "union_tag_not_found":
        return f"{field}.kind", f"agent needs a kind: one of {', '.join(_AGENT_KINDS)}"
    if kind == "literal_error" and loc[:2] == ("agent", "builtin") and loc[-1] == "name":
        hint = _suggest(str(value), _BUILTIN_NAMES)
        return field, f"unknown builtin {got}{hint}; built-ins are {', '.join(_BUILTIN_NAMES)}"
    if kind == "string_pattern_mismatch" and loc == ("slug",):
        return field, f"bad slug {got}: use lowercase letters, digits and single dashes"
    if kind == "value_error" and str(item["msg"]).startswith(f"Value error, {UNKNOWN_BUILTIN}"):
        return "agent.name", str(item["msg"]).removeprefix("Value error, ")
    if kind == "value_error" and "error" in item.get("ctx", {}):
        return field, f"{item['ctx']['error']} (got: {got})"
    return field, f"{item['msg']} (got: {got})"


def _check_url(field: str, url: str) -> list[tuple[str, str]]:
    parts = urlsplit(url)
    found: list[tuple[str, str]] = []
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return [(field, f"not an http(s) URL: {url!r}")]
    if parts.scheme == "http" and not is_loopback_host(parts.hostname):
        found.append(
            (field, f"plain http to {parts.hostname!r}: use https (http only for loopback)")
        )
    if parts.username or parts.password:
        found.append((field, "credentials in the URL: put them in an environment variable"))
    if any(is_secret_key(key) for key, _ in parse_qsl(parts.query, keep_blank_values=True)):
        found.append((field, "a key or token in the query string: use an environment variable"))
    return found


def _check_values(raw: dict[str, Any], *, hosted_run: bool) -> list[tuple[str, str, str]]:
    """Checks pydantic cannot express: secrets, key routing, path tricks, URLs, board rules."""
    from runner.models.keys import host_problem, key_problems

    found: list[tuple[str, str, str]] = []  # (severity, field, reason)
    for field, text in _walk(raw):
        for what in find_secrets(text):
            found.append(("error", field, f"looks like {what}: never put keys in the config"))
        if _PARENT_SEGMENT.search(text):
            found.append(("error", field, f"path trick: {text!r} contains '..'"))
        elif _ABSOLUTE_PATH.match(text):
            found.append(("error", field, f"absolute path {text!r}: configs never point at files"))
    agent = raw.get("agent")
    if isinstance(agent, dict):
        for key in ("endpoint", "api_base"):
            value = agent.get(key)
            if isinstance(value, str):
                url_problems = _check_url(f"agent.{key}", value)
                found.extend(("error", f, r) for f, r in url_problems)
                problem = host_problem(value, hosted_run=hosted_run)
                if problem and not url_problems:
                    found.append(("error", f"agent.{key}", problem))
        slug = raw.get("slug")
        slug = slug if isinstance(slug, str) else None
        # The model string first: an unknown provider is the root cause, and the key checks
        # that hang on the provider would only repeat it in other words.
        model_found = _litellm_model_problems(agent)
        found.extend(p for p in model_found if p[0] == "error")
        if not any(reason.startswith(UNKNOWN_PROVIDER) for _, _, reason in model_found):
            found.extend(("error", f, r) for f, r in key_problems(agent, slug))
            found.extend(("error", f, r) for f, r in _missing_key(agent, slug))
        found.extend(p for p in model_found if p[0] != "error")
        key_env = agent.get("api_key_env")
        if isinstance(key_env, str) and not _ENV_NAME.match(key_env):
            found.append(
                (
                    "error",
                    "agent.api_key_env",
                    "must be the NAME of an environment variable (like OPENAI_API_KEY), "
                    "not a value",
                )
            )
        headers = agent.get("headers_env")
        if isinstance(headers, dict):
            for header, env in headers.items():
                if not isinstance(env, str) or not _ENV_NAME.match(env):
                    found.append(
                        (
                            "error",
                            f"agent.headers_env.{header}",
                            "must be the NAME of an environment variable, not a value",
                        )
                    )
    model = raw.get("model")
    if isinstance(model, dict) and isinstance(model.get("links"), list):
        for index, link in enumerate(model["links"]):
            if isinstance(link, str) and urlsplit(link).scheme not in ("http", "https"):
                found.append(("error", f"model.links[{index}]", f"not an http(s) link: {link!r}"))
    trials = raw.get("trials", MIN_BOARD_TRIALS)
    if isinstance(trials, int) and 1 <= trials < MIN_BOARD_TRIALS:
        found.append(
            ("error", "trials", f"{trials} < {MIN_BOARD_TRIALS}: the board reports pass^4")
        )
    track = raw.get("track", "standard")
    tools = raw.get("tools")
    if track == "custom" and not str(raw.get("notes") or "").strip():
        found.append(("error", "notes", "the custom track needs notes saying what differs"))
    if track == "standard" and isinstance(tools, dict) and tools.get("filter_catalog") is True:
        found.append(("error", "tools.filter_catalog", "extra tools are the custom track"))
    contact = raw.get("contact")
    if isinstance(contact, dict) and not (contact.get("email") or contact.get("github")):
        found.append(("warning", "contact", "no email or github handle: we cannot reach you"))
    return found


UNKNOWN_PROVIDER = "unknown LiteLLM provider"


def _litellm_model_problems(agent: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(severity, field, reason) for a LiteLLM agent's model string: an unbounded client path,
    an unknown provider (an error starting with UNKNOWN_PROVIDER), a model LiteLLM does not list."""
    model_string = agent.get("model")
    if agent.get("kind") != "litellm" or not isinstance(model_string, str):
        return []
    if not model_string.strip():
        return []
    from runner.models.model_names import check_model_string
    from runner.models.provider_paths import config_problem

    found: list[tuple[str, str, str]] = []
    base = agent.get("api_base")
    unbounded = config_problem(model_string, base if isinstance(base, str) else None)
    if unbounded:
        found.append(("error", "agent.model", unbounded))
    for severity, reason in check_model_string(model_string, custom_base=bool(base)):
        found.append((severity, "agent.model", reason))
    return found


def _missing_key(agent: dict[str, Any], slug: str | None) -> list[tuple[str, str]]:
    """A hosted model (a provider of the key table, at the provider's own address) with no
    `api_key_env`: an error naming the provider's usual variable. A server of your own
    (`api_base` elsewhere) needs none."""
    from runner.models.keys import (
        PROVIDER_KEYS,
        entry_key_env,
        is_provider_host,
        provider_of_model,
    )

    model, base = agent.get("model"), agent.get("api_base")
    if agent.get("kind") != "litellm" or agent.get("api_key_env") is not None:
        return []
    if not isinstance(model, str) or (base is not None and not isinstance(base, str)):
        return []
    provider = provider_of_model(model)
    usual = next((k.env for k in PROVIDER_KEYS.values() if k.provider == provider), None)
    if usual is None or (base is not None and not is_provider_host(model, base)):
        return []
    own = entry_key_env(slug) if slug else "TAUREC_KEY_<SLUG>"
    return [
        (
            "agent.api_key_env",
            f"required for the hosted model {model!r}: name the environment variable that holds "
            f"its key — {usual}, {provider}'s usual one, or your entry's own {own}",
        )
    ]


def _check_folder(folder: Path) -> list[Problem]:
    """Symlinks and hard links anywhere (one entry must never show another's files), and every
    file an entry may not hold or that is too big (see `entry_files`): errors naming the file."""
    problems = [Problem(str(path), "(path)", why) for path, why in linked_paths(folder)]
    if folder.is_symlink():
        return problems
    problems += [Problem(str(path), "(file)", why) for path, why in entry_file_problems(folder)]
    return problems


def check_submission(
    path: Path | str, *, submissions_root: Path | None = None, hosted_run: bool = False
) -> list[Problem]:
    """Every problem with one submission folder (or its `submission.yaml`), all at once.

    Errors block the board; warnings are advice. Each problem names the file, the field and why.
    `hosted_run` also refuses loopback endpoints (the entry will run on the maintainers' runner).
    """
    path = Path(path)
    folder = path if path.is_dir() or path.name != SUBMISSION_FILE else path.parent
    file = folder / SUBMISSION_FILE
    root = submissions_root if submissions_root is not None else folder.parent
    where = str(file)
    if not folder.is_dir():
        return [Problem(str(folder), "(path)", "no such submission folder")]
    problems = _check_folder(folder)
    if folder.is_symlink():
        return problems
    if not file.is_file():
        other = [p.name for p in folder.glob("submission.*")]
        hint = f" (found {', '.join(other)}; rename it)" if other else ""
        named = {str(folder / name) for name in other}  # the hint says what to do with them
        problems = [p for p in problems if p.file not in named]
        return [*problems, Problem(where, "(file)", f"{SUBMISSION_FILE} is missing{hint}")]
    if file.is_symlink() or any(p.file == os.path.abspath(file) for p in problems):
        return problems  # the link was named above; nothing is read through it
    if file.stat().st_size > MAX_FILE_BYTES:
        return problems  # named above with its size; never read
    data = file.read_bytes()
    if len(data) > MAX_FILE_BYTES:  # grew since
        return [*problems, Problem(where, "(file)", f"larger than {MAX_FILE_BYTES} bytes")]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return [*problems, Problem(where, "(file)", f"not UTF-8: {exc}")]
    try:
        raw = safe_load_bounded(text, loader=_StrictLoader)
    except YamlLimitError as exc:
        problems.append(Problem(where, "(file)", f"refused YAML: {exc}"))
        return problems
    except yaml.YAMLError as exc:
        problems.append(Problem(where, "(file)", f"invalid YAML: {exc}".replace("\n", " ")))
        raw = None
    # Keys anywhere in the file, comments included: lines whose secret the value scan below
    # reports (with its field name) are skipped here.
    flagged = [t for _, t in _walk(raw) if find_secrets(t)] if raw is not None else []
    for number, line in enumerate(text.splitlines(), start=1):
        if any(value in line for value in flagged):
            continue
        for what in find_secrets(line):
            problems.append(
                Problem(where, f"line {number}", f"looks like {what}: never put keys in the file")
            )
    if raw is None:
        if not has_errors(problems):
            problems.append(Problem(where, "(root)", "the file is empty: it must hold the entry"))
        return problems
    if not isinstance(raw, dict):
        problems.append(Problem(where, "(root)", "must be a mapping of fields"))
        return problems
    try:
        Submission.model_validate(raw)
    except ValidationError as exc:
        for item in exc.errors():
            field, reason = _describe(item)
            problems.append(Problem(where, field, reason))
    slug = raw.get("slug")
    if isinstance(slug, str) and slug != folder.name:
        problems.append(
            Problem(where, "slug", f"{slug!r} differs from the folder name {folder.name!r}")
        )
    if not re.match(SLUG_PATTERN, folder.name):
        problems.append(
            Problem(str(folder), "(path)", "folder name is not a valid slug (lowercase, digits, -)")
        )
    for severity, field, reason in _check_values(raw, hosted_run=hosted_run):
        problems.append(Problem(where, field, reason, severity))  # type: ignore[arg-type]
    name = raw.get("display_name")
    if isinstance(name, str):
        problems += _name_taken(folder, root, name, where)
    return problems


def _name_taken(folder: Path, root: Path, name: str, where: str) -> list[Problem]:
    """The other entries under `root` whose display name reads the same as `name`."""
    key = display_names.fold(name)
    if not key or not root.is_dir():
        return []
    found = []
    for other in sorted(root.iterdir()):
        file = other / SUBMISSION_FILE
        if other.name == folder.name or other.is_symlink() or not file.is_file():
            continue
        if file.is_symlink() or file.stat().st_size > MAX_FILE_BYTES:
            continue
        try:
            theirs = safe_load_bounded(file.read_text(encoding="utf-8"))
        except (YamlLimitError, yaml.YAMLError, UnicodeDecodeError):
            continue  # that entry's own check reports it
        their_name = theirs.get("display_name") if isinstance(theirs, dict) else None
        if isinstance(their_name, str) and display_names.fold(their_name) == key:
            found.append(
                Problem(
                    where,
                    "display_name",
                    f"{name!r} reads the same as {their_name!r}, the display name of "
                    f"{file} (compared ignoring case, width, invisible characters and "
                    "look-alike letters); pick a name readers can tell apart",
                )
            )
    return found


# --------------------------------------------------------------------------- pull requests


_RESULTS_ONLY = (
    "results/ is written only by the refresh workflow, which records each run in the ledger; "
    "a pull request may not add or edit results (remove this file from the PR)"
)
_MAINTAINERS_FILES = {"schema.json", "README.md"}
_LEDGER_ONLY = "the ledger of verified runs is written only by the refresh workflow"
_VERIFIED_BY = (
    "only the refresh workflow marks a run verified (in its ledger); a pull request may not "
    "set verified_by"
)


def forged_verification(changed: Iterable[str]) -> list[Problem]:
    """Changed files (as they are in the checkout) that contain a `verified_by` value."""
    problems = []
    for text in (c.strip() for c in changed):
        path = Path(text)
        if not text or path.is_symlink() or not path.is_file():
            continue
        if _holds(path, b"verified_by"):
            problems.append(Problem(text, "verified_by", _VERIFIED_BY))
    return problems


def _holds(path: Path, needle: bytes, chunk: int = 1 << 20) -> bool:
    """Whether a file contains `needle`, read in bounded chunks (a changed file may be huge)."""
    tail = b""
    with path.open("rb") as fh:
        while block := fh.read(chunk):
            if needle in tail + block:
                return True
            tail = block[-(len(needle) - 1) :]
    return False


def changed_submission_dirs(
    changed: Iterable[str], submissions_dir: str = "submissions"
) -> tuple[list[str], list[Problem]]:
    """From a PR's changed paths: the submission folders to check, and path problems found.

    Paths are as git prints them, relative to the repository root. Results folders and the
    ledger are the refresh workflow's alone to write: a PR that touches them fails.
    """
    folders: set[str] = set()
    problems: list[Problem] = []
    prefix = submissions_dir.rstrip("/") + "/"
    for raw_path in changed:
        text = raw_path.strip()
        if not text:
            continue
        if _ABSOLUTE_PATH.match(text) or _PARENT_SEGMENT.search(text) or "\\" in text:
            problems.append(Problem(text, "(path)", "path trick: absolute or '..' path"))
            continue
        parts = PurePosixPath(text).parts
        if not text.startswith(prefix):
            problems.append(
                Problem(text, "(path)", "outside submissions/: review by hand", severity="warning")
            )
            continue
        if text == prefix + LEDGER_FILE:
            problems.append(Problem(text, "(path)", _LEDGER_ONLY))
            continue
        if len(parts) < 3 and parts[-1] in _MAINTAINERS_FILES:
            problems.append(
                Problem(text, "(path)", "maintainers' file, not an entry", severity="warning")
            )
            continue
        if len(parts) < 3:
            problems.append(
                Problem(
                    text,
                    "(path)",
                    "not inside an entry folder: submissions/ holds one folder per entry "
                    "(submissions/<slug>/submission.yaml); remove it",
                )
            )
            continue
        if len(parts) > 3 and parts[2] == "results":
            problems.append(Problem(text, "(path)", _RESULTS_ONLY))
        folders.add(prefix + parts[1])
    return sorted(folders), problems


@dataclass
class CheckReport:
    """What `taurec submission check` found across folders: checked, gone (deleted in the PR), problems."""

    checked: list[str]
    removed: list[str]
    problems: list[Problem]
    secrets: list[str] = dc_field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not has_errors(self.problems)

    def markdown(self) -> str:
        """A comment-ready summary (GitHub-flavoured markdown)."""
        errors = sum(p.severity == "error" for p in self.problems)
        warnings = len(self.problems) - errors
        verdict = "✅ passed" if self.ok else "❌ failed"
        lines = [
            f"### Submission check {verdict}",
            "",
            f"{len(self.checked)} folder(s) checked, {errors} error(s), {warnings} warning(s).",
        ]
        if self.removed:
            lines.append(f"Removed in this change: {', '.join(f'`{r}`' for r in self.removed)}.")
        if self.problems:
            lines += ["", "| | file | field | reason |", "|---|---|---|---|"]
            for p in self.problems:
                mark = "❌" if p.severity == "error" else "⚠️"
                cells = [_md_cell(c) for c in (p.file, p.field, p.reason)]
                lines.append(f"| {mark} | `{cells[0]}` | `{cells[1]}` | {cells[2]} |")
        return "\n".join(lines) + "\n"


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("`", "'").replace("\n", " ")


def check_submissions(
    paths: Iterable[Path | str],
    *,
    changed: Iterable[str] | None = None,
    submissions_root: Path | None = None,
    hosted_run: bool = False,
) -> CheckReport:
    """Check the given folders plus those a change touches (`changed`: paths from `git diff`)."""
    problems: list[Problem] = []
    folders = [Path(p) for p in paths]
    if changed is not None:
        changed = list(changed)
        from_diff, path_problems = changed_submission_dirs(changed)
        problems += path_problems + forged_verification(changed)
        folders += [Path(f) for f in from_diff]
    checked: list[str] = []
    removed: list[str] = []
    secrets: list[str] = []
    seen: set[Path] = set()
    for folder in folders:
        folder = folder.parent if folder.name == SUBMISSION_FILE else folder
        key = folder.absolute()
        if key in seen:
            continue
        seen.add(key)
        if changed is not None and not folder.exists() and not folder.is_symlink():
            removed.append(str(folder))
            continue
        checked.append(str(folder))
        file = folder / SUBMISSION_FILE
        if file.is_file() and not file.is_symlink() and file.stat().st_size <= MAX_FILE_BYTES:
            secrets += secret_values(file.read_text(encoding="utf-8", errors="replace"))
        found = check_submission(folder, submissions_root=submissions_root, hosted_run=hosted_run)
        problems += [  # a pasted key is never echoed (YAML errors and values quote their text)
            Problem(p.file, p.field, mask_secrets(p.reason, secrets), p.severity) for p in found
        ]
    return CheckReport(checked=checked, removed=removed, problems=problems, secrets=secrets)
