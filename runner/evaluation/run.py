"""`evaluate`: run one agent over the suite k times per task with the batch engine and return a typed result."""

from __future__ import annotations

import asyncio
import contextlib
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from runner.batch.archive import TranscriptMissing, load_trial_transcript
from runner.batch.engine import RunResult, run_submissions_async
from runner.batch.progress import ProgressSink
from runner.board import resolve_suite
from runner.errors import TaurecError
from runner.evaluation.result import EvalResult, failing_trial, is_failing, task_rows
from runner.evaluation.source import AgentSource, entrant_for
from runner.loop import DEFAULT_STEP_TIMEOUT_S
from runner.metrics import summarize
from runner.paths import SNAPSHOTS_DIR
from runner.rules import DEFAULT_RULES, RuleSetName
from runner.transcript import Transcript

DEFAULT_TRIALS = 8


@contextlib.contextmanager
def _results_root(results: Path | str | None) -> Iterator[Path]:
    if results is not None:
        yield Path(results)
        return
    with tempfile.TemporaryDirectory(prefix="taurec-eval-") as scratch:
        yield Path(scratch)


def _result(run: RunResult, *, kept: bool, tasks_dir: Path) -> EvalResult:
    m = run.manifest
    records = sorted(run.records, key=lambda r: (r.key.task_id, r.key.trial_index))
    ks = list(range(1, m.trials + 1))
    failing = []
    for record in records:
        if not is_failing(record):
            continue
        transcript: Transcript | None = None
        with contextlib.suppress(TranscriptMissing):
            transcript = load_trial_transcript(run.results_dir, record)
        failing.append(failing_trial(record, transcript))
    return EvalResult(
        status=m.status,
        agent=m.agent.name,
        slug=m.submission,
        snapshot=m.snapshot,
        tasks_dir=str(tasks_dir),
        simulator=m.simulator.name,
        rules=m.rules,
        seed=m.seed,
        trials=m.trials,
        max_turns=m.max_turns,
        catalog_digest=m.catalog_digest,
        task_suite_digest=m.task_suite_digest,
        policy_digest=m.policy_digest,
        results_dir=str(run.results_dir) if kept else None,
        summary=summarize(records, ks=ks),
        tasks=task_rows(records, ks),
        failing=failing,
    )


async def evaluate_async(
    agent: AgentSource,
    *,
    suite: str | Path = "ours",
    snapshot: str | Path | None = None,
    trials: int = DEFAULT_TRIALS,
    tasks: Sequence[str] | None = None,
    simulator: str = "scripted",
    simulator_options: dict[str, Any] | None = None,
    seed: int = 0,
    concurrency: int = 8,
    max_turns: int = 20,
    max_cost: float | None = None,
    results: Path | str | None = None,
    fresh: bool = False,
    slug: str | None = None,
    progress: ProgressSink | None = None,
    snapshots_dir: Path = SNAPSHOTS_DIR,
    rules: RuleSetName = DEFAULT_RULES,
    step_timeout_s: float | None = DEFAULT_STEP_TIMEOUT_S,
) -> EvalResult:
    """The async form of `evaluate` (for callers already inside an event loop)."""
    if trials < 1:
        raise TaurecError(f"trials must be at least 1 (got {trials})")
    tasks_dir, snapshot = resolve_suite(suite, snapshot)
    with _results_root(results) as root:
        entrant = entrant_for(agent, results_root=root, slug=slug, trials=trials)
        [run] = await run_submissions_async(
            [entrant],
            snapshot=snapshot,
            tasks_dir=tasks_dir,
            trials=trials,
            concurrency=concurrency,
            max_cost=max_cost,
            simulator=simulator,
            simulator_options=simulator_options,
            seed=seed,
            fresh=fresh,
            max_turns=max_turns,
            progress=progress,
            snapshots_dir=snapshots_dir,
            task_ids=None if tasks is None else list(tasks),
            rules=rules,
            step_timeout_s=step_timeout_s,
        )
        return _result(run, kept=results is not None, tasks_dir=tasks_dir)


def evaluate(agent: AgentSource, **options: Any) -> EvalResult:
    """Run `agent` over the suite `trials` times per task (default 8) and return an `EvalResult`.

    `agent` is an Agent object (shared by every trial), a factory called once per trial (with no
    argument or with the trial's `AgentContext`), an agent config (LiteLLM, HTTP, built-in), a
    submission folder, or a string (`module:attr`, a built-in name, `litellm:<model>`,
    `http:<url>`, a folder). Options are those of `evaluate_async`: suite (`ours`, `v1` or a
    folder), snapshot, trials, tasks (ids), simulator (+ options), seed, concurrency, max_turns,
    max_cost (USD), results (a folder: records stay there and a re-run resumes), fresh, slug,
    rules (`v2`, ours, or `v1`, the published evaluator exactly), step_timeout_s (how long one
    step of a Python agent may take; a late step fails the trial, see `runner.attribution`).
    The trials run on the batch engine of `taurec run`; nothing is scored differently.
    """
    return asyncio.run(evaluate_async(agent, **options))
