"""The short text a batch prints at the end: per submission pass^k, scored, infra errors and cost (from the running counters)."""

from __future__ import annotations

from collections.abc import Sequence

from runner.batch.engine import RunResult
from runner.batch.tally import RunTally

DEFAULT_KS = (1, 2, 4)


def _fmt(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def summary_line(slug: str, tally: RunTally, ks: Sequence[int]) -> str:
    """One line: `slug: pass^1 0.640 · pass^2 … · scored 120 · infra errors 2 · cost $0.0123`."""
    passes = " · ".join(f"pass^{k} {_fmt(value)}" for k, value in tally.pass_hat_k_means(ks))
    return (
        f"{slug}: {passes} · scored {tally.scored} · infra errors {tally.infra_error} · "
        f"cost ${tally.cost_usd:.4f}"
    )


def format_summary(results: Sequence[RunResult], ks: Sequence[int] = DEFAULT_KS) -> str:
    """The end-of-run report: one block per submission, infra errors listed apart, never hidden."""
    lines: list[str] = []
    for result in results:
        m = result.manifest
        lines.append(summary_line(result.submission, result.tally, ks))
        lines.append(
            f"  status {m.status} · planned {m.counts.planned} · ran now {result.ran} · "
            f"already recorded {result.skipped_existing} · retried infra errors "
            f"{result.retried_infra} → {result.results_dir}"
        )
        if m.retired_tasks:
            lines.append(f"  skipped retired tasks: {', '.join(sorted(m.retired_tasks))}")
        kinds = result.tally.error_kinds
        if kinds:
            listed = ", ".join(f"{k} ×{n}" for k, n in sorted(kinds.items()))
            lines.append(f"  infra errors (excluded from pass^k n; re-run to retry): {listed}")
        missing = m.counts.planned - m.counts.scored - m.counts.infra_error
        if missing > 0:
            lines.append(f"  not yet run: {missing} trial(s) (re-run the same command to resume)")
    return "\n".join(lines)


def one_line(results: Sequence[RunResult]) -> str:
    """A single line for Ctrl-C and logs: status and counts of every submission."""
    parts = []
    for r in results:
        c = r.manifest.counts
        parts.append(
            f"{r.submission} {r.manifest.status}: {c.scored} scored, {c.infra_error} infra errors, "
            f"{c.planned - c.scored - c.infra_error} not run"
        )
    return "; ".join(parts)
