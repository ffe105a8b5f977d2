"""The one-command offline leaderboard: fixture snapshot → revalidate → run every shipped submission on the dev split → score them on the private test split → site."""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import urlsplit

from runner.core.board import BoardSettings, RunSettings, merge_flags
from runner.core.domain import Domain
from runner.core.domains import DEFAULT_DOMAIN, get_domain
from runner.core.errors import LoadError, TaurecError
from runner.core.paths import PUBLIC_DIR, SNAPSHOTS_DIR, SUBMISSIONS_DIR, TASKS_DIR
from runner.play.agent_config import LiteLLMAgentConfig
from runner.submissions.config import (
    SUBMISSION_FILE,
    Submission,
    check_submission,
    is_loopback_host,
    load_submission,
)

if TYPE_CHECKING:
    from runner.batch import RunResult

Step = Literal["refresh", "validate", "run", "test", "site"]
STEPS: tuple[Step, ...] = ("refresh", "validate", "run", "test", "site")
DEFAULT_SOURCE = "fixture"
DEFAULT_DATE = "2026-11-01"
Echo = Callable[[str], None]


@dataclass
class StepTiming:
    step: str
    seconds: float
    detail: str = ""


@dataclass
class LeaderboardResult:
    """What `build_leaderboard` did: per-step timings, the runs, and where the site is."""

    date: str
    timings: list[StepTiming] = field(default_factory=list)
    runs: list[RunResult] = field(default_factory=list, repr=False)
    index_html: Path | None = None
    # The whole build's wall time: its runs overlap, so their steps' times add up to more.
    wall_seconds: float = 0.0

    @property
    def total_seconds(self) -> float:
        return self.wall_seconds


def shipped_submissions(submissions_dir: Path = SUBMISSIONS_DIR) -> list[Path]:
    """Every folder under `submissions/` holding a `submission.yaml`, in name order."""
    return sorted(p.parent for p in submissions_dir.glob(f"*/{SUBMISSION_FILE}"))


def loopback_servers(submissions: Sequence[Submission]) -> list[tuple[str, int]]:
    """(host, port) of each local model server the LiteLLM entries point at (`api_base` on loopback).

    An entry naming a fixed loopback port gets the baseline policies served there for the
    duration of the run. Port 0 (`http://127.0.0.1:0/v1`, as `heuristic-via-litellm` says) needs
    nothing here: the run starts its own server on a free port (runner.models.own_model_server).
    """
    found: set[tuple[str, int]] = set()
    for submission in submissions:
        agent = submission.agent
        if isinstance(agent, LiteLLMAgentConfig) and agent.api_base:
            parts = urlsplit(agent.api_base)
            if is_loopback_host(parts.hostname) and parts.port:
                found.add((parts.hostname or "127.0.0.1", parts.port))
    return sorted(found)


@contextlib.contextmanager
def local_model_servers(submissions: Sequence[Submission]) -> Iterator[list[str]]:
    """Start `serve_model` on every loopback address the entries use; yield the base URLs."""
    from runner.models.model_server import serve_model

    with contextlib.ExitStack() as stack:
        urls = []
        for host, port in loopback_servers(submissions):
            try:
                urls.append(stack.enter_context(serve_model(host, port)))
            except OSError as exc:
                raise TaurecError(
                    f"cannot start the local model server on {host}:{port} ({exc.strerror}): "
                    "stop whatever listens there (perhaps a `taurec serve-model`) and retry"
                ) from None
        yield urls


def _check_all(folders: Sequence[Path]) -> list[Submission]:
    problems = []
    for folder in folders:
        problems += [p for p in check_submission(folder) if p.severity == "error"]
    if problems:
        raise LoadError(folders[0].parent, [f"{p.file}: {p.field}: {p.reason}" for p in problems])
    return [load_submission(f) for f in folders]


