"""Batch-runner throughput: 60 tasks × 8 trials of a LiteLLM submission against the local model server.

What it measures (each phase runs in its own fresh process so CPU time and peak memory are its own):

* ``litellm`` phase: the model server (``runner.models.model_server``, +200 ms per call) runs in a
  separate process and serves BOTH roles: the agent (a ``kind: litellm`` submission, model
  ``openai/heuristic``) and the user in LLM mode (``litellm:openai/taurec-user``, the server's
  reader and writer stand-ins), both through one model client (``--client``: ``both``, the
  default, runs every phase below once per path and then prints them side by side; ``direct``
  is ``runner.models.openai_compat``, what ``taurec run`` picks for this OpenAI-compatible server;
  ``litellm`` forces the LiteLLM client, the path of every hosted provider; each figure says
  which path it is), at concurrency 64 and with ``--workers`` processes
  (default: the machine's cores, as ``taurec run``). Printed: wall time of the batch (the client is
  imported and makes one call before the clock starts), the ideal wall time ``calls on the trials'
  chains × latency / concurrency`` (the user words each reply while its model reader reads, so
  the reader's calls, served as ``taurec-user-reader`` and counted apart in the records, are off
  the chains), their ratio (target ≤ 1.30 on 2 cores), and the CPU time of the process tree
  (the run's process and its helpers, not the server: a process of its own whose CPU is read
  apart), and the peak PSS of that process tree (sampled every 100 ms; a page a forked helper
  shares with its parent counts once).
* ``profile`` phase (``--profile-trials``, default ``--trials``, in one process): the same run
  under cProfile with a CPU-time timer on the main thread, plus each thread's CPU from /proc. The
  client's ("LiteLLM's") share is attributed by call graph: the time of every call INTO LiteLLM or
  its HTTP stack (litellm, openai, httpx, httpcore, aiohttp, yarl, multidict, ...;
  ``runner.models.llm_client.chat_completion``; and the direct client ``runner.models.openai_compat``, request
  encoding included) from code outside it, so work the client does on our behalf counts as its,
  whoever runs it; LiteLLM's executor threads (``asyncio_*``, where it builds each request) are
  all LiteLLM's.
  "CPU per call excluding LiteLLM" = the litellm run's CPU per call × (1 − that share)
  (target < 0.5 ms).
* ``builtin`` phase: the same tasks × trials with the in-process ``builtin`` heuristic agent (no
  LiteLLM, no HTTP, no added latency) at the same concurrency. The agent, the simulator and the
  toolset are wrapped so the main-thread CPU time (``time.thread_time``) inside each call is added
  up; none of them awaits I/O there, so each delta is that call's own CPU. Per agent step (= model
  call) it prints: the runner (process CPU minus policy, simulator and tools: the loop, scheduling,
  scoring, records, transcripts, the I/O thread; target < 1 ms), the simulator, the tools, and the
  heuristic policy (which runs in the server process in the litellm phase).
* LiteLLM's own overhead per call = ``litellm-run CPU / model calls − builtin-run
  (runner+simulator+tools) per step``: LiteLLM, its HTTP client and the agent's request building
  and parsing. The server's CPU per call (HTTP + heuristic policy) is read from /proc for its pid.
* ``split`` phase: the litellm run's trials again in one process, with the thread CPU of every
  event-loop callback given to its owner (``_LoopCPU``): ours (our tasks' steps less the client
  coroutine steps nested in them, our callbacks, the commit thread), the client's (its coroutine,
  aiohttp's own tasks and socket callbacks) and the loop's own (selector, futures, timers).
* ``record`` and ``client`` phases (``--client-alone``, default on): the same trials once more in
  one process with every request the client is asked to send kept, then those requests alone sent
  again through the same client, over the litellm run's process count and concurrency, against
  the same server: the client's CPU for exactly those calls. "CPU per call excl. the client" =
  the litellm run's CPU per call minus that (interference between the two counts as ours).
* A second ``litellm`` run at a low concurrency (``--low-concurrency``, default 8, with
  ``--low-trials``) where the client is not CPU-bound, to separate scheduling from CPU limits.
* For each litellm run: "ideal with chains" (each trial is a chain of sequential calls; list
  scheduling of those chains with calls of exactly the latency and zero CPU: the tail alone) and
  "best ratio possible" = ``max(client CPU, (client + server CPU) / cores, ideal) / ideal``: the
  client is one Python process, so its CPU is serial under the GIL however many cores there are.

Imports, the search index and LiteLLM's first call happen before the clock starts. On a shared
machine the load average is printed for context. ``--server thread`` runs the model server in
the client's process instead (its CPU then competes for the client's GIL).

Run: ``.venv/bin/python benchmarks/runner_throughput.py`` (~1.5 min idle; options: --trials,
--tasks-limit, --concurrency, --latency-ms, --low-concurrency, --low-trials, --server). Uses our
suite (tasks/ + the latest snapshot) when present, else the v1 data (``TAUREC_V1_DATA`` or
../shared/datasets/tau-rec-v1).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import multiprocessing as mp
import os
import pickle
import pstats
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import types
from pathlib import Path
from typing import Any

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
# With --client litellm, LiteLLM's lean HTTP path is its default (runner.models.llm_client); add
# EXPERIMENTAL_OPENAI_BASE_LLM_HTTP_HANDLER=False to measure the OpenAI SDK path instead.

import yaml
from _common import tree_memory_kib

from runner.batch import run_submissions_async
from runner.batch.inputs import dated_snapshots
from runner.core.paths import SNAPSHOTS_DIR, TASKS_DIR, v1_data_dir
from runner.core.protocols import (
    Agent,
    AgentContext,
    AgentReply,
    ChatMessage,
    ToolOutcome,
    ToolSchema,
    Toolset,
    UserSimulator,
    UserTurn,
)
from runner.core.transcript import ComponentSpec, MessageEvent
from runner.models.llm_client import CLIENT_ENV
from runner.play.agent_config import AgentConfig
from tests.processes import peak_rss


def _suite(limit: int, workdir: Path) -> tuple[Path, Path, str]:
    """(snapshot, tasks dir, label): our suite if it exists, else the v1 data; first `limit` tasks."""
    if list(TASKS_DIR.glob("*.json")) and dated_snapshots(SNAPSHOTS_DIR):
        snapshot, tasks, policy, label = (
            dated_snapshots(SNAPSHOTS_DIR)[-1],
            TASKS_DIR,
            TASKS_DIR / "policy.md",
            "ours",
        )
    else:
        v1 = v1_data_dir()
        snapshot, tasks, policy, label = v1 / "catalog.json", v1 / "tasks", v1 / "policy.md", "v1"
    files = sorted(tasks.glob("*.json"))[:limit]
    chosen = workdir / "suite" / "tasks"
    chosen.mkdir(parents=True)
    for file in files:
        shutil.copy(file, chosen / file.name)
    shutil.copy(policy, chosen / "policy.md")
    return snapshot, chosen, f"{label} ({len(files)} tasks)"


def _submission(workdir: Path, agent: dict[str, Any]) -> Path:
    folder = workdir / "subs" / "bench"
    folder.mkdir(parents=True)
    data = {"slug": "bench", "display_name": "Bench", "contact": {"name": "bench"}, "agent": agent}
    (folder / "submission.yaml").write_text(yaml.safe_dump(data))
    return folder


def _serve(queue: Any, latency_ms: float) -> None:
    from runner.models.model_server import ServerOptions, serve_model_forever

    serve_model_forever(options=ServerOptions(latency_ms=latency_ms), ready=queue.put)


READER_MODEL = "openai/taurec-user-reader"


def _reader_calls(usage: dict[str, Any]) -> int:
    """The user reader's calls in a trial record's usage (keyed `user:<model>`)."""
    found = usage.get(f"user:{READER_MODEL}")
    return int(found.calls) if found is not None else 0


def schedule_s(chains: list[int], latency_s: float, concurrency: int) -> float:
    """Wall time if every call took exactly `latency_s` and nothing else cost time: each trial is a
    chain of sequential calls, taken in the runner's order by the first free worker."""
    import heapq

    free = [0.0] * concurrency
    end = 0.0
    for calls in chains:
        start = heapq.heappop(free)
        finish = start + calls * latency_s
        end = max(end, finish)
        heapq.heappush(free, finish)
    return end


