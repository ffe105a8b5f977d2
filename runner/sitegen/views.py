"""Shape aggregates and inputs into the plain rows the page templates read (ranks, badges, links, charts)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import polars as pl

from runner.core.domains import DEFAULT_DOMAIN, get_domain
from runner.core.errors import TaurecError
from runner.play.attribution import standing_reason
from runner.sitegen import charts
from runner.sitegen.aggregate import Aggregates
from runner.sitegen.inputs import Entry, Run, SiteInputs, SnapshotInfo
from runner.sitegen.metric_table import (
    HEADLINE,
    HEADLINE_K,
    METRIC_BY_KEY,
    PASS_KS,
    TABLE_COLUMNS,
)

TOP_CURVES = 10


@dataclass
class Badge:
    kind: str
    text: str
    title: str
    href: str | None = None


REFERENCE_BUILTINS = ("oracle", "random", "exploit", "do-nothing")


@dataclass(frozen=True)
class EntryFacts:
    """What a reader filters and compares entries by, besides the scores."""

    track: str
    verified: bool
    open_weights: bool | None
    release_date: str | None
    submitted: str | None
    simulator: str
    reference: bool
    exploit: bool = False

    def export(self) -> dict[str, Any]:
        return {
            "track": self.track,
            "verified": self.verified,
            "open_weights": self.open_weights,
            "model_release_date": self.release_date,
            "submitted": self.submitted,
            "simulator": self.simulator,
            "reference": self.reference,
        }


def _named_by_domains(entry: Entry, names: str) -> bool:
    """Is the entry's built-in one of `names` (adversary or reference) of a non-movies domain it enters?"""
    agent = entry.submission.agent
    for domain in entry.submission.domains:
        if domain == DEFAULT_DOMAIN:
            continue
        owner = get_domain(domain)
        try:
            found = owner.adversary_names() if names == "adversary" else owner.reference_names()
        except TaurecError:
            continue
        if agent.name in found:  # type: ignore[union-attr]
            return True
    return False


def is_exploit(entry: Entry) -> bool:
    """Built-in adversaries: agents that try to earn the reward without doing the task."""
    agent = entry.submission.agent
    return agent.kind == "builtin" and (
        agent.name.startswith("exploit") or _named_by_domains(entry, "adversary")
    )


def is_reference(entry: Entry) -> bool:
    """Built-in reference agents (oracle ceiling, random and exploit floors) are shown apart, unranked."""
    agent = entry.submission.agent
    return agent.kind == "builtin" and (
        agent.name.startswith(REFERENCE_BUILTINS) or _named_by_domains(entry, "reference")
    )


def entry_facts(entry: Entry, run: Run) -> EntryFacts:
    model = entry.submission.model
    starts = [r.manifest.started_at[:10] for r in entry.runs if r.manifest is not None]
    simulator = run.manifest.simulator.name if run.manifest is not None else "unknown"
    return EntryFacts(
        track=entry.submission.track,
        verified=run.verified,
        open_weights=model.open_weights,
        release_date=model.release_date.isoformat() if model.release_date else None,
        submitted=min(starts) if starts else None,
        simulator=simulator,
        reference=is_reference(entry),
        exploit=is_exploit(entry),
    )


@dataclass
class BoardRow:
    """One leaderboard row (one entry on one snapshot); unranked rows (incomplete, unscored) have no tier."""

    tier: int | None
    slug: str
    name: str
    organization: str
    snapshot: str
    values: dict[str, float | None]
    cells: dict[str, str]
    ci: dict[str, str]
    top_violations: list[tuple[str, str]]
    badges: list[Badge]
    scored: int
    infra_errors: int
    facts: EntryFacts
    standing: str = "ranked"

    def export(self) -> dict[str, Any]:
        """The row as the CSV / JSON download holds it (raw numbers, no formatting)."""
        out: dict[str, Any] = {
            "tier": None if self.facts.reference else self.tier,
            "slug": self.slug,
            "name": self.name,
            "organization": self.organization,
            "snapshot": self.snapshot,
            **self.facts.export(),
        }
        out["standing"] = self.standing
        out.update(self.values)
        out["top_violations"] = "; ".join(f"{p} {r}" for p, r in self.top_violations)
        out["badges"] = "; ".join(b.text for b in self.badges)
        out["scored"] = self.scored
        out["infra_errors"] = self.infra_errors
        return out


