"""Smoke-run submission configs offline (a few tasks × one trial, scripted simulator, local model servers): what a submission PR's check runs."""

from __future__ import annotations

import contextlib
import json
import re
import shutil
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import yaml

from runner.core.domain import SUITE_MARKER, DomainTask
from runner.core.errors import TaurecError
from runner.core.paths import TASKS_DIR
from runner.play.agent_config import (
    AgentConfig,
    BuiltinAgentConfig,
    HttpAgentConfig,
    LiteLLMAgentConfig,
)
from runner.submissions.config import (
    SUBMISSION_FILE,
    Problem,
    Submission,
    check_submission,
    has_errors,
    load_submission,
)

# The model server's model that stands in for an agent that cannot be reached.
STAND_IN_MODEL = "heuristic"
SMOKE_MODEL = f"openai/{STAND_IN_MODEL}"
COMPLEXITY_ORDER = ("simple", "medium", "complex")


@dataclass
class SmokeTrial:
    task_id: str
    complexity: str
    status: str
    stop_reason: str | None
    reward: float | None
    turns: int
    tool_calls: int
    error: str | None = None


@dataclass
class SmokeEntry:
    """One submission's smoke run: passed when it checks clean and every trial was scored."""

    folder: str
    slug: str | None = None
    kind: str | None = None
    ran_as: str = ""
    status: str = "skipped"  # passed | stand-in | failed | skipped
    reason: str = ""
    problems: list[Problem] = field(default_factory=list)
    trials: list[SmokeTrial] = field(default_factory=list)


@dataclass
class SmokeReport:
    entries: list[SmokeEntry]
    snapshot: str
    task_ids: list[str]
    trials: int
    wall_time_s: float

    @property
    def ok(self) -> bool:
        return all(e.status != "failed" for e in self.entries)

    def markdown(self, *, escape_html: bool = True) -> str:
        """A comment-ready summary (GitHub-flavoured markdown). An entry that ran on a stand-in
        (its own endpoint or model did not answer as it should) is never shown as passed.
        `escape_html=False` is the same table for a terminal: what an endpoint answered is shown
        as it came (`<html>`, not `&lt;html&gt;`)."""

        def _cell(text: str) -> str:
            return _table_cell(text, escape_html=escape_html)

        stand_ins = [e.slug or e.folder for e in self.entries if e.status == "stand-in"]
        if not self.ok:
            verdict = "❌ failed"
        elif stand_ins:
            verdict = "⚠️ config runs; not a pass for " + ", ".join(f"`{s}`" for s in stand_ins)
        else:
            verdict = "✅ passed"
        lines = [
            f"### Submission smoke run {verdict}",
            "",
            f"Snapshot `{self.snapshot}`, tasks {', '.join(f'`{t}`' for t in self.task_ids)}, "
            f"{self.trials} trial(s) each, scripted simulator, offline model server "
            f"({self.wall_time_s:.1f} s). A smoke run shows the config runs end to end; "
            "its rewards are not leaderboard figures.",
            "",
            "| entry | agent | ran as | scored | infra errors | mean reward | result |",
            "|---|---|---|---|---|---|---|",
        ]
        for e in self.entries:
            scored = [t for t in e.trials if t.status == "scored"]
            errors = [t for t in e.trials if t.status == "infra_error"]
            rewards = [t.reward for t in scored if t.reward is not None]
            mean = f"{sum(rewards) / len(rewards):.2f}" if rewards else "–"
            mark = {"passed": "✅", "failed": "❌", "stand-in": "⚠️"}.get(e.status, "⏭️")
            result = f"{mark} {e.status}" + (f": {_cell(e.reason)}" if e.reason else "")
            lines.append(
                f"| `{_cell(e.slug or e.folder)}` | {e.kind or '–'} | {_cell(e.ran_as) or '–'} "
                f"| {len(scored)} | {len(errors)} | {mean} | {result} |"
            )
        for e in self.entries:
            if not e.trials:
                continue
            lines += [
                "",
                f"<details><summary><code>{_cell(e.slug or e.folder)}</code> trials</summary>",
                "",
                "| task | complexity | status | stop | reward | turns | tool calls |",
                "|---|---|---|---|---|---|---|",
            ]
            for t in e.trials:
                reward = "–" if t.reward is None else f"{t.reward:.2f}"
                status = t.status + (f" ({_cell(t.error)})" if t.error else "")
                lines.append(
                    f"| `{t.task_id}` | {t.complexity} | {status} | {t.stop_reason or '–'} "
                    f"| {reward} | {t.turns} | {t.tool_calls} |"
                )
            lines += ["", "</details>"]
        return "\n".join(lines) + "\n"


