"""The start-up of a `taurec` process: the cyclic garbage collector paused while it loads.

Loading a command builds tens of thousands of objects that live as long as the process (modules,
pydantic schemas, compiled patterns, the catalog, the search index); every collection while they
pile up scans them all again for nothing (~60-90 ms of a one-trial `taurec run`). `taurec`
pauses the collector from its start until the command is ready to work, then freezes what exists
(collections never scan it again) and turns the collector back on: the work itself always runs
with it. Nothing else changes: collecting only reclaims cycles, and these objects are not garbage.
"""

from __future__ import annotations

import gc

_paused = False


def pause_collector() -> None:
    """Pause the cyclic garbage collector for start-up (only `taurec`'s `main` does)."""
    global _paused
    if gc.isenabled():
        gc.disable()
        _paused = True


def resume_collector() -> None:
    """Start-up is over: freeze what exists and collect again (no-op unless paused here)."""
    global _paused
    if _paused:
        _paused = False
        gc.freeze()
        gc.enable()
