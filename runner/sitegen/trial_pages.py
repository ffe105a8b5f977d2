"""Trial pages: one lean HTML page per (entry, snapshot, task), rendered outside mkdocs, with their search entries.

There are thousands of them, so they skip the theme (its ~14 KB of chrome per page) and
mkdocs altogether: a small shell with the site's stylesheets and script around the body. Runs
are rendered in a process pool while mkdocs builds the other pages (other bulky files, such as
the raw trial downloads, can ride along as `FileJob`s), into a staging folder whose top-level
folders are moved into the built site afterwards; each page adds one short document (task id,
entry, snapshot, outcome) to mkdocs' search index and, with a site URL, one sitemap line.
"""

from __future__ import annotations

import gzip
import importlib.resources
import json
import multiprocessing
import os
import shutil
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2

from runner.batch.archive import load_trial_transcript
from runner.core.domain import DomainTask
from runner.core.domains import DEFAULT_DOMAIN, get_domain
from runner.core.errors import LoadError
from runner.core.metrics import PASS_THRESHOLD
from runner.core.records import TrialRecord
from runner.core.transcript import Transcript
from runner.sitegen.cards import Cards, write_cards
from runner.sitegen.escaping import html_text, search_text, xml_text
from runner.sitegen.inputs import Entry, Run, SiteInputs, SnapshotInfo
from runner.sitegen.metric_table import METRIC_BY_KEY
from runner.sitegen.tmdb_terms import redact_record

TRIALS_DIR = "trials"
ROOT = "../../../"  # from a trial page back to the site root
SearchDoc = dict[str, str | float]
# Search ranks the hand-written pages (front matter `search: boost: 10`) and the entries
# (`ENTRY_SEARCH_BOOST`) above the hundreds of trial pages, which are found by task id, entry
# name and snapshot (their title) only: a trial page's title matching a word ("policy" in
# "Exploit: policy only") must not outrank a page about that word.
TRIAL_SEARCH_BOOST = 0.01
ENTRY_SEARCH_BOOST = 10.0


def trial_state(record: TrialRecord) -> str:
    if record.status == "infra_error" or record.score is None:
        return "error"
    return "pass" if record.score.reward >= PASS_THRESHOLD else "fail"


# Consecutive tool calls repeating, call for call, consecutive calls printed earlier on the page
# (a deterministic agent's later trials) are one line linking there when at least this many.
MIN_REPEAT_RUN = 3
CallKey = tuple[str, str, str, bool]
# What a trial page shows of one event at most, in bytes of its HTML (UTF-8, escaped): longer text
# is cut there with a note saying how much was left out (the run's transcripts download keeps it
# whole). An honest search result, its catalog records shown as card links, is ~1-2 KB; a reply of
# 250,000 `&` (under the loop's 256 KiB output cap) would otherwise print 1.25 MB.
MAX_SHOWN_MESSAGE_BYTES = 4_000
MAX_SHOWN_ARGUMENTS_BYTES = 1_000
MAX_SHOWN_RESULT_BYTES = 4_000
# A task's page shows the transcripts of its first this many trials; the others are listed with
# their verdicts (their transcripts are in the download), so an entry's pages do not grow with
# its trial count past the board's usual 8.
MAX_TRANSCRIPTS_PER_TASK = 8
_ESCAPED_BYTES = {"&": 5, "<": 4, ">": 4}


def clip(text: str, limit: int) -> tuple[str, int]:
    """The longest start of `text` whose HTML (`html_text`) fits in `limit` bytes, and how many
    characters were left out (0: all of it fits)."""
    if len(text) * 5 <= limit or len(html_text(text).encode("utf-8")) <= limit:
        return text, 0
    size = 0
    for end, char in enumerate(text):
        size += _ESCAPED_BYTES.get(char) or len(char.encode("utf-8"))
        if size > limit:
            return text[:end], len(text) - end
    return text, 0


