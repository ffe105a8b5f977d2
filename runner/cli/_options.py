"""Click options shared by several commands (one definition of --catalog and --tasks)."""

from __future__ import annotations

from pathlib import Path

import click

catalog_option = click.option(
    "--catalog",
    "catalog_path",
    type=click.Path(exists=True, path_type=Path),
    default=None,
    help="Snapshot folder or catalog.json (default: the latest committed snapshot).",
)

tasks_option = click.option(
    "--tasks",
    "tasks_dir",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    default=None,
    help="Folder of task JSON files (default: tasks/ in the project).",
)

board_option = click.option(
    "--board",
    "board_path",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="Board settings (suite, simulator, trials, max turns, budget); default: the nearest "
    "leaderboard.yaml up from the current directory, else the built-in defaults. Flags override it.",
)
