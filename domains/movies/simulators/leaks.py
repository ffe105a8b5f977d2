"""The leak audit: did a user message state a hidden constraint's value, or an on_ask one before it was asked?

How values are found, per field kind (see `vocabulary.py`):
- numbers (runtime, rating, vote_count) and dates (release_date): any stated duration / score /
  vote count / year for a field with a protected constraint is a leak, unless it is the value of
  a constraint the user may state at that point or it echoes a figure from the agent's last
  message (bounds like "under 2 hours" reveal a hidden limit even when they are not its value);
- content ratings: the same, for rating codes (G, PG, PG-13, R, NC-17, NR/unrated);
- genres and streaming services: naming a value of the protected constraint (listing every
  service the user subscribes to is not a leak: the user is asked to share that);
- text fields (director, cast, title, overview, id): the protected value appearing verbatim;
- sponsored: talking about sponsored or promoted titles;
- directions without values ("nothing too long", "something well known", "fairly recent") on a
  protected numeric, date or age-rating field, in a sentence that is not about the title just
  proposed (a decline hint points a direction for that one title, which is allowed);
- listing the user's own services is allowed only once the agent asked about services (said
  unasked, it discloses a streaming constraint on those services).
"Asked" is what the user's reader finds asked (`reader.fields_asked`), so the audit and the user agree.
"""

from __future__ import annotations

import datetime as dt
import re

from domains.movies.simulators.reader import fields_asked
from domains.movies.simulators.vocabulary import (
    DIRECTION_PATTERNS,
    NO_PREFERENCE_RE,
    REFERS_TO_PROPOSAL,
    VALUE_FINDERS,
    Mention,
    genre_mentions,
    sentences,
    service_mentions,
)
from domains.movies.tasks import Constraint, Task, TaskConstraint
from runner.core.memo import BoundedMemo
from runner.core.transcript import Leak, LeakAudit, Transcript
from runner.kits.user.leaks import audit_transcript, leak_at

__all__ = ["VALUE_FINDERS", "audit_leaks", "message_leaks"]

_STRICT_FIELDS = frozenset({"runtime", "rating", "vote_count", "release_date", "content_rating"})
_TEXT_FIELDS = frozenset({"director", "cast", "title", "overview", "id"})
_SPONSORED_RE = re.compile(r"(?i)\b(sponsored|sponsorship|promoted|promotion|advert\w*|\bads?\b)")


def _year(value: object) -> float:
    return float(dt.date.fromisoformat(str(value)).year)


def _values(c: Constraint) -> set[float | str]:
    """The values a constraint states, in the form `_mentions` reports them."""
    raw = c.value if isinstance(c.value, list) else [c.value]
    if c.field in ("runtime", "rating", "vote_count"):
        return {float(v) for v in raw if not isinstance(v, str)}
    if c.field == "release_date":
        return {_year(v) for v in raw}
    return {str(v) for v in raw}


def _mentions(field: str, text: str, task: Task) -> list[Mention]:
    if field in VALUE_FINDERS:
        return VALUE_FINDERS[field](text)
    if field == "genres":
        extra = [
            str(v)
            for tc in task.constraints
            if tc.constraint.field == field
            for v in _values(tc.constraint)
        ]
        return genre_mentions(text, extra)
    if field == "streaming_services":
        extra = [*task.user_services]
        extra += [
            str(v)
            for tc in task.constraints
            if tc.constraint.field == field
            for v in _values(tc.constraint)
        ]
        return service_mentions(text, extra)
    return []


def _leak(index: int, tc: TaskConstraint, text: str, start: int, end: int, what: str) -> Leak:
    subject = f"`{tc.constraint.describe()}`"
    hidden = tc.reveal == "hidden"
    return leak_at(index, tc.constraint.field, hidden, text, (start, end), what, subject)


