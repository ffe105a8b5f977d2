"""The `user` model of the local model server: plays a simulated user from the requirement lines of its prompt.

It lets the LiteLLM user simulator (and the v1 harness's) run offline against `taurec
serve-model`, so a benchmark or test drives both roles over HTTP. Like the baselines it is a pure
function of the conversation: it opens with the requirements to say up front, answers a question
with the ones to say when asked, accepts a proposed title and otherwise asks for a pick. It reads
two prompt styles: ours (`runner.simulators.llm`: answer in JSON with a verdict) and the v1
simulator's (plain text; `###ACCEPTED###` / `###REJECTED###` tokens).
"""

from __future__ import annotations

import json
import re

from runner.protocols import AgentReply, ChatMessage, ToolSchema

__all__ = ["user_policy"]

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