def _event_views(
    transcript: Transcript,
    trial: int,
    shown: dict[str, tuple[str, str]],
    calls: dict[CallKey, tuple[int, int]],
    cards: Cards,
) -> list[dict[str, Any]]:
    """Events as the trial page shows them; a tool result already shown on the page is linked.

    `shown` maps a result's text to (anchor, label) of its first appearance on the page, so
    repeated results (the same search in every trial of a task) are printed once per page;
    catalog records inside a result are links to their cards (see `cards`). `calls` maps a tool
    call (name, arguments, result, error) to (trial, event) of its first appearance: a run of
    `MIN_REPEAT_RUN` or more consecutive calls that repeat consecutive earlier calls exactly is
    shown as one line linking to them.
    """
    out: list[dict[str, Any]] = []
    origins: list[tuple[int, int] | None] = []
    for number, ev in enumerate(transcript.events):
        if ev.type == "message":
            content, cut = clip(ev.content, MAX_SHOWN_MESSAGE_BYTES)
            out.append({"type": "message", "role": ev.role, "content": content, "cut": cut})
            origins.append(None)
            continue
        args = (
            ev.raw_arguments
            if ev.raw_arguments is not None
            else json.dumps(ev.arguments, ensure_ascii=False, sort_keys=True)
        )
        origin = calls.setdefault((ev.name, args, ev.result, ev.is_error), (trial, number))
        origins.append(origin if origin != (trial, number) else None)
        args, args_cut = clip(args, MAX_SHOWN_ARGUMENTS_BYTES)
        result = cards.result_html(ev.result, ROOT)
        result_cut = 0
        if len(str(result).encode("utf-8")) > MAX_SHOWN_RESULT_BYTES:  # as text, cut
            start, result_cut = clip(ev.result, MAX_SHOWN_RESULT_BYTES)
            result = html_text(start)
        anchor = f"r{trial}-{number}"
        first = shown.setdefault(str(result), (anchor, f"trial {trial}, event {number + 1}"))
        out.append(
            {
                "type": "tool_call",
                "name": ev.name,
                "args": args,
                "args_cut": args_cut,
                "result": result if first[0] == anchor else None,
                "cut": result_cut,
                "anchor": anchor,
                "same_as": None if first[0] == anchor else first,
                "is_error": ev.is_error,
            }
        )
    return _collapse_repeats(out, origins)


def _collapse_repeats(
    events: list[dict[str, Any]], origins: list[tuple[int, int] | None]
) -> list[dict[str, Any]]:
    """Replace each long enough run of repeated calls by one `repeat` view (see `_event_views`)."""
    out: list[dict[str, Any]] = []
    i = 0
    while i < len(events):
        start = origins[i]
        n = 1
        while (
            start is not None and i + n < len(events) and origins[i + n] == (start[0], start[1] + n)
        ):
            n += 1
        if start is None or n < MIN_REPEAT_RUN:
            out.append(events[i])
            i += 1
            continue
        names: dict[str, int] = {}
        for ev in events[i : i + n]:
            names[ev["name"]] = names.get(ev["name"], 0) + 1
        out.append(
            {
                "type": "repeat",
                "count": n,
                "first": i + 1,
                "last": i + n,
                "names": ", ".join(f"{name} × {k}" for name, k in names.items()),
                "target": f"r{start[0]}-{start[1]}",
                "source": f"trial {start[0]}, events {start[1] + 1}–{start[1] + n}",
            }
        )
        i += n
    return out


def _read_transcript(run: Run, record: TrialRecord) -> Transcript | None:
    try:
        return load_trial_transcript(run.folder, record)
    except LoadError:
        return None


def has_transcripts(run: Run) -> bool:
    """Trial pages are generated for runs whose transcripts were kept."""
    return any((run.folder / t).exists() for t in run.frame["transcript"].head(5).to_list())


