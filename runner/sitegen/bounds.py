"""Keep the site bounded: which runs get trial pages, raw per-trial downloads, the per-run and per-entry budgets on what is published, and the size report and budget."""

from __future__ import annotations

import gzip
import json
import lzma
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from runner.batch.archive import transcript_gzip
from runner.batch.store import TRIALS_FILE, read_trials
from runner.core.errors import LoadError, TaurecError
from runner.sitegen.inputs import LeftOut, Run, SiteInputs
from runner.sitegen.tmdb_terms import redact_record

DEFAULT_BUDGET_MB = 900.0  # GitHub Pages refuses sites over 1 GB
# What the site should cost per trial (issue 22): the size report states the built site's bytes
# per trial against it. The default board's real transcripts cost ~14.5 KB.
TARGET_KB_PER_TRIAL = 15.0
# What a run (an entry on one snapshot) may publish per trial, and an entry in all whatever its
# trial count: the bytes of its trial pages and downloads as written (rendered HTML, not what its
# results folder stores). Trial pages show each event compactly (trial_pages.MAX_SHOWN_*) and the
# transcripts of a task's first 8 trials only, so an honest run that spends its whole tool budget
# (80 searches a trial) publishes well under both; a run over either is left off the boards with
# the reason on its entry page, never the whole board.
DEFAULT_RUN_BUDGET_KB_PER_TRIAL = 512.0
DEFAULT_ENTRY_BUDGET_MB = 100.0
RAW_DIR = "downloads/trials"


class SiteTooLargeError(TaurecError):
    """The built site is over its size budget."""


def rules_of(run: Run) -> str:
    """The rule set a run was scored under (runs written before rule sets existed count as v2)."""
    return str(getattr(run.manifest, "rules", "v2")) if run.manifest is not None else "v2"


def paged_runs(runs: list[Run]) -> set[tuple[str, str]]:
    """(slug, snapshot) of the runs on the latest snapshot of their rule set: only these get trial pages."""
    latest: dict[str, str] = {}
    for run in runs:
        rules = rules_of(run)
        latest[rules] = max(latest.get(rules, run.snapshot), run.snapshot)
    return {(r.slug, r.snapshot) for r in runs if latest[rules_of(r)] == r.snapshot}


@dataclass(frozen=True)
class RawLinks:
    """Where a run's raw trial records (JSONL, gzip), its transcripts (JSONL, xz; runs with trial
    pages on a catalog of our own) and its snapshot's Parquet of all runs are."""

    jsonl: str
    parquet: str
    transcripts: str | None = None


# A run's transcripts repeat the same catalog records trial after trial, beyond gzip's 32 KB
# window: xz at preset 3 (4 MB dictionary) keeps a board run (240 trials, ~24 MB of JSON) in
# ~0.15 MB (gzip: 2.5 MB; preset 2: 0.21 MB) in ~2.3 s. Readable with `xz -d`, 7-Zip or
# Python's `lzma`.
TRANSCRIPTS_XZ_PRESET = 3


def transcripts_published(
    inputs: SiteInputs, trial_runs: set[tuple[str, str]]
) -> set[tuple[str, str]]:
    """The runs whose transcripts are a download: those with trial pages, never on a TMDB snapshot."""
    tmdb = {snap.label for snap in inputs.snapshots if snap.from_tmdb}
    return {(slug, snapshot) for slug, snapshot in trial_runs if snapshot not in tmdb}


def raw_links(
    inputs: SiteInputs, trial_runs: set[tuple[str, str]] | None = None
) -> dict[tuple[str, str], RawLinks]:
    """Where each run's raw trial records, transcripts and its snapshot's Parquet are published."""
    with_transcripts = transcripts_published(inputs, trial_runs or set())
    return {
        (run.slug, run.snapshot): RawLinks(
            jsonl=f"{RAW_DIR}/{run.snapshot}/{run.slug}.jsonl.gz",
            parquet=f"{RAW_DIR}/{run.snapshot}/trials.parquet",
            transcripts=f"{RAW_DIR}/{run.snapshot}/{run.slug}.transcripts.jsonl.xz"
            if (run.slug, run.snapshot) in with_transcripts
            else None,
        )
        for run in inputs.runs
    }


