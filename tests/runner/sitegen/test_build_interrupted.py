"""A killed `taurec site build` leaves the previous site whole and no process behind; a bad
trials.jsonl line fails the build with one error line, never a broken process pool."""

from __future__ import annotations

import json
import os
import pickle
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from domains.movies.site_synth import SynthSpec, SynthWorld, synthesize
from runner.core.errors import LoadError
from runner.core.paths import SITE_DIR
from runner.sitegen.build import clear_stale_builds
from runner.sitegen.inputs import load_inputs
from runner.sitegen.pages import environment
from runner.sitegen.trial_pages import start_trial_pages

TAUREC = str(Path(sys.executable).with_name("taurec"))
ENV = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True", "NO_MKDOCS_2_WARNING": "1"}


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> SynthWorld:
    spec = SynthSpec(entries=3, tasks=4, trials=4, xss_probes=False)
    return synthesize(tmp_path_factory.mktemp("interrupted"), spec)


def _command(world: SynthWorld, out: Path) -> list[str]:
    return [TAUREC, "site", "build", *world.source_options(), "--out", str(out), "--workers", "2"]


def _files(out: Path) -> list[str]:
    return sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())


def _in_session(sid: int) -> list[int]:
    """Live processes of a session (a build started with start_new_session leads its own)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        fields = text[text.rindex(")") + 2 :].split()
        if int(fields[3]) == sid and fields[0] != "Z":  # fields: state ppid pgrp session
            found.append(int(stat.parent.name))
    return found


@pytest.mark.slow
def test_a_killed_build_leaves_the_previous_site_and_no_process(
    world: SynthWorld, tmp_path: Path
) -> None:
    out = tmp_path / "public"
    subprocess.run(_command(world, out), env=ENV, check=True, capture_output=True)
    before = _files(out)
    assert "index.html" in before
    assert "sitemap.xml" in before
    assert any(f.startswith("trials/") for f in before)
    killed = 0
    for seed in (0, 1):
        rng = random.Random(seed)
        for sig in (signal.SIGKILL, signal.SIGTERM):
            build = subprocess.Popen(
                _command(world, out),
                env=ENV,
                start_new_session=True,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            # A random point once the new site is being written (its folder exists): on a busy
            # machine a fixed share of a measured build time can land after the build ended.
            building = out.with_name(f".{out.name}.building-{build.pid}")
            deadline = time.monotonic() + 60
            while not building.exists() and build.poll() is None and time.monotonic() < deadline:
                time.sleep(0.01)
            time.sleep(rng.uniform(0.0, 0.3))
            build.send_signal(sig)  # the build's own process only: its workers must follow
            code = build.wait(timeout=60)
            killed += code != 0  # ended by the signal (killed, or stopped by its handler)
            deadline = time.monotonic() + 10
            while _in_session(build.pid) and time.monotonic() < deadline:
                time.sleep(0.1)
            assert _in_session(build.pid) == [], (seed, sig, "worker processes survived")
            assert _files(out) == before, (seed, sig, code)
    assert killed >= 3, f"only {killed} of 4 builds were killed mid-way; the test proves little"
    # What the killed builds left beside the site (if anything) is cleared by the next one.
    done = subprocess.run(_command(world, out), env=ENV, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert _files(out) == before
    assert [p.name for p in tmp_path.iterdir()] == ["public"]


def test_clearing_stale_builds_puts_a_swapped_out_site_back(tmp_path: Path) -> None:
    retired = tmp_path / ".public.old-999999999"  # a pid no process has
    retired.mkdir()
    (retired / "index.html").write_text("the previous site")
    (tmp_path / ".public.building-999999999").mkdir()
    clear_stale_builds(tmp_path / "public")
    assert (tmp_path / "public" / "index.html").read_text() == "the previous site"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["public"]


def _break_line(world: SynthWorld, line: int) -> Path:
    trials = world.submissions / world.slugs[1] / "results" / "2026-11-01" / "trials.jsonl"
    lines = trials.read_text().splitlines()
    record = json.loads(lines[line - 1])
    record["status"] = "weird"
    lines[line - 1] = json.dumps(record)
    trials.write_text("\n".join(lines) + "\n")
    return trials


def test_a_bad_trials_line_is_one_error_line(tmp_path: Path) -> None:
    world = synthesize(tmp_path / "w", SynthSpec(entries=2, tasks=3, trials=4, xss_probes=False))
    trials = _break_line(world, 3)
    done = subprocess.run(
        _command(world, tmp_path / "public"), env=ENV, capture_output=True, text=True
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"error: {trials}: line 3: status:")
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "public").exists()


def test_a_record_failing_in_a_worker_comes_back_as_itself(tmp_path: Path) -> None:
    # The file changes after the inputs were read, so the worker is the first to see it; a
    # LoadError that could not be unpickled used to come back as BrokenProcessPool.
    world = synthesize(tmp_path / "w", SynthSpec(entries=2, tasks=3, trials=4, xss_probes=False))
    inputs = load_inputs(world.submissions, world.snapshots, world.tasks)
    runs = [(e, r) for e in inputs.entries for r in e.runs if r.snapshot == "2026-11-01"]
    trials = _break_line(world, 2)
    staged = start_trial_pages(
        environment(SITE_DIR / "templates"), inputs, runs, tmp_path / "staging", workers=2
    )
    assert staged.pool is not None
    with pytest.raises(LoadError) as raised:
        staged.finish(tmp_path / "site", None)
    assert raised.value.one_line().startswith(f"{trials}: line 2: status:")
    error = LoadError(trials, ["line 2: status: bad"])
    assert pickle.loads(pickle.dumps(error)).one_line() == error.one_line()