def _process_cpu_s(pid: int) -> float | None:
    """User + system CPU seconds of another process so far (Linux /proc; None elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _tree_cpu_s() -> float:
    """User + system CPU of this process and its reaped children (the run's helper processes)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def _thread_cpu() -> dict[str, float]:
    """CPU seconds per thread of this process, keyed `name:tid` (Linux /proc)."""
    import threading

    names = {t.native_id: t.name for t in threading.enumerate()}  # the OS names are all "python"
    out: dict[str, float] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for task in Path("/proc/self/task").iterdir():
        try:
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        name = names.get(int(task.name), "unnamed")
        key = "main" if task.name == str(os.getpid()) else f"{name}:{task.name}"
        out[key] = (int(fields[11]) + int(fields[12])) / tick
    return out


class _ThreadSampler:
    """Samples every thread's CPU every 20 ms and keeps the last figure of each: threads that
    end before the run does (the event loop's executor, the I/O thread) are still counted. Also
    the peak PSS of this process and its helpers (every 100 ms)."""

    def __init__(self) -> None:
        import threading

        self.seen: dict[str, float] = {}
        self.peak_pss_kib = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="bench-sampler", daemon=True)

    def _loop(self) -> None:
        tick = 0
        while not self._stop.wait(0.02):
            self.seen.update(_thread_cpu())
            tick += 1
            if tick % 5 == 0:
                self.peak_pss_kib = max(self.peak_pss_kib, tree_memory_kib(os.getpid())[1])

    def __enter__(self) -> _ThreadSampler:
        self.seen.update(_thread_cpu())
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.seen.update(_thread_cpu())
        self.seen = {k: v for k, v in self.seen.items() if not k.startswith("bench-sampler")}