def _table_cell(text: str, *, escape_html: bool = True) -> str:
    cell = text.replace("|", "\\|").replace("\n", " ")
    return cell.replace("<", "&lt;").replace(">", "&gt;") if escape_html else cell


# --------------------------------------------------------------------------- task choice


def choose_smoke_tasks(tasks_dir: Path, count: int) -> list[tuple[Path, DomainTask]]:
    """`count` active tasks, deterministic: one per complexity first, then in id order."""
    from runner.batch.inputs import domain_of_suite

    domain = domain_of_suite(tasks_dir)
    files = (path for path in tasks_dir.glob("*.json") if path.name != SUITE_MARKER)
    loaded: list[tuple[Path, DomainTask]] = sorted(
        ((path, domain.load_task(path)) for path in files), key=lambda p: p[1].id
    )
    active = [(p, t) for p, t in loaded if getattr(t, "retired", None) is None]
    if len(active) < count:
        raise TaurecError(f"{tasks_dir}: {len(active)} active task(s), the smoke run needs {count}")
    chosen: list[tuple[Path, DomainTask]] = []
    for level in COMPLEXITY_ORDER:
        first = next((pt for pt in active if pt[1].complexity == level), None)
        if first is not None and len(chosen) < count:
            chosen.append(first)
    for pt in active:
        if len(chosen) >= count:
            break
        if pt not in chosen:
            chosen.append(pt)
    return chosen


# --------------------------------------------------------------------------- offline agents


class _StandInHandler(BaseHTTPRequestHandler):
    """Speaks the `http` agent protocol with the model server's stand-in model behind it."""

    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        return

    def do_POST(self) -> None:
        from runner.agents import build_system_prompt
        from runner.agents.http_protocol import AgentStepRequest, AgentStepResponse, StepToolCall
        from runner.models.model_server import derive_seed, served_model

        length = int(self.headers.get("Content-Length") or 0)
        try:
            request = AgentStepRequest.model_validate_json(self.rfile.read(length))
            system = build_system_prompt(request.policy, request.user_id)
            messages = [{"role": "system", "content": system}, *request.messages]
            policy = served_model(STAND_IN_MODEL)
            fixed = getattr(self.server, "fixed_seed", None)
            reply = policy(
                messages, request.tools, derive_seed(messages) if fixed is None else fixed
            )
            body = AgentStepResponse(
                message=reply.content,
                tool_calls=[
                    StepToolCall(id=c.id, name=c.name, arguments=c.arguments)
                    for c in reply.tool_calls
                ],
            ).model_dump_json()
            status = 200
        except Exception as exc:  # the submitter's run must see why, as an HTTP error
            body, status = json.dumps({"error": repr(exc)}), 500
        payload = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)


@contextlib.contextmanager
def serve_http_stand_in(seed: int | None = None) -> Iterator[str]:
    """An `http`-protocol agent endpoint on 127.0.0.1 (heuristic policy); yields its URL. Each
    step's seed is drawn from its messages, as the model server's are; `seed` fixes it (a test
    comparing the endpoint with the in-process heuristic of that seed)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _StandInHandler)
    server.fixed_seed = seed  # type: ignore[attr-defined]
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.daemon = True
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/step"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def offline_config(
    submission: Submission, *, model_url: str, stand_in_url: str
) -> tuple[Submission, str]:
    """The same submission pointed at this machine's servers, and how it was redirected."""
    agent = submission.agent
    redirected: AgentConfig
    if isinstance(agent, LiteLLMAgentConfig):
        redirected = agent.model_copy(
            update={
                "model": SMOKE_MODEL,
                "api_base": model_url,
                "api_key_env": None,
                "requests_per_minute": None,
                "reasoning_effort": None,
                "extra_body": {},
            }
        )
        how = f"LiteLLM → `{SMOKE_MODEL}` on the local model server (was `{agent.model}`)"
    elif isinstance(agent, HttpAgentConfig):
        redirected = agent.model_copy(update={"endpoint": stand_in_url, "headers_env": {}})
        how = "http protocol → local stand-in endpoint (heuristic policy)"
    else:
        assert isinstance(agent, BuiltinAgentConfig)
        redirected = agent
        how = f"built-in `{agent.name}`"
    return submission.model_copy(update={"agent": redirected}), how


