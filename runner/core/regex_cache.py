"""Compiled regular expressions kept between processes: the simulated user's large patterns.

`re.compile` parses a pattern and generates the matcher's program every time a process starts;
for the reader's and the vocabulary's patterns (alternations of hundreds of phrases) that is
~0.1 s of every `taurec run`. `compile` here gives the same `re.Pattern` - built by `re`'s own
`_sre.compile` from the same program, so it matches exactly as `re.compile` would and compares
equal to it - but keeps each program in `.taurec-cache/regex/` (git-ignored), in one file per
interpreter and `_sre` version, keyed by the exact pattern text and flags. A process reads that
file once, on its first pattern; the programs it had to build are merged into the file when it
exits (written to a temporary file and renamed, so concurrent processes never see a torn file).

Anything unexpected (no such file, an unreadable or foreign one, an interpreter whose `re`
internals differ, a folder that cannot be written) falls back to plain `re.compile`.
"""

from __future__ import annotations

import atexit
import importlib
import marshal
import os
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

from runner.core.paths import PROJECT_ROOT

__all__ = ["CACHE_DIR", "compile"]

CACHE_DIR = PROJECT_ROOT / ".taurec-cache" / "regex"
# More entries than this and the file starts over (patterns built from data can vary without end).
MAX_ENTRIES = 4096

try:  # re's own internals (private, hence looked up by name; the tag pins their version)
    _sre: Any = importlib.import_module("_sre")
    _compiler: Any = importlib.import_module("re._compiler")
    _parser: Any = importlib.import_module("re._parser")
    _TAG = f"{sys.implementation.cache_tag}-sre{_sre.MAGIC}"
except (ImportError, AttributeError):  # pragma: no cover - another interpreter's re
    _TAG = ""

_Program = tuple[int, list[int], int, dict[str, int], tuple[str | None, ...]]
_Key = tuple[str, int]

_programs: dict[_Key, _Program] | None = None
_new: dict[_Key, _Program] = {}


def _file() -> Path:
    return CACHE_DIR / f"{_TAG}.marshal"


def _read() -> dict[_Key, _Program]:
    try:
        data = marshal.loads(_file().read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    return data if isinstance(data, dict) else {}


def _build(pattern: str, flags: int) -> _Program:
    """What `re._compiler.compile` hands `_sre.compile` for this pattern."""
    parsed = _parser.parse(pattern, flags)
    code = _compiler._code(parsed, flags)
    groupindex = dict(parsed.state.groupdict)
    indexgroup: list[str | None] = [None] * parsed.state.groups
    for name, index in groupindex.items():
        indexgroup[index] = name
    return (
        int(flags | parsed.state.flags),
        [int(op) for op in code],  # opcodes are int subclasses, which marshal does not write
        parsed.state.groups - 1,
        groupindex,
        tuple(indexgroup),
    )


def _pattern(pattern: str, program: _Program) -> re.Pattern[str]:
    flags, code, groups, groupindex, indexgroup = program
    compiled: re.Pattern[str] = _sre.compile(pattern, flags, code, groups, groupindex, indexgroup)
    return compiled


def compile(pattern: str, flags: int = 0) -> re.Pattern[str]:  # re's name, on purpose
    """`re.compile(pattern, flags)`, its program read from the cache when it is there."""
    global _programs
    if not _TAG or flags & re.DEBUG:
        return re.compile(pattern, flags)
    key = (pattern, int(flags))
    try:
        if _programs is None:
            _programs = _read()
            atexit.register(_save)
        program = _programs.get(key)
        if program is not None:
            return _pattern(pattern, program)
        program = _build(pattern, int(flags))
        compiled = _pattern(pattern, program)
    except Exception:  # a foreign file or re's internals changed: plain re
        return re.compile(pattern, flags)
    _programs[key] = _new[key] = program
    return compiled


def _save() -> None:
    """Merge the programs this process built into the file (atomically; best effort)."""
    if not _new:
        return
    try:
        merged = _read()
        if len(merged) + len(_new) > MAX_ENTRIES:
            merged = {}
        merged.update(_new)
        CACHE_DIR.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=CACHE_DIR, prefix=".tmp-", suffix=".marshal")
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(marshal.dumps(merged))
            os.replace(tmp, _file())
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except Exception:  # a cache: never fail the command for it
        pass
    _new.clear()


def _reset_for_tests(programs: dict[Any, Any] | None = None) -> None:
    """Forget what was read (tests point CACHE_DIR elsewhere and read again)."""
    global _programs
    _programs = programs
    _new.clear()
