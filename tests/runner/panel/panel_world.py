"""The panel's shared world: every agent on the shipped suite x 4 seeds, run once per test process.

Every agent runs the real trial loop in process (standard tools, scripted user, tool budget) on
every task of the shipped suite × 4 seeds; the adversaries get no task (as any submission), and
`informed` reads only the names of the constrained fields. The bounds are issue 21's, from
`domains.movies.panel_targets` (`benchmarks/user_fidelity.py` prints every one of them, including
those this suite does not meet yet).
"""

from __future__ import annotations

import asyncio
import json
import os
import tempfile
from functools import cache
from pathlib import Path

from filelock import FileLock

from domains.movies.catalog import Catalog
from domains.movies.panel_play import play_panel_trial
from domains.movies.scoring import score_transcript
from domains.movies.tasks import Task, load_tasks
from runner.core.metrics import pass_hat_k
from runner.core.paths import POLICY_PATH, SNAPSHOTS_DIR, TASKS_DIR

TRIALS = 4


@cache
def _world() -> tuple[Catalog, list[Task], str]:
    snapshot = sorted(p for p in SNAPSHOTS_DIR.iterdir() if p.is_dir())[-1]
    return Catalog.load(snapshot), load_tasks(TASKS_DIR), POLICY_PATH.read_text(encoding="utf-8")


@cache
def successes(agent: str) -> dict[str, tuple[bool, ...]]:
    """Per task id: which of the TRIALS seeds ended with reward 1.

    Both panel files need the expert and the heuristic; under xdist they run on two workers, so
    the first to need an agent plays it and the other reads its result (one file per test run).
    """
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    if run is None:
        return _play(agent)
    folder = Path(tempfile.gettempdir()) / f"taurec-panel-{run}"
    folder.mkdir(exist_ok=True)
    path = folder / f"{agent}.json"
    with FileLock(f"{path}.lock"):
        if path.exists():
            return {k: tuple(v) for k, v in json.loads(path.read_text()).items()}
        out = _play(agent)
        path.write_text(json.dumps(out))
        return out


def _play(agent: str) -> dict[str, tuple[bool, ...]]:
    catalog, tasks, policy = _world()
    out: dict[str, tuple[bool, ...]] = {}

    async def play_all() -> None:
        for task in tasks:
            wins = []
            for seed in range(TRIALS):
                transcript = await play_panel_trial(agent, task, catalog, policy, seed)
                wins.append(score_transcript(task, transcript, catalog).reward == 1.0)
            out[task.id] = tuple(wins)

    # One event loop for the agent's 240 trials, one after another (asyncio.run per trial spent
    # ~4 ms a trial formatting an error message about its signal handler).
    loop = asyncio.new_event_loop()
    try:
        loop.run_until_complete(play_all())
    finally:
        loop.close()
    return out


def pass_k(agent: str, k: int, reveal: str | None = None) -> float:
    _catalog, tasks, _policy = _world()
    wanted = {t.id for t in tasks if reveal is None or t.reveal_difficulty == reveal}
    values = [
        pass_hat_k(TRIALS, sum(wins), k)
        for task_id, wins in successes(agent).items()
        if task_id in wanted
    ]
    return sum(v for v in values if v is not None) / len(values)
