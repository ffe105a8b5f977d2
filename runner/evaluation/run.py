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
from runner.batch.inputs import RunInputs, domain_of_suite, load_inputs, select_tasks
from runner.batch.progress import ProgressSink
from runner.core.board import resolve_suite
from runner.core.domain import DEFAULT_STRICTNESS, Strictness
from runner.core.domains import DEFAULT_DOMAIN, get_domain
from runner.core.errors import LoadError, TaurecError
from runner.core.metrics import summarize
from runner.core.rules import DEFAULT_RULES, RuleSetName
from runner.core.transcript import Transcript
from runner.evaluation.feedback import build_feedback
from runner.evaluation.result import (
    EvalResult,
    FailingTrial,
    failing_trial,
    is_failing,
    task_rows,
)
from runner.evaluation.source import AgentSource, entrant_for
from runner.play.loop import DEFAULT_STEP_TIMEOUT_S

DEFAULT_TRIALS = 8


@contextlib.contextmanager
def _results_root(results: Path | str | None) -> Iterator[Path]:
    if results is not None:
        yield Path(results)
        return
    with tempfile.TemporaryDirectory(prefix="taurec-eval-") as scratch:
        yield Path(scratch)


def _result(
    run: RunResult, *, kept: bool, inputs: RunInputs, show: tuple[str, int] | None
) -> EvalResult:
    m = run.manifest
    records = sorted(run.records, key=lambda r: (r.key.task_id, r.key.trial_index))
    ks = list(range(1, m.trials + 1))
    failing = []
    transcripts: dict[tuple[str, int], Transcript] = {}
    shown: FailingTrial | None = None
    for record in records:
        transcript: Transcript | None = None
        with contextlib.suppress(TranscriptMissing):
            transcript = load_trial_transcript(run.results_dir, record)
        key = (record.key.task_id, record.key.trial_index)
        if transcript is not None:
            transcripts[key] = transcript
        if key == show:
            shown = failing_trial(record, transcript)
        if is_failing(record):
            failing.append(failing_trial(record, transcript))
    if show is not None and shown is None:
        ran = sorted({r.key.trial_index for r in records if r.key.task_id == show[0]})
        raise TaurecError(
            f"--show {show[0]}#{show[1]}: no such trial in this run "
            f"(trials of {show[0]}: {', '.join(map(str, ran)) or 'none'})"
        )
    return EvalResult(
        status=m.status,
        agent=m.agent.name,
        slug=m.submission,
        snapshot=m.snapshot,
        tasks_dir=str(inputs.tasks_dir),
        simulator=m.simulator.name,
        rules=m.rules,
        domain=m.domain,
        strictness=m.strictness,
        seed=m.seed,
        trials=m.trials,
        max_turns=m.max_turns,
        catalog_digest=m.catalog_digest,
        task_suite_digest=m.task_suite_digest,
        policy_digest=m.policy_digest,
        results_dir=str(run.results_dir) if kept else None,
        summary=summarize(records, ks=ks, policy_names=inputs.domain.policy_names),
        tasks=task_rows(records, ks),
        failing=failing,
        feedback=build_feedback(
            records, transcripts, inputs.tasks, inputs.snapshot.catalog, inputs.domain
        )
        if inputs.domain.name == DEFAULT_DOMAIN
        else build_feedback(
            records, transcripts, [], None, inputs.domain, skill_tasks=inputs.tasks
        ),
        shown=shown,
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
    snapshots_dir: Path | None = None,
    rules: RuleSetName = DEFAULT_RULES,
    preflight: bool = True,
    show: str | None = None,
    step_timeout_s: float | None = DEFAULT_STEP_TIMEOUT_S,
    domain: str | None = None,
    strictness: Strictness = DEFAULT_STRICTNESS,
) -> EvalResult:
    """The async form of `evaluate` (for callers already inside an event loop)."""
    if trials < 1:
        raise TaurecError(f"trials must be at least 1 (got {trials})")
    if isinstance(suite, Path | str) and suite not in ("ours", "v1"):
        named = domain_of_suite(Path(suite)).name
        if domain is not None and get_domain(domain).name != named:
            raise LoadError(
                Path(suite), [f"this suite is a {named} suite (its suite.json), not {domain}"]
            )
        domain = named
    domain = get_domain(domain or DEFAULT_DOMAIN).name
    tasks_dir, snapshot = resolve_suite(suite, snapshot, domain)
    shown = None if show is None else parse_show(show)
    if shown is not None:
        if shown[1] >= trials:
            raise TaurecError(
                f"--show {show}: trial {shown[1]} needs --trials {shown[1] + 1} or more "
                f"(trials are numbered from 0; ran {trials})"
            )
        if tasks is None:
            tasks = [shown[0]]
        elif shown[0] not in tasks:
            raise TaurecError(f"--show {show}: task {shown[0]!r} is not among --task")
    with _results_root(results) as root:
        entrant = entrant_for(agent, results_root=root, slug=slug, trials=trials, domain=domain)
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
            preflight=preflight,
            step_timeout_s=step_timeout_s,
            domain=domain,
            strictness=strictness,
        )
        inputs = load_inputs(snapshot, tasks_dir, snapshots_dir=snapshots_dir, domain=domain)
        if tasks is not None:
            inputs = select_tasks(inputs, list(tasks))
        return _result(run, kept=results is not None, inputs=inputs, show=shown)


def parse_show(text: str) -> tuple[str, int]:
    """`task_012#3` → ("task_012", 3); anything else fails saying what is expected."""
    task_id, sep, index = text.rpartition("#")
    if not sep or not task_id or not index.isdigit():
        raise TaurecError(f"--show {text!r}: expected TASK#TRIAL, e.g. task_012#0")
    return task_id, int(index)


def evaluate(agent: AgentSource, **options: Any) -> EvalResult:
    """Run `agent` over the suite `trials` times per task (default 8) and return an `EvalResult`.

    `agent` is an Agent object (shared by every trial), a factory called once per trial (with no
    argument or with the trial's `AgentContext`), an agent config (LiteLLM, HTTP, built-in), a
    submission folder, or a string (`module:attr`, a built-in name, `litellm:<model>`,
    `http:<url>`, a folder). Options are those of `evaluate_async`: suite (`ours`, `v1` or a
    folder), snapshot, trials, tasks (ids), simulator (+ options), seed, concurrency, max_turns,
    max_cost (USD), results (a folder: records stay there and a re-run resumes), fresh, slug,
    rules (`v2`, ours, or `v1`, the published evaluator, loop and tools but for the differences in
    `runner.core.rules.RULE_DIFFERENCES`), domain (movies, grocery, …; default: the suite folder's,
    else movies), strictness (low / medium / high: which policy severities fail a trial),
    progress (a ProgressSink),
    preflight (default True: a LiteLLM or HTTP agent gets one real request before any trial, and
    a missing key or a dead endpoint raises `PreflightError` in seconds, exactly as `taurec run`),
    show (`TASK#TRIAL`: keep that trial's transcript in `result.shown`; runs only that task
    unless tasks are given), step_timeout_s (how long one step of a Python agent may take; a
    late step fails the trial, see `runner.play.attribution`).
    The trials run on the batch engine of `taurec run`; nothing is scored differently.
    """
    return asyncio.run(evaluate_async(agent, **options))
