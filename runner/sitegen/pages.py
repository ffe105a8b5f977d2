"""Render every generated page (home, entries, trials, tasks, snapshots, schema) with autoescaping jinja2."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
import polars as pl
import yaml
from markupsafe import Markup

from runner.core.board import BoardSettings
from runner.core.domain import FAILING_SEVERITIES, SEVERITIES
from runner.core.domains import DEFAULT_DOMAIN, get_domain
from runner.core.metrics import PASS_THRESHOLD
from runner.core.redact import redact_config
from runner.core.rules import RULE_DIFFERENCES
from runner.play.attribution import AGENT_FAILURES, MAX_UNSCORED_SHARE, OUR_FAILURES
from runner.sitegen import charts
from runner.sitegen.aggregate import Aggregates
from runner.sitegen.bounds import RawLinks, paged_runs
from runner.sitegen.changelog import changelog_view
from runner.sitegen.domain_docs import domain_protocols
from runner.sitegen.escaping import (
    attr_json,
    finalize,
    html,
    html_lines,
    html_text,
    markdown,
    script_json,
)
from runner.sitegen.inputs import (
    SHA256SUMS,
    Entry,
    Run,
    SiteInputs,
    SnapshotInfo,
    published_files,
)
from runner.sitegen.metric_table import (
    HEADLINE_K,
    METRIC_BY_KEY,
    PASS_KS,
    PHONE_COLUMNS,
    TABLE_COLUMNS,
    TABLET_COLUMNS,
    WIDE_COLUMNS,
    Metric,
    metric_by_key_for,
    metrics_for,
)
from runner.sitegen.mkdocs_hooks import bodies_dir
from runner.sitegen.schema_doc import schema_models
from runner.sitegen.views import (
    UNRANKED_SHOWN,
    SnapshotBoard,
    badges_for,
    chart_names,
    standing_badge,
    timeline_chart,
)
from runner.submissions.config import SUBMISSION_SCHEMA_VERSION

DIFF_LIMIT = 25


def environment(templates: Path) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates)),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        finalize=finalize,
    )
    # Every filter that prints a stranger's string comes from runner.sitegen.escaping.
    env.filters["nl"] = html_lines
    env.filters["text"] = html_text
    env.filters["md"] = markdown
    env.filters["tojson"] = attr_json
    used: set[str] = set()

    def use_chart(chart: charts.Chart) -> str:
        used.add(chart.template)
        return chart.template

    env.globals["use_chart"] = use_chart
    env.globals["charts_used"] = used
    env.globals["complexities"] = charts.COMPLEXITY_ORDER
    env.globals["reveals"] = charts.REVEAL_ORDER
    return env


@dataclass
class PageWriter:
    """Renders templates into the assembled docs folder."""

    env: jinja2.Environment
    docs: Path
    count: int = 0

    def write_chart_specs(self, target: str) -> None:
        """The shared spec of every chart kind the pages used, as one script (works from file://)."""
        used = sorted(self.env.globals["charts_used"])  # type: ignore[call-overload]
        specs = {key: charts.TEMPLATES[key] for key in used}
        text = script_json(specs)
        path = self.docs / target
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"window.taurecChartSpecs = {text};\n", encoding="utf-8")

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


_CHIP_LINK = (
    '<a class="taurec-trial taurec-trial--{s}" href="{h}#trial-{i}" title="trial {i}: {s}">{i}</a>'
)
_CHIP_TEXT = (
    '<span class="taurec-trial taurec-trial--{s}" title="trial {i}: {s} (no transcript)">{i}</span>'
)


def _task_rows(run: Run, per_task: pl.DataFrame, trial_pages: bool) -> list[dict[str, Any]]:
    """The task table of a run: c of n per task and a chip per trial (linked when it has a page).

    The chips are joined here rather than looped over in the template: a 16-trial run has ~1,000.
    """
    by_task: dict[str, list[str]] = {}
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
        href = f"../trials/{run.slug}/{run.snapshot}/{task_id}.html"
        chip = _CHIP_LINK if trial_pages else _CHIP_TEXT
        # task ids are checked names ([A-Za-z0-9_.-]); escaped anyway, as everything printed
        by_task.setdefault(task_id, []).append(chip.format(s=state, h=html(href), i=index))
    return [
        {
            "task_id": t["task_id"],
            "complexity": t["complexity"],
            "reveal": t["reveal_difficulty"],
            "n": t["n"],
            "c": t["c"],
            "share": t["c"] / t["n"] if t["n"] else -1,
            "infra_errors": t["infra_errors"],
            "chips": Markup("".join(by_task.get(t["task_id"], []))),
        }
        for t in per_task.iter_rows(named=True)
    ]