def _real_target(submission: Submission) -> str:
    agent = submission.agent
    if isinstance(agent, HttpAgentConfig):
        return f"your endpoint {agent.endpoint}"
    if isinstance(agent, LiteLLMAgentConfig):
        return f"your model {agent.model}"
    return f"built-in `{agent.name}`" if isinstance(agent, BuiltinAgentConfig) else "the agent"


# Failure kinds that mean the endpoint or model answered, just not as it should.
_ANSWERED_KINDS = ("MalformedResponse", "ServerError", "ClientError", "ProtocolError", "RateLimit")
_STATUS = re.compile(r"\bHTTP (\d{3})\b")
_BODY_SHOWN = 200


def describe_probe_failure(target: str, failure: str) -> str:
    """What the probe of the entry's own agent found, in the submitter's terms: what the endpoint
    answered (its status and the start of its body) when it answered, else that it could not be
    reached, and why."""
    detail = failure.removeprefix("AgentFailure: ").removeprefix("InfraFailure: ")
    kind, _, rest = detail.partition(": ")
    answered = kind in _ANSWERED_KINDS or _STATUS.search(detail) is not None
    if not answered:
        return f"{target} not reachable ({detail})"
    status = _STATUS.search(rest)
    # "http agent <url>: what went wrong\nprotocol rule: ...\nreply: <body>"
    what = rest.split(": ", 1)[1] if rest.startswith(("http agent ", "litellm ")) else rest
    lines = what.splitlines()
    body = next((x.removeprefix("reply: ") for x in lines if x.startswith("reply: ")), None)
    summary = lines[0] if lines else what
    if body is not None and len(body) > _BODY_SHOWN:
        body = body[:_BODY_SHOWN] + "…"
    said = f"HTTP {status.group(1)}" if status else "a success status"
    tail = f"; its reply began: {body}" if body is not None else ""
    return f"{target} answered with {said}, not as the protocol asks: {summary}{tail}"


def _probe_real(submission: Submission, task: DomainTask, policy: Path) -> str | None:
    """None when the entry's own endpoint or model answers one request (the preflight of
    `taurec run`: key variables set, one real request, a few seconds at most); else why not."""

    from runner.agents import build_agent
    from runner.batch.preflight import preflight_entries
    from runner.core.protocols import AgentContext
    from runner.models.llm_client import run_closing_clients

    if isinstance(submission.agent, BuiltinAgentConfig):
        return None
    context = AgentContext(
        user_id=task.user_id, policy_text=policy.read_text(encoding="utf-8"), seed=0
    )
    try:
        failures = run_closing_clients(
            preflight_entries([(submission.slug, submission.agent)], context, build_agent)
        )
    except (TimeoutError, TaurecError, OSError) as exc:
        return str(exc)
    if not failures:
        return None
    return f"{failures[0].kind}: {failures[0].message}"


# --------------------------------------------------------------------------- the smoke run


