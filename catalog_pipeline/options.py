"""The command-line options every source's `taurec catalog refresh` shares: where from, which day, how many."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from runner.core.cli_flags import folder_option

F = TypeVar("F", bound=Callable[..., Any])

DATE = click.DateTime(formats=["%Y-%m-%d"])


def day(value: dt.datetime | None) -> dt.date | None:
    """A `DATE` option's value as a date (None stays None)."""
    return value.date() if value is not None else None


def refresh_options(sources: list[str], source_help: str, limit_help: str) -> Callable[[F], F]:
    """`--source` (one of `sources`, default the offline fixture world), `--date` and `--limit`."""

    def decorate(command: F) -> F:
        command = click.option(
            "--limit", type=click.IntRange(min=1), default=None, help=limit_help
        )(command)
        command = click.option(
            "--date", "date", type=DATE, default=None, help="Snapshot date [default: today, UTC]."
        )(command)
        return click.option(
            "--source",
            type=click.Choice(sources),
            default="fixture",
            show_default=True,
            help=source_help,
        )(command)

    return decorate


def out_option(default: Path) -> Callable[[F], F]:
    """`--out`: the folder holding the source's dated snapshot folders."""
    return folder_option(
        "--out",
        text="Folder holding the dated snapshot folders.",
        default=default,
    )
