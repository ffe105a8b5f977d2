"""The questions of `taurec submission new`: one table gives each option's --help text and the
prompt that asks for it, and each answer is checked on its own by the submission checker, so a
bad value is asked again (with the checker's reason) instead of failing at the end."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from runner.submissions.scaffold import ScaffoldAnswers, render_submission

__all__ = ["HELP", "QUESTIONS", "Question", "answer_problem", "interview"]


@dataclass(frozen=True)
class Question:
    """One answer the interview may ask for: its option, its text (shared with --help), when."""

    key: str
    help: str
    required: bool = False
    choices: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()  # asked only for these agent kinds (empty: always)
    field: str = ""  # where the checker reports a problem with it, e.g. agent.endpoint

    @property
    def flag(self) -> str:
        return "--" + self.key.replace("_", "-").replace("model-name", "model")

    def prompt(self) -> str:
        options = f" [{'/'.join(self.choices)}]" if self.choices else ""
        blank = "" if self.required else " (blank to skip)"
        return f"{self.help.rstrip('.')}{options}{blank} {self.flag}: "


QUESTIONS: tuple[Question, ...] = (
    Question(
        "slug",
        "Folder name and id: lowercase letters, digits, dashes.",
        required=True,
        field="slug",
    ),
    Question("display_name", "Name shown on the board.", required=True, field="display_name"),
    Question("contact_name", "Who to contact.", required=True, field="contact.name"),
    Question("organization", "Organization (omit for individuals).", field="contact.organization"),
    Question("email", "Public contact address.", field="contact.email"),
    Question("github", "GitHub handle.", field="contact.github"),
    Question(
        "kind", "Agent kind.", required=True, choices=("litellm", "http", "builtin"), field="agent"
    ),
    Question(
        "model_name",
        "litellm: model string, e.g. openai/gpt-5-mini.",
        required=True,
        kinds=("litellm",),
        field="agent.model",
    ),
    Question(
        "api_key_env",
        "litellm: NAME of the env var holding the key.",
        kinds=("litellm",),
        field="agent.api_key_env",
    ),
    Question(
        "endpoint",
        "http: the HTTPS URL that receives one POST per agent step.",
        required=True,
        kinds=("http",),
        field="agent.endpoint",
    ),
    Question(
        "builtin",
        "builtin: which one.",
        required=True,
        choices=("oracle", "heuristic", "random"),
        kinds=("builtin",),
        field="agent.name",
    ),
    Question(
        "training_cutoff",
        "Model training cutoff (YYYY-MM-DD).",
        kinds=("litellm", "http"),
        field="model.training_cutoff",
    ),
)
HELP = {q.key: q.help for q in QUESTIONS}
_PLACEHOLDER = {
    "slug": "placeholder-slug",
    "display_name": "x",
    "contact_name": "x",
    "kind": "builtin",
    "builtin": "random",
    "github": "x",
}
_ANSWER_FIELDS = {f.name for f in fields(ScaffoldAnswers)}


def _answers(values: dict[str, Any]) -> ScaffoldAnswers:
    known = {("model" if k == "model_name" else k): v for k, v in values.items()}
    return ScaffoldAnswers(**{k: v for k, v in known.items() if k in _ANSWER_FIELDS})


def answer_problem(question: Question, value: str, values: dict[str, Any]) -> str | None:
    """What the submission checker says about `value` as the answer to `question` (given the
    answers so far, placeholders for the rest), or None when it has nothing against it."""
    from runner.submissions.config import check_submission

    if question.choices and value not in question.choices:
        return f"choose one of {', '.join(question.choices)}"
    trial = {**_PLACEHOLDER, **{k: v for k, v in values.items() if v not in (None, "")}}
    trial[question.key] = value
    kind = trial["kind"]
    if kind == "litellm":
        trial.setdefault("model_name", "openai/gpt-5-mini")
    elif kind == "http":
        trial.setdefault("endpoint", "https://agent.example.com/step")
    answers = _answers(trial)
    with tempfile.TemporaryDirectory(prefix="taurec-new-") as scratch:
        name = answers.slug if question.key == "slug" else "placeholder-slug"
        answers.slug = name
        folder = Path(scratch) / "submissions" / name
        try:
            folder.mkdir(parents=True)
        except OSError as exc:
            return f"not usable as a folder name ({exc.strerror})"
        (folder / "submission.yaml").write_text(render_submission(answers), encoding="utf-8")
        problems = check_submission(folder, submissions_root=folder.parent)
    mine = [
        p
        for p in problems
        if p.severity == "error"
        and (p.field == question.field or p.field.startswith(question.field + "."))
    ]
    if question.key == "slug":
        mine += [p for p in problems if p.severity == "error" and p.field in ("(folder)", "")]
    return mine[0].reason if mine else None


def interview(
    values: dict[str, Any],
    ask: Callable[[Question], str | None],
    tell: Callable[[str], None],
) -> list[str]:
    """Fill `values` (option name → value) by asking for what is missing; return the flags of
    required answers that could not be had (input ended). `ask` returns None at end of input;
    a bad answer is told (`tell`) with the checker's reason and asked again."""
    missing: list[str] = []
    for question in QUESTIONS:
        if question.kinds and values.get("kind") not in question.kinds:
            continue
        if values.get(question.key) not in (None, ""):
            continue
        if question.key == "github" and values.get("email"):
            continue  # one public contact is enough
        while True:
            raw = ask(question)
            if raw is None:
                if question.required:
                    missing.append(question.flag)
                break
            answer = raw.strip()
            if not answer:
                if question.required:
                    tell(f"{question.flag} is required")
                    continue
                break
            problem = answer_problem(question, answer, values)
            if problem is None:
                values[question.key] = answer
                break
            tell(f"{answer!r} will not do: {problem}; try again")
    return missing
