"""The template writer: a decided reply act in, the user's words out, from our seeded paraphrase bank."""

from __future__ import annotations

import random

from domains.movies.catalog import Catalog
from domains.movies.simulators import templates as t
from domains.movies.simulators.acts import (
    Accept,
    AcceptedAlready,
    ActPart,
    AskBack,
    Decline,
    HoldBack,
    Inform,
    Leave,
    NoPreference,
    NothingFitsAck,
    Opening,
    PushToCommit,
    ReplyAct,
)
from domains.movies.simulators.vocabulary import FIELD_TOPICS

__all__ = ["TemplateWriter"]


class TemplateWriter:
    """Words every act from the template bank; the same act and rng give the same words."""

    def __init__(self, catalog: Catalog) -> None:
        self._catalog = catalog

    def write(self, act: ReplyAct, rng: random.Random) -> str:
        """The user's message for one act."""
        out: list[str] = []
        parts = list(act.parts)
        i = 0
        while i < len(parts):
            part = parts[i]
            if isinstance(part, NoPreference):
                # Consecutive "nothing to say" topics are said in one sentence.
                fields = list(part.fields)
                while i + 1 < len(parts) and isinstance(parts[i + 1], NoPreference):
                    i += 1
                    nxt = parts[i]
                    assert isinstance(nxt, NoPreference)
                    fields += nxt.fields
                topics = t.join_list([FIELD_TOPICS.get(f, f.replace("_", " ")) for f in fields])
                out.append(rng.choice(t.NO_PREFERENCE).format(topic=topics))
            else:
                out += self._part(part, rng)
            i += 1
        return " ".join(s for s in out if s)

    def _part(self, part: ActPart, rng: random.Random) -> list[str]:
        if isinstance(part, Opening):
            words = [rng.choice(t.OPENINGS)]
            if part.persona:
                words.append(part.persona)
            words += [t.dress(t.state_constraint(c, rng), rng) for c in part.constraints]
            if not part.constraints:
                words.append("I'm open to suggestions.")
            return words
        if isinstance(part, Inform):
            words = []
            if part.services is not None:
                words.append(t.subscription_sentence(part.services, rng))
            for c in part.constraints:
                sentence = t.vague_constraint(c, rng) if part.vague else None
                words.append(sentence or t.dress(t.state_constraint(c, rng), rng))
            return words
        if isinstance(part, HoldBack):
            return [rng.choice(t.TOO_MANY_QUESTIONS[part.reason])]
        if isinstance(part, AskBack):
            return [rng.choice(t.ASK_BACK).format(title=part.title)]
        if isinstance(part, Accept):
            return [rng.choice(t.ACCEPT)]
        if isinstance(part, Decline):
            return [self._decline(part, rng)]
        if isinstance(part, Leave):
            bank = t.LEAVE_ON_LIST if part.reason == "list" else t.LEAVE_AFTER_DECLINES
            return [rng.choice(bank)]
        if isinstance(part, PushToCommit):
            return [rng.choice(t.PUSH_TO_COMMIT)]
        if isinstance(part, NothingFitsAck):
            return [rng.choice(t.NOTHING_FITS_REPLY)]
        if isinstance(part, AcceptedAlready):
            return [rng.choice(t.ASK_AGAIN_AFTER_ACCEPT)]
        raise TypeError(f"no template for act part {part!r}")

    def _decline(self, part: Decline, rng: random.Random) -> str:
        if part.reason == "watched":
            return rng.choice(t.ALREADY_SEEN)
        if part.reason == "not_for_me":
            return rng.choice(t.NOT_FOR_ME)
        if part.reason == "not_on_services":
            return rng.choice(t.NOT_ON_MY_SERVICES)
        item = self._catalog.get(part.item_id or "")
        assert part.constraint is not None, part
        assert item is not None, part
        return t.decline_hint(part.constraint, item, rng)
