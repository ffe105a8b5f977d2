"""Render every generated page (home, entries, trials, tasks, snapshots, schema) with autoescaping jinja2."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
import polars as pl
import yaml
from markupsafe import Markup, escape

from runner.batch.archive import load_trial_transcript
from runner.board import BoardSettings
from runner.errors import LoadError
from runner.metrics import PASS_THRESHOLD
from runner.records import TrialRecord
from runner.rules import RULE_DIFFERENCES
from runner.sitegen import charts
from runner.sitegen.aggregate import Aggregates
from runner.sitegen.bounds import RawLinks, paged_runs
from runner.sitegen.changelog import changelog_view
from runner.sitegen.inputs import (
    SHA256SUMS,
    Entry,
    Run,
    SiteInputs,
    SnapshotInfo,
    published_files,
)
from runner.sitegen.metric_table import METRIC_BY_KEY, METRICS, TABLE_COLUMNS
from runner.sitegen.mkdocs_hooks import bodies_dir
from runner.sitegen.schema_doc import schema_models
from runner.sitegen.views import SnapshotBoard, badges_for, chart_names, timeline_chart
from runner.submission import SUBMISSION_SCHEMA_VERSION
from runner.tasks import Task
from runner.transcript import Transcript

DIFF_LIMIT = 25


def _nl(value: object) -> Markup:
    """Escape, then encode newlines as `&#10;` so markdown never sees a blank line in our HTML."""
    text = str(escape(value))
    return Markup(text.replace("\r\n", "\n").replace("\n", "&#10;"))


def environment(templates: Path) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates)),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
    )
    env.filters["nl"] = _nl
    env.globals["complexities"] = charts.COMPLEXITY_ORDER
    env.globals["reveals"] = charts.REVEAL_ORDER
    env.policies["json.dumps_kwargs"] = {"sort_keys": True, "ensure_ascii": True}
    return env


@dataclass
class PageWriter:
    """Renders templates into the assembled docs folder."""

    env: jinja2.Environment
    docs: Path
    count: int = 0

    def write(self, template: str, target: str, **context: Any) -> None:
        path = self.docs / target
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(self.env.get_template(template).render(**context), encoding="utf-8")
        self.count += 1

    def write_with_body(
        self, template: str, body_template: str, target: str, **context: Any
    ) -> None:
        """A page whose HTML body is rendered here and spliced in by the mkdocs hook."""
        body = str(Path(target).with_suffix(".html").as_posix())
        path = bodies_dir(self.docs) / body
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(self.env.get_template(body_template).render(**context), encoding="utf-8")
        self.write(template, target, body=body, **context)


def _pct(value: float | None) -> str:
    return METRIC_BY_KEY["pass_1"].format(value)


def _ci(lo: float | None, hi: float | None) -> str:
    return "" if lo is None or hi is None else f"[{100 * lo:.1f}, {100 * hi:.1f}]"


def _trial_state(record: TrialRecord) -> str:
    if record.status == "infra_error" or record.score is None:
        return "error"
    return "pass" if record.score.reward >= PASS_THRESHOLD else "fail"


def _run_view(
    entry: Entry,
    run: Run,
    agg: Aggregates,
    snapshot: SnapshotInfo | None,
    names: dict[str, str],
    trial_pages: bool,
    raw: RawLinks | None,
) -> dict[str, Any]:
    key = (pl.col("submission") == run.slug) & (pl.col("snapshot") == run.snapshot)
    row = agg.entries.filter(key).to_dicts()[0]
    figures = []
    for metric in METRICS:
        value = row.get(metric.key)
        if metric.key == "tool_calls":
            value = row.get("tool_calls")
        ci = ""
        if metric.key.startswith("pass_"):
            k = metric.key.split("_")[1]
            ci = _ci(row.get(f"lo_{k}"), row.get(f"hi_{k}"))
        figures.append(
            {
                "label": metric.label,
                "arrow": metric.arrow,
                "value": metric.format(value),
                "ci": ci,
                "description": metric.description,
            }
        )
    pass_k = agg.pass_k.filter(key)
    strata = {
        (r["reveal_difficulty"], r["complexity"]): {"value": _pct(r["pass_1"]), "tasks": r["tasks"]}
        for r in agg.stratified.filter(key).iter_rows(named=True)
    }
    policies = [
        {
            "policy": r["policy"],
            "active": r["active"],
            "violations": r["violations"],
            "rate": _pct(r["rate"]),
        }
        for r in agg.per_policy.filter(key).iter_rows(named=True)
    ]
    by_task: dict[str, list[tuple[int, str]]] = {}
    chips = run.frame.sort("task_id", "trial_index").select(
        "task_id",
        "trial_index",
        pl.when(pl.col("status") != "scored")
        .then(pl.lit("error"))
        .when(pl.col("reward") >= PASS_THRESHOLD)
        .then(pl.lit("pass"))
        .otherwise(pl.lit("fail"))
        .alias("state"),
    )
    for task_id, index, state in chips.iter_rows():
        by_task.setdefault(task_id, []).append((index, state))
    tasks = []
    for t in agg.per_task.filter(key).iter_rows(named=True):
        href_base = f"../trials/{run.slug}/{run.snapshot}/{t['task_id']}.html"
        tasks.append(
            {
                "task_id": t["task_id"],
                "complexity": t["complexity"],
                "reveal": t["reveal_difficulty"],
                "n": t["n"],
                "c": t["c"],
                "share": t["c"] / t["n"] if t["n"] else -1,
                "infra_errors": t["infra_errors"],
                "trials": [
                    {
                        "index": index,
                        "state": state,
                        "href": f"{href_base}#trial-{index}" if trial_pages else None,
                    }
                    for index, state in by_task.get(t["task_id"], [])
                ],
            }
        )
    entry_name = pl.DataFrame({"submission": [run.slug], "entry": [names[run.slug]]})

    def named(frame: pl.DataFrame) -> pl.DataFrame:
        return frame.join(entry_name, on="submission")

    label = f"{names[run.slug]} · {run.snapshot}"
    policy_frame = named(agg.per_policy.filter(key))
    manifest: list[tuple[str, Any]] = []
    if run.manifest is not None:
        m = run.manifest
        manifest = [
            ("status", m.status),
            ("taurec version", m.taurec_version),
            ("git revision", m.git_revision or "unknown"),
            ("agent", json.dumps(m.agent.model_dump(mode="json"), sort_keys=True)),
            ("simulator", json.dumps(m.simulator.model_dump(mode="json"), sort_keys=True)),
            ("task suite digest", m.task_suite_digest),
            ("policy digest", m.policy_digest),
            ("catalog digest", m.catalog_digest),
            ("trials per task", m.trials),
            ("max turns", m.max_turns),
            ("seed", m.seed),
            ("started", m.started_at),
            ("finished", m.finished_at or "—"),
            ("cost (USD)", f"{m.cost_usd:.4f}"),
            ("rule set", m.rules),
            (
                "verified by",
                run.ledger_entry.workflow_run
                if run.ledger_entry is not None
                else "not verified (not in the refresh workflow's ledger)",
            ),
        ]
    return {
        "snapshot": run.snapshot,
        "trial_pages": trial_pages,
        "raw": raw,
        "badges": badges_for(entry, run, snapshot),
        "figures": figures,
        "pass_k": [
            {
                "k": r["k"],
                "value": _pct(r["value"]),
                "ci": _ci(r["ci_low"], r["ci_high"]),
                "defined": r["tasks_defined"],
                "undefined": r["tasks_undefined"],
            }
            for r in pass_k.iter_rows(named=True)
        ],
        "strata": strata,
        "policies": policies,
        "tasks": tasks,
        "manifest": manifest,
        "charts": {
            "pass_k": charts.pass_k_curves(named(pass_k), f"pass^k by k ({label})"),
            "strata": charts.strata_heatmap(
                agg.stratified.filter(key), f"pass^1 by reveal difficulty × complexity ({label})"
            ),
            "violations": charts.violation_bars(
                policy_frame, f"Policy violation rate ({label})", by_entry=False
            )
            if not policy_frame.is_empty()
            else None,
        },
    }


def _entry_view(
    entry: Entry,
    inputs: SiteInputs,
    agg: Aggregates,
    names: dict[str, str],
    trial_runs: set[tuple[str, str]],
    raw: dict[tuple[str, str], RawLinks],
) -> dict[str, Any]:
    snaps = {s.label: s for s in inputs.snapshots}
    sub = entry.submission
    contact = sub.contact.name + (f" (@{sub.contact.github})" if sub.contact.github else "")
    config = yaml.safe_dump(sub.model_dump(mode="json", exclude_defaults=True), sort_keys=False)
    runs = sorted(entry.runs, key=lambda r: r.snapshot, reverse=True)
    return {
        "slug": entry.slug,
        "name": sub.display_name,
        "organization": sub.contact.organization,
        "contact": contact,
        "track": sub.track,
        "cutoff": sub.model.training_cutoff.isoformat() if sub.model.training_cutoff else None,
        "notes": sub.notes,
        "config": config,
        "runs": [
            _run_view(
                entry,
                r,
                agg,
                snaps.get(r.snapshot),
                names,
                (r.slug, r.snapshot) in trial_runs,
                raw.get((r.slug, r.snapshot)),
            )
            for r in runs
        ],
    }


def _event_views(
    transcript: Transcript, trial: int, shown: dict[str, tuple[str, str]]
) -> list[dict[str, Any]]:
    """Events as the trial page shows them; a tool result already shown on the page is linked.

    `shown` maps a result's text to (anchor, label) of its first appearance on the page, so
    repeated results (the same search in every trial of a task) are printed once per page.
    """
    out: list[dict[str, Any]] = []
    for number, ev in enumerate(transcript.events):
        if ev.type == "message":
            out.append({"type": "message", "role": ev.role, "content": ev.content})
        else:
            args = (
                ev.raw_arguments
                if ev.raw_arguments is not None
                else json.dumps(ev.arguments, ensure_ascii=False, sort_keys=True)
            )
            result = ev.result
            with contextlib.suppress(ValueError):
                result = json.dumps(json.loads(ev.result), ensure_ascii=False, indent=2)
            anchor = f"result-{trial}-{number}"
            first = shown.setdefault(result, (anchor, f"trial {trial}, event {number + 1}"))
            out.append(
                {
                    "type": "tool_call",
                    "name": ev.name,
                    "args": args,
                    "result": result if first[0] == anchor else None,
                    "anchor": anchor,
                    "same_as": None if first[0] == anchor else first,
                    "is_error": ev.is_error,
                }
            )
    return out


def _read_transcript(run: Run, record: TrialRecord) -> Transcript | None:
    try:
        return load_trial_transcript(run.folder, record)
    except LoadError:
        return None


def has_transcripts(run: Run) -> bool:
    """Trial pages are generated for runs whose transcripts were kept."""
    return any((run.folder / t).exists() for t in run.frame["transcript"].head(5).to_list())


def _trial_views(
    entry: Entry,
    run: Run,
    task: Task | None,
    task_id: str,
    records: list[TrialRecord],
    snapshot: SnapshotInfo | None,
) -> dict[str, Any]:
    trials = []
    shown: dict[str, tuple[str, str]] = {}
    for r in records:
        transcript = _read_transcript(run, r)
        rec = r.score.recommendation if r.score else None
        item = snapshot.catalog.get(rec) if snapshot is not None and rec else None
        audit = transcript.leak_audit if transcript is not None else None
        trials.append(
            {
                "index": r.key.trial_index,
                "seed": r.key.seed,
                "status": r.status,
                "passed": _trial_state(r) == "pass",
                "stop_reason": r.stop_reason or "—",
                "turns": r.efficiency.turns,
                "tool_calls": r.efficiency.tool_calls,
                "cost": METRIC_BY_KEY["cost"].format(r.cost_usd),
                "recommendation": rec,
                "title": item.title if item else None,
                "error": f"{r.error.kind}: {r.error.message}" if r.error else None,
                "score": r.score,
                "leak_clean": audit.clean if audit is not None else r.leak_audit_clean,
                "leaks": audit.leaks if audit is not None else [],
                "transcript": r.transcript,
                "events": _event_views(transcript, r.key.trial_index, shown)
                if transcript is not None
                else None,
            }
        )
    scored = [r for r in records if r.status == "scored"]
    return {
        "slug": entry.slug,
        "name": entry.submission.display_name,
        "snapshot": run.snapshot,
        "task_id": task_id,
        "task": {
            "persona": task.persona if task else "(task file not found)",
            "complexity": records[0].complexity,
            "reveal_difficulty": records[0].reveal_difficulty,
            "no_valid_recommendation": records[0].no_valid_recommendation,
        },
        "n": len(scored),
        "c": sum(_trial_state(r) == "pass" for r in scored),
        "trials": trials,
    }


def _share(share: Any) -> str:
    return "–" if share is None else f"{share * 100:.0f}%"


def _audit_figures(audit: Any) -> dict[str, Any]:
    """The difficulty figures of one task on one snapshot (solvability.json schema 2), as text."""
    if not isinstance(audit, dict):
        return {"figures": None, "failed": []}
    vol, stated = audit["volunteer_pool"], audit["stated_pool"]
    cuts = [c["share"] for c in audit["cuts"] if c["reveal"] != "volunteer"]
    parts = [
        f"win {len(audit['winning'])}",
        f"volunteered pool {vol['winners']}/{vol['size']} ({_share(vol['winner_share'])})",
        f"stated pool {stated['winners']}/{stated['size']} ({_share(stated['winner_share'])})",
    ]
    if cuts:
        parts.append(f"smallest cut {_share(min(c or 0.0 for c in cuts))}")
    hits = sum(h is not None and h in audit["winning"] for h in audit["first_hits"])
    parts.append(f"first hit wins {hits}/{len(audit['first_hits'])}")
    parts.append("most-voted wins" if audit["allowed"]["most_voted_wins"] else "most-voted loses")
    failed = [f"{c['rule']}: {c['reason']}" for c in audit["checks"] if not c["passed"]]
    return {"figures": " · ".join(parts), "failed": failed}


def _tasks_view(inputs: SiteInputs) -> list[dict[str, Any]]:
    out = []
    for task in inputs.tasks:
        solv = []
        for snap in inputs.snapshots:
            count = sum(1 for item in snap.catalog if task.satisfies_all(item))
            row = snap.solvability.get(task.id, {})
            solv.append(
                {"count": count, "status": row.get("status"), "gate": row.get("gate")}
                | _audit_figures(row.get("audit"))
            )
        out.append(
            {
                "id": task.id,
                "persona": task.persona,
                "complexity": task.complexity,
                "reveal_difficulty": task.reveal_difficulty,
                "constraints": [
                    {"text": tc.constraint.describe(), "reveal": tc.reveal}
                    for tc in task.constraints
                ],
                "policies": task.policy_flags,
                "no_valid": task.no_valid_recommendation,
                "retired": f"retired since {task.retired.since}: {task.retired.reason}"
                if task.retired
                else None,
                "solvability": solv,
                "gate": solv[-1]["gate"] if solv else None,
            }
        )
    return out


def _size(path: Path) -> str:
    size = float(path.stat().st_size)
    for unit in ("B", "KB", "MB"):
        if size < 1024 or unit == "MB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{size:.1f} MB"


def _snapshot_views(
    inputs: SiteInputs, downloads: dict[str, dict[str, str]]
) -> list[dict[str, Any]]:
    views = []
    previous: SnapshotInfo | None = None
    for snap in inputs.snapshots:  # oldest first, so each one diffs against the one before
        diff = None
        if previous is not None:
            old = {i.id: i for i in previous.catalog}
            new = {i.id: i for i in snap.catalog}
            changed = []
            for item_id in sorted(set(old) & set(new)):
                a, b = old[item_id].model_dump(), new[item_id].model_dump()
                fields = [k for k in a if a[k] != b[k]]
                if fields:
                    changed.append({"id": item_id, "title": new[item_id].title, "fields": fields})
            # TMDB snapshots are listed by id only: their titles are TMDB's data.
            shown = not snap.from_tmdb
            for row in changed:
                row["title"] = row["title"] if shown else ""
            diff = {
                "previous": previous.label,
                "added": [
                    {"id": i, "title": new[i].title if shown else ""}
                    for i in sorted(set(new) - set(old))
                ],
                "removed": [
                    {"id": i, "title": old[i].title if shown else ""}
                    for i in sorted(set(old) - set(new))
                ],
                "changed": changed,
            }
        source = snap.manifest.get("source")
        views.append(
            {
                "label": snap.label,
                "counts": sorted(
                    (k, v) for k, v in snap.counts.items() if isinstance(v, int | float | str)
                ),
                "latest_release": snap.latest_release,
                "retention": snap.retention_date,
                "source": json.dumps(source, sort_keys=True) if source else None,
                "files": [
                    {
                        "name": name,
                        "size": _size(snap.folder / name),
                        "sha256": sha,
                        "href": downloads.get(snap.label, {}).get(name),
                    }
                    for name, sha in snap.sha256.items()
                    if name in published_files(snap)
                ],
                "sums_href": downloads.get(snap.label, {}).get(SHA256SUMS),
                "from_tmdb": snap.from_tmdb,
                "diff": diff,
                "attribution": snap.attribution,
            }
        )
        previous = snap
    return list(reversed(views))


def _verify_command() -> str:
    """The installed command that re-checks a downloaded snapshot folder named by its date ({date})."""
    from catalog_pipeline.cli import group

    if "verify" in group.commands:
        return "cd .. && taurec catalog verify {date}"
    return "cd .. && taurec catalog list --root .   # the {date} row must say ok"


RULES_MARKER = "<!-- generated: rule-set differences -->"
BOARD_MARKER = "<!-- generated: board settings -->"


def splice_generated(
    writer: PageWriter, marker: str, template: str, page: str = "methodology.md", **context: Any
) -> None:
    """Replace `marker` in a hand-written page with `template` rendered (a missing marker fails)."""
    path = writer.docs / page
    if not path.exists():
        return
    text = path.read_text(encoding="utf-8")
    if marker not in text:
        raise ValueError(f"{page}: the marker {marker!r} for generated content is missing")
    table = writer.env.get_template(template).render(**context)
    path.write_text(text.replace(marker, table.strip()), encoding="utf-8")


def splice_methodology(writer: PageWriter, board: BoardSettings) -> None:
    """Fill the Methodology page's generated parts: every v1/v2 difference, the board settings."""
    splice_generated(writer, RULES_MARKER, "rule_differences.md.j2", differences=RULE_DIFFERENCES)
    splice_generated(writer, BOARD_MARKER, "board_settings.md.j2", rows=board.rows())


