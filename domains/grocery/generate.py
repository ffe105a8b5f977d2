"""Generated grocery suites: the committed suite's grid and gate, drawn from one snapshot and a seed, with opaque ids.

`taurec tasks generate --domain grocery` calls `generate_tasks`. Each task fills one cell of the
committed suite's grid (`domains.grocery.suite.GRID`, taken in an order that spreads the first
tasks over every reveal stratum, so a small `count` still covers them) with the first seeded
draft that passes the same gate (`domains.grocery.audit.gate_problems` and the shopper's leak
audit) on the snapshot, that the policy-ignorer does not win (a shopping task makes the policy
matter: `domains.grocery.suite.draw_task`), and that no fixed prior (cheapest, top search result,
best Nutri-Score, biggest or smallest pack first) and no question-less prober wins on its first
probed trial (`domains.grocery.strata.strata`; each asks the one question policy section 1
requires, about allergies, and nothing else). Every shopping task written flags that question's
rule (`allergy_question`).
Then the suite's strata gate plays them on every probed trial: while a fixed prior wins more than
a quarter of the hidden stratum, or the prober more than a quarter of the mixed or the hidden one,
the tasks behind that figure are redrawn in a next round (deterministically, from the seed), and
the suite is refused after `SUITE_ROUNDS`. Task, shopper and order ids are keyed hashes of the
seed (`t_…`, `u_…`, `o_…`): none names a committed file. Persona wording leaves out the held-back share of its
paraphrases on a dev split. Half the tasks (rounded down) are account tasks
(`domains.grocery.account_suite`, its grid's cells taken volunteer, mixed, hidden in turn), each
with a private history and gold actions, passing the account gate and the same strata rules.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from domains.grocery.account_suite import by_strata
from domains.grocery.suite import _STYLE, _WHO, GRID, Names, Slot, draw_task
from domains.grocery.tasks import GroceryTask
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
SUITE_ROUNDS = 6  # redraw rounds the suite's strata gate may ask for
ACCOUNT_TRIES = 50  # account drafts tried per task (each is drawn to fit; few fail the gate)


def slot_order() -> list[Slot]:
    """The grid's cells, hidden, mixed and volunteer in turn (each stratum in grid order)."""
    return by_strata(GRID, ("hidden", "mixed", "volunteer"))


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
        aim_asked=True,
    )


def draw_account(
    seed: int, index: int, round_: int, catalog: Any, split: Split, accept: Any
) -> GroceryTask:
    """The index-th account task of a split: the first draft (of redraw round `round_`) that
    passes the account gate and `accept`."""
    from domains.grocery.account_suite import account_slot_order, draw_account_task
    from domains.grocery.audit import account_gate

    order = account_slot_order()
    slot = order[index % len(order)]
    for attempt in range(ACCOUNT_TRIES):
        number = (index * SUITE_ROUNDS + round_) * ACCOUNT_TRIES + attempt
        task = draw_account_task(seed, number, slot, catalog, split=split)
        if not account_gate(task, catalog) and accept(task):
            return task
    raise TaurecError(
        f"no draft for account task {index} ({slot.kind}, {slot.requests} request(s), "
        f"{slot.reveal}) passed the gate and the strata rules in {ACCOUNT_TRIES} tries"
    )


def generate_tasks(
    catalog: Any, policy_path: Path, seed: int, count: int, split: Split
) -> GeneratedSuite:
    """`count` tasks (0: the committed suite's 120) drawn from the catalog and the seed, half of
    them (rounded down) account tasks, each passing the gate and the strata rules; then the
    suite's strata gate over all of them."""
    from domains.grocery.account_suite import ACCOUNT_GRID

    count = count or len(GRID) + len(ACCOUNT_GRID)
    accounts = count // 2
    shopping = count - accounts
    if count > MAX_COUNT:
        raise TaurecError(f"--count must be <= {MAX_COUNT} for grocery, got {count}")
    from domains.grocery.strata import strata

    rule = strata(catalog)

    order = slot_order()

    def fair(task: GroceryTask) -> bool:
        """No fixed prior and no question-less prober wins the draft's first probed trial."""
        return not rule.problems(task)

    def draw(index: int, round_: int) -> GroceryTask:
        """The first draft of redraw round `round_` for the index-th slot passing every rule."""
        if index >= shopping:
            return draw_account(seed, index - shopping, round_, catalog, split, fair)
        slot = order[index % len(order)]
        if slot.reveal == "hidden":
            # A hidden need ruling out the cheapest few cannot also keep an allergy cell's
            # bait (the cheapest but for the allergen) in reach: hidden cells set no trap.
            slot = dataclasses.replace(slot, allergy_trap=False)
        # An allergy cell whose trap cannot hold beside an asked need aimed at the question-
        # less picks (who ask about allergies only) falls back to the same cell without the
        # trap; then to a need aimed at players that never hear an unsaid allergy (the picks
        # before the question rule: some cells only draw so on some snapshots); a cell where no
        # aimed need fits falls back to unaimed drafts. The strata rule `fair` holds for all.
        untrapped = dataclasses.replace(slot, allergy_trap=False)
        cells: list[tuple[Slot, bool, bool, tuple[str, ...]]] = [(slot, True, True, ())]
        cells += [(untrapped, True, True, ("untrapped",))] if slot.allergy_trap else []
        cells += [(untrapped, True, False, ("unheard",)), (untrapped, False, True, ("unaimed",))]
        for cell, aim, heeds, tag in cells:
            for depth in HIDDEN_DEPTHS:  # the deepest aim the catalog allows for this slot
                parts: tuple[object, ...] = (index, depth)
                parts += (round_,) if round_ else ()
                rng = derive_rng(seed, "grocery", *parts, *tag)
                names = dataclasses.replace(
                    names_for(seed, index, split),
                    hidden_depth=depth,
                    aim_asked=aim,
                    aim_heeds_allergy=heeds,
                )
                tries = TRIES // len(HIDDEN_DEPTHS)
                task = draw_task(cell, index + 1, rng, [catalog], tries, names, accept=fair)
                if task is not None:
                    return task
        raise TaurecError(
            f"no draft for task {index} ({slot.kind}, {slot.complexity}, {slot.reveal}) "
            f"passed the gate and the strata rules in {TRIES * len(cells)} tries on this "
            "snapshot"
        )

    drawn = [draw(index, 0) for index in range(count)]
    rounds = [0] * count
    # The suite gate: while a stratum is won too often, redraw (in the next round) the tasks
    # of that stratum its winner won, deterministically.
    for _ in range(SUITE_ROUNDS):
        ok, lines, won = rule.gate(drawn)
        if ok:
            break
        for index, task in enumerate(drawn):
            if task.id in won:
                rounds[index] += 1
                drawn[index] = draw(index, rounds[index])
    else:
        raise TaurecError("the generated suite fails the strata gate: " + "; ".join(lines))
    made_up = {
        r: sum(t.reveal_difficulty == r for t in drawn) for r in ("volunteer", "mixed", "hidden")
    }
    several = sum(len(t.requests) > 1 for t in drawn)
    gate = [
        f"{len(drawn)} tasks ({accounts} on the shopper's account, {several} with several "
        "requests), each passing the grocery gate, leak audit and strata rules on the "
        f"snapshot (volunteer {made_up['volunteer']}, mixed {made_up['mixed']}, "
        f"hidden {made_up['hidden']})",
        *lines,
    ]
    return GeneratedSuite(
        tasks=drawn,
        policy_text=policy_path.read_text(encoding="utf-8"),
        generator=GENERATOR,
        gate=gate,
    )
