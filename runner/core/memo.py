"""A bounded least-recently-used memo: values computed on a miss, the oldest dropped past its size."""

from __future__ import annotations

import functools
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

__all__ = ["BoundedMemo", "per_object"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
Obj = TypeVar("Obj")


class BoundedMemo(Generic[K, V]):
    """At most `size` entries; `get` and `put` count as uses (for pure functions of the key)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: OrderedDict[K, V] = OrderedDict()

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key: object) -> bool:
        """Whether `key` is held (not counted as a use)."""
        return key in self._entries

    def get(self, key: K) -> V | None:
        found = self._entries.get(key)
        if found is not None:
            self._entries.move_to_end(key)
        return found

    def put(self, key: K, value: V) -> V:
        self._entries[key] = value
        self._entries.move_to_end(key)
        if len(self._entries) > self.size:
            self._entries.popitem(last=False)
        return value

    def get_or_compute(self, key: K, compute: Callable[[], V]) -> V:
        found = self.get(key)
        return found if found is not None else self.put(key, compute())


def per_object(build: Callable[[Obj], V]) -> Callable[[Obj], V]:
    """`build(obj)` computed once per live object (weakly keyed: an entry goes with its object),
    e.g. a catalog's search or name index."""
    cache: weakref.WeakKeyDictionary[Obj, V] = weakref.WeakKeyDictionary()

    @functools.wraps(build)
    def get(obj: Obj) -> V:
        if obj in cache:
            return cache[obj]
        value = cache[obj] = build(obj)
        return value

    return get