def trial_views(
    entry: Entry,
    run: Run,
    task: DomainTask | None,
    task_id: str,
    records: list[TrialRecord],
    cards: Cards,
    domain: str = DEFAULT_DOMAIN,
) -> dict[str, Any]:
    """What one trial page shows: the task, then every trial with its verdicts and transcript.

    On a TMDB-sourced snapshot the verdicts are shown without the catalog values they quote.
    The task (`Domain.describe_task`) and the words for a trial's outcome are the domain's.
    """
    owner = get_domain(domain)
    trials = []
    shown: dict[str, tuple[str, str]] = {}
    calls: dict[CallKey, tuple[int, int]] = {}
    for number, r in enumerate(records):
        shown_in_full = number < MAX_TRANSCRIPTS_PER_TASK
        transcript = _read_transcript(run, r) if shown_in_full else None
        rec = r.score.recommendation if r.score else None
        if cards.snapshot is not None and cards.snapshot.from_tmdb:
            r = redact_record(r)
        audit = transcript.leak_audit if transcript is not None else None
        trials.append(
            {
                "index": r.key.trial_index,
                "seed": r.key.seed,
                "status": r.status,
                "passed": trial_state(r) == "pass",
                "stop_reason": r.stop_reason or "—",
                "turns": r.efficiency.turns,
                "tool_calls": r.efficiency.tool_calls,
                "cost": METRIC_BY_KEY["cost"].format(r.cost_usd),
                "recommendation": cards.link(rec, ROOT) if rec else None,
                "error": f"{r.error.kind}: {r.error.message}" if r.error else None,
                "score": r.score,
                "leak_clean": audit.clean if audit is not None else r.leak_audit_clean,
                "leaks": audit.leaks if audit is not None else [],
                "transcript": r.transcript,
                "in_download": not shown_in_full,
                "events": _event_views(transcript, r.key.trial_index, shown, calls, cards)
                if transcript is not None
                else None,
                "event_count": len(transcript.events) if transcript is not None else 0,
            }
        )
    scored = [r for r in records if r.status == "scored"]
    return {
        "slug": entry.slug,
        "name": entry.submission.display_name,
        "snapshot": run.snapshot,
        "task_id": task_id,
        "task": {
            "persona": owner.describe_task(task).persona if task else "(task file not found)",
            "complexity": records[0].complexity,
            "reveal_difficulty": records[0].reveal_difficulty,
            "no_valid_recommendation": records[0].no_valid_recommendation,
        },
        "words": {
            "outcome": owner.outcome_verb,
            "no_outcome": owner.no_outcome,
            "nothing_fits": owner.nothing_fits,
        },
        "n": len(scored),
        "c": sum(trial_state(r) == "pass" for r in scored),
        "trials": trials,
    }


def page_folder(slug: str, snapshot: str) -> str:
    """Where the trial pages of one run live, relative to its board's root."""
    return f"{TRIALS_DIR}/{slug}/{snapshot}"


def page_path(slug: str, snapshot: str, task_id: str) -> str:
    """Where a trial page lives, relative to the site root."""
    return f"{page_folder(slug, snapshot)}/{task_id}.html"


@dataclass
class _Job:
    """What the workers read (inherited through fork, never pickled): the runs and how to render."""

    env: jinja2.Environment
    staging: Path
    css: list[str]
    runs: list[tuple[Entry, Run]]
    tasks: dict[str, Any]  # the root board's tasks by id (each a DomainTask)
    snapshots: dict[str, SnapshotInfo]
    downloads: dict[tuple[str, str], str]  # (slug, snapshot) -> its transcripts download
    # Each run's board: its prefix under the site root ("" for movies, "grocery/"), parallel to
    # `runs`; and each board's domain and tasks by id.
    prefixes: list[str] = field(default_factory=list)
    boards: dict[str, tuple[str, dict[str, Any]]] = field(default_factory=dict)

    def board_of(self, index: int) -> tuple[str, str, dict[str, Any]]:
        """(prefix, domain, tasks by id) of the run at `index`."""
        prefix = self.prefixes[index] if index < len(self.prefixes) else ""
        if prefix in self.boards:
            domain, tasks = self.boards[prefix]
            return prefix, domain, tasks
        return prefix, DEFAULT_DOMAIN, dict(self.tasks)


