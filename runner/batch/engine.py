"""Run many trials at once: every submission × task × trial under one concurrency bound, resumable and honest."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import functools
import shutil
import signal
import subprocess
import threading
import time
import traceback
from collections.abc import Callable, Coroutine, Iterator, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from runner.batch.archive import describe_missing, missing_transcripts
from runner.batch.entrant import Entrant
from runner.batch.inputs import RunInputs, load_inputs, select_tasks
from runner.batch.keys import Shard, trial_seed
from runner.batch.progress import ProgressSink, ProgressStats
from runner.batch.store import (
    ARCHIVE,
    TRIALS_FILE,
    GroupCommitter,
    KeyTuple,
    ResultsFolder,
    TrialsScan,
    check_second_record,
    read_manifest,
    read_trials,
    record_at_line,
)
from runner.batch.tally import RunTally, TrialOutcome
from runner.batch.workers import (
    Helper,
    HelperExited,
    HelperGone,
    HelperSetup,
    JobRef,
    split_concurrency,
)
from runner.core.domain import DEFAULT_STRICTNESS, STRICTNESS_LEVELS, DomainTask, Strictness
from runner.core.errors import TaurecError, describe_disk_full, is_disk_full
from runner.core.metrics import trial_passed
from runner.core.paths import PROJECT_ROOT
from runner.core.protocols import Agent, AgentContext
from runner.core.records import (
    Efficiency,
    RunCounts,
    RunManifest,
    RunStatus,
    TranscriptSpan,
    TrialKey,
    TrialRecord,
    simulator_error_counts,
)
from runner.core.redact import Redactor, redact_config, secret_env_names, secret_values
from runner.core.rules import DEFAULT_RULES, RuleSet, get_rules
from runner.core.startup import resume_collector
from runner.core.transcript import ComponentSpec, InfraError, Transcript
from runner.models.llm_client import aclose_clients, prepare_litellm
from runner.play.agent_config import AgentConfig, LiteLLMAgentConfig
from runner.play.attribution import AGENT_FAILURE_STOPS, Attribution, attribute, infra_fault
from runner.play.loop import DEFAULT_STEP_TIMEOUT_S
from runner.publish.ledger import workflow_run_url

P = ParamSpec("P")
T = TypeVar("T")
AgentFactory = Callable[[AgentConfig, AgentContext], Agent]
REPLACED_DIR = ".replaced"
MIN_JOBS_PER_PROCESS = 4
# A run that calls models (direct or LiteLLM) sends trials to its helpers only once its event
# loop's thread wants this share of a core (time running or ready to run, over the last
# SATURATION_WINDOW_S of wall time): until then one process serves the whole concurrency, and the
# parked helpers (forked, LiteLLM shared) cost a few MB each. A run without model calls (builtin
# agents, the scripted user) is CPU-bound: its helpers take trials at once.
SATURATED_CORE_SHARE = 0.9
SATURATION_WINDOW_S = 2.0


def _loop_demand_s() -> float:
    """Seconds this thread has run or waited to run on a CPU (Linux schedstat: demand, which a
    busy machine cannot hide by giving the thread less of a core); its CPU time elsewhere."""
    try:
        running, waiting = Path("/proc/thread-self/schedstat").read_text().split()[:2]
    except (OSError, ValueError):
        return time.thread_time()
    return (int(running) + int(waiting)) / 1e9


WRITE_BACKLOG = 64  # finished trials that may wait for the commit thread before workers pause


@dataclass(frozen=True)
class _Scope:
    """The (task, trial) keys one results folder is run for: its tasks × trials, its shard."""

    submission: str
    catalog_digest: str
    task_ids: tuple[str, ...]
    trials: int
    seed: int
    shard: Shard | None

    def trial_keys(self) -> Iterator[tuple[str, int, int]]:
        """(task id, trial index, seed) in run order: trial 0 of every task, then trial 1, …"""
        for index in range(self.trials):
            for task_id in self.task_ids:
                if self.shard is None or self.shard.owns(task_id, index):
                    yield task_id, index, trial_seed(self.seed, task_id, index)

    def size(self) -> int:
        return sum(1 for _ in self.trial_keys())

    def holds(self, key: TrialKey) -> bool:
        return (
            key.submission == self.submission
            and key.snapshot_sha256 == self.catalog_digest
            and 0 <= key.trial_index < self.trials
            and key.task_id in self.task_ids
            and (self.shard is None or self.shard.owns(key.task_id, key.trial_index))
            and key.seed == trial_seed(self.seed, key.task_id, key.trial_index)
        )


@dataclass
class RunResult:
    """What one submission's part of a batch did, and where it wrote.

    `tally` holds the counters of every in-scope trial; `records` reads them from disk on each
    access (a run keeps no record in memory)."""

    submission: str
    results_dir: Path
    manifest: RunManifest
    tally: RunTally = field(repr=False)
    scope: _Scope = field(repr=False)
    ran: int = 0
    skipped_existing: int = 0
    retried_infra: int = 0
    notes: list[str] = field(default_factory=list)

    @property
    def records(self) -> list[TrialRecord]:
        """The in-scope trial records now on disk (last record per key), read afresh."""
        return [r for r in read_trials(self.results_dir).records if self.scope.holds(r.key)]


@dataclass
class _Plan:
    entrant: Entrant
    folder: ResultsFolder
    manifest: RunManifest
    scope: _Scope
    tasks: dict[str, DomainTask]
    tally: RunTally
    done: set[tuple[str, int]] = field(default_factory=set)
    infra_priors: dict[tuple[str, int], TrialOutcome] = field(default_factory=dict)
    tail_offset: int | None = None
    archive_end: int = 0
    jobs: int = 0
    skipped_existing: int = 0
    retried_infra: int = 0
    ran: int = 0
    notes: list[str] = field(default_factory=list)
    spent_usd: float = 0.0  # finished trials' cost, committed or not (the entry's budget)
    budget_exhausted: bool = False

    def iter_jobs(self) -> Iterator[_Job]:
        """The trials still to run, generated as they are needed (never all planned up front)."""
        for task_id, index, seed in self.scope.trial_keys():
            if (task_id, index) not in self.done:
                yield _Job(self, self.tasks[task_id], index, seed)


@dataclass
class _Job:
    plan: _Plan
    task: DomainTask
    trial_index: int
    seed: int


def _interleave(plans: Sequence[_Plan]) -> Iterator[_Job]:
    """Job 0 of every submission, then job 1 of every submission, and so on."""
    active = [plan.iter_jobs() for plan in plans]
    while active:
        still = []
        for jobs in active:
            job = next(jobs, None)
            if job is not None:
                still.append(jobs)
                yield job
        active = still


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
    for name in ("rules", "domain", "strictness", "seed", "max_turns", "shard"):
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


def _check_resumable(results_dir: Path, old: RunManifest | None) -> RunManifest:
    """Refuse to resume from records nothing vouches for: no run.json (scored records whose
    transcript is gone are refused while the records are read, see `_read_prior`)."""
    if old is None:
        raise TaurecError(
            f"{results_dir}: trials.jsonl is there but run.json is missing, so nothing says which "
            "settings produced those records; restore run.json, or pass --fresh to move the "
            "folder aside and start over"
        )
    return old


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
        strictness: Strictness = DEFAULT_STRICTNESS,
    ) -> None:
        self.inputs = inputs
        self.strictness: Strictness = strictness
        self.workers = workers
        self.helper_trials = 0
        self.on_demand_dispatched = False  # a LiteLLM run's helpers were let in (saturation)
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
        self.spent_usd = 0.0  # cost of every finished trial, acknowledged or not (the budget)
        self.committer = GroupCommitter(max_batch=WRITE_BACKLOG)
        self.write_failure: BaseException | None = None
        self._unacknowledged: set[asyncio.Future[TrialRecord]] = set()
        self._workers: list[asyncio.Task[None]] = []

    def log(self, message: str) -> None:
        message = self.redactor.scrub(message)
        if self.progress is not None:
            self.progress.log(message)

    async def _run_job(self, job: _Job) -> None:
        transcript, record = await self.run_trial_of(job.plan, job.task, job.trial_index, job.seed)
        await self._land(job, transcript, record)

    async def _run_remote(self, helper: Helper, job: _Job) -> bool:
        """Run `job` in a helper process and land its result here; False once the helper is gone."""
        plan = job.plan
        ref = JobRef(plan.entrant.slug, job.task.id, job.trial_index, job.seed)
        transcript: Transcript | str
        try:
            transcript, record_json = await helper.run(ref)
            record = TrialRecord.model_validate_json(record_json)
            self.helper_trials += 1
        except HelperGone:
            # Never sent (the helper died before its reader told this loop): not one of its
            # trials in flight, so not an infra error. It runs here.
            await self._run_job(job)
            return False
        except (HelperExited, RuntimeError) as exc:
            kind = "RunnerError.HelperExited" if isinstance(exc, HelperExited) else "RunnerError"
            self.log(f"trial {job.task.id}#{job.trial_index}: {exc}")
            # Our process died (helpers run configured agents only, never Python code): ours.
            verdict = infra_fault(kind, str(exc))
            transcript = self._failed_transcript(plan, job.task, job.trial_index, job.seed, verdict)
            record = self._record(plan, job.task, job.trial_index, job.seed, transcript)
        await self._land(job, transcript, record)
        return helper.alive

    async def _land(self, job: _Job, transcript: Transcript | str, record: TrialRecord) -> None:
        """Hand a finished trial to the group-commit thread; it is counted (acknowledged in the
        progress output) only once its record is on disk. Waits only while too many trials
        wait for the writer."""
        self.spent_usd += record.cost_usd
        job.plan.spent_usd += record.cost_usd
        if self.entry_budget is not None and job.plan.spent_usd >= self.entry_budget:
            job.plan.budget_exhausted = True
        written: Future[TrialRecord] = self.committer.submit(job.plan.folder, transcript, record)
        done = asyncio.wrap_future(written)
        self._unacknowledged.add(done)
        done.add_done_callback(functools.partial(self._acknowledge, job))
        while len(self._unacknowledged) >= WRITE_BACKLOG:
            await asyncio.wait(set(self._unacknowledged), return_when=asyncio.FIRST_COMPLETED)

    def _acknowledge(self, job: _Job, done: asyncio.Future[TrialRecord]) -> None:
        self._unacknowledged.discard(done)
        failure = done.exception()
        if failure is None:
            self._count(job, done.result())
        elif is_disk_full(failure):
            # Not recorded (the partial bytes were cut back): stop scheduling, say why once.
            if self.disk_full is None:
                assert isinstance(failure, OSError)
                self.disk_full = describe_disk_full(failure)  # the CLI's one line says it
        elif self.write_failure is None:
            self.write_failure = failure
            for worker in self._workers:
                worker.cancel()

    async def drain(self) -> None:
        """Commit every finished trial still queued, and acknowledge it."""
        await asyncio.get_running_loop().run_in_executor(None, self.committer.close)
        if self._unacknowledged:
            await asyncio.wait(set(self._unacknowledged))

    def _failed_transcript(
        self, plan: _Plan, task: DomainTask, trial_index: int, seed: int, verdict: Attribution
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
            stop_reason=verdict.stop_reason,
            error=verdict.error,
        )

    async def run_trial_of(
        self, plan: _Plan, task: DomainTask, trial_index: int, seed: int
    ) -> tuple[Transcript, TrialRecord]:
        """Run and score one trial (in this process): its transcript and its record."""
        from runner.play.named_trial import play

        inputs = self.inputs
        domain = inputs.domain
        catalog = inputs.snapshot.catalog
        entrant = plan.entrant
        from runner.agents import agent_context

        # What a submission sees; only an oracle-class built-in also gets the task and catalog.
        context = agent_context(
            entrant.config,
            domain=domain.name,
            user_id=task.user_id,
            policy_text=inputs.policy_text,
            seed=seed,
            task=task,
            catalog=catalog,
            entry=entrant.slug,
        )
        try:
            if entrant.make_agent is not None:
                agent = entrant.make_agent(context)
            else:
                assert entrant.config is not None
                agent = self.agent_factory(entrant.config, context)
        except asyncio.CancelledError:
            raise
        except (Exception, SystemExit) as exc:
            # A Python factory is the submitter's code; building a configured agent is ours.
            python = entrant.make_agent is not None
            verdict = attribute(exc, source="agent_factory" if python else "runner")
            transcript = self._failed_transcript(plan, task, trial_index, seed, verdict)
            return transcript, self._record(plan, task, trial_index, seed, transcript)
        try:
            transcript = await play(
                domain,
                task,
                catalog,
                agent,
                rules=self.rules,
                seed=seed,
                simulator=self.simulator,
                simulator_options=self.simulator_options,
                tools=plan.entrant.tools,
                trial_index=trial_index,
                max_turns=self.max_turns,
                provenance=self.provenance,
                step_timeout_s=plan.manifest.step_timeout_s,
            )
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            # run_trial attributes agent/simulator failures itself; anything reaching here failed
            # around it (building the simulator or the tools): ours. Recorded, never dropped.
            if not isinstance(exc, TaurecError):
                self.log(
                    f"trial {task.id}#{trial_index}: unexpected {type(exc).__name__}: {exc}\n"
                    + "".join(traceback.format_exception(exc)[-3:])
                )
            verdict = attribute(exc, source="runner")
            transcript = self._failed_transcript(plan, task, trial_index, seed, verdict)
        return transcript, self._record(plan, task, trial_index, seed, transcript)

    def _record(
        self, plan: _Plan, task: DomainTask, trial_index: int, seed: int, transcript: Transcript
    ) -> TrialRecord:
        domain = self.inputs.domain
        key = TrialKey(
            submission=plan.entrant.slug,
            snapshot_sha256=self.inputs.catalog_digest,
            task_id=task.id,
            trial_index=trial_index,
            seed=seed,
        )
        infra = transcript.stop_reason == "infra_error"
        if infra and transcript.error is None:
            transcript.error = infra_fault("Unknown", "trial ended as infra_error").error
        score = None
        if not infra:
            try:
                score = domain.score(
                    task, transcript, self.inputs.snapshot.catalog, self.rules, self.strictness
                )
            except Exception as exc:  # a scorer bug must not lose the trial: record it, retry later
                self.log(f"trial {task.id}#{trial_index}: scoring failed: {exc!r}")
                infra = True
                verdict = attribute(exc, source="runner")
                transcript.stop_reason = verdict.stop_reason
                transcript.error = verdict.error
        cost = round(sum(u.cost_usd for u in transcript.usage.values()), 10)
        error = None
        if transcript.error is not None and (
            infra or transcript.stop_reason in AGENT_FAILURE_STOPS
        ):
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
                proposals=domain.count_proposals(transcript, self.inputs.snapshot.catalog),
                step_latencies_s=list(transcript.timing.step_latencies_s),
                wall_time_s=transcript.timing.wall_time_s,
            ),
            usage=dict(transcript.usage),
            cost_usd=cost,
            leak_audit_clean=None if transcript.leak_audit is None else transcript.leak_audit.clean,
            simulator_errors=simulator_error_counts(transcript),
            transcript=ARCHIVE,  # the committer adds the member's span
        )

    def _count(self, job: _Job, record: TrialRecord) -> None:
        plan = job.plan
        plan.ran += 1
        plan.tally.add(TrialOutcome.of(record))
        plan.infra_priors.pop((job.task.id, job.trial_index), None)  # superseded now
        s = self.stats
        s.done += 1
        s.cost_usd = round(s.cost_usd + record.cost_usd, 10)
        if record.status == "scored":
            s.scored += 1
            s.passed += int(trial_passed(record))
        else:
            s.infra_errors += 1
        if self.progress is not None:
            self.progress.update(s)

    def _model_endpoints(self, plans: Sequence[_Plan]) -> list[tuple[str, str | None]]:
        """The (model, api_base) of every model the run's agents and user simulator call."""
        found = [
            (p.entrant.config.model, p.entrant.config.api_base)
            for p in plans
            if isinstance(p.entrant.config, LiteLLMAgentConfig)
        ]
        if self.simulator.startswith("litellm:"):
            options = self.simulator_options or {}
            model = self.simulator.split(":", 1)[1]
            api_base = options.get("api_base")
            for role in ("reader", "writer"):
                if options.get(role, "model") == "model":
                    found.append((str(options.get(f"{role}_model") or model), api_base))
        return found

    def _helper_setup(self, plans: Sequence[_Plan]) -> HelperSetup:
        return HelperSetup(
            inputs=self.inputs,
            entrants=[p.entrant for p in plans],
            manifests={p.entrant.slug: p.manifest.model_dump_json() for p in plans},
            trials={p.entrant.slug: p.scope.trials for p in plans},
            simulator=self.simulator,
            simulator_options=self.simulator_options,
            max_turns=self.max_turns,
            rules=self.rules.name,
            make_batch=helper_batch,
            strictness=self.strictness,
        )

    async def run(self, plans: Sequence[_Plan], total: int) -> None:
        """Run `total` trials (the plans' jobs, generated as they are taken)."""
        if not total:
            return

        def next_job() -> _Job | None:
            while True:
                if self.max_cost is not None and self.spent_usd >= self.max_cost:
                    self.budget_exhausted = True
                if self.budget_exhausted or self.disk_full is not None:
                    return None
                job = next(jobs, None)
                if job is None or not job.plan.budget_exhausted:
                    return job  # (an entry that spent its share is skipped; the others go on)

        local_limit = [0]  # how many of this process's workers may take another job
        running_local = [0]
        # Set when helpers may take jobs: at once, or (LiteLLM runs) once this process saturates.
        dispatch = asyncio.Event()

        async def worker() -> None:
            running_local[0] += 1
            try:
                while running_local[0] <= local_limit[0] and (job := next_job()) is not None:
                    await self._run_job(job)
            finally:
                running_local[0] -= 1
            dispatch.set()  # no job left (helpers will find none) or they were let in already

        async def remote(helper: Helper) -> None:
            """One of a helper's slots; once the helper is gone (or never started), a slot of
            this process: the batch keeps its concurrency, and it always has a worker here while
            jobs are left, whichever processes die."""
            if await helper.ready():
                await dispatch.wait()
                while helper.alive and (job := next_job()) is not None:
                    if not await self._run_remote(helper, job):
                        break
            await dispatch.wait()  # (before, this process already runs the whole concurrency)
            local_limit[0] += 1
            await worker()

        async def watch() -> None:
            """Let the helpers in once this process's event loop saturates a core (LiteLLM runs)."""
            samples = [(time.perf_counter(), _loop_demand_s())]
            while not dispatch.is_set():
                await asyncio.sleep(SATURATION_WINDOW_S / 4)
                samples.append((time.perf_counter(), _loop_demand_s()))
                wall0, cpu0 = samples[0]
                wall1, cpu1 = samples[-1]
                if wall1 - wall0 < SATURATION_WINDOW_S:
                    continue
                samples.pop(0)
                if (cpu1 - cpu0) / (wall1 - wall0) >= SATURATED_CORE_SHARE:
                    self.log(
                        f"workers: this process's event loop wants {(cpu1 - cpu0) / (wall1 - wall0):.0%} "
                        f"of a core; trials now also go to {len(helpers)} helper process(es)"
                    )
                    local_limit[0] = shares[0]  # the rest finish their trial and stop
                    self.on_demand_dispatched = True
                    break
            dispatch.set()

        jobs = _interleave(plans)
        loop = asyncio.get_running_loop()
        slots = min(self.concurrency, total)
        # A helper pays its start-up (a Python process, imports, the inputs) only with a few
        # trials to run: at least MIN_JOBS_PER_PROCESS per process.
        processes = max(1, min(self.workers, slots, total // MIN_JOBS_PER_PROCESS))
        shares = split_concurrency(slots, processes)
        helpers: list[Helper] = []
        on_demand = False
        if processes > 1:
            # A run whose trials wait on model calls mostly waits: one process often serves the
            # whole concurrency, so its helpers wait until it saturates a core (a helper taking
            # trials costs ~25 MB of PSS and its share of the IPC). LiteLLM loaded now is shared
            # by every helper; loaded after the fork, each process would hold its own copy.
            endpoints = self._model_endpoints(plans)
            await prepare_litellm(endpoints)
            on_demand = bool(endpoints)
            setup = self._helper_setup([p for p in plans if p.jobs])
            helpers = [Helper(setup, i, log=self.log) for i in range(1, processes)]
            for helper in helpers:
                helper.start_reading(loop)
        watcher: asyncio.Task[None] | None = None
        if on_demand:
            local_limit[0] = slots
            workers = [asyncio.create_task(worker()) for _ in range(slots)]
            watcher = asyncio.create_task(watch())
        else:
            local_limit[0] = shares[0]
            dispatch.set()
            workers = [asyncio.create_task(worker()) for _ in range(shares[0])]
        for helper, share in zip(helpers, shares[1:], strict=True):
            workers += [asyncio.create_task(remote(helper)) for _ in range(share)]
        self._workers = workers
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
            if watcher is not None:
                watcher.cancel()
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
        if self.write_failure is not None:
            raise self.write_failure


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
        strictness=setup.strictness,
    )
    plans = {}
    for entrant in setup.entrants:
        manifest = RunManifest.model_validate_json(setup.manifests[entrant.slug])
        plans[entrant.slug] = _Plan(
            entrant=entrant,
            folder=ResultsFolder(entrant.results_root, redactor),  # never written by a helper
            manifest=manifest,
            scope=_Scope(
                submission=entrant.slug,
                catalog_digest=setup.inputs.catalog_digest,
                task_ids=tuple(manifest.task_ids),
                trials=setup.trials[entrant.slug],
                seed=manifest.seed,
                shard=Shard.parse(manifest.shard) if manifest.shard else None,
            ),
            tasks={t.id: t for t in setup.inputs.tasks},
            tally=RunTally(),
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
    step_timeout_s: float | None = None,
    strictness: Strictness = DEFAULT_STRICTNESS,
) -> _Plan:
    root = entrant.results_root if out is None else out / entrant.slug / "results"
    results_dir = root / inputs.snapshot.label
    k = trials if trials is not None else entrant.trials
    if k < 1:
        raise TaurecError(f"trials must be at least 1 (got {k})")
    manifest = RunManifest(
        rules=rules.name,
        domain=inputs.domain.name,
        strictness=strictness,
        status="running",
        taurec_version=_taurec_version(),
        git_revision=_git_revision(),
        submission=entrant.slug,
        snapshot=inputs.snapshot.label,
        agent=ComponentSpec(name=entrant.agent, args=redact_config(entrant.agent_args)),
        simulator=ComponentSpec(name=simulator, args=redact_config(simulator_options or {})),
        submission_config=redact_config(entrant.raw_config),
        tools=list(
            inputs.domain.build_toolset(
                inputs.snapshot.catalog, inputs.tasks[0], entrant.tools, rules, seed
            ).names
        ),
        task_suite_digest=inputs.task_suite_digest,
        policy_digest=inputs.policy_digest,
        catalog_digest=inputs.catalog_digest,
        trials=k,
        max_turns=max_turns,
        step_timeout_s=step_timeout_s,
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
    if old is not None or (results_dir / TRIALS_FILE).exists():
        if fresh:
            moved = _move_aside(results_dir, redactor)
            notes.append(f"--fresh: moved the previous results to {moved}")
        else:
            old = _check_resumable(results_dir, old)
            _check_compatible(old, manifest, results_dir)
    scope = _Scope(
        submission=entrant.slug,
        catalog_digest=inputs.catalog_digest,
        task_ids=tuple(t.id for t in inputs.tasks),
        trials=k,
        seed=seed,
        shard=shard,
    )
    plan = _Plan(
        entrant=entrant,
        folder=ResultsFolder(results_dir, redactor),
        manifest=manifest,
        scope=scope,
        tasks={t.id: t for t in inputs.tasks},
        tally=RunTally(),
        notes=notes,
    )
    _read_prior(plan)
    plan.jobs = scope.size() - plan.skipped_existing
    return plan


def _read_prior(plan: _Plan) -> None:
    """Stream the folder's trials.jsonl once: which in-scope keys are done (scored), which ended
    in an infra error (run again), their counters, and where the archive's last member ends.
    Refuses a second verdict on a scored key, and scored records whose transcript is gone (their
    verdict could no longer be checked, and re-running them would let a failure be rolled again)."""
    folder = plan.folder.path
    scan = TrialsScan(folder)
    latest: dict[tuple[str, int], TrialOutcome] = {}
    scored_on: dict[KeyTuple, int] = {}
    scored_pointers: list[tuple[str, TranscriptSpan | None]] = []
    superseded = 0
    for line, record in enumerate(scan, start=1):
        span = record.transcript_span
        if span is not None and record.transcript == ARCHIVE:
            plan.archive_end = max(plan.archive_end, span.offset + span.length)
        full_key = record.key.as_tuple()
        if full_key in scored_on:
            earlier = scored_on[full_key]
            check_second_record(scan.path, record_at_line(folder, earlier), earlier, record, line)
            superseded += 1
            continue  # the same record twice: keep the first
        if record.status == "scored":
            scored_on[full_key] = line
        if not plan.scope.holds(record.key):
            continue
        if record.status == "scored":
            scored_pointers.append((record.transcript, record.transcript_span))
        key = (record.key.task_id, record.key.trial_index)
        superseded += key in latest
        latest[key] = TrialOutcome.of(record)
    missing = missing_transcripts(folder, scored_pointers)
    if missing:
        raise TaurecError(
            f"{folder}: {len(missing)} scored trial record(s) point to a transcript that is "
            f"not there: {describe_missing(missing)}; restore the transcripts, or pass --fresh "
            "to move the folder aside and start over"
        )
    for key, outcome in latest.items():
        if outcome.scored:
            plan.done.add(key)
            plan.tally.add(outcome)
        else:
            plan.infra_priors[key] = outcome
    plan.skipped_existing = len(plan.done)
    plan.retried_infra = len(plan.infra_priors)
    plan.tail_offset = scan.tail_offset
    if scan.discarded_tail:
        plan.notes.append(f"{scan.path}: discarded {scan.discarded_tail}")
    if superseded:
        plan.notes.append(f"{scan.path}: {superseded} earlier record(s) superseded by a later one")


def _final_manifest(plan: _Plan, status: RunStatus) -> tuple[RunManifest, RunTally]:
    """The manifest at the end: counts and cost of every in-scope key, from the running counters
    (infra errors of earlier runs that were not run again still count)."""
    tally = plan.tally.with_outcomes(plan.infra_priors.values())
    counts = RunCounts(
        planned=plan.scope.size(),
        scored=tally.scored,
        infra_error=tally.infra_error,
        skipped_existing=plan.skipped_existing,
    )
    manifest = plan.manifest.model_copy(
        update={
            "status": status,
            "finished_at": _now(),
            "counts": counts,
            "cost_usd": tally.cost_usd,
        }
    )
    return manifest, tally


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
    snapshots_dir: Path | None = None,
    rules: str = DEFAULT_RULES,
    task_ids: Sequence[str] | None = None,
    preflight: bool = False,
    min_trials: int | None = None,
    workers: int = 1,
    step_timeout_s: float | None = DEFAULT_STEP_TIMEOUT_S,
    domain: str | None = None,
    strictness: Strictness = DEFAULT_STRICTNESS,
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
    if strictness not in STRICTNESS_LEVELS:
        raise TaurecError(
            f"strictness must be one of {', '.join(STRICTNESS_LEVELS)} (got {strictness!r})"
        )
    inputs = load_inputs(snapshot, tasks_dir, snapshots_dir=snapshots_dir, domain=domain)
    if task_ids is not None:
        inputs = select_tasks(inputs, task_ids)
    entrants = [d if isinstance(d, Entrant) else Entrant.from_folder(d) for d in submission_dirs]
    outside = [e for e in entrants if e.domains is not None and inputs.domain.name not in e.domains]
    if outside:
        listed = "; ".join(f"{e.slug} enters {', '.join(e.domains or ())}" for e in outside)
        raise TaurecError(
            f"not entered in the {inputs.domain.name} domain: {listed} (a submission's "
            "`domains` lists the boards it enters)"
        )
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
        strictness=strictness,
    )
    if preflight:
        from runner.batch.preflight import PreflightError, preflight_entries

        first = inputs.tasks[0]
        # A preflight probes configured endpoints and models: what a submission sees, no task.
        context = AgentContext(
            user_id=first.user_id,
            policy_text=inputs.policy_text,
            seed=seed,
            domain=inputs.domain.name,
        )
        try:
            failures = await preflight_entries(
                [(e.slug, e.config) for e in entrants if e.config is not None],
                context,
                batch.agent_factory,
            )
        finally:
            await aclose_clients()  # this loop's model pools (none if no model was called)
        if failures:
            raise PreflightError(failures)
    # Build the search index once, before any trial, so trials share it.
    inputs.domain.warm(inputs.snapshot.catalog)
    resume_collector()  # `taurec run`'s start-up ends here (runner.core.startup)
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
            step_timeout_s=step_timeout_s,
            strictness=strictness,
        )
        for entrant in entrants
    ]
    batch.stats.total = sum(p.jobs for p in plans)
    if max_cost is not None:
        batch.entry_budget = max_cost / len(plans)
    batch.stats.skipped_existing = sum(p.skipped_existing for p in plans)

    results: list[RunResult] = []
    with contextlib.ExitStack() as stack:
        for plan in plans:
            stack.enter_context(plan.folder.locked())
            plan.folder.repair_tail(plan.tail_offset)
            cut = plan.folder.repair_archive(plan.archive_end)
            if cut is not None:
                plan.notes.append(cut)
            plan.folder.write_manifest(plan.manifest)
        for plan in plans:
            for note in plan.notes:
                batch.log(note)
        if progress is not None:
            progress.start(batch.stats)
        try:
            await batch.run(plans, batch.stats.total)
        finally:
            # Commit (and acknowledge) every finished trial before the files are closed.
            await batch.drain()
            await aclose_clients()  # this loop's model pools (none if no model was called)
            if progress is not None:
                progress.finish(batch.stats)
            for plan in plans:
                remaining = plan.ran < plan.jobs
                status: RunStatus = "completed"
                if batch.disk_full is not None and remaining:
                    status = "disk_full"
                elif batch.interrupted and remaining:
                    status = "interrupted"
                elif (batch.budget_exhausted or plan.budget_exhausted) and remaining:
                    status = "budget_exhausted"
                elif remaining:
                    status = "interrupted"
                manifest, tally = _final_manifest(plan, status)
                if status == "disk_full":
                    manifest.error = batch.disk_full
                plan.folder.write_manifest(manifest)
                results.append(
                    RunResult(
                        submission=plan.entrant.slug,
                        results_dir=plan.folder.path,
                        manifest=manifest,
                        tally=tally,
                        scope=plan.scope,
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
