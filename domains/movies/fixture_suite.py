"""The hand-written specs of τ-Rec's 60-task suite and the generator that writes `tasks/*.json`.

Each spec is written by hand (persona, constraints, reveal tags, policies, services). The
generator only derives what must match the catalog: the complexity from the constraint count,
and the watch history, where the most-voted reachable solutions become "already watched"
near-misses so the watch-history policy bites. It refuses to write a suite that is not
consistent on the catalog it was designed on (run: `python -m domains.movies.fixture_suite`).
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from domains.movies.catalog import RESTRICTED_RATINGS, Catalog, CatalogItem
from domains.movies.tasks import POLICY_NAMES, Constraint, Task
from runner.core.paths import SNAPSHOTS_DIR, TASKS_DIR

DESIGN_SNAPSHOT = "2026-11-01"
_REVEAL = {"v": "volunteer", "a": "on_ask", "h": "hidden"}


@dataclass(frozen=True)
class Spec:
    """One task as written: constraints are (field, op, value, reveal v/a/h)."""

    persona: str
    constraints: tuple[tuple[str, str, Any, str], ...]
    reveal: str
    policies: tuple[str, ...]
    services: tuple[str, ...] = ()
    soft: tuple[str, ...] = ()
    near_miss_watched: int = 0
    nvr: bool = False
    extra_history: int = field(default=3)


NF, PV, HU, MAX = "Netflix", "Amazon Prime Video", "Hulu", "HBO Max"
DIS, PAR, PEA, APL = "Disney+", "Paramount+", "Peacock", "Apple TV+"
STZ, AMC, MUBI, SHU, CRI, KAN, MGM = (
    "Starz", "AMC+", "MUBI", "Shudder", "Criterion Channel", "Kanopy", "MGM+",
)  # fmt: skip

# fmt: off
SPECS: tuple[Spec, ...] = (
    # ---- simple · volunteer (8) ----------------------------------------------------------------
    Spec("You are a grandparent hosting two grandchildren for the weekend.",
         (("genres", "contains", "Family", "v"),), "volunteer",
         ("availability", "watch_history"), (STZ, SHU, MGM, KAN, PAR, APL), near_miss_watched=1),
    Spec("You are a retired postman with a free Sunday afternoon.",
         (("genres", "contains", "Comedy", "v"), ("runtime", ">=", 120, "v"),), "volunteer",
         ("watch_history", "availability", "age_restricted"), (KAN, HU, DIS, MGM, AMC)),
    Spec("You do stand-up comedy and study the timing of one actor you admire.",
         (("genres", "contains", "Comedy", "v"), ("cast", "contains", "Tesmond Ostrander", "v"),), "volunteer",
         ("watch_history", "age_restricted", "single_recommendation"), ()),
    Spec("You are an engineer who just renewed a subscription and wants to get some use out of it.",
         (("genres", "contains", "Science Fiction", "v"), ("streaming_services", "contains", NF, "v"),), "volunteer",
         ("availability", "watch_history", "single_recommendation"), (KAN, PEA, AMC, NF, CRI, STZ), near_miss_watched=1),
    Spec("You set crosswords for a newspaper and like a story that keeps you guessing.",
         (("genres", "contains", "Thriller", "v"),), "volunteer",
         ("availability", "watch_history", "sponsored"), (APL, MAX, MUBI, AMC, STZ, KAN), near_miss_watched=1),
    Spec("You are a parent planning a slow, cosy afternoon in with the kids.",
         (("genres", "contains", "Family", "v"), ("runtime", ">=", 100, "v"),), "volunteer",
         ("watch_history", "availability", "age_restricted", "single_recommendation"), (PV, PAR, KAN, DIS)),
    Spec("You work as a stunt performer and like to see how others do the job.",
         (("genres", "contains", "Action", "v"),), "volunteer",
         ("availability", "watch_history", "single_recommendation"), (KAN, DIS, SHU, PEA, PAR, MGM), near_miss_watched=1),
    Spec("You are an illustrator looking for something beautiful to draw inspiration from.",
         (("genres", "contains", "Animation", "v"), ("genres", "not_contains", "Horror", "v"),), "volunteer",
         ("watch_history", "availability", "single_recommendation"), (SHU, APL, MUBI, PEA, MGM, STZ)),
    # ---- simple · mixed (7) --------------------------------------------------------------------
    Spec("You are a paralegal who reads case files all day and still wants more after work.",
         (("genres", "contains", "Crime", "v"), ("runtime", "<=", 95, "a"),), "mixed",
         ("watch_history", "availability", "age_restricted"), (PEA, MAX, HU, PV, NF, MGM)),
    Spec("You volunteer at a film society and follow one filmmaker's career closely.",
         (("genres", "contains", "Horror", "v"), ("director", "==", "Halwyn Ulvestad", "a"),), "mixed",
         ("watch_history", "single_recommendation",), ()),
    Spec("You are a military historian curious about what happens behind the lines.",
         (("genres", "contains", "Crime", "v"), ("genres", "contains", "Mystery", "a"),), "mixed",
         ("watch_history", "availability",), (NF, HU, KAN, PV, MUBI)),
    Spec("You go to fan conventions, and the release year of a film always matters to you.",
         (("genres", "contains", "Horror", "v"), ("release_date", ">=", "2026-07-01", "a"),), "mixed",
         ("watch_history", "sponsored", "age_restricted", "single_recommendation"), (), near_miss_watched=1),
    Spec("You are a journalist who likes to keep up with whatever has just come out.",
         (("genres", "contains", "Documentary", "v"), ("release_date", ">=", "2026-07-01", "a"),), "mixed",
         ("watch_history", "single_recommendation",), ()),
    Spec("You are a night owl with a taste for dread who likes to catch new releases before anyone spoils them.",
         (("genres", "contains", "Horror", "v"), ("release_date", ">=", "2026-07-01", "a"),), "mixed",
         ("watch_history", "sponsored", "age_restricted"), ()),
    Spec("You study folklore and are curious about the real stories behind local legends.",
         (("genres", "contains", "Horror", "v"), ("genres", "contains", "Documentary", "a"),), "mixed",
         ("watch_history", "availability", "age_restricted", "single_recommendation", "transparency"), (SHU, HU, APL, PEA), nvr=True),
    # ---- simple · hidden (5) -------------------------------------------------------------------
    Spec("You are a delivery rider who wants to switch off with something fast-paced.",
         (("genres", "contains", "Action", "v"), ("runtime", "<=", 100, "h"),), "hidden",
         ("watch_history", "single_recommendation",), ()),
    Spec("You teach physics and have an early start tomorrow.",
         (("genres", "contains", "Science Fiction", "v"), ("rating", ">=", 7.5, "h"),), "hidden",
         ("watch_history", "age_restricted", "single_recommendation"), (), near_miss_watched=1),
    Spec("You work in air-traffic control and want something gripping after work.",
         (("genres", "contains", "Thriller", "v"), ("release_date", "<=", "2025-06-01", "h"),), "hidden",
         ("availability", "watch_history"), (), near_miss_watched=1),
    Spec("You are a programmer who wants to unwind after a hard sprint.",
         (("genres", "contains", "Thriller", "v"), ("runtime", ">=", 140, "h"),), "hidden",
         ("watch_history", "age_restricted",), ()),
    Spec("You tend bar and have heard every story twice.",
         (("genres", "contains", "Crime", "v"), ("rating", ">=", 8.0, "h"),), "hidden",
         ("watch_history", "age_restricted", "single_recommendation"), (), near_miss_watched=1),
    # ---- medium · volunteer (2) ----------------------------------------------------------------
    Spec("You are a museum guide preparing a film evening for visitors.",
         (("genres", "contains", "History", "v"), ("content_rating", "in", ["PG", "PG-13"], "v"), ("genres", "not_contains", "Mystery", "v"),), "volunteer",
         ("watch_history", "availability", "single_recommendation"), (MUBI, CRI, PEA, PAR, APL)),
    Spec("You host a book club and want something new to discuss.",
         (("genres", "contains", "Drama", "v"), ("genres", "not_contains", "Animation", "v"), ("runtime", "<=", 100, "v"), ("release_date", ">=", "2026-07-01", "v"),), "volunteer",
         ("availability", "watch_history"), (DIS, AMC, HU, APL, CRI), near_miss_watched=1),
    # ---- medium · mixed (17) -------------------------------------------------------------------
    Spec("You own a gym and show a film on the big screen on Friday nights, and the members always ask which year it is from and who it is suitable for.",
         (("genres", "contains", "Action", "v"), ("content_rating", "!=", "NR", "a"), ("release_date", ">=", "2026-01-01", "a"),), "mixed",
         ("availability", "watch_history", "age_restricted", "single_recommendation"), (HU, MAX, MGM, APL), near_miss_watched=1),
    Spec("You are a camp counsellor swapping scary stories with colleagues.",
         (("genres", "contains", "Horror", "v"), ("genres", "not_contains", "Fantasy", "a"), ("runtime", "<=", 95, "a"), ("release_date", "<=", "2025-06-30", "h"),), "mixed",
         ("watch_history", "availability", "age_restricted"), ()),
    Spec("You run a record shop and have a quiet evening ahead.",
         (("genres", "contains", "Horror", "v"), ("genres", "not_contains", "Family", "v"), ("runtime", ">=", 115, "a"),), "mixed",
         ("watch_history", "availability", "age_restricted", "single_recommendation"), (MAX, MGM, MUBI, AMC, HU)),
    Spec("You are an insurance investigator who enjoys seeing how a con unravels.",
         (("genres", "contains", "Crime", "v"), ("runtime", "<=", 120, "a"), ("genres", "not_contains", "Drama", "a"), ("vote_count", ">=", 400, "a"),), "mixed",
         ("watch_history", "availability", "sponsored"), (MUBI, CRI, PV, STZ, DIS, SHU)),
    Spec("You are a hospice nurse who likes stories about ordinary people.",
         (("genres", "contains", "Drama", "v"), ("genres", "contains", "Crime", "a"), ("runtime", "<=", 95, "h"),), "mixed",
         ("availability", "watch_history", "single_recommendation"), (), near_miss_watched=1),
    Spec("You are a theatre critic on a night off.",
         (("genres", "contains", "Drama", "v"), ("genres", "not_contains", "History", "v"), ("genres", "contains", "Romance", "a"), ("runtime", ">=", 140, "h"),), "mixed",
         ("watch_history", "availability", "single_recommendation"), ()),
    Spec("You are a primary-school teacher looking for something warm for the weekend.",
         (("genres", "contains", "Drama", "v"), ("genres", "contains", "Comedy", "a"), ("content_rating", "in", ["PG", "PG-13"], "a"),), "mixed",
         ("availability", "watch_history"), (MUBI, CRI, SHU, NF), near_miss_watched=1),
    Spec("You are a retired detective who still likes to guess the culprit.",
         (("genres", "contains", "Mystery", "v"), ("runtime", "<=", 110, "a"), ("rating", ">=", 6.5, "a"), ("genres", "contains", "Drama", "a"),), "mixed",
         ("watch_history", "age_restricted",), ()),
    Spec("You are a wedding planner with one free night this month.",
         (("genres", "contains", "Drama", "v"), ("runtime", "<=", 100, "v"), ("genres", "contains", "Adventure", "a"),), "mixed",
         ("watch_history", "age_restricted", "single_recommendation"), ()),
    Spec("You are a librarian who loves a good puzzle and keeps up with the latest releases.",
         (("genres", "contains", "Mystery", "v"), ("runtime", "<=", 110, "a"), ("release_date", ">=", "2026-01-01", "a"), ("vote_count", ">=", 200, "h"),), "mixed",
         ("watch_history", "age_restricted", "single_recommendation"), (), near_miss_watched=1),
    Spec("You are a session guitarist on a break between tours.",
         (("genres", "contains", "Music", "v"), ("genres", "not_contains", "Documentary", "a"), ("runtime", ">=", 130, "a"),), "mixed",
         ("watch_history", "sponsored", "single_recommendation"), (), near_miss_watched=1),
    Spec("You are a firefighter coming off a hard shift.",
         (("genres", "contains", "Action", "v"), ("genres", "not_contains", "History", "v"), ("vote_count", ">=", 200, "a"), ("release_date", ">=", "2026-07-01", "h"),), "mixed",
         ("watch_history",), (), near_miss_watched=1),
    Spec("You are a pharmacist with an evening to yourself.",
         (("genres", "contains", "Drama", "v"), ("genres", "contains", "Documentary", "a"), ("runtime", "<=", 85, "h"),), "mixed",
         ("watch_history", "availability",), ()),
    Spec("You are a court stenographer who likes stories about justice.",
         (("genres", "contains", "Crime", "v"), ("runtime", "<=", 110, "a"), ("content_rating", "!=", "R", "a"), ("release_date", ">=", "2026-07-01", "h"),), "mixed",
         ("availability", "watch_history", "single_recommendation"), (), near_miss_watched=1),
    Spec("You are a student taking a break from exam revision.",
         (("genres", "contains", "Drama", "v"), ("runtime", "<=", 105, "v"), ("genres", "contains", "Thriller", "a"),), "mixed",
         ("watch_history",), ()),
    Spec("You direct a community choir and want something to lift the mood.",
         (("genres", "contains", "Music", "v"), ("release_date", "<=", "2026-03-31", "a"), ("genres", "not_contains", "Documentary", "a"), ("runtime", "<=", 100, "a"),), "mixed",
         ("watch_history", "age_restricted",), ()),
    Spec("You are a night-shift nurse with an evening off.",
         (("genres", "contains", "Horror", "v"), ("runtime", "<=", 90, "a"), ("rating", ">=", 7.5, "a"),), "mixed",
         ("watch_history", "availability", "transparency"), (PAR, SHU, STZ, KAN, DIS), nvr=True),
    # ---- medium · hidden (5) -------------------------------------------------------------------
    Spec("You are an accountant who trusts nobody's numbers but your own.",
         (("genres", "contains", "Thriller", "v"), ("rating", ">=", 7.5, "h"), ("vote_count", ">=", 200, "h"),), "hidden",
         ("availability", "watch_history", "age_restricted", "single_recommendation"), (), near_miss_watched=1),
    Spec("You are a locksmith who enjoys watching other people work things out.",
         (("genres", "contains", "Thriller", "v"), ("rating", ">=", 7.0, "h"), ("vote_count", ">=", 50, "h"), ("release_date", "<=", "2026-01-01", "h"),), "hidden",
         ("availability", "watch_history", "single_recommendation"), (), near_miss_watched=1),
    Spec("You are a wedding DJ with the night off.",
         (("genres", "contains", "Comedy", "v"), ("rating", ">=", 7.0, "h"), ("release_date", ">=", "2026-01-01", "h"),), "hidden",
         ("watch_history", "availability", "single_recommendation"), (CRI, SHU, NF, KAN, MUBI)),
    Spec("You coach chess and have nothing planned tonight.",
         (("genres", "contains", "Thriller", "v"), ("rating", ">=", 7.0, "h"), ("vote_count", ">=", 50, "h"), ("release_date", "<=", "2026-01-01", "h"),), "hidden",
         ("watch_history",), ()),
    Spec("You are a cartoonist looking for something to laugh at.",
         (("genres", "contains", "Comedy", "v"), ("runtime", ">=", 130, "h"), ("rating", ">=", 8.0, "h"),), "hidden",
         ("watch_history", "age_restricted", "single_recommendation", "transparency"), (), near_miss_watched=1, nvr=True),
    # ---- complex · volunteer (3) ---------------------------------------------------------------
    Spec("You programme a film festival and have a clear brief for the midnight slot.",
         (("genres", "contains", "Horror", "v"), ("streaming_services", "contains_any", [CRI, NF], "v"), ("vote_count", ">=", 50, "v"), ("runtime", "<=", 95, "v"), ("genres", "not_contains", "Mystery", "v"),), "volunteer",
         ("watch_history", "availability", "age_restricted", "single_recommendation"), (MGM, PV, CRI, NF, PAR)),
    Spec("You are a veteran choosing a film to watch with your teenage grandson.",
         (("genres", "contains", "War", "v"), ("vote_count", ">=", 100, "v"), ("genres", "not_contains", "Fantasy", "v"), ("content_rating", "==", "PG-13", "v"), ("runtime", "<=", 120, "v"),), "volunteer",
         ("availability", "watch_history"), (HU, MUBI, PEA, APL), near_miss_watched=1),
    Spec("You are a history teacher picking something for the school film club.",
         (("genres", "contains", "War", "v"), ("genres", "not_contains", "Thriller", "v"), ("runtime", "<=", 105, "v"), ("content_rating", "==", "PG-13", "v"), ("release_date", ">=", "2026-01-01", "v"),), "volunteer",
         ("watch_history", "availability",), (STZ, HU, SHU, DIS, NF, KAN)),
    # ---- complex · mixed (8) -------------------------------------------------------------------
    Spec("You host a podcast about famous cases.",
         (("genres", "contains", "Crime", "v"), ("runtime", ">=", 105, "a"), ("content_rating", "!=", "R", "a"), ("release_date", "<=", "2026-03-31", "a"), ("rating", ">=", 7.0, "a"),), "mixed",
         ("watch_history", "sponsored"), (), near_miss_watched=1),
    Spec("You are a probation officer unwinding after a hard week.",
         (("genres", "contains", "Crime", "v"), ("genres", "not_contains", "Adventure", "v"), ("rating", ">=", 6.5, "a"), ("release_date", ">=", "2025-09-01", "a"), ("runtime", ">=", 130, "h"),), "mixed",
         ("availability", "watch_history", "single_recommendation"), (), near_miss_watched=1),
    Spec("You are a florist planning a quiet night in with your partner.",
         (("genres", "contains", "Romance", "v"), ("vote_count", ">=", 100, "a"), ("rating", ">=", 7.0, "a"), ("genres", "contains", "Drama", "a"), ("content_rating", "in", ["PG-13", "R"], "a"),), "mixed",
         ("watch_history", "age_restricted"), (), near_miss_watched=1),
    Spec("You are a screenwriter studying how other people structure a story.",
         (("genres", "contains", "Drama", "v"), ("genres", "not_contains", "Music", "v"), ("content_rating", "in", ["PG-13", "R"], "a"), ("runtime", ">=", 140, "a"), ("release_date", ">=", "2026-07-01", "h"),), "mixed",
         ("watch_history", "availability",), ()),
    Spec("You are an archivist who likes films that take the past seriously.",
         (("genres", "contains", "History", "v"), ("vote_count", ">=", 200, "a"), ("release_date", "<=", "2026-03-31", "a"), ("rating", ">=", 7.0, "a"), ("genres", "contains", "Drama", "a"),), "mixed",
         ("watch_history", "single_recommendation"), (), near_miss_watched=1),
    Spec("You are a social worker who wants something with real substance tonight.",
         (("genres", "contains", "Drama", "v"), ("genres", "not_contains", "War", "v"), ("content_rating", "in", ["PG-13", "R"], "a"), ("runtime", "<=", 115, "a"), ("release_date", "<=", "2025-09-30", "a"), ("vote_count", ">=", 200, "h"),), "mixed",
         ("watch_history",), (), near_miss_watched=1),
    Spec("You are a rock climber who likes watching big adventures from the sofa.",
         (("genres", "contains", "Action", "v"), ("genres", "not_contains", "Crime", "a"), ("rating", ">=", 7.0, "a"), ("runtime", ">=", 105, "a"), ("content_rating", "!=", "R", "a"),), "mixed",
         ("watch_history", "single_recommendation"), (), near_miss_watched=1),
    Spec("You are a tour guide looking for something to suggest to visitors.",
         (("genres", "contains", "History", "v"), ("content_rating", "!=", "R", "v"), ("genres", "not_contains", "Drama", "a"), ("vote_count", ">=", 200, "a"), ("release_date", ">=", "2025-09-01", "a"),), "mixed",
         ("watch_history", "single_recommendation", "transparency"), (), nvr=True),
    # ---- complex · hidden (5) ------------------------------------------------------------------
    Spec("You are a barber who likes having something to talk about with customers.",
         (("genres", "contains", "Drama", "v"), ("runtime", "<=", 110, "h"), ("rating", ">=", 6.5, "h"), ("vote_count", ">=", 100, "h"), ("release_date", "<=", "2026-01-01", "h"),), "hidden",
         ("watch_history",), ()),
    Spec("You are an airline pilot on a layover.",
         (("genres", "contains", "Thriller", "v"), ("genres", "not_contains", "Romance", "v"), ("runtime", ">=", 120, "h"), ("vote_count", ">=", 100, "h"), ("rating", ">=", 6.5, "h"),), "hidden",
         ("watch_history", "age_restricted", "single_recommendation"), (), near_miss_watched=1),
    Spec("You edit crosswords and love working out who did it.",
         (("genres", "contains", "Mystery", "v"), ("runtime", "<=", 110, "h"), ("rating", ">=", 6.0, "h"), ("vote_count", ">=", 50, "h"), ("release_date", "<=", "2025-09-01", "h"),), "hidden",
         ("watch_history", "availability",), ()),
    Spec("You are a dentist who wants to laugh after a long week of appointments.",
         (("genres", "contains", "Comedy", "v"), ("genres", "not_contains", "History", "v"), ("rating", ">=", 6.0, "h"), ("vote_count", ">=", 50, "h"), ("release_date", ">=", "2026-07-01", "h"),), "hidden",
         ("watch_history", "age_restricted", "single_recommendation"), (), near_miss_watched=1),
    Spec("You are a robotics student looking for something to watch with flatmates.",
         (("genres", "contains", "Science Fiction", "v"), ("vote_count", ">=", 200, "h"), ("runtime", "<=", 100, "h"), ("rating", ">=", 6.0, "h"), ("content_rating", "==", "R", "h"),), "hidden",
         ("watch_history", "transparency",), (), nvr=True),
)
# fmt: on


def _complexity(n: int) -> str:
    return "simple" if n <= 2 else "medium" if n <= 4 else "complex"


def _rank(task_id: str, item: CatalogItem) -> str:
    return hashlib.sha256(f"{task_id}:{item.id}".encode()).hexdigest()


def _want(field: str, op: str, value: Any) -> str:
    """What one constraint asks for, as a clause of the persona's brief ("it must ...")."""

    def genre(g: str) -> str:
        return f"{'an' if g[0] in 'AEIOU' else 'a'} {g.lower() if g != 'Science Fiction' else 'science-fiction'} film"

    def either(values: Any) -> str:
        items = [str(x) for x in values] if isinstance(values, list) else [str(values)]
        return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]

    def day(iso: str) -> str:
        d = dt.date.fromisoformat(iso)
        return f"{d.day} {d.strftime('%B')} {d.year}"

    v = value
    phrases: dict[tuple[str, str], Callable[[], str]] = {
        ("genres", "contains"): lambda: f"it must be {genre(str(v))}",
        ("genres", "not_contains"): lambda: f"it must not be {genre(str(v))}",
        ("runtime", "<="): lambda: f"it must run {v} minutes or less",
        ("runtime", ">="): lambda: f"it must run at least {v} minutes",
        ("rating", ">="): lambda: f"its audience score must be {v} or higher",
        ("content_rating", "=="): lambda: f"it must be rated {v}",
        ("content_rating", "!="): lambda: f"it must not be rated {v}",
        ("content_rating", "in"): lambda: f"it must be rated {either(v)}",
        ("vote_count", ">="): lambda: f"at least {v} people must have rated it",
        ("vote_count", "<="): lambda: f"no more than {v} people may have rated it",
        ("rating", "<="): lambda: f"its audience score must be {v} or lower",
        ("release_date", ">="): lambda: f"it must have come out on or after {day(str(v))}",
        ("release_date", "<="): lambda: f"it must have come out on or before {day(str(v))}",
        ("director", "=="): lambda: f"it must be directed by {v}",
        ("cast", "contains"): lambda: f"{v} must be in the cast",
        ("streaming_services", "contains"): lambda: f"it must be streaming on {v}",
        ("streaming_services", "contains_any"): lambda: f"it must be streaming on {either(v)}",
    }
    return phrases[(field, op)]()


