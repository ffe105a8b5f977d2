"""The batch's progress on a real terminal (a pseudo-terminal): one tqdm bar; plain lines elsewhere."""

from __future__ import annotations

import fcntl
import io
import os
import pty
import select
import struct
import termios

from runner.batch.progress import BarProgress, PlainProgress, ProgressStats, default_progress


def _drain(fd: int) -> str:
    out = b""
    while select.select([fd], [], [], 0.2)[0]:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    return out.decode("utf-8", "replace")


def test_a_terminal_gets_a_live_bar_with_counts_and_logs_above_it() -> None:
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 120, 0, 0))
    with os.fdopen(slave, "w", encoding="utf-8") as terminal:
        sink = default_progress(terminal)
        assert isinstance(sink, BarProgress)
        stats = ProgressStats(total=4, skipped_existing=1)
        sink.start(stats)
        stats.done = stats.scored = 2
        stats.passed = 1
        sink.update(stats)
        sink.log("trial task_001#0 failed: a log line")
        stats.done = stats.scored = 4
        sink.finish(stats)
        terminal.flush()
        shown = _drain(master)
    os.close(master)
    assert "1 trial(s) already recorded: resuming" in shown
    assert "trial task_001#0 failed: a log line" in shown
    assert "2/4" in shown
    assert "4/4" in shown
    assert "pass^1 0.500" in shown


def test_a_log_that_is_no_terminal_gets_plain_lines() -> None:
    stream = io.StringIO()
    sink = default_progress(stream)
    assert isinstance(sink, PlainProgress)
    stats = ProgressStats(total=2)
    sink.start(stats)
    stats.done = stats.scored = stats.passed = 2
    sink.finish(stats)
    assert "[2/2]" in stream.getvalue()