def xz_transcripts(folder: Path, target: Path) -> None:
    """One run's transcripts as `.jsonl.xz`: one JSON document a line, in the order of its trial
    records (only the transcripts the records point to; a missing one is left out)."""
    lines: list[bytes] = []
    for record in read_trials(folder).records:
        try:
            text = gzip.decompress(transcript_gzip(folder, record)).strip()
        except LoadError:
            continue
        if b"\n" in text:  # an older per-trial file, pretty-printed
            text = json.dumps(json.loads(text), ensure_ascii=False).encode()
        lines.append(text + b"\n")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(lzma.compress(b"".join(lines), preset=TRANSCRIPTS_XZ_PRESET))


def gzip_run(folder: Path, target: Path, redact: bool) -> None:
    """One run's `trials.jsonl` as `.jsonl.gz`; redacted for a TMDB-sourced snapshot (see `tmdb_terms`)."""
    if redact:
        lines = (redact_record(r).model_dump_json() + "\n" for r in read_trials(folder).records)
        raw = "".join(lines).encode()
    else:
        raw = (folder / TRIALS_FILE).read_bytes()
    target.parent.mkdir(parents=True, exist_ok=True)
    # mtime=0 keeps the bytes identical from one build to the next.
    target.write_bytes(gzip.compress(raw, compresslevel=6, mtime=0))


def raw_trial_jobs(
    inputs: SiteInputs, root: Path, trial_runs: set[tuple[str, str]] | None = None
) -> list[tuple[Any, tuple[Any, ...]]]:
    """The gzip job of every run and the xz job of every run with published transcripts (the
    biggest first), writing under `root` at their `raw_links` places."""
    tmdb = {snap.label for snap in inputs.snapshots if snap.from_tmdb}
    links = raw_links(inputs, trial_runs)
    jobs: list[tuple[Any, tuple[Any, ...]]] = [
        (xz_transcripts, (run.folder, root / target))
        for run in inputs.runs
        if (target := links[(run.slug, run.snapshot)].transcripts) is not None
    ]
    return jobs + [
        (gzip_run, (run.folder, root / links[(run.slug, run.snapshot)].jsonl, run.snapshot in tmdb))
        for run in inputs.runs
    ]


def write_trials_parquet(docs: Path, inputs: SiteInputs) -> None:
    """Each snapshot's flat table of every run's trials, as Parquet (a download)."""
    by_snapshot: dict[str, list[pl.DataFrame]] = {}
    for run in inputs.runs:
        by_snapshot.setdefault(run.snapshot, []).append(run.frame)
    for snapshot, frames in by_snapshot.items():
        folder = docs / RAW_DIR / snapshot
        folder.mkdir(parents=True, exist_ok=True)
        frame = pl.concat(frames).sort("submission", "task_id", "trial_index")
        frame.write_parquet(folder / "trials.parquet", compression="zstd")


@dataclass(frozen=True)
class SizeReport:
    """Bytes of the built site, in total and per top-level part, and the trials it publishes."""

    total: int
    parts: dict[str, int]
    files: int
    trials: int = 0

    @property
    def kb_per_trial(self) -> float | None:
        """Site bytes per published trial, in KB (1 KB = 1000 bytes); None without trials."""
        return self.total / self.trials / 1e3 if self.trials else None

    def lines(self, budget_mb: float | None) -> list[str]:
        head = f"site size: {self.total / 1e6:.1f} MB in {self.files} files"
        if budget_mb is not None:
            head += f" (budget {budget_mb:g} MB, {100 * self.total / (budget_mb * 1e6):.0f} % used)"
        lines = [head]
        if self.kb_per_trial is not None:
            lines.append(
                f"  {self.kb_per_trial:.1f} KB per trial over {self.trials} trials "
                f"(target {TARGET_KB_PER_TRIAL:g} KB)"
            )
        ranked = sorted(self.parts.items(), key=lambda kv: (-kv[1], kv[0]))
        return lines + [f"  {size / 1e6:8.1f} MB  {name}" for name, size in ranked]


