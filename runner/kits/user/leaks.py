"""The leak audit's domain-free part: walking a trial's messages, and how a leak is reported.

A leak is a user message that states a hidden value, or an on_ask value before the agent asked
about its topic. What counts as asked, and what states a value, is the domain's (its reader and
its vocabulary); the walk is the same everywhere: topics asked accumulate over the agent's
messages, and each user message is checked against them and against the agent's last message
(repeating what the agent said is no leak).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Literal

from runner.core.transcript import Leak, LeakAudit, MessageEvent, Transcript

__all__ = ["audit_transcript", "excerpt", "leak_at"]

# The topics one agent message asks about (the domain's reader, so the audit and the user agree).
AskedIn = Callable[[str], Iterable[str]]
# The leaks of one user message: (its text, topics asked so far, the agent's last message, index).
LeaksIn = Callable[[str, frozenset[str], str, int], Sequence[Leak]]


def excerpt(text: str, start: int, end: int, margin: int = 40) -> str:
    """The stretch of `text` around [start, end), with an ellipsis where it was cut."""
    lo, hi = max(0, start - margin), min(len(text), end + margin)
    return ("…" if lo else "") + text[lo:hi] + ("…" if hi < len(text) else "")


def leak_at(
    index: int,
    field: str,
    hidden: bool,
    text: str,
    span: tuple[int, int],
    what: str,
    subject: str,
) -> Leak:
    """The leak of `what` (e.g. "'vegan'") at `span` of message `index`, naming the constraint
    (`subject`) it gives away and why it may not be said yet."""
    reveal: Literal["hidden", "on_ask"] = "hidden" if hidden else "on_ask"
    when = "is hidden" if hidden else "was not asked about yet"
    return Leak(
        message_index=index,
        field=field,
        reveal=reveal,
        excerpt=excerpt(text, *span),
        reason=f"states {what} while {subject} {when}",
    )


def audit_transcript(transcript: Transcript, asked_in: AskedIn, leaks_in: LeaksIn) -> LeakAudit:
    """Check every user message of a trial, in order, with the domain's `leaks_in`."""
    asked: set[str] = set()
    last_agent = ""
    leaks: list[Leak] = []
    for index, event in enumerate(transcript.events):
        if not isinstance(event, MessageEvent):
            continue
        if event.role == "agent":
            asked.update(asked_in(event.content))
            last_agent = event.content
            continue
        leaks += leaks_in(event.content, frozenset(asked), last_agent, index)
    return LeakAudit(clean=not leaks, leaks=leaks)
