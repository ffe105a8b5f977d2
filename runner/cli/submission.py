"""`taurec submission`: check, scaffold, smoke-run submission folders and keep their schema current."""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Callable
from dataclasses import fields
from pathlib import Path
from typing import Any

import click

from runner.core.cli_flags import F, folder_option
from runner.core.paths import SUBMISSIONS_DIR
from runner.submissions.interview import HELP


@click.group()
def group() -> None:
    """Submission folders: check them, scaffold a new one, smoke-run, schema."""


def _read_changed(source: str) -> list[str]:
    """Changed paths from a file ('-' for stdin), one per line or NUL-separated (`git diff -z`)."""
    text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    return [p for p in text.replace("\0", "\n").splitlines() if p.strip()]


def _paths_and_changed_files(changed_files: str) -> Callable[[F], F]:
    """PATHS (submission folders or files in them) and `--changed-files FILE`."""

    def decorate(command: F) -> F:
        command = click.option("--changed-files", metavar="FILE", help=changed_files)(command)
        return click.argument("paths", nargs=-1, type=click.Path(path_type=Path))(command)

    return decorate


@group.command("check")
@_paths_and_changed_files(
    "Also check the folders these paths touch (a `git diff --name-only` list; '-' = stdin)."
)
@click.option(
    "--summary",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Append a markdown summary to this file (e.g. $GITHUB_STEP_SUMMARY).",
)
@click.option(
    "--hosted",
    is_flag=True,
    help="The entries will run on the maintainers' runner: also refuse loopback endpoints.",
)
def check_command(
    paths: tuple[Path, ...], changed_files: str | None, summary: Path | None, hosted: bool
) -> None:
    """Check submission folders; print every problem; exit 1 on any error.

    Each problem names the file, the field and the reason: unknown keys, bad slugs, path tricks,
    values that look like API keys, plain-http endpoints that are not loopback, fewer than 4 trials.
    """
    from runner.submissions.config import check_submissions

    if not paths and changed_files is None:
        raise click.UsageError("give one or more submission folders, or --changed-files")
    changed = _read_changed(changed_files) if changed_files is not None else None
    report = check_submissions(paths, changed=changed, hosted_run=hosted)
    if os.environ.get("GITHUB_ACTIONS") == "true":
        for value in report.secrets:  # masked in every later log line and summary
            click.echo(f"::add-mask::{value}")
    for problem in report.problems:
        click.echo(str(problem))
    for folder in report.removed:
        click.echo(f"note: {folder} was removed")
    errors = sum(p.severity == "error" for p in report.problems)
    click.echo(
        f"{len(report.checked)} submission(s) checked: {errors} error(s), "
        f"{len(report.problems) - errors} warning(s)"
    )
    if summary is not None:
        with summary.open("a", encoding="utf-8") as out:
            out.write(report.markdown())
    if not report.ok:
        sys.exit(1)


@group.command("schema")
@click.option(
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    default=SUBMISSIONS_DIR / "schema.json",
    show_default="submissions/schema.json",
    help="Where the JSON schema lives.",
)
@click.option("--check", "check_only", is_flag=True, help="Exit 1 if the file is out of date.")
def schema_command(output: Path, check_only: bool) -> None:
    """Write the submission JSON schema generated from the pydantic model (or --check it)."""
    from runner.submissions.config import schema_is_current, submission_schema_text

    if check_only:
        if not schema_is_current(output):
            click.echo(f"{output} is out of date: run `taurec submission schema`", err=True)
            sys.exit(1)
        click.echo(f"{output} is current")
        return
    output.write_text(submission_schema_text(), encoding="utf-8")
    click.echo(f"wrote {output}")


def _stdin_answers() -> bool:
    """Whether stdin can hold answers: a terminal, a pipe or a file (not /dev/null or closed)."""
    try:
        mode = os.fstat(sys.stdin.fileno()).st_mode
    except (OSError, ValueError, AttributeError):
        return False
    return sys.stdin.isatty() or stat.S_ISFIFO(mode) or stat.S_ISREG(mode)


