"""The submission config (`submissions/<slug>/submission.yaml`): who, which agent, how many trials."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from runner.agent_config import AgentConfig, ToolsetOptions
from runner.errors import LoadError, describe_validation_error

SUBMISSION_SCHEMA_VERSION: Literal[1] = 1


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
    slug: str = Field(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$", description="Equals the folder name")
    display_name: str = Field(min_length=1, max_length=80)
    contact: Contact
    agent: AgentConfig
    tools: ToolsetOptions = Field(default_factory=ToolsetOptions)
    trials: int = Field(default=4, ge=1, le=64, description="Trials per task (≥ 4 for the board)")
    track: Literal["standard", "custom"] = "standard"
    notes: str = ""
    model: ModelMetadata = Field(default_factory=ModelMetadata)


def load_submission(path: Path | str) -> Submission:
    """Load `submission.yaml` (or the folder holding it); errors name the file and the field."""
    path = Path(path)
    file = path / "submission.yaml" if path.is_dir() else path
    if not file.exists():
        raise LoadError(file, ["submission file not found"])
    try:
        raw = yaml.safe_load(file.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise LoadError(file, [f"invalid YAML: {exc}"]) from exc
    try:
        return Submission.model_validate(raw)
    except ValidationError as exc:
        raise LoadError(file, describe_validation_error(exc)) from exc
