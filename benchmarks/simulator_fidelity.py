"""Print the simulated user's own fidelity in LLM mode: reader vs labels, its error rate, and writer parity.

Offline, against the model server's stand-ins (`domains.movies.served`) over loopback HTTP, through
the client path a run uses:
1. Reader vs labels: the model reader (stand-in `taurec-user-reader`) on every labelled corpus
   under corpora/reader (1,938 messages), scored by `reader_score` beside the rule reader. The
   stand-in knows only what a request carries, so where the two differ is what a model reader
   that reads only the request would miss (people of the catalog outside the titles named).
2. The simulator's error rate: reader fallbacks per agent message read and writer guard
   triggers per user message written, by reason, over the shipped suite x 4 seeds with the
   heuristic agent (LLM mode, `taurec-user`).
3. Writer parity: the same trials with the template writer and with the model writer (both with
   the model reader): pass^1 with each and whether the verdict sequences are identical. The
   decisions are the engine's, so they must be; the words differ only when a writer does.

Usage: python -m benchmarks.simulator_fidelity [--seeds 4] [--tasks N] [--concurrency 8]
"""

from __future__ import annotations

import argparse
import asyncio
import time
from collections import Counter
from typing import Any

from domains.movies.catalog import Catalog
from domains.movies.scoring import score_transcript
from domains.movies.simulators import audit_leaks, build_simulator
from domains.movies.simulators.model_reader import ModelReader
from domains.movies.simulators.reader import Reading, rule_reader
from domains.movies.simulators.reader_score import (
    CORPUS_SNAPSHOT,
    READER_CORPORA,
    LabelledMessage,
    load_corpus,
    score_reader,
)
from domains.movies.tasks import Task, load_tasks
from domains.movies.tools import build_toolset
from domains.movies.validate import resolve_catalog_path
from runner.agents import build_builtin
from runner.core.metrics import PASS_THRESHOLD
from runner.core.paths import PROJECT_ROOT, SNAPSHOTS_DIR, TASKS_DIR
from runner.core.protocols import AgentContext, UserSimulator, UserTurn
from runner.core.transcript import ComponentSpec, MessageEvent, Transcript
from runner.models.llm_client import run_closing_clients
from runner.models.model_server import serve_model
from runner.models.user_model import ModelEndpoint
from runner.play.loop import run_trial


class _Answered:
    """A reader whose readings were fetched beforehand (score_reader reads synchronously)."""

    def __init__(self, readings: dict[tuple[str, frozenset[str]], Reading]) -> None:
        self._readings = readings

    def read(
        self, text: str, *, watched: frozenset[str] = frozenset(), pending: str | None = None
    ) -> Reading:
        return self._readings[(text, watched)]


async def _model_readings(
    url: str, catalog: Catalog, corpus: list[LabelledMessage]
) -> tuple[dict[tuple[str, frozenset[str]], Reading], Counter[str]]:
    reader = ModelReader(catalog, ModelEndpoint("openai/taurec-user-reader", api_base=url))
    readings: dict[tuple[str, frozenset[str]], Reading] = {}
    fallbacks: Counter[str] = Counter()
    for m in corpus:
        watched = frozenset(m.watched)
        outcome = await reader.read(m.text, watched=watched)
        readings[(m.text, watched)] = outcome.reading
        if outcome.note is not None:
            fallbacks[outcome.note.reason] += 1
    return readings, fallbacks


def reader_vs_labels(url: str) -> None:
    catalog = Catalog.load(
        SNAPSHOTS_DIR / CORPUS_SNAPSHOT
    )  # the catalog the corpora are labelled on
    corpus = load_corpus(*sorted(READER_CORPORA.glob("*/*.jsonl")))
    if not corpus:
        raise SystemExit(f"no labelled messages under {READER_CORPORA}")
    readings, fallbacks = run_closing_clients(_model_readings(url, catalog, corpus))
    model = score_reader(_Answered(readings), corpus)
    rules = score_reader(rule_reader(catalog), corpus)
    print(f"== 1. reader vs labels ({READER_CORPORA.relative_to(PROJECT_ROOT)}, all sets) ==")
    print(f"model reader (stand-in taurec-user-reader), fallbacks: {dict(fallbacks) or 0}")
    print(model.format_text())
    print("rule reader, for comparison:")
    print(rules.format_text())
    differ = sum(
        1
        for m in corpus
        if readings[(m.text, frozenset(m.watched))]
        != rule_reader(catalog).read(m.text, watched=frozenset(m.watched))
    )
    print(f"messages the two read differently: {differ}/{len(corpus)}")


class _Recording:
    """A user simulator that keeps the verdict of every turn (the engine's decisions, in order)."""

    def __init__(self, inner: UserSimulator) -> None:
        self._inner = inner
        self.verdicts: list[str] = []

    @property
    def spec(self) -> ComponentSpec:
        return self._inner.spec

    async def respond(self, conversation: list[MessageEvent]) -> UserTurn:
        turn = await self._inner.respond(conversation)
        self.verdicts.append(turn.verdict)
        return turn


Trial = tuple[Task, Transcript, list[str]]


