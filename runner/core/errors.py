"""Error types that name the file, field and value of what went wrong."""

from __future__ import annotations

import errno
from pathlib import Path

from pydantic import ValidationError


class TaurecError(Exception):
    """Base class of every error τ-Rec raises on purpose (the CLI prints these without a traceback)."""


class LoadError(TaurecError):
    """A file that crosses a boundary (task, catalog, config, record) did not load."""

    def __init__(self, path: Path | str, problems: list[str]) -> None:
        self.path = str(path)
        self.problems = problems
        joined = "\n".join(f"  - {p}" for p in problems)
        super().__init__(f"{self.path}: {len(problems)} problem(s)\n{joined}")

    def __reduce__(self) -> tuple[type[LoadError], tuple[str, list[str]]]:
        # Rebuilt from its own fields, so it crosses a process pool as itself (the default
        # would call LoadError(message) and break the pool instead).
        return (type(self), (self.path, self.problems))

    def one_line(self) -> str:
        """`file: problem` when there is one problem, else the full message."""
        if len(self.problems) == 1 and "\n" not in self.problems[0]:
            return f"{self.path}: {self.problems[0]}"
        return str(self)


class InfraFailure(TaurecError):
    """A model or endpoint call failed after the retry policy gave up: the trial is an infra error."""

    def __init__(self, kind: str, message: str) -> None:
        self.kind = kind
        self.message = message
        super().__init__(f"{kind}: {message}")


class AgentFailure(TaurecError):
    """The submitter's own endpoint failed (status, malformed reply, timeout, a bound) after the
    retry policy gave up: the agent failed the trial (scored 0, stop reason `agent_error`)."""

    def __init__(self, kind: str, message: str) -> None:
        self.kind = kind
        self.message = message
        super().__init__(f"{kind}: {message}")


# A full disk, a full quota, or a file past the process's size limit (RLIMIT_FSIZE).
DISK_FULL_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})


def is_disk_full(error: BaseException) -> bool:
    """Whether an error is the disk (or a size limit) refusing more bytes."""
    return isinstance(error, OSError) and error.errno in DISK_FULL_ERRNOS


def describe_disk_full(error: OSError) -> str:
    """One line: what could not be written, and why (`No space left on device`)."""
    where = f" writing {error.filename}" if error.filename else ""
    return f"disk full{where}: {error.strerror or error}"


def describe_validation_error(error: ValidationError, prefix: str = "") -> list[str]:
    """One readable line per pydantic error: `field.path: message (got: value)`."""
    lines = []
    for item in error.errors():
        where = ".".join(str(p) for p in item["loc"]) or "(root)"
        value = item.get("input")
        shown = repr(value)
        if len(shown) > 80:
            shown = shown[:77] + "..."
        lines.append(f"{prefix}{where}: {item['msg']} (got: {shown})")
    return lines