def _summarise_runs(runs: Sequence[RunResult]) -> list[str]:
    lines = []
    for run in runs:
        tally = run.tally
        mean = tally.mean_reward if tally.mean_reward is not None else float("nan")
        lines.append(
            f"  {run.submission:<28} {tally.scored:>4} scored  {tally.infra_error:>3} infra errors  "
            f"mean reward {mean:.3f}  (ran {run.ran}, reused {run.skipped_existing})"
        )
    return lines


def build_leaderboard(
    *,
    source: str = DEFAULT_SOURCE,
    date: str | dt.date = DEFAULT_DATE,
    steps: Sequence[str] = STEPS,
    submissions_dir: Path = SUBMISSIONS_DIR,
    snapshots_dir: Path = SNAPSHOTS_DIR,
    tasks_dir: Path | None = None,
    public_dir: Path = PUBLIC_DIR,
    concurrency: int = 16,
    fresh: bool = False,
    echo: Echo = print,
    board: BoardSettings | None = None,
    board_file: Path | None = None,
    domain_snapshots: Mapping[str, Path] | None = None,
    domain_tasks: Mapping[str, Path] | None = None,
    splits_root: Path | None = None,
    entries: Sequence[Path] = (),
    max_cost: float | None = None,
) -> LeaderboardResult:
    """Build the whole leaderboard offline, resumably, printing each step and its time.

    The domains of the board (`leaderboard.yaml` `domains`) go one after the other, the one
    whose runs hold the most trials first (its runs end last); with no run step, in the board's
    order. Each domain's runs (its dev run and test split) start as processes of their own
    (`lane_processes`, `shard_workers`) as soon as its suite validates and go on while the next
    domain refreshes and validates: the cores work while a refresh waits on its rate-limited
    source. A later suite found inconsistent stops the build: the runs already started are
    terminated and nothing is published. The site comes after every run. For each domain:
    1. refresh: its
    snapshot of DATE from `source` (`Domain.refresh`; movies' fixture is byte-identical to the
    committed snapshot, so a no-op diff); 2. validate: the domain's
    revalidation of its suite on it (`Domain.revalidate`), stopping on any inconsistent task;
    3. run: every shipped submission that enters the domain (`Submission.domains`) with the
    board's settings (suite, simulator, trials, max turns, budget, strictness; local model
    servers started for loopback LiteLLM entries; finished trials are reused unless `fresh`,
    which sets earlier results aside) on the dev split (the committed suite); 4. test: the same
    entries on the private test split (`runner.publish.splits`: generated from the split secret,
    `TAUREC_SPLIT_SECRET` or a local one, retiring the live split drawn for another snapshot;
    only aggregates and an encrypted file are written under `splits_root`). Then 5. site: aggregate and build one site in `public/`,
    one board per domain. With one domain the steps are named as they always were; with more,
    each is prefixed by its domain. `snapshots_dir` is movies' snapshot folder (another domain
    uses its own, or the one `domain_snapshots` names); `tasks_dir` replaces movies' suite
    (`domain_tasks` another domain's). `entries`: only these submission folders run (the
    refresh workflow runs the test split one entry per process, each with only its own keys; the
    split's aggregates of the other entries are kept); `max_cost`: the budget in USD of each
    entry's run, instead of the board's.
    """
    from runner.core.paths import SPLITS_DIR

    started = time.perf_counter()
    label = date.isoformat() if isinstance(date, dt.date) else date
    result = LeaderboardResult(date=label)
    splits = splits_root if splits_root is not None else SPLITS_DIR
    board = board if board is not None else BoardSettings()
    unknown = [s for s in steps if s not in STEPS]
    if unknown:
        raise TaurecError(f"unknown step(s) {unknown}; steps are {', '.join(STEPS)}")
    domains = list(board.domains)
    lanes: dict[str, tuple[Domain, RunSettings, Path]] = {}
    for name in domains:
        domain = get_domain(name)
        suite = tasks_dir if name == DEFAULT_DOMAIN else (domain_tasks or {}).get(name)
        settings = merge_flags(board, board_file, suite=suite, domain=name, max_cost=max_cost)
        where = (domain_snapshots or {}).get(name)
        if where is None:
            where = snapshots_dir if name == DEFAULT_DOMAIN else domain.snapshots_dir
        lanes[name] = (domain, settings, where)
    # Each domain in turn is refreshed and validated, then its runs start in processes of their
    # own while the next domain refreshes (the largest domain first: its runs end last); the site
    # after every run. A suite found inconsistent stops the build: the runs already started are
    # cancelled and nothing is published.
    jobs: dict[tuple[str, str], _Job] = {
        (name, step): _job(
            name, step, lanes[name], label, board, splits, tuple(entries), "run" in steps
        )
        for name in domains
        for step in STEPS[2:4]
        if step in steps
    }
    sizes = {key: _job_size(job, submissions_dir) for key, job in jobs.items()}
    ordered = sorted(domains, key=lambda name: -sum(sizes.get((name, s), 0) for s in STEPS[2:4]))
    plan: list[tuple[str | None, str]] = [
        (name, step) for name in ordered for step in STEPS[:4] if step in steps
    ]
    if "site" in steps:
        plan.append((None, "site"))
    _steps(
        plan,
        lanes,
        jobs,
        sizes,
        label,
        source,
        submissions_dir,
        snapshots_dir,
        public_dir,
        concurrency,
        fresh,
        echo,
        board,
        splits,
        len(domains) > 1,
        result,
    )
    result.wall_seconds = time.perf_counter() - started
    return result


