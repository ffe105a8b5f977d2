"""The movie user's models on the local model server: stand-ins that answer over HTTP as a provider's model would.

- `user`: plays a free-writing simulated user from the requirement lines of its prompt, for the
  v1 harness's LiteLLM user (plain text; `###ACCEPTED###` / `###REJECTED###` tokens) and the
  JSON-with-a-verdict prompt style free-writing users use. A pure function of the conversation:
  it opens with the requirements to say up front, answers a question with the ones to say when
  asked, accepts a proposed title and otherwise asks for a pick.
- `taurec-user-reader` / `taurec-user-writer` / `taurec-user` (both): LLM mode's reader and writer
  (`simulators.model_reader` / `model_writer`) answered by the rule reader and the
  template writer, so LLM mode runs offline through the real client path, deterministically.
"""

from __future__ import annotations

import json
import re
from typing import Any

from domains.movies.simulators.model_reader import READER_PROMPT
from runner.core.protocols import AgentReply, ChatMessage, ChatPolicy, ToolSchema
from runner.models.user_model import both_roles

__all__ = ["USER_MODELS", "reader_policy", "user_policy", "writer_policy"]

# Our prompt's requirement lines, e.g. "- [SAY UP FRONT] the movie's runtime at most 120 minutes".
_OURS = re.compile(r"^- \[(SAY UP FRONT|SAY WHEN ASKED)\] (.+)$", re.MULTILINE)
# The v1 prompt's sections: a bold heading, then "- <field> <op> <value>" lines.
_V1_SECTION = re.compile(
    r"^\*\*(Share proactively|Share only if asked)\*\*[^\n]*\n((?:- [^\n]*\n?)*)", re.MULTILINE
)
_PROPOSAL = re.compile(r"(?i)(how about \*\*|i recommend|my pick is|i suggest)")
_ACCEPTED = "###ACCEPTED###"


def _text(message: ChatMessage) -> str:
    content = message.get("content")
    return content if isinstance(content, str) else ""


def _requirements(system: str) -> tuple[list[str], list[str]]:
    """(say up front, say when asked) from either prompt style."""
    upfront: list[str] = []
    on_ask: list[str] = []
    for label, text in _OURS.findall(system):
        (upfront if label == "SAY UP FRONT" else on_ask).append(text.strip())
    for label, block in _V1_SECTION.findall(system):
        lines = [line[2:].strip() for line in block.splitlines() if line.startswith("- ")]
        (upfront if label == "Share proactively" else on_ask).extend(lines)
    return upfront, on_ask


def user_policy(messages: list[ChatMessage], tools: list[ToolSchema], seed: int) -> AgentReply:
    """The user's next message for a simulated-user conversation (its own turns are `assistant`)."""
    system = next((_text(m) for m in messages if m.get("role") == "system"), "")
    json_style = '"verdict"' in system
    upfront, on_ask = _requirements(system)
    own_turns = sum(1 for m in messages if m.get("role") == "assistant")
    heard = next((_text(m) for m in reversed(messages) if m.get("role") == "user"), "")
    verdict = "continue"
    if own_turns == 0:
        wishes = "; ".join(upfront) if upfront else "nothing in particular"
        text = f"Hi! I'm looking for a movie to watch tonight. What I need: {wishes}."
    elif _PROPOSAL.search(heard):
        verdict = "accept"
        text = "Sounds good, I'll take it."
    elif "?" in heard:
        told = "; ".join(on_ask) if on_ask else "I don't have anything specific in mind"
        text = f"Good question. {told}. Which movie would you pick?"
    else:
        text = "Could you just pick one movie for me?"
    if json_style:
        content = json.dumps({"message": text, "verdict": verdict})
    else:
        content = f"{text} {_ACCEPTED}" if verdict == "accept" else text
    return AgentReply(content=content, tool_calls=[], usage=[])


# -- LLM mode's stand-ins: a reader and a writer answering as a provider's model would -------------


def _last_user_json(messages: list[ChatMessage]) -> dict[str, Any]:
    text = next((_text(m) for m in reversed(messages) if m.get("role") == "user"), "")
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError("the request's last user message is not a JSON object")
    return data


def reader_policy(messages: list[ChatMessage], tools: list[ToolSchema], seed: int) -> AgentReply:
    """`taurec-user-reader`: the rule reader's reading of the message, as the schema's JSON.

    It knows only what the request carries (the message, the records of the titles it names, the
    title asked about and the watched ids), as a provider's model would: a question about a
    person of the catalog who is in none of the named titles goes unread (the fidelity benchmark
    shows what that costs).
    """
    from domains.movies.catalog import Catalog, CatalogItem
    from domains.movies.simulators.reader import RuleReader

    data = _last_user_json(messages)
    items = [CatalogItem.model_validate(r) for r in data.get("titles") or []]
    reader = RuleReader(Catalog(items, source="<reader request>"))
    watched = frozenset(str(w.get("id")) for w in data.get("watched") or [] if isinstance(w, dict))
    pending = data.get("pending")
    reading = reader.read(
        str(data.get("message", "")),
        watched=watched,
        pending=pending if isinstance(pending, str) else None,
    )
    answer = {
        "asked": list(reading.asked),
        "proposed": list(reading.proposed),
        "nothing_fits": reading.nothing_fits,
    }
    return AgentReply(content=json.dumps(answer), tool_calls=[], usage=[])


def _stub_item(record: dict[str, Any]) -> Any:
    """A catalog item holding what the writer is told of a declined title (id, title, age rating)."""
    from domains.movies.catalog import CatalogItem

    return CatalogItem.model_validate(
        {
            "id": record["id"],
            "title": record.get("title", ""),
            "release_date": "2000-01-01",
            "runtime": 100,
            "genres": ["Drama"],
            "overview": "",
            "cast": [],
            "director": "",
            "rating": 0.0,
            "vote_count": 0,
            "streaming_services": [],
            "sponsored": False,
            "content_rating": record.get("content_rating", "NR"),
        }
    )


def writer_policy(messages: list[ChatMessage], tools: list[ToolSchema], seed: int) -> AgentReply:
    """`taurec-user-writer`: the template wording of the act it is sent, seeded by its variation key.

    A pure function of the request: the same act and key give the words the scripted user says.
    """
    import random

    from domains.movies.catalog import Catalog
    from domains.movies.simulators.acts import ReplyAct
    from domains.movies.simulators.writer import TemplateWriter

    data = _last_user_json(messages)
    act = ReplyAct.model_validate(data["act"])
    titles = [_stub_item(r) for r in data.get("titles") or [] if isinstance(r, dict)]
    writer = TemplateWriter(Catalog(titles, source="<writer request>"))
    words = writer.write(act, random.Random(str(data.get("variation", seed))))
    return AgentReply(content=words, tool_calls=[], usage=[])


# The user models by the name the server answers to (after the baselines: `Domain.served_models`).
USER_MODELS: dict[str, ChatPolicy] = {
    "user": user_policy,
    "taurec-user": both_roles(READER_PROMPT, reader_policy, writer_policy),
    "taurec-user-reader": reader_policy,
    "taurec-user-writer": writer_policy,
}
