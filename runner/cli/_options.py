"""Click options shared by several commands (one definition of each shared flag)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from runner.core.cli_flags import F, count_option


def folders_argument(name: str, *, required: bool = True) -> Callable[[F], F]:
    """One or more existing folders (results, submissions, shards) as the command's arguments."""
    return click.argument(
        name,
        nargs=-1,
        required=required,
        type=click.Path(exists=True, file_okay=False, path_type=Path),
    )


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

rules_option = click.option(
    "--rules",
    type=click.Choice(["v1", "v2"]),
    default=None,
    help="Rule set of the loop, tools and scorer: v1 = the published evaluator, loop and tools "
    "(with the few differences the Methodology page lists), v2 = ours (differences on the same "
    "page). Default: the board's, else v2.",
)

snapshot_spec_option = click.option(
    "--catalog",
    "catalog",
    default=None,
    metavar="DATE|PATH",
    help="A snapshot date (catalog_pipeline/snapshots/<DATE>/), a snapshot folder or a "
    "catalog.json. Default: the snapshot each transcript names (the latest for transcripts "
    "that name none). Digests must match.",
)

board_option = click.option(
    "--board",
    "board_path",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="Board settings (suite, simulator, trials, max turns, budget); default: the nearest "
    "leaderboard.yaml up from the current directory, else the built-in defaults. Flags override it.",
)

simulator_option = click.option(
    "--simulator",
    default=None,
    help="User simulator: scripted or litellm:<model> (default: the board's).",
)

seed_option = click.option("--seed", type=int, default=0, show_default=True, help="Run seed.")

max_turns_option = count_option(
    "--max-turns", "Turn limit per trial (default: the board's, 20 unless it says otherwise)."
)

step_timeout_option = click.option(
    "--step-timeout",
    "step_timeout_s",
    type=click.FloatRange(min=0, min_open=True),
    default=None,
    metavar="SECONDS",
    help="How long one step of a Python agent may take before the trial fails as the agent's "
    "(default: the board's, 300 unless it says otherwise).",
)

max_cost_option = click.option(
    "--max-cost",
    type=click.FloatRange(min=0),
    default=None,
    metavar="USD",
    help="Stop scheduling new trials once this much has been spent; each entry of the run gets an "
    "equal share, so one entry's costs never spend another's (default: the board's budget).",
)

domain_option = click.option(
    "--domain",
    default=None,
    metavar="NAME",
    help="The domain to run (movies, grocery, or any registered one); its shipped suite and "
    "snapshots are the defaults. Default: the suite folder's suite.json, else the board's first.",
)

strictness_option = click.option(
    "--strictness",
    type=click.Choice(["low", "medium", "high"]),
    default=None,
    help="Which policy severities fail a trial: high = every one, medium = critical and high, "
    "low = critical only; the others only lower the severity-weighted policy score. Default: "
    "the board's, else high.",
)


# The flags of a run that the board file sets (`runner.core.board.merge_flags`), in help order.
_BOARD_FLAGS = (
    max_cost_option,
    simulator_option,
    seed_option,
    max_turns_option,
    step_timeout_option,
    board_option,
    rules_option,
    domain_option,
    strictness_option,
)
_MERGED = ("simulator", "max_turns", "max_cost", "rules", "step_timeout_s", "domain", "strictness")


def run_settings_options(suite: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The board flags of a run (`--max-cost` … `--strictness`, `--seed` among them), read with
    the board file into one `settings` (a `RunSettings`) and `board` (its `BoardSettings`) for
    the command; `suite` names the command's suite parameter (read with `snapshot`)."""

    def decorate(command: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(command)
        def with_settings(**params: Any) -> Any:
            from runner.core.board import board_settings, merge_flags

            board, board_file = board_settings(params.pop("board_path"))
            flags = {name: params.pop(name) for name in _MERGED}
            params["settings"] = merge_flags(
                board, board_file, suite=params.pop(suite), snapshot=params.pop("snapshot"), **flags
            )
            return command(board=board, **params)

        for option in reversed(_BOARD_FLAGS):
            with_settings = option(with_settings)
        return with_settings

    return decorate