def lane_processes(jobs: int, cores: int | None = None) -> int:
    """How many processes run the board's `jobs` runs (dev runs and test splits): one each, so
    a run never waits for another to end (the scheduler shares the cores between them), but no
    more than two per core, which bounds the memory they hold."""
    return max(1, min(jobs, 2 * (cores if cores is not None else os.cpu_count() or 1)))


def shard_workers(trials: Mapping[str, int], cores: int | None = None) -> dict[str, int]:
    """The processes (`run_submissions`' `workers`) each run of the parallel stage gets.

    The largest run (most trials; the grocery dev run on the shipped board) is the last to end:
    with two cores or more it is sharded over two processes, so it keeps both cores busy once
    the smaller runs are done instead of one. Every other run keeps one process."""
    workers = dict.fromkeys(trials, 1)
    count = cores if cores is not None else os.cpu_count() or 1
    if count >= 2 and len(trials) >= 2:
        workers[max(trials, key=lambda name: (trials[name], name))] = 2
    return workers


def _steps(
    plan: list[tuple[str | None, str]],
    lanes: dict[str, tuple[Domain, RunSettings, Path]],
    jobs: dict[tuple[str, str], _Job],
    sizes: dict[tuple[str, str], int],
    label: str,
    source: str,
    submissions_dir: Path,
    snapshots_dir: Path,
    public_dir: Path,
    concurrency: int,
    fresh: bool,
    echo: Echo,
    board: BoardSettings,
    splits: Path,
    several: bool,
    result: LeaderboardResult,
) -> None:
    """Take the plan's steps in order. A refresh, validate or the site runs here; with several
    runs each is started in a process of its own (`_Runs`) when its step comes and goes on while
    the next steps run here; they are all collected before the site. Whatever stops the build
    (an inconsistent suite, a failed run, Ctrl-C) terminates the runs still going."""

    def shown(number: int) -> str:
        lane, step = plan[number - 1]
        return f"{lane}: {step}" if several and lane is not None else step

    def done(number: int, seconds: float, detail: str) -> None:
        result.timings.append(StepTiming(shown(number), seconds, detail))
        echo(f"      {shown(number)}: {detail} ({seconds:.1f} s)")

    numbers = {(lane, step): number for number, (lane, step) in enumerate(plan, start=1)}
    runs: _Runs | None = None
    if len(jobs) > 1:
        runs = _Runs(
            {numbers[key]: job for key, job in jobs.items()},
            {numbers[key]: size for key, size in sizes.items()},
            submissions_dir,
            concurrency,
            fresh,
            echo,
        )
    with contextlib.ExitStack() as stack:
        if runs is not None:
            stack.enter_context(runs)
        for number, (lane, step) in enumerate(plan, start=1):
            heading = f"[{number}/{len(plan)}] {shown(number)} …"
            if step in ("run", "test"):
                assert lane is not None
                if runs is not None:
                    runs.start(number, heading)
                    continue
                echo(heading)
                started = time.perf_counter()
                detail, notes, outcome = _run_job(
                    jobs[lane, step], submissions_dir, concurrency, fresh, 1, echo
                )
                for note in notes:
                    echo(note)
                if step == "run":
                    result.runs += outcome
                done(number, time.perf_counter() - started, detail)
                continue
            if lane is None and runs is not None:  # the site, after every run
                runs.finish(done, result)
            echo(heading)
            started = time.perf_counter()
            if lane is None:
                detail, result.index_html = _site(
                    submissions_dir,
                    snapshots_dir,
                    lanes[DEFAULT_DOMAIN][1].tasks_dir if DEFAULT_DOMAIN in lanes else TASKS_DIR,
                    public_dir,
                    echo,
                    board,
                    {n: lane[2] for n, lane in lanes.items()},
                    {n: lane[1].tasks_dir for n, lane in lanes.items()},
                    splits,
                )
            else:
                domain, settings, where = lanes[lane]
                if step == "refresh":
                    detail = domain.refresh(source, label, where)
                else:
                    detail = _validate(domain, label, where, settings.tasks_dir)
            done(number, time.perf_counter() - started, detail)
        if runs is not None:
            runs.finish(done, result)


