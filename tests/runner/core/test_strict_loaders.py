"""Loaders coerce nothing: NaN/Infinity constraint values and loosely typed or NUL-holding
catalog records are refused, each error naming the file, the record and the field."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from domains.movies.catalog import Catalog
from domains.movies.tasks import load_task
from runner.core.errors import LoadError

TASK = Path(__file__).parents[3] / "tasks" / "task_001.json"
RECORD: dict[str, Any] = {
    "id": "tmdb_7",
    "title": "Untitled",
    "release_date": "2020-01-01",
    "runtime": 100,
    "genres": ["Drama"],
    "overview": "A quiet story.",
    "cast": ["Ana Reyes"],
    "director": "Lee Park",
    "rating": 7,
    "vote_count": 100,
    "streaming_services": [],
    "sponsored": False,
    "content_rating": "PG-13",
}


def _task_with(tmp_path: Path, value_text: str) -> Path:
    raw = json.loads(TASK.read_text())
    raw["constraints"] = [
        {"constraint": {"field": "runtime", "op": "<=", "value": "__V__"}, "reveal": "volunteer"}
    ]
    path = tmp_path / "task_nan.json"
    path.write_text(json.dumps(raw).replace('"__V__"', value_text))
    return path


@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity"])
def test_non_finite_constraint_values_are_refused(tmp_path: Path, value: str) -> None:
    path = _task_with(tmp_path, value)
    with pytest.raises(LoadError) as refused:
        load_task(path)
    message = str(refused.value)
    assert str(path) in message
    assert "constraints" in message
    assert "field 'runtime'" in message
    assert "NaN and infinities" in message


def test_non_finite_numbers_inside_a_list_are_refused(tmp_path: Path) -> None:
    path = _task_with(tmp_path, "[90, Infinity]")
    path.write_text(path.read_text().replace('"op": "<="', '"op": "in"'))
    with pytest.raises(LoadError, match="NaN and infinities"):
        load_task(path)


def _catalog(tmp_path: Path, **changes: Any) -> Path:
    path = tmp_path / "catalog.json"
    good = dict(RECORD, id="tmdb_1")
    path.write_text(json.dumps([good, {**RECORD, **changes}]))
    return path


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"runtime": True}, "runtime"),
        ({"runtime": 100.0}, "runtime"),
        ({"runtime": "100"}, "runtime"),
        ({"vote_count": False}, "vote_count"),
        ({"rating": "7.5"}, "rating"),
        ({"rating": True}, "rating"),
        ({"sponsored": 0}, "sponsored"),
        ({"sponsored": "false"}, "sponsored"),
        ({"release_date": 1577836800}, "release_date"),
        ({"release_date": "2020-01-01T00:00:00"}, "release_date"),
        ({"title": 12}, "title"),
        ({"title": "Un\u0000titled"}, "title"),
        ({"overview": "\u0000"}, "overview"),
        ({"genres": ["Drama\u0000"]}, "genres"),
        ({"cast": [7]}, "cast"),
    ],
)
def test_catalog_records_coerce_nothing(
    tmp_path: Path, changes: dict[str, Any], field: str
) -> None:
    path = _catalog(tmp_path, **changes)
    with pytest.raises(LoadError) as refused:
        Catalog.load(path)
    assert refused.value.path == str(path)
    assert len(refused.value.problems) == 1, refused.value.problems
    assert refused.value.problems[0].startswith(f"item tmdb_7: {field}"), refused.value.problems


def test_a_nan_rating_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "catalog.json"
    path.write_text(json.dumps([RECORD]).replace('"rating": 7', '"rating": NaN'))
    with pytest.raises(LoadError, match="item tmdb_7: rating"):
        Catalog.load(path)


def test_a_well_typed_record_loads(tmp_path: Path) -> None:
    catalog = Catalog.load(_catalog(tmp_path))
    item = catalog.get("tmdb_7")
    assert item is not None
    assert item.rating == 7.0
    assert item.release_date.isoformat() == "2020-01-01"
