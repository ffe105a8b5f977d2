"""The Splits page: each domain's live test split as aggregates only, its dev/test gap, and every retired split in full, dated.

While a split is live the page reads nothing but its `split.json` (aggregates: pass^k with CIs,
strata, policy rates, cost, failure causes by rule), so no task, persona, constraint, id, history,
transcript or recommended title can reach the site. A retired split is published whole: its task
files and transcripts are copied beside the page, and the page lists each task (id, user id,
persona, constraints) and each trial's recommendation by title.
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from runner.core.domains import get_domain
from runner.publish.splits import EntryAggregate, SplitRecord, live_record, retired_records
from runner.sitegen.escaping import markdown as md_text
from runner.sitegen.metric_table import HEADLINE_K, PASS_KS

if TYPE_CHECKING:
    from runner.sitegen.inputs import Entry

__all__ = ["SPLITS_PAGE", "test_split_view", "write_splits_page"]

SPLITS_PAGE = "splits.md"


def _fmt(value: float | None, digits: int = 3) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


def _live_section(record: SplitRecord) -> list[str]:
    lines = [
        f"### Live test split `{record.split_id}`",
        "",
        f"Drawn from snapshot {md_text(record.snapshot)} from the split secret "
        f"({md_text(record.secret_name)}): {record.tasks} tasks "
        f"({', '.join(f'{md_text(k)} {v}' for k, v in record.strata.items())}), "
        f"{record.trials} trials each. Only aggregates are shown until it retires.",
        "",
        "| entry | test pass^1 | 95% CI | pass^2 | pass^4 | dev pass^1 | gap (dev − test) "
        "| policies held | cost / trial (USD) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    ranked = sorted(record.entries, key=lambda e: (-(e.test_pass1 or 0.0), e.slug))
    for e in ranked:
        by_k = {p.k: p for p in e.summary.pass_hat_k}
        first = by_k.get(1)
        ci = f"[{_fmt(first.ci_low)}, {_fmt(first.ci_high)}]" if first else "—"
        lines.append(
            f"| {md_text(e.slug)} | {_fmt(e.test_pass1)} | {ci} "
            f"| {_fmt(by_k[2].value if 2 in by_k else None)} "
            f"| {_fmt(by_k[4].value if 4 in by_k else None)} | {_fmt(e.dev_pass1)} "
            f"| {_fmt(e.gap)} | {_fmt(e.summary.policy_score)} "
            f"| {_fmt(e.summary.mean_cost_usd, 6)} |"
        )
    strata = sorted({s for e in ranked for s in e.summary.by_reveal_difficulty})
    if strata:
        lines += [
            "",
            "Test pass^1 by reveal difficulty:",
            "",
            "| entry | " + " | ".join(md_text(s) for s in strata) + " |",
            "|---|" + "---|" * len(strata),
        ]
        for e in ranked:
            cells = []
            for s in strata:
                row = e.summary.by_reveal_difficulty.get(s) or []
                cells.append(_fmt(row[0].value if row else None))
            lines.append(f"| {md_text(e.slug)} | " + " | ".join(cells) + " |")
    lines += ["", "Failing trials by the rule they broke:", ""]
    for e in ranked:
        causes = ", ".join(f"{md_text(k)} {v}" for k, v in list(e.failure_causes.items())[:6])
        lines.append(f"- **{md_text(e.slug)}**: {causes or 'none'}")
    if record.waiting:
        lines += [
            "",
            "Scored once per split; these entries changed their config and wait for the next "
            f"split: {', '.join(md_text(s) for s in record.waiting)}.",
        ]
    return [*lines, ""]


def _test_row(e: EntryAggregate, name: str, exploit: bool) -> dict[str, Any]:
    """One entry's figures on the live split, for the board's headline table."""
    by_k = {p.k: p for p in e.summary.pass_hat_k}
    values: dict[str, Any] = {f"pass_{k}": (by_k[k].value if k in by_k else None) for k in PASS_KS}
    for k in PASS_KS:
        values[f"lo_{k}"] = by_k[k].ci_low if k in by_k else None
        values[f"hi_{k}"] = by_k[k].ci_high if k in by_k else None
    strata = {
        s: (rows[0].value if rows else None) for s, rows in e.summary.by_reveal_difficulty.items()
    }
    rates = sorted(
        e.summary.policy_violation_rates.items(), key=lambda kv: (-(kv[1].rate or 0.0), kv[0])
    )
    return {
        **values,
        "slug": e.slug,
        "name": name,
        "exploit": exploit,
        "cells": {f"pass_{k}": _fmt(values[f"pass_{k}"]) for k in PASS_KS},
        "ci": {
            f"pass_{k}": f"[{_fmt(values[f'lo_{k}'])}, {_fmt(values[f'hi_{k}'])}]"
            if values[f"pass_{k}"] is not None
            else "—"
            for k in PASS_KS
        },
        "strata": {s: _fmt(v) for s, v in strata.items()},
        "policies": _fmt(e.summary.policy_score),
        "violations": [(p, _fmt(r.rate)) for p, r in rates[:2] if r.rate],
        "cost": _fmt(e.summary.mean_cost_usd, 6),
        "causes": list(e.failure_causes.items())[:3],
        "test": _fmt(e.test_pass1),
        "dev": _fmt(e.dev_pass1),
        "gap": _fmt(e.gap),
    }


def test_split_view(
    splits_root: Path, domain: str, entries: Sequence[Entry]
) -> dict[str, Any] | None:
    """What a board shows of its domain's live test split, ranked as the board ranks (tie tiers
    by the pass^1 CI, reference agents apart and unranked): test pass^k with CIs, strata, policy
    rates, cost and failure causes by rule, dev pass^1 and the gap beside, and the exploit floor
    of the split. Aggregates only; None when no split is live."""
    from runner.sitegen.views import assign_tiers, is_exploit, is_reference

    record = live_record(splits_root, domain)
    if record is None or not record.entries:
        return None
    known = {e.slug: e for e in entries}
    rows: list[dict[str, Any]] = []
    references: list[dict[str, Any]] = []
    for e in sorted(record.entries, key=lambda e: (-(e.test_pass1 or 0.0), e.slug)):
        entry = known.get(e.slug)
        name = entry.submission.display_name if entry is not None else e.slug
        row = _test_row(e, name, entry is not None and is_exploit(entry))
        (references if entry is not None and is_reference(entry) else rows).append(row)
    for row, tier in zip(rows, assign_tiers(rows, HEADLINE_K), strict=True):
        row["tier"] = tier
    key = f"pass_{HEADLINE_K}"
    exploits = [r for r in references if r["exploit"] and r[key] is not None]
    best = max(exploits, key=lambda r: (r[key], r["slug"]), default=None)
    floor = None
    if best is not None:
        below = [r for r in rows if r[key] is not None and r[key] <= best[key]]
        floor = {"name": best["name"], "slug": best["slug"], "value": best["cells"][key]}
        floor["below"] = len(below)
    return {
        "split_id": record.split_id,
        "snapshot": record.snapshot,
        "tasks": record.tasks,
        "trials": record.trials,
        "strata": sorted({s for r in rows + references for s in r["strata"]}),
        "rows": rows,
        "references": references,
        "floor": floor,
        "ranked": len(rows),
        "headline_k": HEADLINE_K,
        "pass_ks": PASS_KS,
    }


def _load_tasks(domain: str, folder: Path) -> list[Any]:
    return list(get_domain(domain).load_tasks(folder)) if folder.is_dir() else []


def _recommendations(folder: Path) -> list[tuple[str, str, int, str | None]]:
    """(entry, task id, trial, recommended item id) of every retired trial record."""
    from runner.batch.store import read_trials

    found = []
    results = folder / "results"
    if not results.is_dir():
        return []
    for entry in sorted(p for p in results.iterdir() if p.is_dir()):
        for run in sorted(p for p in entry.iterdir() if p.is_dir()):
            for r in read_trials(run).records:
                rec = r.score.recommendation if r.score is not None else None
                found.append((entry.name, r.key.task_id, r.key.trial_index, rec))
    return found


def _retired_section(
    record: SplitRecord, folder: Path, docs: Path, snapshots_dir: Path | None
) -> list[str]:
    domain = get_domain(record.domain)
    target = Path("splits") / record.domain / record.split_id
    if (docs / target).exists():
        shutil.rmtree(docs / target)
    shutil.copytree(folder, docs / target)
    lines = [
        f"### Retired test split `{record.split_id}` (retired {md_text(record.retired_on or '?')})",
        "",
        f"Drawn from snapshot {md_text(record.snapshot)}; {record.tasks} tasks. Its key "
        f"`{record.key}` opens [`results.fernet`]({target.as_posix()}/results.fernet), the "
        "file committed while it was live; the same results are published in the clear "
        f"([tasks]({target.as_posix()}/tasks/policy.md), results under "
        f"`{target.as_posix()}/results/`), so `taurec score` and `taurec verify` check every run.",
        "",
    ]
    tasks = _load_tasks(record.domain, folder / "tasks")
    if tasks:
        lines += ["| task | user | persona | constraints |", "|---|---|---|---|"]
        for t in sorted(tasks, key=lambda t: t.id):
            view = domain.describe_task(t)
            said = "; ".join(f"{md_text(c)} ({md_text(r)})" for c, r in view.constraints)
            lines.append(
                f"| [{md_text(t.id)}]({target.as_posix()}/tasks/{t.id}.json) "
                f"| {md_text(str(t.user_id))} | {md_text(view.persona)} | {said} |"
            )
        lines.append("")
    catalog = None
    if snapshots_dir is not None and (snapshots_dir / record.snapshot).is_dir():
        catalog = domain.load_catalog(snapshots_dir / record.snapshot)
    recs = _recommendations(folder)
    if recs:
        lines += ["| entry | task | trial | recommended |", "|---|---|---|---|"]
        for entry, task_id, trial, item_id in recs:
            title = "—"
            if item_id is not None:
                item = catalog.get(item_id) if catalog is not None else None
                title = md_text(domain.item_title(item)) if item is not None else md_text(item_id)
            lines.append(f"| {md_text(entry)} | {md_text(task_id)} | {trial} | {title} |")
        lines.append("")
    return lines


def write_splits_page(
    docs: Path,
    splits_root: Path | None,
    domains: Sequence[str],
    snapshots: dict[str, Path] | None = None,
) -> int:
    """Write `splits.md` (and copy each retired split beside it); returns the pages written."""
    sections: list[str] = []
    for name in domains if splits_root is not None else ():
        assert splits_root is not None
        live = live_record(splits_root, name)
        retired = retired_records(splits_root, name)
        if live is None and not retired:
            continue
        sections += [f"## {md_text(get_domain(name).title)}", ""]
        if live is not None:
            sections += _live_section(live)
        for record, folder in retired:
            sections += _retired_section(
                record, folder, docs, (snapshots or {}).get(name) or get_domain(name).snapshots_dir
            )
    if not sections:
        sections = [
            "No test split has been drawn for this board yet: its entries are shown on the dev "
            "split only.",
            "",
        ]
    head = [
        "# Splits",
        "",
        "The board ranks entries on a private **test** split, drawn afresh from each snapshot with "
        "a secret; the committed suite is the public **dev** split. While a test split is live "
        "only its aggregates are published here; when the next refresh draws a new one, the "
        "retired split, its transcripts and its key are published below with the date it "
        "retired. See the [Methodology](methodology.md#splits) page.",
        "",
    ]
    (docs / SPLITS_PAGE).write_text("\n".join(head + sections) + "\n", encoding="utf-8")
    return 1
