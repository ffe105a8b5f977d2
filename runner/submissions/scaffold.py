"""Write a new, valid `submissions/<slug>/submission.yaml` from a submitter's answers (`taurec submission new`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import yaml

from runner.core.errors import LoadError, TaurecError
from runner.submissions.config import SUBMISSION_FILE, Submission, check_submission, has_errors

AgentKind = Literal["litellm", "http", "builtin"]


@dataclass
class ScaffoldAnswers:
    """What `taurec submission new` asks; everything else keeps the model's defaults."""

    slug: str
    display_name: str
    contact_name: str
    kind: AgentKind
    organization: str = ""
    email: str | None = None
    github: str | None = None
    model: str | None = None  # litellm
    api_base: str | None = None  # litellm
    api_key_env: str | None = None  # litellm
    endpoint: str | None = None  # http
    builtin: str | None = None  # builtin
    trials: int = 4
    track: Literal["standard", "custom"] = "standard"
    notes: str = ""
    release_date: str | None = None
    training_cutoff: str | None = None
    open_weights: bool | None = None
    links: list[str] = field(default_factory=list)


def _agent(answers: ScaffoldAnswers) -> dict[str, Any]:
    if answers.kind == "litellm":
        agent: dict[str, Any] = {"kind": "litellm", "model": answers.model}
        if answers.api_base:
            agent["api_base"] = answers.api_base
        if answers.api_key_env:
            agent["api_key_env"] = answers.api_key_env
        return agent
    if answers.kind == "http":
        return {"kind": "http", "endpoint": answers.endpoint}
    return {"kind": "builtin", "name": answers.builtin}


def submission_document(answers: ScaffoldAnswers) -> dict[str, Any]:
    """The YAML document for `answers`, in the order a reader expects, defaults left out."""
    contact: dict[str, Any] = {"name": answers.contact_name}
    if answers.organization:
        contact["organization"] = answers.organization
    if answers.email:
        contact["email"] = answers.email
    if answers.github:
        contact["github"] = answers.github
    model: dict[str, Any] = {}
    if answers.release_date:
        model["release_date"] = answers.release_date
    if answers.training_cutoff:
        model["training_cutoff"] = answers.training_cutoff
    if answers.open_weights is not None:
        model["open_weights"] = answers.open_weights
    if answers.links:
        model["links"] = list(answers.links)
    document: dict[str, Any] = {
        "schema_version": 1,
        "slug": answers.slug,
        "display_name": answers.display_name,
        "contact": contact,
        "agent": _agent(answers),
        "trials": answers.trials,
        "track": answers.track,
    }
    if answers.notes:
        document["notes"] = answers.notes
    if model:
        document["model"] = model
    return document


HEADER = """\
# yaml-language-server: $schema=../schema.json
# τ-Rec submission. Reference: submissions/schema.json. Check it with
#   taurec submission check submissions/{slug}
# and smoke-run it locally with
#   taurec submission smoke submissions/{slug}
# Never put API keys here: name the environment variable that holds one (api_key_env).
"""


def render_submission(answers: ScaffoldAnswers) -> str:
    body = yaml.safe_dump(
        submission_document(answers), sort_keys=False, allow_unicode=True, width=100
    )
    return HEADER.format(slug=answers.slug) + body


def scaffold_submission(submissions_dir: Path, answers: ScaffoldAnswers) -> Path:
    """Create `<submissions_dir>/<slug>/submission.yaml`; refuse to overwrite or to write a bad one.

    The file is checked with `check_submission` before it is kept; on any error nothing is left
    behind and `LoadError` lists every problem.
    """
    folder = submissions_dir / answers.slug
    file = folder / SUBMISSION_FILE
    if file.exists():
        raise TaurecError(f"{file} already exists: edit it, or pick another slug")
    text = render_submission(answers)
    created = not folder.exists()
    folder.mkdir(parents=True, exist_ok=True)
    file.write_text(text, encoding="utf-8")
    problems = check_submission(folder, submissions_root=submissions_dir)
    if has_errors(problems):
        file.unlink()
        if created:
            folder.rmdir()
        raise LoadError(file, [f"{p.field}: {p.reason}" for p in problems if p.severity == "error"])
    Submission.model_validate(yaml.safe_load(text))
    return file