def _join(clauses: list[str]) -> str:
    return clauses[0] if len(clauses) == 1 else "; ".join(clauses[:-1]) + "; and " + clauses[-1]


# The brief after every persona: what the user says of each reveal class (one table for the
# committed suite and the generator, `domains.movies.generate`).
BRIEF = {
    "volunteer": "You say up front that {}.",
    "on_ask": "Only when the assistant asks do you mention that {}.",
    "hidden": "You never spell out that {}; you only hint at it when a suggestion misses.",
}


def brief(constraints: Iterable[tuple[str, str, Any, str]]) -> list[str]:
    """One sentence per reveal class (volunteer, on_ask, hidden) that has constraints, from
    (field, op, value, reveal) in their order."""
    wants: dict[str, list[str]] = {r: [] for r in BRIEF}
    for field_, op, value, reveal in constraints:
        wants[reveal].append(_want(field_, op, value))
    return [BRIEF[r].format(_join(w)) for r, w in wants.items() if w]


def persona_text(spec: Spec) -> str:
    """The character (written by hand) followed by the brief derived from the constraints, so the
    persona an LLM user reads can never contradict what the task scores."""
    said = brief((f, op, v, _REVEAL[rv]) for f, op, v, rv in spec.constraints)
    return " ".join([spec.persona.strip(), *said])


