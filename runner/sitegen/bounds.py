"""Keep the site bounded: which runs get trial pages, raw per-trial downloads, and the size report and budget."""

from __future__ import annotations

import gzip
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from runner.batch.store import TRIALS_FILE
from runner.errors import TaurecError
from runner.sitegen.inputs import Run, SiteInputs
from runner.sitegen.tmdb_terms import redact_record

DEFAULT_BUDGET_MB = 900.0  # GitHub Pages refuses sites over 1 GB
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
    """Where a run's raw trial records (JSONL, gzip) and its snapshot's Parquet of all runs are."""

    jsonl: str
    parquet: str


def write_raw_trials(docs: Path, inputs: SiteInputs) -> dict[tuple[str, str], RawLinks]:
    """Publish every run's trial records as `.jsonl.gz` and each snapshot's flat table as Parquet.

    Records of runs on a TMDB-sourced snapshot are published redacted (see `tmdb_terms`).
    """
    target = docs / RAW_DIR
    target.mkdir(parents=True, exist_ok=True)
    links: dict[tuple[str, str], RawLinks] = {}
    by_snapshot: dict[str, list[pl.DataFrame]] = {}
    tmdb = {snap.label for snap in inputs.snapshots if snap.from_tmdb}
    for run in inputs.runs:
        name = f"{run.snapshot}/{run.slug}.jsonl.gz"
        path = target / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if run.snapshot in tmdb:  # verdicts without the TMDB values they quote
            raw = "".join(redact_record(r).model_dump_json() + "\n" for r in run.records()).encode()
        else:
            raw = (run.folder / TRIALS_FILE).read_bytes()
        # mtime=0 keeps the bytes identical from one build to the next.
        path.write_bytes(gzip.compress(raw, compresslevel=6, mtime=0))
        by_snapshot.setdefault(run.snapshot, []).append(run.frame)
        links[(run.slug, run.snapshot)] = RawLinks(
            jsonl=f"{RAW_DIR}/{name}", parquet=f"{RAW_DIR}/{run.snapshot}/trials.parquet"
        )
    for snapshot, frames in by_snapshot.items():
        frame = pl.concat(frames).sort("submission", "task_id", "trial_index")
        frame.write_parquet(target / snapshot / "trials.parquet", compression="zstd")
    return links


@dataclass(frozen=True)
class SizeReport:
    """Bytes of the built site, in total and per top-level part."""

    total: int
    parts: dict[str, int]
    files: int

    def lines(self, budget_mb: float | None) -> list[str]:
        head = f"site size: {self.total / 1e6:.1f} MB in {self.files} files"
        if budget_mb is not None:
            head += f" (budget {budget_mb:g} MB, {100 * self.total / (budget_mb * 1e6):.0f} % used)"
        ranked = sorted(self.parts.items(), key=lambda kv: (-kv[1], kv[0]))
        return [head] + [f"  {size / 1e6:8.1f} MB  {name}" for name, size in ranked]


def measure(out: Path) -> SizeReport:
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
    return SizeReport(total=sum(parts.values()), parts=parts, files=files)


def enforce_budget(report: SizeReport, budget_mb: float | None, out: Path) -> None:
    """Fail with the biggest parts named when the site is over budget (None: no budget)."""
    if budget_mb is None or report.total <= budget_mb * 1e6:
        return
    raise SiteTooLargeError(
        f"{out}: the built site is {report.total / 1e6:.1f} MB, over its budget of "
        f"{budget_mb:g} MB (--max-size-mb). Largest parts:\n" + "\n".join(report.lines(None)[1:6])
    )
