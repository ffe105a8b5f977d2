"""The one-command offline leaderboard: fixture snapshot → revalidate → run every shipped submission on the dev split → score them on the private test split → site."""

from __future__ import annotations

import contextlib
import datetime as dt
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
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

    @property
    def total_seconds(self) -> float:
        return sum(t.seconds for t in self.timings)


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

    For each domain of the board (`leaderboard.yaml` `domains`, in order): 1. refresh: its
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
    plan: list[tuple[str | None, str]] = [
        (name, step) for name in domains for step in STEPS[:-1] if step in steps
    ]
    if "site" in steps:
        plan.append((None, "site"))
    several = len(domains) > 1
    # With both the dev run and the test split to do, each domain's test split (its drawing and
    # its runs) goes to a second process while this one runs the dev split: a run keeps one core
    # busy, so the other does the test split (the dev pass^1 beside it is filled in after).
    background = _Background() if {"run", "test"} <= set(steps) else None
    try:
        _steps(
            plan,
            lanes,
            label,
            steps,
            source,
            submissions_dir,
            snapshots_dir,
            public_dir,
            concurrency,
            fresh,
            echo,
            board,
            splits,
            several,
            result,
            background,
            tuple(entries),
        )
    finally:
        if background is not None:
            background.close()
    return result


class _Background:
    """One spawned worker process for the test splits, each started when its domain's dev run
    starts and collected at the domain's `test` step."""

    def __init__(self) -> None:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        self._pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
        self.futures: dict[str, Any] = {}

    def start(self, lane: str, *args: Any) -> None:
        self.futures[lane] = self._pool.submit(_test, *args)

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


def _steps(
    plan: list[tuple[str | None, str]],
    lanes: dict[str, tuple[Domain, RunSettings, Path]],
    label: str,
    steps: Sequence[str],
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
    background: _Background | None,
    entries: tuple[Path, ...],
) -> None:
    from runner.core.metrics import summarize
    from runner.publish.splits import set_dev_pass1

    dev_runs: dict[str, list[RunResult]] = {}
    for number, (lane, step) in enumerate(plan, start=1):
        shown = f"{lane}: {step}" if several and lane is not None else step
        echo(f"[{number}/{len(plan)}] {shown} …")
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
            # What the dev run and the test split's runs (background or in-line) share.
            lane_args = (
                label,
                submissions_dir,
                where,
                settings,
                board.trials,
                concurrency,
                entries,
            )
            if step == "refresh":
                detail = domain.refresh(source, label, where)
            elif step == "validate":
                detail = _validate(domain, label, where, settings.tasks_dir)
            elif step == "test":
                if background is not None and lane in background.futures:
                    detail, notes = background.futures.pop(lane).result()
                    set_dev_pass1(
                        splits,
                        settings.domain,
                        {
                            r.submission: summarize(r.records, ks=(1,)).pass_hat_k[0].value
                            for r in dev_runs.get(lane, [])
                        },
                    )
                else:
                    detail, notes = _test(*lane_args, None, splits, False)
                for note in notes:
                    echo(f"      note: {note}")
            else:
                if background is not None:
                    background.start(lane, *lane_args, {}, splits, True)
                detail, runs = _run(*lane_args, fresh, echo)
                result.runs += runs
                dev_runs[lane] = runs
        seconds = time.perf_counter() - started
        result.timings.append(StepTiming(shown, seconds, detail))
        echo(f"      {shown}: {detail} ({seconds:.1f} s)")


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
        progress=default_progress(),
        fresh=fresh,
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
        )
