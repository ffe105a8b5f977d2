"""How a submission says which agent to run: a LiteLLM model, an HTTP endpoint, or a built-in baseline."""

from __future__ import annotations

from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

from runner.models.provider_paths import CUSTOM_BASE_PROVIDERS


class Prices(BaseModel):
    """USD per million tokens, for models LiteLLM has no price for (e.g. a local server)."""

    model_config = ConfigDict(extra="forbid")

    input_per_mtok: float = Field(ge=0)
    output_per_mtok: float = Field(ge=0)


class RetryConfig(BaseModel):
    """The one retry policy for model calls: exponential backoff with jitter, honouring Retry-After."""

    model_config = ConfigDict(extra="forbid")

    max_attempts: int = Field(default=6, ge=1, le=20)
    initial_backoff_s: float = Field(default=1.0, ge=0)
    max_backoff_s: float = Field(default=60.0, ge=0)
    max_total_s: float = Field(default=600.0, gt=0, description="Give up after this long in all")


class LiteLLMAgentConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: Literal["litellm"] = "litellm"
    model: str = Field(min_length=1, description="Any LiteLLM model string, e.g. openai/gpt-5-mini")
    api_base: str | None = Field(
        default=None,
        description="Override the provider's base URL. A server of your own (a host that is not "
        "the provider's) is called only with a prefix whose client τ-Rec bounds: "
        + ", ".join(f"{p}/" for p in CUSTOM_BASE_PROVIDERS),
    )
    api_key_env: str | None = Field(
        default=None,
        description="Name of the environment variable that holds the key (never the key itself)",
    )
    temperature: float | None = Field(default=None, ge=0, le=2)
    max_tokens: int | None = Field(default=None, gt=0)
    reasoning_effort: Literal["minimal", "low", "medium", "high"] | None = None
    extra_body: dict[str, Any] = Field(default_factory=dict)
    timeout_s: float = Field(default=120.0, gt=0)
    retry: RetryConfig = Field(default_factory=RetryConfig)
    requests_per_minute: float | None = Field(
        default=None,
        ge=1,
        description="Client-side rate limit shared by all trials of this model (at least 1: a "
        "slower limit would stall the whole batch)",
    )
    prices: Prices | None = None


class HttpAgentConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: Literal["http"] = "http"
    endpoint: str = Field(description="URL that receives one POST per agent step")
    headers_env: dict[str, str] = Field(
        default_factory=dict,
        description="HTTP header name → name of the environment variable holding its value",
    )
    timeout_s: float = Field(default=120.0, gt=0)
    retry: RetryConfig = Field(default_factory=RetryConfig)


# The registered movie built-ins (domains.movies.builtins.BUILTIN_AGENTS; a test keeps the two equal): the
# baselines, and the adversaries (`exploit-*`) whose best score is the board's exploit floor.
BuiltinName = Literal[
    "oracle",
    "heuristic",
    "careful",
    "random",
    "exploit-crawl-propose",
    "exploit-ask-all",
    "exploit-interview",
    "exploit-policy-only",
    "exploit-nothing-fits-probe",
    "exploit-list-pusher",
    # The fidelity panel (benchmarks/user_fidelity.py): honest expert, informed, natural twins,
    # and the adversaries that are the expert minus one honest part.
    "expert",
    "expert-natural",
    "heuristic-natural",
    # Second natural twins: seeded assistant styles, not written against the reader.
    "expert-styled",
    "heuristic-styled",
    "informed",
    "no-question-prober",
    "interview-picker",
    "budget-crawler",
    "decline-ignoring-guesser",
    "policy-ignoring-retriever",
    # Reads everything public (dev suite, retired splits, snapshots) and maps the user id to a
    # task: ~1.0 on the dev split, its fallback's score on a private test split.
    "lookup",
]
ADVERSARY_NAMES: tuple[str, ...] = tuple(
    name for name in get_args(BuiltinName) if name.startswith("exploit-")
)


class BuiltinAgentConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: Literal["builtin"] = "builtin"
    name: str = Field(
        min_length=1,
        max_length=64,
        pattern=r"^[a-z0-9][a-z0-9-]*$",
        description="A built-in agent of the domain entered. Movies: "
        + ", ".join(get_args(BuiltinName))
        + ". Other domains register their own (`runner.core.domain.Domain.baselines`); a name the "
        "domain does not know fails with the closest one",
    )
    args: dict[str, Any] = Field(default_factory=dict)


AgentConfig = Annotated[
    LiteLLMAgentConfig | HttpAgentConfig | BuiltinAgentConfig, Field(discriminator="kind")
]


class ToolsetOptions(BaseModel):
    """Which tools the agent gets. The default is exactly the six v1 tools (the standard track)."""

    model_config = ConfigDict(extra="forbid")

    filter_catalog: bool = Field(
        default=False, description="Also offer filter_catalog (structured predicates): custom track"
    )
