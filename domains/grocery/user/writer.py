"""The template writer: a decided reply act in, the shopper's words out, from the seeded paraphrase bank."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import ClassVar

from domains.grocery.user import templates as t
from domains.grocery.user.acts import (
    Accept,
    Decline,
    Inform,
    NoPreference,
    Opening,
    Unsure,
    WhichOne,
)
from domains.grocery.user.vocabulary import TOPIC_WORDS
from runner.kits.user.writer import Bank, Keyed, TemplateWriterBase, join_list

__all__ = ["TemplateWriter"]

_NUMBERS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def _count(n: int) -> str:
    word = _NUMBERS[n] if n < len(_NUMBERS) else str(n)
    return f"{word} pack" if n == 1 else f"{word} packs"


class TemplateWriter(TemplateWriterBase):
    """Words every act from the template bank; the same act and rng give the same words."""

    banks: ClassVar[Mapping[str, Bank | Keyed]] = {
        "hold_back": Keyed("reason", t.HOLD_BACK),
        "one_at_a_time": t.ONE_AT_A_TIME,
        "confirm_order": t.CONFIRM_ORDER,
        "confirm_return": t.CONFIRM_RETURN,
        "not_yet": Keyed("reason", t.NOT_YET),
        "push_to_commit": Keyed("task_kind", t.PUSH),
        "accepted_already": t.ACCEPTED_ALREADY,
        "nothing_fits_ack": t.NOTHING_FITS,
        "done": t.DONE,
        "leave": Keyed("reason", t.LEAVE),
    }

    def word_inform(self, part: Inform, rng: random.Random) -> list[str]:
        if part.topic == "quantity":
            return [f"I need {_count(part.quantity or 1)}."]
        return [t.state_need(n, rng) for n in part.needs]

    def word_no_preference(self, part: NoPreference | Unsure, rng: random.Random) -> list[str]:
        topics = join_list([TOPIC_WORDS[x] for x in part.topics], "and")
        bank = t.NO_PREFERENCE if isinstance(part, NoPreference) else t.UNSURE
        return [rng.choice(bank).format(topic=topics, Topic=topics[:1].upper() + topics[1:])]

    word_unsure = word_no_preference

    def word_which_one(self, part: WhichOne, rng: random.Random) -> list[str]:
        return [rng.choice(t.WHICH_ONE).format(name=part.name)]

    def word_accept(self, part: Accept, rng: random.Random) -> list[str]:
        accept: tuple[str, ...] = t.ACCEPT_SUBSTITUTE if part.substitute else t.ACCEPT
        return [rng.choice(accept).format(name=part.name)]

    def word_decline(self, part: Decline, rng: random.Random) -> list[str]:
        return [self._decline(part, rng)]

    def word_opening(self, part: Opening, rng: random.Random) -> list[str]:
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