def _run_view(
    entry: Entry,
    run: Run,
    agg: Aggregates,
    snapshot: SnapshotInfo | None,
    names: dict[str, str],
    trial_pages: bool,
    raw: RawLinks | None,
    latest: bool,
    metrics: tuple[Metric, ...],
) -> dict[str, Any]:
    """One run's section of its entry page (`metrics` as its board's domain words them); older runs (not `latest`) leave per-task rows to the downloads."""

    def of_run(table: str) -> pl.DataFrame:
        return agg.of_run(table, run.slug, run.snapshot)

    row = of_run("entries").to_dicts()[0]
    # A run the board does not rank shows its counts, and no score that would read as ranked.
    unranked = row["standing"] != "ranked"
    figures = []
    for metric in metrics:
        value = row.get(metric.key)
        if unranked and metric.key not in UNRANKED_SHOWN:
            value = None
        ci = ""
        if metric.key.startswith("pass_") and not unranked:
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
    pass_k = of_run("pass_k")
    strata = {
        (r["reveal_difficulty"], r["complexity"]): {"value": _pct(r["pass_1"]), "tasks": r["tasks"]}
        for r in of_run("stratified").iter_rows(named=True)
    }
    policies = [
        {
            "policy": r["policy"],
            "active": r["active"],
            "violations": r["violations"],
            "rate": _pct(r["rate"]),
        }
        for r in of_run("per_policy").iter_rows(named=True)
    ]
    tasks = _task_rows(run, of_run("per_task"), trial_pages) if latest else []
    entry_name = pl.DataFrame({"submission": [run.slug], "entry": [names[run.slug]]})

    def named(frame: pl.DataFrame) -> pl.DataFrame:
        return frame.join(entry_name, on="submission")

    label = f"{names[run.slug]} · {run.snapshot}"
    policy_frame = named(of_run("per_policy"))
    manifest: list[tuple[str, Any]] = []
    attestation = run.ledger_entry.attestation if run.ledger_entry is not None else None
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
            (
                "attestation",
                f"{attestation.url} (archive {attestation.archive}, sha256 "
                f"{attestation.archive_sha256})"
                if attestation is not None
                else "none",
            ),
        ]
    return {
        "snapshot": run.snapshot,
        "trial_pages": trial_pages,
        "raw": raw,
        "badges": [*badges_for(entry, run, snapshot), *standing_badge(row)],
        "figures": figures,
        "pass_k": [
            {
                "k": r["k"],
                "value": "not ranked" if unranked else _pct(r["value"]),
                "ci": "" if unranked else _ci(r["ci_low"], r["ci_high"]),
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
                of_run("stratified"), f"pass^1 by reveal difficulty × complexity ({label})"
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
    latest: set[tuple[str, str]],
) -> dict[str, Any]:
    snaps = {s.label: s for s in inputs.snapshots}
    sub = entry.submission
    contact = sub.contact.name + (f" (@{sub.contact.github})" if sub.contact.github else "")
    # Secret-named values (an extra_body api_key, a header) are shown as [redacted], never as-is.
    shown = redact_config(sub.model_dump(mode="json", exclude_defaults=True))
    config = yaml.safe_dump(shown, sort_keys=False)
    runs = sorted(entry.runs, key=lambda r: r.snapshot, reverse=True)
    metrics = metrics_for(get_domain(inputs.domain))
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
                (r.slug, r.snapshot) in latest,
                metrics,
            )
            for r in runs
        ],
        # Its results folders the boards leave out (over a budget, another rule set, ...), and why.
        "left_out": sorted(
            (
                {"snapshot": left.label, "reason": left.reason}
                for left in inputs.left_out
                if left.slug == entry.slug
            ),
            key=lambda left: left["snapshot"],
            reverse=True,
        ),
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
    informed = audit.get("informed_wins")
    if informed is not None:
        parts.append(f"informed agent wins {sum(informed)}/{len(informed)} seeds")
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


def snapshot_files(snap: Any, downloads: dict[str, dict[str, str]]) -> list[dict[str, Any]]:
    """The published files of a snapshot as its Snapshots-page rows: name, size, sha256, link."""
    return [
        {
            "name": name,
            "size": _size(snap.folder / name),
            "sha256": sha,
            "href": downloads.get(snap.label, {}).get(name),
        }
        for name, sha in snap.sha256.items()
        if name in published_files(snap)
    ]


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
                "files": snapshot_files(snap, downloads),
                "sums_href": downloads.get(snap.label, {}).get(SHA256SUMS),
                "from_tmdb": snap.from_tmdb,
                "diff": diff,
                "attribution": snap.attribution,
            }
        )
        previous = snap
    return list(reversed(views))


