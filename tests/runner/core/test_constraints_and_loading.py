"""Every constraint operator (satisfied and not, with reasons), every load error, and v1 loading."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from domains.movies.catalog import Catalog, CatalogItem
from domains.movies.tasks import Constraint, load_task, load_tasks
from runner.core.errors import LoadError

CASES: list[tuple[str, str, Any, int, int, str, str]] = [
    # field, op, value, item satisfying, item failing, reason fragment ok, reason fragment not ok
    ("runtime", "<=", 100, 1, 2, "runtime 95 <= 100", "runtime 142 > 100"),
    ("rating", ">=", 7.0, 1, 3, "rating 7.2 >= 7.0", "rating 6.9 < 7.0"),
    ("release_date", ">=", "2020-01-01", 1, 1, "release_date 2020-01-01 >= 2020-01-01", ""),
    ("content_rating", "==", "R", 2, 1, "'R' == 'R'", "'PG-13' != 'R'"),
    ("content_rating", "!=", "R", 1, 2, "'PG-13' != 'R'", "'R' == 'R'"),
    ("genres", "contains", "Comedy", 1, 2, "includes 'Comedy'", "does not include 'Comedy'"),
    ("genres", "not_contains", "Horror", 1, 6, "does not include 'Horror'", "includes 'Horror'"),
    (
        "genres",
        "contains_any",
        ["Horror", "Thriller"],
        3,
        1,
        "includes 'Thriller'",
        "includes none of ['Horror', 'Thriller']",
    ),
    ("content_rating", "in", ["PG", "PG-13"], 1, 2, "'PG-13' is in", "'R' is not in"),
]


@pytest.mark.parametrize(("field", "op", "value", "good", "bad", "ok_reason", "bad_reason"), CASES)
def test_every_operator_reports_satisfied_actual_and_reason(
    tiny_catalog: Catalog,
    field: str,
    op: str,
    value: Any,
    good: int,
    bad: int,
    ok_reason: str,
    bad_reason: str,
) -> None:
    constraint = Constraint.model_validate({"field": field, "op": op, "value": value})
    item = tiny_catalog.get(f"tmdb_{good}")
    assert item is not None
    check = constraint.evaluate(item)
    assert check.satisfied is True
    assert ok_reason in check.reason
    if bad_reason:
        failing = tiny_catalog.get(f"tmdb_{bad}")
        assert failing is not None
        miss = constraint.evaluate(failing)
        assert miss.satisfied is False
        assert bad_reason in miss.reason
        assert miss.actual == getattr(failing, field)


def test_date_operator_fails_with_reason(tiny_catalog: Catalog) -> None:
    item = tiny_catalog.get("tmdb_1")
    assert item is not None
    check = Constraint(field="release_date", op="<=", value="2019-06-30").evaluate(item)
    assert (check.satisfied, check.actual) == (False, "2020-01-01")
    assert check.reason == "release_date 2020-01-01 > 2019-06-30"


def test_number_in_and_bool_equality(tiny_catalog: Catalog) -> None:
    item = tiny_catalog.get("tmdb_3")
    assert item is not None
    assert Constraint(field="runtime", op="in", value=[118, 120]).evaluate(item).satisfied
    assert not Constraint(field="runtime", op="in", value=[90]).evaluate(item).satisfied
    assert Constraint(field="sponsored", op="==", value=True).evaluate(item).satisfied
    assert not Constraint(field="sponsored", op="!=", value=True).evaluate(item).satisfied


def _write_task(tmp_path: Path, v1_dir: Path, name: str, edit: Any) -> Path:
    data = json.loads((v1_dir / "tasks" / "task_001.json").read_text())
    edit(data)
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize(
    ("name", "edit", "fragments"),
    [
        (
            "unknown_field",
            lambda d: d["constraints"][0]["constraint"].update(field="budget"),
            ["constraints.0.constraint", "'budget'", "not in the catalog schema"],
        ),
        (
            "op_type_mismatch",
            lambda d: d["constraints"][0]["constraint"].update(
                field="runtime", op="contains", value="long"
            ),
            ["'contains'", "number field 'runtime'", "'long'"],
        ),
        (
            "string_for_ge",
            lambda d: d["constraints"][0]["constraint"].update(
                field="runtime", op=">=", value="120"
            ),
            ["value '120'", "'>='", "'runtime'"],
        ),
        (
            "unknown_reveal",
            lambda d: d["constraints"][0].update(reveal="sometimes"),
            ["constraints.0.reveal", "'sometimes'"],
        ),
        ("extra_key", lambda d: d.update(difficulty="hard"), ["difficulty", "'hard'", "Extra"]),
    ],
)
def test_load_errors_name_file_task_field_and_value(
    tmp_path: Path, v1_dir: Path, name: str, edit: Any, fragments: list[str]
) -> None:
    path = _write_task(tmp_path, v1_dir, name, edit)
    with pytest.raises(LoadError) as info:
        load_task(path)
    message = str(info.value)
    assert str(path) in message
    assert "task task_001" in message
    for fragment in fragments:
        assert fragment in message


def test_load_tasks_collects_errors_from_every_file(tmp_path: Path, v1_dir: Path) -> None:
    _write_task(tmp_path, v1_dir, "a", lambda d: d.update(difficulty="hard"))
    _write_task(tmp_path, v1_dir, "b", lambda d: d["constraints"][0].update(reveal="later"))
    with pytest.raises(LoadError) as info:
        load_tasks(tmp_path)
    assert len(info.value.problems) == 2
    assert any("a.json" in p for p in info.value.problems)
    assert any("b.json" in p for p in info.value.problems)


def test_all_v1_tasks_and_catalog_load_unchanged(v1_dir: Path) -> None:
    tasks = load_tasks(v1_dir / "tasks")
    assert len(tasks) == 60
    assert [t.id for t in tasks if t.no_valid_recommendation] == [
        f"task_{n:03d}" for n in range(50, 55)
    ]
    catalog = Catalog.load(v1_dir / "catalog.json")
    assert len(catalog) == 153
    raw = json.loads((v1_dir / "catalog.json").read_text())
    # Field for field: every record round-trips to exactly its v1 JSON.
    for record in raw:
        assert CatalogItem.model_validate(record).model_dump(mode="json") == record
