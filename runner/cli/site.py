"""`taurec site build` and `taurec site serve`: build the static leaderboard site and look at it locally."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from runner.cli._options import board_option
from runner.core.cli_flags import count_option
from runner.core.paths import PUBLIC_DIR, SNAPSHOTS_DIR, SUBMISSIONS_DIR, TASKS_DIR

F = TypeVar("F", bound=Callable[..., Any])


def _folder_option(flag: str, default: Path, text: str) -> Callable[[F], F]:
    return click.option(
        flag, type=click.Path(path_type=Path), default=default, show_default=True, help=text
    )


def _limit_option(flag: str, text: str) -> Callable[[F], F]:
    """A positive size limit whose default the build picks (and its help names)."""
    return click.option(flag, type=click.FloatRange(min=0, min_open=True), default=None, help=text)


@click.group(name="site")
def group() -> None:
    """Build and serve the static leaderboard site."""


@group.command()
@_folder_option(
    "--submissions", SUBMISSIONS_DIR, "Folder of submissions/<slug>/ with their results."
)
@_folder_option("--snapshots", SNAPSHOTS_DIR, "Folder of dated catalog snapshots.")
@_folder_option("--tasks", TASKS_DIR, "Folder of task files.")
@_folder_option("--out", PUBLIC_DIR, "Where the built site goes (replaced).")
@click.option("--seed", type=int, default=0, show_default=True, help="Bootstrap seed.")
@click.option(
    "--site-url",
    envvar="TAUREC_SITE_URL",
    default=None,
    help="Public address of the site (https://OWNER.github.io/REPO/), for the 404 page and "
    "sitemap [env TAUREC_SITE_URL].",
)
@_limit_option(
    "--max-size-mb",
    "Fail the build when OUT is larger than this many MB [default: the budget the size "
    "report prints, under GitHub Pages' 1 GB limit].",
)
@_limit_option(
    "--max-run-kb-per-trial",
    "Leave off the boards (with the reason on its entry page) any run whose trial pages "
    "and downloads, as published, hold more than this many KB per trial [default: 512].",
)
@_limit_option(
    "--max-entry-mb",
    "Leave off an entry's biggest runs (with the reason on its page) until what it "
    "publishes, whatever its trial count, fits in this many MB [default: 100].",
)
@count_option(
    "--workers", "Processes rendering the trial pages and downloads [default: one per core]."
)
@board_option
def build(
    submissions: Path,
    snapshots: Path,
    tasks: Path,
    out: Path,
    seed: int,
    site_url: str | None,
    max_size_mb: float | None,
    max_run_kb_per_trial: float | None,
    max_entry_mb: float | None,
    workers: int | None,
    board_path: Path | None,
) -> None:
    """Aggregate results, render the pages and run `mkdocs build --strict` into OUT."""
    from runner.core.board import board_settings
    from runner.core.paths import SPLITS_DIR
    from runner.sitegen import build_site
    from runner.sitegen.bounds import (
        DEFAULT_BUDGET_MB,
        DEFAULT_ENTRY_BUDGET_MB,
        DEFAULT_RUN_BUDGET_KB_PER_TRIAL,
    )

    board, _ = board_settings(board_path)
    report = build_site(
        submissions=submissions,
        snapshots=snapshots,
        tasks=tasks,
        out=out,
        seed=seed,
        board=board,
        site_url=site_url,
        max_size_mb=DEFAULT_BUDGET_MB if max_size_mb is None else max_size_mb,
        max_run_kb_per_trial=DEFAULT_RUN_BUDGET_KB_PER_TRIAL
        if max_run_kb_per_trial is None
        else max_run_kb_per_trial,
        max_entry_mb=DEFAULT_ENTRY_BUDGET_MB if max_entry_mb is None else max_entry_mb,
        workers=workers,
        splits_root=SPLITS_DIR,
    )
    for note in report.notes:
        click.echo(f"note: {note}", err=True)
    click.echo(report.summary())


@group.command()
@click.option(
    "--dir",
    "folder",
    type=click.Path(path_type=Path),
    default=PUBLIC_DIR,
    show_default=True,
    help="The built site.",
)
@click.option(
    "--port",
    type=int,
    default=0,
    show_default=True,
    help="Port on 127.0.0.1; 0 = any free port (the URL is printed).",
)
def serve(folder: Path, port: int) -> None:
    """Serve the built site on http://127.0.0.1:PORT/ until interrupted."""
    from runner.sitegen.serve import make_server

    server = make_server(folder, port, quiet=False)
    click.echo(f"serving {folder} on http://127.0.0.1:{server.server_address[1]}/ (Ctrl-C stops)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
