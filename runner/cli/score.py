"""`taurec score TRACE…` and `taurec verify RESULTS_DIR…`: re-score stored transcripts offline."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from runner.cli._options import folders_argument, snapshot_spec_option, tasks_option


@click.command()
@click.argument(
    "traces", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path)
)
@snapshot_spec_option
@tasks_option
@click.option("--json", "as_json", is_flag=True, help="Print the scores as a JSON list.")
def command(
    traces: tuple[Path, ...], catalog: str | None, tasks_dir: Path | None, as_json: bool
) -> None:
    """Score stored transcripts against their own snapshot and the task suite (zero LLM calls).

    Each TRACE is a transcript file (ours, or a v1 trace) or a run's transcripts/archive.jsonl.gz,
    whose every member is scored (labelled <archive>@<offset>). The domain is the one the --tasks
    folder names in its suite.json (movies by default).
    """
    from runner.publish.rescore import score_traces, summary_line

    results = score_traces(list(traces), catalog, tasks_dir)
    if as_json:
        click.echo(json.dumps([r.model_dump(mode="json") for r in results], indent=2))
    else:
        for entry in results:
            click.echo(summary_line(entry))


@click.command("verify")
@folders_argument("results_dirs")
@snapshot_spec_option
@tasks_option
def verify_command(
    results_dirs: tuple[Path, ...], catalog: str | None, tasks_dir: Path | None
) -> None:
    """Re-score results folders from their transcripts; list every disagreement; exit 1 on any."""
    from runner.publish.rescore import verify_results

    failed = False
    for folder in results_dirs:
        report = verify_results(folder, catalog=catalog, tasks_dir=tasks_dir)
        click.echo(report.describe())
        failed = failed or not report.ok
    if failed:
        sys.exit(1)