# Where LiteLLM's work happens: LiteLLM itself, the OpenAI SDK and the HTTP stacks under them.
_CLIENT_PATHS = tuple(
    f"/site-packages/{p}/"
    for p in (
        "litellm", "openai", "httpx", "httpcore", "h11", "aiohttp", "aiohappyeyeballs", "yarl",
        "multidict", "propcache", "frozenlist", "aiosignal", "tiktoken", "tokenizers", "anyio",
        "sniffio", "certifi", "jiter", "distro",
    )
)  # fmt: skip


def _is_client(func: tuple[str, int, str]) -> bool:
    filename, _, name = func
    if filename.endswith("runner/models/llm_client.py"):
        return name in ("chat_completion", "response_cost")
    if filename.endswith(
        "runner/models/openai_compat.py"
    ):  # the direct client: request JSON + aiohttp
        return True
    return any(p in filename for p in _CLIENT_PATHS)


def _litellm_share(profiler: cProfile.Profile, threads: dict[str, float]) -> dict[str, float]:
    """How much of the run's CPU is LiteLLM's: main-thread CPU under calls into the client (by call
    graph: the cumulative time of every call into it from outside it), plus its executor threads."""
    stats: dict[Any, Any] = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    total = sum(entry[2] for entry in stats.values())
    client = 0.0
    for func, (_, _, _, cumulative, callers) in stats.items():
        if not _is_client(func):
            continue
        if not callers:
            client += cumulative
        client += sum(c[3] for caller, c in callers.items() if not _is_client(caller))
    main = threads.get("main", 0.0)
    executor = sum(v for k, v in threads.items() if k.startswith("asyncio_"))
    ours_io = sum(v for k, v in threads.items() if k.startswith("taurec-"))  # commit, inbox
    other = sum(threads.values()) - main - executor - ours_io
    share_main = client / total if total else 0.0
    litellm_cpu = main * share_main + executor + other
    all_cpu = sum(threads.values())
    return {
        "main_s": main,
        "main_litellm_share": share_main,
        "executor_s": executor,
        "io_s": ours_io,
        "other_s": other,
        "share": litellm_cpu / all_cpu if all_cpu else 0.0,
    }


class _Meter:
    """Main-thread CPU time spent inside the agent, the simulator and the tools (none of them awaits
    I/O in the builtin phase, so a `thread_time` delta around each call is exactly its own CPU)."""

    policy = 0.0
    simulator = 0.0
    tools = 0.0
    steps = 0


