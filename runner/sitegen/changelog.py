"""The data Changelog, per snapshot: catalog changes, task changes with counts, entries added / re-run / dropped, prunes."""

from __future__ import annotations

from collections import Counter
from typing import Any

import polars as pl

from runner.play.attribution import standing_reason
from runner.sitegen.inputs import Run, SiteInputs


def _task_changes(inputs: SiteInputs, label: str) -> dict[str, Any]:
    snap = next((s for s in inputs.snapshots if s.label == label), None)
    rows = list(snap.solvability.values()) if snap is not None else []
    retired = [
        {"id": t.id, "reason": t.retired.reason}
        for t in inputs.tasks
        if t.retired is not None and str(t.retired.since) == label
    ]
    return {
        "checked": len(rows),
        "changes": sorted(Counter(str(r.get("change") or "unchanged") for r in rows).items()),
        "statuses": sorted(Counter(str(r.get("status") or "unknown") for r in rows).items()),
        "retired": retired,
    }


def _absence(inputs: SiteInputs, slug: str, label: str, ran_on: list[str]) -> str:
    """Why an entry that was on the previous board is not on this one, from what is on disk."""
    for left in inputs.left_out:
        if (left.slug, left.label) == (slug, label):
            return f"its results folder results/{label}/ is not shown: {left.reason}"
    later = [other for other in ran_on if other > label]
    back = f"; it is back on {later[0]}" if later else "; no later run"
    return f"not run on this snapshot (no results/{label}/ folder){back}"


def _adjudication(run: Run) -> str | None:
    """Why a run on the board is shown but not ranked (or stopped early), or None."""
    trials = run.frame.height
    unscored = run.frame.select((pl.col("status") != "scored").sum()).item()
    parts = []
    why = standing_reason(trials, trials - unscored)
    if why is not None:
        parts.append(f"{why}: shown, not ranked")
    manifest = run.manifest
    if manifest is not None and manifest.status not in ("completed", "running"):
        planned = manifest.counts.planned
        parts.append(
            f"the run ended {manifest.status.replace('_', ' ')} after {trials}"
            + (f" of {planned} planned trials" if planned else " trials")
        )
    return "; ".join(parts) or None


def changelog_view(
    inputs: SiteInputs, snapshot_views: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """One block per snapshot label seen in snapshots or results, newest first."""
    names = {e.slug: e.submission.display_name for e in inputs.entries}
    ran: dict[str, set[str]] = {}
    ran_on: dict[str, list[str]] = {}
    runs: dict[str, list[Run]] = {}
    for run in inputs.runs:
        ran.setdefault(run.snapshot, set()).add(run.slug)
        ran_on.setdefault(run.slug, []).append(run.snapshot)
        runs.setdefault(run.snapshot, []).append(run)
    diffs = {v["label"]: v for v in snapshot_views}
    labels = sorted(set(ran) | set(diffs))
    blocks: list[dict[str, Any]] = []
    before: set[str] = set()
    seen: set[str] = set()
    for label in labels:
        now = ran.get(label, set())
        view = diffs.get(label)
        diff = view["diff"] if view else None
        blocks.append(
            {
                "label": label,
                "catalog": {
                    "items": dict(view["counts"]).get("items") if view else None,
                    "added": len(diff["added"]) if diff else None,
                    "removed": len(diff["removed"]) if diff else None,
                    "changed": len(diff["changed"]) if diff else None,
                    "previous": diff["previous"] if diff else None,
                }
                if view
                else None,
                "tasks": _task_changes(inputs, label),
                "added": [
                    {"slug": s, "name": names.get(s, s), "reason": "first run on the board"}
                    for s in sorted(now - seen)
                ],
                "rerun": [
                    {"slug": s, "name": names.get(s, s), "reason": "re-run on the new snapshot"}
                    for s in sorted(now & seen)
                ],
                "dropped": [
                    {
                        "slug": s,
                        "name": names.get(s, s),
                        "reason": _absence(inputs, s, label, sorted(ran_on.get(s, []))),
                    }
                    for s in sorted(before - now)
                ],
                "unranked": [
                    {"slug": r.slug, "name": names.get(r.slug, r.slug), "reason": why}
                    for r in sorted(runs.get(label, []), key=lambda r: r.slug)
                    if (why := _adjudication(r)) is not None
                ],
            }
        )
        seen |= now
        before = now
    prunes = {str(p.snapshot): p for p in inputs.prunes}
    for label, record in sorted(prunes.items()):
        blocks.append(
            {
                "label": label,
                "pruned": {
                    "on": str(record.pruned_on),
                    "reason": record.reason,
                    "removed": len(record.removed),
                    "ids_kept": record.ids_kept,
                },
            }
        )
    return sorted(blocks, key=lambda b: (b["label"], "pruned" in b), reverse=True)