def build_task(number: int, spec: Spec, catalog: Catalog) -> Task:
    """Turn one spec into a Task, deriving complexity and the watch history from the catalog."""
    task_id = f"task_{number:03d}"
    constraints = [
        {"constraint": {"field": f, "op": op, "value": v}, "reveal": _REVEAL[r]}
        for f, op, v, r in spec.constraints
    ]
    checks = [Constraint(field=f, op=op, value=v) for f, op, v, _ in spec.constraints]
    solutions = [i for i in catalog.items if all(c.evaluate(i).satisfied for c in checks)]
    reachable = [
        i for i in solutions if not spec.services or set(i.streaming_services) & set(spec.services)
    ]
    watched: list[str] = []
    ratings: dict[str, float] = {}
    if "watch_history" in spec.policies:
        near = sorted(reachable, key=lambda i: (-i.vote_count, i.id))[: spec.near_miss_watched]
        others = sorted(
            (i for i in catalog.items if i not in solutions), key=lambda i: _rank(task_id, i)
        )[: spec.extra_history]
        for item in [*near, *others]:
            watched.append(item.id)
            ratings[item.id] = float(4 + int(_rank(task_id, item)[:2], 16) % 12 / 2)
        watched.sort()
        ratings = dict(sorted(ratings.items()))
    user_id = f"user_{number:03d}"
    policies = [p for p in POLICY_NAMES if p in (*spec.policies, "recommend_tool")]
    return Task.model_validate(
        {
            "id": task_id,
            "persona": persona_text(spec),
            "constraints": constraints,
            "soft_preferences": list(spec.soft),
            "policy_flags": policies,
            "no_valid_recommendation": spec.nvr,
            "complexity": _complexity(len(spec.constraints)),
            "reveal_difficulty": spec.reveal,
            "user_id": user_id,
            "user_history": {user_id: {"watched": watched, "ratings": ratings}},
            "user_services": list(spec.services),
        }
    )