_JOB: _Job | None = None


@dataclass(frozen=True)
class RunPages:
    """What rendering one run produced: pages, their search documents, the catalog cards they link."""

    pages: int
    docs: list[SearchDoc]
    snapshot: str
    cards: list[str]
    prefix: str = ""
    slug: str = ""


def _render_run(index: int) -> RunPages:
    """Write the pages of one run (one per task)."""
    assert _JOB is not None
    job = _JOB
    entry, run = job.runs[index]
    prefix, domain, tasks = job.board_of(index)
    template = job.env.get_template("trial_page.html.j2")
    by_task: dict[str, list[TrialRecord]] = {}
    for record in sorted(run.records(), key=lambda r: (r.key.task_id, r.key.trial_index)):
        by_task.setdefault(record.key.task_id, []).append(record)
    folder = job.staging / prefix / TRIALS_DIR / run.slug / run.snapshot
    folder.mkdir(parents=True, exist_ok=True)
    docs: list[SearchDoc] = []
    cards = Cards(job.snapshots.get(run.snapshot))
    # From a trial page: ROOT leads to its board's root, `assets` to the site's.
    assets = ROOT + "../" * prefix.count("/")
    for task_id, records in by_task.items():
        view = trial_views(entry, run, tasks.get(task_id), task_id, records, cards, domain)
        view["download"] = job.downloads.get((run.slug, run.snapshot))
        (folder / f"{task_id}.html").write_text(
            template.render(t=view, css=job.css, root=ROOT, asset_root=assets), encoding="utf-8"
        )
        docs.append(
            {
                "location": prefix + page_path(run.slug, run.snapshot, task_id),
                # the theme shows these as HTML: escaped like the pages it indexes itself
                "title": search_text(f"{task_id} · {view['name']} · {run.snapshot}"),
                "text": "",
                "boost": TRIAL_SEARCH_BOOST,
            }
        )
    return RunPages(len(by_task), docs, run.snapshot, sorted(cards.used), prefix, run.slug)


_PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int) -> None:
    """Pool initializer: a worker never outlives the build that started it.

    On Linux the kernel sends SIGKILL when the parent dies (prctl PR_SET_PDEATHSIG), whatever
    killed it (SIGKILL included); elsewhere a daemon thread polls for the parent. A parent that
    died before this ran is caught by the `getppid` check.
    """
    armed = False
    if sys.platform == "linux":
        import ctypes

        try:
            libc = ctypes.CDLL(None, use_errno=True)
            armed = libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
        except (OSError, AttributeError):
            armed = False
    if os.getppid() != parent:
        os._exit(1)
    if not armed:

        def watch() -> None:
            while os.getppid() == parent:
                time.sleep(0.5)
            os._exit(1)

        threading.Thread(target=watch, name="taurec-parent-watch", daemon=True).start()


# A picklable call writing files under the staging folder, e.g. (gzip_run, (source, target)).
FileJob = tuple[Callable[..., None], tuple[Any, ...]]


