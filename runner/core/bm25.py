"""bm25s for processes that fork helpers: its hidden progress bars share no lock across processes."""

from __future__ import annotations

import os
import threading

import bm25s
from tqdm import tqdm

__all__ = ["bm25s"]


def _own_progress_lock() -> None:
    """Give this process's tqdm a lock of its own.

    bm25s wraps every tokenisation and search in a tqdm bar (hidden when asked), and every tqdm
    takes tqdm's class lock, by default a multiprocessing lock: a semaphore a forked helper
    shares with its parent. A helper killed while it held it (kill -9 mid-search) left it held
    for good, and the parent's next search waited on it forever. A thread lock, fresh in every
    forked child, keeps each process's bars to itself.
    """
    tqdm.set_lock(threading.RLock())


_own_progress_lock()
os.register_at_fork(after_in_child=_own_progress_lock)
tqdm.monitor_interval = 0  # no monitor thread for bars that are never shown
