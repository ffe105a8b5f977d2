"""Progress reporting for a batch: a pinned tqdm bar on a terminal, plain throttled lines in CI logs."""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from typing import Protocol, TextIO


@dataclass
class ProgressStats:
    """Counters of the trials run by this invocation (earlier records are not counted)."""

    total: int = 0
    done: int = 0
    scored: int = 0
    passed: int = 0
    infra_errors: int = 0
    cost_usd: float = 0.0
    skipped_existing: int = 0

    @property
    def pass1(self) -> float | None:
        return self.passed / self.scored if self.scored else None

    def describe(self) -> str:
        p1 = "n/a" if self.pass1 is None else f"{self.pass1:.3f}"
        return f"pass^1 {p1} · infra errors {self.infra_errors} · cost ${self.cost_usd:.4f}"


class ProgressSink(Protocol):
    """Receives the batch's progress; `log` prints a line without breaking a live display."""

    def start(self, stats: ProgressStats) -> None: ...

    def update(self, stats: ProgressStats) -> None: ...

    def finish(self, stats: ProgressStats) -> None: ...

    def log(self, message: str) -> None: ...


def _eta(started: float, stats: ProgressStats) -> str:
    if not stats.done or stats.done >= stats.total:
        return "--:--"
    elapsed = time.monotonic() - started
    remaining = elapsed / stats.done * (stats.total - stats.done)
    minutes, seconds = divmod(int(remaining + 0.5), 60)
    return f"{minutes:02d}:{seconds:02d}"


class PlainProgress:
    """One line per ~5% of the trials (or every `interval_s`), for logs that are not a terminal."""

    def __init__(self, stream: TextIO | None = None, interval_s: float = 10.0) -> None:
        self.stream = stream or sys.stdout
        self.interval_s = interval_s
        self._started = time.monotonic()
        self._last_time = 0.0
        self._last_done = -1

    def _line(self, stats: ProgressStats) -> None:
        self.stream.write(
            f"[{stats.done}/{stats.total}] eta {_eta(self._started, stats)} · {stats.describe()}\n"
        )
        self.stream.flush()
        self._last_time = time.monotonic()
        self._last_done = stats.done

    def start(self, stats: ProgressStats) -> None:
        self._started = time.monotonic()
        self.stream.write(
            f"running {stats.total} trial(s); {stats.skipped_existing} already recorded\n"
        )
        self.stream.flush()

    def update(self, stats: ProgressStats) -> None:
        step = max(1, stats.total // 20)
        due = stats.done - self._last_done >= step
        if due or time.monotonic() - self._last_time >= self.interval_s:
            self._line(stats)

    def finish(self, stats: ProgressStats) -> None:
        if stats.done != self._last_done:
            self._line(stats)

    def log(self, message: str) -> None:
        print(message, file=sys.stderr if self.stream is sys.stdout else self.stream, flush=True)


class BarProgress:
    """A live bar pinned to the bottom of the terminal: done/total, elapsed and ETA, running pass^1, errors, cost.

    Drawn by tqdm, the one progress library of the tree (bm25s's own bars use it too).
    """

    def __init__(self, stream: TextIO | None = None) -> None:
        from tqdm import tqdm

        self.stream = stream or sys.stdout
        self._tqdm = tqdm
        self._bar = tqdm(
            total=0,
            desc="trials",
            unit="trial",
            file=self.stream,
            dynamic_ncols=True,
            delay=0,
            leave=True,
            bar_format="{desc} {bar} {n_fmt}/{total_fmt} {elapsed} eta {remaining}{postfix}",
        )

    def start(self, stats: ProgressStats) -> None:
        if stats.skipped_existing:
            self.log(f"{stats.skipped_existing} trial(s) already recorded: resuming")
        self.update(stats)

    def update(self, stats: ProgressStats) -> None:
        self._bar.total = stats.total
        self._bar.n = stats.done
        self._bar.set_postfix_str(stats.describe(), refresh=False)
        self._bar.refresh()

    def finish(self, stats: ProgressStats) -> None:
        self.update(stats)
        self._bar.close()

    def log(self, message: str) -> None:
        self._tqdm.write(message, file=self.stream)


def default_progress(stream: TextIO | None = None) -> ProgressSink:
    """A live bar when `stream` (default stdout) is a terminal, plain lines otherwise.

    `taurec eval` passes stderr: its report is stdout, and the bar must not mix into it.
    """
    out = stream or sys.stdout
    return BarProgress(out) if out.isatty() else PlainProgress(out)