@dataclass(frozen=True)
class _Job:
    """One run of the board: a domain's dev run (`run`) or its test split (`test`)."""

    lane: str
    step: str
    date: str
    snapshots_dir: Path
    settings: RunSettings
    trials: int
    splits: Path
    entries: tuple[Path, ...]
    dev_in_build: bool  # a test split whose dev run is in this build (its pass^1 set after)


def _job(
    lane: str,
    step: str,
    where: tuple[Domain, RunSettings, Path],
    label: str,
    board: BoardSettings,
    splits: Path,
    entries: tuple[Path, ...],
    dev_in_build: bool,
) -> _Job:
    return _Job(lane, step, label, where[2], where[1], board.trials, splits, entries, dev_in_build)


class _Runs:
    """The board's runs as parallel processes (`lane_processes`; the largest sharded:
    `shard_workers`), each started when its step comes (`start`), all collected by `finish`,
    each reported when it ended. Leaving the `with` block before `finish` (an inconsistent
    suite, an error, Ctrl-C) cancels them: the processes still running are terminated (their
    helpers stop with them) and no test split of this build gets its dev pass^1."""

    def __init__(
        self,
        jobs: dict[int, _Job],
        sizes: dict[int, int],
        submissions_dir: Path,
        concurrency: int,
        fresh: bool,
        echo: Echo,
    ) -> None:
        self.jobs = jobs
        shards = shard_workers({str(n): size for n, size in sizes.items()})
        self.workers = {n: shards[str(n)] for n in jobs}
        self.submissions_dir, self.concurrency, self.fresh, self.echo = (
            submissions_dir,
            concurrency,
            fresh,
            echo,
        )
        self.pool: ProcessPoolExecutor | None = None
        self.started: dict[int, tuple[float, Future[tuple[str, list[str], list[RunResult]]]]] = {}
        self.ended: dict[int, float] = {}

    def __enter__(self) -> _Runs:
        return self

    def start(self, number: int, heading: str) -> None:
        if self.pool is None:
            if any(job.step == "test" for job in self.jobs.values()):
                from runner.publish.splits import split_secret

                split_secret()  # a local one is written here, once, not by two processes at once
            processes = lane_processes(len(self.jobs))
            self.echo(f"      {len(self.jobs)} runs in {processes} processes at once")
            self.pool = ProcessPoolExecutor(processes, mp_context=get_context("spawn"))
        workers = self.workers[number]
        self.echo(heading + (f" (in {workers} processes)" if workers > 1 else ""))
        job = self.jobs[number]
        future = self.pool.submit(
            _run_job, job, self.submissions_dir, self.concurrency, self.fresh, workers, None
        )
        future.add_done_callback(lambda _: self.ended.setdefault(number, time.perf_counter()))
        self.started[number] = time.perf_counter(), future

    def finish(self, done: Callable[[int, float, str], None], result: LeaderboardResult) -> None:
        """Wait for every run started, report each as it ends, then set each test split's dev
        pass^1 from its domain's dev run."""
        from runner.core.metrics import summarize
        from runner.publish.splits import set_dev_pass1

        outcomes: dict[int, list[RunResult]] = {}
        futures = {future: number for number, (_, future) in self.started.items()}
        for future in as_completed(futures):
            number = futures[future]
            detail, notes, runs = future.result()
            for note in notes:
                self.echo(note)
            outcomes[number] = runs
            ended = self.ended.get(number, time.perf_counter())
            done(number, ended - self.started[number][0], detail)
        self.started = {}
        dev_runs: dict[str, list[RunResult]] = {}
        for number, job in sorted(self.jobs.items()):
            if job.step == "run" and number in outcomes:
                result.runs += outcomes[number]
                dev_runs[job.lane] = outcomes[number]
        for job in self.jobs.values():
            if job.step == "test" and job.lane in dev_runs:
                set_dev_pass1(
                    job.splits,
                    job.settings.domain,
                    {
                        r.submission: summarize(r.records, ks=(1,)).pass_hat_k[0].value
                        for r in dev_runs[job.lane]
                    },
                )

    def __exit__(self, *exc: object) -> None:
        if self.pool is None:
            return
        if self.started:  # left before `finish`: cancel what still runs
            processes = list((self.pool._processes or {}).values())
            self.pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                process.terminate()
            for process in processes:
                process.join()
        self.pool.shutdown(wait=True)