@dataclass
class SnapshotBoard:
    """One snapshot's board: ranked `rows`, `unranked` ones (too many infrastructure errors,
    no score shown) and the built-in `references`."""

    label: str
    rows: list[BoardRow]
    references: list[BoardRow] = field(default_factory=list)
    charts: dict[str, charts.Chart | None] = field(default_factory=dict)
    unranked: list[BoardRow] = field(default_factory=list)

    @property
    def exploit_floor(self) -> BoardRow | None:
        """The exploit floor of the headline pass^k (the one the charts draw)."""
        return self.exploit_floors().get(HEADLINE_K)

    def exploit_floors(self) -> dict[int, BoardRow]:
        """Per k shown: the best exploit reference row at pass^k, what gaming the user earns
        without doing the task (the best exploit may differ from one k to the next)."""
        floors = {}
        for k in PASS_KS:
            key = f"pass_{k}"
            exploits = [
                r for r in self.references if r.facts.exploit and r.values.get(key) is not None
            ]
            best = max(exploits, key=lambda r: (r.values[key], r.slug), default=None)
            if best is not None:
                floors[k] = best
        return floors

    def at_or_below_floor(self, k: int) -> list[BoardRow]:
        """Ranked rows whose pass^k is at or below that k's exploit floor."""
        floor = self.exploit_floors().get(k)
        if floor is None:
            return []
        key = f"pass_{k}"
        level = floor.values[key]
        assert level is not None
        out = []
        for row in self.rows:
            value = row.values.get(key)
            if value is not None and value <= level:
                out.append(row)
        return out


def assign_tiers(rows: list[dict[str, Any]], k: int = HEADLINE_K) -> list[int]:
    """Tie tiers: the leader and every entry whose pass^k CI (the headline's) overlaps the
    leader's share a tier.

    `rows` must be sorted best first; entries without pass^k get the tier after the last one.
    """
    tiers: list[int] = [0] * len(rows)
    tier = 0
    leader: dict[str, Any] | None = None
    lo, hi = f"lo_{k}", f"hi_{k}"
    for i, row in enumerate(rows):
        if row[f"pass_{k}"] is None:
            tiers[i] = tier + 1
            continue
        overlaps = (
            leader is not None
            and row[hi] is not None
            and leader[lo] is not None
            and row[hi] >= leader[lo]
        )
        if not overlaps:
            tier += 1
            leader = row
        tiers[i] = tier
    return tiers


def contaminated(entry: Entry, snapshot: SnapshotInfo | None) -> bool:
    """True when every release in the snapshot predates the model's stated training cutoff."""
    cutoff = entry.submission.model.training_cutoff
    if cutoff is None or snapshot is None or snapshot.latest_release is None:
        return False
    return snapshot.latest_release < cutoff


def badges_for(entry: Entry, run: Run, snapshot: SnapshotInfo | None) -> list[Badge]:
    out: list[Badge] = []
    attestation = run.ledger_entry.attestation if run.ledger_entry is not None else None
    if attestation is not None:
        # Only with an attestation: the badge links to GitHub's record of it, which anyone can
        # check (`gh attestation verify`) without trusting the ledger file.
        out.append(
            Badge(
                "verified",
                "verified",
                "Run by the leaderboard workflow from this config (in its ledger, digests match); "
                "the link is GitHub's attestation of its results archive",
                attestation.url,
            )
        )
    else:
        out.append(
            Badge("self", "self-reported", "Results not produced by the leaderboard workflow")
        )
    track = entry.submission.track
    out.append(
        Badge(
            track,
            track,
            "Standard track: the six v1 tools"
            if track == "standard"
            else "Custom track: extra tools (e.g. filter_catalog)",
        )
    )
    if contaminated(entry, snapshot):
        cutoff = entry.submission.model.training_cutoff
        latest = snapshot.latest_release if snapshot else None
        out.append(
            Badge(
                "contamination",
                "contamination risk",
                f"Every title in this snapshot (latest release {latest}) predates the model's "
                f"training cutoff ({cutoff}): it may have seen them",
            )
        )
    return out


