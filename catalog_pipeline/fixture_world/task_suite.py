"""The hand-written specs of τ-Rec's 60-task suite and the generator that writes `tasks/*.json`.

Each spec is written by hand (persona, constraints, reveal tags, policies, services). The
generator only derives what must match the catalog: the complexity from the constraint count,
and the watch history, where the most-voted reachable solutions become "already watched"
near-misses so the watch-history policy bites. It refuses to write a suite that is not
consistent on the catalog it was designed on (run: `python -m catalog_pipeline.fixture_world.task_suite`).
"""

from __future__ import annotations

import argparse
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from runner.catalog import RESTRICTED_RATINGS, Catalog, CatalogItem
from runner.paths import SNAPSHOTS_DIR, TASKS_DIR
from runner.tasks import POLICY_NAMES, Constraint, Task

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
    # ---- simple · volunteer (8) -------------------------------------------------------------
    Spec("You run a small horror podcast and watch something scary most nights to have material "
         "for the next episode. You are blunt and like quick answers.",
         (("genres", "contains", "Horror", "v"),), "volunteer",
         ("availability", "age_restricted", "watch_history"), (SHU, NF),
         ("practical effects over CGI",), near_miss_watched=2),
    Spec("You are a nurse coming off a long shift who wants something light before sleep. "
         "You are tired and keep your messages short.",
         (("genres", "contains", "Comedy", "v"), ("runtime", "<=", 100, "v")), "volunteer",
         ("availability",), (NF, HU), ("nothing mean-spirited",)),
    Spec("You teach secondary-school history and collect documentaries to show fragments of in "
         "class. You are curious and ask follow-up questions about what a film covers.",
         (("genres", "contains", "Documentary", "v"),), "volunteer",
         ("availability", "watch_history"), (KAN, CRI, NF), ("real archival footage",),
         near_miss_watched=1),
    Spec("You are a parent picking a film for a rainy Saturday with two children under ten. "
         "You are warm but careful about what the kids see.",
         (("genres", "contains", "Animation", "v"), ("content_rating", "in", ["G", "PG"], "v")),
         "volunteer", ("availability", "single_recommendation"), (DIS, NF, MAX, APL),
         ("talking animals are a plus",)),
    Spec("You are a retired judge who only watches films that critics and audiences rate highly. "
         "You are formal and a little impatient with small talk.",
         (("genres", "contains", "Drama", "v"), ("rating", ">=", 7.5, "v")), "volunteer",
         ("availability", "watch_history"), (NF, MUBI, PAR, HU), ("slow-burning stories",),
         near_miss_watched=1),
    Spec("You just started a Starz trial and want to get your money's worth with a tense thriller "
         "tonight. You are upbeat and decisive.",
         (("genres", "contains", "Thriller", "v"), ("streaming_services", "contains", STZ, "v")),
         "volunteer", ("availability", "sponsored", "age_restricted"), (STZ, PEA),
         ("a twist ending",)),
    Spec("You are a graphic novelist who loves animation made for grown-ups, the darker the better. "
         "You want an animated film with an R rating and nothing tamer.",
         (("genres", "contains", "Animation", "v"), ("content_rating", "==", "R", "v")),
         "volunteer", ("availability", "transparency"), (NF, MAX, PV),
         ("hand-drawn style",), nvr=True),
    Spec("You have a twenty-five minute train ride and want to finish a whole film on it. "
         "You are friendly and a bit scattered.",
         (("runtime", "<=", 40, "v"),), "volunteer",
         ("availability", "age_restricted"), (MAX, PV, NF), ("something you can follow on a phone",)),
    # ---- simple · mixed (7) -----------------------------------------------------------------
    Spec("You are a personal trainer who unwinds with action films, but you hate ones that drag. "
         "You mention the genre first and the length only if asked.",
         (("genres", "contains", "Action", "v"), ("runtime", "<=", 110, "a")), "mixed",
         ("availability", "age_restricted"), (PV, APL), ("a good car chase",)),
    Spec("You are a software tester who likes clever science fiction but is tired of gore. "
         "You say you want sci-fi; you only mention the rating limit when asked.",
         (("genres", "contains", "Science Fiction", "v"), ("content_rating", "!=", "R", "a")),
         "mixed", ("availability", "single_recommendation"), (MAX, DIS, PAR),
         ("ideas over explosions",)),
    Spec("You sing in a community choir and love films about music. You want one people actually "
         "liked, which you only bring up if asked about quality.",
         (("genres", "contains", "Music", "v"), ("rating", ">=", 7.0, "a")), "mixed",
         ("availability", "watch_history"), (HU, MUBI, MAX), ("a memorable soundtrack",),
         near_miss_watched=1),
    Spec("You are a true-crime fan who only trusts crime films that plenty of people have rated. "
         "You start with the genre; popularity comes up when asked.",
         (("genres", "contains", "Crime", "v"), ("vote_count", ">=", 500, "a")), "mixed",
         ("availability", "age_restricted", "sponsored"), (PV, PAR, STZ),
         ("a morally grey lead",)),
    Spec("You host a monthly mystery night with friends and only show recent releases. "
         "You ask for a mystery; you mention 'this year' only when asked about dates.",
         (("genres", "contains", "Mystery", "v"), ("release_date", ">=", "2026-01-01", "a")),
         "mixed", ("availability", "single_recommendation"), (APL, MAX, PEA),
         ("a puzzle the audience can solve",)),
    Spec("You are a veteran who watches war films with a critical eye and prefers the unflinching, "
         "R-rated kind. You only mention the rating when asked.",
         (("genres", "contains", "War", "v"), ("content_rating", "==", "R", "a")), "mixed",
         ("availability", "age_restricted", "watch_history"), (NF, MAX, PAR),
         ("historically careful",), near_miss_watched=1),
    Spec("You babysit your niece on Sunday afternoons and need a family film she will sit through; "
         "she gets restless after about an hour and a half.",
         (("genres", "contains", "Family", "v"), ("runtime", "<=", 100, "a")), "mixed",
         ("availability",), (PV, MAX, DIS), ("funny for adults too",)),
    # ---- simple · hidden (5) ----------------------------------------------------------------
    Spec("You want a horror film for a late weeknight. You won't say it up front, but anything "
         "much over an hour and a half is too long for you tonight.",
         (("genres", "contains", "Horror", "v"), ("runtime", "<=", 95, "h")), "hidden",
         ("availability", "age_restricted"), (AMC, SHU, HU), ("isolated settings",)),
    Spec("You want a comedy. Privately you refuse to sit through anything with a weak audience "
         "score, but you only say so when a suggestion disappoints you.",
         (("genres", "contains", "Comedy", "v"), ("rating", ">=", 6.5, "h")), "hidden",
         ("availability", "watch_history"), (NF, APL), ("dry humour",), near_miss_watched=1),
    Spec("You are planning a film for a mixed-age family gathering and ask for an adventure. You "
         "don't think to mention that it can't be R-rated or unrated until something is.",
         (("genres", "contains", "Adventure", "v"),
          ("content_rating", "in", ["G", "PG", "PG-13"], "h")), "hidden",
         ("availability",), (PV, HU, MAX), ("a journey across big landscapes",)),
    Spec("You love history films and have a free evening. Secretly you think short history films "
         "are shallow and want a long one, but you only say so after a miss.",
         (("genres", "contains", "History", "v"), ("runtime", ">=", 120, "h")), "hidden",
         ("availability",), (HU, NF, APL), ("court intrigue",)),
    Spec("You want a thriller that lots of people have seen so you can talk about it at work. "
         "You don't say that popularity matters until a suggestion is too obscure.",
         (("genres", "contains", "Thriller", "v"), ("vote_count", ">=", 1000, "h")), "hidden",
         ("availability", "watch_history"), (NF, SHU, MUBI, HU), ("a big reveal",),
         near_miss_watched=1),
    # ---- medium · volunteer (2) -------------------------------------------------------------
    Spec("You are planning a date night at home and want a romance that is not explicit and not "
         "too long. You state everything up front and are open to anything that fits.",
         (("genres", "contains", "Romance", "v"), ("content_rating", "in", ["PG", "PG-13"], "v"),
          ("runtime", "<=", 120, "v")), "volunteer",
         ("sponsored", "single_recommendation"), (), ("a happy ending",)),
    Spec("You are a horror completist looking for a well-rated, properly R-rated horror film. "
         "You list your requirements right away, like a checklist.",
         (("genres", "contains", "Horror", "v"), ("rating", ">=", 7.0, "v"),
          ("content_rating", "==", "R", "v")), "volunteer",
         ("availability", "age_restricted", "watch_history"), (SHU, AMC, PV),
         ("folk horror",), near_miss_watched=1),
    # ---- medium · mixed (17) ----------------------------------------------------------------
    Spec("You keep a film diary and want a recent, well-reviewed drama to write about. You ask "
         "for a drama; dates and scores come out when asked.",
         (("genres", "contains", "Drama", "v"), ("release_date", ">=", "2026-01-01", "a"),
          ("rating", ">=", 7.0, "a")), "mixed",
         ("availability", "watch_history"), (NF, PAR, MAX), ("strong performances",),
         near_miss_watched=1),
    Spec("You are a pharmacist who wants an easy comedy to watch with your teenage son. You say "
         "it must be suitable for him; the time limit, and that he hates anything scary, come up "
         "when asked.",
         (("genres", "contains", "Comedy", "v"), ("content_rating", "in", ["PG", "PG-13"], "v"),
          ("runtime", "<=", 105, "a"), ("genres", "not_contains", "Horror", "a")), "mixed",
         ("availability", "single_recommendation"), (HU, NF, PEA), ("physical comedy",)),
    Spec("You like hard-hitting R-rated action that other fans have vetted. You ask for action; "
         "the rating and the number of votes come out when asked.",
         (("genres", "contains", "Action", "v"), ("content_rating", "==", "R", "a"),
          ("vote_count", ">=", 300, "a")), "mixed",
         ("availability", "age_restricted"), (PV, MAX), ("practical stunts",)),
    Spec("You are an astronomy student who wants good science fiction that doesn't run long. "
         "You ask for sci-fi; quality and length come up when asked.",
         (("genres", "contains", "Science Fiction", "v"), ("rating", ">=", 6.5, "a"),
          ("runtime", "<=", 130, "a")), "mixed",
         ("availability", "age_restricted"), (NF, SHU, PAR, MAX), ("plausible science",)),
    Spec("You want a short, well-rated documentary to watch over lunch breaks this week. You ask "
         "for a documentary; the length and score come up when asked.",
         (("genres", "contains", "Documentary", "v"), ("runtime", "<=", 100, "a"),
          ("rating", ">=", 6.5, "a")), "mixed",
         ("availability",), (DIS, KAN, NF, MAX), ("nature or people, not politics",)),
    Spec("You are a fan of the director Hester Quintero-Lowe and want another of their films. You "
         "name the director; that you want a comedy comes up when asked.",
         (("director", "==", "Hester Quintero-Lowe", "v"), ("genres", "contains", "Comedy", "a"),
          ("content_rating", "!=", "NC-17", "a")), "mixed",
         ("availability",), (NF, HU), ("music in it",)),
    Spec("You are a night-shift security guard who wants a tight thriller. You ask for a thriller; "
         "the rating and running time only come out when asked.",
         (("genres", "contains", "Thriller", "v"), ("content_rating", "!=", "NR", "a"),
          ("runtime", "<=", 110, "a")), "mixed",
         ("availability", "age_restricted"), (HU, APL), ("set over one night",)),
    Spec("You are choosing a film for a kids' sleepover: it must be for families, gently rated, "
         "and actually good. You lead with 'family film'; the rest comes out when asked.",
         (("genres", "contains", "Family", "v"), ("rating", ">=", 6.5, "a"),
          ("content_rating", "in", ["G", "PG"], "a")), "mixed",
         ("availability",), (MAX, PV, APL, MGM), ("a heist or caper",)),
    Spec("You want a grown-up romance, R-rated and well reviewed. You ask for romance; the rest "
         "only when asked.",
         (("genres", "contains", "Romance", "v"), ("content_rating", "==", "R", "a"),
          ("rating", ">=", 6.5, "a")), "mixed",
         ("availability", "age_restricted", "watch_history"), (MAX, NF, STZ),
         ("complicated characters",), near_miss_watched=1),
    Spec("You want a fairly new horror film you can watch with a squeamish partner. You ask for "
         "horror; recency and the rating limit come up when asked.",
         (("genres", "contains", "Horror", "v"), ("release_date", ">=", "2026-06-01", "a"),
          ("content_rating", "!=", "R", "a")), "mixed",
         ("availability",), (SHU, DIS, STZ), ("more creepy than gory",)),
    Spec("You lecture at a film school and are preparing a retrospective of the director Wilder "
         "Prewitt. You name the director; that you want an R-rated feature of at least 100 minutes "
         "comes up when asked.",
         (("director", "==", "Wilder Prewitt", "v"), ("content_rating", "==", "R", "a"),
          ("runtime", ">=", 100, "a")), "mixed",
         ("availability", "age_restricted", "watch_history"), (PAR, MAX, NF),
         ("a signature long take",), near_miss_watched=1),
    Spec("You teach piano and want a music drama with the actor Wenna Fairweather, one that has "
         "found an audience. You ask for a film about music; the rest comes out when asked.",
         (("genres", "contains", "Music", "v"), ("genres", "contains", "Drama", "a"),
          ("cast", "contains", "Wenna Fairweather", "a"), ("vote_count", ">=", 50, "a")), "mixed",
         ("availability",), (PV, MAX, MUBI, PEA), ("based on a true story",)),
    Spec("You want a new, R-rated comedy for a night in with friends. You ask for comedy; the "
         "rating and 'this year' come out when asked.",
         (("genres", "contains", "Comedy", "v"), ("content_rating", "==", "R", "a"),
          ("release_date", ">=", "2026-01-01", "a")), "mixed",
         ("availability", "age_restricted", "single_recommendation"), (NF, DIS, APL, KAN),
         ("quotable lines",)),
    Spec("You are a geography teacher who wants a well-made adventure that fits into an evening. "
         "You ask for adventure; score and length come up when asked.",
         (("genres", "contains", "Adventure", "v"), ("rating", ">=", 6.5, "a"),
          ("runtime", "<=", 120, "a")), "mixed",
         ("availability", "watch_history", "single_recommendation"), (PV, MAX, HU),
         ("treasure maps",), near_miss_watched=2),
    Spec("You are a lawyer who enjoys a serious crime drama with strong reviews and will rent or "
         "buy whatever fits. You ask for a drama; the crime angle and the score come up when asked.",
         (("genres", "contains", "Drama", "v"), ("genres", "contains", "Crime", "a"),
          ("rating", ">=", 7.0, "a")), "mixed",
         ("sponsored",), (), ("courtroom scenes",)),
    Spec("You want an epic documentary, at least two and a half hours long and rated 8 or higher. "
         "You ask for a documentary; the length and score come up when asked.",
         (("genres", "contains", "Documentary", "v"), ("runtime", ">=", 150, "a"),
          ("rating", ">=", 8.0, "a")), "mixed",
         ("availability", "transparency"), (NF, KAN, CRI, HU), ("multi-part structure",), nvr=True),
    Spec("Your seven-year-old wants 'a scary movie' for Halloween; it has to be a horror film rated "
         "G and short. You ask for horror; the rest comes out when asked.",
         (("genres", "contains", "Horror", "v"), ("content_rating", "==", "G", "a"),
          ("runtime", "<=", 90, "a")), "mixed",
         ("availability", "transparency"), (DIS, NF, SHU), ("friendly monsters",), nvr=True),
    # ---- medium · hidden (5) ----------------------------------------------------------------
    Spec("You ask for a thriller. You don't say it, but you only watch R-rated ones with strong "
         "reviews; you reveal this only when a suggestion misses.",
         (("genres", "contains", "Thriller", "v"), ("rating", ">=", 7.0, "h"),
          ("content_rating", "==", "R", "h")), "hidden",
         ("availability", "age_restricted", "watch_history"), (PV, PAR, HU),
         ("an unreliable narrator",), near_miss_watched=1),
    Spec("You ask for a comedy. You keep to yourself that you want a feature of at least 100 "
         "minutes with good reviews, until something falls short.",
         (("genres", "contains", "Comedy", "v"), ("runtime", ">=", 100, "h"),
          ("rating", ">=", 6.5, "h")), "hidden",
         ("availability",), (MAX, NF, APL), ("an ensemble cast",)),
    Spec("You ask for science fiction. Without saying so you want a PG-13 blockbuster lots of people "
         "have rated, and you only explain after a miss.",
         (("genres", "contains", "Science Fiction", "v"), ("vote_count", ">=", 1000, "h"),
          ("content_rating", "==", "PG-13", "h")), "hidden",
         ("availability",), (MGM, NF, MAX), ("big set pieces",)),
    Spec("You ask for a drama. Silently you want it to be short and R-rated, and you only explain "
         "when a suggestion misses.",
         (("genres", "contains", "Drama", "v"), ("runtime", "<=", 100, "h"),
          ("content_rating", "==", "R", "h")), "hidden",
         ("availability", "age_restricted"), (PV, HU, CRI), ("a small cast",)),
    Spec("You ask for a fantasy film. You don't mention that it must be PG or PG-13 and decently "
         "rated, until a suggestion is not.",
         (("genres", "contains", "Fantasy", "v"), ("content_rating", "in", ["PG", "PG-13"], "h"),
          ("rating", ">=", 6.5, "h")), "hidden",
         ("availability",), (MAX, PV, SHU), ("dragons",)),
    # ---- complex · volunteer (3) ------------------------------------------------------------
    Spec("You are a horror-festival programmer with a precise brief: R-rated horror, under 100 "
         "minutes, rated 6.5 or more, on Shudder or AMC+. You give the whole brief at once.",
         (("genres", "contains", "Horror", "v"), ("content_rating", "==", "R", "v"),
          ("runtime", "<=", 100, "v"), ("rating", ">=", 6.5, "v"),
          ("streaming_services", "contains_any", [SHU, AMC], "v")), "volunteer",
         ("availability", "age_restricted"), (SHU, AMC), ("a festival crowd-pleaser",)),
    Spec("You are writing an essay on period dramas released last year and list every requirement "
         "at once: a historical drama, over 110 minutes, rated 7 or more, released in 2025.",
         (("genres", "contains", "Drama", "v"), ("genres", "contains", "History", "v"),
          ("runtime", ">=", 110, "v"), ("rating", ">=", 7.0, "v"),
          ("release_date", "<=", "2025-12-31", "v")), "volunteer",
         ("availability", "age_restricted", "watch_history"), (NF, STZ, APL),
         ("costumes and sets",), near_miss_watched=1),
    Spec("You want a romantic comedy for your parents' anniversary: gently rated, well liked and "
         "under two hours. You say all of it up front.",
         (("genres", "contains", "Comedy", "v"), ("genres", "contains", "Romance", "v"),
          ("content_rating", "in", ["PG", "PG-13"], "v"), ("rating", ">=", 6.5, "v"),
          ("runtime", "<=", 110, "v")), "volunteer",
         ("single_recommendation",), (), ("older leads",)),
    # ---- complex · mixed (8) ----------------------------------------------------------------
    Spec("You want a long, brutal action film that has a following. You ask for R-rated action; "
         "length, score and vote count come up when asked.",
         (("genres", "contains", "Action", "v"), ("content_rating", "==", "R", "v"),
          ("runtime", ">=", 120, "a"), ("rating", ">=", 5.5, "a"),
          ("vote_count", ">=", 100, "a")), "mixed",
         ("availability", "age_restricted"), (PV, MAX, MUBI), ("a lone hero",)),
    Spec("You want a crime mystery for a book-club style discussion. You ask for a crime mystery; "
         "rating, length and popularity come out when asked.",
         (("genres", "contains", "Crime", "v"), ("genres", "contains", "Mystery", "v"),
          ("content_rating", "==", "R", "a"), ("runtime", "<=", 120, "a"),
          ("vote_count", ">=", 200, "a")), "mixed",
         ("availability", "age_restricted", "sponsored"), (STZ, HU, PEA),
         ("a detective with a past",)),
    Spec("You are a music journalist who wants a long, recent music drama. You ask for a drama "
         "about music; the rest comes out when asked.",
         (("genres", "contains", "Drama", "v"), ("genres", "contains", "Music", "v"),
          ("rating", ">=", 6.0, "a"), ("runtime", ">=", 120, "a"),
          ("release_date", ">=", "2025-10-01", "a")), "mixed",
         ("availability", "sponsored", "watch_history"), (MAX, MUBI, PV, HU),
         ("a band on tour",), near_miss_watched=1),
    Spec("You want a sci-fi thriller that is rated, decent and not too long. You ask for a sci-fi "
         "thriller; the rest comes out when asked.",
         (("genres", "contains", "Science Fiction", "v"), ("genres", "contains", "Thriller", "v"),
          ("rating", ">=", 6.0, "a"), ("content_rating", "!=", "NR", "a"),
          ("runtime", "<=", 130, "a")), "mixed",
         ("availability",), (NF, DIS, PV, PAR), ("artificial intelligence",)),
    Spec("You want an animated family film for a toddler: gently rated, under 95 minutes and "
         "rated 6 or more. You ask for an animated family film; the rest comes out when asked.",
         (("genres", "contains", "Family", "v"), ("genres", "contains", "Animation", "v"),
          ("content_rating", "in", ["G", "PG"], "a"), ("runtime", "<=", 95, "a"),
          ("rating", ">=", 6.0, "a"),
          ("streaming_services", "contains_any", [NF, APL, DIS, PV], "a")), "mixed",
         ("availability", "transparency"), (NF, APL, DIS, PV), ("songs",), nvr=True),
    Spec("You want a short, dark comedy with an R rating and good reviews. You ask for a comedy; "
         "the rest comes out when asked, and you only mention wanting a popular one after a miss.",
         (("genres", "contains", "Comedy", "v"), ("content_rating", "==", "R", "a"),
          ("rating", ">=", 6.5, "a"), ("runtime", "<=", 100, "a"),
          ("vote_count", ">=", 150, "h")), "mixed",
         ("availability", "age_restricted", "single_recommendation"), (PV, NF, APL, SHU),
         ("gallows humour",)),
    Spec("You are a retired librarian who likes substantial mystery dramas from last year. You ask "
         "for a mystery drama; rating, date and a feature length come out when asked.",
         (("genres", "contains", "Mystery", "v"), ("genres", "contains", "Drama", "v"),
          ("rating", ">=", 7.0, "a"), ("release_date", "<=", "2025-12-31", "a"),
          ("runtime", ">=", 90, "a")), "mixed",
         ("availability", "watch_history"), (MAX, MGM, PEA, CRI), ("an old house",),
         near_miss_watched=1),
    Spec("You want a PG-13 action-adventure for a family movie night with teenagers: decently "
         "rated and under two hours. You ask for action-adventure; the rest when asked.",
         (("genres", "contains", "Action", "v"), ("genres", "contains", "Adventure", "v"),
          ("rating", ">=", 6.5, "a"), ("content_rating", "==", "PG-13", "a"),
          ("runtime", "<=", 120, "a")), "mixed",
         ("availability", "single_recommendation"), (PV, PEA, HU, NF), ("a team of heroes",)),
    # ---- complex · hidden (5) ---------------------------------------------------------------
    Spec("You ask for a horror thriller. You secretly hold out for an R-rated, highly rated one "
         "that many people have voted on, and reveal each point only after a miss.",
         (("genres", "contains", "Horror", "v"), ("genres", "contains", "Thriller", "v"),
          ("rating", ">=", 6.9, "h"), ("content_rating", "==", "R", "h"),
          ("vote_count", ">=", 500, "h")), "hidden",
         ("availability", "age_restricted"), (SHU, AMC, PV, HU), ("a siege",)),
    Spec("You ask for a drama. Privately you want a rated (not unrated) romance over 100 minutes "
         "with good reviews, and you reveal each wish only after a miss.",
         (("genres", "contains", "Drama", "v"), ("genres", "contains", "Romance", "h"),
          ("rating", ">=", 6.5, "h"), ("runtime", ">=", 100, "h"),
          ("content_rating", "!=", "NR", "h")), "hidden",
         ("availability", "watch_history"), (NF, APL, STZ, MGM),
         ("letters and long distance",), near_miss_watched=1),
    Spec("You ask for a comedy. You keep quiet that it must be a family comedy, not R-rated, fairly "
         "well reviewed and under 110 minutes, until a suggestion misses.",
         (("genres", "contains", "Comedy", "v"), ("genres", "contains", "Family", "h"),
          ("content_rating", "!=", "R", "h"), ("rating", ">=", 6.0, "h"),
          ("runtime", "<=", 110, "h")), "hidden",
         ("availability",), (MGM, HU, MAX, PV), ("a pet in the story",)),
    Spec("You ask for a crime action film. Without saying so you want a recent, long, well-rated "
         "one, and you reveal each point only after a miss.",
         (("genres", "contains", "Crime", "v"), ("genres", "contains", "Action", "v"),
          ("rating", ">=", 6.5, "h"), ("runtime", ">=", 120, "h"),
          ("release_date", ">=", "2026-01-01", "h")), "hidden",
         ("availability", "age_restricted"), (NF, MAX, PV), ("a heist gone wrong",)),
    Spec("You ask for a music documentary. You silently expect a rated, feature-length one with a "
         "score of 8 or more, and reveal that only after a miss.",
         (("genres", "contains", "Documentary", "v"), ("genres", "contains", "Music", "v"),
          ("rating", ">=", 8.0, "h"), ("runtime", ">=", 100, "h"),
          ("content_rating", "!=", "NR", "h")), "hidden",
         ("availability", "transparency"), (KAN, NF, HU, PV), ("concert footage",), nvr=True),
)
# fmt: on


