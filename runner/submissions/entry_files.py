"""What an entry folder may hold, and how big: the config, a README, and the results the workflow writes.

An entry is data, never code: anything else (a `.py` at any depth, a 200 MB blob, a stray dot
file) is refused by name. The submitter's own files are bounded per file and together; results
files are bounded per file (the refresh workflow writes them; a pull request may not), and the
whole folder is bounded too. Sizes come
from `lstat`, so a sparse or huge file is never read.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path, PurePosixPath

__all__ = [
    "MAX_CONFIG_BYTES",
    "MAX_ENTRY_BYTES",
    "MAX_ENTRY_FILES",
    "MAX_README_BYTES",
    "MAX_RESULT_FILE_BYTES",
    "entry_file_problems",
]

CONFIG = "submission.yaml"
README = "README.md"
RESULTS = "results"
MAX_CONFIG_BYTES = 64 * 1024
MAX_README_BYTES = 64 * 1024
MAX_RESULT_FILE_BYTES = 128 * 1024 * 1024  # a run's transcript archive stays far below this
# Everything in one entry folder, results of every kept snapshot included (pruning keeps it so).
MAX_ENTRY_BYTES = 512 * 1024 * 1024
MAX_ENTRY_FILES = 20_000
MAX_REPORTED = 50
# What a run writes in results/<label>/ (and `--fresh` keeps under results/.replaced/<label>/).
_RUN_FILES = {"run.json", "trials.jsonl", ".lock"}
_REPLACED = ".replaced"
_CODE_SUFFIXES = {".py", ".pyc", ".pyw", ".pyx", ".so", ".sh", ".js", ".ipynb", ".exe", ".dll"}


def _mib(n: int) -> str:
    if n < 1024:
        return f"{n} B"
    return f"{n / 1024 / 1024:.1f} MiB" if n >= 1024 * 1024 else f"{n / 1024:.1f} KiB"


def _is_result_file(parts: tuple[str, ...]) -> bool:
    """results/<label>/{run.json, trials.jsonl, .lock, transcripts/<name>.json(l).gz}, the same
    under results/.replaced/<label>/."""
    rest = parts[1:]
    if rest and rest[0] == _REPLACED:
        rest = rest[1:]
    if len(rest) == 2:
        return not rest[0].startswith(".") and rest[1] in _RUN_FILES
    if len(rest) == 3 and rest[1] == "transcripts":
        name = rest[2]
        return not rest[0].startswith(".") and (
            name == "archive.jsonl.gz" or (name.endswith(".json.gz") and not name.startswith("."))
        )
    return False


def _refusal(relative: PurePosixPath) -> str:
    why = (
        "not a file an entry may hold: an entry is submission.yaml, an optional README.md and "
        "the results/ the refresh workflow writes"
    )
    if relative.suffix.lower() in _CODE_SUFFIXES:
        why += (
            "; code in an entry folder is never run (an agent is reached through its endpoint "
            "or a package named in submission.yaml)"
        )
    return why + "; remove it"


def entry_file_problems(folder: Path) -> list[tuple[Path, str]]:
    """(path, reason) for every file the entry may not hold or that is too big, at most
    MAX_REPORTED of them (then one line saying how many more); links are not followed (the
    link check names them)."""
    found: list[tuple[Path, str]] = []
    total = 0
    count = 0
    for parent, dirs, files in os.walk(folder):  # never follows a link
        dirs.sort()
        for name in sorted(files):
            path = Path(parent) / name
            info = path.lstat()
            if not stat.S_ISREG(info.st_mode):
                continue  # a symlink or a special file: the link check names it
            count += 1
            if count > MAX_ENTRY_FILES:
                found.append(
                    (folder, f"more than {MAX_ENTRY_FILES} files in one entry; remove the extra")
                )
                return _bounded(found)
            relative = PurePosixPath(path.relative_to(folder).as_posix())
            size = info.st_size
            total += size
            parts = relative.parts
            if parts == (CONFIG,) or parts == (README,):
                limit = MAX_CONFIG_BYTES if parts == (CONFIG,) else MAX_README_BYTES
                if size > limit:
                    found.append(
                        (path, f"{_mib(size)}, over the {_mib(limit)} limit for {parts[0]}")
                    )
            elif parts[0] == RESULTS and _is_result_file(parts):
                if size > MAX_RESULT_FILE_BYTES:
                    found.append(
                        (
                            path,
                            f"{_mib(size)}, over the {_mib(MAX_RESULT_FILE_BYTES)} limit for a "
                            "results file",
                        )
                    )
            else:
                found.append((path, f"{_mib(size)}; {_refusal(relative)}"))
    if total > MAX_ENTRY_BYTES:
        found.append(
            (folder, f"the entry holds {_mib(total)}, over the {_mib(MAX_ENTRY_BYTES)} limit")
        )
    return _bounded(found)


def _bounded(found: list[tuple[Path, str]]) -> list[tuple[Path, str]]:
    if len(found) <= MAX_REPORTED:
        return found
    rest = len(found) - MAX_REPORTED
    return [
        *found[:MAX_REPORTED],
        (found[MAX_REPORTED][0].parent, f"and {rest} more refused files"),
    ]