def _job_size(job: _Job, submissions_dir: Path) -> int:
    """Trials the job runs, as far as known before anything ran: entrants x tasks (a test split:
    the local split's size) x trials. A suite or entry that does not load counts 0 here: the
    domain's validate step, or the run itself, stops the build on it with the clear error."""
    from runner.core.domains import get_domain
    from runner.publish.splits import LOCAL_SPLIT_TASKS

    try:
        folders = entrants(
            _chosen(shipped_submissions(submissions_dir), job.entries), job.settings.domain
        )
        if job.step == "test":
            tasks = LOCAL_SPLIT_TASKS
        else:
            tasks = len(get_domain(job.settings.domain).load_tasks(job.settings.tasks_dir))
    except TaurecError:
        return 0
    return len(folders) * tasks * job.trials


def _run_job(
    job: _Job,
    submissions_dir: Path,
    concurrency: int,
    fresh: bool,
    workers: int,
    echo: Echo | None,
) -> tuple[str, list[str], list[RunResult]]:
    """Run one job (in this process or a pool's): its detail line, the lines to print (notes,
    a dev run's summary) and a dev run's results. `echo` None: no progress output (a process
    of the parallel stage), the summary lines are returned instead."""
    args = (
        job.date,
        submissions_dir,
        job.snapshots_dir,
        job.settings,
        job.trials,
        concurrency,
        job.entries,
    )
    if job.step == "test":
        dev_pass1: dict[str, float | None] | None = {} if job.dev_in_build else None
        detail, notes = _test(*args, dev_pass1, job.splits, echo is None, workers)
        return detail, [f"      note: {note}" for note in notes], []
    lines: list[str] = []
    detail, runs = _run(*args, fresh, echo or lines.append, echo is None, workers)
    return detail, lines, runs


