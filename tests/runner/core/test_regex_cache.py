"""The regex program cache gives exactly the patterns `re.compile` gives, from a fresh or a kept program."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from domains.movies.simulators import reader, vocabulary
from runner.core import regex_cache


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setattr(regex_cache, "CACHE_DIR", tmp_path)
    regex_cache._reset_for_tests()
    yield tmp_path
    regex_cache._reset_for_tests()


def _patterns() -> list[re.Pattern[str]]:
    found = [v for m in (reader, vocabulary) for v in vars(m).values() if isinstance(v, re.Pattern)]
    found += [p for _field, p in (*reader._FIELD_RES, *reader._WEAK_RES)]
    found.append(re.compile(r"(?P<a>x)(y)?(?P<b>z)|(?i:Q)", re.MULTILINE))
    return found


def _same(a: re.Pattern[str], b: re.Pattern[str]) -> None:
    assert a == b  # same text, flags and program
    assert (a.flags, a.groups, a.groupindex) == (b.flags, b.groups, b.groupindex)


def test_a_kept_program_gives_the_pattern_re_compiles(cache_dir: Path) -> None:
    patterns = _patterns()
    assert len(patterns) > 60
    for p in patterns:  # built here, then written at exit
        _same(regex_cache.compile(p.pattern, p.flags), re.compile(p.pattern, p.flags))
    regex_cache._save()
    assert len(list(cache_dir.glob("*.marshal"))) == 1
    regex_cache._reset_for_tests()
    text = "Is a two-hour R-rated horror on Netflix okay, or older films from the 90s? TITLEREF"
    for p in patterns:  # read back
        kept = regex_cache.compile(p.pattern, p.flags)
        _same(kept, re.compile(p.pattern, p.flags))
        assert [m.span() for m in kept.finditer(text)] == [m.span() for m in p.finditer(text)]
    assert not regex_cache._new  # nothing was built again


def test_a_broken_or_foreign_cache_file_falls_back_to_re(cache_dir: Path) -> None:
    file = regex_cache._file()
    file.write_bytes(b"not marshal at all")
    _same(regex_cache.compile(r"(?i)\bfoo\b"), re.compile(r"(?i)\bfoo\b"))
    regex_cache._reset_for_tests({("bar", 0): (0, [1, 2, 3], 0, {}, (None,))})  # a bad program
    _same(regex_cache.compile("bar"), re.compile("bar"))