@dataclass
class TrialPages:
    """Trial pages (and file jobs) being written into a staging folder; `finish` moves them into the site."""

    staging: Path
    futures: list[Future[RunPages]]
    pool: ProcessPoolExecutor | None
    done: list[RunPages]
    job: _Job
    files: list[Future[None]]
    folders: list[str]  # what the file jobs write, relative to the staging folder and the site

    def wait(self) -> None:
        """Wait until every page and file is written into the staging folder."""
        try:
            self.done += [f.result() for f in self.futures]
            self.futures = []
            for f in self.files:
                f.result()
        finally:
            if self.pool is not None:
                self.pool.shutdown()

    def discard(self, prefix: str, slug: str, snapshot: str, files: list[str]) -> None:
        """Take one run's pages (and its `files`, relative to its board's root) out of what
        `finish` publishes (call after `wait`)."""
        folder = self.staging / prefix / page_folder(slug, snapshot)
        shutil.rmtree(folder, ignore_errors=True)
        if folder.parent.is_dir() and not any(folder.parent.iterdir()):
            folder.parent.rmdir()  # the entry's folder, when this was its only run with pages
        for rel in files:
            (self.staging / prefix / rel).unlink(missing_ok=True)
        self.done = [
            r for r in self.done if (r.prefix, r.slug, r.snapshot) != (prefix, slug, snapshot)
        ]

    def finish(
        self, out: Path, site_url: str | None, extra_docs: list[SearchDoc] | None = None
    ) -> int:
        """Wait for every run, move the pages under `out/trials/`, write the catalog cards they
        link, index the pages (and `extra_docs`); returns the trial page count."""
        self.wait()
        results = self.done
        docs = sorted((d for r in results for d in r.docs), key=lambda d: d["location"])
        prefixes = sorted({"", *self.job.prefixes})
        _move_tree(self.staging, out, [p + TRIALS_DIR for p in prefixes] + self.folders)
        linked: dict[tuple[str, str], set[str]] = {}
        for r in results:
            linked.setdefault((r.prefix, r.snapshot), set()).update(r.cards)
        for (prefix, label), ids in sorted(linked.items()):
            snapshot = self.job.snapshots.get(label)
            if snapshot is not None:
                assets = "../../" + "../" * prefix.count("/")
                write_cards(self.job.env, out / prefix, snapshot, ids, self.job.css, assets)
        add_search_docs(out, [*(extra_docs or []), *docs])
        add_to_sitemap(out, [str(d["location"]) for d in docs], site_url)
        return sum(r.pages for r in results)

    def abandon(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=True)
        shutil.rmtree(self.staging, ignore_errors=True)


def _merge(source: Path, target: Path) -> None:
    """Move `source` to `target`: renamed whole when `target` is new, else merged child by child."""
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        source.rename(target)
    elif source.is_dir() and target.is_dir():
        for child in sorted(source.iterdir()):
            _merge(child, target / child.name)
    else:
        source.replace(target)


def _move_tree(staging: Path, out: Path, folders: list[str]) -> None:
    """Move each staged folder to the same place under `out` (merged into what mkdocs wrote)."""
    for rel in folders:
        if (staging / rel).exists():
            _merge(staging / rel, out / rel)
    shutil.rmtree(staging, ignore_errors=True)


def material_css(theme_dir: Path) -> list[str]:
    """The theme's main stylesheet (its name carries a hash) and ours, as site-relative paths."""
    found = sorted((theme_dir / "assets" / "stylesheets").glob("main.*.min.css"))
    return [f"assets/stylesheets/{p.name}" for p in found[:1]] + ["assets/taurec.css"]


