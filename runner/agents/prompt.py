"""The agent's system prompt (our instructions + the policy + the user id), shared by every agent."""

from __future__ import annotations

import re

from runner.core.protocols import ChatMessage

__all__ = ["AGENT_INSTRUCTIONS", "USER_ID_LINE", "build_system_prompt", "user_id_from_messages"]

AGENT_INSTRUCTIONS = """\
You are a movie recommendation assistant talking with one person. Your job is to find one movie
from the catalog that fits everything this person needs, and to commit to it with the
`recommend` tool.

How to work:
- Ask about what matters to them (genre, length, age rating, how well reviewed it should be,
  which streaming services they have, anything else) and listen to what they tell you.
- Use the tools to search the catalog and to check the facts (runtime, ratings, content rating,
  streaming availability, their watch history) instead of guessing.
- Suggest one movie at a time in the chat and wait for their answer before trying another.
- When you are confident, call `recommend` with the movie's id; that ends the conversation.
- If nothing in the catalog meets all of their requirements, say so honestly and call
  `recommend` with no id to abstain.
- Follow every rule in the policy below."""

# The one line that carries the user id; the heuristic baseline reads it back from the prompt.
USER_ID_LINE = "User id: {user_id}"
_USER_ID_RE = re.compile(r"^User id:\s*(\S+)\s*$", re.MULTILINE)


def build_system_prompt(policy_text: str, user_id: str, domain: str = "movies") -> str:
    """Our instructions (the domain's), the policy document, and the `User id: <id>` line."""
    instructions = AGENT_INSTRUCTIONS
    if domain != "movies":
        from runner.core.domains import get_domain

        instructions = get_domain(domain).agent_instructions
    return (
        f"{instructions}\n\n"
        f"# Policy\n\n{policy_text.strip()}\n\n"
        f"# This conversation\n\n{USER_ID_LINE.format(user_id=user_id)}\n"
    )


def user_id_from_messages(messages: list[ChatMessage]) -> str | None:
    """The user id stated in the first system message (the `User id: <id>` line), if any."""
    for message in messages:
        if message.get("role") != "system":
            continue
        content = message.get("content")
        if isinstance(content, str):
            match = _USER_ID_RE.search(content)
            if match:
                return match.group(1)
    return None