def render_pages(
    writer: PageWriter,
    inputs: SiteInputs,
    agg: Aggregates,
    boards: list[SnapshotBoard],
    downloads: dict[str, dict[str, str]],
    raw: dict[tuple[str, str], RawLinks],
    board: BoardSettings,
) -> int:
    """Write all generated pages; returns how many trial pages were written."""
    names = chart_names(inputs)
    writer.write(
        "home.md.j2",
        "index.md",
        boards=boards,
        columns=TABLE_COLUMNS,
        metrics=METRIC_BY_KEY,
        metric_list=METRICS,
        timeline=timeline_chart(inputs, agg) if len({b.label for b in boards}) > 1 else None,
    )
    # Trial pages only for the latest snapshot of each rule set; older runs keep raw downloads.
    paged = paged_runs(inputs.runs)
    trial_runs = {
        (r.slug, r.snapshot)
        for r in inputs.runs
        if (r.slug, r.snapshot) in paged and has_transcripts(r)
    }
    for entry in inputs.entries:
        writer.write(
            "entry.md.j2",
            f"entries/{entry.slug}.md",
            e=_entry_view(entry, inputs, agg, names, trial_runs, raw),
            board_rows=board.rows(),
        )
    tasks = {t.id: t for t in inputs.tasks}
    snaps = {s.label: s for s in inputs.snapshots}
    trial_pages = 0
    for entry, run in _runs_with_pages(inputs, trial_runs):
        by_task: dict[str, list[TrialRecord]] = {}
        for record in sorted(run.records(), key=lambda r: (r.key.task_id, r.key.trial_index)):
            by_task.setdefault(record.key.task_id, []).append(record)
        for task_id, records in by_task.items():
            writer.write_with_body(
                "trial.md.j2",
                "trial_body.html.j2",
                f"trials/{run.slug}/{run.snapshot}/{task_id}.md",
                t=_trial_views(
                    entry, run, tasks.get(task_id), task_id, records, snaps.get(run.snapshot)
                ),
            )
            trial_pages += 1
    writer.write(
        "tasks.md.j2",
        "tasks.md",
        tasks=_tasks_view(inputs),
        snapshots=[s.label for s in inputs.snapshots],
    )
    snapshot_views = _snapshot_views(inputs, downloads)
    writer.write("changelog.md.j2", "changelog.md", blocks=changelog_view(inputs, snapshot_views))
    writer.write(
        "snapshots.md.j2",
        "snapshots.md",
        snapshots=snapshot_views,
        verify_command=_verify_command(),
        limit=DIFF_LIMIT,
    )
    writer.write(
        "schema.md.j2",
        "submission-schema.md",
        models=schema_models(),
        version=SUBMISSION_SCHEMA_VERSION,
    )
    splice_methodology(writer, board)
    return trial_pages


def _runs_with_pages(
    inputs: SiteInputs, trial_runs: set[tuple[str, str]]
) -> Iterator[tuple[Entry, Run]]:
    for entry in inputs.entries:
        for run in entry.runs:
            if (run.slug, run.snapshot) in trial_runs:
                yield entry, run