def start_trial_pages(
    env: jinja2.Environment,
    inputs: SiteInputs,
    runs: list[tuple[Entry, Run]],
    staging: Path,
    workers: int | None = None,
    files: list[FileJob] | None = None,
    folders: list[str] | None = None,
    downloads: dict[tuple[str, str], str] | None = None,
    boards: list[tuple[SiteInputs, list[tuple[Entry, Run]]]] | None = None,
) -> TrialPages:
    """Start rendering the trial pages of `runs` into `staging/trials/` and running `files`,
    which write into `folders` of `staging` (in worker processes when it pays). `downloads`
    gives the site path of each run's transcripts download, which its pages link. `boards`
    adds other domains' boards: their runs' pages go to `staging/<prefix>trials/` (one pool
    renders them all)."""
    global _JOB
    if staging.exists():
        shutil.rmtree(staging)
    staging.mkdir(parents=True)
    every = list(runs)
    prefixes = [inputs.prefix] * len(runs)
    snapshots = {s.label: s for s in inputs.snapshots}
    board_tasks: dict[str, tuple[str, dict[str, Any]]] = {
        inputs.prefix: (inputs.domain, {t.id: t for t in inputs.tasks})
    }
    for other, other_runs in boards or []:
        every += other_runs
        prefixes += [other.prefix] * len(other_runs)
        snapshots |= {s.label: s for s in other.snapshots}
        board_tasks[other.prefix] = (other.domain, {t.id: t for t in other.tasks})
    runs = every
    _JOB = job = _Job(
        env=env,
        staging=staging,
        css=material_css(Path(str(importlib.resources.files("material"))) / "templates"),
        runs=runs,
        tasks={t.id: t for t in inputs.tasks},
        snapshots=snapshots,
        downloads=downloads or {},
        prefixes=prefixes,
        boards=board_tasks,
    )
    files = files or []
    count = workers if workers is not None else (os.cpu_count() or 1)
    tasks = len(runs) + len(files)
    if count <= 1 or tasks < 2 or "fork" not in multiprocessing.get_all_start_methods():
        for call, args in files:
            call(*args)
        pages = [_render_run(i) for i in range(len(runs))]
        return TrialPages(staging, [], None, pages, job, [], folders or [])
    pool = ProcessPoolExecutor(
        max_workers=min(count, tasks),
        mp_context=multiprocessing.get_context("fork"),
        initializer=die_with_parent,
        initargs=(os.getpid(),),
    )
    # The biggest jobs first, so no worker is left with a long one at the end.
    futures = [pool.submit(_render_run, i) for i in range(len(runs))]
    written = [pool.submit(call, *args) for call, args in files]
    return TrialPages(staging, futures, pool, [], job, written, folders or [])


def entry_search_docs(inputs: SiteInputs) -> list[SearchDoc]:
    """One short search document per entry page (whose own body, tables of every task, mkdocs
    leaves out of the index): its display name, slug and organization, boosted above trials."""
    docs: list[SearchDoc] = []
    for entry in inputs.entries:
        sub = entry.submission
        docs.append(
            {
                "location": f"{inputs.prefix}entries/{entry.slug}.html",
                "title": search_text(sub.display_name),
                "text": search_text(
                    " · ".join(t for t in (f"entry {entry.slug}", sub.contact.organization) if t)
                ),
                "boost": ENTRY_SEARCH_BOOST,
            }
        )
    return docs


def add_search_docs(out: Path, docs: list[SearchDoc]) -> None:
    """Append the trial documents to mkdocs' search index (trial pages are not mkdocs pages)."""
    index = out / "search" / "search_index.json"
    if not index.exists() or not docs:
        return
    data = json.loads(index.read_text(encoding="utf-8"))
    data["docs"].extend(docs)
    index.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")


def add_to_sitemap(out: Path, locations: list[str], site_url: str | None) -> None:
    """List the trial pages in sitemap.xml (and its .gz) when the site has a URL to put there."""
    sitemap = out / "sitemap.xml"
    if not site_url or not locations or not sitemap.exists():
        return
    base = site_url if site_url.endswith("/") else site_url + "/"
    lines = "".join(
        f"    <url>\n         <loc>{xml_text(base + loc)}</loc>\n    </url>\n" for loc in locations
    )
    text = sitemap.read_text(encoding="utf-8").replace("</urlset>", lines + "</urlset>")
    sitemap.write_text(text, encoding="utf-8")
    (out / "sitemap.xml.gz").write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))


def runs_with_pages(
    inputs: SiteInputs, trial_runs: set[tuple[str, str]]
) -> Iterator[tuple[Entry, Run]]:
    for entry in inputs.entries:
        for run in entry.runs:
            if (run.slug, run.snapshot) in trial_runs:
                yield entry, run
