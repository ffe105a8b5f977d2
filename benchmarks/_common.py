"""What the benchmarks share: the repository's root, put on `sys.path` so that a benchmark run as a
script (``.venv/bin/python benchmarks/x.py``) can use the test helpers it measures with, such as
the loopback stand-ins of tests/stand_ins.py; and the memory of a process tree."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def tree_memory_kib(root: int) -> tuple[int, int]:
    """(sum of RSS, sum of PSS) over `root` and its descendants (Linux /proc). RSS counts a page
    shared by two processes (a forked helper and its parent) twice; PSS splits it between them."""
    rss = pss = 0
    stack = [root]
    while stack:
        pid = stack.pop()
        try:
            for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                if line.startswith("Rss:"):
                    rss += int(line.split()[1])
                elif line.startswith("Pss:"):
                    pss += int(line.split()[1])
            for task in Path(f"/proc/{pid}/task").iterdir():
                stack.extend(int(c) for c in (task / "children").read_text().split())
        except (OSError, ValueError):
            continue
    return rss, pss