async def _trials(
    url: str,
    catalog: Catalog,
    tasks: list[Task],
    seeds: int,
    modes: dict[str, tuple[str, dict[str, Any] | None]],
    concurrency: int,
) -> dict[str, list[Trial]]:
    policy = (TASKS_DIR / "policy.md").read_text(encoding="utf-8")
    gate = asyncio.Semaphore(concurrency)

    async def one(task: Task, seed: int, name: str, options: dict[str, Any] | None) -> Trial:
        async with gate:
            context = AgentContext(user_id=task.user_id, policy_text=policy, seed=seed, task=task)
            user = _Recording(
                build_simulator(name, task=task, catalog=catalog, seed=seed, options=options)
            )
            transcript = await run_trial(
                task=task,
                catalog=catalog,
                agent=build_builtin("heuristic", context),
                simulator=user,
                toolset=build_toolset(catalog, task),
                seed=seed,
                trial_index=seed,
            )
            return task, transcript, user.verdicts

    out: dict[str, list[Trial]] = {}
    jobs = [(task, seed) for task in tasks for seed in range(seeds)]
    for mode, (name, options) in modes.items():
        out[mode] = list(await asyncio.gather(*(one(t, s, name, options) for t, s in jobs)))
    return out


def _pass1(catalog: Catalog, trials: list[Trial]) -> tuple[float, int]:
    """pass^1 over tasks (mean of c/n over scored trials), and the infra errors left out."""
    by_task: dict[str, list[bool]] = {}
    errors = 0
    for task, t, _verdicts in trials:
        if t.stop_reason == "infra_error":
            errors += 1
            continue
        passed = score_transcript(task, t, catalog).reward >= PASS_THRESHOLD
        by_task.setdefault(task.id, []).append(passed)
    shares = [sum(v) / len(v) for v in by_task.values() if v]
    return (sum(shares) / len(shares) if shares else float("nan")), errors


def error_rate_and_parity(url: str, tasks: list[Task], seeds: int, concurrency: int) -> None:
    catalog = Catalog.load(resolve_catalog_path(None))
    base = {"api_base": url}
    modes: dict[str, tuple[str, dict[str, Any] | None]] = {
        "scripted": ("scripted", None),
        "llm: model reader + template writer": (
            "litellm:openai/taurec-user",
            {**base, "writer": "templates"},
        ),
        "llm: model reader + model writer": ("litellm:openai/taurec-user", base),
    }
    started = time.perf_counter()
    runs = run_closing_clients(_trials(url, catalog, tasks, seeds, modes, concurrency))
    elapsed = time.perf_counter() - started
    llm = runs["llm: model reader + model writer"]
    written = sum(sum(1 for m in t.messages if m.role == "user") for _task, t, _v in llm)
    read = written - len(llm)  # every reply but the opening reads one agent message
    reasons: Counter[str] = Counter(
        f"{n.component}:{n.reason}" for _task, t, _v in llm for n in t.simulator_notes
    )
    reader_fb = sum(v for k, v in reasons.items() if k.startswith("reader:"))
    writer_fb = sum(v for k, v in reasons.items() if k.startswith("writer:"))
    leaks = sum(len(audit_leaks(task, t).leaks) for task, t, _v in llm)
    trials = len(llm)
    print()
    print(f"== 2. simulator error rate: {len(tasks)} tasks x {seeds} seeds, heuristic agent ==")
    print(f"trials: {trials} per mode, 3 modes in {elapsed:.1f}s")
    print(f"reader fallbacks: {reader_fb}/{read} agent messages read ({_share(reader_fb, read)})")
    print(
        f"writer guard triggers: {writer_fb}/{written} user messages ({_share(writer_fb, written)})"
    )
    print(f"by reason: {dict(sorted(reasons.items())) or 'none'}")
    print(f"leak audit on the LLM-mode transcripts: {leaks} leak(s)")
    print()
    print("== 3. writer parity (same reader, same agent, same seeds) ==")
    scripted = runs["scripted"]
    for mode, trials_of_mode in runs.items():
        pass1, errors = _pass1(catalog, trials_of_mode)
        same = sum(1 for a, b in zip(scripted, trials_of_mode, strict=True) if a[2] == b[2])
        words = sum(
            1
            for a, b in zip(scripted, trials_of_mode, strict=True)
            if a[1].messages == b[1].messages
        )
        print(
            f"{mode:<36} pass^1 {pass1:.4f}  infra errors {errors}  verdict sequence as "
            f"scripted {same}/{len(scripted)}  identical words {words}/{len(scripted)}"
        )


def _share(part: int, whole: int) -> str:
    return f"{part / whole:.2%}" if whole else "n/a"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--tasks", type=int, default=None, help="first N tasks (default: all)")
    parser.add_argument("--concurrency", type=int, default=8)
    args = parser.parse_args()
    tasks = [t for t in load_tasks(TASKS_DIR) if not t.retired]
    if args.tasks:
        tasks = tasks[: args.tasks]
    with serve_model() as url:
        reader_vs_labels(url)
        error_rate_and_parity(url, tasks, args.seeds, args.concurrency)


if __name__ == "__main__":
    main()
