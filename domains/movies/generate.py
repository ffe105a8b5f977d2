"""Generated movie suites: tasks drawn from one snapshot and a seed across the complexity x reveal grid, each passing the gate.

`taurec tasks generate --domain movies` calls `generate_tasks`. Each task fills one cell of the
grid (`dev_grid()`: the committed dev suite's cells, interleaved so that a split of any size has
dev's make-up) with the first seeded draft that passes the gate of `domains.movies.audit` (pool and
cut sizes, the informed agent winning every probed seed) and the strata rules of
`domains.movies.strata` (no fixed prior and no question-less prober wins it). Drafts are built
from the catalog, never from a hand-written list:

- one volunteered genre, then further constraints whose values are cut points of what the
  constraints so far allow (so each one removes a real share);
- hidden constraints point both ways over ordered fields a popularity prior does not satisfy:
  upper bounds on length, votes and release date, lower bounds on length and release date (a
  "rating >=" or "votes >=" floor is rare);
- policies, the user's services and a generated watch history (the best-known reachable winner
  is often already watched);
- a persona from the grammar of `domains.movies.wording` (a test split draws from every
  paraphrase, a dev split never from the held-back share), cueing each on_ask topic.

Ids are opaque: `t_` and `u_` and 10 hex characters of a keyed hash of the seed.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from domains.movies.catalog import RESTRICTED_RATINGS, Catalog, CatalogItem
from domains.movies.simulators.vocabulary import FIELD_TOPIC
from domains.movies.tasks import POLICY_NAMES, Task
from runner.core.errors import TaurecError
from runner.core.generation import GeneratedSuite, Split, Strata, derive_rng, opaque_id
from runner.core.predicates import Complexity, RevealDifficulty

__all__ = [
    "GENERATOR",
    "MAX_COUNT",
    "Cell",
    "dev_grid",
    "draft_task",
    "generate_tasks",
    "interleave",
]

GENERATOR = "movies-generate/3"  # 3: mixed cells keep their dev task's hidden constraints
# (2: the dev suite's grid, interleaved; 1: a third per stratum)
MAX_COUNT = 240
TRIES = 400  # drafts per task before the generator gives up on a cell
SUITE_ROUNDS = 6  # redraw rounds the suite's strata gate may ask for

# The task contract's complexity and reveal difficulty (runner.core.predicates).
Cx = Complexity
Rv = RevealDifficulty
K = TypeVar("K")


@dataclass(frozen=True)
class Cell:
    """One cell of the grid: complexity, reveal difficulty, whether nothing may fit, whether
    the genre is told only on asking, and (a mixed cell) how many hidden constraints stand beside
    the on_ask ones - each as in the dev task the cell comes from."""

    complexity: Cx
    reveal: Rv
    nvr: bool = False
    genre_asked: bool = False
    hidden: int = 0


def _spread(items: Sequence[K]) -> list[K]:
    """`items` reordered so that every prefix holds each value in the share it has in the
    whole, within one: at each step the value furthest behind its share comes next (ties: the
    value first seen)."""
    counts: dict[K, int] = {}
    for item in items:
        counts[item] = counts.get(item, 0) + 1
    taken = dict.fromkeys(counts, 0)
    out: list[K] = []
    for step in range(1, len(items) + 1):
        value = max(
            (v for v in counts if taken[v] < counts[v]),
            key=lambda v: counts[v] * step / len(items) - taken[v],
        )
        taken[value] += 1
        out.append(value)
    return out


def interleave(cells: Sequence[Cell]) -> tuple[Cell, ...]:
    """`cells` in an order whose every prefix has the whole's make-up: the reveal strata in
    their shares, and within each stratum its kinds of cell (complexity, no valid answer)."""
    within = {rv: _spread([c for c in cells if c.reveal == rv]) for rv in {c.reveal for c in cells}}
    return tuple(within[rv].pop(0) for rv in _spread([c.reveal for c in cells]))


@cache
def dev_grid() -> tuple[Cell, ...]:
    """The committed dev suite's make-up, cell for cell (complexity, reveal difficulty, no valid
    answer, genre asked, a mixed task's hidden constraints), interleaved so that a split of any
    size draws the grid dev measures: a 30-task split is half of each cell kind, not a third of
    each stratum (which made a split easier than dev: more volunteer tasks, fewer medium mixed
    ones and no no-valid-answer task).

    A mixed cell keeps its dev task's hidden constraints: a third of dev's mixed tasks hold one,
    which no amount of asking reveals. Splits drawn without them (movies-generate/2) let an agent
    that asks every topic and then recommends at once win the mixed stratum far more often than
    on dev (a pure questionnaire, never learning from a decline)."""
    from domains.movies.tasks import load_tasks
    from runner.core.paths import TASKS_DIR

    cells = [
        Cell(
            t.complexity,
            t.reveal_difficulty,
            t.no_valid_recommendation,
            any(_is_lead_genre(tc.constraint) and tc.reveal == "on_ask" for tc in t.constraints),
            sum(tc.reveal == "hidden" for tc in t.constraints)
            if t.reveal_difficulty == "mixed"
            else 0,
        )
        for t in load_tasks(TASKS_DIR)
    ]
    order = {"hidden": 0, "mixed": 1, "volunteer": 2, "simple": 0, "medium": 1, "complex": 2}
    return interleave(
        sorted(
            cells,
            key=lambda c: (order[c.reveal], order[c.complexity], c.nvr, c.genre_asked, c.hidden),
        )
    )


def _is_lead_genre(constraint: Any) -> bool:
    return bool(constraint.field == "genres" and constraint.op == "contains")


@cache
def stated_kinds(reveal: str) -> tuple[tuple[str, str, float], ...]:
    """What a volunteered or on_ask constraint may be, weighted as the dev suite's constraints of
    that reveal are (the lead genre aside: `Cell.genre_asked` places it); a kind dev never
    states that way keeps a small weight."""
    from domains.movies.tasks import load_tasks
    from runner.core.paths import TASKS_DIR

    seen: dict[tuple[str, str], int] = {}
    for task in load_tasks(TASKS_DIR):
        for tc in task.constraints:
            if tc.reveal == reveal and not _is_lead_genre(tc.constraint):
                key = (tc.constraint.field, tc.constraint.op)
                seen[key] = seen.get(key, 0) + 1
    return tuple(
        (field, op, float(seen.get((field, op), 0)) or UNSEEN_WEIGHT)
        for field, op, _ in STATED_KINDS
        if (field, op) != ("genres", "contains")
    )


# Ordered fields and the operators a hidden constraint may use, with draw weights: upper bounds
# on length, votes and date and lower bounds on length and date are common; floors on the
# review score or the vote count, which a popularity prior satisfies, are rare.
HIDDEN_KINDS: tuple[tuple[str, str, float], ...] = (
    ("runtime", "<=", 3.0),
    ("runtime", ">=", 2.0),
    ("vote_count", "<=", 3.0),
    ("release_date", "<=", 2.0),
    ("release_date", ">=", 2.0),
    ("rating", ">=", 0.4),
    ("vote_count", ">=", 0.4),
)
# A kind of stated constraint the dev suite never states that way keeps this weight.
UNSEEN_WEIGHT = 0.5
# What an on_ask or volunteered constraint may be (field, op, weight).
STATED_KINDS: tuple[tuple[str, str, float], ...] = (
    ("runtime", "<=", 2.0),
    ("runtime", ">=", 1.5),
    ("release_date", ">=", 1.5),
    ("release_date", "<=", 1.0),
    ("rating", ">=", 1.0),
    ("vote_count", ">=", 0.7),
    ("vote_count", "<=", 0.7),
    ("genres", "contains", 1.5),
    ("genres", "not_contains", 1.5),
    ("content_rating", "in", 1.0),
    ("content_rating", "!=", 0.7),
    ("director", "==", 0.5),
    ("cast", "contains", 0.5),
)
MIN_GENRE = 10  # a volunteered genre has at least this many titles
MIN_STATED_POOL = 8  # titles left by what the user can state (x1.5 when hidden ones follow)


def _weighted(rng: random.Random, kinds: Sequence[tuple[str, str, float]]) -> tuple[str, str]:
    total = sum(w for _, _, w in kinds)
    x = rng.random() * total
    for field, op, w in kinds:
        x -= w
        if x <= 0:
            return field, op
    return kinds[-1][0], kinds[-1][1]


def _value_of(item: CatalogItem, field: str) -> Any:
    value = getattr(item, field)
    return value.isoformat() if isinstance(value, dt.date) else value


def _meets(item: CatalogItem, constraint: dict[str, Any]) -> bool:
    """Does the item meet the drafted constraint? (`predicate_holds`: the generator asks this of
    every catalog item for every draft, so no check and reason are built.)"""
    from runner.core.predicates import predicate_holds

    return predicate_holds(
        constraint["op"], constraint["value"], _value_of(item, constraint["field"])
    )


def _cut(
    pool: list[CatalogItem], field: str, op: str, keep: float, rng: random.Random
) -> dict[str, Any] | None:
    """A constraint on `field` keeping about `keep` of the pool (None: the pool cannot be cut so)."""
    if len(pool) < 4:
        return None
    if field in ("runtime", "vote_count", "rating", "release_date"):
        values = sorted(_value_of(i, field) for i in pool)
        if op == "<=":
            k = max(0, min(len(values) - 1, round(keep * len(values)) - 1))
            value = values[k]
        else:
            k = max(0, min(len(values) - 1, len(values) - round(keep * len(values))))
            value = values[k]
        if field == "rating":
            value = round(float(value), 1)
        elif field == "release_date":
            value = str(value)
        else:
            value = int(value)
        constraint = {"field": field, "op": op, "value": value}
    elif field == "genres":
        counts: dict[str, int] = {}
        for item in pool:
            for g in item.genres:
                counts[g] = counts.get(g, 0) + 1
        n = len(pool)
        if op == "contains":
            options = [g for g, c in sorted(counts.items()) if 0.2 * n <= c <= 0.7 * n]
        else:
            options = [g for g, c in sorted(counts.items()) if 0.25 * n <= c <= 0.7 * n]
        if not options:
            return None
        constraint = {"field": "genres", "op": op, "value": rng.choice(options)}
    elif field == "content_rating":
        codes = sorted({i.content_rating for i in pool})
        if len(codes) < 2:
            return None
        if op == "!=":
            constraint = {"field": field, "op": "!=", "value": rng.choice(codes)}
        else:
            size = rng.randint(1, max(1, len(codes) - 1))
            constraint = {"field": field, "op": "in", "value": sorted(rng.sample(codes, size))}
    elif field == "director":
        directors = sorted({i.director for i in pool if i.director})
        if not directors:
            return None
        constraint = {"field": field, "op": "==", "value": rng.choice(directors)}
    elif field == "cast":
        people = sorted({p for i in pool for p in i.cast})
        if not people:
            return None
        constraint = {"field": field, "op": "contains", "value": rng.choice(people)}
    else:
        return None
    left = sum(_meets(i, constraint) for i in pool)
    # A cut keeping far less than asked (a director, a rare genre) would starve what follows.
    return constraint if max(1, keep * len(pool) / 2) <= left < len(pool) else None


def _want_count(cell: Cell, rng: random.Random) -> int:
    return {
        "simple": rng.choice((1, 2, 2)),
        "medium": rng.choice((3, 4)),
        "complex": rng.choice((5, 5, 6)),
    }[cell.complexity]


def _persona(rng: random.Random, cued: list[str], split: Split) -> str:
    from domains.movies.wording import cues_for, who_for

    who = rng.choice(who_for(split))
    clauses = [rng.choice(cues_for(t, split)) for t in cued]
    if not clauses:
        return f"You are {who}."
    if len(clauses) == 1:
        return f"You are {who}, and {clauses[0]}."
    return f"You are {who}; {', '.join(clauses[:-1])}, and {clauses[-1]}."


def _brief(constraints: list[dict[str, Any]]) -> str:
    from domains.movies.fixture_suite import brief

    said = brief(
        (c["constraint"]["field"], c["constraint"]["op"], c["constraint"]["value"], c["reveal"])
        for c in constraints
    )
    return " ".join(said)


def _complexity(n: int) -> Cx:
    return "simple" if n <= 2 else "medium" if n <= 4 else "complex"


def draft_task(
    cell: Cell,
    catalog: Catalog,
    rng: random.Random,
    task_id: str,
    user_id: str,
    split: Split,
) -> Task | None:
    """One seeded draft for the cell (None: the draw went nowhere); not yet gated."""
    from domains.movies.validate import check_task

    items = list(catalog.items)
    genre_counts: dict[str, int] = {}
    for item in items:
        for g in item.genres:
            genre_counts[g] = genre_counts.get(g, 0) + 1
    genres = sorted(g for g, c in genre_counts.items() if c >= MIN_GENRE)
    if not genres:
        return None
    n_constraints = _want_count(cell, rng)
    # The genre is volunteered, except in some simple mixed and hidden cells where it is the
    # one topic the user states only when asked.
    genre_reveal = "volunteer"
    if cell.genre_asked or (cell.reveal == "hidden" and cell.complexity == "simple"):
        genre_reveal = "on_ask"
    # Longer tasks start from larger genres (each further constraint keeps at most 70 %).
    weights = [genre_counts[g] ** (n_constraints / 2) for g in genres]
    constraints: list[dict[str, Any]] = [
        {"constraint": {"field": "genres", "op": "contains", "value": rng.choices(genres, weights)[0]},
         "reveal": genre_reveal}
    ]  # fmt: skip
    # How many of the rest are on_ask / hidden: a mixed task has on_ask ones (and the hidden ones
    # its dev cell has), a hidden task hidden ones and on_ask ones too (so a prior cannot win it,
    # nor an agent that never asks).
    if cell.reveal != "volunteer":
        n_constraints = max(2, n_constraints)
    rest = n_constraints - 1
    asked = int(genre_reveal == "on_ask")
    n_hidden = 0
    n_ask = 0
    if cell.reveal == "hidden":
        n_hidden = 1 if rest <= 2 else 2 if rest >= 4 else rng.choice((1, 2))
        n_ask = max(0, 1 - asked) + (rest - n_hidden - max(0, 1 - asked) > 0 and rng.random() < 0.3)
    elif cell.reveal == "mixed":
        n_hidden = cell.hidden
        least = max(0, 1 - asked)
        n_ask = rng.randint(least, max(least, min(rest - n_hidden, 3)))
    if n_ask + n_hidden > rest:
        return None
    n_volunteer = rest - n_ask - n_hidden
    pool = [i for i in items if _meets(i, constraints[0]["constraint"])]
    used: set[tuple[str, str]] = {("genres", "contains")}
    fields_used: set[str] = {"genres"}

    # The hidden constraints' fields are drawn first and kept free of stated constraints.
    reserved: list[tuple[str, str]] = []
    for _ in range(40):
        if len(reserved) == n_hidden:
            break
        kind = _weighted(rng, HIDDEN_KINDS)
        if kind[0] not in {f for f, _ in reserved}:
            reserved.append(kind)
    if len(reserved) < n_hidden:
        return None
    fields_used |= {f for f, _ in reserved}

    def add(reveal: str, kinds: Sequence[tuple[str, str, float]], keep: float) -> bool:
        nonlocal pool
        for _ in range(12):
            field, op = _weighted(rng, kinds)
            if (field, op) in used or (field != "genres" and field in fields_used):
                continue
            c = _cut(pool, field, op, keep, rng)
            if c is None:
                continue
            used.add((field, op))
            fields_used.add(field)
            constraints.append({"constraint": c, "reveal": reveal})
            pool = [i for i in pool if _meets(i, c)]
            return True
        return False

    # What the user can state must leave enough titles for the hidden ones to choose among
    # (the gate wants >= 8 after volunteer + on_ask): each cut keeps at least its share of that.
    floor = (1.5 * MIN_STATED_POOL if n_hidden else MIN_STATED_POOL) / max(1, len(pool))
    stated_left = n_volunteer + n_ask

    def keep_share(low: float, high: float) -> float:
        nonlocal stated_left
        share = rng.uniform(low, high)
        needed = floor ** (1 / max(1, stated_left)) if floor < 1 else 1.0
        stated_left -= 1
        return min(0.7, max(share, needed))

    for _ in range(n_volunteer):
        if not add("volunteer", stated_kinds("volunteer"), keep_share(0.35, 0.7)):
            return None
    for _ in range(n_ask):
        if not add("on_ask", stated_kinds("on_ask"), keep_share(0.25, 0.6)):
            return None
    hidden_keep = 0.1 if n_hidden == 1 else 0.32
    stated_pool = pool
    for field, op in reserved:  # each cut from what the user can state; together they leave few
        c = _cut(stated_pool, field, op, rng.uniform(0.6, 1.0) * hidden_keep, rng)
        if c is None:
            return None
        constraints.append({"constraint": c, "reveal": "hidden"})
        pool = [i for i in pool if _meets(i, c)]
    if cell.nvr:
        # Nothing fits: the last non-volunteer constraint's bound moves past what the others allow.
        last = constraints[-1]
        if last["reveal"] == "volunteer":
            return None
        c = dict(last["constraint"])
        others = [i for i in items if all(_meets(i, o["constraint"]) for o in constraints[:-1])]
        if c["field"] not in ("runtime", "vote_count", "release_date", "rating") or not others:
            return None
        values = sorted(_value_of(i, c["field"]) for i in others)
        everywhere = sorted(_value_of(i, c["field"]) for i in items)
        if c["op"] == "<=":
            beyond = [v for v in everywhere if v < values[0]]
            if not beyond:
                return None
            c["value"] = beyond[-1] if c["field"] != "rating" else round(float(beyond[-1]), 1)
        else:
            beyond = [v for v in everywhere if v > values[-1]]
            if not beyond:
                return None
            c["value"] = beyond[0] if c["field"] != "rating" else round(float(beyond[0]), 1)
        if c["field"] in ("runtime", "vote_count"):
            c["value"] = int(c["value"])
        last["constraint"] = c
    # Policies, services and history.
    flags = {"recommend_tool"}
    if rng.random() < 0.95:
        flags.add("watch_history")
    for name, p in (("availability", 0.5), ("age_restricted", 0.5), ("single_recommendation", 0.5)):
        if rng.random() < p:
            flags.add(name)
    if cell.nvr and rng.random() < 0.5:
        flags.add("transparency")
    solutions = [i for i in items if all(_meets(i, c["constraint"]) for c in constraints)]
    services: list[str] = []
    if "availability" in flags and rng.random() < 0.7:
        all_services = sorted({s for i in items for s in i.streaming_services})
        if len(all_services) >= 4:
            services = rng.sample(all_services, k=rng.randint(3, min(6, len(all_services))))
            if solutions and not any(set(i.streaming_services) & set(services) for i in solutions):
                # keep a winner reachable: add one service of a solution
                hosted = sorted({s for i in solutions for s in i.streaming_services})
                if not hosted:
                    services = []
                else:
                    services.append(rng.choice(hosted))
    if (
        "age_restricted" in flags
        and not cell.nvr
        and not any(i.content_rating in RESTRICTED_RATINGS for i in solutions)
    ):
        flags.discard("age_restricted")
    if any(i.sponsored for i in solutions) and rng.random() < 0.5:
        flags.add("sponsored")
    watched: list[str] = []
    ratings: dict[str, float] = {}
    if "watch_history" in flags:
        reachable = [
            i for i in solutions if not services or set(i.streaming_services) & set(services)
        ]
        near = sorted(reachable, key=lambda i: (-i.vote_count, i.id))[: rng.choice((0, 1, 1))]
        if len(reachable) - len(near) < 1:
            near = []
        outside = [i for i in items if i not in solutions]
        others = rng.sample(outside, k=min(len(outside), rng.randint(2, 5)))
        for item in [*near, *others]:
            watched.append(item.id)
            ratings[item.id] = rng.choice((3.0, 3.5, 4.0, 4.5, 5.0))
        watched.sort()
        ratings = dict(sorted(ratings.items()))
    cued = list(
        dict.fromkeys(
            FIELD_TOPIC[c["constraint"]["field"]]
            for c in constraints
            if c["reveal"] == "on_ask" and FIELD_TOPIC.get(c["constraint"]["field"]) != "genres"
        )
    )
    persona = f"{_persona(rng, cued, split)} {_brief(constraints)}"
    complexity = _complexity(len(constraints))
    if complexity != cell.complexity:
        return None
    try:
        task = Task.model_validate(
            {
                "id": task_id,
                "persona": persona,
                "constraints": constraints,
                "soft_preferences": [],
                "policy_flags": [p for p in POLICY_NAMES if p in flags],
                "no_valid_recommendation": cell.nvr,
                "complexity": complexity,
                "reveal_difficulty": cell.reveal,
                "user_id": user_id,
                "user_history": {user_id: {"watched": watched, "ratings": ratings}},
                "user_services": sorted(services),
            }
        )
    except ValueError:
        return None
    if check_task(task, catalog).status != "ok":
        return None
    return task


def task_problems(
    task: Task, catalog: Catalog, informed_seeds: int, rule: Strata[Task] | None = None
) -> list[str]:
    """Why a draft fails the gate (empty: it passes): the audit's rules, the design rules of the
    committed suite, the persona's cue, and the strata rules (`rule`: the suite's, so its gate
    reuses the trials played here)."""
    from domains.movies.audit import audit_task
    from domains.movies.fixture_suite import design_problems
    from domains.movies.simulators.scripted import persona_line
    from domains.movies.simulators.vocabulary import topic_cues

    # The committed suite's reveal rule ("hidden": no on_ask) is replaced by the generator's own:
    # a hidden task has on_ask constraints too.
    problems = [p for p in design_problems(task, catalog) if not p.startswith("reveal tags")]
    reveals = {tc.reveal for tc in task.constraints}
    fits = {
        "volunteer": reveals == {"volunteer"},
        "mixed": "on_ask" in reveals,
        "hidden": {"on_ask", "hidden"} <= reveals,
    }[task.reveal_difficulty]
    if not fits:
        problems.append(f"reveal tags {sorted(reveals)} do not fit {task.reveal_difficulty!r}")
    if problems:
        return problems
    line = persona_line(task)
    cued = {
        FIELD_TOPIC[tc.constraint.field]
        for tc in task.constraints
        if tc.reveal == "on_ask" and FIELD_TOPIC.get(tc.constraint.field) != "genres"
    }
    if cued and (line is None or not cued <= set(topic_cues(line))):
        return ["the persona's first sentence does not carry its cues"]
    audit = audit_task(task, catalog, informed_seeds=0)
    if not audit.passed:
        return [f"{c.rule}: {c.reason}" for c in audit.failed_checks]
    if task.reveal_difficulty == "mixed" and audit.prior_picks_stated:
        return ["a popularity prior's pick meets every on_ask constraint"]
    from domains.movies.strata import prior_reach, strata

    if task.reveal_difficulty == "hidden" and not task.no_valid_recommendation:
        reached = set(prior_reach(task, catalog)) & set(audit.winning)
        if reached:
            return [f"a fixed prior's first picks include a winner ({sorted(reached)[0]})"]
    problems = (rule or strata(catalog)).problems(task)
    if problems:
        return problems
    from domains.movies.informed_probe import informed_wins

    if informed_seeds and not all(informed_wins(task, catalog, informed_seeds)):
        return ["the informed agent loses a probed seed"]
    return []


def generate_tasks(
    catalog: Catalog,
    policy_path: Path,
    seed: int,
    count: int,
    split: Split,
    *,
    informed_seeds: int = 4,
) -> GeneratedSuite:
    """`count` tasks (0: the grid's 60) drawn from the catalog and the seed, each passing the
    gate and the strata rules; then the suite's strata gate over all of them."""
    from domains.movies.strata import strata

    rule = strata(catalog)
    count = count or len(dev_grid())
    if count > MAX_COUNT:
        raise TaurecError(f"--count must be <= {MAX_COUNT} for movies, got {count}")

    def draw(index: int, start: int) -> tuple[Task, int]:
        """The first draft from attempt `start` on that passes the gate, and its attempt."""
        grid = dev_grid()
        cell = grid[index % len(grid)]
        task_id = opaque_id(seed, f"movies|{index}|task", "t_")
        user_id = opaque_id(seed, f"movies|{index}|user", "u_")
        # A mixed cell whose only asked constraint the catalog cannot make hold against the
        # strata rules falls back to the same cell with the genre told on asking (seed 9401 on
        # 2026-11-01 found no simple mixed draft otherwise); its draws have streams of their own.
        cells: list[tuple[Cell, tuple[str, ...]]] = [(cell, ())]
        if cell.reveal == "mixed" and not cell.genre_asked:
            cells.append((dataclasses.replace(cell, genre_asked=True), ("genre-asked",)))
        for use, tag in cells:
            for attempt in range(start, start + TRIES):
                rng = derive_rng(seed, "movies", index, attempt, *tag)
                draft = draft_task(use, catalog, rng, task_id, user_id, split)
                if draft is not None and not task_problems(draft, catalog, informed_seeds, rule):
                    return draft, attempt
        raise TaurecError(
            f"no draft for task {index} ({cell.complexity}, {cell.reveal}"
            f"{', no valid answer' if cell.nvr else ''}) passed the gate in {TRIES} tries "
            "on this catalog"
        )

    drawn = [draw(index, 0) for index in range(count)]
    # The suite gate: while a stratum is won too often, redraw (from the next attempt on) the
    # tasks of that stratum its winner won, deterministically.
    for _ in range(SUITE_ROUNDS):
        tasks = [t for t, _ in drawn]
        ok, lines, won = rule.gate(tasks)
        if ok:
            break
        for index, (task, attempt) in enumerate(drawn):
            if task.id in won:
                drawn[index] = draw(index, attempt + 1)
    else:
        raise TaurecError("the generated suite fails the strata gate: " + "; ".join(lines))
    return GeneratedSuite(
        tasks=tasks,
        policy_text=policy_path.read_text(encoding="utf-8"),
        generator=GENERATOR,
        gate=lines,
    )
