"""`taurec tasks …`: check the task suite against a catalog (the library in domains.movies.validate does the work)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import click

from runner.cli._options import catalog_option, domain_option, tasks_option
from runner.core.paths import SNAPSHOTS_DIR


@click.group()
def group() -> None:
    """Work with the task suite."""


@group.command("validate")
@catalog_option
@tasks_option
@click.option("--json", "as_json", is_flag=True, help="Print the per-task solution sets as JSON.")
@click.option(
    "--snapshot",
    "snapshot_date",
    type=click.DateTime(["%Y-%m-%d"]),
    default=None,
    help="Revalidate this dated snapshot: write its solvability.json and report the tasks whose "
    "status changed since the previous snapshot.",
)
@click.option(
    "--snapshots-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    show_default="the domain's (movies: catalog_pipeline/snapshots)",
    help="Folder holding the dated snapshot folders (with --snapshot).",
)
@domain_option
def validate(
    catalog_path: Path | None,
    tasks_dir: Path | None,
    as_json: bool,
    snapshot_date: dt.datetime | None,
    snapshots_dir: Path | None,
    domain: str | None,
) -> None:
    """List each task's constraint, reachable and winning solutions; fail on any inconsistency.

    With --domain other than movies, revalidate that domain's suite on --snapshot with its own
    difficulty gate."""
    if domain is not None and domain != "movies":
        from runner.core.domains import get_domain

        owner = get_domain(domain)
        if snapshot_date is None or catalog_path is not None or as_json:
            raise click.UsageError(f"--domain {domain} revalidates a dated --snapshot (only)")
        ok, detail = owner.revalidate(
            snapshot_date.date().isoformat(),
            tasks_dir or owner.tasks_dir,
            snapshots_dir or owner.snapshots_dir,
        )
        click.echo(detail)
        if not ok:
            raise click.exceptions.Exit(1)
        return
    snapshots_dir = snapshots_dir or SNAPSHOTS_DIR
    if snapshot_date is not None:
        if catalog_path is not None:
            raise click.UsageError("give either --catalog or --snapshot, not both")
        from domains.movies.suite import revalidate_snapshot

        result = revalidate_snapshot(
            snapshot_date.date(), tasks_dir=tasks_dir, snapshots_dir=snapshots_dir
        )
        click.echo(result.to_json_bytes().decode() if as_json else result.format_text(), nl=False)
        if not result.ok:
            raise click.exceptions.Exit(1)
        return

    from domains.movies.validate import validate_suite

    report = validate_suite(catalog_path, tasks_dir)
    click.echo(report.to_json_summary() if as_json else report.format_text(), nl=False)
    if not report.ok:
        for task in report.inconsistent:
            click.echo(f"inconsistent task {task.task_id}: {task.reason}", err=True)
        raise click.exceptions.Exit(1)


@group.command("stats")
@tasks_option
@click.option("--json", "as_json", is_flag=True, help="Print the statistics as JSON.")
def stats(tasks_dir: Path | None, as_json: bool) -> None:
    """Print the suite's stratification grid, NVR count, policy coverage and fields used."""
    from domains.movies.suite import load_suite_stats

    result = load_suite_stats(tasks_dir)
    click.echo(
        result.model_dump_json(indent=2) if as_json else result.format_text(), nl=not as_json
    )


@group.command("audit")
@click.option(
    "--snapshot",
    "snapshot",
    metavar="DATE|PATH",
    default=None,
    help="A committed snapshot date (YYYY-MM-DD), a snapshot folder or a catalog.json "
    "(default: the latest committed snapshot).",
)
@tasks_option
@click.option(
    "--informed-seeds",
    type=click.IntRange(min=0),
    default=4,
    show_default=True,
    help="Also play the informed agent (told which fields matter, not their values) on trials "
    "0..N-1 of run seed 0 and require it to win each (0: skip).",
)
@click.option("--json", "as_json", is_flag=True, help="Print every figure and check as JSON.")
def audit(snapshot: str | None, tasks_dir: Path | None, informed_seeds: int, as_json: bool) -> None:
    """Measure each task's difficulty and judge it by the gate; exit 1 if any task fails."""
    from domains.movies.audit import run_audit

    result = run_audit(snapshot, tasks_dir, informed_seeds=informed_seeds)
    click.echo(result.to_json() if as_json else result.format_text(), nl=False)
    if not result.ok:
        for task in result.failed:
            rules = ", ".join(c.rule for c in task.failed_checks)
            click.echo(f"task {task.task_id} fails the gate: {rules}", err=True)
        raise click.exceptions.Exit(1)
