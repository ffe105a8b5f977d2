"""The bounded memo behind the tool-outcome and leak-audit caches: least recently used goes first."""

from __future__ import annotations

from runner.core.memo import BoundedMemo


def test_the_least_recently_used_entry_is_dropped_past_the_size() -> None:
    memo: BoundedMemo[str, int] = BoundedMemo(2)
    memo.put("a", 1)
    memo.put("b", 2)
    assert memo.get("a") == 1  # "b" is now the oldest use
    memo.put("c", 3)
    assert (memo.get("a"), memo.get("b"), memo.get("c"), len(memo)) == (1, None, 3, 2)


def test_get_or_compute_computes_once_per_key() -> None:
    memo: BoundedMemo[str, list[str]] = BoundedMemo(8)
    calls: list[str] = []

    def compute() -> list[str]:
        calls.append("x")
        return ["value"]

    first = memo.get_or_compute("k", compute)
    assert memo.get_or_compute("k", compute) is first
    assert calls == ["x"]
