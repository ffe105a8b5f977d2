"""What the docs agent reads of a conversation: texts, tool uses with results, yes and no."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "Conversation",
    "ToolUse",
    "call",
    "full_name",
    "is_no",
    "is_yes",
    "money",
    "sentences",
]


@dataclass(frozen=True)
class ToolUse:
    """One tool call the agent made, with its arguments and parsed result."""

    name: str
    args: dict[str, Any]
    result: Any

    @property
    def ok(self) -> bool:
        return not (isinstance(self.result, dict) and "error" in self.result)


@dataclass
class Conversation:
    """The conversation so far: text turns (role, text) and tool uses, in order."""

    turns: list[tuple[str, str]] = field(default_factory=list)
    uses: list[ToolUse] = field(default_factory=list)
    # For each text turn, how many tool uses came before it.
    uses_before: list[int] = field(default_factory=list)

    @classmethod
    def from_messages(cls, messages: list[dict[str, Any]]) -> Conversation:
        conversation = cls()
        pending: dict[str, tuple[str, dict[str, Any]]] = {}
        for message in messages:
            role = message.get("role")
            for wire in message.get("tool_calls") or []:
                function = wire.get("function") or {}
                raw = function.get("arguments") or "{}"
                try:
                    args = json.loads(raw) if isinstance(raw, str) else dict(raw)
                except ValueError:
                    args = {}
                pending[str(wire.get("id"))] = (str(function.get("name")), args)
            if role == "tool":
                name, args = pending.pop(str(message.get("tool_call_id")), ("?", {}))
                try:
                    result = json.loads(message.get("content") or "null")
                except ValueError:
                    result = {"error": message.get("content")}
                conversation.uses.append(
                    ToolUse(name, args if isinstance(args, dict) else {}, result)
                )
            elif role in ("user", "assistant") and (message.get("content") or "").strip():
                conversation.turns.append((role, str(message["content"])))
                conversation.uses_before.append(len(conversation.uses))
        return conversation

    @property
    def users(self) -> list[str]:
        return [text for role, text in self.turns if role == "user"]

    @property
    def opening(self) -> str:
        users = self.users
        return users[0] if users else ""

    @property
    def last_agent(self) -> str:
        """Our last text message, if the shopper has answered it (else "")."""
        for index in range(len(self.turns) - 1, -1, -1):
            if self.turns[index][0] == "assistant":
                return self.turns[index][1]
        return ""

    @property
    def last_user(self) -> str:
        """The shopper's last message when it is the newest turn (else "")."""
        if self.turns and self.turns[-1][0] == "user":
            return self.turns[-1][1]
        return ""

    def agent_said(self, marker: str) -> bool:
        return any(role == "assistant" and marker in text for role, text in self.turns)

    def reply_after(self, marker: str) -> str | None:
        """The shopper's reply to our last message holding `marker` (None: not asked or not yet)."""
        for index in range(len(self.turns) - 1, -1, -1):
            role, text = self.turns[index]
            if role == "assistant" and marker in text:
                following = self.turns[index + 1 : index + 2]
                return following[0][1] if following and following[0][0] == "user" else None
        return None

    def results(self, name: str) -> list[ToolUse]:
        return [use for use in self.uses if use.name == name]

    def uses_since_last_text(self) -> list[ToolUse]:
        start = self.uses_before[-1] if self.uses_before else 0
        return self.uses[start:]

    def user_text(self) -> str:
        return " ".join(self.users)

    def next_id(self) -> str:
        return f"dx{len(self.uses) + 1}"


def call(
    conversation: Conversation, name: str, offset: int = 0, **arguments: Any
) -> dict[str, Any]:
    """A protocol tool call with an id unique within the trial."""
    return {"id": f"dx{len(conversation.uses) + 1 + offset}", "name": name, "arguments": arguments}


_SENTENCE = re.compile(r"(?<=[.!?;])\s+|\s+(?:—|-)\s+")


def sentences(text: str) -> list[str]:
    """Split a message into sentences (keeps decimals such as 2.45 whole)."""
    return [s.strip() for s in _SENTENCE.split(text) if s.strip()]


_MONEY = re.compile(
    r"(?:€\s?(\d+(?:[.,]\d{1,2})?))|(?:(\d+(?:[.,]\d{1,2})?)\s?(?:euros?|eur\b|€))", re.IGNORECASE
)


def money(text: str) -> list[float]:
    """Every euro amount in `text`."""
    return [float((a or b).replace(",", ".")) for a, b in _MONEY.findall(text)]


_YES = re.compile(
    r"\b(yes|yeah|yep|yup|sure|ok|okay|go ahead|go for it|please do|do it|sounds good|sounds great|"
    r"that works|works for me|perfect|great|i'll take|i will take|deal|fine|confirm|confirmed|"
    r"absolutely|of course|correct|that's right|lovely|let's do|exactly|agreed|happy with|"
    r"proceed|place it|that one|happy to|glad to|will do|just right|spot on|ideal|looks good|sounds right|"
    r"that's it|suits me|take it|i'll have|works)\b",
    re.IGNORECASE,
)
_NO = re.compile(
    r"(^\W*(no|nope|nah|hmm|not)\b)|\b(not for me|rather not|don't|do not|doesn't|isn't|not quite|"
    r"not really|no thanks|pricier|too |cheaper|prefer|another|something else|"
    r"skip|pass on|won't|wouldn't|can't|cannot|not that|other than|rather)\b",
    re.IGNORECASE,
)


def is_no(text: str) -> bool:
    return bool(_NO.search(text))


def is_yes(text: str) -> bool:
    """A clear yes: a yes word and no refusal."""
    return bool(_YES.search(text)) and not is_no(text)


def full_name(product: dict[str, Any]) -> str:
    """How a product is named to the shopper: name, brand and pack size."""
    size = product.get("quantity") or product.get("size") or ""
    brand = product.get("brand") or ""
    base = f"{product.get('name')} by {brand}" if brand else str(product.get("name"))
    return f"{base} ({size})" if size else base
