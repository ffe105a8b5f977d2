"""Helper processes for `taurec run --workers N`: the parent schedules, stores and counts; helpers run trials.

The parent keeps everything that makes a run honest and resumable — the job order, the one
results folder and its lock, the budget, Ctrl-C and the one progress bar — and runs its own share
of the trials in-process, exactly as `--workers 1` does. Each of the N-1 helpers is a forked copy
of the parent (where the platform has fork; spawned otherwise): it shares the parent's imported
modules (LiteLLM alone is ~4 s of import CPU and ~150 MB) and loaded inputs copy-on-write, then
runs the trials the parent sends it (one message per trial: which submission, task, trial index
and seed) and sends back the transcript and the scored record as JSON. The parent writes them with the same code as its own
trials, then counts them: a trial shown as done in the progress output is on disk, whoever ran it.

A helper that dies (killed, out of memory) takes only its unacknowledged trials with it: each is
recorded as an `infra_error` (kind `RunnerError.HelperExited`), which the next run retries, and
the rest of the batch goes on in the parent and the surviving helpers. When the parent dies, its
end of each pipe closes and the helpers stop.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import multiprocessing
import multiprocessing.connection
import signal
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from runner.batch.entrant import Entrant
from runner.batch.inputs import RunInputs
from runner.batch.progress import ProgressSink, ProgressStats
from runner.core.domain import DEFAULT_STRICTNESS, Strictness
from runner.core.errors import TaurecError

__all__ = [
    "Helper",
    "HelperExited",
    "HelperGone",
    "HelperSetup",
    "JobRef",
    "helper_main",
    "split_concurrency",
]

# How long a helper may take to start (a fork; a spawn imports and loads the inputs) before it is
# given up (its share of the trials then runs in the other processes).
READY_TIMEOUT_S = 120.0
STOP_TIMEOUT_S = 10.0


class HelperExited(Exception):
    """The helper process running a trial exited before it sent the trial back."""


class HelperGone(HelperExited):
    """The helper process was gone before the trial was sent to it: the trial never ran."""


@dataclass(frozen=True)
class JobRef:
    """One trial as sent to a helper: which submission, task, trial index and seed."""

    slug: str
    task_id: str
    trial_index: int
    seed: int


@dataclass(frozen=True)
class HelperSetup:
    """Everything a helper needs to run any trial of the batch; pickled once when it starts."""

    inputs: RunInputs
    entrants: Sequence[Entrant]
    manifests: dict[str, str]  # slug -> the run manifest as JSON (agent and simulator specs)
    trials: dict[str, int]  # slug -> trials per task
    simulator: str
    simulator_options: dict[str, Any] | None
    max_turns: int
    rules: str
    # Builds a helper's batch state (`runner.batch.engine.helper_batch`; given, not imported, so
    # the engine and its helpers do not import each other).
    make_batch: Callable[[HelperSetup, ProgressSink], tuple[Any, dict[str, Any]]]
    strictness: Strictness = DEFAULT_STRICTNESS


def split_concurrency(concurrency: int, processes: int) -> list[int]:
    """Trials running at once in each process, summing to `concurrency` (the parent's share first)."""
    base, extra = divmod(concurrency, processes)
    return [base + (1 if i < extra else 0) for i in range(processes)]


# The parent's ends of every helper pipe: a forked helper inherits them and must close them, or a
# dead parent's pipe would never read as closed (its helpers would outlive it).
_PARENT_ENDS: list[Connection] = []


def helper_main(conn: Connection, setup: HelperSetup) -> None:
    """A helper process's entry point: run the trials the parent sends until told to stop."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    with contextlib.suppress(ValueError):  # a forked child must not wake the parent's event loop
        signal.set_wakeup_fd(-1)
    for end in _PARENT_ENDS:
        with contextlib.suppress(OSError):
            end.close()
    try:
        asyncio.run(_serve(conn, setup))
    finally:
        conn.close()


class _ForwardLog:
    """A helper's progress sink: only its log lines matter, and they go to the parent to print."""

    def __init__(self, conn: Connection) -> None:
        self._conn = conn

    def start(self, stats: ProgressStats) -> None:
        pass

    def update(self, stats: ProgressStats) -> None:
        pass

    def finish(self, stats: ProgressStats) -> None:
        pass

    def log(self, message: str) -> None:
        _send(self._conn, ("log", message))


def _send(conn: Connection, message: tuple[Any, ...]) -> None:
    with contextlib.suppress(OSError, ValueError):  # the parent is gone: nothing left to tell
        conn.send(message)


async def _serve(conn: Connection, setup: HelperSetup) -> None:
    from runner.models.llm_client import aclose_clients

    try:
        batch, plans = setup.make_batch(setup, _ForwardLog(conn))
        setup.inputs.domain.warm(setup.inputs.snapshot.catalog)
    except Exception as exc:
        _send(conn, ("failed", f"{type(exc).__name__}: {exc}"))
        return
    tasks = {t.id: t for t in setup.inputs.tasks}
    loop = asyncio.get_running_loop()
    inbox: asyncio.Queue[tuple[Any, ...]] = asyncio.Queue()

    def read() -> None:
        while True:
            try:
                message = conn.recv()
            except (EOFError, OSError):
                message = ("stop",)
            loop.call_soon_threadsafe(inbox.put_nowait, message)
            if message[0] == "stop":
                return

    threading.Thread(target=read, name="taurec-helper-inbox", daemon=True).start()

    async def run_one(number: int, ref: JobRef) -> None:
        try:
            transcript, record = await batch.run_trial_of(
                plans[ref.slug], tasks[ref.task_id], ref.trial_index, ref.seed
            )
        except Exception as exc:  # never leave the parent waiting for an answer
            _send(conn, ("error", number, f"{type(exc).__name__}: {exc}"))
            return
        _send(conn, ("done", number, transcript.model_dump_json(), record.model_dump_json()))

    _send(conn, ("ready",))
    running: set[asyncio.Task[None]] = set()
    try:
        while True:
            message = await inbox.get()
            if message[0] != "run":
                break
            task = asyncio.create_task(run_one(message[1], message[2]))
            running.add(task)
            task.add_done_callback(running.discard)
    finally:
        for task in running:
            task.cancel()
        await asyncio.gather(*running, return_exceptions=True)
        await aclose_clients()


class Helper:
    """The parent's handle on one helper process: send a trial, await its transcript and record."""

    def __init__(self, setup: HelperSetup, index: int, *, log: Callable[[str], None]) -> None:
        self._log = log
        context = (
            multiprocessing.get_context("fork")
            if "fork" in multiprocessing.get_all_start_methods()
            else multiprocessing.get_context("spawn")
        )
        self._conn, child = context.Pipe()
        _PARENT_ENDS.append(self._conn)
        self.process = context.Process(
            target=helper_main, args=(child, setup), name=f"taurec-helper-{index}", daemon=True
        )
        if context.get_start_method() == "fork":
            # Neither garbage collector scans what the parent holds now (its modules, LiteLLM,
            # the inputs: all live for the whole run), so neither writes to (and so copies) those
            # shared pages. Unfrozen in the parent, its first full collection after the fork
            # copied ~60 MB in each process (measured, LiteLLM path).
            gc.freeze()
        self.process.start()
        child.close()
        self._pending: dict[int, asyncio.Future[tuple[str, str]]] = {}
        self._ready: asyncio.Future[None] | None = None
        self._next = 0
        self.alive = True

    def start_reading(self, loop: asyncio.AbstractEventLoop) -> None:
        """Read the helper's answers in a thread and hand each to the event loop; once the helper
        is gone (its pipe closed or its process ended), reap it there and report its exit."""
        self._ready = loop.create_future()
        threading.Thread(
            target=self._read, args=(loop,), name=f"{self.process.name}-reader", daemon=True
        ).start()

    def _read(self, loop: asyncio.AbstractEventLoop) -> None:
        conn, sentinel = self._conn, self.process.sentinel
        try:
            while True:
                ready = multiprocessing.connection.wait([conn, sentinel])
                if conn not in ready:
                    # The process ended but its end of the pipe reads as open (a process it
                    # started holds a copy): what it sent before it died is still handed on.
                    while conn.poll(0):
                        loop.call_soon_threadsafe(self._handle, conn.recv())
                    break
                loop.call_soon_threadsafe(self._handle, conn.recv())
        except (EOFError, OSError):
            pass
        # Reaped here, not on the event loop: waiting for a dying process there stalled every
        # trial of the parent for as long as it took.
        self.process.join(STOP_TIMEOUT_S)
        with contextlib.suppress(RuntimeError):  # the run is over and its loop closed
            loop.call_soon_threadsafe(self._exited)

    async def ready(self) -> bool:
        """Wait until the helper has loaded the inputs; False if it died or failed doing so."""
        assert self._ready is not None
        try:
            async with asyncio.timeout(READY_TIMEOUT_S):
                await self._ready
        except TimeoutError:
            self._log(f"{self.process.name}: not ready after {READY_TIMEOUT_S:g} s; not used")
            return False
        except (HelperExited, TaurecError) as exc:
            self._log(f"{self.process.name} did not start: {exc}; its share runs elsewhere")
            return False
        return True

    def _handle(self, message: tuple[Any, ...]) -> None:
        kind = message[0]
        if kind == "log":
            self._log(message[1])
        elif kind == "ready":
            if self._ready is not None and not self._ready.done():
                self._ready.set_result(None)
        elif kind == "failed":
            if self._ready is not None and not self._ready.done():
                self._ready.set_exception(TaurecError(f"{self.process.name}: {message[1]}"))
        elif kind in ("done", "error"):
            future = self._pending.pop(message[1], None)
            if future is None or future.done():
                return
            if kind == "done":
                future.set_result((message[2], message[3]))
            else:
                future.set_exception(RuntimeError(message[2]))

    def _exited(self) -> None:
        self.alive = False
        why = HelperExited(
            f"helper process {self.process.pid} exited (code {self.process.exitcode}) "
            "before sending this trial back"
        )
        if self._ready is not None and not self._ready.done():
            self._ready.set_exception(why)
        for future in self._pending.values():
            if not future.done():
                future.set_exception(why)
        self._pending.clear()

    async def run(self, ref: JobRef) -> tuple[str, str]:
        """Run one trial in the helper: (transcript JSON, record JSON)."""
        if not self.alive:
            raise HelperGone(f"helper process {self.process.pid} is not running")
        self._next += 1
        number = self._next
        future: asyncio.Future[tuple[str, str]] = asyncio.get_running_loop().create_future()
        self._pending[number] = future
        try:
            self._conn.send(("run", number, ref))
        except (OSError, ValueError):
            # Gone before its reader said so: no trial more is sent to it. (Still alive, its
            # callers would take and fail every trial left without once yielding to the loop.)
            self.alive = False
            self._pending.pop(number, None)
            raise HelperGone(f"helper process {self.process.pid} is not running") from None
        return await future

    def stop(self) -> None:
        """Ask the helper to cancel what it runs and exit; terminate it if it does not."""
        _send(self._conn, ("stop",))
        self.process.join(STOP_TIMEOUT_S)
        if self.process.is_alive():
            self.process.terminate()
            self.process.join(STOP_TIMEOUT_S)
        self._conn.close()
        with contextlib.suppress(ValueError):
            _PARENT_ENDS.remove(self._conn)
