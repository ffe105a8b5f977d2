"""The shopper's paraphrase pool: used (a need's sentence changes shape between seeds), large, and
safe - every sentence of a large sample passes the leak audit, the baselines' ear hears exactly
the need it states, and the audit would catch it were that need hidden."""

from __future__ import annotations

import dataclasses
import random
import re
from typing import Any

import pytest

from domains.grocery.agents.ear import Heard, hear
from domains.grocery.catalog import load_catalog
from domains.grocery.suite import SNAPSHOTS_DIR, TASKS_DIR
from domains.grocery.tasks import GroceryTask, load_tasks
from domains.grocery.user.leaks import message_leaks
from domains.grocery.user.needs import Need, needs_of
from domains.grocery.user.templates import STATE_GRAMMAR, state_need


@pytest.fixture(scope="module")
def world() -> tuple[Any, list[GroceryTask]]:
    snapshot = sorted(p for p in SNAPSHOTS_DIR.iterdir() if p.is_dir())[-1]
    return load_catalog(snapshot), load_tasks(TASKS_DIR)


def _stated(tasks: list[GroceryTask]) -> list[tuple[GroceryTask, Need]]:
    return [(task, n) for task in tasks for n in needs_of(task) if n.reveal != "hidden"]


def _shape(sentence: str, need: Need) -> str:
    words = [*need.allergies, str(need.budget)]
    if need.constraint is not None:
        value = need.constraint.value
        words += [str(v) for v in value] if isinstance(value, list) else [str(value)]
    for w in words:
        sentence = re.sub(re.escape(w.replace("-", " ")), "<v>", sentence, flags=re.IGNORECASE)
    return re.sub(r"€?\s?\d+(?:\.\d+)?( euros)?", "<n>", sentence.lower())


def _expected(need: Need) -> Heard:
    """What the ear should hear from a sentence that states `need` and nothing else."""
    h = Heard()
    h.known_topics = {need.topic}
    if need.kind == "allergies":
        h.allergies = set(need.allergies)
        return h
    if need.kind == "budget":
        h.budget = need.budget
        return h
    c = need.constraint
    assert c is not None
    values = [str(v) for v in c.value] if isinstance(c.value, list) else [str(c.value)]
    match (c.field, c.op):
        case ("vegan" | "vegetarian", "=="):
            setattr(h, c.field, True)
        case ("nutriscore", "in" | "=="):
            h.nutri = set(values)
        case ("labels", "contains"):
            h.labels = set(values)
        case ("palm_oil", "=="):
            h.palm_free = True
        case ("nova_group", "<="):
            h.nova_max = int(values[0])
        case ("brand", "!="):
            h.brands_out = set(values)
        case ("countries", "contains"):
            h.country = values[0]
        case ("categories", "contains"):
            h.known_topics = set()  # the kind of product is heard from the opening request
        case _:
            pytest.fail(f"no expectation for {c}")
    return h


def test_a_need_is_said_in_a_different_shape_at_another_seed(
    world: tuple[Any, list[GroceryTask]],
) -> None:
    stated = _stated(world[1])
    differ = sum(
        _shape(state_need(n, random.Random(f"write|0|{t.id}|0")), n)
        != _shape(state_need(n, random.Random(f"write|1|{t.id}|0")), n)
        for t, n in stated
    )
    assert differ / len(stated) > 0.9, differ / len(stated)


def test_every_need_kind_has_a_pool_of_thousands_of_sentences() -> None:
    slots = ["names", "euros", "packs", "d", "letters", "label", "n", "b", "c", "cat"]
    assert STATE_GRAMMAR.missing(slots=[*slots, "topic", "f", "op", "v"]) == {}
    for rule in ("allergies", "budget", "category", "country_in", "brand_not", "nova"):
        assert STATE_GRAMMAR.count(rule) >= 2000, rule
    for rule in ("diet", "nutri_in", "label_in", "palm", "price"):
        assert STATE_GRAMMAR.count(rule) >= 500, rule


def test_a_large_sample_passes_the_leak_audit_and_is_heard_as_its_need(
    world: tuple[Any, list[GroceryTask]],
) -> None:
    catalog, tasks = world
    checked = 0
    for task, need in _stated(tasks):
        asked: set[Any] = set() if need.reveal == "volunteer" else {need.topic}
        expected = dataclasses.asdict(_expected(need))
        hidden = need.model_copy(update={"reveal": "hidden"})
        for draw in range(12):
            sentence = state_need(need, random.Random(f"sample|{draw}|{task.id}"))
            assert message_leaks(needs_of(task), sentence, asked) == [], sentence
            assert message_leaks([hidden], sentence, set()), sentence  # caught were it hidden
            said = [{"role": "user", "content": "Hi."}, {"role": "user", "content": sentence}]
            heard = hear(said, catalog, [None])
            assert dataclasses.asdict(heard) | {"last_reply": ""} == expected, sentence
            checked += 1
    assert checked > 1500
