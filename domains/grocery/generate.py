"""Generated grocery suites: the committed suite's grid and gate, drawn from one snapshot and a seed, with opaque ids.

`taurec tasks generate --domain grocery` calls `generate_tasks`. Each task fills one cell of the
committed suite's grid (`domains.grocery.suite.GRID`, taken in an order that spreads the first
tasks over every reveal stratum, so a small `count` still covers them) with the first seeded
draft that passes the same gate (`domains.grocery.audit.gate_problems` and the shopper's leak
audit) on the snapshot. The strata figures of `domains.grocery.strata` (fixed priors on the
hidden stratum, the question-less prober on the mixed and hidden ones) are measured and written
into the gate's lines, not yet enforced. Task, shopper and order ids are keyed hashes of the seed (`t_…`, `u_…`,
`o_…`): none names a committed file. Persona wording leaves out the held-back share of its
paraphrases on a dev split.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from domains.grocery.suite import _STYLE, _WHO, GRID, Names, Slot, draw_task
from runner.core.errors import TaurecError
from runner.core.generation import (
    GeneratedSuite,
    Split,
    derive_rng,
    opaque_id,
    usable_wordings,
)

__all__ = ["GENERATOR", "MAX_COUNT", "generate_tasks", "slot_order"]

GENERATOR = "grocery-generate/1"
MAX_COUNT = 240
# Drafts tried per task before the generator gives up on a slot (each is cheap to reject).
TRIES = 4000
# A hidden need rules out this many of the cheapest products meeting what can be said (the
# committed suite aims at the cheapest one only, which a prior's second pick then wins).
HIDDEN_DEPTH = 8
# The aims tried in turn when a slot's drafts all fail the gate at the deeper one.
HIDDEN_DEPTHS = (HIDDEN_DEPTH, 4, 2, 1)


def slot_order() -> list[Slot]:
    """The grid's cells, hidden, mixed and volunteer in turn (each stratum in grid order)."""
    by_reveal = {r: [s for s in GRID if s.reveal == r] for r in ("hidden", "mixed", "volunteer")}
    out: list[Slot] = []
    while any(by_reveal.values()):
        for reveal in ("hidden", "mixed", "volunteer"):
            if by_reveal[reveal]:
                out.append(by_reveal[reveal].pop(0))
    return out


def names_for(seed: int, index: int, split: Split) -> Names:
    """The opaque ids and the split's persona wording of the index-th task."""
    role = f"grocery|{index}"
    return Names(
        task_id=opaque_id(seed, f"{role}|task", "t_"),
        user_id=opaque_id(seed, f"{role}|user", "u_"),
        order_ids=(
            opaque_id(seed, f"{role}|order|1", "o_"),
            opaque_id(seed, f"{role}|order|2", "o_"),
            opaque_id(seed, f"{role}|order|r", "o_"),
        ),
        who=usable_wordings(_WHO, split),
        style=usable_wordings(_STYLE, split),
        hidden_depth=HIDDEN_DEPTH,
    )


def generate_tasks(
    catalog: Any, policy_path: Path, seed: int, count: int, split: Split
) -> GeneratedSuite:
    """`count` tasks (0: the grid's 60) drawn from the catalog and the seed, each passing the gate."""
    count = count or len(GRID)
    if count > MAX_COUNT:
        raise TaurecError(f"--count must be <= {MAX_COUNT} for grocery, got {count}")
    from domains.grocery.strata import suite_strata_gate

    order = slot_order()
    tasks = []
    for index in range(count):
        slot = order[index % len(order)]
        if slot.reveal == "hidden":
            # A hidden need ruling out the cheapest few cannot also keep an allergy cell's
            # bait (the cheapest but for the allergen) in reach: hidden cells set no trap.
            slot = dataclasses.replace(slot, allergy_trap=False)
        task = None
        for depth in HIDDEN_DEPTHS:  # the deepest aim the catalog allows for this slot
            rng = derive_rng(seed, "grocery", index, depth)
            names = dataclasses.replace(names_for(seed, index, split), hidden_depth=depth)
            task = draw_task(slot, index + 1, rng, [catalog], TRIES // len(HIDDEN_DEPTHS), names)
            if task is not None:
                break
        if task is None:
            raise TaurecError(
                f"no draft for task {index} ({slot.kind}, {slot.complexity}, {slot.reveal}) "
                f"passed the gate in {TRIES} tries on this snapshot"
            )
        tasks.append(task)
    # The strata figures are measured and reported, not yet enforced: on grocery the question-
    # less prober still wins most mixed and hidden drafts (their on_ask needs cut too little).
    _, lines, _ = suite_strata_gate(tasks, catalog)
    lines = [line.replace("strata FAIL", "strata (not enforced) FAIL") for line in lines]
    strata = {
        r: sum(t.reveal_difficulty == r for t in tasks) for r in ("volunteer", "mixed", "hidden")
    }
    gate = [
        f"{len(tasks)} tasks, each passing the grocery gate and leak audit on the snapshot "
        f"(volunteer {strata['volunteer']}, mixed {strata['mixed']}, hidden {strata['hidden']})",
        *lines,
    ]
    return GeneratedSuite(
        tasks=tasks,
        policy_text=policy_path.read_text(encoding="utf-8"),
        generator=GENERATOR,
        gate=gate,
    )
