"""Run many trials at once: every submission × task × trial under one concurrency bound, resumable and honest."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import functools
import shutil
import signal
import subprocess
import sys
import threading
import traceback
from collections.abc import Callable, Coroutine, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from runner.agent_config import AgentConfig
from runner.batch.entrant import Entrant
from runner.batch.inputs import RunInputs, load_inputs, select_tasks
from runner.batch.keys import Shard, transcript_name, trial_seed
from runner.batch.progress import ProgressSink, ProgressStats
from runner.batch.redact import Redactor, redact_config, secret_env_names, secret_values
from runner.batch.store import (
    TRIALS_FILE,
    LoadedTrials,
    ResultsFolder,
    describe_missing,
    missing_transcripts,
    read_manifest,
    read_trials,
)
from runner.batch.workers import Helper, HelperExited, HelperSetup, JobRef, split_concurrency
from runner.errors import InfraFailure, TaurecError, describe_disk_full, is_disk_full
from runner.ledger import workflow_run_url
from runner.paths import PROJECT_ROOT, SNAPSHOTS_DIR
from runner.protocols import Agent, AgentContext
from runner.records import Efficiency, RunCounts, RunManifest, RunStatus, TrialKey, TrialRecord
from runner.rules import DEFAULT_RULES, RuleSet, get_rules
from runner.simulators.scripted import count_proposals
from runner.tasks import Task
from runner.transcript import ComponentSpec, InfraError, Transcript

P = ParamSpec("P")
T = TypeVar("T")
AgentFactory = Callable[[AgentConfig, AgentContext], Agent]
REPLACED_DIR = ".replaced"
MIN_JOBS_PER_PROCESS = 4


@dataclass
class RunResult:
    """What one submission's part of a batch did, and where it wrote."""

    submission: str
    results_dir: Path
    manifest: RunManifest
    records: list[TrialRecord] = field(repr=False)
    ran: int = 0
    skipped_existing: int = 0
    retried_infra: int = 0
    notes: list[str] = field(default_factory=list)


@dataclass
class _Plan:
    entrant: Entrant
    folder: ResultsFolder
    existing: LoadedTrials
    manifest: RunManifest
    trials: int
    jobs: list[_Job] = field(default_factory=list)
    skipped_existing: int = 0
    retried_infra: int = 0
    ran: int = 0
    notes: list[str] = field(default_factory=list)
    cost_usd: float = 0.0
    budget_exhausted: bool = False


@dataclass
class _Job:
    plan: _Plan
    task: Task
    trial_index: int
    seed: int
    attempt: int


def _now() -> str:
    return dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def _git_revision() -> str | None:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            cwd=PROJECT_ROOT,
            capture_output=True,
            text=True,
            timeout=5,
            check=True,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


def _taurec_version() -> str:
    try:
        return metadata.version("taurec")
    except metadata.PackageNotFoundError:
        return "0+unknown"


def _default_agent_factory() -> AgentFactory:
    from runner.agents import build_agent

    return build_agent


async def _close_model_clients() -> None:
    """Close LiteLLM's cached HTTP clients before the loop ends (only if a model was called)."""
    if "litellm" in sys.modules:
        from runner.llm_client import aclose_litellm_clients

        await aclose_litellm_clients()


def _digest_label(value: str) -> str:
    return value[:12]


def _check_compatible(old: RunManifest, new: RunManifest, folder: Path) -> None:
    """Refuse to add trials to a folder produced from other inputs or settings (unless --fresh)."""
    problems = []
    for name, what in (
        ("catalog_digest", "catalog"),
        ("task_suite_digest", "task suite"),
        ("policy_digest", "policy"),
    ):
        a, b = getattr(old, name), getattr(new, name)
        if a != b:
            problems.append(
                f"the {what} changed ({name} {_digest_label(a)}… → {_digest_label(b)}…)"
            )
    for name in ("rules", "seed", "max_turns", "shard"):
        a, b = getattr(old, name), getattr(new, name)
        if a != b:
            problems.append(f"{name} differs ({a!r} in run.json, {b!r} now)")
    if old.simulator.name != new.simulator.name:
        problems.append(f"simulator differs ({old.simulator.name!r} → {new.simulator.name!r})")
    # The agent's identity must match; its operational settings (api_base, retry, timeouts) may change.
    if old.agent.name != new.agent.name:
        problems.append(f"the agent changed ({old.agent.name!r} → {new.agent.name!r})")
    if problems:
        listed = "; ".join(problems)
        raise TaurecError(
            f"{folder}: existing results were produced differently: {listed}. "
            f"Pass --fresh to move the old folder aside (to {folder.parent / REPLACED_DIR}/) and "
            "start over."
        )


