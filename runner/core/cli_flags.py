"""Click flag builders every command line shares (the runner's commands and the sources')."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])


def count_option(
    flag: str, text: str | None = None, *, default: int | None = None, low: int = 1, **extra: Any
) -> Callable[[F], F]:
    """`flag` takes a whole number of at least `low`; a default other than None is shown in
    --help (`extra`: any other `click.option` setting, e.g. the shown default's wording)."""
    if default is not None:
        extra.setdefault("show_default", True)
    return click.option(flag, type=click.IntRange(min=low), default=default, help=text, **extra)


def folder_option(
    *names: str, text: str | None = None, default: Path | None = None, **extra: Any
) -> Callable[[F], F]:
    """A folder flag (it need not exist yet); a default other than None is shown in --help."""
    if default is not None:
        extra.setdefault("show_default", True)
    return click.option(
        *names,
        type=click.Path(file_okay=False, path_type=Path),
        default=default,
        help=text,
        **extra,
    )
