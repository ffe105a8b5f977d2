"""`taurec submission`: check, scaffold, smoke-run submission folders and keep their schema current."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import click

from runner.paths import SUBMISSIONS_DIR


@click.group()
def group() -> None:
    """Submission folders: check them, scaffold a new one, smoke-run, schema."""


def _read_changed(source: str) -> list[str]:
    """Changed paths from a file ('-' for stdin), one per line or NUL-separated (`git diff -z`)."""
    text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    return [p for p in text.replace("\0", "\n").splitlines() if p.strip()]


@group.command("check")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option(
    "--changed-files",
    metavar="FILE",
    help="Also check the folders these paths touch (a `git diff --name-only` list; '-' = stdin).",
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
    from runner.submission import check_submissions

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
    from runner.submission import schema_is_current, submission_schema_text

    if check_only:
        if not schema_is_current(output):
            click.echo(f"{output} is out of date: run `taurec submission schema`", err=True)
            sys.exit(1)
        click.echo(f"{output} is current")
        return
    output.write_text(submission_schema_text(), encoding="utf-8")
    click.echo(f"wrote {output}")


_REQUIRED = {
    "slug": "Slug (lowercase letters, digits, dashes; the folder name)",
    "display_name": "Display name",
    "contact_name": "Contact name",
}


@group.command("new")
@click.option("--slug", help="Folder name and id: lowercase letters, digits, dashes.")
@click.option("--display-name", help="Name shown on the board.")
@click.option("--contact-name", help="Who to contact.")
@click.option("--organization", help="Organization (omit for individuals).")
@click.option("--email", help="Public contact address.")
@click.option("--github", help="GitHub handle.")
@click.option("--kind", type=click.Choice(["litellm", "http", "builtin"]), help="Agent kind.")
@click.option("--model", "model_name", help="litellm: model string, e.g. openai/gpt-5-mini.")
@click.option("--api-base", help="litellm: provider base URL override.")
@click.option("--api-key-env", help="litellm: NAME of the env var holding the key.")
@click.option("--endpoint", help="http: the HTTPS URL that receives one POST per agent step.")
@click.option(
    "--builtin", type=click.Choice(["oracle", "heuristic", "random"]), help="builtin: which one."
)
@click.option("--trials", type=int, default=4, show_default=True, help="Trials per task (≥ 4).")
@click.option("--track", type=click.Choice(["standard", "custom"]), default="standard")
@click.option("--notes", default="", help="What the entry is; required for the custom track.")
@click.option("--training-cutoff", help="Model training cutoff (YYYY-MM-DD).")
@click.option("--release-date", help="Model release date (YYYY-MM-DD).")
@click.option("--open-weights/--closed-weights", default=None, help="Are the weights public?")
@click.option(
    "--dir",
    "submissions_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=SUBMISSIONS_DIR,
    show_default="submissions/",
    help="The submissions folder.",
)
@click.option(
    "--interactive/--no-input",
    default=None,
    help="Prompt for missing answers (default: only when stdin is a terminal).",
)
def new_command(interactive: bool | None, submissions_dir: Path, **options: Any) -> None:
    """Scaffold a valid submission folder, from flags or by asking.

    With every required flag given it never prompts, so it works in CI with no stdin.
    """
    from runner.submission_scaffold import ScaffoldAnswers, scaffold_submission

    ask = sys.stdin.isatty() if interactive is None else interactive
    values = dict(options)
    missing: list[str] = []

    def need(key: str, text: str, **prompt_args: Any) -> None:
        if values.get(key) in (None, ""):
            if ask:
                values[key] = click.prompt(text, **prompt_args)
            else:
                missing.append("--" + key.replace("_", "-"))

    for key, text in _REQUIRED.items():
        need(key, text)
    if ask and values["organization"] is None:
        values["organization"] = click.prompt("Organization", default="", show_default=False)
    if ask and values["email"] is None and values["github"] is None:
        values["github"] = click.prompt("GitHub handle", default="", show_default=False) or None
    need("kind", "Agent kind", type=click.Choice(["litellm", "http", "builtin"]))
    kind = values.get("kind")
    if kind == "litellm":
        need("model_name", "LiteLLM model string (provider/model)")
        if ask and values["api_key_env"] is None:
            values["api_key_env"] = (
                click.prompt("Env var holding the API key", default="", show_default=False) or None
            )
    elif kind == "http":
        need("endpoint", "HTTPS endpoint")
    elif kind == "builtin":
        need("builtin", "Built-in baseline", type=click.Choice(["oracle", "heuristic", "random"]))
    if ask and kind != "builtin" and values["training_cutoff"] is None:
        values["training_cutoff"] = (
            click.prompt("Training cutoff (YYYY-MM-DD, blank if unknown)", default="") or None
        )
    if missing:
        raise click.UsageError(f"missing {', '.join(missing)} (or run in a terminal to be asked)")
    answers = ScaffoldAnswers(
        slug=values["slug"],
        display_name=values["display_name"],
        contact_name=values["contact_name"],
        kind=values["kind"],
        organization=values["organization"] or "",
        email=values["email"],
        github=values["github"],
        model=values["model_name"],
        api_base=values["api_base"],
        api_key_env=values["api_key_env"],
        endpoint=values["endpoint"],
        builtin=values["builtin"],
        trials=values["trials"],
        track=values["track"],
        notes=values["notes"],
        release_date=values["release_date"],
        training_cutoff=values["training_cutoff"],
        open_weights=values["open_weights"],
    )
    file = scaffold_submission(submissions_dir, answers)
    click.echo(f"wrote {file}")
    click.echo(
        f"next: taurec submission check {file.parent} && taurec submission smoke {file.parent}"
    )


@group.command("smoke")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option(
    "--changed-files",
    metavar="FILE",
    help="Also smoke-run the folders these paths touch ('-' = stdin), as the PR check does.",
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
    """Check, then run each submission offline on a few tasks; print a markdown summary.

    LiteLLM entries are pointed at the local model server and http entries at a local stand-in,
    with the scripted simulator: no keys and no network. Exit 1 if any entry fails.
    """
    from runner.submission import changed_submission_dirs
    from runner.submission_smoke import smoke_submissions

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
    text = report.markdown()
    click.echo(text)
    for entry in report.entries:
        for problem in entry.problems:
            click.echo(str(problem), err=True)
    if summary is not None:
        with summary.open("a", encoding="utf-8") as out:
            out.write(text)
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
    from runner.keys import entry_environment, entry_secret_names
    from runner.submission import load_submission

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
