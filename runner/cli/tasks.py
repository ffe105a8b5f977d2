"""`taurec tasks …`: check the task suite against a catalog (the library in runner.validate does the work)."""

from __future__ import annotations

from pathlib import Path

import click


@click.group()
def group() -> None:
    """Work with the task suite."""


@group.command("validate")
@click.option(
    "--catalog",
    "catalog_path",
    type=click.Path(exists=True, path_type=Path),
    default=None,
    help="Snapshot folder or catalog.json (default: the latest committed snapshot).",
)
@click.option(
    "--tasks",
    "tasks_dir",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    default=None,
    help="Folder of task JSON files (default: tasks/ in the project).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the per-task solution sets as JSON.")
def validate(catalog_path: Path | None, tasks_dir: Path | None, as_json: bool) -> None:
    """List each task's constraint, reachable and winning solutions; fail on any inconsistency."""
    from runner.validate import validate_suite

    report = validate_suite(catalog_path, tasks_dir)
    click.echo(report.to_json_summary() if as_json else report.format_text(), nl=False)
    if not report.ok:
        for task in report.inconsistent:
            click.echo(f"inconsistent task {task.task_id}: {task.reason}", err=True)
        raise click.exceptions.Exit(1)
