"""Submission folders for tests: a submission.yaml written from a few fields."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from runner.submissions.scaffold import ScaffoldAnswers

__all__ = ["scaffold_answers", "write_entry"]


def write_entry(
    folder: Path, agent: dict[str, Any], *, display_name: str, contact: str, trials: int
) -> Path:
    """Make `folder` a submission whose slug is the folder's name and whose agent is `agent` (the
    submission.yaml's `agent` mapping); returns the folder."""
    folder.mkdir(parents=True)
    entry = {
        "slug": folder.name,
        "display_name": display_name,
        "contact": {"name": contact},
        "agent": agent,
        "trials": trials,
    }
    (folder / "submission.yaml").write_text(yaml.safe_dump(entry))
    return folder


def scaffold_answers(slug: str, kind: str, **fields: Any) -> ScaffoldAnswers:
    """What `taurec submission new` is told for an entry `slug` of `kind`, its display, contact and
    GitHub names made from the slug; `fields` give the rest (builtin, endpoint, model, ...)."""
    return ScaffoldAnswers(
        slug=slug,
        display_name=slug.capitalize(),
        contact_name=slug[0].upper(),
        github=slug[0],
        kind=kind,
        **fields,
    )