class _Metered:
    """Wraps an agent or a user simulator under its own spec, to time what it spends."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    @property
    def spec(self) -> ComponentSpec:
        spec: ComponentSpec = self._inner.spec
        return spec


class _MeteredAgent(_Metered):
    async def step(self, messages: list[ChatMessage], tools: list[ToolSchema]) -> AgentReply:
        start = time.thread_time()
        reply = await self._inner.step(messages, tools)
        _Meter.policy += time.thread_time() - start
        _Meter.steps += 1
        return reply


class _MeteredSimulator(_Metered):
    async def respond(self, conversation: list[MessageEvent]) -> UserTurn:
        start = time.thread_time()
        turn = await self._inner.respond(conversation)
        _Meter.simulator += time.thread_time() - start
        return turn


class _MeteredToolset:
    def __init__(self, inner: Toolset) -> None:
        self._inner = inner

    @property
    def names(self) -> list[str]:
        return self._inner.names

    def schemas(self) -> list[ToolSchema]:
        return self._inner.schemas()

    def call(self, name: str, arguments: str | dict[str, Any]) -> ToolOutcome:
        start = time.thread_time()
        outcome = self._inner.call(name, arguments)
        _Meter.tools += time.thread_time() - start
        return outcome


def _metered_factory(config: AgentConfig, context: AgentContext) -> Agent:
    from runner.agents import build_agent

    return _MeteredAgent(build_agent(config, context))


def _install_meters() -> None:
    """Wrap the simulator and toolset builders the runner imports per trial (benchmark only)."""
    import domains.movies.simulators
    import domains.movies.tools

    build_simulator, build_toolset = (
        domains.movies.simulators.build_simulator,
        domains.movies.tools.build_toolset,
    )

    def simulator(*args: Any, **kwargs: Any) -> UserSimulator:
        return _MeteredSimulator(build_simulator(*args, **kwargs))

    def toolset(*args: Any, **kwargs: Any) -> Toolset:
        return _MeteredToolset(build_toolset(*args, **kwargs))

    domains.movies.simulators.build_simulator = simulator
    domains.movies.tools.build_toolset = toolset  # type: ignore[assignment]


def _warm_up() -> None:
    """Import everything a trial touches before the clock starts (one-time costs are not per call)."""
    import domains.movies.scoring
    import domains.movies.search
    import domains.movies.simulators
    import domains.movies.tools  # noqa: F401


async def _first_call(url: str) -> None:
    from runner.models.llm_client import aclose_clients, chat_completion

    await chat_completion(
        model="openai/heuristic",
        api_base=url,
        api_key="x",
        messages=[{"role": "user", "content": "hi"}],
        max_retries=0,
    )
    await aclose_clients()


_CLIENT_MODULES = (
    "aiohttp",
    "aiohappyeyeballs",
    "yarl",
    "multidict",
    "runner.models.openai_compat",
)


def _module_of(obj: Any) -> str:
    return str(getattr(obj, "__module__", "") or getattr(type(obj), "__module__", ""))


class _LoopCPU:
    """Exact CPU split of a run in one process (split phase), from the thread CPU of every event
    loop callback: a task's step goes to the client when the task runs the client's code (aiohttp's
    body writer, say) and to us otherwise, less the steps of the client's own coroutine
    (`runner.models.openai_compat.chat_completion`) nested in it; a socket callback goes to whoever owns
    the protocol (aiohttp's response handler: the client); the commit thread is ours. What is
    left (the selector, the loop's own bookkeeping, future plumbing) is the loop's."""

    def __init__(self) -> None:
        self.seconds = {"ours": 0.0, "client": 0.0, "loop": 0.0}
        self._nested = 0.0  # client coroutine CPU inside the current callback

    def _owner(self, callback: Any) -> str:
        target = getattr(callback, "__self__", None)
        if isinstance(target, asyncio.Task):
            code = getattr(target.get_coro(), "cr_code", None)
            where = (code.co_filename, code.co_firstlineno, code.co_name) if code else ("", 0, "")
            return "client" if _is_client(where) else "ours"  # as the cProfile share decides
        protocol = getattr(target, "_protocol", None)
        module = _module_of(protocol if protocol is not None else target or callback)
        if module.startswith(_CLIENT_MODULES):
            return "client"
        if module.startswith(("runner", "benchmarks", "tqdm", "rich")):
            return "ours"
        inner = getattr(callback, "func", None)  # functools.partial(...)
        if inner is not None and _module_of(inner).startswith("runner"):
            return "ours"
        return "loop"

    @types.coroutine
    def _client_steps(self, coro: Any) -> Any:
        value: Any = None
        error: BaseException | None = None
        while True:
            started = time.thread_time()
            try:
                yielded = coro.send(value) if error is None else coro.throw(error)
            except StopIteration as stop:
                self._nested += time.thread_time() - started
                return stop.value
            except BaseException:
                self._nested += time.thread_time() - started
                raise
            self._nested += time.thread_time() - started
            try:
                value, error = (yield yielded), None
            except BaseException as exc:
                value, error = None, exc

    def install(self) -> None:
        from runner.batch import store
        from runner.models import openai_compat

        split = self
        run_handle = asyncio.events.Handle._run
        send = openai_compat.chat_completion
        commit = store.GroupCommitter._commit

        def timed_handle(handle: Any) -> None:
            split._nested = 0.0
            started = time.thread_time()
            try:
                run_handle(handle)
            finally:
                spent = time.thread_time() - started
                owner = split._owner(handle._callback)
                split.seconds["client"] += split._nested
                split.seconds[owner] += spent - split._nested

        async def timed_send(**kwargs: Any) -> Any:
            return await split._client_steps(send(**kwargs))

        def timed_commit(committer: Any, batch: Any) -> Any:
            started = time.thread_time()
            try:
                return commit(committer, batch)
            finally:
                split.seconds["ours"] += time.thread_time() - started

        setattr(asyncio.events.Handle, "_run", timed_handle)  # noqa: B010 (a patch, on purpose)
        setattr(openai_compat, "chat_completion", timed_send)  # noqa: B010
        setattr(store.GroupCommitter, "_commit", timed_commit)  # noqa: B010


def _record_requests(into: list[dict[str, Any]]) -> None:
    """Keep a copy of every request the model client is asked to send (record phase)."""
    from runner.models import llm_client

    send = llm_client.chat_completion

    async def recording(**kwargs: Any) -> Any:
        into.append(dict(kwargs))
        return await send(**kwargs)

    setattr(llm_client, "chat_completion", recording)  # noqa: B010 (a patch, on purpose)
    for module in ("runner.agents.litellm_agent", "runner.models.user_model"):
        loaded = sys.modules.get(module)
        if loaded is not None and hasattr(loaded, "chat_completion"):
            setattr(loaded, "chat_completion", recording)  # noqa: B010


def _replay(requests: list[dict[str, Any]], url: str, concurrency: int) -> None:
    """Send `requests` through the model client, `concurrency` at a time (one helper process)."""
    from runner.models.llm_client import aclose_clients, chat_completion

    async def main() -> None:
        pending = iter(requests)

        async def lane() -> None:
            for kwargs in pending:
                await chat_completion(**{**kwargs, "api_base": url})

        try:
            await asyncio.gather(*(lane() for _ in range(concurrency)))
        finally:
            await aclose_clients()

    asyncio.run(main())


def _client_phase(args: argparse.Namespace) -> dict[str, Any]:
    """The recorded requests alone, through the same client, over as many processes and at the
    same concurrency as the litellm run: the client's own CPU for exactly those calls."""
    from runner.batch.workers import split_concurrency
    from runner.models.llm_client import import_litellm, uses_direct_path

    with open(args.requests_file, "rb") as fh:
        requests: list[dict[str, Any]] = pickle.load(fh)
    if not uses_direct_path("openai/heuristic", "http://127.0.0.1/v1"):
        import_litellm()
    queue: Any = mp.get_context("spawn").Queue()
    server = mp.get_context("spawn").Process(
        target=_serve, args=(queue, args.latency_ms), daemon=True
    )
    server.start()
    try:
        url = queue.get(timeout=60)
        asyncio.run(_first_call(url))
        shares = split_concurrency(args.concurrency, args.workers)
        parts = [requests[i :: len(shares)] for i in range(len(shares))]
        fork = mp.get_context("fork")
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        helpers = [
            fork.Process(target=_replay, args=(part, url, share))
            for part, share in zip(parts, shares, strict=True)
        ]
        for helper in helpers:
            helper.start()
        for helper in helpers:
            helper.join()
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if any(h.exitcode != 0 for h in helpers):
            raise SystemExit("client phase: a replay process failed")
    finally:
        server.terminate()
        server.join(5)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"phase": "client", "calls": len(requests), "cpu_s": cpu, "wall_s": wall}


def _phase(name: str, args: argparse.Namespace) -> dict[str, Any]:
    workdir = Path(tempfile.mkdtemp(prefix=f"taurec-bench-{name}-"))
    server = None
    in_process: Any = None
    server_cpu: Any = None  # () -> CPU seconds the model server has used so far
    simulator, simulator_options = "scripted", None
    profiler = cProfile.Profile(timer=time.thread_time) if name == "profile" else None
    try:
        snapshot, tasks, suite = _suite(args.tasks_limit, workdir)
        _warm_up()
        if name in ("litellm", "profile", "record", "split"):
            from runner.models.llm_client import import_litellm, uses_direct_path

            if not uses_direct_path("openai/heuristic", "http://127.0.0.1/v1"):
                import_litellm()  # its import is not a per-call cost
            if args.server == "process":
                queue: Any = mp.get_context("spawn").Queue()
                server = mp.get_context("spawn").Process(
                    target=_serve, args=(queue, args.latency_ms), daemon=True
                )
                server.start()
                url = queue.get(timeout=60)
                pid = server.pid

                def server_cpu() -> float | None:
                    return _process_cpu_s(pid) if pid is not None else None
            else:  # a thread of this process: its CPU is in the client's, under the same GIL
                from runner.models.model_server import serve_model

                in_process = serve_model(latency_ms=args.latency_ms)
                url = in_process.__enter__()
            # One real call first: the client's lazy imports on the first call are not per-call costs.
            asyncio.run(_first_call(url))
            agent: dict[str, Any] = {
                "kind": "litellm",
                "model": "openai/heuristic",
                "api_base": url,
                "timeout_s": 60,
            }
            factory = None
            if args.simulator == "litellm":
                # The stand-ins `taurec-user` serves, by their own names: the records count the
                # reader's calls apart (they overlap the writer's, off the trials' chains).
                simulator, simulator_options = (
                    "litellm:openai/taurec-user",
                    {
                        "api_base": url,
                        "reader_model": READER_MODEL,
                        "writer_model": "openai/taurec-user-writer",
                    },
                )
        else:
            agent = {"kind": "builtin", "name": "heuristic"}
            factory = _metered_factory
            _install_meters()
        sub = _submission(workdir, agent)
        recorded: list[dict[str, Any]] = []
        if name == "record":
            _record_requests(recorded)
        split = _LoopCPU() if name == "split" else None
        if split is not None:
            split.install()
        server0 = server_cpu() if server_cpu is not None else None
        threads0 = _thread_cpu()
        sampler = _ThreadSampler().__enter__()
        cpu0, wall0 = _tree_cpu_s(), time.perf_counter()
        if profiler is not None:
            profiler.enable()
        results = asyncio.run(
            run_submissions_async(
                [sub],
                snapshot=snapshot,
                tasks_dir=tasks,
                trials=args.trials,
                concurrency=args.concurrency,
                out=workdir / "out",
                agent_factory=factory,
                simulator=simulator,
                simulator_options=simulator_options,
                workers=args.workers if name == "litellm" else 1,
            )
        )
        if name == "record":
            with open(args.requests_file, "wb") as fh:
                pickle.dump(recorded, fh, protocol=pickle.HIGHEST_PROTOCOL)
        if profiler is not None:
            profiler.disable()
        wall, cpu = time.perf_counter() - wall0, _tree_cpu_s() - cpu0
        sampler.__exit__()
        threads = {k: v - threads0.get(k, 0.0) for k, v in sampler.seen.items()}
        if profiler is not None and args.dump_profile:
            profiler.dump_stats(args.dump_profile)
        server1 = server_cpu() if server_cpu is not None else None
        records = results[0].records
        # Model calls of both roles (the LiteLLM simulator's count too; the scripted one makes none).
        calls = sum(u.calls for r in records for k, u in r.usage.items())
        # The runner's job order: trial index, then task (as load_inputs lists them, by id). A
        # trial's chain: its calls less its reader's, which the user makes while its writer words
        # the reply it guesses (a wrong guess's writer call is off the chain, the right reply's
        # on it: still one per reader call off).
        chains = [
            sum(u.calls for u in r.usage.values()) - _reader_calls(r.usage)
            for r in sorted(records, key=lambda r: (r.key.trial_index, r.key.task_id))
        ]
        attributed = _litellm_share(profiler, threads) if profiler is not None else None
        return {
            "phase": name,
            "client": "litellm" if os.environ.get(CLIENT_ENV) == "litellm" else "direct",
            "suite": suite,
            "trials": len(records),
            "scored": sum(r.status == "scored" for r in records),
            "infra_errors": sum(r.status == "infra_error" for r in records),
            "passed": sum(1 for r in records if r.score is not None and r.score.reward >= 1),
            "model_calls": calls if name != "builtin" else _Meter.steps,
            "chain_calls": sum(chains),
            "litellm_share": attributed,
            "split": split.seconds if split is not None else None,
            "workers": args.workers if name == "litellm" else 1,
            "simulator": simulator,
            "wall_s": wall,
            "cpu_s": cpu,
            "cpu_policy_s": _Meter.policy,
            "cpu_simulator_s": _Meter.simulator,
            "cpu_tools_s": _Meter.tools,
            "server_cpu_s": None if server0 is None or server1 is None else server1 - server0,
            "server": args.server,
            "schedule_s": schedule_s(chains, args.latency_ms / 1000, args.concurrency),
            "concurrency": args.concurrency,
            "peak_rss_mib": peak_rss() / 2**20,  # this phase process's own (VmHWM)
            "peak_pss_mib": sampler.peak_pss_kib / 1024,
        }
    finally:
        if in_process is not None:
            in_process.__exit__(None, None, None)
        if server is not None:
            server.terminate()
            server.join(5)
        shutil.rmtree(workdir, ignore_errors=True)


def _run_phase(phase: str, args: argparse.Namespace, *, trials: int, concurrency: int) -> Any:
    """One phase in a fresh process (its own CPU time and peak memory); its figures as a dict."""
    command = [
        sys.executable,
        __file__,
        "--phase",
        phase,
        f"--trials={trials}",
        f"--concurrency={concurrency}",
        f"--tasks-limit={args.tasks_limit}",
        f"--latency-ms={args.latency_ms}",
        f"--server={args.server}",
        f"--workers={args.workers}",
        f"--simulator={args.simulator}",
        f"--dump-profile={args.dump_profile}",
        f"--requests-file={args.requests_file}",
    ]
    env = {**os.environ, CLIENT_ENV: "litellm" if args.client == "litellm" else "auto"}
    out = subprocess.run(command, check=True, capture_output=True, text=True, env=env)
    return json.loads(out.stdout.strip().splitlines()[-1])


def _ms(seconds: float, calls: int) -> str:
    return f"{seconds / max(calls, 1) * 1000:8.3f} ms"


def _report_litellm_run(run: dict[str, Any], harness_s_per_call: float, latency_ms: float) -> None:
    """Wall, ideal, ratio and CPU per model call of one litellm run."""
    calls, concurrency = run["model_calls"], run["concurrency"]
    ideal = run["chain_calls"] * latency_ms / 1000 / concurrency
    cores = os.cpu_count() or 1
    client_ms = run["cpu_s"] / max(calls, 1) * 1000
    litellm_ms = client_ms - harness_s_per_call * 1000
    server = run["server_cpu_s"]
    print(
        f"[{run['client']} client path] "
        f"litellm run at concurrency {concurrency}: {run['trials']} trials ({run['scored']} scored, "
        f"{run['infra_errors']} infra errors, {run['passed']} passed), {calls} model calls "
        f"(agent and user: {run['simulator']}), {run['workers']} worker process(es), "
        f"server in a {run['server']}"
    )
    print(f"  wall time            {run['wall_s']:8.2f} s")
    print(
        f"  ideal                {ideal:8.2f} s   (calls on the trials' chains, "
        f"{run['chain_calls']} = model calls less the user's reader calls, × {latency_ms:.0f} ms / "
        f"{concurrency})"
    )
    print(f"  ratio                {run['wall_s'] / ideal:8.3f}     (target ≤ 1.30 on 2 cores)")
    print(
        f"  ideal with chains    {run['schedule_s']:8.2f} s   (ratio {run['schedule_s'] / ideal:.3f}: "
        "trials are chains of sequential calls; the tail leaves workers idle)"
    )
    print(
        f"  client CPU / call    {client_ms:8.3f} ms  ({run['cpu_s']:.2f} s in all, process tree)"
    )
    where = "" if server is not None else "; includes the server thread"
    print(
        f"  LiteLLM CPU / call   {litellm_ms:8.3f} ms  (client CPU minus runner+sim+tools{where})"
    )
    if server is not None:
        print(
            f"  server CPU / call    {_ms(server, calls)}  ({server:.2f} s in all: HTTP + "
            "heuristic policy, its own process)"
        )
    # Each client process is serial under its GIL (one core at most), and client + server
    # together cannot use more than every core of the machine.
    total = run["cpu_s"] + (server or 0.0)
    floor = max(run["cpu_s"] / run["workers"], total / cores, ideal)
    print(
        f"  best ratio possible  {floor / ideal:8.3f}     (max(client CPU over {run['workers']} "
        f"process(es), client+server CPU on {cores} cores, ideal) / ideal)"
    )
    print(
        f"  peak memory          {run['peak_pss_mib']:8.1f} MiB PSS of the process tree "
        f"(this process's own peak RSS {run['peak_rss_mib']:.1f} MiB)"
    )


def _client_report(args: argparse.Namespace, bi: dict[str, Any]) -> list[dict[str, Any]]:
    """Every phase of one client path, and its report; returns its litellm runs."""
    lit = _run_phase("litellm", args, trials=args.trials, concurrency=args.concurrency)
    low = (
        _run_phase("litellm", args, trials=args.low_trials, concurrency=args.low_concurrency)
        if args.low_concurrency > 0
        else None
    )
    prof = (
        _run_phase("profile", args, trials=args.profile_trials, concurrency=args.concurrency)
        if args.profile_trials > 0
        else None
    )
    split = _run_phase("split", args, trials=args.trials, concurrency=args.concurrency)
    alone = None
    if args.client_alone:
        with tempfile.TemporaryDirectory(prefix="taurec-bench-requests-") as folder:
            args.requests_file = str(Path(folder) / "requests.pickle")
            _run_phase("record", args, trials=args.trials, concurrency=args.concurrency)
            alone = _run_phase("client", args, trials=args.trials, concurrency=args.concurrency)
    steps = max(bi["model_calls"], 1)
    env_cpu = bi["cpu_simulator_s"] + bi["cpu_tools_s"]
    runner_cpu = bi["cpu_s"] - bi["cpu_policy_s"] - env_cpu
    harness_per_call = (runner_cpu + env_cpu) / steps
    print(f"\n=== client path: {args.client} ===")

    print(
        f"model client: {args.client} (the 'LiteLLM' figures below are that client's: LiteLLM, or "
        "the direct client and aiohttp)"
    )
    print(
        f"suite: {lit['suite']}, +{args.latency_ms:.0f} ms per model call, {os.cpu_count()} CPUs, "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    print(
        f"per model call, from the builtin run ({bi['trials']} trials at concurrency "
        f"{args.concurrency}, {steps} agent steps, CPU {bi['cpu_s']:.2f} s, "
        f"peak {bi['peak_rss_mib']:.1f} MiB):"
    )
    print(
        f"  runner             {_ms(runner_cpu, steps)}  (target < 1 ms: loop, scheduling, "
        "scoring, records, transcripts, I/O)"
    )
    print(f"  user simulator     {_ms(bi['cpu_simulator_s'], steps)}")
    print(f"  tools (search …)   {_ms(bi['cpu_tools_s'], steps)}")
    print(f"  runner+sim+tools   {_ms(runner_cpu + env_cpu, steps)}  (in-process but the model)")
    print(f"  heuristic policy   {_ms(bi['cpu_policy_s'], steps)}  (in the server in litellm runs)")
    _report_litellm_run(lit, harness_per_call, args.latency_ms)
    if prof is not None:
        share = prof["litellm_share"]
        calls = max(lit["model_calls"], 1)
        client_ms = lit["cpu_s"] / calls * 1000
        print(
            f"CPU attribution (cProfile, CPU timer, {prof['trials']} trials in 1 process, "
            f"{prof['model_calls']} calls; profiling inflates absolute times, so only shares are used):"
        )
        print(
            f"  main thread {share['main_s']:.2f} s, {share['main_litellm_share']:.1%} of it under "
            f"calls into LiteLLM; its executor threads {share['executor_s']:.2f} s; our I/O thread "
            f"{share['io_s']:.2f} s; other threads {share['other_s']:.2f} s (counted as LiteLLM's)"
        )
        print(f"  LiteLLM share of the run's CPU  {share['share']:8.1%}")
        print(
            f"  CPU per call excl. LiteLLM     {client_ms * (1 - share['share']):8.3f} ms  "
            f"(target < 0.5 ms: {client_ms:.3f} ms per call of the litellm run × "
            f"(1 − {share['share']:.3f}))"
        )
    if alone is not None:
        calls = max(lit["model_calls"], 1)
        run_ms = lit["cpu_s"] / calls * 1000
        alone_ms = alone["cpu_s"] / max(alone["calls"], 1) * 1000
        print(
            f"Client alone: the run's {alone['calls']} requests (recorded in a run of the same "
            f"trials) sent again through the same client, {args.workers} process(es), "
            f"concurrency {args.concurrency} in all, no trials around them:"
        )
        print(f"  client CPU / call alone          {alone_ms:8.3f} ms")
        print(
            f"  CPU per call excl. the client    {run_ms - alone_ms:8.3f} ms  (target < 0.5 ms: "
            f"{run_ms:.3f} ms per call of the litellm run − {alone_ms:.3f} ms)"
        )
    seconds, calls = split["split"], max(split["model_calls"], 1)
    rest = split["cpu_s"] - sum(seconds.values())
    print(
        f"Exact split of one process's CPU (the same trials in 1 process, {split['cpu_s']:.2f} s "
        "with the timers' own cost; thread CPU of every event-loop callback, see _LoopCPU):"
    )
    print(
        f"  ours (trial code, engine, commit thread)  {_ms(seconds['ours'], calls)}  (target < 0.5 ms)"
    )
    print(
        f"  the client (its coroutines, body writer and socket callbacks)  {_ms(seconds['client'], calls)}"
    )
    print(
        f"  the loop itself (selector, futures, timers)  {_ms(seconds['loop'] + rest, calls)}  "
        "(shared; includes the timers' own cost)"
    )
    if low is not None:
        _report_litellm_run(low, harness_per_call, args.latency_ms)
    return [r for r in (lit, low) if r is not None]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=8)
    parser.add_argument("--tasks-limit", type=int, default=60)
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--latency-ms", type=float, default=200.0)
    parser.add_argument(
        "--low-concurrency",
        type=int,
        default=8,
        help="also run at this concurrency, where the client is not CPU-bound (0: skip)",
    )
    parser.add_argument("--low-trials", type=int, default=2, help="trials for the low run")
    parser.add_argument(
        "--server",
        choices=["process", "thread"],
        default="process",
        help="model server in its own process (default) or a thread of the client process",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=os.cpu_count() or 1,
        help="processes of the litellm runs (default: the machine's cores, as `taurec run`)",
    )
    parser.add_argument(
        "--simulator",
        choices=["litellm", "scripted"],
        default="litellm",
        help="the user in the litellm runs: the LiteLLM simulator against the server (default) "
        "or the scripted one",
    )
    parser.add_argument(
        "--client",
        choices=["both", "direct", "litellm"],
        default="both",
        help="the model client of the litellm runs: both paths, one after the other, then side "
        "by side (default); the default client (direct for this OpenAI-compatible server, "
        "runner.models.openai_compat); or LiteLLM forced (TAUREC_LLM_CLIENT=litellm: the path of every "
        "hosted provider)",
    )
    parser.add_argument(
        "--profile-trials",
        type=int,
        default=None,
        help="trials per task of the cProfile run that attributes CPU to the client (default: "
        "--trials, so the run's one-time set-up weighs in the profile as much as in the run whose "
        "CPU it divides; 0: skip)",
    )
    parser.add_argument(
        "--dump-profile", default="", help="also write the profile run's pstats to this file"
    )
    parser.add_argument(
        "--client-alone",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="also record the litellm run's requests and send them alone through the same client "
        "(the exact client CPU the run's figure is corrected by; default on)",
    )
    parser.add_argument(
        "--phase",
        choices=["litellm", "builtin", "profile", "record", "client", "split"],
        help=argparse.SUPPRESS,
    )
    parser.add_argument("--requests-file", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.profile_trials is None:
        args.profile_trials = args.trials
    if args.phase:
        result = _client_phase(args) if args.phase == "client" else _phase(args.phase, args)
        print(json.dumps(result))
        return
    bi = _run_phase("builtin", args, trials=args.trials, concurrency=args.concurrency)
    clients = ["direct", "litellm"] if args.client == "both" else [args.client]
    runs: list[dict[str, Any]] = []
    for client in clients:
        args.client = client
        runs += _client_report(args, bi)
    print(
        f"\nSide by side (+{args.latency_ms:.0f} ms per call, {os.cpu_count()} CPUs, load average "
        f"{os.getloadavg()[0]:.1f}; CPU of the run's process tree, never the server's):"
    )
    print(
        "| client path | concurrency | wall (s) | ideal (s) | wall/ideal | CPU/call (ms) | "
        "peak PSS (MiB) |"
    )
    print("|---|---|---|---|---|---|---|")
    for run in sorted(runs, key=lambda r: (r["concurrency"], r["client"])):
        ideal = run["model_calls"] * args.latency_ms / 1000 / run["concurrency"]
        print(
            f"| {run['client']} | {run['concurrency']} | {run['wall_s']:.2f} | {ideal:.2f} | "
            f"{run['wall_s'] / ideal:.2f} | "
            f"{run['cpu_s'] / max(run['model_calls'], 1) * 1000:.2f} | {run['peak_pss_mib']:.0f} |"
        )


if __name__ == "__main__":
    main()
