"""Measured task difficulty: per-task pool, winner-share, cut, popularity and search figures, and the gate over them."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from domains.movies.catalog import Catalog, CatalogItem
from domains.movies.search import search_index
from domains.movies.simulators.scripted import ScriptedUser
from domains.movies.tasks import Task, load_tasks
from domains.movies.validate import check_task, policy_allows
from runner.batch.inputs import resolve_snapshot
from runner.batch.keys import trial_seed
from runner.core.paths import TASKS_DIR
from runner.core.predicates import ConstraintValue, Op, Reveal, RevealDifficulty

__all__ = [
    "AUDIT_SEEDS",
    "GATE_RULES",
    "MAX_VOLUNTEER_WINNING_SHARE",
    "MAX_WINNER_SHARE",
    "MIN_CUT_SHARE",
    "MIN_POOL",
    "TELL_PATTERNS",
    "GateCheck",
    "SuiteAudit",
    "TaskAudit",
    "audit_suite",
    "audit_task",
    "openings",
    "persona_tells",
    "run_audit",
]

# The gate's thresholds (issue 10): one definition, quoted in every check's reason.
MIN_POOL = 8
MAX_WINNER_SHARE = 0.25
# Mixed tasks measure asking: on at most a quarter of them do the titles a "well reviewed, well
# known" prior picks first from the volunteered pool win (a suite rule: a guess must not pay).
PRIOR_PICKS = 2
MAX_PRIOR_WINNING_SHARE = 0.25
# Hidden tasks measure learning from declines: a pool where few titles win (a guess rarely lands)
# and hidden constraints whose declines point a direction (so learning always can).
MIN_HIDDEN_POOL = 8
MAX_HIDDEN_WINNER_SHARE = 0.125
DIRECTIONAL_FIELDS = frozenset({"runtime", "rating", "vote_count", "release_date"})
MIN_CUT_SHARE = 0.30
MAX_VOLUNTEER_WINNING_SHARE = 0.02
AUDIT_SEEDS = 8  # openings probed: the scripted user's first message for trials 0..7 of run seed 0

GateRule = Literal[
    "mixed_pool",
    "mixed_prior",
    "hidden_pool",
    "hidden_directional",
    "constraint_cut",
    "popular_not_winning",
    "needs_retrieval",
    "nvr_combination",
    "nvr_no_tell",
    "informed_solvable",
]
GATE_RULES: dict[GateRule, str] = {
    "mixed_pool": "mixed task: winner share <= 0.25 over >= 8 titles after volunteer constraints",
    "mixed_prior": "suite: on <= 25 % of mixed tasks does one of the volunteered pool's 2 "
    "best-reviewed, 2 most-voted or 2 best-by-both titles meet every on_ask constraint, so "
    "asking beats a popularity guess",
    "hidden_pool": "task with hidden constraints: winner share <= 0.125 over >= 8 titles after "
    "volunteer+on_ask",
    "hidden_directional": "task with hidden constraints: each is a bound on an ordered field "
    "(length, reviews, votes, release date, age rating), so each decline points a direction",
    "constraint_cut": "every on_ask/hidden constraint removes >= 30 % of what the others allow",
    "popular_not_winning": "the most-voted reachable title never wins",
    "needs_retrieval": "volunteer task: winning set <= 2 % of the catalog, not the first search hit",
    "nvr_combination": "NVR task: each constraint satisfiable alone, the volunteer ones together "
    "too, so infeasibility needs a non-volunteer constraint",
    "nvr_no_tell": "NVR task: the persona does not announce that nothing may fit",
    "informed_solvable": "the informed agent (told which fields matter, not their values) wins "
    "on every probed seed, so the user's variation never decides whether a task can be won",
}

# A "persona tell": wording in a persona or soft preference that announces impossibility, rarity or
# extreme pickiness, so an agent could guess a no-valid-recommendation task without searching.
TELL_PATTERNS: tuple[re.Pattern[str], ...] = tuple(
    re.compile(p, re.IGNORECASE)
    for p in (
        r"\bimpossib\w*",
        r"\b(?:does\s*n[o']t|do\s*n[o']t|might\s+not|may\s+not|probably\s+(?:does\s*n[o']t|"
        r"won't))\s+(?:even\s+)?exist",
        r"\bno\s+such\b",
        r"\bnothing\s+(?:will|would|ever|really|quite|actually)?\s*(?:fits?|match\w*|satisf\w*)",
        r"\b(?:unlikely|long\s+shot|good\s+luck|hard\s+to\s+find|needle|unicorn|wild\s+goose)\b",
        r"\b(?:rare|rarely|rarity|scarce|niche|obscure\s+combination)\b",
        r"\b(?:picky|fussy|exacting|demanding|precise|oddly\s+specific|very\s+specific)\b",
        r"\b(?:give\s+up|settle\s+for|walk\s+away|accept\s+(?:that\s+)?nothing|no\s+compromise)\b",
        r"\bnot\s+sure\s+(?:it|one|such|any)\b",
    )
)


class PoolFigures(BaseModel):
    """A set of titles an agent can reach: its size, how many win, and its most-voted title."""

    model_config = ConfigDict(extra="forbid")

    size: int
    winners: int
    winner_share: float | None = Field(description="winners / size (None: empty pool)")
    most_voted: str | None = Field(description="Most-voted title of the pool (ties: catalog order)")
    most_voted_wins: bool


class ConstraintCut(BaseModel):
    """How much one constraint removes from what every other constraint (and the policy) allows."""

    model_config = ConfigDict(extra="forbid")

    field: str
    op: Op
    value: ConstraintValue
    reveal: Reveal
    others_allow: int = Field(description="Policy-allowed titles meeting every other constraint")
    removes: int
    share: float | None = Field(description="removes / others_allow (None: others allow nothing)")


class NvrFigures(BaseModel):
    """Why a no-valid-recommendation task has no answer, and whether its persona gives that away."""

    model_config = ConfigDict(extra="forbid")

    satisfiable_alone: list[int] = Field(
        description="Per constraint, the policy-allowed titles meeting it alone"
    )
    volunteer_pool: int = Field(description="Policy-allowed titles meeting every volunteer one")
    persona_tells: list[str] = Field(description="Impossibility wording found in persona/soft")


class GateCheck(BaseModel):
    """One gate rule on one task: its figure, its threshold, and a readable verdict."""

    model_config = ConfigDict(extra="forbid")

    rule: GateRule
    passed: bool
    figure: str
    threshold: str
    reason: str


class TaskAudit(BaseModel):
    """Every difficulty figure of one task on one catalog, and the gate verdict."""

    model_config = ConfigDict(extra="forbid")

    task_id: str
    reveal_difficulty: RevealDifficulty
    no_valid_recommendation: bool
    catalog_size: int
    winning: list[str] = Field(description="Winning set: constraints + services + policies")
    winning_share_of_catalog: float
    allowed: PoolFigures = Field(description="Every policy-allowed title (no constraint applied)")
    volunteer_pool: PoolFigures = Field(description="Allowed titles meeting the volunteered ones")
    prior_picks: list[str] = Field(
        default_factory=list,
        description="The volunteered pool's picks of a 'well reviewed, well known' prior: its 2 "
        "best-rated, 2 most-voted and 2 best by the sum of both ranks (ties: catalog order)",
    )
    stated_pool: PoolFigures = Field(description="Allowed titles meeting volunteer + on_ask ones")
    prior_picks_stated: list[str] = Field(
        default_factory=list,
        description="The prior picks that also meet every on_ask constraint: a guess that is "
        "never told 'not for me', so hidden hints alone could lead it to a winner",
    )
    cuts: list[ConstraintCut] = Field(description="One per constraint, in task order")
    first_hits: list[str | None] = Field(
        description="First search_catalog hit for the scripted user's opening message, one per "
        "probed seed (trials 0..7 of run seed 0); None: no hit"
    )
    nvr: NvrFigures | None
    informed_wins: list[bool] | None = Field(
        default=None,
        description="The informed agent's outcome on trials 0..n-1 of run seed 0 against the "
        "scripted user (None: not probed)",
    )
    checks: list[GateCheck]
    passed: bool

    @property
    def first_hit_wins(self) -> int:
        """How many probed openings have a winning first search hit."""
        return sum(hit is not None and hit in self.winning for hit in self.first_hits)

    @property
    def failed_checks(self) -> list[GateCheck]:
        return [c for c in self.checks if not c.passed]


class SuiteAudit(BaseModel):
    """The audit of a whole suite on one catalog."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    schema_version: Literal[1] = 1
    catalog: str
    catalog_sha256: str
    catalog_size: int
    tasks: list[TaskAudit]
    suite_checks: list[GateCheck] = Field(
        default_factory=list, description="Rules over the whole suite (mixed_prior)"
    )

    @property
    def failed(self) -> list[TaskAudit]:
        return [t for t in self.tasks if not t.passed]

    @property
    def ok(self) -> bool:
        return not self.failed and all(c.passed for c in self.suite_checks)

    def rule_failures(self) -> dict[str, int]:
        """How many tasks fail each gate rule (every rule listed, zeros included); a failed suite
        rule counts the tasks behind it."""
        counts: dict[str, int] = {
            rule: sum(any(c.rule == rule and not c.passed for c in t.checks) for t in self.tasks)
            for rule in GATE_RULES
        }
        if any(c.rule == "mixed_prior" and not c.passed for c in self.suite_checks):
            counts["mixed_prior"] = len(prior_guessable(self.tasks))
        return counts

    def to_json(self) -> str:
        return json.dumps(self.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n"

    def format_text(self) -> str:
        """One line of figures per task, its failed checks under it, then a summary."""
        lines = [
            f"catalog {self.catalog} ({self.catalog_size} titles, sha256 {self.catalog_sha256[:12]})",
            f"{'task':<10} {'reveal':<9} {'nvr':<3} {'win':>4} {'vol pool':>10} "
            f"{'stated pool':>12} {'min cut':>8} {'top wins':>8} {'hit wins':>8} "
            f"{'informed':>8}  gate",
        ]
        for t in self.tasks:
            lines.append(_task_line(t))
            lines += [f"    FAIL {c.rule}: {c.reason}" for c in t.failed_checks]
        for c in self.suite_checks:
            lines.append(f"suite {c.rule}: {'pass' if c.passed else 'FAIL'}: {c.reason}")
        failures = {r: n for r, n in self.rule_failures().items() if n}
        lines.append(
            f"{len(self.tasks)} tasks: {len(self.tasks) - len(self.failed)} pass the gate, "
            f"{len(self.failed)} fail"
            + (" (" + ", ".join(f"{r}: {n}" for r, n in failures.items()) + ")" if failures else "")
        )
        return "\n".join(lines) + "\n"


def _share(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def _pct(share: float | None) -> str:
    return "-" if share is None else f"{share * 100:.0f}%"


def _task_line(t: TaskAudit) -> str:
    non_volunteer = [c.share for c in t.cuts if c.reveal != "volunteer"]
    cut = "-" if not non_volunteer else _pct(min((s or 0.0) for s in non_volunteer))
    hits = t.first_hit_wins
    wins = t.informed_wins
    informed = "-" if wins is None else f"{sum(wins)}/{len(wins)}"
    return (
        f"{t.task_id:<10} {t.reveal_difficulty:<9} {'yes' if t.no_valid_recommendation else '':<3} "
        f"{len(t.winning):>4} "
        f"{_pct(t.volunteer_pool.winner_share):>5}/{t.volunteer_pool.size:<4} "
        f"{_pct(t.stated_pool.winner_share):>6}/{t.stated_pool.size:<5} {cut:>8} "
        f"{'yes' if t.allowed.most_voted_wins else 'no':>8} {f'{hits}/{len(t.first_hits)}':>8} "
        f"{informed:>8}  "
        f"{'pass' if t.passed else 'FAIL'}"
    )


def _pool(items: list[CatalogItem], winners: set[str]) -> PoolFigures:
    top = max(items, key=lambda i: i.vote_count, default=None)  # first of equals: catalog order
    n_win = sum(i.id in winners for i in items)
    return PoolFigures(
        size=len(items),
        winners=n_win,
        winner_share=_share(n_win, len(items)),
        most_voted=top.id if top else None,
        most_voted_wins=top is not None and top.id in winners,
    )


def prior_picks(items: list[CatalogItem]) -> list[str]:
    """What a guesser with a popularity-and-reviews prior proposes first from a pool, in order."""
    if not items:
        return []
    order = {i.id: n for n, i in enumerate(items)}

    def ranks(key: str) -> dict[str, int]:
        ranked = sorted(items, key=lambda i: (-float(getattr(i, key)), order[i.id]))
        return {i.id: r for r, i in enumerate(ranked)}

    by_rating, by_votes = ranks("rating"), ranks("vote_count")
    both = sorted(items, key=lambda i: (by_rating[i.id] + by_votes[i.id], order[i.id]))
    picks: list[str] = []
    for ranked in (
        sorted(items, key=lambda i: by_rating[i.id]),
        sorted(items, key=lambda i: by_votes[i.id]),
        both,
    ):
        picks += [i.id for i in ranked[:PRIOR_PICKS] if i.id not in picks]
    return picks


def persona_tells(task: Task) -> list[str]:
    """The impossibility wording (see TELL_PATTERNS) in the persona and soft preferences."""
    text = " ".join([task.persona, *task.soft_preferences])
    return [m.group(0) for p in TELL_PATTERNS for m in p.finditer(text)]


def openings(task: Task, catalog: Catalog) -> list[str]:
    """The scripted user's opening message for trials 0..AUDIT_SEEDS-1 of run seed 0."""
    seeds = [trial_seed(0, task.id, i) for i in range(AUDIT_SEEDS)]
    return [ScriptedUser(task, catalog, s).reply([]).content for s in seeds]


def audit_task(task: Task, catalog: Catalog, *, informed_seeds: int = 0) -> TaskAudit:
    """Compute every difficulty figure of one task on one catalog and judge it by the gate;
    with `informed_seeds`, also play the informed agent on that many seeds."""
    allowed = [i for i in catalog.items if policy_allows(task, i)]
    winning = check_task(task, catalog).winning_solutions
    winners = set(winning)
    tcs = task.constraints

    def meeting(items: list[CatalogItem], keep: list[int]) -> list[CatalogItem]:
        return [i for i in items if all(tcs[k].constraint.holds(i) for k in keep)]

    volunteer = [k for k, tc in enumerate(tcs) if tc.reveal == "volunteer"]
    stated = [k for k, tc in enumerate(tcs) if tc.reveal != "hidden"]
    volunteer_items = meeting(allowed, volunteer)
    picks = prior_picks(volunteer_items)
    stated_ids = {i.id for i in meeting(allowed, stated)}
    cuts = []
    for k, tc in enumerate(tcs):
        others = meeting(allowed, [j for j in range(len(tcs)) if j != k])
        removes = len(others) - len(meeting(others, [k]))
        c = tc.constraint
        cuts.append(
            ConstraintCut(
                field=c.field,
                op=c.op,
                value=c.value,
                reveal=tc.reveal,
                others_allow=len(others),
                removes=removes,
                share=_share(removes, len(others)),
            )
        )
    index = search_index(catalog)
    first_hits = []
    for opening in openings(task, catalog):
        top = index.ranked_indices(opening, 1)
        first_hits.append(catalog.items[top[0]].id if top else None)
    nvr = None
    if task.no_valid_recommendation:
        nvr = NvrFigures(
            satisfiable_alone=[len(meeting(allowed, [k])) for k in range(len(tcs))],
            volunteer_pool=len(volunteer_items),
            persona_tells=persona_tells(task),
        )
    audit = TaskAudit(
        task_id=task.id,
        reveal_difficulty=task.reveal_difficulty,
        no_valid_recommendation=task.no_valid_recommendation,
        catalog_size=len(catalog),
        winning=winning,
        winning_share_of_catalog=_share(len(winning), len(catalog)) or 0.0,
        allowed=_pool(allowed, winners),
        volunteer_pool=_pool(volunteer_items, winners),
        prior_picks=picks,
        prior_picks_stated=[i for i in picks if i in stated_ids],
        stated_pool=_pool(meeting(allowed, stated), winners),
        cuts=cuts,
        first_hits=first_hits,
        nvr=nvr,
        informed_wins=_informed(task, catalog, informed_seeds),
        checks=[],
        passed=True,
    )
    audit.checks = gate_checks(audit)
    audit.passed = all(c.passed for c in audit.checks)
    return audit


def _informed(task: Task, catalog: Catalog, seeds: int) -> list[bool] | None:
    if seeds <= 0:
        return None
    from domains.movies.informed_probe import informed_wins

    return informed_wins(task, catalog, seeds)


def _pool_check(
    rule: GateRule,
    pool: PoolFigures,
    stage: str,
    min_pool: int = MIN_POOL,
    max_share: float = MAX_WINNER_SHARE,
) -> GateCheck:
    share = pool.winner_share
    passed = pool.size >= min_pool and share is not None and share <= max_share
    figure = f"{pool.winners} of {pool.size} win ({_pct(share)})"
    if passed:
        reason = f"after {stage}, {figure}"
    elif pool.size < min_pool:
        reason = f"after {stage} only {pool.size} title(s) remain (need >= {min_pool})"
    else:
        reason = f"after {stage}, {figure}: more than {max_share:.0%} of the pool wins"
    return GateCheck(
        rule=rule,
        passed=passed,
        figure=figure,
        threshold=f"size >= {min_pool}, share <= {max_share}",
        reason=reason,
    )


def _directional(c: ConstraintCut) -> bool:
    if c.field in DIRECTIONAL_FIELDS:
        return c.op in ("<=", ">=")
    return c.field == "content_rating" and c.op in ("==", "in")


def gate_checks(a: TaskAudit) -> list[GateCheck]:
    """The gate rules that apply to this task, each with its figure, threshold and reason."""
    checks: list[GateCheck] = []
    if a.reveal_difficulty == "mixed":
        checks.append(_pool_check("mixed_pool", a.volunteer_pool, "the volunteered constraints"))
    if a.reveal_difficulty == "hidden" or any(c.reveal == "hidden" for c in a.cuts):
        checks.append(
            _pool_check(
                "hidden_pool",
                a.stated_pool,
                "volunteer+on_ask constraints",
                MIN_HIDDEN_POOL,
                MAX_HIDDEN_WINNER_SHARE,
            )
        )
        flat = [
            f"{c.field} {c.op} {c.value!r}"
            for c in a.cuts
            if c.reveal == "hidden" and not _directional(c)
        ]
        checks.append(
            GateCheck(
                rule="hidden_directional",
                passed=not flat,
                figure=", ".join(flat) or "every hidden constraint is a bound",
                threshold="hidden constraints bound an ordered field",
                reason=(
                    f"a decline can only say 'not my kind of movie' for {'; '.join(flat)}"
                    if flat
                    else "every decline on a hidden constraint points a direction"
                ),
            )
        )
    weak = [
        f"{c.field} {c.op} {c.value!r} ({c.reveal}) removes {c.removes} of {c.others_allow}"
        + ("" if c.share is None else f" ({_pct(c.share)})")
        for c in a.cuts
        if c.reveal != "volunteer" and (c.share is None or c.share < MIN_CUT_SHARE)
    ]
    cut_shares = [c.share for c in a.cuts if c.reveal != "volunteer"]
    if cut_shares:
        low = min((s if s is not None else 0.0) for s in cut_shares)
        checks.append(
            GateCheck(
                rule="constraint_cut",
                passed=not weak,
                figure=f"smallest cut {_pct(low)}",
                threshold=f">= {MIN_CUT_SHARE:.0%} each",
                reason="; ".join(weak)
                if weak
                else f"each of {len(cut_shares)} on_ask/hidden constraint(s) cuts >= {_pct(low)}",
            )
        )
    if not a.no_valid_recommendation:
        tops = [("whole catalog", a.allowed)]
        if a.reveal_difficulty != "volunteer":
            tops.append(("volunteered pool", a.volunteer_pool))
        winning_tops = [
            f"{p.most_voted} (most-voted of the {name})" for name, p in tops if p.most_voted_wins
        ]
        checks.append(
            GateCheck(
                rule="popular_not_winning",
                passed=not winning_tops,
                figure=", ".join(f"{name}: {p.most_voted}" for name, p in tops),
                threshold="none of them wins",
                reason=(
                    f"{' and '.join(winning_tops)} wins"
                    if winning_tops
                    else "the most-voted allowed title "
                    + ("and the most-voted of the volunteered pool do" if len(tops) > 1 else "does")
                    + " not win"
                ),
            )
        )
    if a.reveal_difficulty == "volunteer" and not a.no_valid_recommendation:
        limit = int(MAX_VOLUNTEER_WINNING_SHARE * a.catalog_size)
        hit_wins = [h for h in a.first_hits if h is not None and h in a.winning]
        too_many = len(a.winning) > limit
        problems = []
        if too_many:
            problems.append(
                f"{len(a.winning)} winning titles is more than 2 % of {a.catalog_size} ({limit})"
            )
        if hit_wins:
            problems.append(
                f"the first search hit for the opening wins ({hit_wins[0]}, "
                f"{len(hit_wins)} of {len(a.first_hits)} seeds)"
            )
        checks.append(
            GateCheck(
                rule="needs_retrieval",
                passed=not problems,
                figure=f"{len(a.winning)} winning ({_pct(a.winning_share_of_catalog)}), "
                f"first hit wins {len(hit_wins)}/{len(a.first_hits)}",
                threshold=f"<= {limit} winning, first hit wins 0/{len(a.first_hits)}",
                reason="; ".join(problems)
                or f"{len(a.winning)} winning titles, none of them a first search hit",
            )
        )
    if a.nvr is not None:
        empty = [
            f"{c.field} {c.op} {c.value!r}"
            for c, n in zip(a.cuts, a.nvr.satisfiable_alone, strict=True)
            if n == 0
        ]
        problems = [f"{e} is unsatisfiable on its own" for e in empty]
        if a.nvr.volunteer_pool == 0:
            problems.append("the volunteered constraints alone already allow nothing")
        checks.append(
            GateCheck(
                rule="nvr_combination",
                passed=not problems,
                figure=f"alone: {a.nvr.satisfiable_alone}, volunteered pool {a.nvr.volunteer_pool}",
                threshold="each >= 1, volunteered pool >= 1",
                reason="; ".join(problems)
                or "every constraint is satisfiable alone and the volunteered ones together; "
                "only a non-volunteer constraint makes the task infeasible",
            )
        )
        tells = a.nvr.persona_tells
        checks.append(
            GateCheck(
                rule="nvr_no_tell",
                passed=not tells,
                figure=f"{len(tells)} tell(s)",
                threshold="0",
                reason=f"persona announces impossibility: {', '.join(repr(t) for t in tells)}"
                if tells
                else "no impossibility wording in the persona or soft preferences",
            )
        )
    if a.informed_wins is not None:
        lost = [str(i) for i, won in enumerate(a.informed_wins) if not won]
        n = len(a.informed_wins)
        checks.append(
            GateCheck(
                rule="informed_solvable",
                passed=not lost,
                figure=f"wins {n - len(lost)}/{n} seeds",
                threshold=f"{n}/{n}",
                reason=f"the informed agent loses trial(s) {', '.join(lost)} of run seed 0"
                if lost
                else f"the informed agent wins all {n} probed trials",
            )
        )
    return checks


def prior_guessable(tasks: list[TaskAudit]) -> list[str]:
    """Mixed tasks with a valid answer where a prior pick from the volunteered pool meets every
    on_ask constraint (so not asking costs nothing there)."""
    return [
        t.task_id
        for t in tasks
        if t.reveal_difficulty == "mixed" and not t.no_valid_recommendation and t.prior_picks_stated
    ]


def suite_checks(tasks: list[TaskAudit]) -> list[GateCheck]:
    """The rules over the whole suite: a popularity guess wins on few mixed tasks."""
    mixed = [t for t in tasks if t.reveal_difficulty == "mixed"]
    if not mixed:
        return []
    lucky = prior_guessable(tasks)
    share = len(lucky) / len(mixed)
    figure = f"{len(lucky)} of {len(mixed)} mixed tasks ({_pct(share)})"
    return [
        GateCheck(
            rule="mixed_prior",
            passed=share <= MAX_PRIOR_WINNING_SHARE,
            figure=figure,
            threshold=f"<= {MAX_PRIOR_WINNING_SHARE:.0%}",
            reason=f"a prior pick of the volunteered pool meets every on_ask constraint on {figure}"
            + (f": {', '.join(lucky)}" if lucky else ""),
        )
    ]


def audit_suite(catalog: Catalog, tasks: list[Task], *, informed_seeds: int = 0) -> SuiteAudit:
    """Audit every task (retired ones too: the audit only reports) on one catalog."""
    audits = [
        audit_task(t, catalog, informed_seeds=informed_seeds)
        for t in sorted(tasks, key=lambda t: t.id)
    ]
    return SuiteAudit(
        catalog=catalog.source,
        catalog_sha256=catalog.digest(),
        catalog_size=len(catalog),
        tasks=audits,
        suite_checks=suite_checks(audits),
    )


def run_audit(
    snapshot: str | None, tasks_dir: Path | None, *, informed_seeds: int = 0
) -> SuiteAudit:
    """Load a snapshot (date or path; default: the latest) and a task folder, and audit."""
    catalog = resolve_snapshot(snapshot).catalog
    return audit_suite(catalog, load_tasks(tasks_dir or TASKS_DIR), informed_seeds=informed_seeds)
