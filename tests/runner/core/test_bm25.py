"""A helper killed inside bm25s's hidden progress bar leaves its parent's searches free
(runner.core.bm25, which the domains' search modules import bm25s from)."""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
from typing import Any

from domains.movies.catalog import Catalog
from domains.movies.search import search_index


def _die_holding_the_bar_lock(ready: Any) -> None:
    from tqdm import tqdm

    tqdm.get_lock().acquire()  # what every bm25s bar does, for as long as it is made
    ready.set()
    os.kill(os.getpid(), signal.SIGKILL)


def test_a_helper_killed_inside_a_progress_bar_blocks_no_search_of_its_parent(
    v1_dir: Any,
) -> None:
    index = search_index(Catalog.load(v1_dir / "catalog.json"))
    assert index.search("space adventure")  # the parent has made bars before the fork
    context = multiprocessing.get_context("fork")
    ready = context.Event()
    child = context.Process(target=_die_holding_the_bar_lock, args=(ready,))
    child.start()
    child.join(30)
    assert ready.is_set()
    assert child.exitcode == -signal.SIGKILL

    found: list[Any] = []
    search = threading.Thread(
        target=lambda: found.append(index.search("space adventure")), daemon=True
    )
    search.start()
    search.join(30)
    # With tqdm's default lock (a semaphore the child shared) this search waited forever.
    assert not search.is_alive(), "the parent's search waits on the dead helper's lock"
    assert found
    assert found[0]
