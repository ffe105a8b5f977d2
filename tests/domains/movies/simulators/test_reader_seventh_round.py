"""Seventh round (issue 37): probes of our own, in the voices of LLM chat agents, for each cause
found in the first half of the retired `chat_heldout4` (no corpus message or paraphrase of one).
Each probe states the cause it stands for; statements and reactions that use the same words ask
nothing, so a rule grown too wide fails here as surely as one too narrow."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from domains.movies.catalog import Catalog
from domains.movies.simulators.reader import RuleReader, rule_reader
from domains.movies.simulators.reader_score import CORPUS_SNAPSHOT
from runner.core.paths import SNAPSHOTS_DIR

_PROBES = Path(__file__).parent / "reader_probes_seventh_round.json"


@cache
def _reader() -> RuleReader:
    return rule_reader(Catalog.load(SNAPSHOTS_DIR / CORPUS_SNAPSHOT))


def _rows(key: str) -> list[Any]:
    rows = json.loads(_PROBES.read_text("utf-8"))
    return [pytest.param(row, id=f"{row['batch']}-{i}") for i, row in enumerate(rows) if key in row]


@pytest.mark.parametrize("row", _rows("asks"))
def test_fields_asked_by_cause(row: dict[str, Any]) -> None:
    assert _reader().read(row["text"]).asked == tuple(row["asks"]), row["cause"]


@pytest.mark.parametrize("row", _rows("proposes"))
def test_items_put_forward_by_cause(row: dict[str, Any]) -> None:
    assert sorted(_reader().read(row["text"]).proposed) == sorted(row["proposes"]), row["cause"]
