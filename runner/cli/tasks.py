"""`taurec tasks …`: check a domain's task suite against a catalog (the domain's `Domain` hooks do the work)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import TYPE_CHECKING

import click

from runner.cli._options import catalog_option, domain_option, tasks_option
from runner.core.cli_flags import count_option, folder_option

if TYPE_CHECKING:
    from runner.core.domain import Domain
    from runner.core.suite_report import SuiteReport


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
@folder_option(
    "--snapshots-dir",
    text="Folder holding the dated snapshot folders (with --snapshot).",
    show_default="the domain's (movies: catalog_pipeline/snapshots)",
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
    owner = _domain(domain, tasks_dir)
    if snapshot_date is not None:
        if catalog_path is not None:
            raise click.UsageError("give either --catalog or --snapshot, not both")
        report = owner.revalidation_report(snapshot_date.date(), tasks_dir, snapshots_dir)
    else:
        report = owner.validate_suite(catalog_path, tasks_dir)
    _print(report, as_json)


def _domain(name: str | None, tasks_dir: Path | None) -> Domain:
    """The domain named, else the one the suite folder names (movies by default)."""
    from runner.batch.inputs import domain_of_suite
    from runner.core.domains import DEFAULT_DOMAIN, get_domain

    if name is not None:
        return get_domain(name)
    return domain_of_suite(tasks_dir) if tasks_dir is not None else get_domain(DEFAULT_DOMAIN)


def _print(report: SuiteReport, as_json: bool) -> None:
    """Print a suite check as text or JSON, its failures on stderr; exit 1 unless it passed."""
    if as_json and report.json is None:
        raise click.UsageError("this check has no JSON form in this domain")
    click.echo(report.json if as_json and report.json is not None else report.text, nl=False)
    if not report.ok:
        for line in report.failures:
            click.echo(line, err=True)
        raise click.exceptions.Exit(1)


@group.command("stats")
@tasks_option
@click.option("--json", "as_json", is_flag=True, help="Print the statistics as JSON.")
@domain_option
def stats(tasks_dir: Path | None, as_json: bool, domain: str | None) -> None:
    """Print the suite's stratification grid, NVR count, policy coverage and fields used."""
    _print(_domain(domain, tasks_dir).suite_stats(tasks_dir), as_json)


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
@count_option(
    "--informed-seeds",
    "Also play the informed agent (told which fields matter, not their values) on trials "
    "0..N-1 of run seed 0 and require it to win each (0: skip).",
    default=4,
    low=0,
)
@click.option("--json", "as_json", is_flag=True, help="Print every figure and check as JSON.")
@domain_option
def audit(
    snapshot: str | None,
    tasks_dir: Path | None,
    informed_seeds: int,
    as_json: bool,
    domain: str | None,
) -> None:
    """Measure each task's difficulty and judge it by the gate; exit 1 if any task fails."""
    report = _domain(domain, tasks_dir).audit_suite(snapshot, tasks_dir, informed_seeds)
    _print(report, as_json)


@group.command("generate")
@click.option("--domain", required=True, metavar="NAME", help="The domain whose suite to draw.")
@count_option(
    "--seed", "The generation seed (same snapshot and seed: a byte-identical folder).", low=0
)
@folder_option(
    "--out",
    "out_dir",
    text="Folder to write (task files, policy.md, suite.json); created if missing.",
    required=True,
)
@click.option(
    "--snapshot",
    default=None,
    metavar="DATE|PATH",
    help="A committed snapshot date, a snapshot folder or a catalog.json (default: the "
    "domain's latest committed snapshot).",
)
@count_option(
    "--count", "How many tasks (default: the domain's full suite: 60 for movies, 120 for grocery)."
)
@click.option(
    "--secret-env",
    metavar="VAR",
    default=None,
    help="Derive the seed from the secret in this environment variable and the snapshot's "
    "date (HMAC-SHA256; instead of --seed), as the board's private test split is drawn.",
)
@click.option(
    "--split",
    type=click.Choice(["test", "dev"]),
    default="test",
    show_default=True,
    help="test: every paraphrase of the wording grammar; dev: none of its held-back share.",
)
def generate(
    domain: str,
    seed: int | None,
    out_dir: Path,
    snapshot: str | None,
    count: int | None,
    secret_env: str | None,
    split: str,
) -> None:
    """Draw a task suite from a snapshot and a seed; every task passes the gate.

    Writes a folder that `taurec eval --suite`, `taurec run --tasks` and `taurec tasks audit
    --tasks` accept as they accept tasks/. Task and user ids are opaque (keyed by the seed)."""
    from runner.batch.generate import generate_suite

    if (seed is None) == (secret_env is None):
        raise click.UsageError("give exactly one of --seed and --secret-env")
    result = generate_suite(
        domain,
        snapshot,
        seed,
        out_dir,
        count,
        "dev" if split == "dev" else "test",
        secret_env=secret_env,
    )
    for line in result.gate:
        click.echo(line)
    click.echo(f"wrote {result.tasks} tasks to {result.out_dir}")
