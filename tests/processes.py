"""Child processes for tests: run to the end with their text output captured."""

from __future__ import annotations

import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from runner.core.paths import PROJECT_ROOT

__all__ = ["run_text"]


def run_text(
    args: Sequence[str | Path], *, cwd: Path = PROJECT_ROOT, timeout: float = 300, **options: Any
) -> subprocess.CompletedProcess[str]:
    """`args` run in `cwd` (the project's root unless said), stdout and stderr captured as text,
    killed after `timeout` seconds; its exit code is the caller's to check unless `check=True`.
    `options` (env, input, check) go to `subprocess.run` as they are."""
    options.setdefault("check", False)
    return subprocess.run(
        [str(a) for a in args], cwd=cwd, capture_output=True, text=True, timeout=timeout, **options
    )