def _move_aside(results_dir: Path, redactor: Redactor) -> Path:
    """--fresh: move an existing results folder to `results/.replaced/<label>-<UTC time>/`, holding
    its lock while it moves, so a folder another run is writing is refused, never moved."""
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%S%fZ")
    target = results_dir.parent / REPLACED_DIR / f"{results_dir.name}-{stamp}"
    target.parent.mkdir(parents=True, exist_ok=True)
    with ResultsFolder(results_dir, redactor).locked():
        shutil.move(str(results_dir), str(target))
    return target


def _check_resumable(
    results_dir: Path, old: RunManifest | None, existing: LoadedTrials
) -> RunManifest:
    """Refuse to resume from records nothing vouches for: no run.json, or a scored record whose
    transcript is gone (its verdict could no longer be checked, and re-running it would let a
    deleted failure be rolled again)."""
    if old is None:
        raise TaurecError(
            f"{results_dir}: trials.jsonl is there but run.json is missing, so nothing says which "
            "settings produced those records; restore run.json, or pass --fresh to move the "
            "folder aside and start over"
        )
    scored = [r.transcript for r in existing.records if r.status == "scored"]
    missing = missing_transcripts(results_dir, scored)
    if missing:
        raise TaurecError(
            f"{results_dir}: {len(missing)} scored trial record(s) point to a transcript that is "
            f"not there: {describe_missing(missing)}; restore the transcripts, or pass --fresh to "
            "move the folder aside and start over"
        )
    return old


def _reward_passed(record: TrialRecord) -> bool:
    return record.status == "scored" and record.score is not None and record.score.reward >= 1.0