def _directional(index: int, tc: TaskConstraint, field: str, text: str, echo: str) -> list[Leak]:
    """A value-free direction on a protected field, stated as a general wish (not a hint)."""
    pattern = DIRECTION_PATTERNS[field]
    offset = 0
    for sentence in sentences(text):
        offset = text.find(sentence, offset)
        if REFERS_TO_PROPOSAL.search(sentence) or NO_PREFERENCE_RE.search(sentence):
            continue
        match = pattern.search(sentence)
        if match and match.group(0).lower() not in echo.lower():
            start = offset + match.start()
            return [_leak(index, tc, text, start, start + len(match.group(0)), "a direction")]
    return []


def message_leaks(
    task: Task, text: str, asked: set[str], *, index: int = 0, echo: str = ""
) -> list[Leak]:
    """Leaks in one user message, given the fields asked about so far and the agent's last message."""
    leaks: list[Leak] = []
    fields = list(dict.fromkeys(tc.constraint.field for tc in task.constraints))
    for field in fields:
        tcs = [tc for tc in task.constraints if tc.constraint.field == field]
        protected = [
            tc
            for tc in tcs
            if tc.reveal == "hidden" or (tc.reveal == "on_ask" and field not in asked)
        ]
        if not protected:
            continue
        allowed: set[float | str] = set()
        for tc in tcs:
            if tc not in protected:
                allowed |= _values(tc.constraint)
        if field in _TEXT_FIELDS:
            lowered, echo_lowered = text.lower(), echo.lower()
            for tc in protected:
                for value in _values(tc.constraint):
                    needle = str(value).lower()
                    pos = lowered.find(needle)
                    if needle and pos >= 0 and needle not in echo_lowered and value not in allowed:
                        leaks.append(_leak(index, tc, text, pos, pos + len(needle), repr(value)))
            continue
        if field == "sponsored":
            match = _SPONSORED_RE.search(text)
            if match and not _SPONSORED_RE.search(echo):
                leaks.append(_leak(index, protected[0], text, match.start(), match.end(), "it"))
            continue
        mentions = _mentions(field, text, task)
        echoed = {m.value for m in _mentions(field, echo, task)} if echo else set()
        if field in DIRECTION_PATTERNS and not allowed:
            leaks += _directional(index, protected[0], field, text, echo)
        if field == "streaming_services" and task.user_services and field in asked:
            named = {m.value for m in mentions}
            if set(task.user_services) <= named:  # the user listing its own subscriptions
                allowed |= set(task.user_services)
        for m in mentions:
            if m.value in allowed or m.value in echoed:
                continue
            if field in _STRICT_FIELDS:
                hit = next(
                    (tc for tc in protected if m.value in _values(tc.constraint)), protected[0]
                )
                leaks.append(_leak(index, hit, text, m.start, m.end, f"{field} {m.text!r}"))
                continue
            for tc in protected:
                if m.value in _values(tc.constraint):
                    leaks.append(_leak(index, tc, text, m.start, m.end, f"{field} {m.text!r}"))
                    break
    return leaks


# The leaks of user messages already audited, by (task object, text, fields asked so far, the
# agent's last message, position), at most 4,096 in all: trials of a task repeat the same
# exchanges, and each is audited once. An entry holds its task, so the id in its key stays that
# task's while the entry lives.
_AuditKey = tuple[int, str, frozenset[str], str, int]
_AUDITED: BoundedMemo[_AuditKey, tuple[Task, tuple[Leak, ...]]] = BoundedMemo(4096)


def audit_leaks(task: Task, transcript: Transcript) -> LeakAudit:
    """Check every user message of a transcript against the task's reveal tags."""

    def leaks_in(text: str, asked: frozenset[str], echo: str, index: int) -> tuple[Leak, ...]:
        key = (id(task), text, asked, echo, index)
        entry = _AUDITED.get(key)
        if entry is None or entry[0] is not task:
            found = tuple(message_leaks(task, text, set(asked), index=index, echo=echo))
            entry = _AUDITED.put(key, (task, found))
        return entry[1]

    return audit_transcript(transcript, fields_asked, leaks_in)
