"""Which products an agent message names (by id or by full name): one rule for the scorer and the simulated user."""

from __future__ import annotations

import functools
import re
from typing import Any

from domains.grocery.items import Product
from runner.core.memo import per_object
from runner.core.transcript import MessageEvent, Transcript

__all__ = [
    "ID_PATTERN",
    "AgentMessage",
    "NameIndex",
    "agent_messages",
    "mentions",
    "name_index",
    "names_product",
]

ID_PATTERN = re.compile(r"off_\d{8,14}")
_WORD = re.compile(r"\w+")


@functools.lru_cache(maxsize=65536)
def _name_pattern(folded_name: str) -> re.Pattern[str]:
    return re.compile(r"(?<!\w)" + re.escape(folded_name) + r"(?!\w)")


class NameIndex:
    """A catalog's products by the first word of their case-folded name, so a message is matched
    against the few products whose first word it contains, not against the whole catalog."""

    def __init__(self, catalog: Any) -> None:
        self._catalog = catalog
        self._by_word: dict[str, list[tuple[str, str]]] = {}
        for product in catalog.items:
            folded = product.name.casefold()
            words = _WORD.findall(folded)
            if words:
                self._by_word.setdefault(words[0], []).append((folded, product.id))

    def mentions(self, text: str) -> list[str]:
        """Sorted ids of the products the text names: an id written out (one the catalog
        has), or a full product name as a phrase, in any case."""
        folded = text.casefold()
        found = {pid for pid in ID_PATTERN.findall(text) if pid in self._catalog}
        for word in set(_WORD.findall(folded)):
            for name, pid in self._by_word.get(word, ()):
                if pid not in found and name in folded and _name_pattern(name).search(folded):
                    found.add(pid)
        return sorted(found)


@per_object
def name_index(catalog: Any) -> NameIndex:
    """The name index of a catalog object, built once and kept while the catalog lives."""
    return NameIndex(catalog)


def mentions(text: str, catalog: Any) -> list[str]:
    """Sorted ids of the catalog's products that a text names (by id or full name)."""
    return name_index(catalog).mentions(text)


def names_product(text: str, product: Product) -> bool:
    """Whether a text names one product: its id, or its full name as a phrase (any case)."""
    return product.id in text or bool(
        _name_pattern(product.name.casefold()).search(text.casefold())
    )


class AgentMessage:
    """One agent message of a transcript: its index in `events`, its text, the products it names."""

    __slots__ = ("content", "index", "products")

    def __init__(self, index: int, content: str, products: list[str]) -> None:
        self.index = index
        self.content = content
        self.products = products


def agent_messages(transcript: Transcript, catalog: Any) -> list[AgentMessage]:
    """Every agent message of a transcript with the products it names, in order."""
    index = name_index(catalog)
    return [
        AgentMessage(i, e.content, index.mentions(e.content))
        for i, e in enumerate(transcript.events)
        if isinstance(e, MessageEvent) and e.role == "agent"
    ]
