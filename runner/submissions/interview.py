"""The questions of `taurec submission new`: one table gives each option's --help text and the
prompt that asks for it, and each answer is checked on its own by the submission checker, so a
bad value is asked again (with the checker's reason) instead of failing at the end."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from runner.core.errors import TaurecError
from runner.submissions.scaffold import ScaffoldAnswers, render_submission

__all__ = ["HELP", "QUESTIONS", "EndOfAnswers", "Question", "answer_problem", "interview"]


class EndOfAnswers(TaurecError):
    """Input ended before every question was answered: nothing is written."""

    def __init__(self, question: Question, missing: list[str]) -> None:
        self.question = question
        self.missing = missing
        still = f"; still missing {', '.join(missing)}" if missing else ""
        super().__init__(
            f"end of input at the question for {question.flag} ({question.help.rstrip('.')})"
            f"{still}; nothing written. Answer each question on its own line, in the order of "
            "the Submit page (an empty line skips an optional one), or give the flags"
        )


@dataclass(frozen=True)
class Question:
    """One answer the interview may ask for: its option, its text (shared with --help), when."""

    key: str
    help: str
    required: bool = False
    choices: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()  # asked only for these agent kinds (empty: always)
    field: str = ""  # where the checker reports a problem with it, e.g. agent.endpoint
    blank: str = "blank to skip"  # what an empty answer does, for an optional question

    @property
    def flag(self) -> str:
        return "--" + self.key.replace("_", "-").replace("model-name", "model")

    def prompt(self) -> str:
        options = f" [{'/'.join(self.choices)}]" if self.choices else ""
        blank = "" if self.required else f" ({self.blank})"
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
        blank="blank only for a server of your own, given with --api-base",
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
    if value:
        trial[question.key] = value
    else:  # an empty answer: the entry without it
        trial.pop(question.key, None)
    kind = trial["kind"]
    if kind == "litellm":
        trial.setdefault("model_name", "openai/gpt-5-mini")
    elif kind == "http":
        trial.setdefault("endpoint", "https://agent.example.com/step")
    answers = _answers(trial)
    with tempfile.TemporaryDirectory(prefix="taurec-new-") as scratch:
        name = answers.slug  # the answered slug (or the placeholder before it is answered)
        if kind == "litellm" and not answers.api_key_env and question.key != "api_key_env":
            from runner.models.keys import entry_key_env

            answers.api_key_env = entry_key_env(name)  # a placeholder for the later question
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


def applies(question: Question, values: dict[str, Any]) -> bool:
    """Whether the interview asks `question` given the answers so far."""
    if question.kinds and values.get("kind") not in question.kinds:
        return False
    if values.get(question.key) not in (None, ""):
        return False
    return not (question.key == "github" and values.get("email"))  # one contact is enough


def interview(
    values: dict[str, Any],
    ask: Callable[[Question], str | None],
    tell: Callable[[str], None],
) -> None:
    """Fill `values` (option name → value) by asking, in the order of QUESTIONS, for what is
    missing. `ask` returns None at end of input: that stops the interview with EndOfAnswers
    (never a silent skip). A bad answer, or an empty one where the entry needs a value, is told
    (`tell`) with the checker's reason and asked again."""
    for index, question in enumerate(QUESTIONS):
        if not applies(question, values):
            continue
        while True:
            raw = ask(question)
            if raw is None:
                later = [q for q in QUESTIONS[index:] if q.required and applies(q, values)]
                raise EndOfAnswers(question, [q.flag for q in later])
            answer = raw.strip()
            if not answer and question.required:
                tell(f"{question.flag} is required")
                continue
            problem = answer_problem(question, answer, values)
            if problem is None:
                if answer:
                    values[question.key] = answer
                break
            shown = repr(answer) if answer else "an empty answer"
            tell(f"{shown} will not do: {problem}; try again")