def smoke_submissions(
    folders: Sequence[Path | str],
    *,
    tasks: int = 3,
    trials: int = 1,
    snapshot: str | Path | None = None,
    tasks_dir: Path | str | None = None,
    seed: int = 0,
    work_dir: Path | None = None,
) -> SmokeReport:
    """Check each folder, then run the ones that pass on `tasks` tasks × `trials` trials.

    Each LiteLLM or `http` entry first gets the preflight of `taurec run` (its key variables,
    one real request): when its own model or endpoint answers, the trials run against it.
    When it does not (no key, no network, as on a pull request), the entry runs on a stand-in
    — the local model server (heuristic policy) or a local `http` endpoint — to show that the
    config runs end to end, and its status is `stand-in`, never `passed`. Built-ins run as they
    are. Results go to a temporary folder (or `work_dir`), never into the submission folders.
    """
    from runner.batch import find_policy, run_submissions
    from runner.models.model_server import serve_model

    started = time.perf_counter()
    source_tasks = Path(tasks_dir) if tasks_dir is not None else TASKS_DIR
    chosen = choose_smoke_tasks(source_tasks, tasks)
    entries = [SmokeEntry(folder=str(f)) for f in folders]
    with contextlib.ExitStack() as stack:
        work = work_dir or Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="smoke-")))
        smoke_tasks = work / "tasks"
        smoke_tasks.mkdir(parents=True, exist_ok=True)
        for path, _ in chosen:
            shutil.copyfile(path, smoke_tasks / path.name)
        shutil.copyfile(find_policy(source_tasks), smoke_tasks / "policy.md")
        model_url = stack.enter_context(serve_model())
        stand_in_url = stack.enter_context(serve_http_stand_in())
        runnable: list[tuple[SmokeEntry, Path]] = []
        stand_in: set[str] = set()
        for entry in entries:
            entry.problems = check_submission(entry.folder)
            if has_errors(entry.problems):
                entry.status, entry.reason = "failed", "submission check failed"
                continue
            submission = load_submission(entry.folder)
            entry.slug, entry.kind = submission.slug, submission.agent.kind
            unreachable = _probe_real(submission, chosen[0][1], find_policy(source_tasks))
            if unreachable is None:
                offline, entry.ran_as = submission, _real_target(submission)
            else:
                offline, entry.ran_as = offline_config(
                    submission, model_url=model_url, stand_in_url=stand_in_url
                )
                entry.reason = (
                    f"{describe_probe_failure(_real_target(submission), unreachable)}; a local "
                    "stand-in ran the config instead — not a pass for your agent"
                )
                stand_in.add(submission.slug)
            target = work / "submissions" / submission.slug
            target.mkdir(parents=True, exist_ok=True)
            document = offline.model_dump(mode="json")
            (target / SUBMISSION_FILE).write_text(
                yaml.safe_dump(document, sort_keys=False, allow_unicode=True), encoding="utf-8"
            )
            runnable.append((entry, target))
        results = []
        if runnable:
            results = run_submissions(
                [target for _, target in runnable],
                snapshot=snapshot,
                tasks_dir=smoke_tasks,
                trials=trials,
                seed=seed,
                simulator="scripted",
                concurrency=8,
                fresh=True,
            )
        by_slug = {r.submission: r for r in results}
        complexity = {t.id: t.complexity for _, t in chosen}
        snapshot_label = results[0].manifest.snapshot if results else str(snapshot or "latest")
        for entry, _ in runnable:
            result = by_slug.get(entry.slug or "")
            if result is None:
                entry.status, entry.reason = "failed", "the runner returned no result"
                continue
            for record in sorted(result.records, key=lambda r: r.key.task_id):
                entry.trials.append(
                    SmokeTrial(
                        task_id=record.key.task_id,
                        complexity=complexity.get(record.key.task_id, "?"),
                        status=record.status,
                        stop_reason=record.stop_reason,
                        reward=record.score.reward if record.score else None,
                        turns=record.efficiency.turns,
                        tool_calls=record.efficiency.tool_calls,
                        error=f"{record.error.kind}: {record.error.message}"
                        if record.error
                        else None,
                    )
                )
            expected = len(chosen) * trials
            scored = sum(t.status == "scored" for t in entry.trials)
            if scored != expected:
                entry.status = "failed"
                entry.reason = f"{scored} of {expected} trials scored" + (
                    f"; {entry.reason}" if entry.reason else ""
                )
            elif entry.slug in stand_in:
                entry.status = "stand-in"
            else:
                entry.status = "passed"
    return SmokeReport(
        entries=entries,
        snapshot=snapshot_label,
        task_ids=[t.id for _, t in chosen],
        trials=trials,
        wall_time_s=time.perf_counter() - started,
    )
