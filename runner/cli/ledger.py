"""`taurec ledger record|check`: the refresh workflow's ledger of the runs it produced."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from runner.publish.ledger import LEDGER_PATH

results_dirs_argument = click.argument(
    "results_dirs",
    nargs=-1,
    required=True,
    type=click.Path(exists=True, file_okay=False, path_type=Path),
)
ledger_option = click.option(
    "--ledger",
    type=click.Path(dir_okay=False, path_type=Path),
    default=LEDGER_PATH,
    show_default="submissions/ledger.jsonl",
    help="The ledger file.",
)


@click.group()
def group() -> None:
    """The ledger of runs the refresh workflow produced (what the site calls verified)."""


@group.command("record")
@results_dirs_argument
@ledger_option
def record_command(results_dirs: tuple[Path, ...], ledger: Path) -> None:
    """Append each results folder with its digests; refused outside a GitHub Actions run."""
    from runner.publish.ledger import record_runs

    for entry in record_runs(list(results_dirs), ledger):
        click.echo(f"recorded {entry.submission} @ {entry.snapshot}  {entry.results_sha256[:16]}…")


@group.command("check")
@results_dirs_argument
@ledger_option
def check_command(results_dirs: tuple[Path, ...], ledger: Path) -> None:
    """Say which results folders the ledger vouches for as they are now; exit 1 if any is not."""
    from runner.batch.store import read_manifest
    from runner.publish.ledger import load_ledger, verified_entry

    entries = load_ledger(ledger)
    missing = False
    for folder in results_dirs:
        found = verified_entry(folder, read_manifest(folder), entries)
        if found is None:
            missing = True
            click.echo(f"{folder}: NOT verified (no ledger entry with these digests)")
        else:
            click.echo(f"{folder}: verified by {found.workflow_run}")
    if missing:
        sys.exit(1)