def _validate(domain: Domain, date: str, snapshots_dir: Path, tasks_dir: Path) -> str:
    ok, detail = domain.revalidate(date, tasks_dir, snapshots_dir)
    if not ok:
        raise TaurecError(
            f"the {domain.name} task suite is inconsistent on snapshot {date}; stopping\n" + detail
        )
    return detail


def entrants(folders: Sequence[Path], domain: str) -> list[Path]:
    """The submission folders that enter `domain` (their `domains`, movies by default)."""
    return [f for f in folders if domain in load_submission(f).domains]


def _chosen(every: Sequence[Path], entries: Sequence[Path]) -> list[Path]:
    """`every` shipped folder, or only those `entries` names (each must be one of them)."""
    if not entries:
        return list(every)
    shipped = {f.resolve(): f for f in every}
    unknown = [str(e) for e in entries if e.resolve() not in shipped]
    if unknown:
        raise TaurecError(
            f"--entry {', '.join(unknown)}: not a submission folder of {every[0].parent}"
            if every
            else f"--entry {', '.join(unknown)}: there are no submission folders"
        )
    wanted = {e.resolve() for e in entries}
    return [f for f in every if f.resolve() in wanted]


def _run(
    date: str,
    submissions_dir: Path,
    snapshots_dir: Path,
    settings: RunSettings,
    trials: int,
    concurrency: int,
    entries: Sequence[Path],
    fresh: bool,
    echo: Echo,
    quiet: bool = False,
    workers: int = 1,
) -> tuple[str, list[RunResult]]:
    from runner.batch.progress import default_progress

    every = shipped_submissions(submissions_dir)
    if not every:
        raise TaurecError(f"no submission folders under {submissions_dir}")
    every = _chosen(every, entries)
    _check_all(every)
    folders = entrants(every, settings.domain)
    if not folders:
        return f"no submission enters {settings.domain}", []
    runs = _run_board(
        folders,
        folders,
        date=date,
        tasks_dir=settings.tasks_dir,
        settings=settings,
        trials=trials,
        concurrency=concurrency,
        snapshots_dir=snapshots_dir,
        progress=None if quiet else default_progress(),
        fresh=fresh,
        workers=workers,
    )
    for line in _summarise_runs(runs):
        echo(line)
    ran = sum(r.ran for r in runs)
    reused = sum(r.skipped_existing for r in runs)
    errors = sum(run.tally.infra_error for run in runs)
    detail = f"{len(runs)} submissions: {ran} trials run, {reused} reused"
    if errors:
        detail += f", {errors} infra errors (re-run to retry them)"
    return detail, runs