class _Batch:
    """The state of one `run_submissions` call while it runs."""

    def __init__(
        self,
        inputs: RunInputs,
        *,
        simulator: str,
        simulator_options: dict[str, Any] | None,
        max_turns: int,
        concurrency: int,
        max_cost: float | None,
        progress: ProgressSink | None,
        agent_factory: AgentFactory,
        redactor: Redactor,
        rules: RuleSet,
        workers: int = 1,
    ) -> None:
        self.inputs = inputs
        self.workers = workers
        self.helper_trials = 0
        self.rules = rules
        self.provenance = inputs.provenance()
        self.simulator = simulator
        self.simulator_options = simulator_options or None
        self.max_turns = max_turns
        self.concurrency = concurrency
        self.max_cost = max_cost
        # Each entry's share of max_cost (set once the entries are known): one entry's costs
        # can never spend what the others were given.
        self.entry_budget: float | None = None
        self.progress = progress
        self.agent_factory = agent_factory
        self.redactor = redactor
        self.stats = ProgressStats()
        self.budget_exhausted = False
        self.interrupted = False
        self.disk_full: str | None = None  # the one-line reason, once a write found no room
        self.io = ThreadPoolExecutor(max_workers=1, thread_name_prefix="taurec-io")

    def log(self, message: str) -> None:
        message = self.redactor.scrub(message)
        if self.progress is not None:
            self.progress.log(message)

    async def _run_job(self, job: _Job) -> None:
        transcript, record = await self.run_trial_of(
            job.plan, job.task, job.trial_index, job.seed, job.attempt
        )
        await self._land(job.plan, transcript.model_dump_json(), record)

    async def _run_remote(self, helper: Helper, job: _Job) -> bool:
        """Run `job` in a helper process and land its result here; False once the helper is gone."""
        plan = job.plan
        ref = JobRef(plan.entrant.slug, job.task.id, job.trial_index, job.seed, job.attempt)
        try:
            transcript_json, record_json = await helper.run(ref)
            record = TrialRecord.model_validate_json(record_json)
            self.helper_trials += 1
        except (HelperExited, RuntimeError) as exc:
            kind = "RunnerError.HelperExited" if isinstance(exc, HelperExited) else "RunnerError"
            self.log(f"trial {job.task.id}#{job.trial_index}: {exc}")
            transcript = self._failed_transcript(
                plan, job.task, job.trial_index, job.seed, kind, str(exc)
            )
            record = self._record(
                plan, job.task, job.trial_index, job.seed, job.attempt, transcript
            )
            transcript_json = transcript.model_dump_json()
        await self._land(plan, transcript_json, record)
        return helper.alive

    async def _land(self, plan: _Plan, transcript_json: str, record: TrialRecord) -> None:
        """Persist one finished trial, then count it (a counted trial is on disk)."""
        # Written in one I/O thread; shielded so a cancel never leaves a record half-done.
        loop = asyncio.get_running_loop()
        write = loop.run_in_executor(self.io, self._persist, plan, transcript_json, record)
        try:
            await asyncio.shield(write)
        except OSError as exc:
            if not is_disk_full(exc):
                raise
            # The trial is not recorded (its partial files were removed); stop scheduling.
            if self.disk_full is None:
                self.disk_full = describe_disk_full(exc)  # the CLI's one line says it at the end
            return
        self._count(plan, record)

    def _failed_transcript(
        self, plan: _Plan, task: Task, trial_index: int, seed: int, kind: str, message: str
    ) -> Transcript:
        return Transcript(
            rules=self.rules.name,
            provenance=self.provenance,
            task_id=task.id,
            trial_index=trial_index,
            seed=seed,
            agent=plan.manifest.agent,
            simulator=plan.manifest.simulator,
            max_turns=self.max_turns,
            stop_reason="infra_error",
            error=InfraError(kind=kind, message=message),
        )

    async def run_trial_of(
        self, plan: _Plan, task: Task, trial_index: int, seed: int, attempt: int
    ) -> tuple[Transcript, TrialRecord]:
        """Run and score one trial (in this process): its transcript and its record."""
        from runner.loop import run_trial
        from runner.simulators import build_simulator
        from runner.tools import build_toolset

        inputs = self.inputs
        catalog = inputs.snapshot.catalog
        try:
            context = AgentContext(
                user_id=task.user_id,
                policy_text=inputs.policy_text,
                seed=seed,
                task=task,
                catalog=catalog,
            )
            entrant = plan.entrant
            if entrant.make_agent is not None:
                agent = entrant.make_agent(context)
            else:
                assert entrant.config is not None
                agent = self.agent_factory(entrant.config, context)
            sim = build_simulator(
                self.simulator,
                task=task,
                catalog=catalog,
                seed=seed,
                options=self.simulator_options,
            )
            toolset = build_toolset(catalog, task, plan.entrant.tools, self.rules)
            transcript = await run_trial(
                task=task,
                catalog=catalog,
                agent=agent,
                simulator=sim,
                toolset=toolset,
                seed=seed,
                trial_index=trial_index,
                max_turns=self.max_turns,
                rules=self.rules,
                provenance=self.provenance,
            )
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            # run_trial records agent/simulator failures itself; anything reaching here failed
            # around it (building the agent, a tool bug). Record it, never drop the trial.
            kind = (
                exc.kind if isinstance(exc, InfraFailure) else f"RunnerError.{type(exc).__name__}"
            )
            message = exc.message if isinstance(exc, InfraFailure) else str(exc)
            if not isinstance(exc, TaurecError):
                self.log(
                    f"trial {task.id}#{trial_index}: unexpected {type(exc).__name__}: {exc}\n"
                    + "".join(traceback.format_exception(exc)[-3:])
                )
            transcript = self._failed_transcript(plan, task, trial_index, seed, kind, message)
        return transcript, self._record(plan, task, trial_index, seed, attempt, transcript)

    def _record(
        self,
        plan: _Plan,
        task: Task,
        trial_index: int,
        seed: int,
        attempt: int,
        transcript: Transcript,
    ) -> TrialRecord:
        from runner.scoring import score_transcript

        key = TrialKey(
            submission=plan.entrant.slug,
            snapshot_sha256=self.inputs.catalog_digest,
            task_id=task.id,
            trial_index=trial_index,
            seed=seed,
        )
        relative = transcript_name(task.id, trial_index, seed, attempt)
        infra = transcript.stop_reason == "infra_error"
        if infra and transcript.error is None:
            transcript.error = InfraError(kind="Unknown", message="trial ended as infra_error")
        score = None
        if not infra:
            try:
                score = score_transcript(task, transcript, self.inputs.snapshot.catalog, self.rules)
            except Exception as exc:  # a scorer bug must not lose the trial: record it, retry later
                self.log(f"trial {task.id}#{trial_index}: scoring failed: {exc!r}")
                infra = True
                transcript.stop_reason = "infra_error"
                transcript.error = InfraError(
                    kind=f"RunnerError.{type(exc).__name__}", message=str(exc)
                )
        cost = round(sum(u.cost_usd for u in transcript.usage.values()), 10)
        error = None
        if transcript.error is not None and (infra or transcript.stop_reason == "agent_error"):
            error = InfraError(
                kind=transcript.error.kind, message=self.redactor.scrub(transcript.error.message)
            )
        return TrialRecord(
            rules=self.rules.name,
            provenance=self.provenance,
            key=key,
            status="infra_error" if infra else "scored",
            error=error,
            complexity=task.complexity,
            reveal_difficulty=task.reveal_difficulty,
            no_valid_recommendation=task.no_valid_recommendation,
            stop_reason=transcript.stop_reason,
            score=score,
            efficiency=Efficiency(
                turns=transcript.turns,
                tool_calls=len(transcript.tool_calls),
                proposals=count_proposals(transcript, self.inputs.snapshot.catalog),
                step_latencies_s=list(transcript.timing.step_latencies_s),
                wall_time_s=transcript.timing.wall_time_s,
            ),
            usage=dict(transcript.usage),
            cost_usd=cost,
            leak_audit_clean=None if transcript.leak_audit is None else transcript.leak_audit.clean,
            transcript=relative,
        )

    @staticmethod
    def _persist(plan: _Plan, transcript_json: str, record: TrialRecord) -> None:
        plan.folder.write_transcript(record.transcript, transcript_json)
        plan.folder.append_record(record)

    def _count(self, plan: _Plan, record: TrialRecord) -> None:
        plan.ran += 1
        s = self.stats
        s.done += 1
        s.cost_usd = round(s.cost_usd + record.cost_usd, 10)
        plan.cost_usd = round(plan.cost_usd + record.cost_usd, 10)
        if self.entry_budget is not None and plan.cost_usd >= self.entry_budget:
            plan.budget_exhausted = True
        if record.status == "scored":
            s.scored += 1
            s.passed += int(_reward_passed(record))
        else:
            s.infra_errors += 1
        if self.max_cost is not None and s.cost_usd >= self.max_cost:
            self.budget_exhausted = True
        if self.progress is not None:
            self.progress.update(s)

    def _helper_setup(self, jobs: list[_Job]) -> HelperSetup:
        plans = list({id(j.plan): j.plan for j in jobs}.values())
        return HelperSetup(
            inputs=self.inputs,
            entrants=[p.entrant for p in plans],
            manifests={p.entrant.slug: p.manifest.model_dump_json() for p in plans},
            trials={p.entrant.slug: p.trials for p in plans},
            simulator=self.simulator,
            simulator_options=self.simulator_options,
            max_turns=self.max_turns,
            rules=self.rules.name,
        )

    async def run(self, jobs: list[_Job]) -> None:
        if not jobs:
            return
        queue: asyncio.Queue[_Job] = asyncio.Queue()
        for job in jobs:
            queue.put_nowait(job)

        def next_job() -> _Job | None:
            while True:
                if self.max_cost is not None and self.stats.cost_usd >= self.max_cost:
                    self.budget_exhausted = True
                if self.budget_exhausted or self.disk_full is not None:
                    return None
                try:
                    job = queue.get_nowait()
                except asyncio.QueueEmpty:
                    return None
                if not job.plan.budget_exhausted:
                    return job  # (an entry that spent its share is skipped; the others go on)

        async def worker() -> None:
            while (job := next_job()) is not None:
                await self._run_job(job)

        async def remote(helper: Helper) -> None:
            if not await helper.ready():
                return
            while (job := next_job()) is not None:
                if not await self._run_remote(helper, job):
                    return

        loop = asyncio.get_running_loop()
        slots = min(self.concurrency, len(jobs))
        # A helper pays its start-up (a Python process, imports, the inputs) only with a few
        # trials to run: at least MIN_JOBS_PER_PROCESS per process.
        processes = max(1, min(self.workers, slots, len(jobs) // MIN_JOBS_PER_PROCESS))
        shares = split_concurrency(slots, processes)
        helpers: list[Helper] = []
        if processes > 1:
            setup = self._helper_setup(jobs)
            helpers = [Helper(setup, i, log=self.log) for i in range(1, processes)]
            for helper in helpers:
                helper.start_reading(loop)
        workers = [asyncio.create_task(worker()) for _ in range(shares[0])]
        for helper, share in zip(helpers, shares[1:], strict=True):
            workers += [asyncio.create_task(remote(helper)) for _ in range(share)]
        handled = threading.current_thread() is threading.main_thread()

        def on_sigint() -> None:
            self.interrupted = True
            for w in workers:
                w.cancel()

        if handled:
            loop.add_signal_handler(signal.SIGINT, on_sigint)
        try:
            done, pending = await asyncio.wait(workers, return_when=asyncio.FIRST_EXCEPTION)
            failures = [t.exception() for t in done if not t.cancelled() and t.exception()]
            for t in pending:
                t.cancel()
            if pending:
                await asyncio.wait(pending)
        finally:
            if handled:
                loop.remove_signal_handler(signal.SIGINT)
            if helpers:
                await asyncio.gather(*(asyncio.to_thread(h.stop) for h in helpers))
                self.log(
                    f"workers: {processes} processes; {self.helper_trials} of "
                    f"{self.stats.done} trials ran in helper processes"
                )
        if failures:
            error = failures[0]
            assert error is not None
            raise error


def helper_batch(setup: HelperSetup, progress: ProgressSink) -> tuple[_Batch, dict[str, _Plan]]:
    """The batch state of a helper process (runs trials only; the parent writes and counts)."""
    redactor = _redactor(setup.entrants, setup.simulator_options)
    batch = _Batch(
        setup.inputs,
        simulator=setup.simulator,
        simulator_options=setup.simulator_options,
        max_turns=setup.max_turns,
        concurrency=1,
        max_cost=None,
        progress=progress,
        agent_factory=_default_agent_factory(),
        redactor=redactor,
        rules=get_rules(setup.rules),
    )
    plans = {}
    for entrant in setup.entrants:
        folder = ResultsFolder(entrant.results_root, redactor)  # never written by a helper
        plans[entrant.slug] = _Plan(
            entrant=entrant,
            folder=folder,
            existing=LoadedTrials(path=entrant.results_root),
            manifest=RunManifest.model_validate_json(setup.manifests[entrant.slug]),
            trials=setup.trials[entrant.slug],
        )
    return batch, plans


def _redactor(entrants: Sequence[Entrant], simulator_options: dict[str, Any] | None) -> Redactor:
    """Scrubs every secret the entries and the simulator name (variables and literal values)."""
    env_names: set[str] = set()
    literal: dict[str, str] = {}
    for entrant in entrants:
        config = entrant.raw_config
        env_names |= secret_env_names(config)
        literal |= secret_values(config)
    env_names |= secret_env_names(simulator_options or {})
    literal |= secret_values(simulator_options or {}, "simulator")
    return Redactor.from_environment(env_names, extra_secrets=literal)


def _plan_entrant(
    entrant: Entrant,
    inputs: RunInputs,
    *,
    out: Path | None,
    trials: int | None,
    shard: Shard | None,
    simulator: str,
    simulator_options: dict[str, Any] | None,
    seed: int,
    max_turns: int,
    fresh: bool,
    max_cost: float | None,
    redactor: Redactor,
    rules: RuleSet,
) -> _Plan:
    root = entrant.results_root if out is None else out / entrant.slug / "results"
    results_dir = root / inputs.snapshot.label
    k = trials if trials is not None else entrant.trials
    if k < 1:
        raise TaurecError(f"trials must be at least 1 (got {k})")
    from runner.tools import build_toolset

    manifest = RunManifest(
        rules=rules.name,
        status="running",
        taurec_version=_taurec_version(),
        git_revision=_git_revision(),
        submission=entrant.slug,
        snapshot=inputs.snapshot.label,
        agent=ComponentSpec(name=entrant.agent, args=redact_config(entrant.agent_args)),
        simulator=ComponentSpec(name=simulator, args=redact_config(simulator_options or {})),
        submission_config=redact_config(entrant.raw_config),
        tools=list(
            build_toolset(inputs.snapshot.catalog, inputs.tasks[0], entrant.tools, rules).names
        ),
        task_suite_digest=inputs.task_suite_digest,
        policy_digest=inputs.policy_digest,
        catalog_digest=inputs.catalog_digest,
        trials=k,
        max_turns=max_turns,
        seed=seed,
        shard=None if shard is None else str(shard),
        started_at=_now(),
        max_cost_usd=max_cost,
        task_ids=[t.id for t in inputs.tasks],
        retired_tasks=dict(inputs.retired),
        verified_by=workflow_run_url(),
    )
    notes: list[str] = []
    old = read_manifest(results_dir)
    existing = read_trials(results_dir)
    if old is not None or (results_dir / TRIALS_FILE).exists():
        if fresh:
            moved = _move_aside(results_dir, redactor)
            notes.append(f"--fresh: moved the previous results to {moved}")
            existing = read_trials(results_dir)
        else:
            old = _check_resumable(results_dir, old, existing)
            _check_compatible(old, manifest, results_dir)
    folder = ResultsFolder(results_dir, redactor)
    plan = _Plan(
        entrant=entrant,
        folder=folder,
        existing=existing,
        manifest=manifest,
        trials=k,
        notes=notes + existing.notes(),
    )
    done = existing.by_key()
    for trial_index in range(k):
        for task in inputs.tasks:
            if shard is not None and not shard.owns(task.id, trial_index):
                continue
            s = trial_seed(seed, task.id, trial_index)
            key = (entrant.slug, inputs.catalog_digest, task.id, trial_index, s)
            prior = done.get(key)
            if prior is not None and prior.status == "scored":
                plan.skipped_existing += 1
                continue
            attempt = 1
            if prior is not None:
                plan.retried_infra += 1
                attempt = _next_attempt(prior.transcript)
            plan.jobs.append(_Job(plan, task, trial_index, s, attempt))
    return plan


def _next_attempt(previous: str) -> int:
    """The attempt number after the one a transcript name records (`...attemptN.json.gz`)."""
    stem = previous.removesuffix(".json.gz")
    head, _, tail = stem.rpartition(".attempt")
    return int(tail) + 1 if head and tail.isdigit() else 2


def _final_manifest(
    plan: _Plan, status: RunStatus, inputs: RunInputs
) -> tuple[RunManifest, list[TrialRecord]]:
    loaded = read_trials(plan.folder.path)
    in_scope = {
        (plan.entrant.slug, inputs.catalog_digest, j_task, j_index, j_seed)
        for j_task, j_index, j_seed in _scope(plan, inputs)
    }
    records = [r for r in loaded.records if r.key.as_tuple() in in_scope]
    counts = RunCounts(
        planned=len(in_scope),
        scored=sum(r.status == "scored" for r in records),
        infra_error=sum(r.status == "infra_error" for r in records),
        skipped_existing=plan.skipped_existing,
    )
    manifest = plan.manifest.model_copy(
        update={
            "status": status,
            "finished_at": _now(),
            "counts": counts,
            "cost_usd": round(sum(r.cost_usd for r in records), 10),
        }
    )
    return manifest, records


def _scope(plan: _Plan, inputs: RunInputs) -> list[tuple[str, int, int]]:
    shard = Shard.parse(plan.manifest.shard) if plan.manifest.shard else None
    return [
        (task.id, i, trial_seed(plan.manifest.seed, task.id, i))
        for i in range(plan.trials)
        for task in inputs.tasks
        if shard is None or shard.owns(task.id, i)
    ]


async def run_submissions_async(
    submission_dirs: Sequence[Path | str | Entrant],
    *,
    snapshot: str | Path | None = None,
    tasks_dir: str | Path | None = None,
    trials: int | None = None,
    concurrency: int = 16,
    shard: Shard | str | None = None,
    max_cost: float | None = None,
    simulator: str = "scripted",
    simulator_options: dict[str, Any] | None = None,
    seed: int = 0,
    fresh: bool = False,
    max_turns: int = 20,
    out: Path | str | None = None,
    progress: ProgressSink | None = None,
    agent_factory: AgentFactory | None = None,
    snapshots_dir: Path = SNAPSHOTS_DIR,
    rules: str = DEFAULT_RULES,
    task_ids: Sequence[str] | None = None,
    preflight: bool = False,
    min_trials: int | None = None,
    workers: int = 1,
) -> list[RunResult]:
    """The async form of `run_submissions` (for callers already inside an event loop)."""
    rule_set = get_rules(rules)
    if concurrency < 1:
        raise TaurecError(f"concurrency must be at least 1 (got {concurrency})")
    if max_cost is not None and max_cost < 0:
        raise TaurecError(f"max cost must be >= 0 (got {max_cost})")
    if not submission_dirs:
        raise TaurecError("no submission folder given")
    shard_spec = Shard.parse(shard) if isinstance(shard, str) else shard
    inputs = load_inputs(snapshot, tasks_dir, snapshots_dir=snapshots_dir)
    if task_ids is not None:
        inputs = select_tasks(inputs, task_ids)
    entrants = [d if isinstance(d, Entrant) else Entrant.from_folder(d) for d in submission_dirs]
    slugs = [e.slug for e in entrants]
    if min_trials is not None:
        few = [(e.slug, trials or e.trials) for e in entrants if (trials or e.trials) < min_trials]
        if few:
            listed = ", ".join(f"{slug} ({k})" for slug, k in few)
            raise TaurecError(
                f"a board run needs at least {min_trials} trials per task (the board's "
                f"`trials`); too few: {listed}. Leave out --for-board for a trial run"
            )
    if len(set(slugs)) != len(slugs):
        raise TaurecError(f"the same submission is listed twice: {sorted(slugs)}")
    redactor = _redactor(entrants, simulator_options)
    if workers < 1:
        raise TaurecError(f"workers must be at least 1 (got {workers})")
    in_process_only = agent_factory is not None or any(e.make_agent is not None for e in entrants)
    if workers > 1 and in_process_only and progress is not None:
        progress.log(
            f"workers: running in 1 process, not {workers}: a Python agent (factory) cannot be "
            "sent to helper processes"
        )
    batch = _Batch(
        inputs,
        simulator=simulator,
        simulator_options=simulator_options,
        max_turns=max_turns,
        concurrency=concurrency,
        max_cost=max_cost,
        progress=progress,
        agent_factory=agent_factory or _default_agent_factory(),
        redactor=redactor,
        rules=rule_set,
        workers=1 if in_process_only else workers,
    )
    if preflight:
        from runner.batch.preflight import PreflightError, preflight_entries

        first = inputs.tasks[0]
        context = AgentContext(
            user_id=first.user_id,
            policy_text=inputs.policy_text,
            seed=seed,
            task=first,
            catalog=inputs.snapshot.catalog,
        )
        try:
            failures = await preflight_entries(
                [(e.slug, e.config) for e in entrants if e.config is not None],
                context,
                batch.agent_factory,
            )
        finally:
            await _close_model_clients()
        if failures:
            raise PreflightError(failures)
    # Build the search index once, before any trial, so trials share it.
    from runner.search import search_index

    search_index(inputs.snapshot.catalog)
    plans = [
        _plan_entrant(
            entrant,
            inputs,
            out=None if out is None else Path(out),
            trials=trials,
            shard=shard_spec,
            simulator=simulator,
            simulator_options=simulator_options,
            seed=seed,
            max_turns=max_turns,
            fresh=fresh,
            max_cost=max_cost,
            redactor=redactor,
            rules=rule_set,
        )
        for entrant in entrants
    ]
    # Interleave: trial 0 of every task of every submission first, then trial 1, and so on.
    jobs: list[_Job] = []
    longest = max((len(p.jobs) for p in plans), default=0)
    for i in range(longest):
        jobs.extend(p.jobs[i] for p in plans if i < len(p.jobs))
    batch.stats.total = len(jobs)
    if max_cost is not None:
        batch.entry_budget = max_cost / len(plans)
    batch.stats.skipped_existing = sum(p.skipped_existing for p in plans)

    results: list[RunResult] = []
    with contextlib.ExitStack() as stack:
        for plan in plans:
            stack.enter_context(plan.folder.locked())
            plan.folder.repair_tail(plan.existing)
            plan.folder.write_manifest(plan.manifest)
        for plan in plans:
            for note in plan.notes:
                batch.log(note)
        if progress is not None:
            progress.start(batch.stats)
        try:
            await batch.run(jobs)
        finally:
            # Let a write already handed to the I/O thread land before the files are closed.
            batch.io.shutdown(wait=True)
            await _close_model_clients()
            if progress is not None:
                progress.finish(batch.stats)
            for plan in plans:
                remaining = plan.ran < len(plan.jobs)
                status: RunStatus = "completed"
                if batch.disk_full is not None and remaining:
                    status = "disk_full"
                elif batch.interrupted and remaining:
                    status = "interrupted"
                elif (batch.budget_exhausted or plan.budget_exhausted) and remaining:
                    status = "budget_exhausted"
                elif remaining:
                    status = "interrupted"
                manifest, records = _final_manifest(plan, status, inputs)
                if status == "disk_full":
                    manifest.error = batch.disk_full
                plan.folder.write_manifest(manifest)
                results.append(
                    RunResult(
                        submission=plan.entrant.slug,
                        results_dir=plan.folder.path,
                        manifest=manifest,
                        records=records,
                        ran=plan.ran,
                        skipped_existing=plan.skipped_existing,
                        retried_infra=plan.retried_infra,
                        notes=plan.notes,
                    )
                )
    return results


def _blocking(function: Callable[P, Coroutine[Any, Any, T]], doc: str) -> Callable[P, T]:
    """The same function with the same parameters, run to completion in a new event loop."""

    @functools.wraps(function)
    def blocking(*args: P.args, **kwargs: P.kwargs) -> T:
        return asyncio.run(function(*args, **kwargs))

    blocking.__name__ = blocking.__qualname__ = function.__name__.removesuffix("_async")
    blocking.__doc__ = doc
    return blocking


run_submissions = _blocking(
    run_submissions_async,
    """Run every task × trial of each submission against one snapshot, `concurrency` at a time.

Results go to `<submission_dir>/results/<snapshot-label>/` (or `<out>/<slug>/results/<label>/`).
Every trial runs and is scored under the named rule set (`v2` unless `rules="v1"`).
Resume is the default: recorded keys are never re-run; `infra_error` keys are run again and the
new record supersedes the old one. `fresh` moves an existing folder to `results/.replaced/`.
Ctrl-C cancels running trials and returns with status `interrupted`; `max_cost` is split
evenly over the submissions, and each stops scheduling once its share is spent (status
`budget_exhausted`). `workers` > 1 spreads the trials over that many processes (this one and
helpers, see `runner.batch.workers`): one results folder, one progress, the same scores as
`workers=1`.
""",
)
