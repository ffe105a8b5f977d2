"""`taurec score TRACE…`: re-score stored transcripts (current or v1 trace shape) offline."""

from __future__ import annotations

import json
from pathlib import Path

import click

from runner.cli._options import catalog_option, tasks_option


@click.command()
@click.argument(
    "traces", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path)
)
@catalog_option
@tasks_option
@click.option("--json", "as_json", is_flag=True, help="Print the scores as a JSON list.")
def command(
    traces: tuple[Path, ...], catalog_path: Path | None, tasks_dir: Path | None, as_json: bool
) -> None:
    """Score stored transcripts against a catalog and the task suite (zero LLM calls)."""
    from runner.scoring import score_trace_paths, summary_line

    results = score_trace_paths(list(traces), catalog_path, tasks_dir)
    if as_json:
        click.echo(json.dumps([r.model_dump(mode="json") for r in results], indent=2))
    else:
        for entry in results:
            click.echo(summary_line(entry))
