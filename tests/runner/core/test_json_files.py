"""The shared JSON readers: every problem is a LoadError naming the file (and the line)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import BaseModel, ConfigDict

from runner.core.errors import LoadError
from runner.core.json_files import read_json, read_jsonl


class Row(BaseModel):
    model_config = ConfigDict(extra="forbid")

    n: int


def test_read_json_names_the_file_for_each_kind_of_bad_file(tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    good.write_text('{"a": [1, 2]}', encoding="utf-8")
    assert read_json(good) == {"a": [1, 2]}
    with pytest.raises(LoadError, match=r"missing\.json: 1 problem\(s\)\n  - file not found"):
        read_json(tmp_path / "missing.json")
    broken = tmp_path / "broken.json"
    broken.write_text('{\n  "a": ,\n}', encoding="utf-8")
    with pytest.raises(LoadError, match=r"broken\.json.*\n.*invalid JSON at line 2"):
        read_json(broken)
    latin = tmp_path / "latin.json"
    latin.write_bytes(b'{"a": "\xe9"}')
    with pytest.raises(LoadError, match=r"latin\.json.*\n.*not UTF-8 text"):
        read_json(latin)


def test_read_jsonl_skips_blank_lines_and_names_a_bad_line(tmp_path: Path) -> None:
    assert read_jsonl(tmp_path / "absent.jsonl", Row) == []
    log = tmp_path / "log.jsonl"
    log.write_text('{"n": 1}\n\n{"n": 2}\n', encoding="utf-8")
    assert read_jsonl(log, Row) == [Row(n=1), Row(n=2)]
    log.write_text('{"n": 1}\n{"n": 2, "extra": true}\n', encoding="utf-8")
    with pytest.raises(LoadError, match=r"log\.jsonl.*\n.*line 2: extra: Extra inputs"):
        read_jsonl(log, Row)