def standing_badge(row: dict[str, Any]) -> list[Badge]:
    why = standing_reason(row["trials"], row["scored"])
    if why is None:
        return []
    if row["standing"] == "unscored":
        return [Badge("unscored", "no scored trials", why)]
    return [Badge("incomplete", "incomplete", why)]


# Shown for a run that is not ranked: its counts, never a score that would read as a rank.
UNRANKED_SHOWN = ("scored", "infra_errors")


def _fmt_ci(lo: float | None, hi: float | None) -> str:
    if lo is None or hi is None:
        return ""
    return f"[{100 * lo:.1f}, {100 * hi:.1f}]"


def _with_names(frame: pl.DataFrame, names: dict[str, str]) -> pl.DataFrame:
    """Add the `entry` label column charts use (display name, made unique by the slug)."""
    lookup = pl.DataFrame(
        {"submission": list(names), "entry": list(names.values())},
        schema={"submission": pl.String, "entry": pl.String},
    )
    return frame.join(lookup, on="submission", how="left")


def chart_names(inputs: SiteInputs) -> dict[str, str]:
    names = {e.slug: e.submission.display_name for e in inputs.entries}
    counts: dict[str, int] = {}
    for name in names.values():
        counts[name] = counts.get(name, 0) + 1
    return {slug: (f"{n} ({slug})" if counts[n] > 1 else n) for slug, n in names.items()}


def boards(inputs: SiteInputs, agg: Aggregates) -> list[SnapshotBoard]:
    """One board per snapshot label found in the results, newest first."""
    entries = {e.slug: e for e in inputs.entries}
    runs = {(r.slug, r.snapshot): r for r in inputs.runs}
    snaps = {s.label: s for s in inputs.snapshots}
    names = chart_names(inputs)
    # Ranked entries first, then incomplete ones (> 5 % unscored), then those with nothing scored.
    order = pl.col("standing").replace_strict(
        {"ranked": 0, "incomplete": 1, "unscored": 2}, return_dtype=pl.Int64
    )
    table = agg.entries.with_columns(_order=order).sort(
        ["snapshot", "_order", HEADLINE, "submission"],
        descending=[True, False, True, False],
        nulls_last=True,
    )
    violations = agg.per_policy.filter(pl.col("violations") > 0).sort(
        ["submission", "snapshot", "rate", "policy"], descending=[False, False, True, False]
    )
    top: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for row in violations.iter_rows(named=True):
        key = (row["submission"], row["snapshot"])
        if len(top.setdefault(key, [])) < 2:
            top[key].append((row["policy"], f"{100 * row['rate']:.0f}%"))
    out: list[SnapshotBoard] = []
    for label in table["snapshot"].unique(maintain_order=True).to_list():
        part = table.filter(pl.col("snapshot") == label)
        all_rows = part.to_dicts()
        references = [r for r in all_rows if is_reference(entries[r["submission"]])]
        dicts = [r for r in all_rows if not is_reference(entries[r["submission"]])]
        # Incomplete (> 5 % unscored) and unscored entries are listed apart, without a tier and
        # without a score (runner.play.attribution): their pass^k leaves out trials nobody scored.
        ranked = [d for d in dicts if d["standing"] == "ranked"]
        unranked = [d for d in dicts if d["standing"] != "ranked"]
        tiers: list[int | None] = [
            *assign_tiers(ranked),
            *([None] * len(unranked)),
            *([0] * len(references)),
        ]
        rows: list[BoardRow] = []
        for tier, row in zip(tiers, ranked + unranked + references, strict=True):
            entry = entries[row["submission"]]
            run = runs[(row["submission"], label)]
            keys = [*TABLE_COLUMNS, "weighted_policy"]
            if row["standing"] != "ranked" and not is_reference(entry):  # references: never ranked
                row = {k: v for k, v in row.items() if k in UNRANKED_SHOWN or k not in keys}
                row |= {f"{m}_{k}": None for k in PASS_KS for m in ("lo", "hi")}
            values = {k: row.get(k) for k in keys}
            for k in PASS_KS:
                values[f"ci_low_{k}"] = row.get(f"lo_{k}")
                values[f"ci_high_{k}"] = row.get(f"hi_{k}")
            rows.append(
                BoardRow(
                    tier=tier,
                    slug=entry.slug,
                    name=entry.submission.display_name,
                    organization=entry.submission.contact.organization,
                    snapshot=label,
                    values=values,
                    cells={k: METRIC_BY_KEY[k].format(row.get(k)) for k in keys},
                    ci={
                        f"pass_{k}": _fmt_ci(row.get(f"lo_{k}"), row.get(f"hi_{k}"))
                        for k in PASS_KS
                    },
                    top_violations=top.get((entry.slug, label), []),
                    badges=[*badges_for(entry, run, snaps.get(label)), *standing_badge(row)],
                    scored=row["scored"],
                    infra_errors=row["infra_errors"],
                    facts=entry_facts(entry, run),
                    standing=row["standing"],
                )
            )
        board = SnapshotBoard(
            label,
            rows[: len(ranked)],
            rows[len(dicts) :],
            unranked=rows[len(ranked) : len(dicts)],
        )
        released = {r.slug: r.facts.release_date for r in board.rows}
        floor = board.exploit_floors().get(1)  # the capability charts plot pass^1
        board.charts = board_charts(
            agg,
            label,
            names,
            [r.slug for r in board.rows],
            released,
            floor=floor.values["pass_1"] if floor is not None else None,
        )
        out.append(board)
    return out


