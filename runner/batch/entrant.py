"""What the batch engine runs: one entrant (a submission folder, an agent config, or a Python agent factory)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from runner.core.protocols import Agent, AgentContext
from runner.play.agent_config import (
    AgentConfig,
    BuiltinAgentConfig,
    HttpAgentConfig,
    ToolsetOptions,
)
from runner.submissions.config import Submission, load_submission

# Builds the agent of one trial from its context (one agent per trial).
MakeAgent = Callable[[AgentContext], Agent]


def agent_name(config: AgentConfig) -> str:
    """A short provenance name: `litellm:<model>`, `http:<endpoint>` or `builtin:<name>`."""
    if isinstance(config, BuiltinAgentConfig):
        return f"builtin:{config.name}"
    if isinstance(config, HttpAgentConfig):
        return f"http:{config.endpoint}"
    return f"litellm:{config.model}"


@dataclass(frozen=True)
class Entrant:
    """One entry of a batch: its slug, where its results go, and how to build its agent per trial.

    Results go to `<results_root>/<snapshot label>/` (`<folder>/results/` for a submission folder).

    `config` is set for agents described by an `AgentConfig` (submission folders and configs);
    `make_agent` for agents given as Python objects, whose provenance is `agent` (a name such as
    `python:my_pkg.agents.make_agent`). `raw_config` is what run.json records (redacted there).
    """

    slug: str
    results_root: Path
    agent: str
    trials: int
    tools: ToolsetOptions = field(default_factory=ToolsetOptions)
    config: AgentConfig | None = None
    make_agent: MakeAgent | None = field(default=None, repr=False, compare=False)
    raw_config: dict[str, Any] = field(default_factory=dict, repr=False)
    agent_args: dict[str, Any] = field(default_factory=dict, repr=False)
    # The domains a submission enters (None: an agent given directly, which may run anywhere).
    domains: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        if (self.config is None) == (self.make_agent is None):
            raise ValueError("an Entrant needs exactly one of `config` and `make_agent`")

    @classmethod
    def from_submission(cls, folder: Path, submission: Submission) -> Entrant:
        """The entrant of a loaded `submission.yaml` whose folder is `folder`.

        An agent naming a secret that is not its own (another entry's TAUREC_KEY_…, a provider
        key for another host), or a LiteLLM provider whose path cannot be bounded where it
        points (runner.models.provider_paths), is refused here, before anything runs.
        """
        from runner.models.keys import KeyPolicyError, entry_secret_names
        from runner.models.provider_paths import RefusedEndpoint, config_problem
        from runner.play.agent_config import LiteLLMAgentConfig

        try:
            entry_secret_names(submission.agent.model_dump(mode="json"), submission.slug)
        except KeyPolicyError as exc:
            raise KeyPolicyError(f"{folder / 'submission.yaml'}: agent: {exc}") from None
        agent = submission.agent
        if isinstance(agent, LiteLLMAgentConfig):
            problem = config_problem(agent.model, agent.api_base)
            if problem:
                raise RefusedEndpoint(f"{folder / 'submission.yaml'}: agent.model: {problem}")
        return cls(
            slug=submission.slug,
            results_root=folder / "results",
            agent=agent_name(submission.agent),
            trials=submission.trials,
            tools=submission.tools,
            config=submission.agent,
            raw_config=submission.model_dump(mode="json"),
            agent_args=submission.agent.model_dump(mode="json"),
            domains=tuple(submission.domains),
        )

    @classmethod
    def from_folder(cls, folder: Path | str) -> Entrant:
        """Load `<folder>/submission.yaml` (errors name the file and the field)."""
        return cls.from_submission(Path(folder), load_submission(folder))


__all__ = ["Entrant", "MakeAgent", "agent_name"]
