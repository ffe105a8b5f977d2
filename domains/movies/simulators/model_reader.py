"""The model reader: a model reads an agent message into the closed label set, validated, with the rule reader as its fallback.

The model gets the message, the catalog records of the titles the message names (found with the
catalog's `TitleIndex`, so it never has to guess what is a title), the title the user asked about
(if any) and the user's watched titles, and must answer with one JSON object under a JSON schema:
the fields asked (from `reader_score.CORPUS_FIELDS`, in order), the ids put forward (a subset of
the named ids) and whether the message says nothing fits. The answer is validated with pydantic;
an answer that does not validate, or a model that fails after the retries, is replaced by the
rule reader's reading and counted as a fallback with its reason. The titles named are always the
index's, never the model's: the engine's "named" set does not depend on a model.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ConfigDict

from domains.movies.catalog import Catalog
from domains.movies.simulators.reader import Reading, rule_reader, title_index
from domains.movies.simulators.reader_score import CORPUS_FIELDS, CorpusField
from runner.kits.user import model as kit
from runner.kits.user.fallback import Judged
from runner.kits.user.model import ChatModel, ReadOutcome, answer_schema, parse_reading

__all__ = [
    "READER_PROMPT",
    "ModelReader",
    "ReadOutcome",
    "ReaderAnswer",
    "reader_request",
    "reading_schema",
]

READER_PROMPT = """\
You read one message a movie recommendation assistant wrote to a user, and say what it does.
Answer with one JSON object and nothing else:
- "asked": the movie fields the message asks the user about, in the order it asks them, from:
  genres, runtime, rating (review score), vote_count (how popular or well known),
  content_rating (age rating, who is watching), streaming_services, release_date, cast,
  director. A question about a value of a field asks that field ("Do you like scary movies?"
  asks genres), and a mood, vibe or tone question asks genres. A statement, a recap, a pitch,
  small talk ("have a good one", "enjoy!") and a request for a reaction to a title put forward
  ("does that sound like your kind of thing?", "want me to check where it streams?") ask nothing.
- "proposed": the ids of the titles the message puts forward for the user to watch, from the
  titles it names (given with their ids). A title used only as a comparison ("a bit like X"),
  one the user has seen named beside a new one, a place or name inside another title's plot, or
  one ruled out ("instead of X") is not put forward.
- "nothing_fits": true when the message says nothing in the catalog fits the user.
The input is JSON: "message", "titles" (catalog records of the titles it names), "pending" (the
id of a title the user asked about, or null) and "watched" (titles the user has seen)."""


class ReaderAnswer(BaseModel):
    """The model's answer, as the JSON schema asks it (validated before it is believed)."""

    model_config = ConfigDict(extra="forbid")

    asked: list[CorpusField]
    proposed: list[str]
    nothing_fits: bool


def reading_schema(named: list[str]) -> dict[str, Any]:
    """The response format: the closed label set, and ids limited to the titles named.

    With no title named the ids are plain strings (an empty enum is not a schema, and strict
    modes refuse `maxItems`); validation then refuses any id, as it refuses one not named.
    """
    ids: dict[str, Any] = {"type": "string", "enum": named} if named else {"type": "string"}
    return answer_schema(
        "reading",
        {
            "asked": {"type": "array", "items": {"type": "string", "enum": list(CORPUS_FIELDS)}},
            "proposed": {"type": "array", "items": ids},
            "nothing_fits": {"type": "boolean"},
        },
    )


def reader_request(
    catalog: Catalog, text: str, watched: frozenset[str], pending: str | None
) -> tuple[list[dict[str, Any]], list[str]]:
    """The chat messages of one reading and the ids the message names (the index's find)."""
    named = title_index(catalog).find(text)
    shown = [*named, *([pending] if pending and pending not in named else [])]
    records = [item.model_dump(mode="json") for i in shown if (item := catalog.get(i))]
    seen = [{"id": i, "title": item.title} for i in sorted(watched) if (item := catalog.get(i))]
    payload = {"message": text, "titles": records, "pending": pending, "watched": seen}
    messages = [
        {"role": "system", "content": READER_PROMPT},
        {"role": "user", "content": json.dumps(payload, ensure_ascii=False)},
    ]
    return messages, named


# A reading's key: the message, the titles watched, the title asked about.
_Key = tuple[str, frozenset[str], str | None]


class ModelReader(kit.ModelReader[_Key, Reading]):
    """Reads agent messages with a model (the kit's loop); the rule reader answers whenever the
    model's answer is unusable. One reader serves one trial."""

    def __init__(self, catalog: Catalog, endpoint: ChatModel, *, memo_size: int = 4096) -> None:
        rules = rule_reader(catalog)

        def request(key: _Key) -> kit.ReadRequest[Reading]:
            text, watched, pending = key
            messages, named = reader_request(catalog, text, watched, pending)
            described = rules.described(text)
            return messages, reading_schema(named), lambda a: _validate(a, named, described)

        super().__init__(
            endpoint,
            request,
            lambda key: rules.read(key[0], watched=key[1], pending=key[2]),
            memo_size=memo_size,
        )

    def remembers(
        self, text: str, *, watched: frozenset[str] = frozenset(), pending: str | None = None
    ) -> bool:
        """Whether `read` would answer from its memo, without a call."""
        return self.remembers_key((text, watched, pending))

    async def read(
        self, text: str, *, watched: frozenset[str] = frozenset(), pending: str | None = None
    ) -> ReadOutcome[Reading]:
        return await self.read_key((text, watched, pending))


def _validate(answer: str, named: list[str], described: tuple[str, ...]) -> Judged[Reading]:
    """The reading an answer holds, or why it holds none (reason code, detail); whether the
    message describes its titles (a pitch) is the rules' reading, as the titles named are."""
    parsed, problem = parse_reading(answer, ReaderAnswer, named, "title")
    if parsed is None:
        return None, problem
    proposed = tuple(dict.fromkeys(parsed.proposed))
    reading = Reading(
        asked=tuple(dict.fromkeys(parsed.asked)),
        proposed=proposed,
        named=tuple(named),
        nothing_fits=parsed.nothing_fits and not proposed,
        described=described,
    )
    return reading, ("", "")
