"""`taurec run` and `taurec merge`: parse options, call `runner.batch`, print the summary."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from runner.cli._options import folders_argument, run_settings_options
from runner.core.cli_flags import count_option, folder_option

if TYPE_CHECKING:
    from runner.core.board import BoardSettings, RunSettings


@click.command("run")
@folders_argument("submission_dirs")
@click.option(
    "--snapshot",
    default=None,
    help="A snapshot date (catalog_pipeline/snapshots/<DATE>/), a snapshot folder, or a "
    "catalog.json. Default: the latest dated snapshot.",
)
@click.option(
    "--tasks",
    "tasks_dir",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    default=None,
    help="Task folder (default: the board's suite). The policy is policy.md in it, else beside it.",
)
@count_option("--trials", "Trials per task (default: the submission's `trials`).")
@count_option("--concurrency", "Trials running at once, across all submissions.", default=16)
@count_option(
    "--workers",
    "Processes to spread the trials over (this one and helpers); --concurrency is shared "
    "between them. One results folder, one progress bar; 1 runs everything in this process.",
    default=os.cpu_count() or 1,
    show_default="the machine's cores",
)
@click.option(
    "--shard",
    default=None,
    metavar="I/N",
    help="Run only shard I of N (1-based) of the (task, trial) keys.",
)
@run_settings_options(suite="tasks_dir")
@click.option(
    "--preflight/--no-preflight",
    default=True,
    show_default=True,
    help="Before scheduling, check each model entry's key variable and make one real request; "
    "on failure print the provider's message and exit without running a trial.",
)
@click.option(
    "--for-board",
    is_flag=True,
    help="A run for the leaderboard (the refresh workflow): refuse fewer trials per task than "
    "the board's `trials`.",
)
@click.option(
    "--fresh",
    is_flag=True,
    help="Move existing results for this snapshot to results/.replaced/ and start over.",
)
@folder_option(
    "--out",
    text="Write to OUT/<slug>/results/<snapshot>/ instead of beside each submission.",
)
def command(
    submission_dirs: tuple[Path, ...],
    settings: RunSettings,
    board: BoardSettings,
    trials: int | None,
    concurrency: int,
    workers: int,
    shard: str | None,
    seed: int,
    preflight: bool,
    for_board: bool,
    fresh: bool,
    out: Path | None,
) -> None:
    """Run every task × trial of each SUBMISSION_DIR against one snapshot (resumable).

    Results: <submission>/results/<snapshot>/ with trials.jsonl, run.json and
    transcripts/archive.jsonl.gz (one gzip member per trial; each record holds its span).
    Re-running the same command resumes: recorded trials are kept, infra errors are retried.
    A trial counted in the progress output is already on disk (even a kill -9 loses none).
    """
    from runner.batch import run_submissions
    from runner.batch.progress import default_progress
    from runner.batch.report import format_summary, one_line

    results = run_submissions(
        list(submission_dirs),
        snapshot=settings.snapshot,
        tasks_dir=settings.tasks_dir,
        **settings.run_args(),
        trials=trials,
        concurrency=concurrency,
        workers=workers,
        shard=shard,
        seed=seed,
        fresh=fresh,
        preflight=preflight,
        min_trials=board.trials if for_board else None,
        out=out,
        progress=default_progress(),
    )
    full = next((r for r in results if r.manifest.status == "disk_full"), None)
    if full is not None:
        click.echo(
            f"error: {full.manifest.error} (run.json says disk_full; free space and re-run to resume)",
            err=True,
        )
        sys.exit(1)
    if any(r.manifest.status == "interrupted" for r in results):
        click.echo(f"interrupted: {one_line(results)}")
        sys.exit(130)
    click.echo(format_summary(results))
    if any(r.manifest.status == "budget_exhausted" for r in results):
        click.echo("stopped: the --max-cost budget was reached (re-run to continue)")
    unscored = [
        r for r in results if r.manifest.counts.infra_error and not r.manifest.counts.scored
    ]
    for r in unscored:
        first = r.tally.first_error
        cause = f" (first: {first.kind}: {first.message})" if first else ""
        click.echo(f"error: every trial of {r.submission} ended in an infra error{cause}", err=True)
    if unscored:
        sys.exit(1)


@click.command("merge")
@folders_argument("shard_dirs")
@folder_option(
    "--out",
    text="The merged results folder (e.g. submissions/<slug>/results/<snapshot>).",
    required=True,
)
def merge_command(shard_dirs: tuple[Path, ...], out: Path) -> None:
    """Merge results folders of `taurec run --shard I/N` into one; exit 1 if keys are missing."""
    from runner.batch import merge_shards

    report = merge_shards(list(shard_dirs), out)
    click.echo(report.describe())
    if not report.complete:
        sys.exit(1)
