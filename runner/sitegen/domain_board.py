"""The board of a domain other than movies, under its own prefix (e.g. `grocery/`): leaderboard, entries, Tasks, Snapshots, Methodology and downloads.

The leaderboard table, entry pages and trial pages are the movies board's own templates, fed
the board's runs; the Tasks, Snapshots and Methodology pages read the domain through its hooks
(`Domain.describe_task`, `task_matches`, `item_date`, `policies`, `licence_notice`), so nothing
here names a domain. A snapshot whose manifest carries a licence notice gets a `NOTICE` file in
its download folder (listed in its `SHA256SUMS`) and the notice on its Snapshots section.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from runner.core.board import BoardSettings
from runner.core.domain import FAILING_SEVERITIES, SEVERITIES
from runner.core.domains import get_domain
from runner.play.attribution import MAX_UNSCORED_SHARE
from runner.sitegen.aggregate import Aggregates
from runner.sitegen.bounds import RAW_DIR, RawLinks, paged_runs, write_trials_parquet
from runner.sitegen.inputs import SHA256SUMS, SiteInputs
from runner.sitegen.metric_table import (
    HEADLINE_K,
    METRIC_BY_KEY,
    METRICS,
    PASS_KS,
    PHONE_COLUMNS,
    TABLE_COLUMNS,
    TABLET_COLUMNS,
    WIDE_COLUMNS,
)
from runner.sitegen.pages import PageWriter, _entry_view, snapshot_files
from runner.sitegen.views import SnapshotBoard, boards, chart_names, timeline_chart

NOTICE_FILE = "NOTICE"
# The pages of a board, relative to its prefix (the nav lists them under the domain's title).
BOARD_PAGES = (
    ("Leaderboard", "index.md"),
    ("Tasks", "tasks.md"),
    ("Snapshots", "snapshots.md"),
    ("Methodology", "methodology.md"),
)


def board_nav(inputs: SiteInputs) -> dict[str, list[dict[str, str]]]:
    """The nav section of a board: {title: [{page: path}, …]}."""
    title = get_domain(inputs.domain).title
    return {title: [{name: inputs.prefix + page} for name, page in BOARD_PAGES]}


def write_notices(docs: Path, inputs: SiteInputs, links: dict[str, dict[str, str]]) -> None:
    """A NOTICE file (the snapshot's licence notice) in each snapshot's download folder, listed
    in its SHA256SUMS (`links` gains its href), and in every other download folder of the
    board (tables, trial records and transcripts quote the catalog)."""
    import hashlib

    notices = {s.licence_notice for s in inputs.snapshots if s.licence_notice}
    if notices:
        text = "\n\n".join(sorted(notices)) + "\n"
        (docs / "downloads").mkdir(parents=True, exist_ok=True)
        (docs / "downloads" / NOTICE_FILE).write_text(text, encoding="utf-8")
        trials = docs / RAW_DIR
        for folder in sorted(trials.iterdir()) if trials.is_dir() else []:
            (folder / NOTICE_FILE).write_text(text, encoding="utf-8")
    for snap in inputs.snapshots:
        notice = snap.licence_notice
        folder = docs / "downloads" / "snapshots" / snap.label
        if notice is None or not folder.is_dir():
            continue
        data = (notice + "\n").encode("utf-8")
        (folder / NOTICE_FILE).write_bytes(data)
        sums = folder / SHA256SUMS
        line = f"{hashlib.sha256(data).hexdigest()}  {NOTICE_FILE}\n"
        sums.write_text(sums.read_text(encoding="utf-8") + line, encoding="utf-8")
        links.setdefault(snap.label, {})[NOTICE_FILE] = (
            f"downloads/snapshots/{snap.label}/{NOTICE_FILE}"
        )


def _tasks_view(inputs: SiteInputs) -> list[dict[str, Any]]:
    owner = get_domain(inputs.domain)
    out = []
    for task in sorted(inputs.tasks, key=lambda t: t.id):
        out.append(
            {
                "id": task.id,
                "complexity": task.complexity,
                "reveal_difficulty": task.reveal_difficulty,
                "view": owner.describe_task(task),
                "solvability": [
                    sum(1 for item in snap.catalog if owner.task_matches(task, item))
                    for snap in inputs.snapshots
                ],
            }
        )
    return out


def _snapshots_view(
    inputs: SiteInputs, downloads: dict[str, dict[str, str]]
) -> list[dict[str, Any]]:
    views = []
    for snap in reversed(inputs.snapshots):  # newest first
        source = snap.manifest.get("source")
        notes = snap.manifest.get("notes")
        views.append(
            {
                "label": snap.label,
                "notice": snap.licence_notice,
                "notes": [str(n) for n in notes] if isinstance(notes, list) else [],
                "counts": sorted(
                    (k, v) for k, v in snap.counts.items() if isinstance(v, int | float | str)
                ),
                "latest_release": snap.latest_release,
                "source": json.dumps(source, sort_keys=True) if source else None,
                "files": snapshot_files(snap, downloads),
                "notice_href": downloads.get(snap.label, {}).get(NOTICE_FILE),
                "sums_href": downloads.get(snap.label, {}).get(SHA256SUMS),
            }
        )
    return views


def render_domain_board(
    writer: PageWriter,
    inputs: SiteInputs,
    agg: Aggregates,
    board: BoardSettings,
    trial_runs: set[tuple[str, str]],
    raw: dict[tuple[str, str], RawLinks],
    write_downloads: Callable[[Path, SiteInputs, list[SnapshotBoard]], dict[str, dict[str, str]]],
    test_split: dict[str, Any] | None = None,
) -> list[SnapshotBoard]:
    """Write the board's pages and downloads under `writer.docs / inputs.prefix` (downloads by
    `write_downloads`, the site's own writer, given so the two modules do not import each other).
    `test_split`: the live test split's ranking that heads the board (aggregates only)."""
    owner = get_domain(inputs.domain)
    prefix = inputs.prefix
    root = writer.docs / prefix
    board_list = boards(inputs, agg)
    links = write_downloads(root, inputs, board_list)
    write_trials_parquet(root, inputs)
    write_notices(root, inputs, links)
    extra: dict[str, Any] = {"test_split": test_split} if test_split else {}
    writer.write_with_body(
        "home.md.j2",
        "home_body.html.j2",
        f"{prefix}index.md",
        **extra,
        page_title=f"{owner.title} leaderboard",
        heading=f"τ-Rec {owner.title.lower()} leaderboard",
        lead=owner.board_lead,
        site_root="../" * prefix.count("/"),
        boards=board_list,
        columns=TABLE_COLUMNS,
        metrics=METRIC_BY_KEY,
        metric_list=METRICS,
        timeline=timeline_chart(inputs, agg) if len({b.label for b in board_list}) > 1 else None,
        max_unscored=f"{MAX_UNSCORED_SHARE:.0%}",
        headline_k=HEADLINE_K,
        pass_ks=PASS_KS,
        phone_columns=PHONE_COLUMNS,
        tablet_columns=TABLET_COLUMNS,
        wide_columns=WIDE_COLUMNS,
    )
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
            **extra,
        )
    common = {"title": owner.title, "noun": owner.item_noun}
    writer.write(
        "board_tasks.md.j2",
        f"{prefix}tasks.md",
        tasks=_tasks_view(inputs),
        snapshots=[s.label for s in inputs.snapshots],
        **common,
    )
    writer.write(
        "board_snapshots.md.j2",
        f"{prefix}snapshots.md",
        snapshots=_snapshots_view(inputs, links),
        any_notice=any(s.licence_notice for s in inputs.snapshots),
        **common,
    )
    failing = FAILING_SEVERITIES[board.strictness]
    writer.write(
        "board_methodology.md.j2",
        f"{prefix}methodology.md",
        lead=owner.board_lead,
        policies=owner.policies(),
        strictness=board.strictness,
        failing=[s for s in SEVERITIES if s in failing],
        lowering=[s for s in SEVERITIES if s not in failing],
        rows=board.rows(),
        **common,
    )
    return board_list
