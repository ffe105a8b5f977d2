"""The template writer: a decided reply act in, the user's words out, from our seeded paraphrase bank."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import ClassVar

from domains.movies.catalog import Catalog
from domains.movies.simulators import templates as t
from domains.movies.simulators.acts import ActPart, AskBack, Decline, Inform, NoPreference, Opening
from domains.movies.simulators.vocabulary import FIELD_TOPICS
from runner.kits.user.writer import Bank, Keyed, TemplateWriterBase, join_list

__all__ = ["TemplateWriter"]


class TemplateWriter(TemplateWriterBase):
    """Words every act from the template bank; the same act and rng give the same words."""

    banks: ClassVar[Mapping[str, Bank | Keyed]] = {
        "hold_back": Keyed("reason", t.TOO_MANY_QUESTIONS),
        "leave": Keyed("reason", {"list": t.LEAVE_ON_LIST, "declines": t.LEAVE_AFTER_DECLINES}),
        "accept": t.ACCEPT,
        "push_to_commit": t.PUSH_TO_COMMIT,
        "nothing_fits_ack": t.NOTHING_FITS_REPLY,
        "accepted_already": t.ASK_AGAIN_AFTER_ACCEPT,
    }

    def __init__(self, catalog: Catalog) -> None:
        self._catalog = catalog

    def merge(self, parts: list[ActPart]) -> list[ActPart]:
        """Consecutive "nothing to say" topics are said in one sentence."""
        out: list[ActPart] = []
        for part in parts:
            last = out[-1] if out else None
            if isinstance(part, NoPreference) and isinstance(last, NoPreference):
                out[-1] = NoPreference(topics=[*last.topics, *part.topics])
            else:
                out.append(part)
        return out

    def word_no_preference(self, part: NoPreference, rng: random.Random) -> list[str]:
        topics = [FIELD_TOPICS.get(f, f.replace("_", " ")) for f in part.topics]
        return [rng.choice(t.NO_PREFERENCE).format(topic=join_list(topics, "or"))]

    def word_opening(self, part: Opening, rng: random.Random) -> list[str]:
        words = [rng.choice(t.OPENINGS)]
        if part.persona:
            words.append(part.persona)
        words += [t.state_constraint(c, rng) for c in part.constraints]
        if not part.constraints:
            words.append("I'm open to suggestions.")
        return words

    def word_inform(self, part: Inform, rng: random.Random) -> list[str]:
        words = []
        if part.services is not None:
            words.append(t.subscription_sentence(part.services, rng))
        for c in part.constraints:
            sentence = t.vague_constraint(c, rng) if part.vague else None
            words.append(sentence or t.state_constraint(c, rng))
        return words

    def word_ask_back(self, part: AskBack, rng: random.Random) -> list[str]:
        return [rng.choice(t.ASK_BACK).format(title=part.title)]

    def word_decline(self, part: Decline, rng: random.Random) -> list[str]:
        return [self._decline(part, rng)]

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
