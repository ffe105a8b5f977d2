"""`taurec run --workers N`: trials spread over helper processes, one folder, same scores, kill-safe."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from runner.batch import load_records, read_manifest, run_submissions
from runner.batch.progress import ProgressStats
from runner.batch.workers import Helper, HelperGone, HelperSetup, JobRef
from runner.core.records import TrialRecord
from runner.models.model_server import serve_model

from .conftest import SubmissionMaker, builtin, copy_v1_suite, litellm_agent


class Collect:
    """A progress sink that keeps every log line and the last counters."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.stats = ProgressStats()

    def start(self, stats: ProgressStats) -> None:
        self.stats = stats

    def update(self, stats: ProgressStats) -> None:
        self.stats = stats

    def finish(self, stats: ProgressStats) -> None:
        self.stats = stats

    def log(self, message: str) -> None:
        self.lines.append(message)


def _judged(record: TrialRecord) -> str:
    """Everything a record says about the trial's outcome (not its timings)."""
    return record.model_dump_json(include={"key", "status", "stop_reason", "score", "error"})


def _by_key(folder: Path) -> dict[tuple[str, str, str, int, int], TrialRecord]:
    return {r.key.as_tuple(): r for r in load_records(folder)}


@pytest.fixture
def model_at(request: pytest.FixtureRequest) -> Callable[[int], str]:
    """Serves the stand-in model for the test, `latency_ms` a call; returns its URL."""

    def start(latency_ms: int) -> str:
        server = serve_model(latency_ms=latency_ms)
        url = server.__enter__()
        request.addfinalizer(lambda: server.__exit__(None, None, None))
        return url

    return start


RunWith = Callable[..., tuple[list[Any], Collect]]


@pytest.fixture
def run_with(tmp_path: Path, v1_dir: Path, small_suite: Path) -> RunWith:
    """Runs submissions on the small v1 suite with `workers` processes into tmp_path/`out`;
    returns their results and what the progress sink saw."""

    def run(subs: list[Path], workers: int, out: str, **options: Any) -> tuple[list[Any], Collect]:
        progress = Collect()
        results = run_submissions(
            subs,
            snapshot=v1_dir / "catalog.json",
            tasks_dir=small_suite,
            workers=workers,
            out=tmp_path / out,
            progress=progress,
            **options,
        )
        return results, progress

    return run


def _saturated_above(monkeypatch: pytest.MonkeyPatch, share: float) -> None:
    """Helpers take trials once this process uses `share` of a core (sampled every 50 ms)."""
    from runner.batch import engine

    monkeypatch.setattr(engine, "SATURATED_CORE_SHARE", share)
    monkeypatch.setattr(engine, "SATURATION_WINDOW_S", 0.05)