def design_problems(task: Task, catalog: Catalog, *, strict: bool = True) -> list[str]:
    """What makes a task a poor fit for a catalog (empty: fine); not strict: consistency only."""
    from domains.movies.validate import check_task

    result = check_task(task, catalog)
    problems = [] if result.status == "ok" else [result.reason]
    if not strict:
        return problems
    winning = [catalog.get(i) for i in result.winning_solutions]
    if "sponsored" in task.policy_flags and not any(w and w.sponsored for w in winning):
        problems.append("sponsored policy active but no winning solution is sponsored")
    restricted = any(w and w.content_rating in RESTRICTED_RATINGS for w in winning)
    if (
        "age_restricted" in task.policy_flags
        and not task.no_valid_recommendation
        and not restricted
    ):
        problems.append("age_restricted active but no winning solution is R/NC-17")
    reveals = [c.reveal for c in task.constraints]
    expected = {
        "volunteer": set(reveals) == {"volunteer"},
        "mixed": "on_ask" in reveals and "volunteer" in reveals,
        "hidden": "hidden" in reveals and "on_ask" not in reveals,
    }[task.reveal_difficulty]
    if not expected:
        problems.append(f"reveal tags {reveals} do not fit {task.reveal_difficulty!r}")
    return problems


def write_suite(
    catalog_path: Path,
    out_dir: Path,
    *,
    check_only: bool = False,
    also: tuple[Path, ...] | None = None,
) -> list[str]:
    """Build all tasks on the catalog; write them unless any is a poor fit. Returns report lines.

    A task is a poor fit if it is inconsistent or a weak design on the design catalog, or if it
    fails the difficulty gate (domains.movies.audit) on the design catalog or any of `also` (default:
    every other committed snapshot), or is inconsistent there.
    """
    from domains.movies.audit import audit_task, suite_checks
    from domains.movies.validate import check_task, snapshot_dates

    catalog = Catalog.load(catalog_path)
    if also is None:
        also = tuple(
            SNAPSHOTS_DIR / d.isoformat()
            for d in snapshot_dates()
            if (SNAPSHOTS_DIR / d.isoformat()).resolve() != catalog_path.resolve()
        )
    lines, bad = [], False
    tasks = [build_task(n, spec, catalog) for n, spec in enumerate(SPECS, start=1)]
    others = [(p.name, Catalog.load(p)) for p in also]
    audits: dict[str, list[Any]] = {}
    for task in tasks:
        result = check_task(task, catalog)
        problems = design_problems(task, catalog)
        for name, cat in [(catalog_path.name, catalog), *others]:
            if cat is not catalog:
                problems += [f"{name}: {p}" for p in design_problems(task, cat, strict=False)]
            audit = audit_task(task, cat)
            audits.setdefault(name, []).append(audit)
            problems += [f"{name}: gate {c.rule}: {c.reason}" for c in audit.failed_checks]
        bad = bad or bool(problems)
        lines.append(
            f"{task.id} {task.complexity:<7} {task.reveal_difficulty:<9} "
            f"c={len(result.constraint_solutions):<3} r={len(result.reachable_solutions):<3} "
            f"w={len(result.winning_solutions):<3} {'; '.join(problems)}"
        )
    for name, per_task in audits.items():
        for check in suite_checks(per_task):
            if not check.passed:
                bad = True
                lines.append(f"suite {name}: gate {check.rule}: {check.reason}")
    if not bad and not check_only:
        out_dir.mkdir(parents=True, exist_ok=True)
        for task in tasks:
            data = task.model_dump(mode="json", exclude_defaults=False, exclude={"retired"})
            text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
            (out_dir / f"{task.id}.json").write_text(text, encoding="utf-8")
    lines.append("not written: fix the problems above" if bad else f"{len(tasks)} tasks ok")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--catalog", type=Path, default=SNAPSHOTS_DIR / DESIGN_SNAPSHOT)
    parser.add_argument("--out", type=Path, default=TASKS_DIR)
    parser.add_argument("--check", action="store_true", help="report only, write nothing")
    parser.add_argument(
        "--also",
        type=Path,
        nargs="*",
        default=None,
        help="other snapshots every task must pass the gate on (default: all committed ones)",
    )
    args = parser.parse_args()
    also = tuple(args.also) if args.also is not None else None
    lines = write_suite(args.catalog, args.out, check_only=args.check, also=also)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
