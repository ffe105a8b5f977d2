"""The template writer: a decided reply act in, the shopper's words out, from the seeded paraphrase bank."""

from __future__ import annotations

import random

from domains.grocery.user import templates as t
from domains.grocery.user.acts import (
    Accept,
    AcceptedAlready,
    ActPart,
    ConfirmOrder,
    ConfirmReturn,
    Decline,
    Done,
    HoldBack,
    Inform,
    Leave,
    NoPreference,
    NothingFitsAck,
    NotYet,
    OneAtATime,
    Opening,
    PushToCommit,
    ReplyAct,
    Unsure,
)
from domains.grocery.user.vocabulary import TOPIC_WORDS

__all__ = ["TemplateWriter"]

_NUMBERS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def _count(n: int) -> str:
    word = _NUMBERS[n] if n < len(_NUMBERS) else str(n)
    return f"{word} pack" if n == 1 else f"{word} packs"


class TemplateWriter:
    """Words every act from the template bank; the same act and rng give the same words."""

    def write(self, act: ReplyAct, rng: random.Random) -> str:
        """The shopper's message for one act."""
        words: list[str] = []
        for part in act.parts:
            words += self._part(part, rng)
        return " ".join(w for w in words if w)

    def _part(self, part: ActPart, rng: random.Random) -> list[str]:
        if isinstance(part, Opening):
            return self._opening(part, rng)
        if isinstance(part, Inform):
            if part.topic == "quantity":
                return [f"I need {_count(part.quantity or 1)}."]
            return [t.state_need(n, rng) for n in part.needs]
        if isinstance(part, NoPreference | Unsure):
            topics = t.join_list([TOPIC_WORDS[x] for x in part.topics])
            bank = t.NO_PREFERENCE if isinstance(part, NoPreference) else t.UNSURE
            text = rng.choice(bank).format(topic=topics, Topic=topics[:1].upper() + topics[1:])
            return [text]
        if isinstance(part, HoldBack):
            return [rng.choice(t.HOLD_BACK[part.reason])]
        if isinstance(part, Accept):
            accept: tuple[str, ...] = t.ACCEPT_SUBSTITUTE if part.substitute else t.ACCEPT
            return [rng.choice(accept).format(name=part.name)]
        if isinstance(part, Decline):
            return [self._decline(part, rng)]
        if isinstance(part, OneAtATime):
            return [rng.choice(t.ONE_AT_A_TIME)]
        if isinstance(part, ConfirmOrder):
            return [rng.choice(t.CONFIRM_ORDER)]
        if isinstance(part, ConfirmReturn):
            return [rng.choice(t.CONFIRM_RETURN)]
        if isinstance(part, NotYet):
            return [rng.choice(t.NOT_YET[part.reason])]
        if isinstance(part, PushToCommit):
            return [rng.choice(t.PUSH[part.task_kind])]
        if isinstance(part, AcceptedAlready):
            return [rng.choice(t.ACCEPTED_ALREADY)]
        if isinstance(part, NothingFitsAck):
            return [rng.choice(t.NOTHING_FITS)]
        if isinstance(part, Done):
            return [rng.choice(t.DONE)]
        if isinstance(part, Leave):
            return [rng.choice(t.LEAVE[part.reason])]
        raise TypeError(f"no template for act part {part!r}")

    def _opening(self, part: Opening, rng: random.Random) -> list[str]:
        if part.task_kind == "return":
            why = rng.choice(t.RETURN_WHY.get(part.return_reason or "", ("it has to go back",)))
            return [
                rng.choice(t.RETURN_OPENINGS).format(
                    product=part.returning, order=part.order_id, why=why
                )
            ]
        words: list[str] = []
        if part.task_kind == "substitution":
            words.append(
                rng.choice(t.SUBSTITUTION_OPENINGS).format(
                    n=_count(part.quantity), wanted=part.wanted
                )
            )
        else:
            words.append(rng.choice(t.OPENINGS).format(thing=part.product_type or "something"))
            n = _count(part.quantity)
            words.append(rng.choice(t.QUANTITY).format(n=n, N=n[:1].upper() + n[1:]))
        words += [t.state_need(need, rng) for need in part.needs]
        words += [rng.choice(t.CUES[c]) for c in part.cues if c in t.CUES]
        return words

    def _decline(self, part: Decline, rng: random.Random) -> str:
        if part.reason == "not_for_me":
            return rng.choice(t.DECLINE_NOT_FOR_ME).format(name=part.name)
        if part.reason == "again":
            return rng.choice(t.DECLINE_AGAIN).format(name=part.name)
        if part.reason == "not_buying":
            return rng.choice(t.DECLINE_NOT_BUYING).format(name=part.name)
        if part.reason == "broken":
            assert part.need is not None
            need = t.state_need(part.need, rng)
            return rng.choice(t.DECLINE_BROKEN).format(
                name=part.name, need=need, need_lower=need[:1].lower() + need[1:]
            )
        assert part.topic is not None
        bank = t.HINTS.get((part.topic, part.direction)) or t.HINTS.get(
            (part.topic, "other"), ("{name} isn't right for me.",)
        )
        return rng.choice(bank).format(name=part.name)
