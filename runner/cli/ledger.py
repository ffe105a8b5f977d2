"""`taurec ledger archive|record|check`: the refresh workflow's ledger of the runs it produced."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from runner.cli._options import folders_argument
from runner.core.cli_flags import folder_option
from runner.publish.ledger import LEDGER_PATH

results_dirs_argument = folders_argument("results_dirs")
ledger_option = click.option(
    "--ledger",
    type=click.Path(dir_okay=False, path_type=Path),
    default=LEDGER_PATH,
    show_default="submissions/ledger.jsonl",
    help="The ledger file.",
)
# `ledger check` exit codes: 0 all verified, 1 some not verified, 3 none refused but some
# attestation could not be checked here (no gh, no network, no login).
NOT_CHECKED_EXIT = 3


@click.group()
def group() -> None:
    """The ledger of runs the refresh workflow produced (what the site calls verified)."""


@group.command("archive")
@results_dirs_argument
@folder_option(
    "--out",
    text="Folder to write <slug>--<folder>.tar into (what the workflow attests).",
    required=True,
)
def archive_command(results_dirs: tuple[Path, ...], out: Path) -> None:
    """Pack each results folder into a tar anyone can rebuild byte for byte from its files."""
    from runner.publish.ledger import write_archives

    for path, digest in write_archives(list(results_dirs), out):
        click.echo(f"{path}  sha256 {digest}")


@group.command("record")
@results_dirs_argument
@ledger_option
@click.option(
    "--attestation-url",
    envvar="TAUREC_ATTESTATION_URL",
    help="The attest job's attestation-url output (env TAUREC_ATTESTATION_URL); required.",
)
@click.option(
    "--archives",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="Folder of the attested archives; each must equal the folder's rebuilt archive.",
)
def record_command(
    results_dirs: tuple[Path, ...], ledger: Path, attestation_url: str | None, archives: Path | None
) -> None:
    """Append each results folder with its digests and attestation; refused outside a GitHub
    Actions run, without an attestation URL, or for a path reached through a link."""
    from runner.publish.ledger import record_runs

    entries = record_runs(
        list(results_dirs), ledger, attestation_url=attestation_url, archives=archives
    )
    for entry in entries:
        click.echo(f"recorded {entry.submission} @ {entry.snapshot}  {entry.results_sha256[:16]}…")


@group.command("check")
@folders_argument("results_dirs", required=False)
@ledger_option
@click.option(
    "--repo",
    help="OWNER/REPO whose refresh workflow must have signed (default: the one the attestation "
    "names; pass the leaderboard's own to trust nothing in the ledger).",
)
@click.option(
    "--vouched",
    "vouched_in",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="Also check every results folder under this submissions folder that the ledger vouches "
    "for (what the site would show as verified).",
)
def check_command(
    results_dirs: tuple[Path, ...], ledger: Path, repo: str | None, vouched_in: Path | None
) -> None:
    """Say which results folders the ledger vouches for as they are now, with `gh attestation
    verify` on each rebuilt archive. Exit 1 if any is not verified, 3 if the rest hold but some
    attestation could not be checked here (no gh, no network); a linked path is refused."""
    from runner.publish.ledger import check_run, load_ledger, vouched_folders

    entries = load_ledger(ledger)
    folders = list(results_dirs)
    if vouched_in is not None:
        folders += [f for f in vouched_folders(vouched_in, entries) if f not in folders]
    elif not folders:
        raise click.UsageError("give one or more results folders, or --vouched SUBMISSIONS_DIR")
    if not folders:
        click.echo(f"no results folder under {vouched_in} is vouched for by {ledger}")
    outcomes = set()
    for folder in folders:
        found = check_run(folder, entries, repo)
        outcomes.add(found.outcome)
        label = "NOT verified" if found.outcome == "not verified" else found.outcome
        click.echo(f"{folder}: {label} ({found.detail})")
    if "not verified" in outcomes:
        sys.exit(1)
    if "attestation not checked" in outcomes:
        sys.exit(NOT_CHECKED_EXIT)