def _test(
    date: str,
    submissions_dir: Path,
    snapshots_dir: Path,
    settings: RunSettings,
    trials: int,
    concurrency: int,
    entries: Sequence[Path],
    dev_pass1: dict[str, float | None] | None,
    splits_root: Path,
    quiet: bool,
    workers: int = 1,
) -> tuple[str, list[str]]:
    """Score every entry of the domain on its live test split (see `runner.publish.splits`);
    its detail line and notes. `dev_pass1` None: read from the dev runs of the date on disk.

    With the workflow's secret a split that cannot be drawn fails the refresh; with a local one
    (`make leaderboard` offline) it is a note and the board shows the dev split alone. With
    `entries` only those run, and the split keeps its figures of every other entry."""
    from runner.batch.progress import default_progress
    from runner.publish.splits import LOCAL_SPLIT_TASKS, run_test_split, split_secret

    folders = entrants(_chosen(shipped_submissions(submissions_dir), entries), settings.domain)
    if not folders:
        return f"no submission enters {settings.domain}", []
    secret = split_secret()
    if dev_pass1 is None:  # `--steps test` (the workflow): the dev runs this refresh merged
        dev_pass1 = _dev_pass1_on_disk(folders, settings.domain, date)

    def run(entrants: list[object], *, tasks_dir: Path) -> list[RunResult]:
        return _run_board(
            folders,
            entrants,
            date=date,
            tasks_dir=tasks_dir,
            settings=settings,
            trials=trials,
            concurrency=concurrency,
            snapshots_dir=snapshots_dir,
            progress=None if quiet else default_progress(),
            workers=workers,
        )

    try:
        outcome = run_test_split(
            domain=settings.domain,
            snapshot=date,
            snapshots_dir=snapshots_dir,
            folders=folders,
            trials=trials,
            run=run,  # type: ignore[arg-type]
            dev_pass1=dev_pass1,
            secret=secret,
            splits_root=splits_root,
            count=LOCAL_SPLIT_TASKS if secret.source == "local" else None,
            keep_others=bool(entries),
        )
    except TaurecError as exc:
        if secret.source == "env":
            raise
        note = f"no test split for {settings.domain}: {exc}"
        return "no test split (see the note); the board shows the dev split", [note]
    record = outcome.record
    parts = [
        f"split {record.split_id}: {record.tasks} tasks"
        + (" (generated)" if outcome.generated else ""),
        f"{len(outcome.scored)} entries scored",
    ]
    if record.waiting:
        parts.append(f"waiting for the next split: {', '.join(record.waiting)}")
    if outcome.retired is not None:
        parts.append(f"retired {outcome.retired.name}")
    return "; ".join(parts), []


def _dev_pass1_on_disk(folders: Sequence[Path], domain: str, date: str) -> dict[str, float | None]:
    """pass^1 of each entry's dev run of `date` found in its results folder (movies names the
    folder by the date, another domain by `<domain>-<date>`)."""
    from runner.batch.store import read_trials
    from runner.core.metrics import summarize

    name = date if domain == DEFAULT_DOMAIN else f"{domain}-{date}"
    found: dict[str, float | None] = {}
    for folder in folders:
        run = folder / "results" / name
        if not run.is_dir():
            continue
        records = read_trials(run).records
        if records:
            found[load_submission(folder).slug] = summarize(records, ks=(1,)).pass_hat_k[0].value
    return found


def _site(
    submissions_dir: Path,
    snapshots_dir: Path,
    tasks_dir: Path,
    public_dir: Path,
    echo: Echo,
    board: BoardSettings,
    domain_snapshots: dict[str, Path],
    domain_tasks: dict[str, Path],
    splits_root: Path,
) -> tuple[str, Path]:
    from runner.sitegen import build_site

    report = build_site(
        submissions=submissions_dir,
        snapshots=snapshots_dir,
        tasks=tasks_dir,
        out=public_dir,
        board=board,
        domain_snapshots=domain_snapshots,
        domain_tasks=domain_tasks,
        splits_root=splits_root,
    )
    for note in report.notes:
        echo(f"      note: {note}")
    return report.summary(), public_dir / "index.html"


def _run_board(
    folders: list[Path],
    entrants: Sequence[Any],
    *,
    date: str,
    tasks_dir: Path | None,
    settings: RunSettings,
    trials: int,
    concurrency: int,
    snapshots_dir: Path,
    progress: Any,
    fresh: bool = False,
    workers: int = 1,
) -> list[RunResult]:
    """Run `entrants` (submission folders or entrants built from them) on one suite with the
    board's settings, the local model servers of `folders`' entries up for the run."""
    from runner.batch import run_submissions

    with local_model_servers([load_submission(f) for f in folders]):
        return run_submissions(
            entrants,
            snapshot=date,
            tasks_dir=tasks_dir,
            **settings.run_args(),
            trials=trials,
            concurrency=concurrency,
            fresh=fresh,
            progress=progress,
            snapshots_dir=snapshots_dir,
            workers=workers,
        )