def _complexity(n: int) -> str:
    return "simple" if n <= 2 else "medium" if n <= 4 else "complex"


def _rank(task_id: str, item: CatalogItem) -> str:
    return hashlib.sha256(f"{task_id}:{item.id}".encode()).hexdigest()


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
            "persona": spec.persona,
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
    from runner.validate import check_task

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
    also: tuple[Path, ...] = (),
) -> list[str]:
    """Build all tasks on the catalog; write them unless any is a poor fit. Returns report lines.

    `also`: other snapshots the built tasks should stay consistent on (reported, not enforced).
    """
    from runner.validate import check_task

    catalog = Catalog.load(catalog_path)
    lines, bad = [], False
    tasks = [build_task(n, spec, catalog) for n, spec in enumerate(SPECS, start=1)]
    others = [(p.name, Catalog.load(p)) for p in also]
    for task in tasks:
        result = check_task(task, catalog)
        problems = design_problems(task, catalog)
        bad = bad or bool(problems)
        notes = [
            f"{name}: {'; '.join(design_problems(task, other, strict=False))}"
            for name, other in others
        ]
        notes = [n for n in notes if not n.endswith(": ")]
        lines.append(
            f"{task.id} {task.complexity:<7} {task.reveal_difficulty:<9} "
            f"c={len(result.constraint_solutions):<3} r={len(result.reachable_solutions):<3} "
            f"w={len(result.winning_solutions):<3} {'; '.join(problems + notes)}"
        )
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
        "--also", type=Path, nargs="*", default=[], help="other snapshots to report on"
    )
    args = parser.parse_args()
    lines = write_suite(args.catalog, args.out, check_only=args.check, also=tuple(args.also))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