@group.command("new")
@click.option("--slug", help=HELP["slug"])
@click.option("--display-name", help=HELP["display_name"])
@click.option("--contact-name", help=HELP["contact_name"])
@click.option("--organization", help=HELP["organization"])
@click.option("--email", help=HELP["email"])
@click.option("--github", help=HELP["github"])
@click.option("--kind", type=click.Choice(["litellm", "http", "builtin"]), help=HELP["kind"])
@click.option("--model", "model_name", help=HELP["model_name"])
@click.option("--api-base", help="litellm: provider base URL override.")
@click.option("--api-key-env", help=HELP["api_key_env"])
@click.option("--endpoint", help=HELP["endpoint"])
@click.option(
    "--builtin", type=click.Choice(["oracle", "heuristic", "random"]), help=HELP["builtin"]
)
@click.option("--trials", type=int, default=4, show_default=True, help="Trials per task (≥ 4).")
@click.option("--track", type=click.Choice(["standard", "custom"]), default="standard")
@click.option("--notes", default="", help="What the entry is; required for the custom track.")
@click.option("--training-cutoff", help=HELP["training_cutoff"])
@click.option("--release-date", help="Model release date (YYYY-MM-DD).")
@click.option("--open-weights/--closed-weights", default=None, help="Are the weights public?")
@folder_option(
    "--dir",
    "submissions_dir",
    text="The submissions folder.",
    default=Path("submissions"),
    show_default="submissions/ in the current folder",
)
@click.option(
    "--interactive/--no-input",
    default=None,
    help="Ask for missing answers (default: when stdin is a terminal, a pipe or a file, so a "
    "here-doc answers the questions in order).",
)
def new_command(interactive: bool | None, submissions_dir: Path, **options: Any) -> None:
    """Scaffold a valid submission folder, from flags or by asking.

    Each question is the --help text of its option; a bad answer is explained and asked again.
    With every required flag given it never asks, so it works in CI with no stdin.
    """
    from runner.submissions.interview import EndOfAnswers, Question, interview
    from runner.submissions.scaffold import ScaffoldAnswers, scaffold_submission

    ask = _stdin_answers() if interactive is None else interactive
    values = dict(options)
    echo_answers = not sys.stdin.isatty()

    def question(q: Question) -> str | None:
        click.echo(q.prompt(), nl=False)
        line = sys.stdin.readline()
        if not line:
            click.echo("")
            return None
        if echo_answers:
            click.echo(line.rstrip("\n"))
        return line

    missing: list[str] = []
    if ask:
        try:
            interview(values, question, lambda text: click.echo(text, err=True))
        except EndOfAnswers as exc:
            raise click.UsageError(str(exc)) from None
    else:
        missing = [
            f"--{key.replace('_', '-')}"
            for key in ("slug", "display_name", "contact_name", "kind")
            if values.get(key) in (None, "")
        ]
        kind = values.get("kind")
        needed = {"litellm": "model_name", "http": "endpoint", "builtin": "builtin"}.get(kind or "")
        if needed and values.get(needed) in (None, ""):
            missing.append("--" + needed.replace("_", "-").replace("model-name", "model"))
    if missing:
        raise click.UsageError(f"missing {', '.join(missing)} (give the flags, or answer on stdin)")
    # Each answer under its field's name but the model (asked as --model) and the organization
    # (none is ""); `links` keep the default.
    named = [
        f.name for f in fields(ScaffoldAnswers) if f.name not in ("model", "organization", "links")
    ]
    answers = ScaffoldAnswers(
        model=values["model_name"],
        organization=values["organization"] or "",
        **{name: values[name] for name in named},
    )
    file = scaffold_submission(submissions_dir, answers)
    click.echo(f"wrote {file}")
    click.echo(
        f"next: taurec submission check {file.parent} && taurec submission smoke {file.parent}"
    )


@group.command("smoke")
@_paths_and_changed_files(
    "Also smoke-run the folders these paths touch ('-' = stdin), as the PR check does."
)
@click.option("--tasks", "task_count", default=3, show_default=True, help="How many tasks.")
@click.option("--trials", default=1, show_default=True, help="Trials per task.")
@click.option("--snapshot", help="Snapshot date or path (default: the latest).")
@click.option(
    "--tasks-dir",
    type=click.Path(file_okay=False, exists=True, path_type=Path),
    help="Task suite to pick from (default: tasks/).",
)
@click.option(
    "--summary",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Append the markdown summary to this file (e.g. $GITHUB_STEP_SUMMARY).",
)
def smoke_command(
    paths: tuple[Path, ...],
    changed_files: str | None,
    task_count: int,
    trials: int,
    snapshot: str | None,
    tasks_dir: Path | None,
    summary: Path | None,
) -> None:
    """Check, then run each submission on a few tasks; print a markdown summary.

    An entry whose own endpoint or model answers one request (its key variable set) runs
    against it. One that does not (no key, no network: a pull request) runs on a local stand-in
    — the model server, or an http endpoint with the heuristic policy — to show that the config
    runs; it is marked `stand-in`, never `passed`. Scripted simulator. Exit 1 if any entry fails.
    """
    from runner.submissions.config import changed_submission_dirs
    from runner.submissions.smoke import smoke_submissions

    folders = list(paths)
    if changed_files is not None:
        from_diff, _ = changed_submission_dirs(_read_changed(changed_files))
        folders += [Path(f) for f in from_diff if Path(f).exists()]
    if not folders:
        if changed_files is not None:
            click.echo("no submission folder to smoke-run")
            return
        raise click.UsageError("give one or more submission folders, or --changed-files")
    report = smoke_submissions(
        folders, tasks=task_count, trials=trials, snapshot=snapshot, tasks_dir=tasks_dir
    )
    click.echo(report.markdown(escape_html=False))  # a terminal shows replies as they came
    for entry in report.entries:
        for problem in entry.problems:
            click.echo(str(problem), err=True)
    if summary is not None:
        with summary.open("a", encoding="utf-8") as out:
            out.write(report.markdown())
    if not report.ok:
        sys.exit(1)


@group.command(
    "env", context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False}
)
@click.argument("folder", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.argument("command", nargs=-1, type=click.UNPROCESSED)
@click.option(
    "--secrets-json-env",
    metavar="NAME",
    default=None,
    help="Variable holding a JSON object of all secrets (e.g. toJSON(secrets)); dropped from the "
    "child's environment, only the entry's allowed ones are taken from it.",
)
def env_command(folder: Path, command: tuple[str, ...], secrets_json_env: str | None) -> None:
    """Run COMMAND with only the secrets this entry may use (or print their names without one).

    Every key-table variable and every TAUREC_KEY_… variable is removed from the environment; the
    entry's allowed ones (its provider's key, or its own TAUREC_KEY_<SLUG>) are put back.
    """
    from runner.models.keys import entry_environment, entry_secret_names
    from runner.submissions.config import load_submission

    entry = load_submission(folder)
    agent = entry.agent.model_dump(mode="json")
    environ = dict(os.environ)
    secrets_json = environ.pop(secrets_json_env, None) if secrets_json_env else None
    env = entry_environment(agent, entry.slug, environ, secrets_json)
    if not command:
        for name in entry_secret_names(agent, entry.slug):
            click.echo(name)
        return
    os.execvpe(command[0], list(command), env)
