"""Grocery tasks: loading, errors that name file, field and value, and the valid-product helpers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from domains.grocery.store import inventory
from domains.grocery.tasks import (
    GroceryTask,
    catalog_problems,
    load_task,
    load_tasks,
    suite_digest,
)
from runner.core.domain import DomainTask
from runner.core.errors import LoadError
from tests.domains.grocery.play import (
    ALMOND_DRINK,
    CATALOG,
    HONEY_PUFFS,
    MILLET_POPS,
    OAT_CRUNCH,
    OAT_DRINK,
    SOYA_DRINK,
    make_task,
)


def _order(**fields: Any) -> dict[str, Any]:
    data = make_task().model_dump(mode="json")
    data.update(fields)
    return data


def _write(folder: Path, name: str, data: Any) -> Path:
    path = folder / name
    path.write_text(json.dumps(data) if not isinstance(data, str) else data, encoding="utf-8")
    return path


def _problems(tmp_path: Path, data: Any) -> str:
    path = _write(tmp_path, "task.json", data)
    with pytest.raises(LoadError) as info:
        load_task(path)
    assert info.value.path == str(path)
    return "\n".join(info.value.problems)


def test_a_task_file_loads_and_is_a_domain_task(tmp_path: Path) -> None:
    task = load_task(_write(tmp_path, "t.json", _order()))
    assert isinstance(task, DomainTask)
    assert task.schema_version == 1
    assert (task.id, task.kind, task.quantity, task.budget) == ("g_test", "order", 1, None)


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            {
                "constraints": [
                    {
                        "constraint": {"field": "vegan", "op": "==", "value": "sure"},
                        "reveal": "volunteer",
                    }
                ]
            },
            "value 'sure' does not fit operator '==' on enum field 'vegan'",
        ),
        (
            {
                "constraints": [
                    {
                        "constraint": {"field": "colour", "op": "==", "value": "red"},
                        "reveal": "volunteer",
                    }
                ]
            },
            "field 'colour' is not in the catalog schema",
        ),
        (
            {
                "constraints": [
                    {
                        "constraint": {"field": "price", "op": "contains", "value": 3},
                        "reveal": "volunteer",
                    }
                ]
            },
            "operator 'contains' does not fit number field 'price'",
        ),
        (
            {"allergies": ["shellfish"], "policy_flags": ["order_confirmation", "allergen_safety"]},
            "unknown allergen(s) ['shellfish']",
        ),
        (
            {"kind": "delivery"},
            "kind: Input should be 'order', 'return', 'substitution', 'cancel', 'modify', "
            "'exchange' or 'multi'",
        ),
        ({"quantity": "2"}, "quantity: Input should be a valid integer"),
        ({"budget": -3}, "budget: Input should be greater than 0"),
        ({"colour": "red"}, "colour: Extra inputs are not permitted"),
        ({"schema_version": 2}, "schema_version: Input should be 1"),
        ({"allergies": ["milk"]}, "must flag the policy 'allergen_safety'"),
        ({"budget": 5.0}, "must flag the policy 'budget'"),
        ({"policy_flags": []}, "must flag the policy 'order_confirmation'"),
        ({"constraints": []}, "an order task needs at least one constraint"),
        ({"policy_flags": ["order_confirmation", "bribery"]}, "policy_flags.1"),
    ],
)
def test_a_bad_task_names_the_field_and_value(
    tmp_path: Path, change: dict[str, Any], expected: str
) -> None:
    problems = _problems(tmp_path, _order(**change))
    assert "task g_test: " in problems
    assert expected in problems


def test_kind_specific_fields_are_checked(tmp_path: Path) -> None:
    base = _order(kind="return", constraints=[], policy_flags=["return_confirmation"])
    assert "a return task needs return_target" in _problems(tmp_path, base)
    past = [
        {
            "order_id": "A1",
            "date": "2026-10-01",
            "lines": [{"product_id": OAT_CRUNCH, "quantity": 1, "unit_price": 3.49}],
        }
    ]
    wrong = {
        **base,
        "past_orders": past,
        "return_target": {"order_id": "A1", "product_id": MILLET_POPS, "reason": "damaged"},
    }
    assert f"{MILLET_POPS!r} is not a line of past order 'A1'" in _problems(tmp_path, wrong)
    bad_reason = {
        **wrong,
        "return_target": {"order_id": "A1", "product_id": OAT_CRUNCH, "reason": "bored"},
    }
    assert "return_target.reason" in _problems(tmp_path, bad_reason)
    sub = _order(
        kind="substitution",
        wanted_product=OAT_CRUNCH,
        policy_flags=["order_confirmation", "substitution_consent"],
    )
    assert "must be listed in out_of_stock" in _problems(tmp_path, sub)
    assert "a substitution task must flag the policy 'substitution_consent'" in _problems(
        tmp_path, {**sub, "out_of_stock": [OAT_CRUNCH], "policy_flags": ["order_confirmation"]}
    )


def test_bad_json_and_folders_are_named(tmp_path: Path) -> None:
    assert "invalid JSON at line 1" in _problems(tmp_path, "{nope")
    with pytest.raises(LoadError, match="no task files"):
        load_tasks(tmp_path / "missing")
    folder = tmp_path / "suite"
    folder.mkdir()
    _write(folder, "a.json", _order())
    _write(folder, "b.json", _order())
    _write(folder, "c.json", _order(id="g_c", kind="nope"))
    with pytest.raises(LoadError) as info:
        load_tasks(folder)
    text = str(info.value)
    assert "duplicate task id 'g_test'" in text
    assert "c.json: task g_c: kind" in text


def test_load_tasks_sorts_and_the_digest_ignores_order(tmp_path: Path) -> None:
    _write(tmp_path, "z.json", _order(id="g_a"))
    _write(tmp_path, "a.json", _order(id="g_b"))
    tasks = load_tasks(tmp_path)
    assert [t.id for t in tasks] == ["g_a", "g_b"]
    assert suite_digest(tasks) == suite_digest(list(reversed(tasks)))
    assert suite_digest(tasks) != suite_digest(tasks[:1])


def test_satisfies_all_weighs_allergies_traces_budget_and_the_replaced_product() -> None:
    products = {p.id: p for p in CATALOG.items}
    plain = make_task()
    assert plain.satisfies_all(products[OAT_CRUNCH])
    assert not plain.satisfies_all(products[HONEY_PUFFS])  # not vegan
    nuts = make_task(allergies=["nuts"], policy_flags=["order_confirmation", "allergen_safety"])
    assert nuts.allergen_hits(products[OAT_CRUNCH]) == ["nuts"]  # a trace counts
    assert not nuts.satisfies_all(products[OAT_CRUNCH])
    assert nuts.satisfies_all(products[MILLET_POPS])
    cheap = make_task(budget=3.18, quantity=2, policy_flags=["order_confirmation", "budget"])
    assert cheap.within_budget(products[SOYA_DRINK])  # 2 × 1.59 = 3.18, exactly the budget
    assert not cheap.within_budget(products[OAT_DRINK])  # 2 × 1.99 = 3.98


def test_solutions_need_stock_and_validity() -> None:
    task = make_task(
        allergies=["nuts", "gluten"],
        out_of_stock=[MILLET_POPS],
        policy_flags=["order_confirmation", "allergen_safety"],
    )
    stock = inventory(task, CATALOG)
    found = task.solutions(CATALOG, stock)
    assert found == sorted(found)
    assert MILLET_POPS not in found
    assert OAT_CRUNCH not in found
    assert ALMOND_DRINK not in found
    for pid in found:
        product = CATALOG.get(pid)
        assert product is not None
        assert task.satisfies_all(product)
        assert stock[pid] >= 1
    assert task.solutions(CATALOG, {}) == []


def test_catalog_problems_name_missing_ids() -> None:
    task = make_task(out_of_stock=["off_9999999999999"])
    assert catalog_problems(task, CATALOG) == [
        "task g_test: out_of_stock names 'off_9999999999999', which is not in the catalog"
    ]
    assert catalog_problems(make_task(), CATALOG) == []


def test_the_task_schema_is_versioned_and_closed() -> None:
    schema = GroceryTask.model_json_schema()
    assert next(iter(schema["properties"])) == "schema_version"
    assert schema["additionalProperties"] is False


def test_every_shopping_task_of_the_dev_suite_holds_the_allergy_question() -> None:
    """Policy section 1's question is flagged on every order, substitution and return (what the
    suite generator writes); account tasks put no product forward and do not carry it."""
    from domains.grocery.tasks import ACCOUNT_KINDS, ALLERGY_QUESTION

    tasks = load_tasks(Path(__file__).resolve().parents[3] / "domains" / "grocery" / "tasks")
    shopping = [t for t in tasks if t.kind not in ACCOUNT_KINDS]
    assert len(shopping) == 60
    assert all(ALLERGY_QUESTION in t.policy_flags for t in shopping)
    assert not any(ALLERGY_QUESTION in t.policy_flags for t in tasks if t.kind in ACCOUNT_KINDS)
    flagged = make_task().flagged(ALLERGY_QUESTION)
    assert flagged.policy_flags == ["allergy_question", "order_confirmation"]
    assert flagged.flagged(ALLERGY_QUESTION, on=False).policy_flags == ["order_confirmation"]
