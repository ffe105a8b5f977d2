"""A model reader or writer with its fallback: the model's answer when it is usable, else the rules'.

A simulated user may read agent messages, or word its replies, with a model. The decision is
always the engine's, so a model that fails or answers something unusable never stops a trial: the
rule reader's reading (or the template's words) stands in, and a `SimulatorNote` records why (the
user's own error rate). Only the errors the caller names as fatal (a missing key: a configuration
error, not a model failure) propagate.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Generic, Literal, TypeVar

from runner.core.errors import InfraFailure
from runner.core.protocols import ModelCall
from runner.core.transcript import SimulatorNote

__all__ = ["Answer", "model_or_fallback", "note"]

V = TypeVar("V")
# A judged answer: the value it holds, or None and why not (a reason code, one line of detail).
Judged = tuple[V | None, tuple[str, str]]


@dataclass(frozen=True)
class Answer(Generic[V]):
    """What stands: the value, the note when the fallback's value stood instead, the call's usage."""

    value: V
    note: SimulatorNote | None = None
    usage: ModelCall | None = None


def note(component: Literal["reader", "writer"], reason: str, detail: str) -> SimulatorNote:
    """The record of one fallback (the detail cut to one short line)."""
    return SimulatorNote(component=component, reason=reason, detail=detail[:300])


async def model_or_fallback(
    component: Literal["reader", "writer"],
    call: Callable[[], Awaitable[tuple[str, ModelCall]]],
    judge: Callable[[str], Judged[V]],
    fallback: Callable[[], V],
    *,
    fatal: tuple[type[BaseException], ...] = (),
) -> Answer[V]:
    """Ask the model (`call`); a failed call (`model_error`, no usage) or an answer `judge` refuses
    (its reason, with the call's usage) gives `fallback()` and a note; `fatal` errors propagate."""
    try:
        answer, usage = await call()
    except fatal:
        raise
    except InfraFailure as exc:
        return Answer(fallback(), note(component, "model_error", f"{exc.kind}: {exc.message}"))
    value, (reason, detail) = judge(answer)
    if value is None:
        return Answer(fallback(), note(component, reason, detail), usage)
    return Answer(value, usage=usage)