RULES_MARKER = "<!-- generated: rule-set differences -->"
BOARD_MARKER = "<!-- generated: board settings -->"
READER_MARKER = "<!-- generated: simulated-user reader accuracy -->"
ATTRIBUTION_MARKER = "<!-- generated: attribution rule -->"
POLICIES_MARKER = "<!-- generated: policies and severities -->"
DOMAINS_MARKER = "<!-- generated: domains -->"
# The hand-written pages whose "Domains" section is generated from each domain's code.
DOMAIN_PAGES = ("http-agent-protocol.md", "integrations.md")


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
    """Fill the Methodology page's generated parts: every v1/v2 difference, the board settings,
    the attribution rule, the simulated user's reader accuracy (`Domain.reader_accuracy` of the
    board's domain: movies, the site's root)."""
    owner = get_domain(DEFAULT_DOMAIN)
    splice_generated(writer, RULES_MARKER, "rule_differences.md.j2", differences=RULE_DIFFERENCES)
    splice_generated(writer, BOARD_MARKER, "board_settings.md.j2", rows=board.rows())
    failing = FAILING_SEVERITIES[board.strictness]
    splice_generated(
        writer,
        POLICIES_MARKER,
        "policy_severities.md.j2",
        policies=owner.policies(),
        strictness=board.strictness,
        failing=[s for s in SEVERITIES if s in failing],
        lowering=[s for s in SEVERITIES if s not in failing],
    )
    accuracy = owner.reader_accuracy()
    if accuracy is not None:
        splice_generated(
            writer,
            READER_MARKER,
            "reader_accuracy.md.j2",
            scores=accuracy.scores,
            total=accuracy.total,
            fields=accuracy.fields,
            shares=accuracy.shares,
        )
    splice_generated(
        writer,
        ATTRIBUTION_MARKER,
        "attribution.md.j2",
        agent=AGENT_FAILURES,
        ours=OUR_FAILURES,
        share=f"{MAX_UNSCORED_SHARE:.0%}",
    )


def write_board_pages(
    writer: PageWriter,
    prefix: str,
    inputs: SiteInputs,
    agg: Aggregates,
    boards: list[SnapshotBoard],
    entry_links: tuple[BoardSettings, set[tuple[str, str]], dict[tuple[str, str], RawLinks]],
    **page: Any,
) -> None:
    """A board's leaderboard page (`<prefix>index.md`: a table per snapshot, the timeline when
    there are several, the metric table's settings; `page` adds what the page heads with) and
    a page per entry (`<prefix>entries/<slug>.md`; `entry_links`: the board's settings, the
    runs with trial pages and the raw downloads)."""
    writer.write_with_body(
        "home.md.j2",
        "home_body.html.j2",
        f"{prefix}index.md",
        **page,
        boards=boards,
        columns=TABLE_COLUMNS,
        metrics=metric_by_key_for(get_domain(inputs.domain)),
        metric_list=metrics_for(get_domain(inputs.domain)),
        timeline=timeline_chart(inputs, agg) if len({b.label for b in boards}) > 1 else None,
        max_unscored=f"{MAX_UNSCORED_SHARE:.0%}",
        headline_k=HEADLINE_K,
        pass_ks=PASS_KS,
        phone_columns=PHONE_COLUMNS,
        tablet_columns=TABLET_COLUMNS,
        wide_columns=WIDE_COLUMNS,
    )
    board, trial_runs, raw = entry_links
    names = chart_names(inputs)
    latest = paged_runs(inputs.runs)
    for entry in inputs.entries:
        writer.write_with_body(
            "entry.md.j2",
            "entry_body.html.j2",
            f"{prefix}entries/{entry.slug}.md",
            e=_entry_view(entry, inputs, agg, names, trial_runs, raw, latest),
            board_rows=board.rows(),
            site_root="../" * (prefix.count("/") + 1),
            # A live test split's aggregates: the entry page says its figures are dev's.
            **({"test_split": page["test_split"]} if "test_split" in page else {}),
        )


def render_pages(
    writer: PageWriter,
    inputs: SiteInputs,
    agg: Aggregates,
    boards: list[SnapshotBoard],
    downloads: dict[str, dict[str, str]],
    raw: dict[tuple[str, str], RawLinks],
    board: BoardSettings,
    trial_runs: set[tuple[str, str]],
    other_boards: list[dict[str, str]] | None = None,
    test_split: dict[str, Any] | None = None,
) -> None:
    """Write every generated mkdocs page (trial pages are written apart: see `trial_pages`).
    `other_boards` ({title, href}) are linked from the home page; `test_split` (aggregates of
    the live test split, `runner.sitegen.splits_page.test_split_view`) heads it."""
    extra: dict[str, Any] = {"other_boards": other_boards} if other_boards else {}
    if test_split:
        extra["test_split"] = test_split
    write_board_pages(writer, "", inputs, agg, boards, (board, trial_runs, raw), **extra)
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
        verify_command=get_domain(inputs.domain).verify_command(),
        limit=DIFF_LIMIT,
    )
    writer.write(
        "schema.md.j2",
        "submission-schema.md",
        models=schema_models(),
        version=SUBMISSION_SCHEMA_VERSION,
    )
    splice_methodology(writer, board)
    protocols = domain_protocols()
    for page in DOMAIN_PAGES:
        splice_generated(writer, DOMAINS_MARKER, "domain_protocol.md.j2", page, domains=protocols)
