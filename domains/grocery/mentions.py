"""Which products an agent message names (by id or by full name), and which ids the agent had seen by then: one rule for the scorer and the user."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from typing import Any

from domains.grocery.items import Product
from runner.transcript import MessageEvent, ToolCallEvent, Transcript

__all__ = ["ID_PATTERN", "AgentMessage", "agent_messages", "mentions", "names_product"]

ID_PATTERN = re.compile(r"off_\d{8,14}")


@functools.lru_cache(maxsize=65536)
def _name_pattern(name: str) -> re.Pattern[str]:
    return re.compile(r"(?<!\w)" + re.escape(name.casefold()) + r"(?!\w)")


def names_product(text: str, product: Product, folded: str | None = None) -> bool:
    """Whether a text names the product: its id, or its full name as a phrase (any case)."""
    if product.id in text:
        return True
    return _name_pattern(product.name).search(folded or text.casefold()) is not None


def mentions(text: str, candidates: Iterable[str], catalog: Any) -> list[str]:
    """The ids among `candidates` (plus any id written in the text) that the text names,
    sorted; ids the catalog lacks are left out."""
    folded = text.casefold()
    found = set()
    for pid in {*candidates, *ID_PATTERN.findall(text)}:
        product = catalog.get(pid)
        if product is not None and names_product(text, product, folded):
            found.add(pid)
    return sorted(found)


class AgentMessage:
    """One agent message of a transcript: its index in `events`, its text, the products it names."""

    __slots__ = ("content", "index", "products")

    def __init__(self, index: int, content: str, products: list[str]) -> None:
        self.index = index
        self.content = content
        self.products = products


def agent_messages(transcript: Transcript, catalog: Any) -> list[AgentMessage]:
    """Every agent message with the products it names. A product can only be named once the
    agent has seen it, so the candidates are the ids in tool calls and results before it (and
    ids written in the message itself)."""
    seen: set[str] = set()
    out: list[AgentMessage] = []
    for index, event in enumerate(transcript.events):
        if isinstance(event, ToolCallEvent):
            seen.update(ID_PATTERN.findall(event.result))
            for value in event.arguments.values():
                if isinstance(value, str):
                    seen.update(ID_PATTERN.findall(value))
        elif isinstance(event, MessageEvent) and event.role == "agent":
            out.append(AgentMessage(index, event.content, mentions(event.content, seen, catalog)))
    return out