def board_charts(
    agg: Aggregates,
    label: str,
    names: dict[str, str],
    ranked: list[str],
    released: dict[str, str | None],
    floor: float | None = None,
) -> dict[str, charts.Chart | None]:
    """The home page charts of one snapshot (curves for the top entries; others for all); the
    capability charts draw the exploit floor."""
    in_snap = pl.col("snapshot") == label
    top = ranked[:TOP_CURVES]
    # Reference rows stay off the capability charts, as they stay out of the ranking.
    entries = _with_names(agg.entries.filter(in_snap & pl.col("submission").is_in(ranked)), names)
    order = pl.DataFrame({"submission": ranked, "rank": list(range(len(ranked)))})

    def by_rank(frame: pl.DataFrame) -> pl.DataFrame:
        return frame.join(order, on="submission").sort("rank")

    dated = pl.DataFrame(
        {"submission": list(released), "release_date": list(released.values())},
        schema={"submission": pl.String, "release_date": pl.String},
    ).filter(pl.col("release_date").is_not_null())
    with_dates = entries.join(dated, on="submission")
    specs: dict[str, charts.Chart | None] = {
        "release": charts.release_scatter(
            with_dates, f"Capability vs model release date ({label})", floor
        )
        if not with_dates.is_empty()
        else None,
        "pass_k": charts.pass_k_curves(
            by_rank(
                _with_names(agg.pass_k.filter(in_snap & pl.col("submission").is_in(top)), names)
            ),
            f"pass^k by k — top {min(TOP_CURVES, len(ranked))} entries ({label})",
        ),
        "latency": charts.capability_vs(
            entries,
            "latency",
            "Median step latency (s)",
            f"Capability vs latency ({label})",
            ".2f",
            floor,
        ),
        "cost": charts.capability_vs(
            entries,
            "cost",
            "Cost per trial (USD)",
            f"Capability vs cost ({label})",
            "$.4f",
            floor,
        ),
        "strata": charts.strata_grid(
            by_rank(_with_names(agg.stratified.filter(in_snap), names)),
            f"pass^1 by reveal difficulty and complexity ({label})",
        ),
        "violations": charts.violation_bars(
            by_rank(
                _with_names(
                    agg.per_policy.filter(in_snap & pl.col("submission").is_in(ranked[:5])), names
                )
            ),
            f"Policy violation rate — top {min(5, len(ranked))} entries ({label})",
            by_entry=True,
        ),
        "tasks": charts.task_grid(
            by_rank(_with_names(agg.per_task.filter(in_snap), names)),
            f"Successful trials per task (c of n) ({label})",
        ),
    }
    return specs


def timeline_chart(inputs: SiteInputs, agg: Aggregates) -> charts.Chart | None:
    """pass^1 across snapshot dates, for entries with at least one dated run."""
    frame = agg.entries.filter(pl.col("snapshot").str.contains(r"^\d{4}-\d{2}-\d{2}$"))
    if frame.is_empty():
        return None
    return charts.timeline(
        _with_names(frame, chart_names(inputs)).sort("submission", "snapshot"),
        "pass^1 across snapshots",
    )