def measure(out: Path, trials: int = 0) -> SizeReport:
    """Walk the built site once; sizes are summed per top-level entry (folders and loose pages)."""
    parts: dict[str, int] = {}
    files = 0
    for path in out.rglob("*"):
        if not path.is_file():
            continue
        files += 1
        rel = path.relative_to(out).parts
        key = rel[0] + "/" if len(rel) > 1 else "(top-level pages)"
        if rel[0] == "downloads" and len(rel) > 2:
            key = f"downloads/{rel[1]}/"
        parts[key] = parts.get(key, 0) + path.stat().st_size
    return SizeReport(total=sum(parts.values()), parts=parts, files=files, trials=trials)


def published_bytes(root: Path, run: Run, link: RawLinks | None, pages: str) -> int:
    """Bytes a run publishes, as written under `root` (its board's root in the staging folder):
    its trial pages (the folder `pages`) and its downloads."""
    total = 0
    folder = root / pages
    if folder.is_dir():
        total += sum(p.stat().st_size for p in folder.iterdir() if p.is_file())
    for rel in (link.jsonl, link.transcripts) if link is not None else ():
        if rel is not None and (root / rel).is_file():
            total += (root / rel).stat().st_size
    return total


def drop_over_budget(
    inputs: SiteInputs,
    sizes: dict[tuple[str, str], int],
    budget_kb_per_trial: float | None,
    budget_mb_per_entry: float | None,
) -> list[Run]:
    """Leave off the boards each run whose published bytes (`sizes`, by slug and snapshot) are
    over `budget_kb_per_trial` times its trials, then each entry's biggest runs until the rest
    fits in `budget_mb_per_entry` (None: no such budget). Each gets a note and a left-out record
    saying why (its entry page shows it); every other run is built as usual. Returns the runs
    left off."""
    dropped: list[Run] = []

    def drop(run: Run, reason: str) -> None:
        inputs.notes.append(f"{run.folder}: {reason}")
        inputs.left_out.append(LeftOut(run.slug, run.snapshot, reason))
        dropped.append(run)

    for entry in inputs.entries:
        kept = []
        for run in entry.runs:
            trials = max(run.frame.height, 1)
            size = sizes.get((run.slug, run.snapshot), 0)
            if budget_kb_per_trial is None or size <= budget_kb_per_trial * 1e3 * trials:
                kept.append(run)
                continue
            drop(
                run,
                f"its trial pages and downloads would publish {size / 1e6:.1f} MB for {trials} "
                f"trials ({size / trials / 1e3:.0f} KB per trial), over the per-trial site "
                f"budget of {budget_kb_per_trial:g} KB (--max-run-kb-per-trial): not published",
            )
        total = sum(sizes.get((r.slug, r.snapshot), 0) for r in kept)
        while budget_mb_per_entry is not None and kept and total > budget_mb_per_entry * 1e6:
            biggest = max(kept, key=lambda r: (sizes.get((r.slug, r.snapshot), 0), r.snapshot))
            size = sizes.get((biggest.slug, biggest.snapshot), 0)
            drop(
                biggest,
                f"the entry's runs would publish {total / 1e6:.1f} MB, over the per-entry site "
                f"budget of {budget_mb_per_entry:g} MB (--max-entry-mb, whatever the trial "
                f"count); this run, its biggest ({size / 1e6:.1f} MB for "
                f"{biggest.frame.height} trials), is not published",
            )
            kept.remove(biggest)
            total -= size
        entry.runs[:] = kept
    return dropped


def enforce_budget(report: SizeReport, budget_mb: float | None, out: Path) -> None:
    """Fail with the biggest parts named when the site is over budget (None: no budget)."""
    if budget_mb is None or report.total <= budget_mb * 1e6:
        return
    raise SiteTooLargeError(
        f"{out}: the built site is {report.total / 1e6:.1f} MB, over its budget of "
        f"{budget_mb:g} MB (--max-size-mb). Largest parts:\n" + "\n".join(report.lines(None)[1:6])
    )