def test_scores_are_byte_identical_to_one_process(
    make_submission: SubmissionMaker,
    model_at: Callable[[int], str],
    run_with: RunWith,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Model calls mostly wait: the helpers would take trials only once this process saturates a
    # core. Saturated from the start here, so they take their share.
    _saturated_above(monkeypatch, 0.0)
    # Model calls take 10 ms, so the parent's own slots cannot finish every trial before the
    # helpers are up (finished trials no longer wait for an fsync each).
    url = model_at(10)
    heur = make_submission("heur", litellm_agent(url), trials=2)
    rand = make_submission("rand", litellm_agent(url, model="openai/random"), trials=2)
    folders = {}
    for workers in (1, 3):
        results, progress = run_with([heur, rand], workers, f"out{workers}", concurrency=6)
        assert [r.manifest.status for r in results] == ["completed", "completed"]
        assert progress.stats.done == 2 * 8 * 2
        folders[workers] = [r.results_dir for r in results]
        if workers == 3:
            (line,) = [x for x in progress.lines if x.startswith("workers: 3 processes")]
            helped = int(line.split(";")[1].split()[0])
            assert helped > 0, line  # the helpers really ran trials
    for one, three in zip(folders[1], folders[3], strict=True):
        a, b = _by_key(one), _by_key(three)
        assert a.keys() == b.keys()
        assert len(a) == 16
        for key, record in a.items():
            assert _judged(record) == _judged(b[key])
        # One results folder each: every record's transcript is in it, nothing else was written.
        names = sorted(p.name for p in (three / "transcripts").iterdir())
        assert names == sorted({Path(r.transcript).name for r in b.values()})


@pytest.mark.parametrize("client", ["litellm", "auto"])
@pytest.mark.parametrize("saturates", [False, True])
def test_a_model_run_lets_its_helpers_in_only_once_it_saturates_a_core(
    saturates: bool,
    client: str,
    make_submission: SubmissionMaker,
    model_at: Callable[[int], str],
    run_with: RunWith,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from runner.models.llm_client import CLIENT_ENV

    # The LiteLLM client for the loopback server (the hosted-provider path) or the direct one (its
    # default); the core share that counts as saturated is set so that this process always is (0)
    # or never can be (100 cores).
    monkeypatch.setenv(CLIENT_ENV, client)
    _saturated_above(monkeypatch, 0.0 if saturates else 100.0)
    sub = make_submission("heur", litellm_agent(model_at(20)), trials=2)
    folders = {}
    for workers in (1, 2):
        out = f"out{saturates}{client}{workers}"
        (result,), progress = run_with([sub], workers, out, concurrency=4)
        assert result.manifest.status == "completed"
        folders[workers] = result.results_dir
        if workers == 2:
            (line,) = [x for x in progress.lines if x.startswith("workers: 2 processes")]
            helped = int(line.split(";")[1].split()[0])
            let_in = [x for x in progress.lines if "trials now also go to" in x]
            assert (helped > 0) is saturates, line
            assert bool(let_in) is saturates, progress.lines
    one, two = _by_key(folders[1]), _by_key(folders[2])
    assert one.keys() == two.keys()
    for key, record in one.items():
        assert _judged(record) == _judged(two[key])


def test_a_python_agent_factory_runs_in_one_process(
    make_submission: SubmissionMaker, run_with: RunWith
) -> None:
    from runner.agents import build_agent

    sub = make_submission("heur", builtin("heuristic"), trials=1)
    (result,), progress = run_with([sub], 4, "out", agent_factory=build_agent)
    assert result.manifest.counts.scored == 8
    assert any("running in 1 process, not 4" in line for line in progress.lines)


def _helpers(pid: int) -> list[int]:
    """The helper processes of a run: its children running the same command (forked) or
    multiprocessing's spawn entry point."""
    found = []
    command = Path(f"/proc/{pid}/cmdline").read_bytes()
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            children = (task / "children").read_text().split()
        except OSError:
            continue  # the thread ended between the listing and the read
        for child in children:
            with contextlib.suppress(OSError):
                line = Path(f"/proc/{child}/cmdline").read_bytes()
                if line == command or b"spawn_main" in line:
                    found.append(int(child))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


# `taurec` whose helpers take trials from the start: a model run lets them in only once its
# process saturates a core, which these short runs on a loopback server never do.
EAGER_HELPERS = (
    "import runner.batch.engine as e; e.SATURATED_CORE_SHARE = 0.0; e.SATURATION_WINDOW_S = 0.05; "
    "from runner.cli import main; main()"
)


def _run(sub: Path, v1_dir: Path, tasks: Path, *extra: str) -> list[str]:
    return [
        sys.executable, "-c", EAGER_HELPERS, "run", str(sub),
        "--snapshot", str(v1_dir / "catalog.json"),
        "--tasks", str(tasks),
        "--trials", "4",
        *extra,
    ]  # fmt: skip


def _acknowledged(stdout: str) -> int:
    """The highest `[done/total]` count the plain progress printed."""
    done = [int(line[1:].split("/")[0]) for line in stdout.splitlines() if line.startswith("[")]
    return max(done, default=0)


@pytest.mark.slow
@pytest.mark.parametrize("victim", ["helper", "parent"])
def test_kill_9_loses_no_acknowledged_trial_and_resumes(
    victim: str,
    tmp_path: Path,
    v1_dir: Path,
    make_submission: SubmissionMaker,
    request: pytest.FixtureRequest,
) -> None:
    tasks = copy_v1_suite(tmp_path, v1_dir, 6)
    # Every model call takes 30 ms, so each process always has a trial in flight when the kill lands.
    server = serve_model(latency_ms=30)
    url = server.__enter__()
    request.addfinalizer(lambda: server.__exit__(None, None, None))
    sub = make_submission("llm", litellm_agent(url), trials=4)
    folder = sub / "results" / "tau-rec-v1"
    cmd = _run(sub, v1_dir, tasks, "--workers", "2", "--concurrency", "4", "--no-preflight")
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True)
    deadline = time.monotonic() + 120
    helpers: list[int] = []
    while not helpers or not (folder / "trials.jsonl").exists():
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "no helper and no record within 120 s"
        helpers = _helpers(proc.pid)
        time.sleep(0.01)
    # Let a few trials land, so the kill hits a running batch.
    while (folder / "trials.jsonl").read_bytes().count(b"\n") < 4:
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.005)
    if victim == "helper":
        (helper,) = helpers
        os.kill(helper, signal.SIGKILL)
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
        # The helper's unfinished trials are recorded as infra errors (retried below), not lost.
        assert "exited" in err, err
    else:
        os.kill(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate(timeout=60)
        # With the parent gone its helpers stop too.
        stop = time.monotonic() + 30
        while any(_alive(h) for h in helpers) and time.monotonic() < stop:
            time.sleep(0.05)
        assert not any(_alive(h) for h in helpers)
    acknowledged = _acknowledged(out)
    before = _by_key(folder)
    assert len(before) >= acknowledged
    if victim == "helper":
        lost = [
            r for r in before.values() if r.error and r.error.kind == "RunnerError.HelperExited"
        ]
        assert lost, "the helper's trial in flight must be recorded, not dropped"
        assert len(before) == 6 * 4

    again = subprocess.run([*cmd, "--workers", "2"], capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    after = _by_key(folder)
    assert len(after) == 6 * 4
    assert all(r.status == "scored" for r in after.values())
    # Nothing recorded before was lost; scored trials were kept, not re-run.
    assert before.keys() <= after.keys()
    for key, record in before.items():
        if record.status == "scored":
            assert after[key].transcript == record.transcript
    manifest = read_manifest(folder)
    assert manifest is not None
    assert manifest.status == "completed"


def _gone(pid: int) -> bool:
    """Dead with every thread ended, so its files (its end of the pipe) are closed: a leader
    thread shows as a zombie while its other threads may still be exiting."""
    with contextlib.suppress(OSError):
        return not _alive(pid) and len(os.listdir(f"/proc/{pid}/task")) <= 1
    return True


def _helper_setup(v1_dir: Path, small_suite: Path) -> HelperSetup:
    from runner.batch.engine import helper_batch
    from runner.batch.inputs import load_inputs
    from runner.core.rules import DEFAULT_RULES

    return HelperSetup(
        inputs=load_inputs(v1_dir / "catalog.json", small_suite),
        entrants=[],
        manifests={},
        trials={},
        simulator="scripted",
        simulator_options=None,
        max_turns=20,
        rules=DEFAULT_RULES,
        make_batch=helper_batch,
    )


def test_a_helper_found_dead_by_a_send_takes_no_more_trials(
    v1_dir: Path, small_suite: Path
) -> None:
    """Its process gone but its reader not yet heard on the event loop, a helper's failed send
    marks it gone: its slot stops there. (It stayed `alive`, so the slot took the next trial, and
    the next, failing each without once yielding to the loop: every trial left became an infra
    error.)"""

    async def main() -> None:
        helper = Helper(_helper_setup(v1_dir, small_suite), 1, log=lambda _: None)
        try:
            helper.start_reading(asyncio.get_running_loop())
            assert await helper.ready()
            os.kill(helper.process.pid, signal.SIGKILL)
            # Dead and its end of the pipe closed; nothing since has run on this loop (no await).
            stop = time.monotonic() + 30
            while not _gone(helper.process.pid) and time.monotonic() < stop:
                time.sleep(0.01)
            assert helper.alive
            with pytest.raises(HelperGone):  # (never sent: the trial can run elsewhere)
                await helper.run(JobRef("x", "task_001", 0, 0))
            assert not helper.alive
        finally:
            await asyncio.to_thread(helper.stop)

    asyncio.run(main())


def test_a_helper_that_dies_parked_costs_no_trial_and_its_slots_run_here(
    tmp_path: Path,
    v1_dir: Path,
    make_submission: SubmissionMaker,
    request: pytest.FixtureRequest,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A LiteLLM run's helper killed while it waits to be let in (this process not saturated yet):
    once this process saturates, no trial is sent to the dead helper (each of its slots failed one
    trial as an infra error before), and its slots take trials here: the batch completes with
    every trial scored."""
    from runner.batch import engine
    from runner.models.llm_client import CLIENT_ENV

    monkeypatch.setenv(CLIENT_ENV, "litellm")
    # Never saturated until the helper is dead; then at once.
    monkeypatch.setattr(engine, "SATURATED_CORE_SHARE", 1e9)
    monkeypatch.setattr(engine, "SATURATION_WINDOW_S", 0.05)
    server = serve_model(latency_ms=20)
    url = server.__enter__()
    request.addfinalizer(lambda: server.__exit__(None, None, None))
    tasks = copy_v1_suite(tmp_path, v1_dir, 6)
    sub = make_submission("llm", litellm_agent(url), trials=4)
    killed: list[int] = []

    class KillParkedHelper(Collect):
        def update(self, stats: ProgressStats) -> None:
            super().update(stats)
            if killed:
                return
            # The first trial is on disk; the helper has long been forked (and is ready: a
            # fork loads nothing). Kill it, wait until it is gone, then let the helpers in.
            (helper,) = _helpers(os.getpid())
            os.kill(helper, signal.SIGKILL)
            stop = time.monotonic() + 30
            while not _gone(helper) and time.monotonic() < stop:
                time.sleep(0.01)
            killed.append(helper)
            engine.SATURATED_CORE_SHARE = 0.0

    progress = KillParkedHelper()
    (result,) = run_submissions(
        [sub],
        snapshot=v1_dir / "catalog.json",
        tasks_dir=tasks,
        concurrency=4,
        workers=2,
        out=tmp_path / "out",
        progress=progress,
    )
    assert killed
    assert result.manifest.status == "completed", progress.lines
    assert result.manifest.counts.scored == 6 * 4, progress.lines
    assert any("trials now also go to" in line for line in progress.lines), progress.lines
    (line,) = [x for x in progress.lines if x.startswith("workers: 2 processes")]
    assert " 0 of " in line, line
    assert not [x for x in progress.lines if x.startswith("trial ")], progress.lines
