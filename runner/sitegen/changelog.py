"""The data Changelog, per snapshot: catalog changes, task changes with counts, entries added / re-run / dropped, prunes."""

from __future__ import annotations

from collections import Counter
from typing import Any

from runner.sitegen.inputs import SiteInputs


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


def changelog_view(
    inputs: SiteInputs, snapshot_views: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """One block per snapshot label seen in snapshots or results, newest first."""
    names = {e.slug: e.submission.display_name for e in inputs.entries}
    ran: dict[str, set[str]] = {}
    for run in inputs.runs:
        ran.setdefault(run.snapshot, set()).add(run.slug)
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
                        "reason": "no run on this snapshot (budget, an infra failure or withdrawn; "
                        "its earlier results stay on their boards)",
                    }
                    for s in sorted(before - now)
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
