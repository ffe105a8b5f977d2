"""Child processes for tests (and benchmarks): run to the end with their text output captured; a process's own peak memory."""

from __future__ import annotations

import contextlib
import os
import resource
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from runner.core.paths import PROJECT_ROOT

__all__ = ["peak_rss", "run_text", "wait_peak_rss"]


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


def peak_rss(pid: int | None = None) -> int:
    """The peak resident memory in bytes (VmHWM) of process `pid` (default: this one).

    Not `getrusage`'s ru_maxrss: Linux carries that across fork and exec, so a child started from
    a process holding 1 GB reports at least 1 GB whatever it used itself. A process that has
    exited (or a zombie) has no VmHWM: ProcessLookupError."""
    where = f"/proc/{'self' if pid is None else pid}/status"
    try:
        with open(where, encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except FileNotFoundError:
        raise ProcessLookupError(f"{where}: no such process") from None
    raise ProcessLookupError(f"{where}: no VmHWM (the process has exited)")


def wait_peak_rss(pid: int, poll_s: float = 0.02) -> tuple[int, int, resource.struct_rusage]:
    """Wait for child `pid` to end: its exit status (as `os.wait4` gives it), its own peak
    resident memory in bytes (VmHWM, read every `poll_s` while it runs: a peak in its last
    `poll_s` is missed) and its resource usage (CPU times; not its ru_maxrss, see `peak_rss`)."""
    peak = 0
    while True:
        done, status, usage = os.wait4(pid, os.WNOHANG)
        if done:
            return status, peak, usage
        with contextlib.suppress(ProcessLookupError):  # exiting: the next wait4 reaps it
            peak = max(peak, peak_rss(pid))
        time.sleep(poll_s)
