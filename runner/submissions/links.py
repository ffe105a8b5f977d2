"""Plain files only under `submissions/`: no symlink and no hard link, anywhere.

A link lets one entry's folder show another's files: `results -> ../victim/results` borrows the
victim's scores (and its verified badge), and a writer following the link overwrites them. Every
reader of entry and results folders calls `refuse_links` first; the PR check calls
`linked_paths` to list them all.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from runner.core.errors import TaurecError

__all__ = ["LinkError", "linked_paths", "refuse_links"]

SUBMISSIONS_NAME = "submissions"


class LinkError(TaurecError):
    """A symlink or a hard link where τ-Rec reads or writes an entry's files."""


def _describe(path: Path, info: os.stat_result) -> str | None:
    if stat.S_ISLNK(info.st_mode):
        try:
            target = os.readlink(path)
        except OSError:
            target = "?"
        return f"a symlink (to {target}); entries and results must be plain files and folders"
    if stat.S_ISREG(info.st_mode) and info.st_nlink > 1:
        return (
            f"a hard link ({info.st_nlink} names for one file); entries and results must be "
            "plain files of their own"
        )
    return None


def _anchor(path: Path) -> Path:
    """Where checking a path's own components starts: the `submissions` folder holding it, else
    its parent (components above τ-Rec's folders, such as a /tmp symlink, are not ours)."""
    absolute = Path(os.path.abspath(path))
    for parent in absolute.parents:
        if parent.name == SUBMISSIONS_NAME:
            return parent
    return absolute.parent


def linked_paths(root: Path | str) -> list[tuple[Path, str]]:
    """Every symlink and hard-linked file at `root`, among its components below the
    `submissions` folder, and anywhere under it (links are never followed), with the reason."""
    root = Path(os.path.abspath(root))
    found: list[tuple[Path, str]] = []
    anchor = _anchor(root)
    parts = root.relative_to(anchor).parts
    current = anchor
    for part in parts:
        current = current / part
        try:
            info = current.lstat()
        except FileNotFoundError:
            return found  # nothing there (yet): nothing linked
        problem = _describe(current, info)
        if problem is not None:
            return [(current, problem)]  # never walk through a link
    pending = [root] if root.is_dir() else []
    while pending:
        folder = pending.pop()
        with os.scandir(folder) as entries:
            for entry in sorted(entries, key=lambda e: e.name):
                path = Path(entry.path)
                info = entry.stat(follow_symlinks=False)
                problem = _describe(path, info)
                if problem is not None:
                    found.append((path, problem))
                elif stat.S_ISDIR(info.st_mode):
                    pending.append(path)
    return sorted(found)


def refuse_links(*roots: Path | str) -> None:
    """LinkError naming every symlink or hard link at or under `roots` (see `linked_paths`)."""
    found = [f"{path}: {why}" for root in roots for path, why in linked_paths(root)]
    if found:
        raise LinkError("\n".join(found))
