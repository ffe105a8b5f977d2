"""`taurec leaderboard`: the whole offline pipeline in one command (what `make leaderboard` runs)."""

from __future__ import annotations

from pathlib import Path

import click

from runner.cli._options import board_option
from runner.core.cli_flags import count_option
from runner.publish.leaderboard import DEFAULT_DATE, DEFAULT_SOURCE, STEPS


@click.command()
@click.option(
    "--source",
    type=click.Choice(["fixture", "tmdb"]),
    default=DEFAULT_SOURCE,
    show_default=True,
    help="Where the catalog snapshot comes from (tmdb needs TMDB_API_TOKEN or TMDB_API_KEY).",
)
@click.option("--date", default=DEFAULT_DATE, show_default=True, help="Snapshot date.")
@click.option(
    "--steps",
    default=",".join(STEPS),
    show_default=True,
    help="Comma-separated subset of the steps to run, in pipeline order.",
)
@count_option("--concurrency", "Trials at once.", default=16)
@click.option(
    "--fresh",
    is_flag=True,
    help="Set earlier results for this snapshot aside (results/.replaced/) and run everything again.",
)
@click.option(
    "--domain",
    "domains",
    multiple=True,
    help="Only this domain's board (repeatable) [default: every domain of leaderboard.yaml].",
)
@click.option(
    "--entry",
    "entries",
    multiple=True,
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="Only this submission folder (repeatable); a test split keeps its figures of the others.",
)
@click.option(
    "--max-cost",
    type=click.FloatRange(min=0),
    default=None,
    help="Budget in USD of each entry's run (default: the board's).",
)
@board_option
def command(
    source: str,
    date: str,
    steps: str,
    concurrency: int,
    fresh: bool,
    domains: tuple[str, ...],
    entries: tuple[Path, ...],
    max_cost: float | None,
    board_path: Path | None,
) -> None:
    """Build the leaderboard offline: for each domain of the board, its fixture snapshot, the
    revalidation of its suite and a run of every submission entering it; then one site with a
    board per domain.

    Resumable: finished trials are reused, so a second run takes a fraction of the time.
    """
    from runner.core.board import board_settings
    from runner.core.domains import registered_domains
    from runner.publish.leaderboard import build_leaderboard

    board, board_file = board_settings(board_path)
    if domains:
        try:
            chosen_domains = registered_domains(list(domains))
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--domain") from None
        board = board.model_copy(update={"domains": chosen_domains})
    chosen = [s.strip() for s in steps.split(",") if s.strip()]
    result = build_leaderboard(
        source=source,
        date=date,
        steps=chosen,
        concurrency=concurrency,
        fresh=fresh,
        echo=click.echo,
        board=board,
        board_file=board_file,
        entries=entries,
        max_cost=max_cost,
    )
    click.echo(f"done in {result.total_seconds:.1f} s")
    if result.index_html is not None:
        click.echo(f"open {result.index_html} in a browser, or run `make serve`")
