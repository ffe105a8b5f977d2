"""`predicate_holds` (the fast check searches and audits use) judges as `evaluate_predicate` does."""

from __future__ import annotations

import datetime as dt
import itertools
from typing import Any

import pytest

from runner.core.predicates import Op, evaluate_predicate, predicate_holds

CASES: list[tuple[Op, Any, list[Any]]] = [
    ("<=", 120, [90, 120, 121, 150.5]),
    (">=", 7.5, [7.0, 7.5, 8.1, float("nan")]),
    ("<=", "2020-01-01", ["2019-12-31", "2020-01-01", "2021-05-05"]),
    ("==", "PG-13", ["PG-13", "R", None]),
    ("!=", True, [True, False]),
    ("contains", "Comedy", [["Comedy", "Drama"], ["Drama"], []]),
    ("not_contains", "Horror", [["Horror"], ["Comedy"]]),
    ("contains_any", ["Netflix", "Hulu"], [["Hulu"], ["Max"], []]),
    ("in", ["G", "PG"], ["G", "R"]),
]


@pytest.mark.parametrize(("op", "value", "actuals"), CASES)
def test_the_fast_check_agrees_with_the_judged_one(op: Op, value: Any, actuals: list[Any]) -> None:
    verdicts = []
    for actual in actuals:
        judged = evaluate_predicate("field", op, value, actual).satisfied
        assert predicate_holds(op, value, actual) is judged, (op, value, actual)
        verdicts.append(judged)
    assert len(set(verdicts)) == 2  # each case has an item that meets it and one that does not


def test_a_date_is_compared_as_its_iso_string_by_both() -> None:
    for day, bound in itertools.product(
        [dt.date(2019, 12, 31), dt.date(2020, 1, 1)], ["2019-12-31", "2020-01-01"]
    ):
        judged = evaluate_predicate("release_date", ">=", bound, day)
        assert judged.actual == day.isoformat()
        assert predicate_holds(">=", bound, day.isoformat()) is judged.satisfied
