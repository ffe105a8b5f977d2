"""What a `taurec tasks` check of a domain's suite found, ready to print: verdict, text, JSON, failures."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SuiteReport:
    """One suite check (validate, revalidate, stats, audit) as the command prints it.

    `text` and `json` are printed as they are (each ends with its own newline, if any); `json` is
    None when the check has no JSON form. `failures` are one line each for stderr."""

    ok: bool
    text: str
    json: str | None = None
    failures: tuple[str, ...] = ()
